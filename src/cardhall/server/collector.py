"""Keeping the garbage collector's pauses short on a server that holds thousands of connections.

CPython's full collection scans every tracked object, and a server with thousands of open websockets
holds a few hundred objects for each (its tasks, coroutines, buffers): at 6,400 connections a full
collection stops every table for most of a second. Almost all of those objects live as long as their
connection or their match, and the ones that die are freed by reference counting at once; so after
every collection the survivors are moved out of the collector's sight (``gc.freeze``), and the next
collection scans only what was made since. (Frozen after full collections alone, the survivors of
the young collections piled up in the middle generation, whose collections then took 40-200 ms every
few seconds at 3,200 tables of workload (b), and in the oldest, whose full collections took up to a
second.)

The young collections run on a clock (every ``young_seconds``), not on CPython's count of allocations:
that count is the objects made less the objects freed, and a hall in its steady state frees old
objects (the events of the matches that end, frozen long ago) as fast as it makes new ones (the
events of the matches being played, which live as long as their match), so the count stays near
zero while the young generation grows without bound, and the collection that comes at last scans
seconds of a hall's events at once: 60-130 ms pauses at 3,200 tables of workload (b), each finding
nothing to free. On a clock a young collection scans what survived the last ``young_seconds``, about
ten objects an action; a reference cycle made meanwhile is freed within that time.

What the frozen objects could still leak (a reference cycle that becomes garbage) is taken back by a
full collection of everything (``gc.unfreeze``) once every ``thaw_seconds``: one pause an hour by
default. Measured at 3,200 tables after 50 s of freezing everything: that collection found 585 objects
to free among all the server's objects, and took about a second.

A young collection that frees nothing was a scan for nothing, and a hall that only plays makes no
cycles: at 3,200 tables of workload (b) the young collections freed nothing at all once the tables
were made (while they were made through the HTTP API, tens of thousands of objects), and scanning
~20,000 objects each quarter second cost 4-5% of the core. So after ``QUIET_AFTER`` collections in a
row that freed nothing, a tick only freezes what is young (no scan), and one tick in ``PROBE_EVERY``
still collects: the first that frees something brings back a collection every tick. A cycle made
during a tick that only froze waits for the thaw, as one that outlived its first collection always
did.
"""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

from cardhall.server.stopping import cancel_and_wait

YOUNG_SECONDS = 0.25
QUIET_AFTER = 4  # collections in a row that freed nothing, before ticks only freeze
PROBE_EVERY = 8  # while quiet, one tick in this many collects all the same


class ShortPauses:
    def __init__(self, young_seconds: float = YOUNG_SECONDS, thaw_seconds: float = 3600) -> None:
        self.young_seconds = young_seconds
        self.thaw_seconds = thaw_seconds
        self._task: asyncio.Task[None] | None = None
        self._was_enabled = True
        self.ticks = 0
        self.collections = 0  # the young collections the clock ran (the other ticks only froze)
        self.fruitless = 0  # the clock's young collections in a row that freed nothing

    @property
    def quiet(self) -> bool:
        """Whether the clock's ticks only freeze (but one in ``PROBE_EVERY``)."""
        return self.fruitless >= QUIET_AFTER

    def start(self) -> None:
        self._was_enabled = gc.isenabled()
        gc.disable()  # (the clock below collects instead)
        gc.collect()
        gc.freeze()  # the modules, the restored tables: alive as long as the server
        gc.callbacks.append(self._after_collection)
        self._task = asyncio.create_task(self._collect_on_a_clock(), name="collector")

    async def stop(self) -> None:
        if self._after_collection in gc.callbacks:
            gc.callbacks.remove(self._after_collection)
        if self._task is not None:
            await cancel_and_wait([self._task])
            self._task = None
        gc.unfreeze()
        if self._was_enabled:
            gc.enable()

    @staticmethod
    def _after_collection(phase: str, info: dict[str, Any]) -> None:
        if phase == "stop":  # (any collection's: the clock's, or one a library or a test asks for)
            gc.freeze()

    async def _collect_on_a_clock(self) -> None:
        thaw_at = time.monotonic() + self.thaw_seconds
        while True:
            await asyncio.sleep(self.young_seconds)
            self.ticks += 1
            if time.monotonic() >= thaw_at:
                thaw_at = time.monotonic() + self.thaw_seconds
                gc.unfreeze()
                gc.collect()  # (frozen again by the callback)
            elif self.quiet and self.ticks % PROBE_EVERY:
                gc.freeze()
            else:
                self.collections += 1
                freed = gc.collect(0)
                self.fruitless = 0 if freed else self.fruitless + 1
