"""Background tasks ended in bounded time, when the server stops.

``task.cancel()`` then ``await task`` waits for ever if the task does not end. On Python 3.11,
``asyncio.wait_for`` (which client libraries use inside their calls) returns the awaited result
instead of raising ``CancelledError`` when the cancellation and the result arrive in the same turn of
the loop (CPython gh-86296, fixed in 3.12). A loop like a lease's renewals then goes round again as if
nothing had asked it to end. Seen once in CI: a ``--workers`` worker went on renewing its leases after
SIGTERM, and never stopped; a swallowed cancellation is the likely cause.

So each task is cancelled again every :data:`RECANCEL_SECONDS` until it ends: a swallowed cancellation
is not the end of it, since the next one lands at the loop's next wait. After ``seconds``, whatever
still runs is logged by name and left behind rather than waited for.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable
from typing import Any

log = logging.getLogger(__name__)

RECANCEL_SECONDS = 1.0  # (a task ending of itself gets this long for its own clean-up)
STOP_SECONDS = 5.0


async def cancel_and_wait(
    tasks: Iterable[asyncio.Task[Any]], seconds: float = STOP_SECONDS
) -> list[asyncio.Task[Any]]:
    """Cancel ``tasks`` and wait until they end, ``seconds`` at most; the ones that did not end."""
    pending = {task for task in tasks if not task.done()}
    deadline = time.monotonic() + seconds
    while pending:
        for task in pending:
            task.cancel()
        left = deadline - time.monotonic()
        if left <= 0:
            break
        _, pending = await asyncio.wait(pending, timeout=min(RECANCEL_SECONDS, left))
    for task in pending:
        log.warning(
            "task %r did not end within %.0f s of its cancellation: left behind",
            task.get_name(),
            seconds,
        )
    return sorted(pending, key=lambda t: t.get_name())
