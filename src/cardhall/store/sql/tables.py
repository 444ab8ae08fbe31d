"""The tables of the SQL store (:class:`~cardhall.store.tables.Tables`): their rows, fenced by the
owner's number, a new private table's invitation in the transaction of its row, and the restart's read.

- **Fences.** A row is updated only while it holds the writer's fencing number; the update says
  whether it was written (``RETURNING``), so a stale writer learns it in the same statement. Several
  rows are saved in the order of their ids, as every statement locking many tables' rows: no deadlock.
- **One statement per store.** The upsert of a row is built once, with bound parameters: building it
  per row cost more than running it.
- **A restart** reads the open tables and then the actions of all of them in one query, in one
  transaction (one snapshot).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Row, bindparam, func, select
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql.dml import Insert

from cardhall.store.errors import FencedError
from cardhall.store.rows import ActionRow, SeatRow, TableRow
from cardhall.store.sql.connection import SqlBase
from cardhall.store.sql.schema import ACTIONS, EARLY_LEAVES, SOCIAL, TABLES, UNFINISHED
from cardhall.store.tables import Tables

log = logging.getLogger(__name__)
PRIVATE = SOCIAL["private"]

_TABLE_FIELDS = (
    "id",
    "game",
    "rules_version",
    "seed",
    "settings",
    "seats",
    "status",
    "owner_id",
    "rematch_of",
    "created_at",
    "finished_at",
    "problem",
    "fence",
    "node",
    "play_now",
)


def table_values(table: TableRow) -> dict[str, Any]:
    return {
        "id": table.id,
        "game": table.game,
        "rules_version": table.rules_version,
        "seed": table.seed,
        "settings": table.settings,
        "seats": [asdict(s) for s in table.seats],
        "status": table.status,
        "owner_id": table.owner_id,
        "rematch_of": table.rematch_of,
        "created_at": table.created_at,
        "finished_at": table.finished_at,
        "problem": table.problem,
        "fence": table.fence,
        "node": table.node,
        "play_now": table.play_now,
    }


def table_row(row: Row[Any]) -> TableRow:
    return TableRow(
        id=row.id,
        game=row.game,
        rules_version=row.rules_version,
        seed=row.seed,
        settings=row.settings,
        seats=[SeatRow(**s) for s in row.seats],
        status=row.status,
        owner_id=row.owner_id,
        rematch_of=row.rematch_of,
        created_at=row.created_at,
        finished_at=row.finished_at,
        problem=row.problem,
        fence=row.fence,
        node=row.node,
        play_now=row.play_now,
    )


class SqlTables(SqlBase, Tables):
    _table_upsert: Insert | None = None  # (see _save_table)

    def _save_table(self, table: TableRow) -> tuple[Insert, dict[str, Any]]:
        """Insert a table, or update what changes in its life (``save_table``'s promise), the update
        only while the row holds the writer's fencing number; the id comes back when it was written.
        A new table stored by its owner (``node``) is that process's while its lease runs. (The
        statement is built once per store, with bound parameters: building it per row cost more than
        running it.)"""
        statement = self._table_upsert
        if statement is None:
            insert = self.dialect.insert(TABLES)
            changing = ("status", "seats", "settings", "finished_at", "problem")
            statement = self._table_upsert = (
                insert.values({name: bindparam(name, type_=TABLES.c[name].type) for name in _TABLE_FIELDS})
                .on_conflict_do_update(
                    index_elements=["id"],
                    set_={c: insert.excluded[c] for c in changing},
                    where=TABLES.c.fence == insert.excluded.fence,
                )
                .returning(TABLES.c.id)
            )
        return statement, table_values(table)

    async def _save_fenced(self, c: AsyncConnection, table: TableRow) -> None:
        if (await c.execute(*self._save_table(table))).first() is None:
            raise FencedError(
                [table.id],
                f"table {table.id} belongs to another process now (fence {table.fence} is stale): "
                "nothing was written",
            )

    async def save_table(self, table: TableRow, invitation: str | None = None) -> None:
        async with self._writing() as c:
            await self._save_fenced(c, table)
            if invitation is not None:  # (after its row: the invitation's key refers to it)
                await self._save_invitations(c, {table.id: invitation})

    async def save_tables(
        self, tables: Sequence[TableRow], invitations: Mapping[str, str] | None = None
    ) -> None:
        if not tables:
            return
        async with self._writing() as c:
            # (In the order of their ids, as every statement locking many tables' rows: no deadlock.)
            ordered = sorted(tables, key=lambda t: t.id)
            stale = [t.id for t in ordered if (await c.execute(*self._save_table(t))).first() is None]
            if stale:  # (raised inside the transaction: it is rolled back, nothing written)
                raise FencedError(
                    stale,
                    f"tables {', '.join(stale)} belong to another process now (their fences moved on): "
                    "nothing was written",
                )
            if invitations:  # (after the rows: an invitation's key refers to its table's)
                await self._save_invitations(c, invitations)

    async def table(self, table_id: str) -> TableRow | None:
        async with self._reading() as c:
            row = (await c.execute(select(TABLES).where(TABLES.c.id == table_id))).first()
        return None if row is None else table_row(row)

    async def tables(self, statuses: Sequence[str], limit: int = 100) -> list[TableRow]:
        query = (
            select(TABLES)
            .where(TABLES.c.status.in_(list(statuses)))
            .order_by(TABLES.c.created_at.desc(), TABLES.c.id.desc())
            .limit(limit)
        )
        async with self._reading() as c:
            return [table_row(r) for r in await c.execute(query)]

    async def unfinished(self) -> list[tuple[TableRow, list[ActionRow]]]:
        open_tables = select(TABLES).where(TABLES.c.status.in_(UNFINISHED)).order_by(TABLES.c.created_at)
        open_actions = (
            select(ACTIONS.c.table_id, ACTIONS.c.number, ACTIONS.c.seat, ACTIONS.c.action, ACTIONS.c.stand_in)
            .join(TABLES, TABLES.c.id == ACTIONS.c.table_id)
            .where(TABLES.c.status.in_(UNFINISHED))
            .order_by(ACTIONS.c.table_id, ACTIONS.c.number)
        )
        found: list[tuple[TableRow, list[ActionRow]]] = []
        unreadable: dict[str, str] = {}
        async with self._reading() as c:
            for r in await c.execute(open_tables):
                try:
                    found.append((table_row(r), []))
                except Exception as e:  # (a row another program wrote: its seats or settings unreadable)
                    unreadable[r.id] = f"its row cannot be read: {type(e).__name__}: {e}"
            by_id = {t.id: acts for t, acts in found}
            for r in await c.execute(open_actions):
                if r.table_id in by_id:
                    by_id[r.table_id].append(ActionRow(r.table_id, r.number, r.seat, r.action, r.stand_in))
        for table_id, problem in unreadable.items():
            log.error("table %s cannot be brought back: %s", table_id, problem)
            await self.mark_broken(table_id, problem)
        return found

    async def mark_broken(self, table_id: str, problem: str) -> None:
        query = TABLES.update().where(TABLES.c.id == table_id).values(status="broken", problem=problem)
        async with self._writing() as c:
            await c.execute(query)

    async def probe(self, table_id: str) -> None:
        """Rewrite one table's row as it is: a real write transaction (SQLite takes its write lock and
        appends the page to its log; PostgreSQL writes a new row version), which succeeds only when
        the store takes writes again."""
        async with self._writing() as c:
            await c.execute(TABLES.update().where(TABLES.c.id == table_id).values(status=TABLES.c.status))

    async def _save_invitations(self, c: AsyncConnection, invitations: Mapping[str, str]) -> None:
        """New private tables' invitations (table id -> invitation), in the transaction of ``c``: the
        one that stores their rows (``SqlStore.save_table``), so that no table is stored without its
        invitation. One already there is left as it is: a write tried again after the answer of its
        commit was lost finds it (a table's invitation never changes)."""
        if not invitations:
            return
        insert = self.dialect.insert(PRIVATE)
        now = datetime.now(UTC)
        await c.execute(
            insert.on_conflict_do_nothing(index_elements=["table_id"]),
            [{"table_id": t, "invitation": i, "created_at": now} for t, i in sorted(invitations.items())],
        )

    async def private_tables(self, table_ids: Sequence[str]) -> dict[str, str]:
        if not table_ids:
            return {}
        query = select(PRIVATE.c.table_id, PRIVATE.c.invitation).where(PRIVATE.c.table_id.in_(set(table_ids)))
        async with self._reading() as c:
            return {r.table_id: r.invitation for r in await c.execute(query)}

    async def open_private_tables(self) -> dict[str, str]:
        """The invitations of the private tables that are waiting or playing (a restart's)."""
        query = (
            select(PRIVATE.c.table_id, PRIVATE.c.invitation)
            .join(TABLES, TABLES.c.id == PRIVATE.c.table_id)
            .where(TABLES.c.status.in_(UNFINISHED))
        )
        async with self._reading() as c:
            return {r.table_id: r.invitation for r in await c.execute(query)}

    async def note_early_leave(self, player_id: int, table_id: str, at: datetime) -> None:
        insert = self.dialect.insert(EARLY_LEAVES).on_conflict_do_nothing(
            index_elements=["player_id", "table_id"]
        )
        async with self._writing() as c:
            await c.execute(insert, {"player_id": player_id, "table_id": table_id, "at": at})

    async def early_leaves(self, player_id: int, since: datetime) -> int:
        query = (
            select(func.count())
            .select_from(EARLY_LEAVES)
            .where(EARLY_LEAVES.c.player_id == player_id, EARLY_LEAVES.c.at >= since)
        )
        async with self._reading() as c:
            return int((await c.execute(query)).scalar_one())
