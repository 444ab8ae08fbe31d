"""A load generator's event loop wakes at most once a tick (``benchmarks/load.py``'s
``wake_once_a_tick``), and what arrives meanwhile is all read at the next wake."""

from __future__ import annotations

import asyncio
import socket
import threading
import time

import uvloop

from tests.benchmark_scripts import load_script

load = load_script("load.py")


async def turns_of_the_loop(seconds: float) -> int:
    """How many turns the running loop takes in ``seconds`` (a callback that runs once a turn)."""
    loop = asyncio.get_running_loop()
    turns = 0
    counting = True

    def turn() -> None:
        nonlocal turns
        if counting:
            turns += 1
            loop.call_soon(turn)

    loop.call_soon(turn)
    await asyncio.sleep(seconds)
    counting = False
    return turns


def test_the_loop_turns_at_most_once_a_tick() -> None:
    tick = 0.02

    async def main() -> tuple[int, int, float]:
        free = await turns_of_the_loop(0.1)
        ticks = asyncio.create_task(load.wake_once_a_tick(tick))
        began = time.monotonic()
        held = await turns_of_the_loop(0.2)
        elapsed = time.monotonic() - began
        ticks.cancel()
        return free, held, elapsed

    free, held, elapsed = uvloop.run(main())
    assert 2 <= held <= elapsed / tick + 2
    assert free > 10 * (0.1 / tick)  # (without the ticks the loop turns as fast as it can)


class Reader(asyncio.Protocol):
    def __init__(self, expected: int) -> None:
        self.data = bytearray()
        self.reads = 0
        self.expected = expected
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def data_received(self, data: bytes) -> None:
        self.reads += 1
        self.data += data
        if len(self.data) >= self.expected and not self.done.done():
            self.done.set_result(None)


def test_what_arrives_between_two_wakes_is_read_at_the_next_all_of_it() -> None:
    tick, messages = 0.02, 60
    mine, theirs = socket.socketpair()

    def write() -> None:
        for k in range(messages):
            theirs.sendall(b"%04d" % k)
            time.sleep(0.002)

    async def main() -> tuple[Reader, float]:
        loop = asyncio.get_running_loop()
        reader = Reader(4 * messages)
        transport, _ = await loop.connect_accepted_socket(lambda: reader, mine)
        ticks = asyncio.create_task(load.wake_once_a_tick(tick))
        began = time.monotonic()
        writer = threading.Thread(target=write)
        writer.start()
        await asyncio.wait_for(reader.done, 10)
        elapsed = time.monotonic() - began
        ticks.cancel()
        writer.join()
        transport.close()  # (uvloop's close of the loop waits for its transports)
        await asyncio.sleep(0)
        return reader, elapsed

    try:
        reader, elapsed = uvloop.run(main())
    finally:
        mine.close()
        theirs.close()
    assert bytes(reader.data) == b"".join(b"%04d" % k for k in range(messages))
    assert reader.reads <= elapsed / tick + 2 < messages
