"""The server's reviews of finished matches (:func:`cardhall.review.review`), made as offline jobs and
stored, one per table and seat. What was chosen:

- **Who may ask**: a review is made (``POST /api/tables/{id}/review?seat=N``) for a person who sat at the
  match, of any of its seats' decisions (``403 not_a_player`` for anyone else: a review costs tens of
  seconds of a core, so it is the players' to start); a review made is read
  (``GET``) by anyone, as the finished match's record already is (and anyone could make it from the
  record with ``cardhall review``). Nothing is reviewed while the match is played (``409 not_over``).
- **Where it runs**: never on a table's path. With a bot tier on Redis (``cardhall serve --bots``) a
  review is a ``review`` job of the tier (:mod:`cardhall.bot_tier`), taken by any ``cardhall bots``
  worker after the moves waiting there; on the embedded default it runs in a worker process of its
  own, not in the server's bot workers, since a review holds a worker for tens of seconds and every
  ``hard`` move meanwhile would fall back to the rules move. That worker is set up as the bot tier's
  are (:func:`cardhall.bot_tier.tier.worker_setup`: ``nice`` 10, so on a busy machine the tables'
  work comes first). One job per table and seat at a time: asking again while it runs joins it;
  asking for a stored review returns it, with no job.
- **Reproducible**: the server's budget (``DEFAULT_BUDGET`` unless the server is given another) and
  seed 0: the stored review is the one ``cardhall review --seat N --budget B --seed 0`` prints for the
  record.
- **Bounds**: at most ``MAX_PENDING_PER_PERSON`` unfinished jobs a person and
  ``MAX_PENDING_PER_ADDRESS`` an address (``429`` with a retry time), and ``MAX_PENDING`` in all (``503
  reviews_busy``), so asking cannot pile up work the server never ends.
- **Shared fairly** (issue 47: sixteen guests of one address filled the whole queue, 32 of 32, and
  everyone else was told ``reviews_busy`` for minutes): an address holds at most
  ``MAX_PENDING_PER_ADDRESS`` of the queue, and the jobs waiting are run in turns by address (one of
  each address that has one waiting, then again), ``SLOTS`` at a time, so a newcomer's review waits
  for at most one job of each other address, not for everything one address asked first.
- **An older review** (stored by a server whose :data:`~cardhall.review.REVIEW_VERSION` was lower: it lacks
  what the page now shows, such as a better move only where it is clearly better) counts as none: the
  status says ``none``, a player asks again, and the new review replaces it.
- **A restart** loses a job under way (nothing was stored): the status says ``none`` and the player asks
  again. A job that fails (a record that does not replay) is logged and reported as ``failed``.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Final

from cardhall.bot_tier.tier import worker_setup
from cardhall.core import Record
from cardhall.review import DEFAULT_BUDGET, REVIEW_VERSION, review
from cardhall.server.rates import address_key
from cardhall.store import ReviewRow, Store

log = logging.getLogger(__name__)

MAX_PENDING: Final = 32
MAX_PENDING_PER_PERSON: Final = 2
MAX_PENDING_PER_ADDRESS: Final = 4
SLOTS: Final = 1  # reviews made at once (the embedded worker is one process)
REVIEW_SEED: Final = 0


@dataclass
class Job:
    table_id: str
    seat: int
    person: int
    address: str = "?"
    record: Record | None = None  # (until it runs)
    task: asyncio.Task[Any] | None = None
    error: str | None = None

    @property
    def status(self) -> dict[str, Any]:
        if self.error is not None:
            return {"status": "failed", "message": self.error}
        return {"status": "running"}


class ReviewsBusy(Exception):
    """More review jobs are pending than the server takes (in all, or for one person or address)."""

    def __init__(self, per_person: bool, message: str = "") -> None:
        self.per_person = per_person
        default = "you have reviews under way already" if per_person else "too many reviews under way"
        super().__init__(message or default)


# An offline job's runner elsewhere (the bot tier's ``job``): its kind's payload in, the review out.
Runner = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


class Reviews:
    """The review jobs of one server: started here, run by ``runner`` (the bot tier's) or in
    :attr:`pool`, stored in ``store``."""

    def __init__(
        self,
        store: Store,
        budget: int = DEFAULT_BUDGET,
        pool: Executor | None = None,
        runner: Runner | None = None,
    ) -> None:
        self.store = store
        self.budget = budget
        self._pool = pool
        self.runner = runner
        self.jobs: dict[tuple[str, int], Job] = {}
        # Jobs not started yet, by address, the addresses in the order of their turns.
        self.waiting: OrderedDict[str, deque[Job]] = OrderedDict()
        self.running = 0
        self.served: dict[str, int] = {}  # jobs started per address with jobs pending
        self.stopping = False

    @property
    def pool(self) -> Executor:
        """The review worker, started at the first review."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=1, initializer=worker_setup)
        return self._pool

    async def status(self, table_id: str, seat: int) -> dict[str, Any]:
        """``done`` with the review, ``running``, ``failed`` (with a message) or ``none``."""
        stored = await self.store.stored_review(table_id, seat)
        if stored is not None and stored.review.get("review_version") == REVIEW_VERSION:
            return {"status": "done", "review": stored.review}
        job = self.jobs.get((table_id, seat))
        return job.status if job is not None else {"status": "none"}

    async def start(
        self, table_id: str, seat: int, person: int, record: Record, address: str | None = None
    ) -> dict[str, Any]:
        """Start the review of ``seat`` (or join the one under way, or return the stored one), asked by
        ``person`` from ``address``: queued in its address's turn (the module's docstring)."""
        known = await self.status(table_id, seat)
        if known["status"] in ("done", "running"):
            return known
        where = address_key(address)
        pending = [j for j in self.jobs.values() if j.error is None]
        if sum(j.person == person for j in pending) >= MAX_PENDING_PER_PERSON:
            raise ReviewsBusy(per_person=True)
        if sum(j.address == where for j in pending) >= MAX_PENDING_PER_ADDRESS:
            raise ReviewsBusy(
                per_person=True, message="reviews asked from your address are under way already"
            )
        if len(pending) >= MAX_PENDING:
            raise ReviewsBusy(per_person=False)
        job = Job(table_id, seat, person, where, record)
        self.jobs[(table_id, seat)] = job
        self.waiting.setdefault(where, deque()).append(job)
        self._dispatch()
        return job.status

    def _dispatch(self) -> None:
        """Start waiting jobs while a slot is free, the address served least lately first (an
        address's count starts again once it has nothing pending): one address's turn after another,
        and a newcomer before an address that has just had one."""
        while self.running < SLOTS and self.waiting and not self.stopping:
            address = min(self.waiting, key=lambda a: self.served.get(a, 0))  # (ties: first come)
            queue = self.waiting[address]
            job = queue.popleft()
            if not queue:
                del self.waiting[address]
            self.served[address] = self.served.get(address, 0) + 1
            record, job.record = job.record, None
            assert record is not None
            self.running += 1
            job.task = asyncio.create_task(
                self._run(job, record), name=f"review {job.table_id} seat {job.seat}"
            )

    async def _run(self, job: Job, record: Record) -> None:
        try:
            await self._review(job, record)
        finally:
            self.running -= 1
            if job.address not in self.waiting and not any(
                j.address == job.address and j.task is not None and not j.task.done()
                for j in self.jobs.values()
                if j is not job
            ):
                self.served.pop(job.address, None)  # (nothing pending: its turns count afresh)
            self._dispatch()

    async def _review(self, job: Job, record: Record) -> None:
        loop = asyncio.get_running_loop()
        payload = {"record": record, "seat": job.seat, "budget": self.budget, "seed": REVIEW_SEED}
        try:
            if self.runner is not None:
                result = await self.runner(payload)
            else:
                result = await loop.run_in_executor(
                    self.pool, review, record, job.seat, self.budget, REVIEW_SEED
                )
            await self.store.save_review(ReviewRow(job.table_id, job.seat, self.budget, REVIEW_SEED, result))
        except asyncio.CancelledError:
            raise
        except Exception as e:
            log.exception("the review of table %s seat %d failed", job.table_id, job.seat)
            job.error = f"the review failed: {type(e).__name__}"
            return
        del self.jobs[(job.table_id, job.seat)]

    async def stop(self) -> None:
        self.stopping = True
        for job in self.jobs.values():
            if job.task is not None:
                job.task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
