"""Svara's events through a Table: what each seat (and a spectator) is told, and when.

Tables are stacked like the rules tests' (``tests/games/svara/test_svara_rules.py``): the first deal gives
``hands[i]`` to seat ``i`` and the dealer is the last seat, so seat 0 acts first.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

import cardhall
from cardhall.cards import parse_cards
from cardhall.games.svara.hands import DECK
from cardhall.games.svara.rules import SvaraState
from cardhall.table import Table
from tests.games import schemas
from tests.games.svara.test_svara_rules import BEST, MID, TIE3, WORST, find, seeds_with_last_dealer, value

Event = dict[str, Any]


def stacked(game_string: str, *hands: str, seed: int | None = None) -> Table:
    game = cardhall.load_game(game_string)
    n = game.num_players
    given = [parse_cards(h) for h in hands]
    used = {c for h in given for c in h}
    deck = [given[i][r] for r in range(3) for i in range(n)] + [c for c in DECK if c not in used]
    if seed is None:
        seed = seeds_with_last_dealer(n)[0]
    return Table(game, seed=seed, deck=deck, audit=True)


def play(table: Table, *moves: str) -> None:
    for move in moves:
        seat, text = move.split(" ", 1)
        assert table.to_act == (int(seat),), f"{move}: to act is {table.to_act}"
        table.apply(int(seat), text)


def of_type(table: Table, kind: str, seat: int | None = None) -> list[Event]:
    return [e for e in table.events(seat) if e["type"] == kind]


def state_of(table: Table) -> SvaraState:
    state = table.state
    assert isinstance(state, SvaraState)
    return state


def test_the_deal_names_its_number_dealer_and_stakes_and_deals_face_down() -> None:
    table = stacked("svara(players=3,ante=10,min_blind=2)", BEST, WORST, MID)
    for seat in (0, 1, 2, None):
        (deal,) = of_type(table, "deal", seat)
        assert deal["deal"] == 1 and deal["dealer"] == 2
        assert deal["ante"] == 10 and deal["min_blind"] == 20 and deal["pot"] == 30
        assert deal["players"] == [0, 1, 2] and deal["stacks"] == [990, 990, 990]
        # the cards lie face down: a player's own cards are hidden from him too
        assert deal["hand"] == ([] if seat is not None else None)


def test_looking_shows_each_player_his_own_cards_only() -> None:
    table = stacked("svara(players=3)", BEST, WORST, MID)
    assert of_type(table, "looked") == []
    play(table, "0 look")
    for seat, hand in enumerate((BEST, WORST, MID)):
        (looked,) = of_type(table, "looked", seat)
        assert sorted(looked["hand"]) == sorted(hand.split()) and looked["players"] == [0, 1, 2]
        assert looked["hand_value"] == state_of(table).ruleset.values[state_of(table).hands[seat]]
        others = set((BEST + " " + WORST + " " + MID).split()) - set(hand.split())
        assert not others & set(json.dumps(table.events(seat)).replace('"', " ").split())
    (spectator,) = of_type(table, "looked", None)
    assert spectator["hand"] is None and spectator["hand_value"] is None


def test_the_showdown_shows_the_contenders_and_settles_the_pot_but_never_folded_cards() -> None:
    table = stacked("svara(players=3)", BEST, WORST, MID)
    play(table, "0 look", "0 bet 10", "1 fold", "2 call")
    for seat in (0, 1, 2, None):
        (showdown,) = of_type(table, "showdown", seat)
        assert showdown["deal"] == 1 and showdown["svara"] == 0
        assert [(h["seat"], sorted(h["cards"]), h["value"]) for h in showdown["hands"]] == [
            (0, sorted(BEST.split()), 31),
            (2, sorted(MID.split()), 10),
        ]
        assert showdown["pots"] == [{"amount": 50, "eligible": [0, 2], "winner": 0, "tied": []}]
        assert showdown["stacks"][0] == 990 - 10 + 50
        # seat 1 folded: his cards never appear (but to himself when he looked)
        told = [e for e in table.events(seat) if not (seat == 1 and e["type"] == "looked")]
        assert not {"7D", "8H", "8S"} & set(json.dumps(told).replace('"', " ").split())
    # the shown cards were visible to everybody when the showdown was told
    n = next(e["n"] for e in table.events(None) if e["type"] == "showdown")
    hidden = dict(table.audit())[n]
    assert hidden is not None
    for seat in (0, 1, 2, None):
        assert not set(parse_cards(BEST + " " + MID)) & hidden[seat]


def test_side_pots_are_told_one_by_one() -> None:
    # The rules tests' side pots (tests/games/svara/test_svara_rules.py): deal 2 ranks the short stack best.
    hands = (WORST, MID, BEST, "8C 9H JD")
    first = ("0 blind 10", "1 blind 20", "2 look", "2 raise 20", "3 fold", "0 fold", "1 call")

    def ranked(state: SvaraState) -> bool:
        return value(state, 1) > value(state, 0) > value(state, 3) > value(state, 2)

    seed = find("svara(players=4,stack=100)", hands, first, ranked).seed
    table = stacked("svara(players=4,stack=100)", *hands, seed=seed)
    play(table, *first, "1 all in", "2 look", "2 raise 40", "3 all in", "0 all in")
    showdown = of_type(table, "showdown")[-1]
    assert [(p["amount"], p["eligible"], p["winner"], p["tied"]) for p in showdown["pots"]] == [
        (200, [0, 1, 2, 3], 1, []),
        (90, [0, 2, 3], 0, []),
        (20, [2, 3], 3, []),
    ]
    assert showdown["stacks"] == [90, 200, 90, 20]
    assert [h["seat"] for h in showdown["hands"]] == [0, 1, 2, 3]


def test_a_fold_out_and_a_dealer_win_are_told_without_cards() -> None:
    table = stacked("svara(players=3)", WORST, MID, BEST)
    play(table, "0 look", "0 bet 10", "1 fold", "2 fold")
    (won,) = of_type(table, "pot_won")
    assert won == {**won, "deal": 1, "svara": 0, "seat": 0, "amount": 40, "ended": "uncontested"}
    assert of_type(table, "showdown") == []
    table = stacked("svara(players=3)", BEST, MID, WORST)
    play(table, "0 look", "0 check", "1 check", "2 check")
    (won,) = of_type(table, "pot_won")
    assert won["seat"] == 2 and won["amount"] == 30 and won["ended"] == "dealer"


@pytest.mark.parametrize(("fee_option", "fee"), [("share", 24), ("half_pot", 35)])
def test_a_tie_announces_the_svara_its_price_and_who_may_join(fee_option: str, fee: int) -> None:
    table = stacked(f"svara(svara_fee={fee_option})", *TIE3)
    play(table, "0 look", "0 bet 10", "1 call", "2 call", "3 fold")
    (showdown,) = of_type(table, "showdown")
    assert showdown["pots"] == [{"amount": 70, "eligible": [0, 1, 2], "winner": None, "tied": [0, 1, 2]}]
    (svara,) = of_type(table, "svara")
    assert svara == {**svara, "deal": 1, "svara": 1, "pot": 70, "players": [0, 1, 2], "fee": fee}
    assert svara["may_join"] == [3]
    assert of_type(table, "deal_scored") == []  # the deal is not over before its svara
    play(table, "3 join svara")
    for seat in (0, 3, None):
        (deal,) = of_type(table, "svara_deal", seat)
        assert deal["deal"] == 1 and deal["svara"] == 1 and deal["dealer"] == 3
        assert deal["joined"] == [3] and deal["players"] == [0, 1, 2, 3] and deal["pot"] == 70 + fee
        assert deal["hand"] == ([] if seat is not None else None)
    assert len(of_type(table, "deal")) == 1  # a svara is no new deal


def test_deal_scored_once_per_deal_after_its_svaras_and_adds_up() -> None:
    table = stacked("svara(max_deals=2)", *TIE3)
    play(table, "0 look", "0 bet 10", "1 call", "2 call", "3 fold", "3 join svara")
    # the svara is dealt: bots play it and the next deal out
    for seat in range(4):
        table.sit(seat, "rules")
    table.play()
    state = state_of(table)
    events = table.events(None)
    kinds = [e["type"] for e in events]
    assert Counter(kinds)["deal"] == Counter(kinds)["deal_scored"] == state.deals_finished == 2
    first_scored = kinds.index("deal_scored")
    assert kinds.index("svara_deal") < first_scored < kinds.index("deal", kinds.index("deal") + 1)
    totals = [1000] * 4
    for scored in of_type(table, "deal_scored"):
        assert sum(scored["points"]) == 0
        assert scored["totals"] == [t + p for t, p in zip(totals, scored["points"], strict=True)]
        assert [w - p for w, p in zip(scored["won"], scored["paid"], strict=True)] == scored["points"]
        won = [0] * 4
        for row in scored["rounds"]:
            for w in row["won"]:
                won[w["seat"]] += w["amount"]
        assert won == scored["won"]
        totals = scored["totals"]
    first = of_type(table, "deal_scored")[0]
    assert [r["svara"] for r in first["rounds"]][:2] == [0, 1]
    assert first["rounds"][0]["svaras"] == [{"pot": 70, "players": [0, 1, 2]}]
    assert min(first["paid"][:3]) >= 20 and first["paid"][3] >= 10 + 24  # antes, the bet, the fee
    assert totals == list(state.scores)
    assert events[-1]["type"] == "match_over"


def test_a_player_short_of_the_ante_is_told_busted() -> None:
    table = stacked("svara(players=3,stack=20)", BEST, WORST, MID)
    play(table, "0 look", "0 all in", "1 all in", "2 fold")
    busted = of_type(table, "busted")[0]
    assert busted["deal"] == 1 and busted["players"] == [1] and busted["stacks"] == [50, 0, 10]
    kinds = [e["type"] for e in table.events(None)]
    second_deal = kinds.index("deal", kinds.index("deal") + 1)
    assert kinds.index("deal_scored") < kinds.index("busted") < second_deal
    # deal 2: seat 1 sits out; seat 2 is all in with his ante, so the hands are compared at once
    second = table.events(None)[second_deal]
    assert second["players"] == [0, 2] and second["stacks"] == [40, 0, 0]
    assert kinds[second_deal : second_deal + 3] == ["deal", "looked", "showdown"]


def test_every_event_of_a_long_match_follows_the_schema() -> None:
    table = Table("svara(players=5,stack=100,max_deals=8)", ["rules"] * 5, seed=11, audit=True)
    table.play()
    seen = Counter()
    for seat in (*range(5), None):
        for event in table.events(seat):
            assert not schemas.errors("svara", "event", event), event
            seen[event["type"]] += 1
    assert {"deal", "looked", "showdown", "deal_scored", "busted"} <= set(seen)
