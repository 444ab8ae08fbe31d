"""Opening the SQL store: ``await open_store(url)`` gives a :class:`~cardhall.store.sql.store.SqlStore`
on SQLite (``sqlite+aiosqlite``, the embedded default) or PostgreSQL (``postgresql+asyncpg``), its
schema brought up to date and its action log chosen.

- **Migrations at open.** :func:`open_store` brings the schema to the latest Alembic revision of
  ``cardhall/store/migrations`` on one connection, in code (no ``alembic.ini``), before it returns (a
  database already there costs a few queries). :func:`migrations_config` gives the same configuration
  to Alembic's commands (``alembic.command.revision(migrations_config(url), autogenerate=True,
  message=...)`` writes the next revision). What each database does around them is
  :mod:`cardhall.store.sql.dialect`'s.
- **The action log** is the database's own (:mod:`~cardhall.store.sql.sqlite_log`,
  :mod:`~cardhall.store.sql.postgres_log`): on an SQLite file on connections of its own, on a database
  in memory on the store's one connection, on PostgreSQL asyncpg with the engine's connect arguments.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from cardhall.store.action_log import ActionLog
from cardhall.store.base import Store
from cardhall.store.errors import StoreError
from cardhall.store.sql.connection import SqlBase, reason, shown_url
from cardhall.store.sql.dialect import DIALECTS, SQLITE_BUSY_TIMEOUT_MS, Dialect
from cardhall.store.sql.postgres_log import PostgresActionLog
from cardhall.store.sql.sqlite_log import OwnConnections, SharedConnection, SqliteActionLog
from cardhall.store.sql.store import SqlStore

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


def migrations_config(url: str | None = None) -> Config:
    """Alembic's configuration for the store's migrations (``url``: for Alembic's own commands; the
    store passes its connection instead)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def _upgrade(connection: Connection, dialect: Dialect) -> None:
    dialect.before_migrations(connection)
    config = migrations_config()
    config.attributes["connection"] = connection
    command.upgrade(config, "head")
    dialect.after_migrations(connection)


async def _migrate(engine: AsyncEngine, dialect: Dialect) -> None:
    """Bring the schema to the latest revision, in one transaction (foreign keys off meanwhile where
    the dialect says so, set on the driver's connection before the transaction begins)."""
    async with engine.connect() as connection:
        driver = None
        if dialect.foreign_keys_off_while_migrating:
            driver = (await connection.get_raw_connection()).driver_connection
            assert driver is not None
            await driver.execute("PRAGMA foreign_keys=OFF")
        try:
            async with connection.begin():
                await connection.run_sync(_upgrade, dialect)
        finally:
            if driver is not None:
                await driver.execute("PRAGMA foreign_keys=ON")


def _sqlite_workers() -> set[threading.Thread]:
    """aiosqlite's worker threads. A connection that fails to open leaves its worker to stop on its own;
    if the event loop closes first, the worker dies on it noisily ("Event loop is closed", aiosqlite
    0.22), so a failed open waits for its workers to end."""
    return {t for t in threading.enumerate() if "_connection_worker_thread" in t.name}


async def open_store(url: str, *, busy_timeout_ms: int = SQLITE_BUSY_TIMEOUT_MS) -> Store:
    """The store at ``url`` (``sqlite+aiosqlite:///file.db``, ``sqlite+aiosqlite:///:memory:`` or
    ``postgresql+asyncpg://user:password@host/database``; ``sqlite://`` and ``postgresql://`` get those
    drivers), its schema migrated to the latest revision; :class:`StoreError` when it cannot be
    opened. ``busy_timeout_ms``: how long an SQLite write waits for another process's write lock
    before it fails."""
    shown = shown_url(url)

    def error(why: str) -> StoreError:
        return StoreError(f"cannot open the store at {shown}: {why}")

    try:
        parsed = make_url(url)
    except Exception as e:
        raise error(f"not a database URL ({reason(e)})") from e
    backend = parsed.get_backend_name()
    dialect = DIALECTS.get(backend)
    if "+" not in parsed.drivername and dialect is not None:  # sqlite://, postgresql://: our drivers
        parsed = parsed.set(drivername=f"{backend}+{dialect.driver}")
    driver = parsed.get_driver_name()
    if dialect is None or dialect.driver != driver:
        expected = " or ".join(f"{d.name}+{d.driver}://" for d in DIALECTS.values())
        raise error(f"the store runs on {expected} (asyncio drivers), not {backend}+{driver}://")
    memory = dialect.in_memory(parsed)
    options = dialect.engine_options(memory)
    try:
        engine = create_async_engine(parsed, **options)
    except Exception as e:
        raise error(reason(e)) from e
    dialect.prepare(engine, busy_timeout_ms)
    workers = _sqlite_workers()
    try:
        await _migrate(engine, dialect)
    except Exception as e:
        await engine.dispose()
        for worker in _sqlite_workers() - workers:
            await asyncio.to_thread(worker.join, 5)
        raise error(reason(e)) from e
    file = dialect.file(parsed)

    def action_log(store: SqlBase) -> ActionLog:
        return ACTION_LOGS[dialect.name](store, engine, options, busy_timeout_ms)

    return SqlStore(engine, shown, action_log, memory=memory, file=file)


def _sqlite_log(store: SqlBase, _engine: AsyncEngine, _options: Mapping[str, Any], busy_ms: int) -> ActionLog:
    if store.file is None:  # (a database in memory lives in the store's one connection)
        return SqliteActionLog(SharedConnection(store), store.url)
    return SqliteActionLog(OwnConnections(store.file.path, busy_ms, store.file, store._write_lock), store.url)


def _postgres_log(
    store: SqlBase, engine: AsyncEngine, options: Mapping[str, Any], _busy_ms: int
) -> ActionLog:
    _, connect_args = engine.dialect.create_connect_args(engine.url)
    return PostgresActionLog({**connect_args, **options.get("connect_args", {})}, store.url)


# Each database's action log (the hottest write's one seam), made for a store.
ACTION_LOGS: dict[str, Callable[[SqlBase, AsyncEngine, Mapping[str, Any], int], ActionLog]] = {
    "sqlite": _sqlite_log,
    "postgresql": _postgres_log,
}
