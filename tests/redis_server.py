"""A throwaway Redis server for the tests of the hall on many processes and of the bot tier: Debian's
``redis-server`` on a free TCP port of 127.0.0.1 (TCP, not a Unix socket, so that a test can put
:class:`tests.proxy.CutProxy` between it and the server), its files in a temporary directory, nothing
saved unless ``durable`` (append-only file on, for the tests that restart Redis and expect its streams
back). ``halt`` and ``resume`` restart it on the same port, as an operator or a crash would.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

INSTALL_HINT = "apt-get install redis-server"


def redis_binary() -> str | None:
    """The installed ``redis-server`` (None: not installed)."""
    return shutil.which("redis-server")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RedisServer:
    """One ``redis-server`` process; :attr:`url` is what ``redis.asyncio.from_url`` takes."""

    def __init__(self, binary: str, durable: bool = False) -> None:
        self.binary = binary
        self.durable = durable
        self.dir = Path(tempfile.mkdtemp(prefix="cardhall-redis-"))
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self._databases = iter(range(16))

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def database_url(self) -> str:
        """The URL of one of Redis's 16 numbered databases not handed out before, flushed: one per
        test, so tests sharing the server never see each other's keys."""
        number = next(self._databases, None)
        if number is None:
            self._databases = iter(range(16))
            number = next(self._databases)
        self._command("-n", str(number), "FLUSHDB")
        return f"redis://127.0.0.1:{self.port}/{number}"

    def resume(self) -> None:
        """Start the server (first by :meth:`start`, or again after :meth:`halt`)."""
        persistence = (
            ["--appendonly", "yes", "--appendfsync", "always"] if self.durable else ["--appendonly", "no"]
        )
        command = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.dir)]
        command += ["--save", "", *persistence, "--logfile", str(self.dir / "log")]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited ({self.process.returncode}):\n{self._log()}")
            try:
                if self._command("PING").strip() == "PONG":
                    return
            except (OSError, RuntimeError):
                pass
            time.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer within 30 s:\n{self._log()}")

    start = resume

    def halt(self, kill: bool = False) -> None:
        """Stop the server, its clients cut (``kill``: SIGKILL, as a crash; otherwise SIGTERM)."""
        if self.process is None:
            return
        if kill:
            self.process.kill()
        else:
            self.process.terminate()
        self.process.wait(timeout=30)
        self.process = None

    def stop(self) -> None:
        try:
            self.halt(kill=True)
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    def _command(self, *words: str) -> str:
        """One command through a raw socket (RESP inline), so this helper needs no client library."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as conn:
            if words[0] == "-n":
                conn.sendall(f"SELECT {words[1]}\r\n".encode())
                conn.recv(64)
                words = words[2:]
            conn.sendall((" ".join(words) + "\r\n").encode())
            answer = conn.recv(4096).decode()
        if answer.startswith("-"):
            raise RuntimeError(f"redis {' '.join(words)}: {answer.strip()}")
        return answer.lstrip("+")

    def _log(self) -> str:
        log = self.dir / "log"
        return log.read_text(errors="replace")[-2000:] if log.exists() else ""


@contextmanager
def redis_server(durable: bool = False) -> Iterator[RedisServer]:
    """A running server, stopped and removed on leaving; RuntimeError when Redis is not installed."""
    binary = redis_binary()
    if binary is None:
        raise RuntimeError(f"Redis is not installed ({INSTALL_HINT})")
    server = RedisServer(binary, durable)
    try:
        server.start()
        yield server
    finally:
        server.stop()
