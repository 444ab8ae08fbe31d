"""Fresh SQLite stores for the tests, copied from one migrated once per process: a file
(:func:`migrated_file`) or a database in memory (:func:`migrated_memory`).

Opening a new store runs the store's migrations, SQLite's table rebuilds among them: about 0.3-0.5 s of
CPU, most of the start of an in-process server, paid by some 700 tests of the quick run
(``benchmarks/tests.md``). A copy of a migrated database costs a few milliseconds, and the store, opening
it, finds its schema up to date (the few queries of any restart). The migrations themselves are tested
on empty databases (``tests/store/test_store.py``), as the PostgreSQL template does (:mod:`tests.postgres`).

A database in memory is a named one in SQLite's shared cache (``file:NAME?mode=memory&cache=shared``):
the store treats it as it treats ``:memory:`` (one connection, gone with the last one), and the
template is copied into it with SQLite's backup API through a connection of this module, which keeps it
alive until the test's server has closed its store.
"""

from __future__ import annotations

import asyncio
import atexit
import itertools
import os
import shutil
import sqlite3
import tempfile
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

_template: Path | None = None
_lock = threading.Lock()
_names = itertools.count(1)


def _migrated() -> Path:
    """This process's template: a file the store's migrations ran on, made at first use (on a thread
    of its own, so a test's running event loop is never in the way) and removed at the process's end."""
    global _template
    with _lock:
        if _template is None:
            directory = Path(tempfile.mkdtemp(prefix="cardhall-sqlite-"))
            path = directory / "migrated.db"

            async def migrate() -> None:
                from cardhall.store import open_store

                store = await open_store(f"sqlite+aiosqlite:///{path}")
                await store.close()

            errors: list[BaseException] = []

            def run() -> None:
                try:
                    asyncio.run(migrate())
                except BaseException as e:  # (raised again below, on the test's thread)
                    errors.append(e)

            thread = threading.Thread(target=run)
            thread.start()
            thread.join()
            if errors:
                shutil.rmtree(directory, ignore_errors=True)
                raise errors[0]
            # The store closed its last connection: the write-ahead log is folded into the file.
            leftovers = sorted(p.name for p in directory.iterdir() if p != path)
            assert not leftovers, f"the migrated template left {leftovers} beside it"
            atexit.register(shutil.rmtree, directory, True)
            _template = path
        return _template


def migrated_file(path: Path) -> str:
    """A new SQLite file at ``path`` with the store's schema migrated in it; its URL."""
    if path.exists():
        raise FileExistsError(f"{path}: a migrated copy is made only where there is no file")
    shutil.copyfile(_migrated(), path)
    return f"sqlite+aiosqlite:///{path}"


@contextmanager
def migrated_memory() -> Iterator[str]:
    """The URL of a new database in memory with the store's schema migrated in it, for the time of
    the ``with`` (the store that opens it must be closed inside)."""
    name = f"file:cardhall-test-{os.getpid()}-{next(_names)}?mode=memory&cache=shared"
    keeper = sqlite3.connect(name, uri=True)
    try:
        with closing(sqlite3.connect(_migrated())) as template:
            template.backup(keeper)
        yield f"sqlite+aiosqlite:///{name}&uri=true"
    finally:
        keeper.close()
