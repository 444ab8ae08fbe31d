"""A bot worker ends when its server is killed (:func:`cardhall.bot_tier.tier.worker_setup`): a
server that died by SIGKILL cannot stop its worker processes, and a forked worker never sees its job
queue end, so without the check each would wait for a job forever."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL and fork are POSIX")

CEILING = 60.0  # seconds the worker may take to notice, on a loaded machine (never a timing check)

SERVER = """
import os, sys, time
from concurrent.futures import ProcessPoolExecutor
from cardhall.bot_tier.tier import worker_setup
pool = ProcessPoolExecutor(max_workers=2, initializer=worker_setup)
pids = {pool.submit(os.getpid).result() for _ in range(8)}
print(" ".join(map(str, sorted(pids))), flush=True)
time.sleep(600)
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # (a zombie counts as gone: it no longer runs, it waits for whoever reaps it)
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split(")")[-1].split()[0] != "Z"


def test_the_workers_of_a_killed_server_end() -> None:
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        workers = [int(p) for p in server.stdout.readline().split()]
        assert workers and all(alive(p) for p in workers)
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
        deadline = time.monotonic() + CEILING
        while any(alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        left = [p for p in workers if alive(p)]
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        if server.stdout is not None:
            server.stdout.close()
    for p in left:  # (not to leave them behind when the test fails)
        os.kill(p, signal.SIGKILL)
    assert left == [], f"workers {left} outlived their killed server"
