"""Persistence for the server: players, tables, actions, chat, results, ratings and reviews.

``open_store(url)`` gives a :class:`~cardhall.store.base.Store` on SQLite (``sqlite+aiosqlite:///file``,
the embedded default) or PostgreSQL (``postgresql+asyncpg://...``), its schema brought up to date by
the Alembic migrations in ``cardhall/store/migrations``.

The store is one object made of aggregates (:mod:`cardhall.store.base` lists them), each a small
interface in its own module here and its SQL part in :mod:`cardhall.store.sql`; the hottest write, a
batch of actions, goes through one seam, :class:`~cardhall.store.action_log.ActionLog`.
"""

from cardhall.store.base import (
    LEASE_SECONDS,
    FencedError,
    NameTakenError,
    Store,
    StoreError,
    StoreUnavailableError,
)
from cardhall.store.rows import (
    RATING_POOLS,
    TABLE_STATUSES,
    ActionRow,
    ChatRow,
    PlayerRow,
    RatingRow,
    ReportRow,
    ResultRow,
    ReviewRow,
    SeatRow,
    SeekerFacts,
    TableRow,
    TableStatus,
)
from cardhall.store.sql import SqlStore, open_store
from cardhall.table import SeatKind

__all__ = [
    "LEASE_SECONDS",
    "RATING_POOLS",
    "TABLE_STATUSES",
    "ActionRow",
    "ChatRow",
    "FencedError",
    "NameTakenError",
    "PlayerRow",
    "RatingRow",
    "ReportRow",
    "ResultRow",
    "ReviewRow",
    "SeatKind",
    "SeatRow",
    "SeekerFacts",
    "SqlStore",
    "Store",
    "StoreError",
    "StoreUnavailableError",
    "TableRow",
    "TableStatus",
    "open_store",
]
