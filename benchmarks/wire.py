"""What the wire costs: for each game, the bytes one seat's connection receives per deal and the server's
CPU per action, with clients that offer permessage-deflate and ask for deltas (as the page does), that
offer permessage-deflate alone (an older page), and that offer neither (the load generators, old
clients), measured back to back.

    .venv/bin/python benchmarks/wire.py [--games hokm,hearts,gin,kierki,svara] [--deals 2] [--rounds 3]
        [--before-src DIR] [--json]

Each round plays, for each game and each client kind in turn, one table whose seats are all people (this
process, over websockets' asyncio client), each acting on the newest frame that offers it a choice (a
random legal action) after ``THINK``, until ``--deals`` deals are scored. A seat's bytes are what its
socket received (headers, frames and all) from its join until then, divided by the deals; the server's
CPU is its process's user and system time (``/proc``) over the same stretch, divided by the actions the
table applied, less what the server spends idle over the same time (measured at its start): ``--tables``
tables are played at once in each measure, so that a measure is many clock ticks. Each kind of run has a
server of its own (so each one's store grows alike), all started at once and measured in turn in each
round, in a new order each round (the machine is shared: a burst of other work falls on each kind
alike). A client that asks for deltas reads the frames' ``n``, ``legal`` and events as the others do, so
it puts no observation back together (the server's work is the same). ``--before-src DIR`` adds a server
running the package found in ``DIR`` (an older version: ``git worktree add``), played by clients that
offer compression, so before and after are measured back to back. The figures are medians over the
rounds. ``--memory N`` measures instead the server's resident memory per connection, N connections with
and without compression.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

import load  # run as a script: benchmarks/ is on the path

GAMES = ["hokm", "hearts", "gin", "kierki", "svara"]
SPACING = 0.06  # seconds between one seat's actions (the server's rate on a connection: 20 a second)
# Seconds a seat takes to act on a frame: the tables' pace is set here, not by how fast this process
# reads (compressed frames cost it more), so both kinds of run last alike and what the server spends
# for the time itself (its timers, the store's thread) is the same in both.
THINK = 0.02
SETTINGS = {"turn_seconds": 0, "away_seconds": 3600, "bot_pace_ms": 0}


class Counted(ClientConnection):
    """websockets' client connection, counting the bytes its socket received."""

    received = 0

    def data_received(self, data: bytes) -> None:
        self.received += len(data)
        super().data_received(data)


@dataclass
class Seat:
    """One person at the table: his connection and what he read."""

    ws: Counted
    seat: int
    rng: random.Random
    newest: int = -1
    acted: int = -1
    scored: int = 0  # deal_scored events seen
    actions: int = 0  # action events seen
    errors: int = 0  # actions refused
    sent = 0.0  # when it last acted
    frames: int = 0
    texts: list[str] = field(default_factory=list)  # (kept when asked: a look at the frames)


async def play_seat(s: Seat, table: str, deals: int, done: asyncio.Event, keep: bool) -> None:
    """Read frames and act on the newest that offers a choice, until ``deals`` deals are scored (by
    this seat's count) or another seat's count ends the run."""
    legal: list[Any] = []
    async for text in s.ws:
        assert isinstance(text, str)
        s.frames += 1
        if keep:
            s.texts.append(text)
        frame = json.loads(text)
        if frame["type"] == "error":  # (an action gone stale under another's: act again on the newest)
            s.errors += 1
            if frame["code"] == "rate_limited":  # (lost: act again on the newest frame)
                s.acted = -1
            if s.errors > 1000:
                raise RuntimeError(f"the server refuses every action: {frame}")
        elif frame.get("table") != table or frame["type"] not in ("table", "update"):
            continue
        else:
            for e in frame.get("events", ()):
                if e["type"] == "deal_scored":
                    s.scored += 1
                elif e["type"] == "action":
                    s.actions += 1
            if s.scored >= deals or frame.get("status") in ("finished", "abandoned"):
                done.set()
                return
            if frame["n"] >= s.newest:
                s.newest = frame["n"]
                legal = frame["legal"] if frame.get("status") == "playing" else []
        if legal and s.acted < s.newest:
            # A seat thinks THINK seconds, and paces itself under the server's rate on a connection.
            await asyncio.sleep(max(THINK, s.sent + SPACING - time.monotonic()))
            s.sent = time.monotonic()
            action = s.rng.choice(legal)["action"]
            s.acted = s.newest
            act = {"type": "act", "table": table, "action": action, "n": s.newest, "id": s.newest}
            await s.ws.send(json.dumps(act))


