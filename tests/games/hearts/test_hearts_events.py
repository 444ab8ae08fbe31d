"""The events of Hearts as each seat sees them at a Table: the deal, the exchange of passes, tricks (set
aside, collected), the widow, the moon and the scoring of a hand."""

from __future__ import annotations

from collections import Counter
from typing import Any

import cardhall
from cardhall.games.hearts.rules import MOON_PLUS, HeartsState
from cardhall.table import Table
from tests.games.hearts.test_hearts_rules import deal, moon_deal, twins
from tests.helpers import bounded

Event = dict[str, Any]


def table_of(state: HeartsState, seats: list[str] | None = None) -> Table:
    """A Table dealt exactly as ``state`` (same seed, same stacked deck)."""
    return Table(str(state.game), seats, state.seed, deck=state.stacked_deck)


def moves(table: Table, *moves: str) -> None:
    """Apply ``"seat:label"`` moves in order."""
    for move in moves:
        seat, label = move.split(":")
        table.apply(int(seat), label)


def of_type(table: Table, kind: str, seat: int | None = None) -> list[Event]:
    return [e for e in table.events(seat) if e["type"] == kind]


def test_the_deal_shows_each_seat_its_own_hand_only() -> None:
    state = twins()
    table = table_of(state)
    n = state.game.num_players
    for seat in range(n):
        (dealt,) = of_type(table, "deal", seat)
        assert dealt["deal"] == 1 and dealt["dealer"] == n - 1
        assert dealt["pass_direction"] == "hold" and dealt["widow_size"] == 2 and dealt["hand_size"] == 17
        assert dealt["hand"] == table.observation(seat)["hand"]
    (public,) = of_type(table, "deal", None)
    assert public["hand"] is None


def test_cancelled_tricks_are_set_aside_then_collected_with_the_widow() -> None:
    table = table_of(twins())
    moves(table, "0:2C", "1:2C", "2:2D", "3:2D", "4:3H", "5:3H")
    (first,) = of_type(table, "trick")
    assert first["number"] == 1 and first["leader"] == 0
    assert first["cards"][:2] == [{"seat": 0, "card": "2C"}, {"seat": 1, "card": "2C"}]
    assert first["winner"] is None and first["cancelled"] == ["2C"]
    assert first["points"] == 2 and first["set_aside"] == 1 and first["collected"] == 0
    moves(table, "0:3C", "1:3C", "2:3D", "3:3D", "4:QS", "5:4H")
    second = of_type(table, "trick")[-1]
    assert second["winner"] is None and second["points"] == 14 and second["set_aside"] == 2
    assert not of_type(table, "widow")
    moves(table, "0:4C", "1:AC", "2:4D", "3:4D", "4:5H", "5:5H")
    events = table.events(None)
    third, widow = events[-2:]
    assert third["type"] == "trick" and third["winner"] == 1 and third["cancelled"] == []
    assert third["points"] == 2 and third["collected"] == 2 and third["collected_points"] == 16
    assert third["set_aside"] == 0
    # The widow goes with the first won trick, face down: its size, never its cards.
    assert widow == {"n": widow["n"], "type": "widow", "seat": 1, "size": 2}
    assert table.events(3)[-2:] == events[-2:]  # nothing private in tricks


def test_the_widow_goes_with_the_last_won_trick_in_the_variant() -> None:
    table = Table("hearts(players=9,passing=none,widow=last_trick,max_hands=1)", ["rules"] * 9, seed=2)
    table.play()
    events = table.events(None)
    (widow,) = [e for e in events if e["type"] == "widow"]
    before = events[widow["n"] - 2]
    last_won = [e for e in events if e["type"] == "trick" and e["winner"] is not None][-1]
    assert before["type"] == "trick" and before["number"] == 11  # after the last trick
    assert widow["seat"] == last_won["winner"] == table.state.score_sheet[0]["widow_taker"]
    assert widow["size"] == 5


