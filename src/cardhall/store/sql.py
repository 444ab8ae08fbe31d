"""The :class:`~cardhall.store.base.Store` on SQLAlchemy's asyncio Core: SQLite (``sqlite+aiosqlite``, the
embedded default) or PostgreSQL (``postgresql+asyncpg``). ``await open_store(url)`` opens it.

Choices:

- **Migrations at open.** :func:`open_store` brings the schema to the latest Alembic revision of
  ``cardhall/store/migrations`` on one connection, in code (no ``alembic.ini``), before it returns (a
  database already there costs a few queries). :func:`migrations_config` gives the same configuration
  to Alembic's commands (``alembic.command.revision(migrations_config(url), autogenerate=True,
  message=...)`` writes the next revision). On PostgreSQL the migrations hold an advisory lock for
  their transaction, so the processes of a hall starting together on an empty database take turns.
  :data:`metadata` below is the schema the migrations must produce (a test compares them on both
  databases).
- **SQLite.** Every connection gets ``journal_mode=WAL`` and ``synchronous=NORMAL`` (a killed process
  keeps every committed transaction; a power cut may lose the last ones), a 10 s ``busy_timeout`` and
  ``foreign_keys=ON``. No commit checkpoints the log (``wal_autocheckpoint=0``: the commit that did
  would keep every table waiting); :meth:`SqlStore.checkpoint` does, on a connection of its own, and
  SQLite does when the store closes. The driver's own transaction handling is replaced by a plain
  ``BEGIN`` (SQLAlchemy's documented recipe), so reads see one snapshot and DDL is transactional.
  Writers of one store take turns on an ``asyncio.Lock`` rather than on SQLite's busy handler.
  ``sqlite+aiosqlite:///:memory:`` is one connection (``StaticPool``) shared for the store's life,
  every use taking that lock.
- **PostgreSQL.** asyncpg with a 10 s connect timeout; ratings are upserted in key order (no deadlock
  between two finishing tables).
- **Tokens.** A player's token is ``secrets.token_urlsafe(32)``; only its SHA-256 hex is stored (unique
  index), and a token is looked up by its hash.
- **Columns.** Seeds are ``BIGINT`` (up to ``2**63 - 1``); a table's settings and seats are JSON columns
  (seats as a list of :class:`~cardhall.store.rows.SeatRow` dicts); times are stored in UTC and come back
  timezone-aware in UTC (a naive time given is taken as local time, as ``datetime.astimezone`` does);
  table statuses and rating pools are checked by the database.
- **Batches.** ``append_actions`` is one transaction and one executemany insert, however many tables
  the batch spans (on an SQLite file written by ``sqlite3`` on a thread of its own, one hand-off a
  batch: :mod:`cardhall.store.sqlite_append`; on PostgreSQL by asyncpg, the fences checked and the
  rows inserted in one statement: :mod:`cardhall.store.postgres_append`); ``unfinished`` reads the
  tables and then the actions of all of them in one query, in one transaction.
- **Indexes.** Actions by table come from their primary key ``(table_id, number)``; tables by
  ``(status, created_at)`` and by ``(node, status)`` (a process's open tables; the sweep's tables of
  no process or of lapsed ones: a table's ``node`` refers to ``nodes``), chat by ``(table_id, id)``,
  ratings by ``(game, pool)``.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import secrets
import threading
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from dataclasses import asdict, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Connection,
    DateTime,
    Dialect,
    Double,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Row,
    Table,
    Text,
    TypeDecorator,
    and_,
    bindparam,
    case,
    event,
    exists,
    false,
    func,
    literal_column,
    select,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import StaticPool
from sqlalchemy.sql.dml import Insert

from cardhall.store.base import (
    FencedError,
    NameTakenError,
    Store,
    StoreError,
    StoreUnavailableError,
)
from cardhall.store.postgres_append import PostgresAppender
from cardhall.store.rows import (
    ABSENCES,
    RATING_POOLS,
    TABLE_STATUSES,
    ActionRow,
    ChatRow,
    MatchRow,
    PlayerRow,
    RatingHistoryRow,
    RatingInputs,
    RatingRequest,
    RatingRow,
    ResultRow,
    ReviewRow,
    SeatRow,
    TableRow,
)
from cardhall.store.social import SocialSql, social_tables
from cardhall.store.sqlite_append import SqliteAppender, sqlite_pragmas
from cardhall.store.sqlite_file import WAL_LIMIT_BYTES, SqliteFile

log = logging.getLogger(__name__)
MIGRATIONS = Path(__file__).resolve().with_name("migrations")
# The drivers this store is written and tested for, by backend.
DRIVERS = {"sqlite": "aiosqlite", "postgresql": "asyncpg"}
SQLITE_BUSY_TIMEOUT_MS = 10_000
POSTGRES_CONNECT_TIMEOUT_S = 10
UNFINISHED = ("waiting", "playing")  # the statuses a restart brings back
# The database's clock in epoch seconds: leases are compared with one clock, the store's, never with the
# clocks of the machines the processes run on.
_NOW = {
    "postgresql": "extract(epoch from clock_timestamp())",
    "sqlite": "((julianday('now') - 2440587.5) * 86400.0)",
}


class UtcDateTime(TypeDecorator[datetime]):
    """A timezone-aware time, stored in UTC (SQLite keeps it as text without an offset) and returned in
    UTC."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _in(column: str, values: Sequence[str]) -> str:
    return f"{column} IN ({', '.join(repr(str(v)) for v in values)})"


metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

PLAYERS = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", Text, nullable=False),
    Column("token_hash", Text, nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    Column("name_key", Text),  # an account's: unique (names.name_key); null for a guest
    Column("password_hash", Text),  # argon2id, in its own encoding; null for a guest
    Index(None, "token_hash", unique=True),
    Index(None, "name_key", unique=True),
)

