"""A duplicate round compares only the event's deals: Hokm's ``max_hands`` plays another hand while two
lead together, so some tables of a round can record deals the others never played; those are left out
of the matchpoints (``docs/tournaments.md``), the deals every table played are compared."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from cardhall.registry import load_game
from cardhall.server.events.scoring import deal_scores, hand_results, standings
from cardhall.store.events import EventRow, EventTable, EventTableRow, SignupRow
from cardhall.store.rows import ResultRow, SeatKind, SeatRow, TableRow, TableStatus

GAME = "hokm(max_hands=1)"
T0 = datetime(2026, 12, 8, 1, 0, tzinfo=UTC)


def played(seed: int, choices: int) -> tuple[list[tuple[int, int]], list[int], int]:
    """A match of ``GAME`` dealt from ``seed``, random legal moves from ``choices``: its record, its
    final scores and the deals it played."""
    rng = random.Random(choices)
    state = load_game(GAME).new_game(seed=seed)
    record = []
    while not state.is_over:
        seat = state.to_act[0]
        action = rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        record.append((seat, action))
    return record, [int(x) for x in state.scores], state.deals_finished


def a_round() -> tuple[int, list[tuple[list[tuple[int, int]], list[int]]]]:
    """A seed and three matches dealt from it: the first two played tie-break hands (the same moves, by
    other people), the third did not: the two would be compared on deals the third never played."""
    for seed in range(100):
        matches = sorted((played(seed, choices) for choices in range(1, 5)), key=lambda m: -m[2])
        if matches[0][2] > 1 and matches[-1][2] == 1:
            return seed, [m[:2] for m in [matches[0], matches[0], matches[-1]]]
    raise AssertionError("no seed in 100 gave a table tie-break hands and another none")


def table(index: int, seed: int, people: list[int], scores: list[int]) -> EventTable:
    seats = [SeatRow(s, SeatKind.PERSON, f"P{p}", player_id=p) for s, p in enumerate(people)]
    row = TableRow(
        f"t{index}", GAME, "1", seed, {}, seats, TableStatus.FINISHED, created_at=T0, finished_at=T0
    )
    results = [ResultRow(row.id, s, p, scores[s], 0.0) for s, p in enumerate(people)]
    return EventTable(EventTableRow("dup", row.id, 1, index), row, results)


def test_tie_break_hands_some_tables_played_are_not_compared() -> None:
    seed, matches = a_round()
    people = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    tables = [table(i, seed, people[i], scores) for i, (_, scores) in enumerate(matches)]
    actions = {t.table.id: record for t, (record, _) in zip(tables, matches, strict=True)}
    deals = [len(deal_scores(t, actions[t.table.id])) for t in tables]
    assert deals[0] > 1 and deals[1] > 1 and deals[2] == 1  # (the records hold the tie-break hands)

    hands = hand_results(tables, actions, deals=1)
    assert {h.deal for h in hands} == {1} and len(hands) == 9  # (three hands at each of three tables)
    assert len(hand_results(tables, actions)) == 3 * sum(deals)  # (without the event's deals: all)

    event = EventRow("dup", "duplicate", GAME, {"deals": 1}, T0, "finished", rounds=1)
    signups = [SignupRow("dup", p, T0, name=f"P{p}") for p in range(1, 10)]
    lines = standings(event, signups, tables, actions)
    # deal 1 only: each hand held at three tables, three pairs of holders, one matchpoint a pair
    assert sum(line.standing.matchpoints for line in lines) == 9
    first = [deal_scores(t, actions[t.table.id])[0] for t in tables]
    for line in lines:
        at, seat = divmod(line.player - 1, 3)
        mine = first[at][seat]
        expected = sum(
            1.0 if mine > other[seat] else 0.5 if mine == other[seat] else 0.0
            for i, other in enumerate(first)
            if i != at
        )
        assert line.standing.matchpoints == expected and line.standing.share == expected / 2
