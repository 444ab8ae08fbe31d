"""Tournaments in the SQL store (:class:`~cardhall.store.events.Events`): the rows of
:mod:`cardhall.store.sql.schema`'s ``events``, ``event_signups``, ``event_tables`` and
``event_schedules``; an event's tables read with their rows and results in two queries; the director's
lease a conditional update on the database's clock."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Row, func, literal_column, or_, select, update

from cardhall.store.events import EventRow, Events, EventTable, EventTableRow, ScheduleRow, SignupRow
from cardhall.store.rows import ResultRow, TableStatus
from cardhall.store.sql.connection import SqlBase
from cardhall.store.sql.schema import (
    EVENT_SCHEDULES,
    EVENT_SIGNUPS,
    EVENT_TABLES,
    EVENTS,
    PLAYERS,
    RESULTS,
    TABLES,
)
from cardhall.store.sql.tables import table_row

AMONG_CHUNK = 500  # table ids a query names at most (SQLite's bound parameters, PostgreSQL's plans)
ENDED = [str(s) for s in (TableStatus.FINISHED, TableStatus.ABANDONED, TableStatus.BROKEN)]


def _event(r: Row[Any]) -> EventRow:
    return EventRow(
        id=r.id,
        kind=r.kind,
        game=r.game,
        options=r.options,
        starts_at=r.starts_at,
        status=r.status,
        ends_at=r.ends_at,
        rounds=r.rounds,
        created_by=r.created_by,
        token=r.token,
        schedule=r.schedule,
        created_at=r.created_at,
    )


def _schedule(r: Row[Any]) -> ScheduleRow:
    return ScheduleRow(
        r.id, r.kind, r.game, r.options, r.rrule, r.lead, r.dtstart, r.next_at, bool(r.cancelled)
    )


class SqlEvents(SqlBase, Events):
    async def create_event(self, event: EventRow, signup: int | None = None) -> None:
        async with self._writing() as c:
            await c.execute(
                EVENTS.insert().values(
                    id=event.id,
                    kind=event.kind,
                    game=event.game,
                    options=event.options,
                    status=event.status,
                    starts_at=event.starts_at,
                    ends_at=event.ends_at,
                    rounds=event.rounds,
                    created_by=event.created_by,
                    token=event.token,
                    schedule=event.schedule,
                    created_at=event.created_at,
                )
            )
            if signup is not None:
                await c.execute(
                    EVENT_SIGNUPS.insert().values(
                        event_id=event.id, player_id=signup, joined_at=datetime.now(UTC)
                    )
                )

    async def event(self, event_id: str) -> EventRow | None:
        async with self._reading() as c:
            row = (await c.execute(select(EVENTS).where(EVENTS.c.id == event_id))).first()
        return None if row is None else _event(row)

    async def events(self, statuses: Sequence[str], limit: int = 50) -> list[EventRow]:
        query = (
            select(EVENTS)
            .where(EVENTS.c.status.in_(list(statuses)))
            .order_by(EVENTS.c.starts_at)
            .limit(limit)
        )
        async with self._reading() as c:
            return [_event(r) for r in await c.execute(query)]

    async def events_of(self, player_id: int) -> set[str]:
        signed = select(EVENT_SIGNUPS.c.event_id).where(EVENT_SIGNUPS.c.player_id == player_id)
        made = select(EVENTS.c.id).where(EVENTS.c.created_by == player_id)
        async with self._reading() as c:
            return {r[0] for r in await c.execute(signed)} | {r[0] for r in await c.execute(made)}

    async def set_event_status(self, event_id: str, status: str, was: Sequence[str]) -> bool:
        async with self._writing() as c:
            done = await c.execute(
                update(EVENTS)
                .where(EVENTS.c.id == event_id, EVENTS.c.status.in_(list(was)))
                .values(status=status)
            )
            return bool(done.rowcount)

    async def join_event(self, event_id: str, player_id: int) -> None:
        s = EVENT_SIGNUPS
        async with self._writing() as c:
            found = await c.execute(
                update(s).where(s.c.event_id == event_id, s.c.player_id == player_id).values(left_at=None)
            )
            if not found.rowcount:
                await c.execute(
                    s.insert().values(event_id=event_id, player_id=player_id, joined_at=datetime.now(UTC))
                )

    async def leave_event(self, event_id: str, player_id: int) -> bool:
        s = EVENT_SIGNUPS
        async with self._writing() as c:
            done = await c.execute(
                update(s)
                .where(s.c.event_id == event_id, s.c.player_id == player_id, s.c.left_at.is_(None))
                .values(left_at=datetime.now(UTC))
            )
            return bool(done.rowcount)

    async def signups(self, event_id: str) -> list[SignupRow]:
        s = EVENT_SIGNUPS
        query = (
            select(s, PLAYERS.c.name, PLAYERS.c.name_key)
            .join(PLAYERS, PLAYERS.c.id == s.c.player_id)
            .where(s.c.event_id == event_id)
            .order_by(s.c.joined_at, s.c.player_id)
        )
        async with self._reading() as c:
            return [
                SignupRow(r.event_id, r.player_id, r.joined_at, r.left_at, r.name, r.name_key is None)
                for r in await c.execute(query)
            ]

    async def add_event_tables(self, rows: Sequence[EventTableRow]) -> None:
        if not rows:
            return
        async with self._writing() as c:
            await c.execute(
                EVENT_TABLES.insert(),
                [
                    {
                        "event_id": r.event_id,
                        "table_id": r.table_id,
                        "round": r.round,
                        "table_index": r.index,
                        "rotation": r.rotation,
                    }
                    for r in rows
                ],
            )

    async def event_tables(self, event_id: str) -> list[EventTable]:
        return await self._event_tables(event_id, None, ended=False)

    async def event_tables_among(
        self, event_id: str, table_ids: Collection[str], *, ended: bool = False
    ) -> list[EventTable]:
        ids = sorted(set(table_ids))
        out: list[EventTable] = []
        for i in range(0, len(ids), AMONG_CHUNK):
            out += await self._event_tables(event_id, ids[i : i + AMONG_CHUNK], ended=ended)
        return sorted(out, key=lambda t: (t.entry.round, t.entry.index))

    async def event_table_count(self, event_id: str) -> int:
        query = select(func.count()).select_from(EVENT_TABLES).where(EVENT_TABLES.c.event_id == event_id)
        async with self._reading() as c:
            return int((await c.execute(query)).scalar_one())

    async def _event_tables(self, event_id: str, ids: list[str] | None, *, ended: bool) -> list[EventTable]:
        if ids is not None and not ids:
            return []
        t = EVENT_TABLES
        which = [t.c.event_id == event_id]
        if ids is not None:
            which.append(t.c.table_id.in_(ids))
        if ended:
            which.append(TABLES.c.status.in_(ENDED))
        query = (
            select(t, TABLES)
            .join(TABLES, TABLES.c.id == t.c.table_id)
            .where(*which)
            .order_by(t.c.round, t.c.table_index)
        )
        async with self._reading() as c:
            rows = list(await c.execute(query))
            found = [r.table_id for r in rows]
            by_table: dict[str, list[ResultRow]] = {}
            if found:
                results = select(RESULTS).order_by(RESULTS.c.table_id, RESULTS.c.seat)
                if ids is None:
                    results = results.join(t, t.c.table_id == RESULTS.c.table_id).where(
                        t.c.event_id == event_id
                    )
                else:
                    results = results.where(RESULTS.c.table_id.in_(found))
                for r in await c.execute(results):
                    by_table.setdefault(r.table_id, []).append(
                        ResultRow(r.table_id, r.seat, r.player_id, r.score, r.win_share, r.absent)
                    )
        return [
            EventTable(
                EventTableRow(r.event_id, r.table_id, r.round, r.table_index, r.rotation),
                table_row(r),
                by_table.get(r.table_id, []),
            )
            for r in rows
        ]

    async def event_of_table(self, table_id: str) -> str | None:
        async with self._reading() as c:
            row = (
                await c.execute(select(EVENT_TABLES.c.event_id).where(EVENT_TABLES.c.table_id == table_id))
            ).first()
        return None if row is None else str(row[0])

    async def claim_event(self, event_id: str, node: str, seconds: float) -> bool:
        now: Any = literal_column(self.dialect.now)
        async with self._writing() as c:
            done = await c.execute(
                update(EVENTS)
                .where(
                    EVENTS.c.id == event_id,
                    or_(
                        EVENTS.c.director.is_(None),
                        EVENTS.c.director == node,
                        EVENTS.c.director_until < now,
                    ),
                )
                .values(director=node, director_until=now + seconds)
            )
            return bool(done.rowcount)

    async def release_event(self, event_id: str, node: str) -> None:
        async with self._writing() as c:
            await c.execute(
                update(EVENTS)
                .where(EVENTS.c.id == event_id, EVENTS.c.director == node)
                .values(director=None, director_until=None)
            )

    async def add_schedule(self, schedule: ScheduleRow) -> None:
        async with self._writing() as c:
            await c.execute(
                EVENT_SCHEDULES.insert().values(
                    id=schedule.id,
                    kind=schedule.kind,
                    game=schedule.game,
                    options=schedule.options,
                    rrule=schedule.rrule,
                    lead=schedule.lead,
                    dtstart=schedule.dtstart,
                    next_at=schedule.next_at,
                    cancelled=schedule.cancelled,
                )
            )

    async def schedules(self) -> list[ScheduleRow]:
        async with self._reading() as c:
            return [
                _schedule(r) for r in await c.execute(select(EVENT_SCHEDULES).order_by(EVENT_SCHEDULES.c.id))
            ]

    async def advance_schedule(self, schedule_id: str, made: datetime, next_at: datetime | None) -> bool:
        s = EVENT_SCHEDULES
        async with self._writing() as c:
            done = await c.execute(
                update(s).where(s.c.id == schedule_id, s.c.next_at == made).values(next_at=next_at)
            )
            return bool(done.rowcount)

    async def cancel_schedule(self, schedule_id: str) -> bool:
        s = EVENT_SCHEDULES
        async with self._writing() as c:
            done = await c.execute(
                update(s).where(s.c.id == schedule_id, s.c.cancelled.is_(False)).values(cancelled=True)
            )
            return bool(done.rowcount)
