"""Where SQLite and PostgreSQL differ for the store, in one place: each difference a named member of
:class:`Dialect`, and :data:`SQLITE` and :data:`POSTGRESQL` the two the store runs on. Everything else
in :mod:`cardhall.store.sql` is written once, in SQLAlchemy's Core, for both; the action log, the
hottest write, has one implementation per database (:mod:`~cardhall.store.sql.sqlite_log`,
:mod:`~cardhall.store.sql.postgres_log`), chosen here too (:attr:`Dialect.name` by :func:`open_store`).

What differs, and why:

- **Upserts** (``INSERT ... ON CONFLICT``) are each dialect's own construct in SQLAlchemy
  (:meth:`Dialect.insert`).
- **The clock** of leases is the database's (:attr:`Dialect.now`): leases are compared with one clock,
  the store's, never with the clocks of the machines the processes run on.
- **Writers.** SQLite has one writer at a time: the store's writers take turns on an ``asyncio.Lock``
  rather than on SQLite's busy handler (:attr:`Dialect.one_writer`); PostgreSQL's run side by side.
- **Row locks.** PostgreSQL locks the players' rows a rating update reads (``FOR UPDATE``, in id
  order); SQLite's one writer needs none (:attr:`Dialect.locks_rows`).
- **Times.** SQLite keeps a time as text without an offset, so the store gives it UTC without one
  (:attr:`Dialect.naive_times`).
- **Migrations.** On PostgreSQL they hold an advisory lock for their transaction, so the processes of a
  hall starting together on an empty database take turns (:data:`MIGRATION_LOCK`). On SQLite, foreign
  keys are off meanwhile (a migration that changes a table copies it, and dropping the old copy would
  otherwise delete or refuse what refers to it) and checked before the commit.
- **Where the data is.** An SQLite database is a file, checked at every use
  (:meth:`Dialect.file`), or in memory, one connection's (:meth:`Dialect.in_memory`, one connection
  shared for the store's life); PostgreSQL's is the server's.
- **Connections.** SQLite's get the pragmas of :func:`sqlite_pragmas` and a plain ``BEGIN`` instead of
  the driver's transaction handling (SQLAlchemy's documented recipe: reads see one snapshot, DDL is
  transactional); PostgreSQL's a connect timeout.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Connection, Table, event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import StaticPool
from sqlalchemy.sql.dml import Insert

from cardhall.store.errors import StoreError
from cardhall.store.sqlite_file import SqliteFile

# An INSERT that can say what to do on a conflict: each dialect's own construct in SQLAlchemy.
ConflictInsert = sqlite.Insert | postgresql.Insert
SQLITE_BUSY_TIMEOUT_MS: Final = 10_000
POSTGRES_CONNECT_TIMEOUT_S: Final = 10
MIGRATION_LOCK: Final = 0x63617264  # PostgreSQL's advisory lock key of the migrations ("card")


def sqlite_pragmas(busy_timeout_ms: int) -> tuple[str, ...]:
    """What every connection to the store's SQLite file is set to (SQLAlchemy's and the action log's):
    a killed process keeps every committed transaction (``synchronous=NORMAL`` in WAL; a power cut may
    lose the last ones), and no commit checkpoints the log (the commit that did would keep every table
    waiting): :meth:`SqlStore.checkpoint` does, off the path of any commit."""
    return (
        "journal_mode=WAL",
        "synchronous=NORMAL",
        "wal_autocheckpoint=0",
        # (a log emptied by a checkpoint gives its space back beyond this: cardhall.store.sqlite_file)
        "journal_size_limit=16777216",
        f"busy_timeout={busy_timeout_ms}",
        "foreign_keys=ON",
    )


@dataclass(frozen=True)
class Dialect:
    name: str  # SQLAlchemy's name of it, and the action log's key
    driver: str  # the asyncio driver the store is written and tested for
    now: str  # the database's clock in epoch seconds, as SQL
    one_writer: bool  # writers take turns on the store's lock
    locks_rows: bool  # a rating update locks the players' rows it reads
    naive_times: bool  # times are stored in UTC without their offset

    def insert(self, table: Table) -> ConflictInsert:
        """An ``INSERT`` that can say what to do on a conflict (``on_conflict_do_*``)."""
        return sqlite.insert(table) if self is SQLITE else postgresql.insert(table)

    def upsert(self, table: Table, keys: tuple[str, ...], update: tuple[str, ...]) -> Insert:
        """Insert a row, or update ``update`` of the row whose ``keys`` it has."""
        insert = self.insert(table)
        return insert.on_conflict_do_update(
            index_elements=list(keys), set_={c: insert.excluded[c] for c in update}
        )

    def in_memory(self, url: URL) -> bool:
        """Whether ``url`` is a database in memory (SQLite's ``:memory:``): one connection's, gone with it."""
        if self is not SQLITE:
            return False
        return url.database in (None, "", ":memory:") or url.query.get("mode") == "memory"

    def file(self, url: URL) -> SqliteFile | None:
        """The database's file, checked at every use (:mod:`cardhall.store.sqlite_file`): SQLite's, not
        in memory."""
        if self is not SQLITE or self.in_memory(url) or not url.database:
            return None
        return SqliteFile(url.database)

    def engine_options(self, memory: bool) -> dict[str, Any]:
        """``create_async_engine``'s options (``memory``: one SQLite database in memory, one connection
        shared for the store's life)."""
        if self is SQLITE:
            return {"poolclass": StaticPool} if memory else {}
        return {"connect_args": {"timeout": POSTGRES_CONNECT_TIMEOUT_S}}

    def prepare(self, engine: AsyncEngine, busy_timeout_ms: int) -> None:
        """What every new connection of ``engine`` is given (SQLite: its pragmas and our ``BEGIN``)."""
        if self is not SQLITE:
            return

        @event.listens_for(engine.sync_engine, "connect")
        def connect(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.isolation_level = None  # no implicit BEGIN/COMMIT by the driver: ours below
            cursor = dbapi_connection.cursor()
            for pragma in sqlite_pragmas(busy_timeout_ms):
                cursor.execute(f"PRAGMA {pragma}")
            cursor.close()

        @event.listens_for(engine.sync_engine, "begin")
        def begin(connection: Connection) -> None:
            connection.exec_driver_sql("BEGIN")

    def before_migrations(self, connection: Connection) -> None:
        """In the migrations' transaction, before them."""
        if self is POSTGRESQL:
            # Processes of one hall that start together on an empty database would each create the
            # tables, and all but one fail on the catalog's unique names: they take turns instead, and
            # those after the first find the schema at the head (the lock ends with the transaction).
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")

    def after_migrations(self, connection: Connection) -> None:
        """In the migrations' transaction, after them."""
        if self is SQLITE:
            # Foreign keys are off while migrating: check what the migrations did before commit.
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            if broken:
                raise StoreError(f"the migrations left rows whose foreign keys point nowhere: {broken[:5]}")

    @property
    def foreign_keys_off_while_migrating(self) -> bool:
        """(SQLite ignores the pragma inside a transaction: it is set on the driver's connection before
        the migrations' transaction begins.)"""
        return self is SQLITE


SQLITE: Final = Dialect(
    name="sqlite",
    driver="aiosqlite",
    now="((julianday('now') - 2440587.5) * 86400.0)",
    one_writer=True,
    locks_rows=False,
    naive_times=True,
)
POSTGRESQL: Final = Dialect(
    name="postgresql",
    driver="asyncpg",
    now="extract(epoch from clock_timestamp())",
    one_writer=False,
    locks_rows=True,
    naive_times=False,
)
DIALECTS: Final = {d.name: d for d in (SQLITE, POSTGRESQL)}
