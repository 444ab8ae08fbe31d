"""Group commit: the actions of every table, written together.

A table's owner task hands its action to :meth:`Committer.commit` and waits; the committer writes
everything handed to it since its last write in one transaction, then wakes every waiter. Each action is
committed before its table broadcasts it, and a busy server writes thousands of actions in a handful of
transactions a second instead of one each.

A batch refused for its rows (an IntegrityError) is tried again one table at a time, so a defect in one
table's rows fails that table alone; a store that fails fails the whole batch at once. Every waiter
whose rows did not commit gets the error (nothing fails silently); what to do about it, retrying or
pausing, is the table's own business (:mod:`cardhall.server.host`).

Seat changes (a person sits down, the match starts: :meth:`Committer.save`) go the same way: the
table rows handed in since the last write are saved in one transaction (``Store.save_tables``), before
the actions of that turn; a new private table's invitation goes with its first row, in that
transaction. One transaction each held SQLite's one writer for several steps of a busy event loop, so
a hall whose people arrive by the hundred a second (each ``join`` stores a seat) queued the joins, and
every action behind them, for seconds. A batch refused (a table moved to another process, say) is
tried one table at a time, so only that table's owner gets the error.

**Batches at least :data:`COMMIT_SPACING` apart.** A batch is written as soon as something is handed in,
unless the last one began less than 4 ms before: then the committer waits out the rest, and what is
handed in meanwhile goes in the same batch. An idle server writes each action at once; a busy one
writes fewer, larger batches: each batch costs the server a fixed part of its CPU (the hand-off to
SQLite's thread or PostgreSQL's round trip, the wake-ups, the waiters' futures) and the database a
transaction, and with batches back to back a busy server wrote one for every one to three person
actions. Measured in workload (b) of ``benchmarks/load.py`` (``benchmarks/load.md``): PostgreSQL's
commits per person action 1.0 -> 0.4 and the server's CPU per person action about a tenth less;
SQLite at 3,200 people p99 76-141 ms against 135-869 ms. The price is at most 4 ms more between an
action and its frame, and only under load, when the queues ahead of it are longer than that.

With many processes (:mod:`cardhall.server.cluster`) each table's rows go with its owner's fencing
number, and the store writes the batch only if every table's row still holds it: a batch refused
because one table moved to another process (:class:`~cardhall.store.FencedError`) is tried again one
table at a time like any other refusal, so only the table that moved fails.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from typing import Final

from cardhall.server import metrics
from cardhall.server.stopping import cancel_and_wait
from cardhall.store import ActionRow, Store, StoreUnavailableError, TableRow

log = logging.getLogger(__name__)
COMMIT_SPACING: Final = 0.004  # seconds between the starts of two batches at least, on a server
_Waiter = tuple[Sequence[ActionRow], int | None, asyncio.Future[None]]
_Table = tuple[TableRow, str | None, asyncio.Future[None]]  # a row, a new private table's invitation


def _fences(batch: Sequence[_Waiter]) -> dict[str, int] | None:
    """Table id -> fence of the waiters that gave one (None: none did: nothing to check)."""
    fences = {rows[0].table_id: fence for rows, fence, _ in batch if fence is not None and rows}
    return fences or None


class Committer:
    def __init__(self, store: Store, spacing: float = 0.0) -> None:
        """``spacing``: seconds between the starts of two batches at least (0: a batch as soon as
        the last one is written)."""
        self.store = store
        self.spacing = spacing
        self._pending: list[tuple[Sequence[ActionRow], int | None, asyncio.Future[None]]] = []
        self._tables: list[_Table] = []  # seat changes to save
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.batches = 0  # counters for the load benchmark
        self.rows = 0
        self.failures = 0  # batches that failed

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="committer")

    async def stop(self) -> None:
        if self._task is not None:
            await cancel_and_wait([self._task])
            self._task = None

    async def commit(self, rows: Sequence[ActionRow], fence: int | None = None) -> None:
        """Return once ``rows`` (of one table) are committed (raise what the store raised otherwise);
        ``fence``: the owner's fencing number, which the table's row must hold (None: not checked)."""
        if self._task is None:
            raise RuntimeError("the committer is not running")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((rows, fence, done))
        self._wake.set()
        await done

    async def save(self, table: TableRow, invitation: str | None = None) -> None:
        """Return once ``table``'s row is saved (``Store.save_table``'s promise; raise what the store
        raised otherwise), in one transaction with the other rows handed in meanwhile; ``invitation``:
        a new private table's, stored in that transaction too."""
        if self._task is None:  # (a context not started: tests of the host alone)
            await self.store.save_table(table, invitation)
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._tables.append((table, invitation, done))
        self._wake.set()
        await done

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        last = float("-inf")  # (when the last batch began)
        while True:
            await self._wake.wait()
            rest = last + self.spacing - loop.time()
            if rest > 0:  # (a busy server: what comes meanwhile goes in this batch too)
                await asyncio.sleep(rest)
            last = loop.time()
            self._wake.clear()
            tables, self._tables = self._tables, []
            if tables:
                await self._save_tables(tables)
            batch, self._pending = self._pending, []
            if not batch:
                continue
            rows = [row for rows, _, _ in batch for row in rows]
            started = time.perf_counter()
            try:
                await self.store.append_actions(rows, _fences(batch))
            except Exception as e:
                self.failures += 1
                log.warning("committing %d actions of %d waiters failed: %s", len(rows), len(batch), e)
                if isinstance(e, StoreUnavailableError) or len(batch) == 1:
                    for _, _, done in batch:  # (one by one, each would wait out the same failure)
                        self._settle(done, e)
                else:
                    await self._one_by_one(batch)
                continue
            self.batches += 1
            self.rows += len(rows)
            metrics.COMMIT_SECONDS.observe(time.perf_counter() - started)
            metrics.ACTIONS.inc(len(rows))
            for _, _, done in batch:
                self._settle(done, None)

    async def _one_by_one(self, batch: list[_Waiter]) -> None:
        """Each waiter's rows in a transaction of their own, after a batch of them failed."""
        for rows, fence, done in batch:
            try:
                await self.store.append_actions(rows, _fences([(rows, fence, done)]))
            except Exception as e:
                self._settle(done, e)
            else:
                self.batches += 1
                self.rows += len(rows)
                metrics.ACTIONS.inc(len(rows))
                self._settle(done, None)

    async def _save_tables(self, waiters: list[_Table]) -> None:
        invitations = {row.id: invitation for row, invitation, _ in waiters if invitation is not None}
        try:
            await self.store.save_tables([row for row, _, _ in waiters], invitations)
        except Exception as e:
            log.warning("saving %d tables failed: %s", len(waiters), e)
            if isinstance(e, StoreUnavailableError) or len(waiters) == 1:
                for _, _, done in waiters:
                    self._settle(done, e)
                return
            for row, invitation, done in waiters:  # (one refused row must fail its own table alone)
                try:
                    await self.store.save_table(row, invitation)
                except Exception as one:
                    self._settle(done, one)
                else:
                    self._settle(done, None)
            return
        for _, _, done in waiters:
            self._settle(done, None)

    @staticmethod
    def _settle(done: asyncio.Future[None], error: BaseException | None) -> None:
        if done.done():  # (its waiter was cancelled)
            return
        if error is None:
            done.set_result(None)
        else:
            done.set_exception(error)
