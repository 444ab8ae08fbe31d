"""An arena director's standings kept between its steps (it reads only the tables that ended since the
last, :meth:`~cardhall.server.events.director.Director.read`) against the full recomputation from every
stored row (:func:`~cardhall.server.events.scoring.standings`), after random sequences of tables made,
ended out of order (finished with ties and stand-ins, or abandoned), and after a restart: a new
director on the reopened store computes the same from the rows alone."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cardhall.server.events.director import Director
from cardhall.server.events.scoring import standings
from cardhall.store import ResultRow, SeatRow, SqlStore, TableRow, open_store
from cardhall.store.events import EventRow, EventTableRow
from cardhall.store.rows import SeatKind, TableStatus

pytestmark = pytest.mark.anyio
GAME = "hokm(max_hands=1)"
T0 = datetime(2026, 12, 8, 1, 0, tzinfo=UTC)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqlStore]:
    opened = await open_store(f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}")
    assert isinstance(opened, SqlStore)
    yield opened
    await opened.close()


class Host:
    """What a director asks of its process, as far as reading and scoring go (nothing is pushed)."""

    node = "here"

    def __init__(self, store: SqlStore) -> None:
        self.ctx: Any = SimpleNamespace(store=store)


def entries(lines: list[Any]) -> list[dict[str, Any]]:
    return [line.entry() for line in lines]


async def an_arena(store: SqlStore, people: int) -> tuple[EventRow, list[int]]:
    event = EventRow("arena1", "arena", GAME, {"deals": 1}, T0, "running", T0 + timedelta(minutes=30))
    await store.create_event(event)
    ids = []
    for i in range(people):
        player, _ = await store.create_player(f"P{i}")
        await store.join_event(event.id, player.id)
        ids.append(player.id)
    return event, ids


def a_table(rng: random.Random, number: int, people: list[int]) -> TableRow:
    seats = [
        SeatRow(i, SeatKind.PERSON, f"P{p}", player_id=p)
        if p >= 0
        else SeatRow(i, SeatKind.BOT, "Bot", bot="random")
        for i, p in enumerate(people)
    ]
    return TableRow(
        f"t{number}", GAME, "1", rng.randrange(2**40), {}, seats, TableStatus.PLAYING, created_at=T0
    )


async def end(store: SqlStore, rng: random.Random, row: TableRow) -> None:
    """Finish the table with random scores (ties often, a stand-in now and then) at a random time
    (tables end out of the order they are read in), or abandon it."""
    if rng.random() < 0.1:
        row.status = TableStatus.ABANDONED
        await store.save_table(row)
        return
    row.status = TableStatus.FINISHED
    row.finished_at = T0 + timedelta(seconds=rng.uniform(0, 600))
    results = [
        ResultRow(
            row.id,
            s.seat,
            s.player_id,
            rng.choice([0, 5, 10]),
            0.0,
            "away" if s.player_id is not None and rng.random() < 0.1 else None,
        )
        for s in row.seats
    ]
    await store.finish(row, results)


@pytest.mark.parametrize("seed", range(4))
async def test_the_directors_kept_standings_equal_the_full_recomputation_then_and_after_a_restart(
    store: SqlStore, tmp_path: Path, seed: int
) -> None:
    rng = random.Random(seed)
    event, people = await an_arena(store, 9)
    director = Director(Host(store), event.id)  # type: ignore[arg-type]
    assert await director.read(event) == []  # (its first read: every table, none yet)
    open_rows: list[TableRow] = []
    made = 0
    for wave in range(1, 9):
        free = [p for p in people if not any(s.player_id == p for t in open_rows for s in t.seats)]
        rng.shuffle(free)
        new = []
        while free:  # (tables of 3: people, and bots for those short)
            seated = [free.pop() if free and rng.random() < 0.85 else -1 for _ in range(3)]
            new.append(a_table(rng, made, seated))
            made += 1
        await store.save_tables(new)
        await store.add_event_tables([EventTableRow(event.id, t.id, wave, i) for i, t in enumerate(new)])
        director.take(event, await store.event_tables_among(event.id, [t.id for t in new]))  # (as seat())
        open_rows += new
        ending = rng.sample(open_rows, rng.randint(0, len(open_rows)))
        for row in ending:
            await end(store, rng, row)
            open_rows.remove(row)
        news = await director.read(event)
        assert sorted(t.table.id for t in news) == sorted(r.id for r in ending)
        signups = await store.signups(event.id)
        if rng.random() < 0.3:  # (someone withdraws: he keeps his line)
            await store.leave_event(event.id, rng.choice(people))
            signups = await store.signups(event.id)
        full = standings(event, signups, await store.event_tables(event.id))
        assert entries(director.arena_lines(event, signups)) == entries(full)
    assert director.full_reads == 1  # (every later step read only the tables it saw open)
    kept = entries(director.arena_lines(event, await store.signups(event.id)))
    assert any(line["tables"] for line in kept)

    await store.close()  # (a restart: a new process, a new director, the rows only)
    again = await open_store(f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}")
    assert isinstance(again, SqlStore)
    try:
        fresh = Director(Host(again), event.id)  # type: ignore[arg-type]
        news = await fresh.read(event)
        assert len(news) == sum(1 for t in await again.event_tables(event.id) if t.table.status != "playing")
        assert entries(fresh.arena_lines(event, await again.signups(event.id))) == kept
    finally:
        await again.close()


async def test_a_table_the_director_did_not_make_is_found_by_the_count(store: SqlStore) -> None:
    # (a stale director's, or another process's: the step reads every table again rather than miss it)
    rng = random.Random(5)
    event, people = await an_arena(store, 3)
    director = Director(Host(store), event.id)  # type: ignore[arg-type]
    await director.read(event)
    row = a_table(rng, 0, people)
    await store.save_tables([row])
    await store.add_event_tables([EventTableRow(event.id, row.id, 1, 0)])
    await end(store, random.Random(1), row)  # (seed 1: finished, not abandoned)
    news = await director.read(event)
    assert [t.table.id for t in news] == [row.id] and director.full_reads == 2
    lines = entries(director.arena_lines(event, await store.signups(event.id)))
    assert sorted(line["tables"] for line in lines) == [1, 1, 1]