@dataclass
class Table:
    """A table whose every seat is a person of this process, all joined but the first's frames unread."""

    id: str
    people: list[Seat]
    received0: int  # what its first seat had received before its join


CLIENTS = ("plain", "deflate", "deltas")  # offers nothing; permessage-deflate; and asks for deltas too


async def seated(port: int, game: str, client: str, seed: int) -> Table:
    """A table of ``game`` with every seat a person; the others' joins are sent by :func:`play`."""
    token = load.http(port, "POST", "/api/players", {"name": "w0"})["token"]
    body = {"game": game, "settings": SETTINGS, "bots": {}}
    table = load.http(port, "POST", "/api/tables", body, token)["table"]
    people: list[Seat] = []
    seats, received0 = 1, 0  # (until the table's frame says how many)
    while len(people) < seats:
        k = len(people)
        if k:
            token = load.http(port, "POST", "/api/players", {"name": f"w{k}"})["token"]
        ws = await connect(
            f"ws://127.0.0.1:{port}/ws",
            compression=None if client == "plain" else "deflate",
            create_connection=Counted,
            max_size=2**22,
            ping_interval=None,
        )
        assert isinstance(ws, Counted)
        hello = {"type": "hello", "token": token} | ({"deltas": True} if client == "deltas" else {})
        await ws.send(json.dumps(hello))  # (an older server knows no deltas, and refuses the key)
        assert json.loads(await ws.recv())["type"] == "welcome"
        people.append(Seat(ws, k, random.Random(seed * 100 + k)))
        if not k:  # (the first seat's join is counted: the table's frame is part of what it receives)
            received0 = ws.received
            await ws.send(json.dumps({"type": "join", "table": table, "seat": 0}))
            first = json.loads(await ws.recv())
            assert first["type"] == "table", first
            seats = len(first["seats"])
    return Table(table, people, received0)


async def play(tables: list[Table], deals: int, keep: bool = False) -> None:
    """Play ``tables`` at once until each has scored ``deals`` deals; then close their connections."""
    dones, tasks = [], []
    for t in tables:
        done = asyncio.Event()
        dones.append(done)
        for s in t.people[1:]:
            await s.ws.send(json.dumps({"type": "join", "table": t.id, "seat": s.seat}))
        for s in t.people:
            tasks.append(asyncio.create_task(play_seat(s, t.id, deals, done, keep and s.seat == 0)))
    await asyncio.wait_for(asyncio.gather(*(d.wait() for d in dones)), 900)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def measure(
    port: int, pid: int, idle: float, game: str, deals: int, client: str, seed: int, tables: int
) -> dict[str, Any]:
    """``tables`` tables of ``game`` played at once: the first seat's bytes per deal (the median of the
    tables), and the server's CPU per action (its CPU less what it spends idle, ``idle`` CPU seconds a
    second, over the same time)."""
    seated_tables = [await seated(port, game, client, seed * 1000 + k) for k in range(tables)]
    cpu0, wall0 = load.cpu_seconds(pid), time.monotonic()
    await play(seated_tables, deals)
    cpu, wall = load.cpu_seconds(pid) - cpu0, time.monotonic() - wall0
    firsts = [t.people[0] for t in seated_tables]
    actions = sum(s.actions for s in firsts)
    per_deal = [
        (s.ws.received - t.received0) / max(s.scored, 1) for s, t in zip(firsts, seated_tables, strict=True)
    ]
    frames = [s.frames / max(s.scored, 1) for s in firsts]
    response = firsts[0].ws.response
    extensions = response.headers.get("Sec-WebSocket-Extensions") if response is not None else None
    for t in seated_tables:
        for s in t.people:
            await s.ws.close()
    return {
        "game": game,
        "compressed": bool(extensions),
        "deals": sum(s.scored for s in firsts),
        "actions": actions,
        "frames_per_deal": statistics.median(frames),
        "bytes_per_deal": statistics.median(per_deal),
        "cpu_us_per_action": 1e6 * max(cpu - idle * wall, 0.0) / max(actions, 1),
    }


