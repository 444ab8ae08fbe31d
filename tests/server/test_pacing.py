"""The server's waits of one length on one loop timer (cardhall.server.pacing): in order, never early,
a cancelled one never run, a failing one keeping no other waiting, one loop timer for waits that end
close together."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from cardhall.server.pacing import Pacing


def run(test: Any) -> Any:
    return asyncio.run(test())


def test_waits_run_in_order_never_before_they_are_due() -> None:
    async def test() -> list[tuple[int, float, float]]:
        loop = asyncio.get_running_loop()
        pacing = Pacing()
        ran: list[tuple[int, float, float]] = []
        for k in range(20):
            due = loop.time() + 0.05
            pacing.call_later(0.05, lambda k=k, due=due: ran.append((k, due, loop.time())))
            await asyncio.sleep(0.003)
        await asyncio.sleep(0.2)
        assert pacing.pending() == 0
        return ran

    ran = run(test)
    assert [k for k, _, _ in ran] == list(range(20))
    assert all(at >= due for _, due, at in ran)


def test_waits_that_end_close_together_share_one_loop_timer(monkeypatch: pytest.MonkeyPatch) -> None:
    async def test() -> tuple[int, int]:
        loop = asyncio.get_running_loop()
        timers = 0
        call_at = loop.call_at

        def counted(when: float, callback: Any, *args: Any, **options: Any) -> Any:
            nonlocal timers
            timers += callback == pacing._run_due  # (not the sleeps' timers)
            return call_at(when, callback, *args, **options)

        monkeypatch.setattr(loop, "call_at", counted)
        pacing = Pacing(grain=0.5)  # (wide: a slow machine still starts them all within it)
        ran: list[int] = []
        for k in range(100):
            pacing.call_later(0.02, ran.append, k)
        for _ in range(200):
            if len(ran) == 100:
                break
            await asyncio.sleep(0.01)
        return timers, len(ran)

    timers, ran = run(test)
    assert ran == 100
    assert timers == 1


def test_a_cancelled_wait_never_runs_and_a_failing_one_keeps_none_waiting(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def test() -> list[str]:
        pacing = Pacing()
        ran: list[str] = []

        def fails() -> None:
            raise RuntimeError("this callback fails")

        pacing.call_later(0.02, ran.append, "first")
        pacing.call_later(0.02, ran.append, "cancelled").cancel()
        pacing.call_later(0.02, fails)
        pacing.call_later(0.02, ran.append, "after the failure")
        other = pacing.call_later(0.04, ran.append, "another length")
        await asyncio.sleep(0.15)
        assert other.cancelled()  # (done: a wait that ran counts as over)
        return ran

    with caplog.at_level(logging.ERROR, logger="cardhall.server.pacing"):
        ran = run(test)
    assert ran == ["first", "after the failure", "another length"]
    assert "a wait's callback failed" in caplog.text


def test_a_negative_wait_is_refused_and_close_cancels_every_wait() -> None:
    async def test() -> list[int]:
        pacing = Pacing()
        ran: list[int] = []
        with pytest.raises(ValueError, match="0 seconds or more"):
            pacing.call_later(-1, ran.append, 1)
        pacing.call_later(0.02, ran.append, 2)
        pacing.call_later(0.03, ran.append, 3)
        pacing.close()
        assert pacing.pending() == 0
        await asyncio.sleep(0.1)
        return ran

    assert run(test) == []
