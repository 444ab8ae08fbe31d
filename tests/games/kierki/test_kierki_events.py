"""Kierki's events at a Table, on stacked decks: the deal (each seat's hand to it alone), trump named (the
rest of the hand), tricks with their penalties, going out in the lottery, and the deal's score with a
breakdown that adds up to the score sheet."""

from __future__ import annotations

import random
from typing import Any

import cardhall
from cardhall.cards import format_card, parse_cards
from cardhall.games.kierki.rules import KierkiState, display_labels, trick_items, trick_penalty
from cardhall.table import Table
from tests.games.kierki.test_kierki_rules import DEALER, L1, L2, SEED, stack
from tests.helpers import playing


def table(hands: dict[int, str], options: str = "") -> Table:
    return Table(f"kierki({options})" if options else "kierki", seed=SEED, deck=stack(hands, DEALER))


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def play(t: Table, *cards: str) -> None:
    for card in cards:
        t.apply(t.to_act[0], "play " + card)


def play_lowest(t: Table) -> None:
    """Every seat plays its lowest legal action until the match ends."""
    for _ in playing(t):
        seat = t.to_act[0]
        t.apply(seat, t.legal_actions(seat)[0])


def hand_text(text: str) -> list[str]:
    mask = sum(1 << c for c in parse_cards(text))
    return display_labels(mask)


def test_state_logs_nothing_without_a_table() -> None:
    state = cardhall.load_game("kierki").new_game(seed=1)
    assert state.events is None
    assert state.clone().events is None


def test_the_deal_shows_each_seat_its_own_hand_only() -> None:
    t = table(L1, "first_deal=3")
    for seat in range(4):
        (deal,) = of_type(t.events(seat), "deal")
        assert deal["hand"] == hand_text(L1[seat])
        assert deal["deal"] == 1 and deal["deal_number"] == 3  # the first deal of a match from deal 3
        assert deal["name"] == "no queens" and deal["rule"] == "-60 per queen"
        assert deal["dealer"] == DEALER and deal["first_to_act"] == 0 and deal["phase"] == "play"
        assert deal["trump_chooser"] is None
    (spectator,) = of_type(t.events(None), "deal")
    assert spectator["hand"] is None


def test_a_trick_names_its_winner_and_its_penalties() -> None:
    # Seat 0 leads 2C, seat 1 QC, seat 2 (void in clubs) discards KH, seat 3 KC wins it.
    for deal, items in [
        (3, [("queens", 1, -60)]),
        (4, [("kings_and_jacks", 2, -60)]),
        (6, []),
        (
            7,
            [
                ("tricks", 1, -20),
                ("hearts", 1, -20),
                ("queens", 1, -60),
                ("kings_and_jacks", 2, -60),
                ("king_of_hearts", 1, -150),
            ],
        ),
    ]:
        t = table(L1, f"first_deal={deal}")
        play(t, "2C", "QC", "KH", "KC")
        (trick,) = of_type(t.events(2), "trick")
        assert trick["number"] == 1 and trick["leader"] == 0 and trick["winner"] == 3
        assert trick["cards"] == [
            {"seat": 0, "card": "2C"},
            {"seat": 1, "card": "QC"},
            {"seat": 2, "card": "KH"},
            {"seat": 3, "card": "KC"},
        ]
        assert [(i["item"], i["count"], i["points"]) for i in trick["items"]] == items
        state = t.state
        assert isinstance(state, KierkiState)
        assert trick["points"] == sum(i["points"] for i in trick["items"]) == state.deal_points[3]


def test_the_robber_breakdown_adds_up_to_the_score_sheet() -> None:
    t = table(L1, "first_deal=7,last_deal=7")
    play_lowest(t)
    state = t.state
    assert isinstance(state, KierkiState)
    events = t.events(None)
    tricks = of_type(events, "trick")
    (scored,) = of_type(events, "deal_scored")
    row = state.score_sheet[0]
    assert scored["points"] == row["points"] and scored["totals"] == row["totals"] == list(state.scores)
    assert scored["tricks"] == row["tricks"] and scored["out"] is None and scored["trump"] is None
    assert scored["deal"] == 1 and scored["deal_number"] == 7 and scored["name"] == "robber"
    assert len(tricks) == 13 and [e["number"] for e in tricks] == list(range(1, 14))
    for seat in range(4):
        items = scored["breakdown"][seat]
        assert [i["item"] for i in items] == [
            "tricks",
            "hearts",
            "queens",
            "kings_and_jacks",
            "king_of_hearts",
            "seventh_trick",
            "last_trick",
        ]
        assert sum(i["points"] for i in items) == row["points"][seat]
        assert sum(e["points"] for e in tricks if e["winner"] == seat) == row["points"][seat]
        assert items[0]["count"] == row["tricks"][seat]
    totals = {i["item"]: 0 for i in scored["breakdown"][0]}
    for items in scored["breakdown"]:
        for i in items:
            totals[i["item"]] += i["count"]
    assert totals == {
        "tricks": 13,
        "hearts": 13,
        "queens": 4,
        "kings_and_jacks": 8,
        "king_of_hearts": 1,
        "seventh_trick": 1,
        "last_trick": 1,
    }
    assert sum(row["points"]) == -1300
    # The match is over: the score comes before the end.
    assert [e["type"] for e in events[-2:]] == ["deal_scored", "match_over"]


