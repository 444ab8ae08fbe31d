"""Passwords hashed a few at a time (issue 47: each argon2id hash holds 64 MiB for about a tenth of a
second, and 120 sign-ins, 40 at once, took the server from 136 MB to 521 MB).

At most :data:`AT_ONCE` hashes run at once in a process (its cores: more would only share them); a
sign-in, sign-up or password change past them waits its turn, at most :data:`WAIT_SECONDS`, with at
most :data:`MAX_WAITING` waiting; beyond either it is refused (``passwords_busy``, 503 with
``Retry-After``) before anything is hashed. So the memory the hashes take is bounded by the process's
cores, whatever comes in; the rates of :mod:`cardhall.server.rates` bound how many come from one address
or for one account.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from typing import Final, TypeVar

from cardhall.server.protocol import ProtocolError

AT_ONCE: Final = max(
    1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
)
MAX_WAITING: Final = 32
WAIT_SECONDS: Final = 5.0
T = TypeVar("T")


class Hashing:
    """The hashes of one server process, :data:`AT_ONCE` at a time."""

    def __init__(self, at_once: int = AT_ONCE) -> None:
        self._slots = asyncio.Semaphore(at_once)
        self.waiting = 0
        self.running = 0
        self.most = 0  # the most that ran at once (a test's check, the metrics' gauge)

    async def run(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` on a thread once a slot is free; ``passwords_busy`` past the bounds."""
        if self.waiting >= MAX_WAITING:
            raise busy()
        self.waiting += 1
        try:
            await asyncio.wait_for(self._slots.acquire(), WAIT_SECONDS)
        except TimeoutError:
            raise busy() from None
        finally:
            self.waiting -= 1
        self.running += 1
        self.most = max(self.most, self.running)
        try:
            return await asyncio.to_thread(work, *args)
        finally:
            self.running -= 1
            self._slots.release()


def busy() -> ProtocolError:
    return ProtocolError("passwords_busy", "the server is checking other passwords: try again in a moment")
