"""``cardhall serve --workers N``: N server processes on one machine and one port.

Choices:

- **Processes of our own on ``SO_REUSEPORT``, not uvicorn's ``workers``.** Each worker is a plain
  ``cardhall serve`` (with ``--reuse-port``) binding the same address; the kernel spreads new
  connections over them. uvicorn's supervisor would need the application as an import string (our
  options as environment variables) and shares one listening socket; ours keeps each worker an
  ordinary ``cardhall serve`` (what the tests and the several-machine deployment run) and lets this
  supervisor restart one worker at a time.
- Every worker is a process of the hall (PostgreSQL and Redis, required when N > 1: the CLI refuses
  N > 1 on SQLite): a worker owns the tables it made or took, and any worker can serve any player.
- The supervisor forwards SIGTERM and SIGINT to every worker and waits for them (each releases its
  leases as it stops), for :data:`STOP_SECONDS` at most: a worker still running then is asked for
  its threads' stacks (SIGUSR1, which ``cardhall serve`` answers on its standard error) and killed,
  and the supervisor exits with 1 (its tables are taken by the others once its leases run out; a
  worker that hangs on its way out is a defect to see, not to wait on forever).
- A worker that dies (SIGKILL, a crash) is started again after :data:`RESTART_DELAY` seconds (its
  tables were taken by the others meanwhile, once its leases ran out). SIGHUP is a rolling restart:
  each worker in turn is stopped (SIGTERM) and started again, the next only once the new one answers.
- Metrics: the supervisor gives every worker one fresh ``PROMETHEUS_MULTIPROC_DIR``; whichever worker
  answers ``/metrics`` sums the machine's (:mod:`cardhall.server.metrics`). A worker that ends has its
  gauges dropped (``mark_process_dead``).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Sequence

RESTART_DELAY = 1.0
READY_TIMEOUT = 60.0
STOP_SECONDS = 40.0  # (a worker's own stop is bounded well below: connections 10 s, its drains)


def _ready(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz/live", timeout=2) as reply:
            return bool(reply.status == 200)
    except OSError:
        return False


class Supervisor:
    def __init__(self, count: int, argv: Sequence[str], port: int) -> None:
        self.count = count
        self.argv = list(argv)  # ``cardhall serve`` options for each worker (with --reuse-port)
        self.port = port
        self.metrics_dir = tempfile.mkdtemp(prefix="cardhall-metrics-")
        self.workers: list[subprocess.Popen[bytes] | None] = [None] * count
        self.stopping = False
        self.rolling = False

    def _start(self, slot: int) -> None:
        env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": self.metrics_dir}
        self.workers[slot] = subprocess.Popen(
            [sys.executable, "-m", "cardhall", "serve", *self.argv], env=env
        )

    def _ended(self, process: subprocess.Popen[bytes]) -> None:
        try:
            from prometheus_client import multiprocess

            multiprocess.mark_process_dead(process.pid, self.metrics_dir)  # type: ignore[no-untyped-call]
        except Exception:
            pass

    def run(self) -> int:
        signal.signal(signal.SIGTERM, self._stop)
        signal.signal(signal.SIGINT, self._stop)
        signal.signal(signal.SIGHUP, lambda *_: setattr(self, "rolling", True))
        for slot in range(self.count):
            self._start(slot)
        try:
            while not self.stopping:
                if self.rolling:
                    self.rolling = False
                    self._roll()
                for slot, process in enumerate(self.workers):
                    if process is not None and process.poll() is not None and not self.stopping:
                        print(f"cardhall: worker {process.pid} ended ({process.returncode}); restarting it")
                        self._ended(process)
                        time.sleep(RESTART_DELAY)
                        self._start(slot)
                time.sleep(0.2)
        finally:
            for process in self.workers:
                if process is not None and process.poll() is None:
                    process.send_signal(signal.SIGTERM)
            deadline = time.monotonic() + STOP_SECONDS
            stopped = [self._stopped(p, deadline) for p in self.workers if p is not None]
            shutil.rmtree(self.metrics_dir, ignore_errors=True)
        return 0 if all(stopped) else 1

    def _stopped(self, process: subprocess.Popen[bytes], deadline: float) -> bool:
        """Wait for ``process`` (sent SIGTERM) until ``deadline``; past it, its stacks asked for and
        the process killed. Whether it stopped of itself."""
        try:
            process.wait(timeout=max(0.0, deadline - time.monotonic()))
            stopped = True
        except subprocess.TimeoutExpired:
            print(
                f"cardhall: worker {process.pid} did not stop within {STOP_SECONDS:.0f} s of SIGTERM;"
                " its stacks follow, then it is killed",
                flush=True,
            )
            process.send_signal(signal.SIGUSR1)
            time.sleep(1.0)
            process.kill()
            process.wait()
            stopped = False
        self._ended(process)
        return stopped

    def _stop(self, *_: object) -> None:
        self.stopping = True

    def _roll(self) -> None:
        """Each worker in turn: stopped (its tables go to the others), started again, ready."""
        for slot, process in enumerate(self.workers):
            if self.stopping:
                return
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGTERM)
                self._stopped(process, time.monotonic() + STOP_SECONDS)
            self._start(slot)
            deadline = time.monotonic() + READY_TIMEOUT
            while time.monotonic() < deadline and not _ready(self.port):
                time.sleep(0.2)
