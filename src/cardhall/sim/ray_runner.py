"""Simulations and tournaments on a Ray cluster: the executor behind ``cardhall simulate --ray``.

:class:`RayExecutor` plays the (seed, seating) tasks of :func:`cardhall.sim.simulate.run_matches` as Ray
tasks and hands each batch back as it finishes; ``run_matches`` folds the batches into seed order, so
every result and record is the one ``--jobs 1`` gives, whatever the number of workers. Decisions:

- **Where**: ``address="local"`` (``--ray`` alone) starts a Ray in this process for the run and shuts it
  down after (``cpus``: its CPUs, from ``--jobs``; default every CPU of the machine); ``"auto"`` or an
  address joins a running cluster, which keeps its own CPUs (``--jobs`` is refused there). A Ray this
  process has already joined (``ray.init`` in a notebook or a test) is used as it is, and left running.
- **Same code**: workers must play the driver's rules. A local Ray's workers get the driver's checkout on
  ``PYTHONPATH``; a cluster gets the checkout shipped as the job's ``working_dir`` (compiled engine
  included: an interpreter of another ABI skips the extension modules and runs the same sources); an
  installed (site-packages) cardhall ships nothing and the cluster must have the same version. Either
  way every batch comes back with a hash of the worker's sources, and a mismatch stops the run with an
  error instead of mixing rules.
- **Batch size**: each task is one batch of matches on one CPU (``num_cpus=1``: a search bot is
  single-threaded, and never shares its CPU's time budget). The first wave is one match per task;
  from the cost of a match in the last batch back (the latest, so a worker's start-up or a slow
  opening batch is soon forgotten) each later batch is sized to last about ``target_seconds`` (0.25 s:
  more than a hundred times Ray's per-task cost measured in ``benchmarks/scale.md``, so the overhead
  stays under 1%), but never more than a share ``1 / (2 x CPUs)`` of what is left, so the last tasks
  finish together. Batching never changes a result: a match depends only on its seed and seating.
- **Failures**: a worker that dies (killed, out of memory, its node lost) has its task retried by Ray
  (``max_retries``, 3); tasks are pure, and the driver keeps each batch's results under its first task,
  once, so a retried batch never counts twice. An error raised by the rules or a bot is not retried: it
  stops the run, as it would locally.
- **Memory**: at most ``2 x CPUs`` tasks are in flight; each finished batch is fetched and released.
- **Records**: the driver writes every record to one file, so a worker sends each as its JSON line
  already encoded: the driver only copies text (measured in ``benchmarks/scale.md``).
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import socket
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from cardhall.errors import CardhallError
from cardhall.sim.simulate import Batches, MatchResult, Task, play_chunk

INSTALL_HINT = "--ray needs Ray (not installed): pip install 'cardhall[ray]'"
MISMATCH = "install this cardhall on the cluster, or run from a checkout so that --ray ships it"
PACKAGE_DIR = Path(__file__).resolve().parent.parent  # the cardhall package the driver runs


def import_ray() -> ModuleType:
    """Ray, or a one-line error saying how to install it."""
    try:
        import ray
    except ImportError as e:
        raise CardhallError(INSTALL_HINT) from e
    return ray


@cache
def code_fingerprint() -> str:
    """A hash of every Python source of the cardhall package this process imports."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        digest.update(path.relative_to(PACKAGE_DIR).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def checkout_dir() -> Path | None:
    """The directory holding the cardhall package when it runs from a checkout (``src/``, with
    ``PYTHONPATH`` or an editable install), or None when it is installed in site-packages."""
    parent = PACKAGE_DIR.parent
    return None if parent.name in ("site-packages", "dist-packages") else parent


