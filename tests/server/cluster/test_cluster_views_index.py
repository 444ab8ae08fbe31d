"""The seated index a process publishes at its beat (:class:`cardhall.server.cluster.views.HallViews`)
is each table's entries as they are now: through moves (whose number and turn change while the
summary's JSON is kept from the beat before), a person leaving (his seat no longer connected, a
stand-in playing it) and coming back. In-process, on the beat's own event loop; the processes of a
real hall are in ``test_cluster_views.py``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any, cast

from cardhall.server.cluster.directory import Directory
from cardhall.server.cluster.views import HallViews, entry, people
from cardhall.server.context import ServerContext
from tests.server_helpers import new_player, new_table, server, session

GAME = "hokm"


def test_the_seated_index_follows_moves_connections_and_stand_ins() -> None:
    with server() as client:
        ann = new_player(client, "Ann")
        # (bots at a pace: the stand-in must not finish the match before the index is looked at)
        table = new_table(client, ann, GAME, {1: "normal", 2: "normal"}, away_seconds=1, bot_pace_ms=100)
        ctx = cast(ServerContext, client.app.state.ctx)  # type: ignore[attr-defined]
        # (no directory: the index is made, not published)
        views = HallViews(ctx, "n0", cast(Directory, None), None)
        beats: list[dict[str, Any]] = []

        async def beat() -> dict[str, Any]:
            """One beat's index beside the entries made from scratch now (on the server's loop)."""
            host = ctx.lobby.hosts[table]
            while True:  # (the index yields to the loop: a bot that moved meanwhile makes the beat again)
                before = host.number
                texts, _ = await views.index([host])
                made = {player: [entry(host, seat)] for player, seat in people(host).items()}
                if host.number == before:
                    break
            shown = {str(player): json.loads(text) for player, text in texts.items()}
            beats.append(shown)
            return {"shown": shown, "fresh": json.loads(json.dumps(made)), "number": host.number}

        def check() -> dict[str, Any]:
            now = cast(dict[str, Any], client.portal.call(beat))  # type: ignore[attr-defined]
            assert now["shown"] == now["fresh"]
            return now

        with session(client, ann) as s:
            s.send(type="join", table=table, seat=0)
            numbers = []
            for _ in range(6):  # six of Ann's moves, the bots' between them
                frame = s.wait(lambda f: f["type"] in ("table", "update") and bool(f.get("legal")))
                numbers.append(check()["number"])
                s.send(type="act", table=table, action=frame["legal"][0]["label"], n=frame["n"])
            assert len(set(numbers)) == 6  # (each beat saw a table that had moved on)
            (ann_seat,) = beats[-1].values()
            assert ann_seat[0]["seats"][0]["connected"] is True
        # Ann is gone: her seat is not connected at once, and a second later a stand-in plays it (the
        # beats meanwhile see the one change, then the other).
        deadline = time.monotonic() + 30
        while True:
            now = check()
            (shown,) = now["shown"].values()
            if shown[0]["seats"][0]["stand_in"] is not None or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert shown[0]["seats"][0]["connected"] is False
        assert shown[0]["seats"][0]["stand_in"] is not None
        with session(client, ann) as s:  # back: connected, and the seat is his again
            s.send(type="join", table=table, seat=0)
            s.wait(lambda f: f["type"] == "table")
            (shown,) = check()["shown"].values()
            assert shown[0]["seats"][0]["connected"] is True


def test_the_beat_makes_the_index_a_slice_at_a_time_and_the_same_as_in_one_go() -> None:
    with server() as client:
        ctx = cast(ServerContext, client.app.state.ctx)  # type: ignore[attr-defined]
        with contextlib.ExitStack() as stack:
            for name in ("Ann", "Bob", "Cy"):  # each seated at a table of his own
                player = new_player(client, name)
                table = new_table(client, player, GAME, {1: "normal", 2: "normal"}, bot_pace_ms=100)
                s = stack.enter_context(session(client, player))
                s.send(type="join", table=table, seat=0)
                s.wait(lambda f: f["type"] == "table")
            whole, sliced, served = client.portal.call(_both_ways, ctx)  # type: ignore[attr-defined]
        assert sliced == whole
        assert len(whole[0]) == 3  # (each person's entry at his table)
        assert served >= 5  # three slices of tables, then three of entries, the loop served after each


async def _both_ways(ctx: ServerContext) -> tuple[Any, Any, int]:
    """The index of every table made in one go (one slice), and a slice (one table) at a time by a
    fresh :class:`HallViews`, with how many turns of the loop another task had meanwhile."""
    hosts = list(ctx.lobby.hosts.values())
    assert len(hosts) == 3
    whole = await HallViews(ctx, "n0", cast(Directory, None), None).index(hosts, size=len(hosts))
    served = 0

    async def other() -> None:
        nonlocal served
        while True:
            await asyncio.sleep(0)
            served += 1

    task = asyncio.create_task(other())
    await asyncio.sleep(0)
    sliced = await HallViews(ctx, "n0", cast(Directory, None), None).index(hosts, size=1)
    task.cancel()
    return whole, sliced, served
