"""A table's owner task: one queue of work, run in order, so nothing a table holds needs a lock.

Everything that changes a table (a seat taken, an action, a bot's move, a timer running out, a chat
line) is a coroutine function handed to :meth:`OwnerQueue.call` (which waits for its result) or
:meth:`OwnerQueue.post` (which does not); the one task runs them one after the other. The table's
actor (:class:`~cardhall.server.host.TableHost`) queues each of its commands itself: a caller awaits
``host.act(...)``, never hands the queue a closure.

The queue is a deque and, while the task waits on an empty one, one future: a table's queue has one
consumer and no bound, so ``asyncio.Queue``'s bookkeeping for many getters and putters (pure Python,
a loop check and a wake-up per item) was work for nothing, on the path of every action and every
bot move.
"""

from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")

Work = Callable[[], Awaitable[Any]]


async def _nothing() -> None:
    """Work that only marks its place in the queue."""


class OwnerQueue:
    def __init__(self, name: str) -> None:
        self.name = name
        self._inbox: collections.deque[tuple[Work, asyncio.Future[Any] | None]] = collections.deque()
        self._wake: asyncio.Future[None] | None = None  # set while the task waits on an empty inbox
        self._task = asyncio.create_task(self._run(), name=name)

    async def call(self, work: Callable[[], Awaitable[T]]) -> T:
        """Run ``work`` in the owner task, after everything queued before it; its result. Asked from
        the owner task itself (one command's work calling another's), ``work`` runs there and then:
        queued, it would wait for the work that waits for it."""
        if asyncio.current_task() is self._task:
            return await work()
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._put(work, done)
        return await done

    def post(self, work: Work) -> None:
        """Queue ``work`` for the owner task without waiting for it."""
        self._put(work, None)

    def _put(self, work: Work, done: asyncio.Future[Any] | None) -> None:
        self._inbox.append((work, done))
        wake = self._wake
        if wake is not None:
            self._wake = None
            if not wake.done():
                wake.set_result(None)

    async def _run(self) -> None:
        inbox = self._inbox
        while True:
            while not inbox:
                self._wake = asyncio.get_running_loop().create_future()
                await self._wake
            work, done = inbox.popleft()
            try:
                result = await work()
            except Exception as e:
                if done is None:
                    log.exception("%s: background work failed", self.name)
                elif not done.done():
                    done.set_exception(e)
            else:
                if done is not None and not done.done():
                    done.set_result(result)
                del result
            # Dropped before the wait: kept, the work's closure and its future would live until the
            # table's next work (seconds), each scanned by the collector (cardhall.server.collector).
            del work, done

    async def drain(self) -> None:
        """Return once the work queued before now is done."""
        await self.call(_nothing)

    async def stop(self) -> None:
        """Cancel the owner task wherever it waits (even mid-write: :meth:`drain` first to keep the
        last writes)."""
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)
