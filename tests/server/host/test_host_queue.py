"""A table's owner queue: work runs one item at a time in the order it was queued, a failure reaches
its caller (or the log) and the queue goes on, and stopping it cancels the task wherever it waits."""

from __future__ import annotations

import asyncio
import logging
import weakref

import pytest

from cardhall.server.host.queue import OwnerQueue


def test_work_runs_in_order_one_at_a_time_and_call_returns_its_result() -> None:
    async def run() -> list[str]:
        queue = OwnerQueue("table 1")
        seen: list[str] = []
        running = 0

        def work(name: str, pause: bool = False):  # type: ignore[no-untyped-def]
            async def step() -> str:
                nonlocal running
                running += 1
                assert running == 1, "two items of one queue ran at once"
                seen.append(f"{name} starts")
                if pause:
                    await asyncio.sleep(0.01)  # a commit's wait: the next item must still wait for it
                seen.append(f"{name} ends")
                running -= 1
                return name

            return step

        queue.post(work("a", pause=True))
        queue.post(work("b"))
        first = asyncio.ensure_future(queue.call(work("c", pause=True)))
        await asyncio.sleep(0)  # the task is mid-"a": what is queued now goes after "c"
        queue.post(work("d"))
        assert await first == "c"
        await queue.drain()
        await asyncio.sleep(0.05)  # idle: the task waits on an empty queue, and wakes for the next
        assert await queue.call(work("e")) == "e"
        await queue.stop()
        return seen

    seen = asyncio.run(asyncio.wait_for(run(), 5))  # (a lost wake-up would hang here)
    order = [s.split()[0] for s in seen[::2]]
    assert order == ["a", "b", "c", "d", "e"]
    assert all(seen[i].endswith("starts") and seen[i + 1].endswith("ends") for i in range(0, len(seen), 2))


def test_a_failure_reaches_its_caller_or_the_log_and_the_queue_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def fails() -> None:
        raise ValueError("no such seat")

    async def answers() -> int:
        return 42

    async def run() -> int:
        queue = OwnerQueue("table 2")
        with pytest.raises(ValueError, match="no such seat"):
            await queue.call(fails)
        queue.post(fails)
        result = await queue.call(answers)
        await queue.stop()
        return result

    with caplog.at_level(logging.ERROR, logger="cardhall.server.host.queue"):
        assert asyncio.run(asyncio.wait_for(run(), 5)) == 42
    assert [r.getMessage() for r in caplog.records] == ["table 2: background work failed"]


def test_stop_cancels_the_task_waiting_on_an_empty_queue_or_inside_work() -> None:
    async def run() -> tuple[bool, bool]:
        idle = OwnerQueue("table 3")
        await asyncio.sleep(0.01)
        await idle.stop()
        busy = OwnerQueue("table 4")
        started = asyncio.Event()

        async def forever() -> None:
            started.set()
            await asyncio.sleep(3600)

        busy.post(forever)
        await started.wait()
        await busy.stop()
        return idle._task.cancelled(), busy._task.cancelled()

    assert asyncio.run(asyncio.wait_for(run(), 5)) == (True, True)


def test_the_queue_keeps_nothing_of_work_done_while_it_waits_for_more() -> None:
    # Work kept by the waiting task lived until the table's next work (seconds), and the collector
    # scanned each (cardhall.server.collector).
    class Held:
        pass

    async def run() -> tuple[bool, bool]:
        queue = OwnerQueue("table 1")
        held, result = Held(), Held()
        kept_work, kept_result = weakref.ref(held), weakref.ref(result)

        def work(captured: Held, answer: Held):  # type: ignore[no-untyped-def]
            async def step() -> Held:
                assert captured is not None
                return answer

            return step

        assert await queue.call(work(held, result)) is result
        del held, result
        await asyncio.sleep(0)  # (the task is back waiting on its empty queue)
        alive = kept_work() is not None, kept_result() is not None
        await queue.stop()
        return alive

    assert asyncio.run(run()) == (False, False)


def test_a_call_from_the_owner_task_itself_runs_there_and_then() -> None:
    """One command's work asking the queue for another's (``host.call(lambda: host.act(...))``, the
    actor's commands queueing themselves) runs at once: queued, it would wait for its own caller."""

    async def run() -> list[str]:
        queue = OwnerQueue("table 1")
        seen: list[str] = []

        async def inner() -> str:
            seen.append("inner")
            return "inner's"

        async def outer() -> str:
            seen.append("outer starts")
            got = await queue.call(inner)
            seen.append("outer ends")
            return got

        result = await asyncio.wait_for(queue.call(outer), 2)
        await queue.stop()
        return [*seen, result]

    assert asyncio.run(run()) == ["outer starts", "inner", "outer ends", "inner's"]
