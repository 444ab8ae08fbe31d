"""A throwaway PostgreSQL server for the store's tests: ``initdb`` into a temporary directory, ``pg_ctl
start`` listening only on a Unix socket in that directory, one fresh database per test, and everything
stopped and removed at the end. Debian's binaries (``/usr/lib/postgresql/<version>/bin``, the newest);
as root (initdb refuses root) the server runs as the ``postgres`` user.

A fresh database is a copy of one migrated once for the session (``createdb -T``, a copy of its files):
running the store's migrations on every test's new database was most of the time of the quick run's
PostgreSQL tests (94 s of 152, ``benchmarks/tests.md``). The tests of the migrations themselves ask for
an empty one (``create_database(empty=True)``).

A server that need not be durable keeps its files in memory (``/dev/shm``, where the machine has one):
on this machine's disk, creating a test's database and removing the session's hundred of them at the end
was most of the quick run's PostgreSQL time (the end alone 45-140 s on a busy machine, the disk's discards;
``benchmarks/tests.md``). Its databases are copied file by file (``--strategy=file_copy``: the default
writes each copy through the write-ahead log as well) and the log is kept short (``max_wal_size``).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

INSTALL_HINT = "apt-get install postgresql"

# Where a server that need not be durable keeps its files: memory, if the machine has such a directory.
MEMORY_DIR = Path("/dev/shm")


def scratch_dir(durable: bool) -> str | None:
    """The directory for a server's temporary one: in memory unless ``durable`` (None: the default)."""
    if durable or not (MEMORY_DIR.is_dir() and os.access(MEMORY_DIR, os.W_OK | os.X_OK)):
        return None
    return str(MEMORY_DIR)


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL's ``bin`` directory (None: not installed)."""
    found = []
    for pg_ctl in Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"):
        version = pg_ctl.parent.parent.name
        if all(part.isdigit() for part in version.split(".")):
            found.append((tuple(int(p) for p in version.split(".")), pg_ctl.parent))
    return max(found)[1] if found else None


class PostgresServer:
    """A PostgreSQL server in its own temporary directory (``durable``: fsync on, as in production;
    off by default, which is faster and enough for tests)."""

    def __init__(self, bin_dir: Path, durable: bool = False, tcp_port: int | None = None) -> None:
        self.bin = bin_dir
        self.durable = durable
        # Also on TCP (127.0.0.1:tcp_port), for a test that puts tests.proxy.CutProxy in front of it.
        self.tcp_port = tcp_port
        self.dir = Path(tempfile.mkdtemp(prefix="cardhall-pg-", dir=scratch_dir(durable)))
        self.data = self.dir / "data"
        self.as_owner: list[str] = []
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.dir, owner.pw_uid, owner.pw_gid)
            self.as_owner = ["runuser", "-u", "postgres", "--"]
        self._names = itertools.count(1)
        self._template: str | None = None  # the migrated database new ones copy (made at first use)

    def _run(self, tool: str, *args: str, as_owner: bool = True) -> None:
        command = [*(self.as_owner if as_owner else []), str(self.bin / tool), *args]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            log = self.dir / "log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(
                f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}{tail}"
            )

    def start(self) -> None:
        initdb = ["-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-locale"]
        self._run("initdb", *initdb, *([] if self.durable else ["--no-sync"]))
        self.resume()

    def resume(self) -> None:
        """Start the server on its data (after :meth:`halt`, or first by :meth:`start`)."""
        listen = "" if self.tcp_port is None else "127.0.0.1"
        options = f"-k {self.dir} -c listen_addresses='{listen}'"
        if self.tcp_port is not None:
            options += f" -p {self.tcp_port}"
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            options += " -c wal_level=minimal -c max_wal_senders=0 -c max_wal_size=64MB -c min_wal_size=32MB"
        self._run(
            "pg_ctl",
            "start",
            "-w",
            "-t",
            "60",
            "-D",
            str(self.data),
            "-l",
            str(self.dir / "log"),
            "-o",
            options,
        )

    def halt(self) -> None:
        """Stop the server, keeping its data (its clients' connections are cut: ``-m fast``)."""
        self._run("pg_ctl", "stop", "-w", "-m", "fast", "-D", str(self.data))

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "stop", "-w", "-m", "fast", "-D", str(self.data))
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, database: str) -> str:
        return f"postgresql+asyncpg://postgres@/{database}?host={self.dir}" + (
            "" if self.tcp_port is None else f"&port={self.tcp_port}"
        )

    def tcp_url(self, database: str, port: int | None = None) -> str:
        """``database`` over TCP, at ``port`` (a proxy's; default the server's own)."""
        assert self.tcp_port is not None, "a server started with tcp_port"
        return f"postgresql+asyncpg://postgres@127.0.0.1:{port or self.tcp_port}/{database}"

    def create_database(self, empty: bool = False) -> str:
        """The URL of a new database: the store's schema migrated in it already (a copy of the
        session's template), or ``empty``."""
        name = f"test{next(self._names)}"
        template = [] if empty else ["--strategy=file_copy", "-T", self._migrated()]
        self._createdb(*template, name)
        return self.url(name)

    def _createdb(self, *args: str) -> None:
        port = [] if self.tcp_port is None else ["-p", str(self.tcp_port)]
        self._run("createdb", "-h", str(self.dir), *port, "-U", "postgres", *args, as_owner=False)

    def _migrated(self) -> str:
        """The template: a database the store's migrations ran on, made at the first use (on a thread
        of its own, so a test's running event loop is never in the way)."""
        if self._template is None:
            name = "migrated"
            self._createdb(name)
            url = self.url(name)

            async def migrate() -> None:
                from cardhall.store import open_store

                store = await open_store(url)
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
                raise errors[0]
            self._template = name
        return self._template


@contextmanager
def postgres_server(durable: bool = False, tcp_port: int | None = None) -> Iterator[PostgresServer]:
    """A running server, stopped and removed on leaving; RuntimeError when PostgreSQL is not
    installed."""
    bin_dir = postgres_bin()
    if bin_dir is None:
        raise RuntimeError(f"PostgreSQL is not installed ({INSTALL_HINT})")
    server = PostgresServer(bin_dir, durable, tcp_port)
    try:
        server.start()
        yield server
    finally:
        server.stop()
