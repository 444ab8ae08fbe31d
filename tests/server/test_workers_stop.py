"""The ``--workers`` supervisor's stop is bounded (:mod:`cardhall.server.workers`): a worker that does
not end after SIGTERM has its threads' stacks asked for (SIGUSR1) and is killed, and the supervisor
says so; ``cardhall serve`` answers SIGUSR1 with its stacks on standard error and serves on."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from cardhall.server import workers
from cardhall.server.workers import Supervisor
from tests.server_helpers import free_port, http, running_server, server_log

# A stand-in for a worker stuck on its way out: it ignores SIGTERM and answers SIGUSR1 as serve does.
STUCK = """
import faulthandler, signal, sys, time
faulthandler.register(signal.SIGUSR1, all_threads=True)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
print("ready", flush=True)
def waiting_for_ever():
    while True:
        time.sleep(0.05)
waiting_for_ever()
"""


def test_a_worker_that_does_not_stop_is_asked_for_its_stacks_then_killed(tmp_path: Path) -> None:
    errors = tmp_path / "stderr"
    with errors.open("wb") as stderr:
        stuck = subprocess.Popen([sys.executable, "-c", STUCK], stdout=subprocess.PIPE, stderr=stderr)
    assert stuck.stdout is not None and stuck.stdout.readline() == b"ready\n"
    stuck.send_signal(signal.SIGTERM)
    supervisor = Supervisor(1, [], free_port())
    began = time.monotonic()
    assert supervisor._stopped(stuck, time.monotonic() + 0.5) is False
    assert stuck.returncode == -signal.SIGKILL
    assert time.monotonic() - began < 10
    assert "waiting_for_ever" in errors.read_text()  # (its stack, written before it was killed)
    stuck.stdout.close()


def test_a_worker_that_stops_is_waited_for_and_not_killed() -> None:
    quick = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.2)"])
    assert Supervisor(1, [], free_port())._stopped(quick, time.monotonic() + workers.STOP_SECONDS)
    assert quick.returncode == 0


def test_serve_writes_its_stacks_on_sigusr1_and_serves_on(tmp_path: Path) -> None:
    db, port = tmp_path / "hall.db", free_port()
    with running_server(db, port) as server:
        server.send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + 10
        while "Thread 0x" not in server_log(db).read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "Thread 0x" in server_log(db).read_text()
        assert server.poll() is None and http(port, "GET", "/api/games")  # (still serving)