def test_passes_are_hidden_and_the_exchange_tells_each_seat_its_own_cards() -> None:
    table = Table("hearts(decks=1,players=4,max_hands=1)", seed=1)
    state = table.state
    assert isinstance(state, HeartsState)
    for seat in range(4):
        action = state.legal_actions(seat)[-1]
        assert state.action_audience(seat, action) == ((seat,), "pass")
        for _ in range(3):
            table.apply(seat, state.legal_actions(seat)[-1])
    assert state.action_audience(state.to_act[0], state.legal_actions(state.to_act[0])[0]) is None
    passes = [e for e in table.events(None) if e["type"] == "action"]
    assert all(e["hidden"] and e["action"] == "pass" for e in passes) and len(passes) == 12
    mine = [e["action"] for e in table.events(2) if e["type"] == "action" and e["seat"] == 2]
    assert len(mine) == 3 and all(a.startswith("pass ") and a != "pass" for a in mine)
    (public,) = of_type(table, "passes", None)
    assert public["direction"] == "left"
    assert public["passes"] == [{"seat": s, "to": (s + 1) % 4, "count": 3} for s in range(4)]
    assert public["passed_cards"] is None and public["received_cards"] is None
    for seat in range(4):
        (exchange,) = of_type(table, "passes", seat)
        obs = table.observation(seat)
        assert exchange["passed_cards"] == obs["passed_cards"] and len(obs["passed_cards"]) == 3
        assert exchange["received_cards"] == obs["received_cards"]
        giver = (seat - 1) % 4
        assert exchange["received_cards"] == table.observation(giver)["passed_cards"]
        assert {k: v for k, v in exchange.items() if k not in ("passed_cards", "received_cards")} == {
            k: v for k, v in public.items() if k not in ("passed_cards", "received_cards")
        }


def test_the_moon_is_announced_then_chosen_and_scored() -> None:
    table = table_of(moon_deal("hearts(decks=1,players=4,passing=none,max_hands=1)"))
    state = table.state
    for _ in bounded(lambda: state.phase == "play"):
        seat = state.to_act[0]
        table.apply(seat, state.legal_actions(seat)[-1])
    (moon,) = of_type(table, "moon")
    assert moon["seat"] == 0 and moon["choice"] is None  # the shooter chooses now
    assert not of_type(table, "deal_scored")
    table.apply(0, MOON_PLUS)
    (scored,) = of_type(table, "deal_scored")
    assert scored["moon"] == 0 and scored["moon_choice"] == "plus"
    assert scored["points"] == [0, 26, 26, 26] == scored["totals"]
    assert scored["players"][0] == {"hearts": 13, "queens": 1, "widow": 0, "taken": 26}
    assert all(p["taken"] == 0 for p in scored["players"][1:])
    assert scored["uncollected"] == 0 and scored["widow_taker"] is None


def test_an_automatic_moon_names_its_score() -> None:
    state = moon_deal("hearts(decks=1,players=4,passing=none,max_hands=1,moon=minus)")
    table = table_of(state, ["rules"] * 4)
    # Seat 0 holds every heart; whoever takes the Q♠, the moon event (if any) names the rule's choice.
    table.play()
    for moon in of_type(table, "moon"):
        assert moon["choice"] == "minus"
        (scored,) = of_type(table, "deal_scored")
        assert scored["moon_choice"] == "minus" and scored["points"][moon["seat"]] == -26


def test_each_deal_is_scored_before_the_next_and_its_breakdown_adds_up() -> None:
    for game_string in (
        "hearts(max_hands=3)",
        "hearts(players=9,max_hands=2)",
        "hearts(decks=1,players=5,max_hands=3)",
    ):
        game = cardhall.load_game(game_string)
        n = game.num_players
        table = Table(game, ["rules"] * n, seed=4)
        state = table.play()
        assert isinstance(state, HeartsState)
        events = table.events(None)
        kinds = [e["type"] for e in events if e["type"] in ("deal", "deal_scored")]
        assert kinds == ["deal", "deal_scored"] * state.deals_finished
        won: Counter[int] = Counter()  # points each seat collected in tricks, per the trick events
        for e in events:
            if e["type"] == "deal":
                won.clear()
            elif e["type"] == "trick" and e["winner"] is not None:
                won[e["winner"]] += e["points"] + e["collected_points"]
            elif e["type"] == "deal_scored":
                row = state.score_sheet[e["deal"] - 1]
                assert e["points"] == row["deltas"] and e["totals"] == row["totals"]
                assert [p["taken"] for p in e["players"]] == row["points"]
                assert e["uncollected"] == row["uncollected"] and e["widow_taker"] == row["widow_taker"]
                assert sum(p["taken"] for p in e["players"]) + e["uncollected"] == game.total_points  # type: ignore[attr-defined]
                for s, p in enumerate(e["players"]):
                    assert p["taken"] == p["hearts"] + 13 * p["queens"] + p["widow"]
                    assert p["hearts"] + 13 * p["queens"] == won[s]
                    assert p["widow"] == 0 or s == e["widow_taker"]
        assert events[-1]["type"] == "match_over" and events[-1]["scores"] == list(state.scores)


def test_no_events_without_a_listener() -> None:
    state = deal("hearts(decks=1,players=4,max_hands=1)", {})
    assert state.events is None
    copy = table_of(state).state.clone()  # a copy of a listened-to state logs nothing
    assert copy.events is None
    copy.apply(0, copy.legal_actions(0)[0])
    assert copy.events is None
