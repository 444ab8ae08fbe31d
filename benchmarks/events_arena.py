"""An arena under load: N scripted people in one Hokm arena on one ``cardhall serve`` process, through
real websockets, with persistence on (issue 50).

    .venv/bin/python benchmarks/events_arena.py [--players 1000] [--minutes 3] [--followers 20] [--json]
        [--hall N [--hall-warmup 20] [--hall-seconds 60]]
        [--servers N --db postgresql+asyncpg://... --redis redis://...]

A fresh server (its own process, a fresh SQLite file, no rates) gets N guests signed up to one public
arena of Hokm (1 deal a match) made through the operator's route; the arena starts a few seconds after
the last has signed up and connected. Each person says hello, and whenever the event seats him
(``seated`` with the event) joins the table and plays it: he thinks 0.5-1.5 s (uniform) whenever his
newest frame offers legal actions, then sends a random legal one quoting that frame's number. Besides
them, ``--followers`` connections of people not in the event follow it (``follow_event``: an event
page open), receiving the standings the director pushes.

``--hall N`` adds the hall's other tables: ``load.py``'s workload (a), N people four at each Hearts table
(no bots), in a load-generating process of their own, their action latency (from sending an action to
the frame showing it applied) measured over ``--hall-seconds`` from ``--hall-warmup`` seconds after the
arena's start; with ``--players 0`` the same tables and window alone, without an arena (the baseline,
run back to back). ``--servers N`` (N > 1, on PostgreSQL and Redis) starts N processes: person k and
follower k connect to process k mod N, the HTTP API is the first's; whichever process claims the event
directs it and makes its tables, so the people of the others play through another process than their
table's owner.

Measured:

- **seat-again wait**: from a person's frame showing his table finished to his next ``seated`` (tables
  ending in the last 10 s of the arena, when nobody is seated again, are left out), p50/p90/p99/max;
- **standings pushed**: from a person's frame showing his table finished to the first ``event`` frame
  at a follower whose standings count that table for him (``tables``), p50/p99/max;
- the tables played, the person actions a second, the server's CPU and the load generator's (per
  cent of one core, from the event's creation to its end: both share the machine's cores) and the
  largest ``event`` frame (bytes).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import random
import subprocess
import sys
import tempfile
import time
import urllib.error
from pathlib import Path
from typing import Any

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load
from cardhall.loadclient import open_async
from load import cpu_seconds, free_port, http

ADMIN = "events-arena-benchmark-token"


class _Line(msgspec.Struct):
    player: int
    tables: int


class _EventFrame(msgspec.Struct):
    """What a follower reads of a frame (msgspec skips the rest: a standings frame of 1,000 people is
    200 KB, read by every follower at every push, in the one process of the load generator)."""

    type: str
    status: str | None = None
    standings: list[_Line] = msgspec.field(default_factory=list)


_READ_EVENT = msgspec.json.Decoder(_EventFrame)


def quantiles(values: list[float]) -> dict[str, float | int]:
    if not values:
        return {"n": 0}
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)

    return {"n": len(values), "p50_ms": at(0.5), "p90_ms": at(0.9), "p99_ms": at(0.99), "max_ms": at(1.0)}


class Person:
    def __init__(self, token: str, player: int, rng: random.Random) -> None:
        self.token, self.player, self.rng = token, player, rng
        self.ended: list[tuple[float, int]] = []  # (when his table ended, his finished tables then)
        self.waits: list[float] = []
        self.actions = 0
        self.table: str | None = None

    async def run(self, port: int, event: str, stop: asyncio.Event) -> None:
        async with open_async(port) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            newest = -1
            pending: asyncio.Task[None] | None = None

            async def act(frame: dict[str, Any]) -> None:
                await asyncio.sleep(self.rng.uniform(0.5, 1.5))
                if frame["n"] != newest or self.table != frame["table"]:
                    return
                choice = self.rng.choice(frame["legal"])
                message = {"type": "act", "table": frame["table"], "action": choice["label"], "n": frame["n"]}
                await ws.send(json.dumps(message))
                self.actions += 1

            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), 1.0)
                except TimeoutError:
                    continue
                at = time.monotonic()
                frame = msgspec.json.decode(text)
                kind = frame["type"]
                if kind == "seated" and frame.get("event") == event:
                    if self.ended:
                        self.waits.append(at - self.ended[-1][0])
                    self.table, newest = frame["table"], -1
                    await ws.send(json.dumps({"type": "join", "table": frame["table"]}))
                elif kind in ("table", "update") and frame.get("table") == self.table:
                    newest = max(newest, frame["n"])
                    if frame["status"] == "finished":
                        self.ended.append((at, len(self.ended) + 1))
                        self.table = None
                    elif frame["legal"] and frame["n"] == newest:
                        if pending is not None:
                            pending.cancel()
                        pending = asyncio.create_task(act(frame))


async def follower(
    port: int,
    token: str,
    event: str,
    seen: list[tuple[float, dict[int, int]]],
    sizes: list[int],
    stop: asyncio.Event,
    over: asyncio.Event,
) -> None:
    async with open_async(port) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await ws.send(json.dumps({"type": "follow_event", "event": event}))
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            frame = _READ_EVENT.decode(text)
            if frame.type == "event":
                if frame.status in ("finished", "cancelled"):
                    over.set()
                sizes.append(len(text))
                seen.append((time.monotonic(), {s.player: s.tables for s in frame.standings}))


def start_hall(args: argparse.Namespace, port: int, lead: float) -> tuple[Any, Any, tuple[float, float]]:
    """The hall's other tables (``--hall``): load.py's workload (a), four people at each Hearts table,
    in a load-generating process of their own, measured over a window inside the arena's time."""
    people = [(table, seat, token, 0) for table, seat, token in load.make_tables([port], args.hall, "a")]
    begins = time.time() + lead + args.hall_warmup
    window = (begins, begins + args.hall_seconds)
    context = multiprocessing.get_context("spawn")
    queue: Any = context.Queue()
    process = context.Process(target=load.client_process, args=([port], people, load.ARRIVALS, window, queue))
    process.start()
    return process, queue, window


