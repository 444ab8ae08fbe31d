"""Alembic's environment for the store's migrations.

:func:`cardhall.store.sql.open_store` runs them on its own connection, passed in
``config.attributes["connection"]`` (inside its transaction). Alembic's commands given
:func:`cardhall.store.sql.migrations_config` with a URL (``sqlalchemy.url``) open an async engine
instead, or write SQL in offline mode.
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import Connection, pool
from sqlalchemy.ext.asyncio import create_async_engine

from cardhall.store.sql import metadata

config = context.config


def run(connection: Connection) -> None:
    # render_as_batch: SQLite alters a table by copying it; autogenerate writes such revisions so.
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_on_url(url: str) -> None:
    engine = create_async_engine(url, poolclass=pool.NullPool)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(run)
    finally:
        await engine.dispose()


given = config.attributes.get("connection")
if given is not None:
    run(given)
elif context.is_offline_mode():
    context.configure(
        url=config.get_main_option("sqlalchemy.url"), target_metadata=metadata, literal_binds=True
    )
    with context.begin_transaction():
        context.run_migrations()
else:
    url = config.get_main_option("sqlalchemy.url")
    if url is None:
        raise RuntimeError("the store's migrations need a connection or sqlalchemy.url")
    asyncio.run(run_on_url(url))
