"""An event's standings pushed at once when they change, then at most once a
:data:`~cardhall.server.events.service.PUSH_SPACING` per event, the newest: a thousand tables ending in
a second give a follower four frames, each with everything so far."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from itertools import pairwise
from types import SimpleNamespace
from typing import Any

import msgspec
import pytest

from cardhall.server.events.service import PUSH_SPACING, EventsService
from cardhall.server.protocol import EventFrame
from cardhall.store.events import EventRow

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Bus:
    def __init__(self) -> None:
        self.published: list[tuple[float, EventFrame]] = []

    async def publish(self, channel: str, data: bytes) -> None:
        self.published.append((time.monotonic(), msgspec.json.decode(data, type=EventFrame)))


def frame(event: str, tables: int) -> EventFrame:
    return EventFrame(event=event, status="running", round=None, standings=[{"tables": tables}], tables=[])


async def test_frames_go_at_once_then_one_per_spacing_carrying_the_newest() -> None:
    bus = Bus()
    ctx: Any = SimpleNamespace(hall_options=SimpleNamespace(name="here", bus=bus))
    service = EventsService(ctx)
    arena = EventRow("a", "arena", "hokm", {}, datetime.now(UTC))
    other = EventRow("b", "arena", "hokm", {}, datetime.now(UTC))
    start = time.monotonic()
    await service.changed(arena, frame("a", 1))
    assert [f.standings for _, f in bus.published] == [[{"tables": 1}]]  # (the first: at once)
    for n in range(2, 40):  # (tables ending every few milliseconds)
        await service.changed(arena, frame("a", n))
        await asyncio.sleep(0.01)
    await service.changed(other, frame("b", 1))  # (another event's own spacing)
    assert bus.published[-1][1].event == "b"
    await asyncio.sleep(2 * PUSH_SPACING)
    ours = [(at, f.standings[0]["tables"]) for at, f in bus.published if f.event == "a"]
    assert ours[-1][1] == 39  # (the newest went out: nothing is lost, only frames in between)
    assert len(ours) <= 2 + (time.monotonic() - start) / PUSH_SPACING
    assert all(b - a >= PUSH_SPACING * 0.95 for (a, _), (b, _) in pairwise(ours))
    assert service.pushed == len(bus.published)
    await service.stop()


async def test_a_frame_given_as_a_maker_is_made_only_when_it_goes_out() -> None:
    # (an arena's standings cost milliseconds at 1,000 people: made per frame published, not per table)
    bus = Bus()
    ctx: Any = SimpleNamespace(hall_options=SimpleNamespace(name="here", bus=bus))
    service = EventsService(ctx)
    arena = EventRow("a", "arena", "hokm", {}, datetime.now(UTC))
    made: list[int] = []
    state = {"tables": 0}

    def maker() -> EventFrame:
        made.append(state["tables"])
        return frame("a", state["tables"])

    for n in range(1, 21):
        state["tables"] = n
        await service.changed(arena, maker)
    await asyncio.sleep(1.5 * PUSH_SPACING)
    assert made == [1, 20]  # (the first at once; the rest in one frame, made with the state then)
    assert [f.standings[0]["tables"] for _, f in bus.published] == [1, 20]
    await service.stop()