SESSIONS = Table(
    "sessions",
    metadata,
    Column("token_hash", Text, primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    Column("expires_at", UtcDateTime, nullable=False),
    Index(None, "player_id"),
)

TABLES = Table(
    "tables",
    metadata,
    Column("id", Text, primary_key=True),
    Column("game", Text, nullable=False),
    Column("rules_version", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("settings", JSON, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("status", Text, nullable=False),
    Column("owner_id", Integer, ForeignKey("players.id")),
    Column("rematch_of", Text, ForeignKey("tables.id")),
    Column("created_at", UtcDateTime, nullable=False),
    Column("finished_at", UtcDateTime),
    Column("problem", Text),
    Column("fence", BigInteger, nullable=False, server_default="1"),
    Column("node", Text, ForeignKey("nodes.name", ondelete="SET NULL")),  # (see _free)
    CheckConstraint(_in("status", TABLE_STATUSES), name="status"),
    Index(None, "status", "created_at"),
    Index(None, "node", "status"),  # (a renewal: a process's open tables)
)

# One lease per server process of a hall (cardhall.server.cluster.leases): a table whose ``node`` is
# a process with a lease running is that process's; renewing it is one row, whatever the tables.
NODES = Table(
    "nodes",
    metadata,
    Column("name", Text, primary_key=True),
    Column("lease_until", Double, nullable=False),
)

ACTIONS = Table(
    "actions",
    metadata,
    Column("table_id", Text, ForeignKey("tables.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("action", Integer, nullable=False),
    # Made by the stand-in of the person in ``seat`` (what a match played by a stand-in is counted from:
    # cardhall.server.ratings), kept with the action so a restart or another process counts it too.
    Column("stand_in", Boolean, nullable=False, server_default=false()),
    PrimaryKeyConstraint("table_id", "number"),
)

CHAT = Table(
    "chat",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("table_id", Text, ForeignKey("tables.id"), nullable=False),
    Column("player_id", Integer, ForeignKey("players.id")),
    Column("name", Text, nullable=False),
    Column("text", Text, nullable=False),
    Column("at", UtcDateTime, nullable=False),
    Index(None, "table_id", "id"),
)

RESULTS = Table(
    "results",
    metadata,
    Column("table_id", Text, ForeignKey("tables.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("player_id", Integer, ForeignKey("players.id")),
    Column("score", Integer, nullable=False),
    Column("win_share", Double, nullable=False),
    Column("absent", Text),  # his match played by a stand-in: why (rows.ABSENCES), else null
    PrimaryKeyConstraint("table_id", "seat"),
    CheckConstraint(_in("absent", ABSENCES), name="absent"),
)

RATINGS = Table(
    "ratings",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("game", Text, nullable=False),
    Column("pool", Text, nullable=False),
    Column("mu", Double, nullable=False),
    Column("sigma", Double, nullable=False),
    Column("games", Integer, nullable=False),
    PrimaryKeyConstraint("player_id", "game", "pool"),
    CheckConstraint(_in("pool", RATING_POOLS), name="pool"),
    Index(None, "game", "pool"),
)

REVIEWS = Table(
    "reviews",
    metadata,
    Column("table_id", Text, ForeignKey("tables.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("budget", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("review", JSON, nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    PrimaryKeyConstraint("table_id", "seat"),
)

# Private tables, friends, blocks, roles, sanctions and reports (cardhall.store.social).
SOCIAL = social_tables(metadata, UtcDateTime)

RATING_HISTORY = Table(
    "rating_history",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("table_id", Text, ForeignKey("tables.id"), nullable=False),
    Column("game", Text, nullable=False),
    Column("pool", Text, nullable=False),
    Column("mu", Double, nullable=False),
    Column("sigma", Double, nullable=False),
    Column("at", UtcDateTime, nullable=False),
    Index(None, "player_id", "id"),
)


# --- opening -------------------------------------------------------------------------------------


MIGRATION_LOCK: Final = 0x63617264  # PostgreSQL's advisory lock key of the migrations ("card")


def migrations_config(url: str | None = None) -> Config:
    """Alembic's configuration for the store's migrations (``url``: for Alembic's own commands; the
    store passes its connection instead)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def _upgrade(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        # Processes of one hall that start together on an empty database would each create the
        # tables, and all but one fail on the catalog's unique names: they take turns instead, and
        # those after the first find the schema at the head (the lock ends with the transaction).
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
    config = migrations_config()
    config.attributes["connection"] = connection
    command.upgrade(config, "head")
    if connection.dialect.name == "sqlite":
        # Foreign keys are off while migrating (below): check what the migrations did before commit.
        broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise StoreError(f"the migrations left rows whose foreign keys point nowhere: {broken[:5]}")


async def _migrate(engine: AsyncEngine) -> None:
    """Bring the schema to the latest revision, in one transaction. On SQLite, with foreign keys off
    meanwhile: a migration that changes a table copies it (Alembic's batch mode), and dropping the old
    copy would otherwise delete or refuse what refers to it; SQLite ignores the pragma inside a
    transaction, so it is set on the driver's connection before the transaction begins."""
    async with engine.connect() as connection:
        driver = None
        if engine.dialect.name == "sqlite":
            driver = (await connection.get_raw_connection()).driver_connection
            assert driver is not None
            await driver.execute("PRAGMA foreign_keys=OFF")
        try:
            async with connection.begin():
                await connection.run_sync(_upgrade)
        finally:
            if driver is not None:
                await driver.execute("PRAGMA foreign_keys=ON")


def shown_url(url: str) -> str:
    """``url`` with its password hidden (``***``), parsed or not."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)


def _reason(error: BaseException) -> str:
    if isinstance(error, DBAPIError) and error.orig is not None:
        error = error.orig
    return str(error).strip() or type(error).__name__


def _is_memory(url: URL) -> bool:
    return url.database in (None, "", ":memory:") or url.query.get("mode") == "memory"


def _sqlite_workers() -> set[threading.Thread]:
    """aiosqlite's worker threads. A connection that fails to open leaves its worker to stop on its own;
    if the event loop closes first, the worker dies on it noisily ("Event loop is closed", aiosqlite
    0.22), so a failed open waits for its workers to end."""
    return {t for t in threading.enumerate() if "_connection_worker_thread" in t.name}


def _sqlite_listeners(engine: AsyncEngine, busy_timeout_ms: int) -> None:
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


async def open_store(url: str, *, busy_timeout_ms: int = SQLITE_BUSY_TIMEOUT_MS) -> Store:
    """The store at ``url`` (``sqlite+aiosqlite:///file.db``, ``sqlite+aiosqlite:///:memory:`` or
    ``postgresql+asyncpg://user:password@host/database``; ``sqlite://`` and ``postgresql://`` get those
    drivers), its schema migrated to the latest revision; :class:`StoreError` when it cannot be
    opened. ``busy_timeout_ms``: how long an SQLite write waits for another process's write lock
    before it fails."""
    shown = shown_url(url)

    def error(reason: str) -> StoreError:
        return StoreError(f"cannot open the store at {shown}: {reason}")

    try:
        parsed = make_url(url)
    except Exception as e:
        raise error(f"not a database URL ({_reason(e)})") from e
    backend = parsed.get_backend_name()
    if "+" not in parsed.drivername and backend in DRIVERS:  # sqlite://, postgresql://: our drivers
        parsed = parsed.set(drivername=f"{backend}+{DRIVERS[backend]}")
    driver = parsed.get_driver_name()
    if DRIVERS.get(backend) != driver:
        expected = " or ".join(f"{b}+{d}://" for b, d in DRIVERS.items())
        raise error(f"the store runs on {expected} (asyncio drivers), not {backend}+{driver}://")
    memory = backend == "sqlite" and _is_memory(parsed)
    options: dict[str, Any] = {}
    if memory:
        options["poolclass"] = StaticPool
    if backend == "postgresql":
        options["connect_args"] = {"timeout": POSTGRES_CONNECT_TIMEOUT_S}
    try:
        engine = create_async_engine(parsed, **options)
    except Exception as e:
        raise error(_reason(e)) from e
    if backend == "sqlite":
        _sqlite_listeners(engine, busy_timeout_ms)
    workers = _sqlite_workers()
    try:
        await _migrate(engine)
    except Exception as e:
        await engine.dispose()
        for worker in _sqlite_workers() - workers:
            await asyncio.to_thread(worker.join, 5)
        raise error(_reason(e)) from e
    appender = file = None
    if backend == "sqlite" and not memory and parsed.database:
        file = SqliteFile(parsed.database)
        appender = SqliteAppender(parsed.database, busy_timeout_ms, shown, file)
    postgres_appender = None
    if backend == "postgresql":
        _, connect_args = engine.dialect.create_connect_args(engine.url)
        postgres_appender = PostgresAppender({**connect_args, **options["connect_args"]}, shown)
    return SqlStore(
        engine, shown, memory=memory, appender=appender, postgres_appender=postgres_appender, file=file
    )


# --- the store -----------------------------------------------------------------------------------


# What a store that fails raises (as :class:`StoreUnavailableError`); an IntegrityError is a defect of
# the caller's rows, not of the store, and goes through as it is.
_FAILURES = (SQLAlchemyError, OSError, TimeoutError)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


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
)


def _table_values(table: TableRow) -> dict[str, Any]:
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
    }


def _table_row(row: Row[Any]) -> TableRow:
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
    )


def _rating_row(row: Row[Any]) -> RatingRow:
    guest = row.password_hash is None
    return RatingRow(row.player_id, row.game, row.pool, row.mu, row.sigma, row.games, row.name, guest)


_RATING = (*RATINGS.c, PLAYERS.c.name, PLAYERS.c.password_hash)
_PLAYER = (PLAYERS.c.id, PLAYERS.c.name, PLAYERS.c.password_hash)
_BANS = SOCIAL["bans"]
# A credential's player with his ban, if any, in one query (a hello and every signed request ask both).
_PLAYER_AND_BAN = select(*_PLAYER, _BANS.c.reason.label("banned")).outerjoin(
    _BANS, _BANS.c.player_id == PLAYERS.c.id
)


def _player_row(row: Row[*tuple[Any, ...]], banned: str | None = None) -> PlayerRow:
    return PlayerRow(row.id, row.name, row.password_hash is None, banned)


class _Leasing:
    """The statements a process runs several times a second to keep its lease (a renewal every half
    second, a sweep every quarter), made once per store and run with parameters. Made anew for each
    call, each statement's SQLAlchemy expressions left a few reference cycles behind (an expression and
    its comparator refer to each other): garbage that only the collector frees, so the server's
    collector clock (:mod:`cardhall.server.collector`) never went quiet on PostgreSQL and scanned
    everything young four times a second (``benchmarks/load.md``, twelfth session)."""

    def __init__(self, sqlite_dialect: bool, now: str) -> None:
        insert = sqlite.insert(NODES) if sqlite_dialect else postgresql.insert(NODES)
        until: Any = literal_column(now) + bindparam("seconds", type_=Double)
        self.upsert = insert.values(name=bindparam("node"), lease_until=until).on_conflict_do_update(
            index_elements=["name"], set_={"lease_until": until}
        )
        self.held = select(TABLES.c.id).where(
            TABLES.c.node == bindparam("node"), TABLES.c.status.in_(UNFINISHED)
        )
        # The sweep: the processes whose lease ran out (a few names, most often none), then the
        # unfinished tables with no node or one of those, found by the (node, status) index. In one
        # statement (``node IN (SELECT ...)``) PostgreSQL read every unfinished table instead, not
        # knowing how few the names would be (see SqlStore._free).
        self.lapsed = select(NODES.c.name).where(NODES.c.lease_until < literal_column(now))
        self.expired = (
            select(TABLES.c.id)
            .where(
                TABLES.c.status.in_(UNFINISHED),
                TABLES.c.node.is_(None) | TABLES.c.node.in_(bindparam("lapsed", type_=Text, expanding=True)),
            )
            .order_by(TABLES.c.created_at)
            .limit(bindparam("limit", type_=Integer))
        )


class SqlStore(SocialSql, Store):
    """A :class:`Store` on an SQLAlchemy async engine (open it with :func:`open_store`)."""

    social = SOCIAL
    players_table = PLAYERS
    tables_table = TABLES
    nodes_table = NODES
    chat_table = CHAT

    def __init__(
        self,
        engine: AsyncEngine,
        url: str,
        *,
        memory: bool = False,
        appender: SqliteAppender | None = None,
        postgres_appender: PostgresAppender | None = None,
        file: SqliteFile | None = None,
    ) -> None:
        self.engine = engine
        self.file = file  # an SQLite file's (None: PostgreSQL, or memory): checked at every use
        self.url = url  # without its password
        self.sqlite = engine.dialect.name == "sqlite"
        lock = asyncio.Lock()
        self._write_lock = lock if self.sqlite else None
        self._read_lock = lock if memory else None
        self._table_upsert: Insert | None = None  # (see _save_table)
        self._leasing_statements: _Leasing | None = None  # (see _leasing)
        self._appender = appender  # an SQLite file's group commit (see append_actions)
        self._postgres_appender = postgres_appender  # PostgreSQL's (see append_actions)

    def __repr__(self) -> str:
        return f"<SqlStore {self.url}>"

    @property
    def appender(self) -> SqliteAppender | None:
        """What writes an SQLite file's batches of actions (None: SQLAlchemy does)."""
        return self._appender

    @property
    def postgres_appender(self) -> PostgresAppender | None:
        """What writes PostgreSQL's batches of actions (None: another database)."""
        return self._postgres_appender

    async def checkpoint(self) -> None:
        """SQLite file: copy the write-ahead log into the database, without waiting for (or holding up)
        a writer (``PASSIVE``); a log left over :data:`~cardhall.store.sqlite_file.WAL_LIMIT_BYTES`
        is then emptied (``TRUNCATE``), this process's writers waiting on the write lock meanwhile."""
        if self.file is None:  # PostgreSQL, or one shared memory database
            return
        self.file.check()
        await self._checkpoint("PASSIVE")
        if self.file.wal_bytes() > WAL_LIMIT_BYTES:
            async with self._held(self._write_lock):
                await self._checkpoint("TRUNCATE")

    async def _checkpoint(self, mode: str) -> None:
        async with self.engine.connect() as c:
            driver = (await c.get_raw_connection()).driver_connection  # aiosqlite's connection
            assert driver is not None
            # Outside SQLAlchemy's transaction (a checkpoint cannot run inside one).
            await driver.execute(f"PRAGMA wal_checkpoint({mode})")

    def problems(self) -> list[str]:
        problem = None if self.file is None else self.file.problem()
        return [] if problem is None else [problem]

    async def close(self) -> None:
        if self._appender is not None:
            await self._appender.close()
        if self._postgres_appender is not None:
            await self._postgres_appender.close()
        await self.engine.dispose()

    def _held(self, lock: asyncio.Lock | None) -> AbstractAsyncContextManager[object]:
        return nullcontext() if lock is None else lock

    def _unavailable(self, error: BaseException) -> StoreUnavailableError:
        return StoreUnavailableError(f"the store at {self.url} failed: {_reason(error)}")

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[AsyncConnection]:
        """A connection in a transaction committed on leaving (rolled back on an exception); a store
        that fails raises :class:`StoreUnavailableError`."""
        if self.file is not None:
            self.file.check()
        try:
            async with self._held(self._write_lock), self.engine.begin() as connection:
                yield connection
        except IntegrityError:
            raise
        except _FAILURES as e:
            raise self._unavailable(e) from e
        if self.file is not None:  # (committed into a file deleted meanwhile: not stored at all)
            self.file.check()

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[AsyncConnection]:
        """A connection whose reads see one snapshot; :class:`StoreUnavailableError` if it fails."""
        if self.file is not None:
            self.file.check()
        try:
            async with self._held(self._read_lock), self.engine.connect() as connection:
                yield connection
        except IntegrityError:
            raise
        except _FAILURES as e:
            raise self._unavailable(e) from e

    async def probe(self, table_id: str) -> None:
        """Rewrite one table's row as it is: a real write transaction (SQLite takes its write lock and
        appends the page to its log; PostgreSQL writes a new row version), which succeeds only when
        the store takes writes again."""
        async with self._writing() as c:
            await c.execute(TABLES.update().where(TABLES.c.id == table_id).values(status=TABLES.c.status))

    def _upsert(self, table: Table, keys: Sequence[str], update: Sequence[str]) -> Insert:
        insert = sqlite.insert(table) if self.sqlite else postgresql.insert(table)
        return insert.on_conflict_do_update(
            index_elements=list(keys), set_={c: insert.excluded[c] for c in update}
        )

    # --- players -------------------------------------------------------------------------------

    async def create_player(self, name: str) -> tuple[PlayerRow, str]:
        token = secrets.token_urlsafe(32)
        async with self._writing() as c:
            result = await c.execute(
                PLAYERS.insert().values(name=name, token_hash=_hash(token), created_at=datetime.now(UTC))
            )
        (player_id,) = result.inserted_primary_key or (None,)
        assert isinstance(player_id, int)
        return PlayerRow(player_id, name), token

    async def player_by_token(self, token: str) -> PlayerRow | None:
        query = _PLAYER_AND_BAN.where(PLAYERS.c.token_hash == _hash(token))
        async with self._reading() as c:
            row = (await c.execute(query)).first()
        return None if row is None else _player_row(row, row.banned)

    async def players(self, ids: Sequence[int]) -> dict[int, PlayerRow]:
        if not ids:
            return {}
        query = select(*_PLAYER).where(PLAYERS.c.id.in_(set(ids)))
        async with self._reading() as c:
            rows = (await c.execute(query)).all()
        return {r.id: _player_row(r) for r in rows}

    # --- accounts and sessions -----------------------------------------------------------------

    async def create_account(self, player_id: int, name: str, key: str, password_hash: str) -> bool:
        values = {
            "name": name,
            "name_key": key,
            "password_hash": password_hash,
            # The guest's token dies: from now on a password guards him, and the token a browser kept
            # would be a second, weaker key.
            "token_hash": _hash(secrets.token_urlsafe(32)),
        }
        query = (
            PLAYERS.update()
            .where(PLAYERS.c.id == player_id, PLAYERS.c.password_hash.is_(None))
            .values(values)
        )
        try:
            async with self._writing() as c:
                result = await c.execute(query)
        except IntegrityError as e:
            raise NameTakenError(f"another account has the name {name!r} (or one that looks like it)") from e
        return bool(result.rowcount)

    async def account(self, key: str) -> tuple[PlayerRow, str] | None:
        query = select(*_PLAYER).where(PLAYERS.c.name_key == key)
        async with self._reading() as c:
            row = (await c.execute(query)).first()
        if row is None or row.password_hash is None:
            return None
        return _player_row(row), row.password_hash

    async def password_hash(self, player_id: int) -> str | None:
        query = select(PLAYERS.c.password_hash).where(PLAYERS.c.id == player_id)
        async with self._reading() as c:
            found: str | None = (await c.execute(query)).scalar()
        return found

    async def create_session(self, player_id: int, expires_at: datetime) -> str:
        token = secrets.token_urlsafe(32)
        values = {
            "token_hash": _hash(token),
            "player_id": player_id,
            "created_at": datetime.now(UTC),
            "expires_at": expires_at,
        }
        async with self._writing() as c:
            await c.execute(SESSIONS.insert().values(values))
        return token

    async def player_by_session(self, token: str, now: datetime) -> PlayerRow | None:
        query = _PLAYER_AND_BAN.join(SESSIONS, SESSIONS.c.player_id == PLAYERS.c.id).where(
            SESSIONS.c.token_hash == _hash(token), SESSIONS.c.expires_at > now
        )
        async with self._reading() as c:
            row = (await c.execute(query)).first()
        return None if row is None else _player_row(row, row.banned)

    async def end_session(self, token: str) -> None:
        async with self._writing() as c:
            await c.execute(SESSIONS.delete().where(SESSIONS.c.token_hash == _hash(token)))

    def _others(self, player_id: int, keep: str | None) -> Any:
        query = SESSIONS.delete().where(SESSIONS.c.player_id == player_id)
        return query if keep is None else query.where(SESSIONS.c.token_hash != _hash(keep))

    async def end_sessions(self, player_id: int, keep: str | None = None) -> int:
        async with self._writing() as c:
            result = await c.execute(self._others(player_id, keep))
        return int(result.rowcount)

    async def set_password(self, player_id: int, password_hash: str, keep: str | None = None) -> None:
        async with self._writing() as c:
            await c.execute(
                PLAYERS.update().where(PLAYERS.c.id == player_id).values(password_hash=password_hash)
            )
            await c.execute(self._others(player_id, keep))

    async def sessions(self, player_id: int) -> int:
        query = select(func.count()).select_from(SESSIONS).where(SESSIONS.c.player_id == player_id)
        async with self._reading() as c:
            return int((await c.execute(query)).scalar() or 0)

    async def end_oldest_sessions(self, player_id: int, keep: int) -> list[str]:
        newest = (
            select(SESSIONS.c.token_hash)
            .where(SESSIONS.c.player_id == player_id)
            .order_by(SESSIONS.c.created_at.desc(), SESSIONS.c.token_hash)
            .limit(keep)
        )
        query = (
            SESSIONS.delete()
            .where(SESSIONS.c.player_id == player_id, SESSIONS.c.token_hash.not_in(newest.scalar_subquery()))
            .returning(SESSIONS.c.token_hash)
        )
        async with self._writing() as c:
            return list((await c.execute(query)).scalars())

    # --- tables --------------------------------------------------------------------------------

    def _save_table(self, table: TableRow) -> tuple[Insert, dict[str, Any]]:
        """Insert a table, or update what changes in its life (``save_table``'s promise), the update
        only while the row holds the writer's fencing number; the id comes back when it was written.
        A new table stored by its owner (``node``) is that process's while its lease runs. (The
        statement is built once per store, with bound parameters: building it per row cost more than
        running it.)"""
        statement = self._table_upsert
        if statement is None:
            insert = sqlite.insert(TABLES) if self.sqlite else postgresql.insert(TABLES)
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
        return statement, _table_values(table)

    @property
    def _now(self) -> str:
        return _NOW["sqlite" if self.sqlite else "postgresql"]

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
        return None if row is None else _table_row(row)

    async def tables(self, statuses: Sequence[str], limit: int = 100) -> list[TableRow]:
        query = (
            select(TABLES)
            .where(TABLES.c.status.in_(list(statuses)))
            .order_by(TABLES.c.created_at.desc(), TABLES.c.id.desc())
            .limit(limit)
        )
        async with self._reading() as c:
            return [_table_row(r) for r in await c.execute(query)]

    async def append_actions(
        self, actions: Sequence[ActionRow], fences: Mapping[str, int] | None = None
    ) -> None:
        """With ``fences``, the tables' rows are read first with a share lock (``FOR SHARE``): a
        process taking a table over raises its fence with an update, which waits for this
        transaction to end (and then reads the actions it wrote), or this one waits for it and then
        sees the new fence and writes nothing."""
        if not actions:
            return
        if self._postgres_appender is not None:  # (cardhall.store.postgres_append: one statement)
            await self._postgres_appender.append(actions, fences)
            return
        if self._appender is not None and not fences:  # (an SQLite file: cardhall.store.sqlite_append)
            async with self._held(self._write_lock):
                await self._appender.append(actions)
            return
        rows = [
            {
                "table_id": a.table_id,
                "number": a.number,
                "seat": a.seat,
                "action": a.action,
                "stand_in": a.stand_in,
            }
            for a in actions
        ]
        async with self._writing() as c:
            if fences:
                query = (
                    select(TABLES.c.id, TABLES.c.fence)
                    .where(TABLES.c.id.in_(list(fences)))
                    .order_by(TABLES.c.id)  # (locked in the order of their ids: no deadlock)
                    .with_for_update(read=True)
                )
                held = {r.id: r.fence for r in await c.execute(query)}
                stale = sorted(t for t, fence in fences.items() if held.get(t) != fence)
                if stale:
                    raise FencedError(
                        stale,
                        f"tables {', '.join(stale)} belong to another process now (their fences "
                        "moved on): no action was written",
                    )
            await c.execute(ACTIONS.insert(), rows)

    async def last_action(self, table_id: str) -> ActionRow | None:
        query = (
            select(ACTIONS.c.number, ACTIONS.c.seat, ACTIONS.c.action, ACTIONS.c.stand_in)
            .where(ACTIONS.c.table_id == table_id)
            .order_by(ACTIONS.c.number.desc())
            .limit(1)
        )
        async with self._reading() as c:
            row = (await c.execute(query)).first()
        return None if row is None else ActionRow(table_id, row.number, row.seat, row.action, row.stand_in)

    async def action_counts(self, table_ids: Sequence[str]) -> dict[str, int]:
        if not table_ids:
            return {}
        # (the greatest number of each table, from the actions' primary key (table_id, number))
        query = (
            select(ACTIONS.c.table_id, func.max(ACTIONS.c.number).label("n"))
            .where(ACTIONS.c.table_id.in_(list(table_ids)))
            .group_by(ACTIONS.c.table_id)
        )
        async with self._reading() as c:
            return {r.table_id: int(r.n) for r in await c.execute(query)}

    async def mark_broken(self, table_id: str, problem: str) -> None:
        query = TABLES.update().where(TABLES.c.id == table_id).values(status="broken", problem=problem)
        async with self._writing() as c:
            await c.execute(query)

    async def actions(self, table_id: str) -> list[tuple[int, int]]:
        query = (
            select(ACTIONS.c.seat, ACTIONS.c.action)
            .where(ACTIONS.c.table_id == table_id)
            .order_by(ACTIONS.c.number)
        )
        async with self._reading() as c:
            return [(r.seat, r.action) for r in await c.execute(query)]

    async def actions_of(self, table_ids: Sequence[str]) -> dict[str, list[ActionRow]]:
        """One query for every table (as :meth:`unfinished` reads a restart's)."""
        found: dict[str, list[ActionRow]] = {t: [] for t in table_ids}
        if not found:
            return found
        query = (
            select(ACTIONS.c.table_id, ACTIONS.c.number, ACTIONS.c.seat, ACTIONS.c.action, ACTIONS.c.stand_in)
            .where(ACTIONS.c.table_id.in_(list(found)))
            .order_by(ACTIONS.c.table_id, ACTIONS.c.number)
        )
        async with self._reading() as c:
            for r in await c.execute(query):
                found[r.table_id].append(ActionRow(r.table_id, r.number, r.seat, r.action, r.stand_in))
        return found

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
                    found.append((_table_row(r), []))
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

    async def finish(
        self,
        table: TableRow,
        results: Sequence[ResultRow],
        ratings: Sequence[RatingRow] = (),
        *,
        rating: RatingRequest | None = None,
    ) -> None:
        result_rows = [asdict(r) for r in results]
        async with self._writing() as c:
            if rating is not None:
                ratings = rating.compute(await self._rating_inputs(c, rating))
            await self._save_fenced(c, table)
            if result_rows:
                await c.execute(RESULTS.insert(), result_rows)
            if ratings:
                ordered = sorted(ratings, key=lambda r: (r.player_id, r.game, r.pool))
                rating_rows = [
                    {
                        "player_id": r.player_id,
                        "game": r.game,
                        "pool": r.pool,
                        "mu": r.mu,
                        "sigma": r.sigma,
                        "games": r.games,
                    }
                    for r in ordered
                ]
                keys = ("player_id", "game", "pool")
                await c.execute(self._upsert(RATINGS, keys, ("mu", "sigma", "games")), rating_rows)
                at = table.finished_at or datetime.now(UTC)
                history = [
                    {
                        "player_id": r.player_id,
                        "table_id": table.id,
                        "game": r.game,
                        "pool": r.pool,
                        "mu": r.mu,
                        "sigma": r.sigma,
                        "at": at,
                    }
                    for r in ordered
                ]
                await c.execute(RATING_HISTORY.insert(), history)

    async def _rating_inputs(self, c: AsyncConnection, request: RatingRequest) -> RatingInputs:
        """What a rating update reads, in the transaction that stores it. On PostgreSQL the players'
        rows are locked first (in id order: no deadlock between two matches), so a second match of
        one of them waits here until the first is committed, and then reads its ratings; SQLite's
        writers take turns already (one lock for the whole store)."""
        ids = sorted(set(request.players))
        if not ids:
            return RatingInputs({}, {}, set(), {})
        lock = (
            select(PLAYERS.c.id, PLAYERS.c.password_hash).where(PLAYERS.c.id.in_(ids)).order_by(PLAYERS.c.id)
        )
        if not self.sqlite:
            lock = lock.with_for_update()
        accounts = {r.id for r in await c.execute(lock) if r.password_hash is not None}
        current_query = (
            select(*_RATING)
            .join(PLAYERS, PLAYERS.c.id == RATINGS.c.player_id)
            .where(
                RATINGS.c.game == request.game, RATINGS.c.pool == request.pool, RATINGS.c.player_id.in_(ids)
            )
        )
        current = {r.player_id: _rating_row(r) for r in await c.execute(current_query)}
        # Finished matches among people only: a table none of whose results has a bot's seat.
        with_bot = select(RESULTS.c.table_id).where(RESULTS.c.player_id.is_(None))
        people_tables = select(TABLES.c.id).where(TABLES.c.status == "finished", TABLES.c.id.not_in(with_bot))
        played_query = (
            select(RESULTS.c.player_id, func.count())
            .where(RESULTS.c.player_id.in_(ids), RESULTS.c.table_id.in_(people_tables))
            .group_by(RESULTS.c.player_id)
        )
        played = {r[0]: int(r[1]) for r in await c.execute(played_query)}
        mine, theirs = RESULTS.alias("mine"), RESULTS.alias("theirs")
        together = and_(mine.c.table_id == theirs.c.table_id, mine.c.player_id < theirs.c.player_id)
        pairs_query = (
            select(mine.c.player_id, theirs.c.player_id, func.count())
            .select_from(mine.join(theirs, together).join(TABLES, TABLES.c.id == mine.c.table_id))
            .where(
                mine.c.player_id.in_(ids),
                theirs.c.player_id.in_(ids),
                TABLES.c.status == "finished",
                TABLES.c.finished_at >= request.since,
            )
            .group_by(mine.c.player_id, theirs.c.player_id)
        )
        pairs = {(r[0], r[1]): int(r[2]) for r in await c.execute(pairs_query)}
        return RatingInputs(current, played, accounts, pairs)

    async def results(self, table_id: str) -> list[ResultRow]:
        """A finished table's results, by seat (not part of :class:`Store`: nothing in the server asks
        for them yet)."""
        query = select(RESULTS).where(RESULTS.c.table_id == table_id).order_by(RESULTS.c.seat)
        async with self._reading() as c:
            return [
                ResultRow(r.table_id, r.seat, r.player_id, r.score, r.win_share, r.absent)
                for r in await c.execute(query)
            ]

    # --- leases --------------------------------------------------------------------------------

    def _alive(self) -> Any:
        """The condition that a table's ``node`` holds a lease running now (by the database's clock)."""
        return exists().where(NODES.c.name == TABLES.c.node, NODES.c.lease_until >= literal_column(self._now))

    def _free(self) -> Any:
        """An unfinished table whose ``node`` holds no lease running now: no node, or one whose lease
        ran out. A table's node always has its row in ``nodes`` (a foreign key; a deleted row clears
        it), so this is ``_alive`` negated. The sweep (``_Leasing.expired``) asks the same with the
        lapsed processes' names read first, so that the ``(node, status)`` index finds these tables
        without reading the others: every process sweeps four times a second, and comparing every
        unfinished table's node with the live ones cost PostgreSQL 1.5 ms at 10,000 tables and
        10.8 ms at 100,000 a sweep (``benchmarks/load.md``, thirteenth session)."""
        lapsed = self._leasing().lapsed
        return TABLES.c.status.in_(UNFINISHED) & (TABLES.c.node.is_(None) | TABLES.c.node.in_(lapsed))

    def _lease(self, node: str, seconds: float) -> tuple[Insert, dict[str, Any]]:
        """The upsert of ``node``'s lease to ``seconds`` from now, with its parameters."""
        return self._leasing().upsert, {"node": node, "seconds": seconds}

    def _leasing(self) -> _Leasing:
        if self._leasing_statements is None:
            self._leasing_statements = _Leasing(self.sqlite, self._now)
        return self._leasing_statements

    async def expired(self, limit: int) -> list[str]:
        leasing = self._leasing()
        async with self._reading() as c:
            lapsed = list((await c.execute(leasing.lapsed)).scalars())
            return [r.id for r in await c.execute(leasing.expired, {"lapsed": lapsed, "limit": limit})]

    async def claim(
        self, node: str, seconds: float, limit: int, prefer: Sequence[str] = ()
    ) -> list[TableRow]:
        """One ``UPDATE``: the free tables are chosen ``FOR UPDATE SKIP LOCKED`` (two processes
        claiming at once take different tables, neither waits), and the outer condition is checked
        again on the locked rows; ``node``'s lease is renewed in the same transaction (the tables it
        takes are its own from their first moment)."""
        free = self._free()
        order: list[Any] = [TABLES.c.created_at]
        if prefer:
            order.insert(0, case((TABLES.c.id.in_(list(prefer)), 0), else_=1))
        # A CTE: evaluated once (PostgreSQL may run a subquery of ``IN`` more than once, each time
        # skipping the rows the last run locked, and so take more than ``limit`` tables).
        chosen = (
            select(TABLES.c.id)
            .where(free)
            .order_by(*order)
            .limit(limit)
            .with_for_update(skip_locked=True, of=TABLES)
            .cte("chosen")
        )
        query = (
            TABLES.update()
            .where(TABLES.c.id.in_(select(chosen.c.id)), free)
            .values(node=node, fence=TABLES.c.fence + 1)
            .returning(*TABLES.c)
        )
        async with self._writing() as c:
            await c.execute(*self._lease(node, seconds))
            return [_table_row(r) for r in await c.execute(query)]

    async def renew(self, node: str, seconds: float) -> set[str]:
        """One row written (the process's lease) and the ids of its tables read: no table's row is
        written or locked, so the group commit's fence checks (share locks on those rows) never wait
        for a renewal."""
        async with self._writing() as c:
            await c.execute(*self._lease(node, seconds))
            return {r.id for r in await c.execute(self._leasing().held, {"node": node})}

    async def release(self, node: str, table_ids: Sequence[str] | None = None) -> None:
        query = TABLES.update().where(TABLES.c.node == node).values(node=None)
        if table_ids is not None:
            query = query.where(TABLES.c.id.in_(list(table_ids)))
        async with self._writing() as c:
            await c.execute(query)
            if table_ids is None:
                await c.execute(NODES.delete().where(NODES.c.name == node))

    async def owner(self, table_id: str) -> str | None:
        query = select(TABLES.c.node).where(
            TABLES.c.id == table_id, TABLES.c.status.in_(UNFINISHED), self._alive()
        )
        async with self._reading() as c:
            row = (await c.execute(query)).first()
        return None if row is None else row.node

    # --- chat ----------------------------------------------------------------------------------

    async def add_chat(self, line: ChatRow) -> ChatRow:
        at = line.at.astimezone(UTC)
        values = {
            "table_id": line.table_id,
            "player_id": line.player_id,
            "name": line.name,
            "text": line.text,
            "at": at,
        }
        async with self._writing() as c:
            result = await c.execute(CHAT.insert().values(values))
        (line_id,) = result.inserted_primary_key or (None,)
        assert isinstance(line_id, int)
        return replace(line, id=line_id, at=at)

    async def chat(self, table_id: str, limit: int = 100) -> list[ChatRow]:
        query = select(CHAT).where(CHAT.c.table_id == table_id).order_by(CHAT.c.id.desc()).limit(limit)
        async with self._reading() as c:
            rows = (await c.execute(query)).all()
        return [ChatRow(r.table_id, r.player_id, r.name, r.text, r.id, r.at) for r in reversed(rows)]

    # --- ratings -------------------------------------------------------------------------------

    async def ratings(self, game: str, pool: str, player_ids: Sequence[int]) -> dict[int, RatingRow]:
        if not player_ids:
            return {}
        query = (
            select(*_RATING)
            .join(PLAYERS, PLAYERS.c.id == RATINGS.c.player_id)
            .where(RATINGS.c.game == game, RATINGS.c.pool == pool, RATINGS.c.player_id.in_(set(player_ids)))
        )
        async with self._reading() as c:
            return {r.player_id: _rating_row(r) for r in await c.execute(query)}

    async def leaderboard(
        self, game: str, pool: str, limit: int = 50, *, accounts_only: bool = False, min_games: int = 0
    ) -> list[RatingRow]:
        query = (
            select(*_RATING)
            .join(PLAYERS, PLAYERS.c.id == RATINGS.c.player_id)
            .where(RATINGS.c.game == game, RATINGS.c.pool == pool, RATINGS.c.games >= min_games)
            .order_by(RATINGS.c.mu.desc(), RATINGS.c.player_id)
            .limit(limit)
        )
        if accounts_only:
            query = query.where(PLAYERS.c.password_hash.is_not(None))
        async with self._reading() as c:
            return [_rating_row(r) for r in await c.execute(query)]

    # --- reviews -------------------------------------------------------------------------------

    async def save_review(self, review: ReviewRow) -> None:
        values = asdict(review) | {"created_at": review.created_at.astimezone(UTC)}
        keys = ("table_id", "seat")
        async with self._writing() as c:
            await c.execute(self._upsert(REVIEWS, keys, ("budget", "seed", "review", "created_at")), values)

    async def stored_review(self, table_id: str, seat: int) -> ReviewRow | None:
        query = select(REVIEWS).where(REVIEWS.c.table_id == table_id, REVIEWS.c.seat == seat)
        async with self._reading() as c:
            r = (await c.execute(query)).first()
        if r is None:
            return None
        return ReviewRow(r.table_id, r.seat, r.budget, r.seed, r.review, r.created_at)

    # --- a player's page -----------------------------------------------------------------------

    async def player_ratings(self, player_id: int) -> list[RatingRow]:
        query = (
            select(*_RATING)
            .join(PLAYERS, PLAYERS.c.id == RATINGS.c.player_id)
            .where(RATINGS.c.player_id == player_id)
            .order_by(RATINGS.c.game, RATINGS.c.pool)
        )
        async with self._reading() as c:
            return [_rating_row(r) for r in await c.execute(query)]

    async def rating_history(self, player_id: int, limit: int = 500) -> list[RatingHistoryRow]:
        query = (
            select(RATING_HISTORY)
            .where(RATING_HISTORY.c.player_id == player_id)
            .order_by(RATING_HISTORY.c.id.desc())
            .limit(limit)
        )
        async with self._reading() as c:
            rows = (await c.execute(query)).all()
        return [RatingHistoryRow(r.table_id, r.game, r.pool, r.mu, r.sigma, r.at) for r in reversed(rows)]

    async def matches(self, player_id: int, limit: int = 20) -> list[MatchRow]:
        query = (
            select(TABLES.c.id, TABLES.c.game, TABLES.c.finished_at, TABLES.c.seats, RESULTS)
            .join(TABLES, TABLES.c.id == RESULTS.c.table_id)
            .where(RESULTS.c.player_id == player_id, TABLES.c.status == "finished")
            .order_by(TABLES.c.finished_at.desc(), TABLES.c.id.desc())
            .limit(limit)
        )
        async with self._reading() as c:
            rows = (await c.execute(query)).all()
        return [
            MatchRow(
                r.id,
                r.game,
                r.finished_at,
                r.seat,
                r.score,
                r.win_share,
                [SeatRow(**s) for s in r.seats],
                r.absent,
            )
            for r in rows
        ]

    async def totals(self, player_id: int) -> dict[str, tuple[int, float]]:
        query = (
            select(TABLES.c.game, func.count(), func.sum(RESULTS.c.win_share))
            .join(TABLES, TABLES.c.id == RESULTS.c.table_id)
            .where(RESULTS.c.player_id == player_id, TABLES.c.status == "finished")
            .group_by(TABLES.c.game)
        )
        async with self._reading() as c:
            return {r[0]: (int(r[1]), float(r[2] or 0.0)) for r in await c.execute(query)}
