"""Waits of one length shared by many tables (a bot's pace: 700 ms unless the table's settings say
otherwise), kept on one event-loop timer per length instead of one timer per wait.

Of two waits of the same length the one started later ends later, so each length's waits form a queue
in the order they end: starting one is an append, and one timer of the loop (for the queue's first)
runs every wait that is due and is then set for the next. A wait runs at most :data:`GRAIN` late, so
that waits ending close together share one timer. At 3,200 tables of workload (b) a bot moved 2,700
times a second, each after a timer of its own: uvloop's ``call_later`` (a handle, a context and a libuv
timer, opened and closed) was 2-3% of the server's core, more than the rules bot's choice.

Waits of any length work (each length its own queue), but a length used once is no cheaper than
``call_later``: the bots that search, which wait for what is left of the pace after their think, use
the loop's timers.
"""

from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

GRAIN = 0.005  # seconds a wait may run late, so that waits ending close together share a timer


class Wait:
    """One wait; :meth:`cancel` before it is due and its callback never runs."""

    __slots__ = ("args", "callback", "due")

    def __init__(self, due: float, callback: Callable[..., object] | None, args: tuple[Any, ...]) -> None:
        self.due = due
        self.callback = callback
        self.args = args

    def cancel(self) -> None:
        self.callback, self.args = None, ()  # (it stays in its queue until due, holding nothing)

    def cancelled(self) -> bool:
        return self.callback is None


class Pacing:
    """The waits of one event loop (the server's): per length, its queue and the loop's timer for it."""

    def __init__(self, grain: float = GRAIN) -> None:
        self.grain = grain
        self._queues: dict[float, collections.deque[Wait]] = {}
        self._timers: dict[float, asyncio.TimerHandle] = {}

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> Wait:
        """Run ``callback(*args)`` on the loop ``delay`` seconds from now (at most :attr:`grain` late)."""
        if delay < 0:
            raise ValueError(f"a wait is 0 seconds or more, not {delay}")
        loop = asyncio.get_running_loop()
        wait = Wait(loop.time() + delay, callback, args)
        queue = self._queues.get(delay)
        if queue is None:
            queue = self._queues[delay] = collections.deque()
        queue.append(wait)
        if delay not in self._timers:
            self._timers[delay] = loop.call_at(wait.due + self.grain, self._run_due, delay)
        return wait

    def pending(self) -> int:
        """The waits started and not yet due (cancelled ones included, until they are due)."""
        return sum(len(queue) for queue in self._queues.values())

    def _run_due(self, delay: float) -> None:
        loop = asyncio.get_running_loop()
        queue = self._queues[delay]
        now = loop.time()
        while queue and queue[0].due <= now:
            wait = queue.popleft()
            callback, args = wait.callback, wait.args
            if callback is None:
                continue
            wait.cancel()  # (done: a cancel from now on changes nothing)
            try:
                callback(*args)
            except Exception:  # (one failing wait never keeps the others waiting)
                log.exception("a wait's callback failed")
        if queue:
            self._timers[delay] = loop.call_at(queue[0].due + self.grain, self._run_due, delay)
        else:
            del self._timers[delay], self._queues[delay]

    def close(self) -> None:
        """Cancel every wait (the server stops)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        self._queues.clear()
