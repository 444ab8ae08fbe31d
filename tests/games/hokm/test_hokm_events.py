"""Hokm's events through a Table: a hand dealt (each seat sees only its own cards), the declarer when
bidding closes, each trick with its winner, and each hand's score breakdown before the next deal."""

from __future__ import annotations

import random
from typing import Any

import cardhall
from cardhall.cards import parse_cards
from cardhall.games.hokm.rules import HokmState, deck_for_hands
from cardhall.table import Table
from tests.games import schemas
from tests.helpers import bounded, playing

# With seed 0 the first dealer is seat 2, so seat 0 bids and leads first. Seat 0: all seven hearts and
# A 10 K of spades; seat 1: all clubs, Q J of spades; seat 2: all diamonds, 9 8 7 of spades.
SPLIT = [
    "JH 9H AH 10H KH QH 8H AS 10S KS",
    "AC KC QC JC 10C 9C 8C 7C QS JS",
    "AD KD QD JD 10D 9D 8D 9S 8S 7S",
]


def split_table(options: str = "") -> Table:
    game = cardhall.load_game(f"hokm({options})" if options else "hokm")
    deck = deck_for_hands(2, [parse_cards(h) for h in SPLIT])
    return Table(game, seed=0, deck=deck, audit=True)


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def test_the_deal_shows_each_seat_its_own_hand_only() -> None:
    table = split_table()
    for seat in range(3):
        (deal,) = of_type(table.events(seat), "deal")
        assert deal["deal"] == 1 and deal["dealer"] == 2
        assert deal["hand"] == table.observation(seat)["hand"]
        assert sorted(deal["hand"]) == sorted(SPLIT[seat].split())
    (public,) = of_type(table.events(None), "deal")
    assert public == {"n": public["n"], "type": "deal", "deal": 1, "dealer": 2}


def test_bidding_closes_with_the_declarer_and_his_contract() -> None:
    table = split_table()
    table.apply(0, "bid 5")
    table.apply(1, "bid 7")
    assert not of_type(table.events(None), "declarer")
    new = table.apply(2, "bid 7")  # a tie goes to the earlier bidder
    assert [e["type"] for e in new] == ["action", "declarer"]
    assert new[-1]["seat"] == 1 and new[-1]["contract"] == 7
    table.apply(1, "trump C")
    assert table.observation(None)["trump"] == "C"


def test_a_trick_event_names_its_cards_and_winner() -> None:
    table = split_table()
    for seat, text in [(0, "bid kaboot"), (1, "bas"), (2, "bid 3"), (0, "trump H")]:
        table.apply(seat, text)
    table.apply(0, "play AS")
    table.apply(1, "play QS")
    events = table.apply(2, "play 7S")
    assert [e["type"] for e in events] == ["action", "trick"]
    trick = events[-1]
    assert trick["leader"] == 0 and trick["winner"] == 0
    assert trick["cards"] == [{"seat": 0, "card": "AS"}, {"seat": 1, "card": "QS"}, {"seat": 2, "card": "7S"}]
    assert table.observation(1)["tricks"][-1] == {k: trick[k] for k in ("leader", "cards", "winner")}
    # Outside trump the ten ranks above the jack.
    table.apply(0, "play 10S")
    table.apply(1, "play JS")
    trick = table.apply(2, "play 9S")[-1]
    assert trick["winner"] == 0


def test_a_kaboot_hand_is_scored_with_its_breakdown() -> None:
    table = split_table("max_hands=2")
    state = table.state
    assert isinstance(state, HokmState)
    for seat, text in [(0, "bid kaboot"), (1, "bas"), (2, "bid 3"), (0, "trump H")]:
        table.apply(seat, text)
    rng = random.Random(0)
    for lead in ["AS", "10S", "KS", "JH", "9H", "AH", "10H", "KH", "QH", "8H"]:
        table.apply(0, f"play {lead}")
        for seat in (1, 2):
            table.apply(seat, rng.choice(state.legal_actions(seat)))
    events = table.events(None)
    (scored,) = of_type(events, "deal_scored")
    assert scored == {
        "n": scored["n"],
        "type": "deal_scored",
        "deal": 1,
        "points": [200, -20, -30],
        "totals": [200, -20, -30],
        "declarer": 0,
        "trump": "H",
        "contracts": [10, 2, 3],
        "tricks": [10, 0, 0],
        "made": [True, False, False],
    }
    assert all(t["winner"] == 0 for t in of_type(events, "trick"))
    # The next hand is dealt after the score, by the next dealer.
    deals = of_type(events, "deal")
    assert [d["deal"] for d in deals] == [1, 2] and deals[1]["dealer"] == 0
    assert deals[0]["n"] < scored["n"] < deals[1]["n"]
    assert scored["n"] == events.index(scored) + 1


def test_every_hand_breakdown_adds_up_to_the_score_sheet() -> None:
    for options in ("max_hands=4", "max_hands=4,overtricks=exact", "max_hands=4,overtricks=count"):
        game = cardhall.load_game(f"hokm({options})")
        table = Table(game, ["rules", "rules", "rules"], seed=3)
        state = table.play()
        assert isinstance(state, HokmState)
        rows = of_type(table.events(None), "deal_scored")
        assert len(rows) == len(state.score_sheet) == state.deals_finished == 4
        for event, row in zip(rows, state.score_sheet, strict=True):
            assert event["deal"] == row["hand"]
            for k in ("points", "totals", "declarer", "trump", "contracts", "tricks"):
                assert event[k] == row[k]
            assert sum(event["tricks"]) == 10
            for made, points in zip(event["made"], event["points"], strict=True):
                assert made == (points > 0)
            assert not schemas.errors("hokm", "event", event)
        assert rows[-1]["totals"] == list(state.scores)


def test_the_trick_events_of_a_hand_tell_what_the_observation_shows() -> None:
    game = cardhall.load_game("hokm(max_hands=1)")
    table = Table(game, ["rules", "rules", "rules"], seed=8)
    state = table.state
    assert isinstance(state, HokmState)
    for _ in bounded(lambda: state.phase != "play" or sum(state.tricks_won) < 9):
        table.play_bot(state.to_act[0])
    tricks = of_type(table.events(2), "trick")
    assert [{k: t[k] for k in ("leader", "cards", "winner")} for t in tricks] == table.observation(2)[
        "tricks"
    ]
    assert [t["winner"] for t in tricks] == [w for _, _, w in state.tricks]


def test_no_event_is_logged_without_a_listener() -> None:
    state = cardhall.load_game("hokm(max_hands=1)").new_game(seed=1)
    assert state.events is None
    rng = random.Random(1)
    for _ in playing(state):
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert state.events is None
    assert state.clone().events is None
