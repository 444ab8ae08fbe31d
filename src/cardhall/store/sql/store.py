"""The SQL store (:class:`SqlStore`): the one :class:`~cardhall.store.base.Store` the server uses, made of
the SQL parts of the store's aggregates, each in its own module on the engine and transactions of
:class:`~cardhall.store.sql.connection.SqlBase`, and of an action log
(:class:`~cardhall.store.action_log.ActionLog`: SQLite's or PostgreSQL's) to which the actions' methods
are handed. Open it with :func:`~cardhall.store.sql.opening.open_store`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from sqlalchemy.ext.asyncio import AsyncEngine

from cardhall.store.action_log import ActionLog
from cardhall.store.base import Store
from cardhall.store.rows import ActionRow
from cardhall.store.sql.chat import SqlChat
from cardhall.store.sql.connection import SqlBase
from cardhall.store.sql.events import SqlEvents
from cardhall.store.sql.finishing import SqlFinishing
from cardhall.store.sql.leases import SqlLeases
from cardhall.store.sql.moderation import SqlModeration
from cardhall.store.sql.players import SqlPlayers
from cardhall.store.sql.ratings import SqlRatings
from cardhall.store.sql.reviews import SqlReviews
from cardhall.store.sql.schema import CHAT, NODES, PLAYERS, SOCIAL, TABLES
from cardhall.store.sql.sessions import SqlSessions
from cardhall.store.sql.social import SqlSocial
from cardhall.store.sqlite_file import SqliteFile


class SqlStore(
    SqlPlayers,
    SqlSessions,
    SqlFinishing,
    SqlChat,
    SqlRatings,
    SqlReviews,
    SqlSocial,
    SqlModeration,
    SqlLeases,
    SqlEvents,
    Store,
):
    """A :class:`Store` on an SQLAlchemy async engine and an action log."""

    # (the schema's tables, for tests and tools that write past the store)
    social = SOCIAL
    players_table = PLAYERS
    tables_table = TABLES
    nodes_table = NODES
    chat_table = CHAT

    def __init__(
        self,
        engine: AsyncEngine,
        url: str,
        action_log: Callable[[SqlBase], ActionLog],
        *,
        memory: bool = False,
        file: SqliteFile | None = None,
    ) -> None:
        """``action_log`` makes the log given the store (a database in memory is the store's one
        connection)."""
        super().__init__(engine, url, memory=memory, file=file)
        self.action_log = action_log(self)

    # --- the action log ------------------------------------------------------------------------

    async def append_actions(
        self, actions: Sequence[ActionRow], fences: Mapping[str, int] | None = None
    ) -> None:
        await self.action_log.append_actions(actions, fences)

    async def actions_of(self, table_ids: Sequence[str]) -> dict[str, list[ActionRow]]:
        return await self.action_log.actions_of(table_ids)

    async def actions(self, table_id: str) -> list[tuple[int, int]]:
        return await self.action_log.actions(table_id)

    async def last_action(self, table_id: str) -> ActionRow | None:
        return await self.action_log.last_action(table_id)

    async def action_counts(self, table_ids: Sequence[str]) -> dict[str, int]:
        return await self.action_log.action_counts(table_ids)
