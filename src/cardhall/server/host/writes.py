"""Writes to a store that may fail: each is tried :data:`WRITE_ATTEMPTS` times, and after a failure the
store is asked whether the write landed after all (a commit whose answer was cut off may have), so that
nothing is written twice. What to do when every try failed (undo, pause) is the table's business
(:mod:`cardhall.server.host.machine`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from cardhall.store import StoreUnavailableError

log = logging.getLogger(__name__)

WRITE_ATTEMPTS = 3  # a write that fails is tried this many times before the table pauses
RETRY_DELAYS = (0.1, 0.5)  # seconds before the second and the third try


async def write_retried(
    what: str, write: Callable[[], Awaitable[Any]], landed: Callable[[], Awaitable[bool]]
) -> None:
    """Run ``write``; after a failure, ``landed()`` tells whether it committed after all. Raises the
    last :class:`StoreUnavailableError` when every try failed; ``what`` names the write in the log."""
    error: StoreUnavailableError | None = None
    for attempt in range(WRITE_ATTEMPTS):
        try:
            await write()
            return
        except StoreUnavailableError as e:
            error = e
            log.warning("%s: a write failed (try %d of %d): %s", what, attempt + 1, WRITE_ATTEMPTS, e)
        try:
            if await landed():
                return
        except StoreUnavailableError:
            pass
        if attempt < len(RETRY_DELAYS):
            await asyncio.sleep(RETRY_DELAYS[attempt])
    assert error is not None
    raise error
