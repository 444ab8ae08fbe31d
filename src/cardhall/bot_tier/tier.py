"""The seam between a table and wherever its bots think: :class:`BotTier`, and its embedded default,
:class:`InProcessTier` (the server's own worker processes, ``cardhall serve --bot-workers N``).

A server asks the tier for a ``move`` (one search decision, answered by its deadline: see
:mod:`cardhall.bot_tier.schedule`) or for an offline ``job`` of another kind (``review``: see
:mod:`cardhall.bot_tier.jobs`). The other implementation, :class:`~cardhall.bot_tier.redis_tier.RedisTier`
(``cardhall serve --bots redis://...``), sends the same jobs to ``cardhall bots`` workers on any machine.
"""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from cardhall.bot_tier.jobs import MOVE, REVIEW, MoveOutcome, run_review, think
from cardhall.bot_tier.schedule import Scheduler, Ticket
from cardhall.table import BotJob


class BotTier(Protocol):
    """Where searching bots (and offline jobs) run."""

    async def move(self, job: BotJob, deadline: float, nominal_ms: int) -> MoveOutcome:
        """The bot's move, always by ``deadline`` (epoch seconds): the search's, or the rules move when
        the search cannot answer in time. ``nominal_ms``: what the bot asks to think. Under load the
        decisions the game's bot rules module weighs heavier think first (see
        :mod:`cardhall.bot_tier.schedule`)."""
        ...

    async def job(self, kind: str, payload: Any) -> Any:
        """Run an offline job of ``kind`` (``review``) and return its answer."""
        ...

    def stats(self) -> dict[str, Any]:
        """How the tier's moves were answered (counts), for an operator and the load benchmark."""
        ...

    async def close(self) -> None: ...


def run_ticket(kind: str, payload: Any, budget_ms: int, deadline: float | None) -> Any:
    """One job, in a worker process of the pool."""
    if kind == MOVE:
        return think(payload, budget_ms, deadline)
    if kind == REVIEW:
        return run_review(payload)
    raise ValueError(f"unknown bot tier job kind {kind!r}")


PARENT_CHECK_SECONDS = 1.0  # how often a worker looks whether its server is still alive
WORKER_NICENESS = 10  # the searches yield the CPU to the server's event loop (see worker_setup)


def worker_setup() -> None:
    """In each worker process. Niced: on the server's machine a search must never starve the event loop
    that plays every table's moves on time (measured: two un-niced workers on two busy cores delayed bot
    moves past their deadlines by up to 1.4 s, the loop's timers firing late; a search that runs late
    only costs that move its search, the rules move is played). The default SIGTERM and SIGINT ignored: a
    worker forked from the server inherits its handlers, which would only set a flag in the worker's
    dead copy of the server, so it could not be stopped; Ctrl-C at the server's terminal stops the
    server, which stops them. The collector enabled again: the server collects on a clock of its own
    (:mod:`cardhall.server.collector`), with CPython's automatic collection off, and a forked worker
    inherits that without the clock. (What the server froze stays frozen: collecting it here would
    copy the server's pages into the worker.) And it ends when the server is gone: a server killed
    (SIGKILL, a crash) cannot stop its workers, and a forked worker never sees the end of its job
    queue (its sibling workers hold the queue's other end too), so each would wait for a job forever,
    holding its memory; a thread of the worker looks for its parent every second and ends it once
    the parent is gone."""
    gc.enable()
    os.nice(WORKER_NICENESS)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()
    threading.Thread(target=_end_with, args=(parent,), name="cardhall-parent-watch", daemon=True).start()


def _end_with(parent: int) -> None:
    """End this process once ``parent`` is no longer its parent (it died: the orphan was handed on)."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


class InProcessTier:
    """``workers`` processes of this machine (started at the first job), scheduled earliest deadline
    first."""

    def __init__(self, workers: int = 1) -> None:
        if workers < 1:
            raise ValueError(f"a bot tier needs at least one worker, got {workers}")
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self.scheduler = Scheduler(self._run, lambda: self.workers)

    @property
    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers, initializer=worker_setup)
        return self._pool

    async def _run(self, ticket: Ticket, budget_ms: int) -> Any:
        deadline = None if ticket.kind != MOVE else ticket.deadline
        loop = asyncio.get_running_loop()
        pool = self.pool
        try:
            return await loop.run_in_executor(
                pool, run_ticket, ticket.kind, ticket.payload, budget_ms, deadline
            )
        except BrokenProcessPool:
            # A worker died (killed, out of memory): the pool refuses all work from then on, so the next
            # job gets a fresh one; this job's move is the rules move (the scheduler's "failed").
            if self._pool is pool:
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise

    async def move(self, job: BotJob, deadline: float, nominal_ms: int) -> MoveOutcome:
        return await self.scheduler.move(job, deadline, nominal_ms)

    async def job(self, kind: str, payload: Any) -> Any:
        if kind == MOVE:
            raise ValueError("a move goes through BotTier.move (it has a deadline)")
        return await self.scheduler.job(kind, payload)

    def stats(self) -> dict[str, Any]:
        return {"workers": self.workers, **self.scheduler.stats()}

    async def close(self) -> None:
        await self.scheduler.close()
        pool, self._pool = self._pool, None
        if pool is not None:
            # A worker may be mid-think (or mid-review): it is stopped, not waited for, and never
            # left behind (a worker orphaned by a server that exited kept waiting for work for ever).
            processes = list(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