def rss(pid: int) -> int:
    """A process's resident memory in bytes (Linux /proc)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


async def memory(connections: int, compress: bool) -> float:
    """Bytes of the server's resident memory per connection that said hello and read its welcome
    (a fresh server, so what earlier connections left behind counts nothing)."""
    process, port, _ = start(None)
    try:
        tokens = [load.http(port, "POST", "/api/players", {"name": f"m{k}"})["token"] for k in range(32)]
        held = [await connect(f"ws://127.0.0.1:{port}/ws", compression="deflate") for _ in range(8)]
        for ws in held:  # (the first connections' one-time costs are not counted)
            await ws.close()
        before = rss(process.pid)
        opened = []
        for k in range(connections):
            ws = await connect(
                f"ws://127.0.0.1:{port}/ws", compression="deflate" if compress else None, ping_interval=None
            )
            await ws.send(json.dumps({"type": "hello", "token": tokens[k % len(tokens)]}))
            await ws.recv()
            await ws.send(json.dumps({"type": "ping", "id": 1}))
            await ws.recv()
            opened.append(ws)
        per = (rss(process.pid) - before) / connections
        for ws in opened:
            await ws.close()
        return per
    finally:
        process.kill()
        process.wait()


def idle_rate(pid: int, seconds: float = 3.0) -> float:
    """CPU seconds a second the server spends with nothing to do (its timers, its housekeeping)."""
    cpu0, wall0 = load.cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    return (load.cpu_seconds(pid) - cpu0) / (time.monotonic() - wall0)


def start(src: str | None) -> tuple[Any, int, str]:
    """A ``cardhall serve`` on a fresh SQLite file (running the package in ``src``, if given)."""
    port = load.free_port()
    db = f"sqlite+aiosqlite:///{tempfile.mkdtemp()}/wire.db"
    env = {"PYTHONPATH": src} if src else None
    return load.start_server(port, db, env=env), port, db


async def run(
    games: list[str], deals: int, rounds: int, tables: int, before_src: str | None
) -> list[dict[str, Any]]:
    # One server for each kind of run, so that each one's store grows alike.
    kinds = [("after", c) for c in CLIENTS] + ([("before", "deflate")] if before_src else [])
    servers = {kind: start(before_src if kind[0] == "before" else None) for kind in kinds}
    rows: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    order = random.Random(48)
    try:
        idle = {kind: idle_rate(process.pid) for kind, (process, _, _) in servers.items()}
        for r in range(rounds):
            for game in games:
                for label, client in order.sample(kinds, len(kinds)):
                    process, port, _ = servers[label, client]
                    row = await measure(
                        port, process.pid, idle[label, client], game, deals, client, r, tables
                    )
                    rows.setdefault((game, label, client), []).append(row)
    finally:
        for process, _, _ in servers.values():
            process.kill()
            process.wait()
    out = []
    for (game, label, client), runs in sorted(
        rows.items(), key=lambda kv: (games.index(kv[0][0]), kv[0][1], CLIENTS.index(kv[0][2]))
    ):
        out.append(
            {
                "game": game,
                "server": label,
                "client": client,
                "compressed": runs[0]["compressed"],
                "rounds": len(runs),
                "deals": sum(r["deals"] for r in runs),
                "actions": sum(r["actions"] for r in runs),
                "frames_per_deal": round(statistics.median(r["frames_per_deal"] for r in runs), 1),
                "bytes_per_deal": round(statistics.median(r["bytes_per_deal"] for r in runs)),
                "cpu_us_per_action": round(statistics.median(r["cpu_us_per_action"] for r in runs)),
                "cpu_us_runs": [round(r["cpu_us_per_action"]) for r in runs],
            }
        )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--deals", type=int, default=2, help="deals scored per table")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tables", type=int, default=4, help="tables played at once in each measure")
    parser.add_argument("--before-src", help="a second server's package directory (an older version)")
    parser.add_argument("--memory", type=int, default=0, help="connections: measure memory per connection")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    started = time.monotonic()
    if args.memory:
        for compress in (False, True, False, True):
            per = asyncio.run(memory(args.memory, compress))
            print(
                f"{'deflate' if compress else 'plain':8} {per / 1024:6.1f} KiB of the server per connection"
            )
        return 0
    rows = asyncio.run(run(args.games.split(","), args.deals, args.rounds, args.tables, args.before_src))
    if args.json:
        print(json.dumps(rows))
        return 0
    print(
        f"{'game':8} {'server':7} {'client':8} {'frames/deal':>11} {'bytes/deal':>11} {'cpu us/action':>13}"
    )
    for row in rows:
        client = row["client"] if row["compressed"] or row["client"] == "plain" else "offered"
        print(
            f"{row['game']:8} {row['server']:7} {client:8} {row['frames_per_deal']:>11} "
            f"{row['bytes_per_deal']:>11} {row['cpu_us_per_action']:>13}  {row['cpu_us_runs']}"
        )
    print(f"({time.monotonic() - started:.0f} s; {os.cpu_count()} cores; {sys.version.split()[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
