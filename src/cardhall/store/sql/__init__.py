"""The store in SQL, through SQLAlchemy's asyncio Core: SQLite (``sqlite+aiosqlite``, the embedded
default) or PostgreSQL (``postgresql+asyncpg``). ``await open_store(url)`` opens it.

One module a part: the schema (:mod:`~cardhall.store.sql.schema`), where the two databases differ
(:mod:`~cardhall.store.sql.dialect`), the engine and its transactions
(:mod:`~cardhall.store.sql.connection`), opening and migrations (:mod:`~cardhall.store.sql.opening`),
one module per aggregate of :class:`~cardhall.store.base.Store` (players, sessions, tables, finishing,
chat, ratings, reviews, social, moderation, leases), the action log of each database
(:mod:`~cardhall.store.sql.sqlite_log`, :mod:`~cardhall.store.sql.postgres_log`), and
:class:`~cardhall.store.sql.store.SqlStore`, which is all of them.
"""

from cardhall.store.sql.connection import shown_url
from cardhall.store.sql.opening import MIGRATIONS, migrations_config, open_store
from cardhall.store.sql.schema import (
    ACTIONS,
    CHAT,
    NODES,
    PLAYERS,
    RATING_HISTORY,
    RATINGS,
    RESULTS,
    REVIEWS,
    SESSIONS,
    SOCIAL,
    TABLES,
    UNFINISHED,
    UtcDateTime,
    metadata,
)
from cardhall.store.sql.store import SqlStore

__all__ = [
    "ACTIONS",
    "CHAT",
    "MIGRATIONS",
    "NODES",
    "PLAYERS",
    "RATINGS",
    "RATING_HISTORY",
    "RESULTS",
    "REVIEWS",
    "SESSIONS",
    "SOCIAL",
    "TABLES",
    "UNFINISHED",
    "SqlStore",
    "UtcDateTime",
    "metadata",
    "migrations_config",
    "open_store",
    "shown_url",
]
