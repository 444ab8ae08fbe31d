"""Keeping the garbage collector's pauses short on a server that holds thousands of connections.

CPython's full collection scans every tracked object, and a server with thousands of open websockets
holds a few hundred objects for each (its tasks, coroutines, buffers): at 6,400 connections a full
collection stops every table for most of a second. Almost all of those objects live as long as their
connection or their match, and the ones that die are freed by reference counting at once; so after
every collection the survivors are moved out of the collector's sight (``gc.freeze``), and the next
collection scans only what was made since. (Frozen after full collections alone, the survivors of
the young collections piled up in the middle generation, whose collections then took 40-200 ms every
few seconds at 3,200 tables of workload (b), and in the oldest, whose full collections took up to a
second.) What the frozen objects could still leak (a reference cycle that becomes garbage) is taken
back by a full collection of everything (``gc.unfreeze``) once every ``thaw_seconds``: one pause an
hour by default. Measured at 3,200 tables after 50 s of freezing everything: that collection found
585 objects to free among all the server's objects, and took about a second.
"""

from __future__ import annotations

import asyncio
import gc
from typing import Any

GEN0_THRESHOLD = 20_000  # CPython default: 700; see benchmarks/load.md


class ShortPauses:
    def __init__(self, thaw_seconds: float = 3600) -> None:
        self.thaw_seconds = thaw_seconds
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        # Young collections less often: a frame's short-lived objects are mostly freed before one runs.
        gc.set_threshold(GEN0_THRESHOLD, *gc.get_threshold()[1:])
        gc.collect()
        gc.freeze()  # the modules, the restored tables: alive as long as the server
        gc.callbacks.append(self._after_collection)
        self._task = asyncio.create_task(self._thaw_now_and_then(), name="collector")

    async def stop(self) -> None:
        if self._after_collection in gc.callbacks:
            gc.callbacks.remove(self._after_collection)
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        gc.unfreeze()

    @staticmethod
    def _after_collection(phase: str, info: dict[str, Any]) -> None:
        if phase == "stop":
            gc.freeze()

    async def _thaw_now_and_then(self) -> None:
        while True:
            await asyncio.sleep(self.thaw_seconds)
            gc.unfreeze()
            gc.collect()
            gc.freeze()