def hall_figures(args: argparse.Namespace, queue: Any, process: Any) -> dict[str, Any]:
    stats = queue.get(timeout=300)
    process.join(timeout=60)
    return {
        "hall_people": args.hall,
        "hall_latency": quantiles(stats["latency"]),
        "hall_actions_per_s": round(stats["actions"] / args.hall_seconds, 1),
        "hall_errors": stats["errors"],
    }


def cpu_of(pids: list[int]) -> float:
    return sum(cpu_seconds(pid) for pid in pids)


async def run(args: argparse.Namespace, ports: list[int], pids: list[int]) -> dict[str, Any]:
    port = ports[0]  # (the HTTP API's: any process's would do)
    rng = random.Random(args.seed)
    people = []
    for i in range(args.players):
        made = http(port, "POST", "/api/players", {"name": f"P{i}"})
        people.append(Person(made["token"], made["id"], random.Random(rng.random())))
    watchers = [http(port, "POST", "/api/players", {"name": f"W{i}"})["token"] for i in range(args.followers)]
    lead = 5.0 + args.players / 200  # seconds for everyone to sign up and connect
    hall: dict[str, Any] = {}
    if args.hall:
        process, queue, window = start_hall(args, port, lead)
        if not args.players:  # (the hall's tables alone: the same window, no arena)
            cpu0, t0 = cpu_of(pids), time.monotonic()
            await asyncio.sleep(window[1] - time.time())
            cpu = cpu_of(pids) - cpu0
            return {
                **hall_figures(args, queue, process),
                "players": 0,
                "server_cpu_pct": round(100 * cpu / (time.monotonic() - t0), 1),
            }
    body = {"kind": "arena", "game": "hokm", "minutes": args.minutes, "deals": 1, "starts_in": lead}
    event = http(port, "POST", "/api/admin/events", body, ADMIN)["id"]
    for p in people:
        http(port, "POST", f"/api/events/{event}/join", {}, p.token)
    stop = asyncio.Event()
    seen: list[tuple[float, dict[int, int]]] = []
    sizes: list[int] = []
    # (person k and follower k connect to process k mod N: people on either, the director on one)
    tasks = [asyncio.create_task(p.run(ports[k % len(ports)], event, stop)) for k, p in enumerate(people)]
    over = asyncio.Event()
    tasks += [
        asyncio.create_task(follower(ports[k % len(ports)], w, event, seen, sizes, stop, over))
        for k, w in enumerate(watchers)
    ]
    cpu0, mine0, t0 = cpu_of(pids), time.process_time(), time.monotonic()
    deadline = t0 + lead + args.minutes * 60 + 120
    status = "running"
    while time.monotonic() < deadline and status != "finished":
        # (the followers hear the end; asked now and then too, off the loop the people read on)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(over.wait(), 5.0)
        try:
            shown = await asyncio.to_thread(http, port, "GET", f"/api/events/{event}")
            status = shown["status"]
        except urllib.error.HTTPError as e:
            print(f"GET the event: {e.code} {e.read()[:300]!r}", file=sys.stderr)
    elapsed = time.monotonic() - t0
    cpu = cpu_of(pids) - cpu0
    if args.hall:
        hall = await asyncio.to_thread(hall_figures, args, queue, process)
    mine = time.process_time() - mine0
    await asyncio.sleep(1.0)  # (the last standings' frames)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    arena_end = t0 + lead + args.minutes * 60
    waits = [w for p in people for w, (end, _) in zip(p.waits, p.ended, strict=False) if end < arena_end - 10]
    pushed = []
    for p in people:
        for end, count in p.ended:
            later = next((at for at, tables in seen if at >= end and tables.get(p.player, 0) >= count), None)
            if later is not None:
                pushed.append(later - end)
    return {
        "players": args.players,
        "servers": args.servers,
        "minutes": args.minutes,
        "followers": args.followers,
        "status": status,
        "tables_played": sum(len(p.ended) for p in people),
        "seat_again_wait": quantiles(waits),
        "standings_pushed": quantiles(pushed),
        "unpushed": sum(len(p.ended) for p in people) - len(pushed) if watchers else None,
        "person_actions_per_s": round(sum(p.actions for p in people) / elapsed, 1),
        "server_cpu_pct": round(100 * cpu / elapsed, 1),
        "generator_cpu_pct": round(100 * mine / elapsed, 1),
        "largest_event_frame_bytes": max(sizes, default=0),
        **hall,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--followers", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hall", type=int, default=0, help="people at the hall's other tables (4 a table)")
    parser.add_argument("--hall-warmup", type=float, default=20, help="seconds after the arena's start")
    parser.add_argument("--hall-seconds", type=float, default=60, help="the hall's tables' window")
    parser.add_argument("--servers", type=int, default=1, help="server processes (N > 1: --db, --redis)")
    parser.add_argument("--db", default="", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--redis", default="", help="the hall's Redis (redis://host:port/0), --servers N > 1")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.servers > 1 and not (args.db.startswith("postgresql") and args.redis):
        parser.error("--servers N > 1 needs --db postgresql+asyncpg://... and --redis redis://...")
    ports = [free_port() for _ in range(args.servers)]
    with tempfile.TemporaryDirectory() as tmp:
        token_file = Path(tmp) / "admin"
        token_file.write_text(ADMIN + "\n")
        db = args.db or f"sqlite+aiosqlite:///{tmp}/hall.db"
        if db.startswith("postgresql"):
            db = load.fresh_database(db)
        if args.redis:
            import redis as redis_client

            redis_client.Redis.from_url(args.redis).flushdb()
        servers: list[subprocess.Popen[bytes]] = []
        try:
            for port in ports:
                extra = ["--admin-token-file", str(token_file)]
                servers.append(load.start_server(port, db, extra, None, args.redis or None))
            row = asyncio.run(run(args, ports, [s.pid for s in servers]))
        finally:
            for server in servers:
                server.kill()
                server.wait()
    if args.json:
        print(json.dumps([row]))
    else:
        for key, value in row.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
