"""What the server asks of its storage: :class:`Store`, one object made of the store's aggregates,
each a small interface in its own module: players (:mod:`~cardhall.store.players`), sessions
(:mod:`~cardhall.store.sessions`), tables (:mod:`~cardhall.store.tables`), their actions (the action
log, :mod:`~cardhall.store.action_log`, the hottest write's seam), chat (:mod:`~cardhall.store.chat`),
ratings (:mod:`~cardhall.store.ratings`), reviews (:mod:`~cardhall.store.reviews`), friends and blocks
(:mod:`~cardhall.store.social`), moderation (:mod:`~cardhall.store.moderation`), leases
(:mod:`~cardhall.store.leases`) and tournaments (:mod:`~cardhall.store.events`).
:mod:`cardhall.store.sql` keeps them all in SQLite (the embedded default) or PostgreSQL, its schema
managed by Alembic migrations.

Durability: when ``append_actions`` or any other writing method returns, what it wrote is committed; the
server broadcasts an action only after that. A store that fails (a full disk, SQLite's write lock held
by another process past the busy timeout, PostgreSQL down) raises :class:`StoreUnavailableError` from
any method; a write whose commit was cut off may still have landed, which the caller can tell with
:meth:`Store.last_action`.
"""

from __future__ import annotations

from abc import abstractmethod

from cardhall.core import Record
from cardhall.store.action_log import ActionLog
from cardhall.store.chat import Chat
from cardhall.store.errors import FencedError, NameTakenError, StoreError, StoreUnavailableError
from cardhall.store.events import Events
from cardhall.store.leases import LEASE_SECONDS, Leases
from cardhall.store.moderation import Moderation
from cardhall.store.players import Players
from cardhall.store.ratings import Ratings
from cardhall.store.reviews import Reviews
from cardhall.store.sessions import Sessions
from cardhall.store.social import Social
from cardhall.store.tables import Tables

__all__ = [
    "LEASE_SECONDS",
    "FencedError",
    "NameTakenError",
    "Store",
    "StoreError",
    "StoreUnavailableError",
]


class Store(Players, Sessions, Tables, ActionLog, Chat, Ratings, Reviews, Social, Moderation, Leases, Events):
    @abstractmethod
    async def close(self) -> None: ...

    async def checkpoint(self) -> None:
        """Housekeeping a long-running server asks for now and then, off the path of any commit
        (SQLite: copy the write-ahead log into the database). Nothing by default."""

    def problems(self) -> list[str]:
        """What keeps the store from storing that a read would not show (SQLite: its file deleted or
        replaced under the server); none by default. The readiness route reports them."""
        return []

    async def record(self, table_id: str) -> Record | None:
        """A table's record (it replays with ``cardhall replay``): its row and its actions."""
        table = await self.table(table_id)
        if table is None:
            return None
        return {
            "game": table.game,
            "rules_version": table.rules_version,
            "seed": table.seed,
            "actions": [[s, a] for s, a in await self.actions(table_id)],
        }
