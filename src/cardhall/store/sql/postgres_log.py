"""The action log on PostgreSQL (:class:`PostgresActionLog`), written and read by asyncpg on connections
of its own (one for the batches, one for the reads, so that a takeover's long read never holds up a
batch): a batch is one statement, the fences checked, the rows inserted and the transaction committed
in one round trip.

Through SQLAlchemy's asyncio Core a batch was a transaction of four statements (``BEGIN``, the fences
read ``FOR SHARE``, an executemany insert, ``COMMIT``) with the pool's check-out and check-in and
SQLAlchemy's per-statement work (compiling the fence query's ``IN``, the execution context, the
result): measured in workload (b) on one process (py-spy), a third of the server's CPU went to the
committer, about 1 ms a batch, while the group commit wrote a batch for every second or third person
action. Here a batch is one prepared statement (asyncpg prepares it once per connection and keeps it)
whose parameters are six arrays.

The statement keeps the promise of fences
(:meth:`~cardhall.store.action_log.ActionLog.append_actions`): the
tables' rows whose fence is the writer's are locked ``FOR SHARE`` (in the order of their ids, as every
writer locks them: no deadlock) before anything is inserted, and the rows are inserted only when every
table held its fence. A process taking a table over raises the fence with an update, which waits for
this statement's transaction to end; this statement, if it comes second, waits for the update, reads
the row again (PostgreSQL re-checks a locked row's conditions against its newest version) and finds
the fence moved: it inserts nothing and the store raises :class:`~cardhall.store.errors.FencedError`
naming the tables that moved. The reads are plain statements, each its own snapshot.

A row the database refuses (a number already stored, a table that does not exist) raises SQLAlchemy's
``IntegrityError``, as every other part of the store does; the statement was its own transaction,
so nothing of the batch was written and the connection stays. Any other failure (the server gone,
the connection cut) raises :class:`~cardhall.store.errors.StoreUnavailableError`, and the next
statement opens a new connection. Like the rest of the store, a statement has no timeout of its own:
a store that stops answering holds the batch until the connection fails.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

import asyncpg
from sqlalchemy.exc import IntegrityError

from cardhall.store.action_log import ActionLog
from cardhall.store.errors import StoreUnavailableError, fenced
from cardhall.store.rows import ActionRow

APPEND = """
WITH wanted AS (
    SELECT * FROM unnest($1::text[], $2::bigint[]) AS w (id, fence)
), held AS (
    SELECT t.id FROM tables AS t JOIN wanted AS w ON t.id = w.id AND t.fence = w.fence
    ORDER BY t.id
    FOR SHARE OF t
), written AS (
    INSERT INTO actions (table_id, number, seat, action, stand_in)
    SELECT * FROM unnest($3::text[], $4::integer[], $5::integer[], $6::integer[], $7::boolean[])
    WHERE (SELECT count(*) FROM held) = cardinality($1::text[])
    RETURNING 1
)
SELECT (SELECT count(*) FROM written) AS written, ARRAY(SELECT id FROM held) AS held
"""

# What the SQLAlchemy engine's connect arguments may hold that asyncpg.connect does not take.
_SQLALCHEMY_ONLY = ("prepared_statement_cache_size", "prepared_statement_name_func", "async_fallback")
_SECONDS = ("timeout", "command_timeout")  # (a URL's query gives them as text)

ACTIONS_OF = """
SELECT table_id, number, seat, action, stand_in FROM actions WHERE table_id = ANY($1::text[])
ORDER BY table_id, number
"""
LAST = "SELECT number, seat, action, stand_in FROM actions WHERE table_id = $1 ORDER BY number DESC LIMIT 1"
COUNTS = "SELECT table_id, max(number) AS n FROM actions WHERE table_id = ANY($1::text[]) GROUP BY table_id"


class _Link:
    """One asyncpg connection, one statement at a time on it, made by the first statement after a
    failure or a close."""

    def __init__(self, connect_args: Mapping[str, Any], shown_url: str) -> None:
        self.connect_args = connect_args
        self.shown_url = shown_url
        self.connection: asyncpg.Connection | None = None
        self.lock = asyncio.Lock()
        self.statements = 0  # statements run (tests count them)

    async def fetch(self, statement: str, *parameters: Any) -> list[asyncpg.Record]:
        async with self.lock:
            try:
                connection = self.connection
                if connection is None or connection.is_closed():
                    connection = self.connection = await asyncpg.connect(**self.connect_args)
                self.statements += 1
                return list(await connection.fetch(statement, *parameters))
            except asyncpg.IntegrityConstraintViolationError as e:
                raise IntegrityError(statement, None, e) from e
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError) as e:
                await self._drop()
                raise StoreUnavailableError(f"the store at {self.shown_url} failed: {e}") from e

    async def close(self) -> None:
        async with self.lock:
            await self._drop()

    async def _drop(self) -> None:
        connection, self.connection = self.connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(connection.close(), 5)
            if not connection.is_closed():
                connection.terminate()


class PostgresActionLog(ActionLog):
    def __init__(self, connect_args: Mapping[str, Any], shown_url: str) -> None:
        """``connect_args``: asyncpg.connect's keyword arguments (the engine's, from its URL)."""
        arguments = {k: v for k, v in connect_args.items() if k not in _SQLALCHEMY_ONLY}
        for key in _SECONDS:
            if isinstance(arguments.get(key), str):
                arguments[key] = float(arguments[key])
        self.shown_url = shown_url
        self.writer = _Link(arguments, shown_url)
        self.reader = _Link(arguments, shown_url)

    @property
    def batches(self) -> int:
        """Batches written (tests count them): one statement each."""
        return self.writer.statements

    async def append_actions(
        self, actions: Sequence[ActionRow], fences: Mapping[str, int] | None = None
    ) -> None:
        if not actions:
            return
        fenced_tables = sorted(fences.items()) if fences else []
        (result,) = await self.writer.fetch(
            APPEND,
            [t for t, _ in fenced_tables],
            [f for _, f in fenced_tables],
            [a.table_id for a in actions],
            [a.number for a in actions],
            [a.seat for a in actions],
            [a.action for a in actions],
            [a.stand_in for a in actions],
        )
        if result["written"] != len(actions):
            held = set(result["held"])
            stale = [t for t, _ in fenced_tables if t not in held]
            if not stale:  # (cannot happen: every fence held means every row written or refused)
                raise StoreUnavailableError(f"the store at {self.shown_url} wrote part of a batch")
            raise fenced(stale)

    async def actions_of(self, table_ids: Sequence[str]) -> dict[str, list[ActionRow]]:
        found: dict[str, list[ActionRow]] = {t: [] for t in table_ids}
        if not found:
            return found
        for r in await self.reader.fetch(ACTIONS_OF, list(found)):
            found[r["table_id"]].append(
                ActionRow(r["table_id"], r["number"], r["seat"], r["action"], r["stand_in"])
            )
        return found

    async def last_action(self, table_id: str) -> ActionRow | None:
        rows = await self.reader.fetch(LAST, table_id)
        if not rows:
            return None
        r = rows[0]
        return ActionRow(table_id, r["number"], r["seat"], r["action"], r["stand_in"])

    async def action_counts(self, table_ids: Sequence[str]) -> dict[str, int]:
        if not table_ids:
            return {}
        return {r["table_id"]: int(r["n"]) for r in await self.reader.fetch(COUNTS, list(table_ids))}

    async def close(self) -> None:
        await self.writer.close()
        await self.reader.close()
