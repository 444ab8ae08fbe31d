"""The tables paused because the store failed, and the one probe that tells when it takes writes again.

A table whose write failed, after its retries, rolls back to what is stored and pauses (see
:mod:`cardhall.server.host`); it registers here with what to do when the store is back. One probe for
all of them (not one per table: a store that fails makes every write wait out its timeout, and a
thousand probes would queue behind each other and ahead of the real writes), a real write transaction
(:meth:`~cardhall.store.base.Store.probe`), first after :data:`FIRST_DELAY` and then twice as long
after each failure, up to :data:`MAX_DELAY`. When it succeeds every paused table is told at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from cardhall.server.stopping import cancel_and_wait
from cardhall.store import Store

log = logging.getLogger(__name__)

FIRST_DELAY = 0.25  # seconds before the first probe
MAX_DELAY = 5.0
STOP_WAIT = 15.0  # seconds a stopping server waits for a probe under way


class StoreWatch:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._paused: dict[str, Callable[[], None]] = {}  # table id -> what to call once the store is back
        self._task: asyncio.Task[None] | None = None
        self._probing = False
        self.probes = 0  # counters, for tests and the operator
        self.outages = 0

    @property
    def paused(self) -> list[str]:
        """The ids of the tables waiting for the store."""
        return list(self._paused)

    def pause(self, table_id: str, resume: Callable[[], None]) -> None:
        """``table_id`` waits for the store; ``resume`` is called (in the event loop) once it is back."""
        if not self._paused:
            self.outages += 1
        self._paused[table_id] = resume
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._probe(), name="store watch")

    def forget(self, table_id: str) -> None:
        self._paused.pop(table_id, None)

    async def stop(self) -> None:
        """Stop probing; a probe under way may finish first (for at most :data:`STOP_WAIT` seconds): one
        cancelled mid-write would leave its connection to the garbage collector."""
        self._paused.clear()
        task, self._task = self._task, None
        if task is None:
            return
        if self._probing:
            await asyncio.wait({task}, timeout=STOP_WAIT)
        await cancel_and_wait([task])

    async def _probe(self) -> None:
        delay = FIRST_DELAY
        while self._paused:
            await asyncio.sleep(delay)
            if not self._paused:
                return
            self.probes += 1
            self._probing = True
            try:
                await self.store.probe(next(iter(self._paused)))
            except Exception as e:
                log.warning("the store still fails (%d tables paused): %s", len(self._paused), e)
                delay = min(delay * 2, MAX_DELAY)
                continue
            finally:
                self._probing = False
            log.warning("the store takes writes again: %d tables go on", len(self._paused))
            waiting, self._paused = self._paused, {}
            for resume in waiting.values():
                resume()
            delay = FIRST_DELAY
