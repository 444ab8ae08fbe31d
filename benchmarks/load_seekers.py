"""Play now arrivals for ``load.py --seekers RATE`` (issue 49): a Poisson stream of people pressing
"Play now" for Hokm, in a load-generating process of their own beside the people at the tables.

Each arrival opens a connection, says ``hello``, waits for ``welcome`` and sends ``seek`` for ``hokm``
with the default settings, bots' level and choice (``after_wait``). When ``seated`` comes he ``leave``s
the table at once and closes his connection (a bot's seat promised for the next deal, ``next_deal``:
he ``unseek``s it instead). Leaving keeps the hall's people constant: the tables of workload (b) are
the only ones played, since a Play now table whose every person left before its first deal was scored
is stopped (``abandoned``), and the people waiting in the queue are only those of the last moments
(rate x wait). Unseeking after a random wait instead would keep them too, but at 100 a second nearly
everyone is seated within a wave, so it would measure the queue without its tables.

Every arrival has a player of his own, made through the HTTP API before the clock starts (``tokens``):
a player who came back would count as a leaver (he left a table in its first deal: 5 s behind in the
queue for each) and would avoid his last table's people, which is not the queue of a hall's new
arrivals. If the stream outruns the players made, the first ones come back (counted in ``reused``).

``connected`` (``load.py --seekers-connected``): each arrival of the window is a person already on
the site, his page open: his connection is opened and says ``hello`` from the start of the run (at
most :data:`CONNECT_RATE` a second, before the window), and at his arrival he only sends ``seek``. The
window then holds the queue's work and its tables', without a new connection and ``hello`` per
arrival (about 4 ms of server CPU each on this machine: ``load_arrival.py``). The warm-up's arrivals
still connect as they arrive.

It reports the arrivals of the measured window, how many of them got ``welcome`` and then ``seeking``
(the server's answers: where a server too busy for the stream holds them), how many were seated
(by the window's end plus :data:`GRACE`, the bound and a wave), their wait from sending ``seek`` to
reading ``seated`` (seconds), refusals (``error`` frames) and this process's CPU over the window.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from typing import Any

from cardhall import loadclient

GAME = "hokm"
GRACE = 12.0  # seconds after the window an arrival of it may still be seated (bound 10 s + a wave)
CONNECT_RATE = 100.0  # connections a second opened ahead for the window's arrivals (``connected``)


def players_needed(rate: float, seconds: float) -> int:
    """Players to make for a stream of ``rate`` a second over ``seconds`` (Poisson: a margin)."""
    expected = rate * seconds
    return int(expected + 4 * expected**0.5 + 10)


async def one_seeker(
    port: int, token: str, in_window: bool, stats: dict[str, Any], at: float | None = None
) -> None:
    """One arrival: connects now, and seeks at once (``at`` None) or at ``at`` (epoch seconds)."""
    try:
        await seek_and_leave(port, token, in_window, stats, at)
    except Exception as e:  # a connection refused or cut (OSError, ConnectionClosed): reported
        stats["failed"] += 1
        stats["error_codes"][type(e).__name__] = stats["error_codes"].get(type(e).__name__, 0) + 1


async def seek_and_leave(
    port: int, token: str, in_window: bool, stats: dict[str, Any], at: float | None = None
) -> None:
    async with loadclient.open_async(port) as ws:
        await ws.send(loadclient.message(type="hello", token=token))
        sent = 0.0
        seeking = False
        async for text in ws:
            frame = json.loads(text)
            kind = frame["type"]
            if kind == "welcome":
                if at is not None:  # (connected ahead: he presses Play now at his arrival)
                    await asyncio.sleep(max(0.0, at - time.time()))
                stats["welcomed"] += in_window
                sent = time.time()
                await ws.send(loadclient.message(type="seek", game=GAME))
            elif kind == "seeking":
                stats["seeking"] += in_window and not seeking
                seeking = True
            elif kind == "error":
                stats["errors"] += 1
                code = str(frame.get("code", "?"))
                stats["error_codes"][code] = stats["error_codes"].get(code, 0) + 1
                return
            elif kind == "seated":
                if in_window:
                    stats["seated"] += 1
                    stats["wait"].append(time.time() - sent)
                    stats["takeovers"] += bool(frame.get("next_deal"))
                if frame.get("next_deal"):
                    await ws.send(loadclient.message(type="unseek"))
                else:
                    await ws.send(loadclient.message(type="leave", table=frame["table"]))
                return


def seekers_process(
    port: int,
    tokens: list[str],
    rate: float,
    start: float,
    window: tuple[float, float],
    out: Any,
    seed: int = 49,
    connected: bool = False,
) -> None:
    """From ``start`` to the window's end, arrivals at ``rate`` a second (Poisson); ``out`` gets the
    stats once every arrival of the window is seated or :data:`GRACE` has passed. ``connected``: the
    window's arrivals are connected ahead (the module's docstring)."""
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    stats: dict[str, Any] = {
        "arrived": 0,
        "welcomed": 0,  # (of the window's arrivals: those who got ``welcome``, then ``seeking``)
        "seeking": 0,
        "seated": 0,
        "takeovers": 0,
        "errors": 0,
        "failed": 0,
        "error_codes": {},
        "reused": 0,
        "wait": [],
    }
    rng = random.Random(seed)
    cpu_at: list[float] = []

    tasks: list[asyncio.Task[None]] = []

    async def ahead() -> None:
        """``connected``: the window's arrivals (the same Poisson stream's), each connected from this
        process's start at CONNECT_RATE a second, with the last tokens (the warm-up takes the first)."""
        draws, t, times = random.Random(seed), start, []
        while True:
            t += draws.expovariate(rate)
            if t >= window[1]:
                break
            if t >= window[0]:
                times.append(t)
        stats["arrived"] += len(times)
        begun = time.time()  # (at once: beside the people's arrivals, before the warm-up)
        for j, at in enumerate(times):
            await asyncio.sleep(max(0.0, begun + j / CONNECT_RATE - time.time()))
            token = tokens[len(tokens) - 1 - j % len(tokens)]
            tasks.append(asyncio.create_task(one_seeker(port, token, True, stats, at)))

    async def arrivals() -> None:
        if connected:
            tasks.append(asyncio.create_task(ahead()))
        await asyncio.sleep(max(0.0, start - time.time()))
        due = time.time()
        k = 0
        while True:
            due += rng.expovariate(rate)
            await asyncio.sleep(max(0.0, due - time.time()))
            now = time.time()
            if now >= window[1]:
                break
            if not cpu_at and now >= window[0]:
                cpu_at.append(time.process_time())
            in_window = window[0] <= now
            if connected and in_window:  # (connected ahead: he is on his way already)
                k += 1
                continue
            stats["arrived"] += in_window
            stats["reused"] += k >= len(tokens)
            tasks.append(asyncio.create_task(one_seeker(port, tokens[k % len(tokens)], in_window, stats)))
            k += 1
        cpu_at.append(time.process_time())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), GRACE)

    asyncio.run(arrivals())
    stats["cpu"] = cpu_at[-1] - cpu_at[0] if len(cpu_at) == 2 else 0.0
    out.put(stats)
