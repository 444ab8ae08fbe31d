"""The server's collector (cardhall.server.collector): young collections on a clock rather than on
CPython's count of allocations, what survives any collection frozen out of the next collections'
sight, and the thaw giving it back to the collector."""

from __future__ import annotations

import asyncio
import gc
import weakref

from cardhall.server.collector import PROBE_EVERY, ShortPauses


def tracked_in_a_generation(obj: object) -> bool:
    return any(o is obj for generation in range(3) for o in gc.get_objects(generation))


def test_what_survives_a_young_collection_is_frozen_and_the_thaw_gives_it_back() -> None:
    async def run() -> None:
        pauses = ShortPauses(thaw_seconds=3600)
        pauses.start()
        try:
            survivor = [object()]  # a tracked container, alive past the collection below
            assert tracked_in_a_generation(survivor)
            frozen = gc.get_freeze_count()
            gc.collect(0)  # a young collection, as the allocations of a busy server bring
            assert gc.get_freeze_count() > frozen
            assert not tracked_in_a_generation(survivor)  # the middle generation never piles up
        finally:
            await pauses.stop()
        assert gc.get_freeze_count() == 0 and tracked_in_a_generation(survivor)

    asyncio.run(run())


class Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the collector frees it


def test_young_collections_run_on_a_clock_and_free_a_new_cycle_without_being_asked() -> None:
    async def run() -> None:
        enabled = gc.isenabled()
        pauses = ShortPauses(young_seconds=0.05, thaw_seconds=3600)
        pauses.start()
        try:
            assert not gc.isenabled()  # (no collection on CPython's count of allocations)
            node = Node()
            alive = weakref.ref(node)
            del node  # garbage at once: only a collection frees a cycle
            for _ in range(100):
                await asyncio.sleep(0.02)
                if alive() is None:
                    break
            assert alive() is None
        finally:
            await pauses.stop()
        assert gc.isenabled() == enabled

    asyncio.run(run())


async def ticks_pass(pauses: ShortPauses, ticks: int, while_waiting: object = None) -> None:
    target = pauses.ticks + ticks
    for _ in range(ticks * 100):
        if pauses.ticks >= target:
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"the clock ticked {pauses.ticks - target + ticks} times of {ticks}")


def test_while_young_collections_free_nothing_a_tick_only_freezes_and_one_that_frees_ends_that() -> None:
    async def run() -> None:
        pauses = ShortPauses(young_seconds=0.02, thaw_seconds=3600)
        pauses.start()
        try:
            for _ in range(200):  # (nothing here makes cycles: the collections soon free nothing)
                if pauses.quiet:
                    break
                await ticks_pass(pauses, 1)
            assert pauses.quiet
            ticks, collections = pauses.ticks, pauses.collections
            young = [object()]  # made while quiet: frozen all the same, never scanned
            await ticks_pass(pauses, 4 * PROBE_EVERY)
            assert not tracked_in_a_generation(young)
            scanned = pauses.collections - collections
            assert 1 <= scanned <= (pauses.ticks - ticks) // PROBE_EVERY + 1  # one tick in PROBE_EVERY

            # Cycles again, one every few milliseconds: a probe frees some, and every tick collects.
            for _ in range(400):
                Node()
                await asyncio.sleep(0.002)
                if not pauses.quiet:
                    break
            assert not pauses.quiet
            node = Node()
            alive = weakref.ref(node)
            del node
            await ticks_pass(pauses, 2)
            assert alive() is None
        finally:
            await pauses.stop()

    asyncio.run(run())


def test_a_cycle_frozen_before_it_died_is_freed_by_the_thaw() -> None:
    async def run() -> None:
        pauses = ShortPauses(young_seconds=0.05, thaw_seconds=0.2)
        pauses.start()
        try:
            node = Node()
            alive = weakref.ref(node)
            gc.collect(0)  # alive then, and so frozen
            del node  # garbage now, out of the collector's sight until the thaw
            gc.collect()
            assert alive() is not None  # (frozen: no collection frees it)
            for _ in range(100):  # the thaw: unfreeze, collect everything, freeze again
                await asyncio.sleep(0.05)
                if alive() is None:
                    break
            assert alive() is None
        finally:
            await pauses.stop()

    asyncio.run(run())


def test_a_worker_forked_while_the_clock_runs_collects_on_its_own() -> None:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from cardhall.bot_tier.tier import worker_setup

    async def run() -> None:
        pauses = ShortPauses(young_seconds=0.05)
        pauses.start()
        try:
            fork = multiprocessing.get_context("fork")  # (as the bot tier's and the reviews' pools do)
            with ProcessPoolExecutor(1, mp_context=fork, initializer=worker_setup) as pool:
                assert pool.submit(gc.isenabled).result(timeout=60)
        finally:
            await pauses.stop()

    asyncio.run(run())
