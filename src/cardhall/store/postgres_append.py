"""The group commit's actions on PostgreSQL, written by asyncpg on a connection of their own in one
statement a batch: the fences checked, the rows inserted and the transaction committed in one round
trip.

Through SQLAlchemy's asyncio Core a batch was a transaction of four statements (``BEGIN``, the fences
read ``FOR SHARE``, an executemany insert, ``COMMIT``) with the pool's check-out and check-in and
SQLAlchemy's per-statement work (compiling the fence query's ``IN``, the execution context, the
result): measured in workload (b) on one process (py-spy), a third of the server's CPU went to the
committer, about 1 ms a batch, while the group commit wrote a batch for every second or third person
action. Here a batch is one prepared statement (asyncpg prepares it once per connection and keeps it)
whose parameters are six arrays.

The statement keeps the SQLAlchemy path's promise about fences (:meth:`SqlStore.append_actions`): the
tables' rows whose fence is the writer's are locked ``FOR SHARE`` (in the order of their ids, as every
writer locks them: no deadlock) before anything is inserted, and the rows are inserted only when every
table held its fence. A process taking a table over raises the fence with an update, which waits for
this statement's transaction to end; this statement, if it comes second, waits for the update, reads
the row again (PostgreSQL re-checks a locked row's conditions against its newest version) and finds
the fence moved: it inserts nothing and the store raises :class:`~cardhall.store.base.FencedError`
naming the tables that moved.

A row the database refuses (a number already stored, a table that does not exist) raises SQLAlchemy's
``IntegrityError``, as the SQLAlchemy path does; the statement was its own transaction, so nothing of
the batch was written and the connection stays. Any other failure (the server gone, the connection
cut) raises :class:`~cardhall.store.base.StoreUnavailableError`, and the next batch opens a new
connection. Like the SQLAlchemy path, a statement has no timeout of its own: a store that stops
answering holds the batch until the connection fails.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

import asyncpg
from sqlalchemy.exc import IntegrityError

from cardhall.store.base import FencedError, StoreUnavailableError
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


class PostgresAppender:
    def __init__(self, connect_args: Mapping[str, Any], shown_url: str) -> None:
        """``connect_args``: asyncpg.connect's keyword arguments (the engine's, from its URL)."""
        self.connect_args = {k: v for k, v in connect_args.items() if k not in _SQLALCHEMY_ONLY}
        for key in _SECONDS:
            if isinstance(self.connect_args.get(key), str):
                self.connect_args[key] = float(self.connect_args[key])
        self.shown_url = shown_url
        self._connection: asyncpg.Connection | None = None
        self._lock = asyncio.Lock()  # (one statement at a time on the connection)
        self.statements = 0  # statements run (tests count them)

    async def append(self, actions: Sequence[ActionRow], fences: Mapping[str, int] | None) -> None:
        fenced = sorted(fences.items()) if fences else []
        parameters = (
            [t for t, _ in fenced],
            [f for _, f in fenced],
            [a.table_id for a in actions],
            [a.number for a in actions],
            [a.seat for a in actions],
            [a.action for a in actions],
            [a.stand_in for a in actions],
        )
        async with self._lock:
            try:
                connection = self._connection
                if connection is None or connection.is_closed():
                    connection = self._connection = await asyncpg.connect(**self.connect_args)
                self.statements += 1
                result = await connection.fetchrow(APPEND, *parameters)
            except asyncpg.IntegrityConstraintViolationError as e:
                raise IntegrityError(APPEND, None, e) from e
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError) as e:
                await self._drop()
                raise StoreUnavailableError(f"the store at {self.shown_url} failed: {e}") from e
        assert result is not None
        if result["written"] != len(actions):
            held = set(result["held"])
            stale = [t for t, _ in fenced if t not in held]
            if not stale:  # (cannot happen: every fence held means every row written or refused)
                raise StoreUnavailableError(f"the store at {self.shown_url} wrote part of a batch")
            raise FencedError(
                stale,
                f"tables {', '.join(stale)} belong to another process now (their fences moved on): "
                "no action was written",
            )

    async def close(self) -> None:
        async with self._lock:
            await self._drop()

    async def _drop(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(connection.close(), 5)
            if not connection.is_closed():
                connection.terminate()
