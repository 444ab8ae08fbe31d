"""Group commit: the actions of every table, written together.

A table's owner task hands its action to :meth:`Committer.commit` and waits; the committer writes
everything handed to it since its last write in one transaction, then wakes every waiter. Each action is
committed before its table broadcasts it, and a busy server writes thousands of actions in a handful of
transactions a second instead of one each.

A batch refused for its rows (an IntegrityError) is tried again one table at a time, so a defect in one
table's rows fails that table alone; a store that fails fails the whole batch at once. Every waiter
whose rows did not commit gets the error (nothing fails silently); what to do about it, retrying or
pausing, is the table's own business (:mod:`cardhall.server.host`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from cardhall.store import ActionRow, Store, StoreUnavailableError

log = logging.getLogger(__name__)


class Committer:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._pending: list[tuple[Sequence[ActionRow], asyncio.Future[None]]] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.batches = 0  # counters for the load benchmark
        self.rows = 0
        self.failures = 0  # batches that failed

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="committer")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def commit(self, rows: Sequence[ActionRow]) -> None:
        """Return once ``rows`` are committed (raise what the store raised otherwise)."""
        if self._task is None:
            raise RuntimeError("the committer is not running")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((rows, done))
        self._wake.set()
        await done

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._pending = self._pending, []
            if not batch:
                continue
            rows = [row for rows, _ in batch for row in rows]
            try:
                await self.store.append_actions(rows)
            except Exception as e:
                self.failures += 1
                log.warning("committing %d actions of %d waiters failed: %s", len(rows), len(batch), e)
                if isinstance(e, StoreUnavailableError) or len(batch) == 1:
                    for _, done in batch:  # (one by one, each would wait out the same failure)
                        self._settle(done, e)
                else:
                    await self._one_by_one(batch)
                continue
            self.batches += 1
            self.rows += len(rows)
            for _, done in batch:
                self._settle(done, None)

    async def _one_by_one(self, batch: list[tuple[Sequence[ActionRow], asyncio.Future[None]]]) -> None:
        """Each waiter's rows in a transaction of their own, after a batch of them failed."""
        for rows, done in batch:
            try:
                await self.store.append_actions(rows)
            except Exception as e:
                self._settle(done, e)
            else:
                self.batches += 1
                self.rows += len(rows)
                self._settle(done, None)

    @staticmethod
    def _settle(done: asyncio.Future[None], error: BaseException | None) -> None:
        if done.done():  # (its waiter was cancelled)
            return
        if error is None:
            done.set_result(None)
        else:
            done.set_exception(error)
