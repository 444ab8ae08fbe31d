"""The hall's seams in memory (issue 48): the embedded default's one process runs the same views, bus and
directory as a hall of many, with their in-memory implementations
(:class:`~cardhall.server.hall.OneProcessOptions`), and two processes' contexts in one event loop
sharing one :class:`~cardhall.server.cluster.bus.LocalBus` and one
:class:`~cardhall.server.cluster.directory.LocalDirectory` (and one SQLite file, which keeps leases
too) are a hall: the lobby of one lists the other's tables, and a connection on one watches a table
the other owns. The real processes' tests are ``tests/server/cluster/test_cluster*.py``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardhall.server.cluster import ClusterOptions, LocalBus, LocalDirectory
from cardhall.server.cluster.views import HallViews, hall_views
from cardhall.server.context import ServerContext
from cardhall.server.hall import OneProcess, OneProcessOptions
from cardhall.server.presence import MemoryPresence
from cardhall.server.protocol import ServerFrame, Watch, encode
from cardhall.store import PlayerRow, open_store

GAME = "hearts(decks=1,players=4)"
SETTINGS = {"bot_pace_ms": 0, "turn_seconds": 0, "away_seconds": 600}


class Edge:
    """A connection as a process's place in the hall sees it: an id, a player, and what it was sent."""

    def __init__(self, player: PlayerRow) -> None:
        self.id = ""
        self.player = player
        self.address: str | None = None
        self.hosts: dict[str, Any] = {}
        self.frames: list[dict[str, Any]] = []

    def send(self, frame: ServerFrame) -> None:
        self.send_text(encode(frame))

    def send_text(self, text: str) -> None:
        self.frames.append(json.loads(text))


async def until(check: Callable[[], Any], timeout: float = 5.0) -> Any:
    """``check()``'s first true answer within ``timeout`` seconds (a beat is a second)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        found = await check() if asyncio.iscoroutinefunction(check) else check()
        if found or asyncio.get_running_loop().time() > deadline:
            return found
        await asyncio.sleep(0.05)


def test_the_one_process_runs_the_halls_seams_in_memory(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = await open_store(f"sqlite+aiosqlite:///{tmp_path / 'one.db'}")
        ctx = ServerContext(store)
        assert isinstance(ctx.hall_options, OneProcessOptions) and isinstance(ctx.hall, OneProcess)
        assert ctx.node is None and not ctx.fencing  # (its rows name no process; no fence)
        views = hall_views(ctx, ctx.hall_options)
        assert isinstance(views, HallViews) and isinstance(ctx.social.presence, MemoryPresence)
        await ctx.start()
        await views.start()
        try:
            host = await ctx.lobby.create(None, GAME, SETTINGS, bots={1: "rules", 2: "rules", 3: "rules"})
            listed = await views.listing()
            assert [t["table"] for t in listed["open"]] == [host.id] and listed["running"] == []
            await views.beat()  # (its index is not made: nobody else reads it)
            assert ctx.hall_options.directory.alone("local")
            assert await views.seated([1]) == {}
            assert await views.stop_elsewhere("nope", "a test") is None  # (nobody else to ask: at once)
            assert ctx.hall.problems() == [] and await ctx.hall.elsewhere(host.id) is None
        finally:
            await views.stop()
            await ctx.stop()

    asyncio.run(scenario())


def test_two_processes_in_one_loop_are_one_hall(tmp_path: Path) -> None:
    async def scenario() -> tuple[list[str], list[dict[str, Any]]]:
        url = f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}"
        bus, directory = LocalBus(), LocalDirectory()
        contexts = []
        for name in ("n0", "n1"):
            contexts.append(ServerContext(await open_store(url), hall=ClusterOptions(bus, directory, name)))
        views = [hall_views(c, c.hall_options) for c in contexts]
        for ctx, view in zip(contexts, views, strict=True):
            await ctx.start()
            await view.start()
        a, b = contexts
        try:
            host = await a.lobby.create(None, GAME, SETTINGS, bots={1: "rules", 2: "rules", 3: "rules"})
            assert host.row.node == "n0" and a.fencing

            async def listed_on_b() -> list[str]:
                return [t["table"] for t in (await views[1].listing())["open"]]

            listed = await until(listed_on_b)  # (at n0's next beat)
            ann, _ = await b.store.create_player("Ann")
            edge = Edge(ann)
            b.hall.opened(edge)
            assert edge.id.startswith("n1:")
            assert await b.hall.forwarded(edge, Watch(table=host.id))  # (to its owner, n0)
            await until(lambda: any(f["type"] == "table" for f in edge.frames))
            b.hall.closed(edge)
            return listed, edge.frames
        finally:
            for ctx, view in zip(contexts, views, strict=True):
                await view.stop()
                await ctx.stop()

    listed, frames = asyncio.run(scenario())
    assert len(listed) == 1, listed
    tables = [f for f in frames if f["type"] == "table"]
    assert tables and tables[0]["table"] == listed[0], frames