def test_each_deal_is_scored_before_the_next_is_dealt() -> None:
    t = table(L1, "first_deal=3,last_deal=5")
    play_lowest(t)
    kinds = [(e["type"], e.get("deal")) for e in t.events(0) if e["type"] in ("deal", "deal_scored")]
    assert kinds == [
        ("deal", 1),
        ("deal_scored", 1),
        ("deal", 2),
        ("deal_scored", 2),
        ("deal", 3),
        ("deal_scored", 3),
    ]
    numbers = [e["deal_number"] for e in t.events(0) if e["type"] == "deal_scored"]
    assert numbers == [3, 4, 5] == [row["deal"] for row in t.state.score_sheet]  # type: ignore[attr-defined]


def test_trump_deal_first_five_then_the_whole_hand_after_trump_is_named() -> None:
    t = table(L1, "first_deal=8,last_deal=8")
    state = t.state
    assert isinstance(state, KierkiState)
    chooser = state.to_act[0]
    for seat in range(4):
        (deal,) = of_type(t.events(seat), "deal")
        assert deal["phase"] == "trump" and deal["trump_chooser"] == chooser == deal["first_to_act"]
        assert deal["name"] == "trumps 1"
        assert len(deal["hand"]) == 5 and set(deal["hand"]) <= set(L1[seat].split())
    before = t.number
    t.apply(chooser, "trump S")
    for seat in range(4):
        action, trump = t.events(seat, since=before)
        assert action["type"] == "action" and action["action"] == "trump S"
        assert trump == {
            "n": before + 2,
            "type": "trump",
            "trump": "S",
            "chooser": chooser,
            "leader": state.leader,
            "hand": hand_text(L1[seat]),
        }
    assert t.events(None, since=before)[1]["hand"] is None
    play_lowest(t)
    (scored,) = of_type(t.events(None), "deal_scored")
    assert scored["trump"] == "S" and scored["trump_chooser"] == chooser
    assert sum(scored["points"]) == 325
    for seat in range(4):
        ((item,),) = [scored["breakdown"][seat]]
        assert item["item"] == "tricks" and item["count"] == scored["tricks"][seat]
        assert item["points"] == 25 * item["count"] == scored["points"][seat]


def test_lottery_going_out_and_its_score() -> None:
    # Every seat holds one whole suit: each lays its own suit, 7 up then down, and passes otherwise.
    t = table(L2, "first_deal=12")
    rng = random.Random(0)
    for _ in playing(t):
        seat = t.to_act[0]
        legal = t.legal_actions(seat)
        t.apply(seat, rng.choice(legal))
    state = t.state
    assert isinstance(state, KierkiState)
    events = t.events(1)
    outs = of_type(events, "out")
    assert [(e["seat"], e["place"], e["points"]) for e in outs] == [
        (state.out[0], 1, 800),
        (state.out[1], 2, 500),
    ]
    (scored,) = of_type(events, "deal_scored")
    assert scored["out"] == state.out and scored["tricks"] is None and scored["deal_number"] == 12
    for seat in range(4):
        first, second = scored["breakdown"][seat]
        assert (first["item"], second["item"]) == ("first_out", "second_out")
        assert first["count"] == (seat == state.out[0]) and second["count"] == (seat == state.out[1])
        assert first["points"] + second["points"] == scored["points"][seat]
    assert [e["type"] for e in events[-4:]] == ["action", "out", "deal_scored", "match_over"]


def test_trick_items_add_up_to_the_trick_penalty() -> None:
    rng = random.Random(2)
    for _ in range(300):
        cards = rng.sample(range(52), 4)
        mask = sum(1 << c for c in cards)
        number = rng.randrange(1, 14)
        for deal in range(1, 8):
            items = trick_items(deal, number, mask)
            assert sum(i["points"] for i in items) == trick_penalty(deal, number, mask), (
                deal,
                [format_card(c) for c in cards],
            )
        assert trick_items(9, number, mask) == [{"item": "tricks", "count": 1, "points": 25}]