def play_batch(
    game_text: str, tasks: Sequence[Task], keep_records: bool, crash_marker: str | None = None
) -> tuple[list[MatchResult], float, float, str, str, str]:
    """One Ray task: the batch's results, the seconds it took (wall, and the worker's CPU), which code
    played it (a hash of the sources, and their directory), and which worker (host and process).

    ``crash_marker`` is fault injection for the tests: the first attempt, of any task, to create that
    file plays its batch and then dies, as a worker killed mid-run would.
    """
    began, cpu = time.perf_counter(), time.process_time()
    results = play_chunk(game_text, tasks, keep_records)
    for result in results:  # the driver writes every record: spare it the encoding (benchmarks/scale.md)
        result.record_line = result.take_record_line()
    took, cpu = time.perf_counter() - began, time.process_time() - cpu
    if crash_marker is not None:
        try:
            fd = os.open(crash_marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            pass
        else:
            os.write(fd, str(tasks[0][0]).encode())
            os.close(fd)
            os._exit(1)
    worker = f"{socket.gethostname()}:{os.getpid()}"
    return results, took, cpu, code_fingerprint(), str(PACKAGE_DIR), worker


@dataclass
class RayExecutor:
    """Plays batches of matches as Ray tasks (see the module docstring)."""

    address: str = "local"  # "local": a Ray started here for the run; "auto"; or a cluster's address
    cpus: int | None = None  # a local Ray's CPUs (None: the machine's)
    target_seconds: float = 0.25  # how long a batch should last, once a match's cost is known
    max_retries: int = 3  # attempts after a worker dies, per task
    crash_marker: str | None = None  # tests only: see play_batch
    # The last run, as measured by the workers: matches per worker ("host:pid"), how far the run
    # spread; and the seconds the workers spent playing batches, wall and CPU (benchmarks/scale.py).
    workers: Counter[str] = field(default_factory=Counter, init=False)
    busy_seconds: float = field(default=0.0, init=False)
    cpu_seconds: float = field(default=0.0, init=False)

    def __post_init__(self) -> None:
        import_ray()  # refuse at once, before any file is opened or match played
        if self.cpus is not None and self.cpus < 1:
            raise CardhallError(f"a local Ray needs at least 1 CPU, got {self.cpus}")
        if self.cpus is not None and self.address != "local":
            raise CardhallError(
                f"--jobs sets the CPUs of a local Ray; the cluster at {self.address!r} uses its own"
            )

    def run(self, game_text: str, tasks: Sequence[Task], keep_records: bool) -> Batches:
        ray = import_ray()
        started = self._connect(ray)
        try:
            yield from self._play(ray, game_text, tasks, keep_records)
        finally:
            if started:
                ray.shutdown()

    def runtime_env(self) -> dict[str, Any]:
        """What the job's workers need to import the driver's cardhall."""
        src = checkout_dir()
        if src is None:
            return {}
        if self.address == "local":
            return {"env_vars": {"PYTHONPATH": os.pathsep.join([str(src), "${PYTHONPATH}"])}}
        return {"working_dir": str(src), "excludes": ["__pycache__", "*.egg-info", "build"]}

    def _connect(self, ray: ModuleType) -> bool:
        """Join or start Ray; True when this run started it (and so shuts it down)."""
        if ray.is_initialized():
            return False
        options: dict[str, Any] = {
            "address": self.address,
            "runtime_env": self.runtime_env(),
            "logging_level": logging.WARNING,
        }
        if self.address == "local":
            options |= {"num_cpus": self.cpus, "include_dashboard": False}
        try:
            ray.init(**options)
        except ConnectionError as e:
            raise CardhallError(f"--ray {self.address}: no Ray cluster there ({e})") from e
        return True

    def batch_size(self, per_match: float | None, left: int, cpus: int) -> int:
        """Matches in the next task: about ``target_seconds`` of play, at most a ``1 / (2 x cpus)``
        share of what is left, at least one."""
        share = math.ceil(left / (2 * cpus))
        if per_match is None:
            return 1
        return max(1, min(share, round(self.target_seconds / max(per_match, 1e-9))))

    def _play(self, ray: ModuleType, game_text: str, tasks: Sequence[Task], keep_records: bool) -> Batches:
        remote = ray.remote(num_cpus=1, max_retries=self.max_retries)(play_batch)
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        driver = code_fingerprint()
        in_flight: dict[Any, tuple[int, int]] = {}  # task reference -> (first task, number of tasks)
        queued = 0  # tasks submitted so far
        per_match: float | None = None  # seconds a match took in the last batch back
        self.workers.clear()
        self.busy_seconds = self.cpu_seconds = 0.0
        try:
            while queued < len(tasks) or in_flight:
                while queued < len(tasks) and len(in_flight) < 2 * cpus:
                    size = self.batch_size(per_match, len(tasks) - queued, cpus)
                    batch = list(tasks[queued : queued + size])
                    ref = remote.remote(game_text, batch, keep_records, self.crash_marker)
                    in_flight[ref] = (queued, size)
                    queued += size
                [ref], _ = ray.wait(list(in_flight), num_returns=1)
                start, size = in_flight.pop(ref)
                try:
                    results, took, cpu, fingerprint, where, worker = ray.get(ref)
                except ray.exceptions.WorkerCrashedError as e:
                    raise CardhallError(
                        f"--ray: a worker died {self.max_retries + 1} time(s) playing tasks "
                        f"{start}-{start + size - 1} of {game_text}; giving up"
                    ) from e
                except ray.exceptions.RayTaskError as e:
                    # The function or its arguments did not load: the cluster's cardhall, not this one.
                    if isinstance(e.cause, ImportError) or "failed to import" in str(e.cause):
                        why = str(e).strip().splitlines()[-1]
                        raise CardhallError(f"--ray: {MISMATCH} (a worker could not import it: {why})") from e
                    raise
                if fingerprint != driver:
                    raise CardhallError(
                        f"--ray: a worker runs other cardhall code ({where}, sources {fingerprint}) than "
                        f"this driver ({PACKAGE_DIR}, sources {driver}): {MISMATCH}"
                    )
                per_match = took / len(results)
                self.workers[worker] += len(results)
                self.busy_seconds += took
                self.cpu_seconds += cpu
                yield start, results
        finally:
            for ref in in_flight:  # stopped early: nothing else will read these
                ray.cancel(ref)
