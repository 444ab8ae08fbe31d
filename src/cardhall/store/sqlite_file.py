"""The store's SQLite file as a file: is it still the one the store opened, and how large its write-ahead
log has grown.

- **A deleted or replaced file stops the store** (issue 47: an SQLite file deleted under a running
  server went unnoticed: play went on into the deleted file, readiness stayed 200, and a restart started
  empty). SQLite keeps writing to a file it has open after its name is unlinked, so every write and
  every read first checks that the path still names the file opened (its device and inode), and every
  batch of actions checks again after its commit, before anyone is told it is stored. A file gone or
  replaced makes them raise :class:`~cardhall.store.base.StoreUnavailableError` (a table pauses and its
  move is not acknowledged), ``/healthz/ready`` answers 503 naming the file, and the operator reads one
  error in the log saying what to do. Nothing acknowledged after the file went is lost, because nothing
  is acknowledged after it went. A ``stat`` costs about a microsecond: nothing beside a transaction.
- **The write-ahead log is kept small** (issue 47: tables of bots alone at pace 0 grew it to 389 MB in
  30 s). The server's checkpoints are ``PASSIVE`` (they never wait for a writer), and a log that readers
  and writers never leave alone is never reset, so it grows. When it is over :data:`WAL_LIMIT_BYTES`
  after a checkpoint, the store runs a ``TRUNCATE`` checkpoint holding its own write lock (this
  process's writers wait, its readers are short), which copies the log into the database and empties
  it; ``journal_size_limit`` makes every reset of the log give the space back too.
"""

from __future__ import annotations

import logging
import os
from typing import Final

from cardhall.store.errors import StoreUnavailableError

log = logging.getLogger(__name__)

WAL_LIMIT_BYTES: Final = 64 * 1024 * 1024  # the log is emptied when a checkpoint leaves it larger


class SqliteFile:
    """The database file at ``path`` as the store opened it."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.wal = f"{path}-wal"
        found = os.stat(path)
        self._identity = (found.st_dev, found.st_ino)
        self._told = False  # (the operator is told once, not at every refused write)

    def problem(self) -> str | None:
        """What is wrong with the file (None: it is the one opened)."""
        try:
            found = os.stat(self.path)
        except FileNotFoundError:
            found = None
        except OSError as e:
            return f"the database file {self.path} cannot be checked: {e}"
        if found is None or (found.st_dev, found.st_ino) != self._identity:
            # (deleted, another file may have its name since: SQLite makes an empty one when it opens one)
            return f"the database file {self.path} was deleted or replaced while the server ran"
        return None

    def check(self) -> None:
        """Raise :class:`StoreUnavailableError` when the path no longer names the file opened."""
        problem = self.problem()
        if problem is None:
            return
        if not self._told:
            self._told = True
            log.error(
                "%s: no move is stored or acknowledged from now on, and every table waits. Put the "
                "file back and restart the server, which brings back the unfinished tables it holds: %s",
                problem,
                self._recovery(),
            )
        raise StoreUnavailableError(f"{problem}: nothing more is stored")

    def _recovery(self) -> str:
        """How the operator gets the file back: while this process runs, the deleted file is still
        open, and Linux shows it under /proc."""
        try:
            for fd in os.listdir("/proc/self/fd"):
                target = os.readlink(f"/proc/self/fd/{fd}")
                if target == f"{os.path.abspath(self.path)} (deleted)":
                    return f"copy it from /proc/{os.getpid()}/fd/{fd} before this process stops"
        except OSError:
            pass
        return "restore it from a backup"

    def wal_bytes(self) -> int:
        try:
            return os.path.getsize(self.wal)
        except OSError:
            return 0
