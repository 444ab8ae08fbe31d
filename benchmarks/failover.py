"""Failover of a hall on two processes: how long a dead owner's tables take to accept actions again,
and whether any action a person was acknowledged is lost.

    .venv/bin/python benchmarks/failover.py --db postgresql+asyncpg://... --redis redis://...
        [--rounds 20] [--tables 20] [--mode kill|term] [--json]

Each round: ``--tables`` tables of ``hearts(decks=1,players=4)`` (one person, three ``normal`` bots,
no bot pace) are made on the round's victim, which owns them; their people connect to the other
process (``--people-on survivor``, the default), to the victim itself (``victim``), or half to each
(``both``). They play (each acts 0.05-0.2 s after his turn comes) for two seconds; then the victim gets
SIGKILL (``--mode kill``: its leases run out) or SIGTERM (``--mode term``: a rolling restart's step,
its leases released), and the clock runs until each table shows its person an acknowledged action
(an ``action`` event of his seat) made after that: the time the table took to accept actions again
(bots' moves in between included, at no pace). Beside it, ``seen``: until each person is shown the
next move of his table (any seat's ``action`` event after the last he had), what a person at the table
waits for. A person whose connection dies with the victim connects again to the survivor (as a load
balancer would send him) on the browser page's schedule (``--reconnect-ms``: the waits before each
attempt, today's ``app.js``), and joins with ``since``; a join answered ``table_moved`` is left to the
server, which attaches it once the table is back. The victim is started again for the next round, and
the roles swap. After every round each person's acknowledged actions are looked for, in order, in
his table's stored actions (PostgreSQL): one missing is an action lost.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import statistics
import sys
import time
from typing import Any

import msgspec

from load import free_port, fresh_database, http, raise_open_files, start_server

GAME = "hearts(decks=1,players=4)"
DEBUG = bool(__import__("os").environ.get("FAILOVER_DEBUG"))
SETTINGS = {"turn_seconds": 0, "away_seconds": 3600, "bot_pace_ms": 0}


class Seen(msgspec.Struct):
    type: str
    n: int
    seat: int | None = None
    action: str = ""  # an action event's label


class Choice(msgspec.Struct):
    action: int
    label: str


class Frame(msgspec.Struct):
    type: str
    n: int = -1
    status: str = ""
    legal: list[Choice] = []
    events: list[Seen] = []


class Person:
    def __init__(self, port: int, table: str, token: str, fallback: int, schedule: list[float]) -> None:
        self.port, self.table, self.token = port, table, token
        self.fallback = fallback  # where he connects again if his process dies (the survivor)
        self.schedule = schedule  # seconds to wait before each attempt to connect again
        self.acked: list[tuple[float, int]] = []  # (when, action)
        self.shown: list[tuple[float, int]] = []  # (when, n) of every action event shown to him
        self.sent: tuple[int, int, str] | None = None  # (n quoted, action, its label)
        self.reconnects = 0
        self.last: tuple[str, int, int] = ("", 0, 0)  # the last frame: type, n, legal actions
        self.newest = Frame("none")

    async def run(self, stop: asyncio.Event) -> None:
        from websockets.exceptions import ConnectionClosed

        port, first = self.port, True
        while not stop.is_set():
            try:
                await self._play(port, stop, first)
                return
            except (ConnectionClosed, OSError):
                pass
            first = False
            port = self.fallback
            for wait in [*self.schedule, *[self.schedule[-1]] * 100]:  # (the page tries for ever)
                await asyncio.sleep(wait)
                if stop.is_set():
                    return
                try:
                    await self._play(port, stop, first)
                    return
                except (ConnectionClosed, OSError):
                    self.reconnects += 1

    async def _play(self, port: int, stop: asyncio.Event, first: bool) -> None:
        from websockets.asyncio.client import connect

        decode = msgspec.json.Decoder(Frame).decode
        rng = random.Random(self.table)
        async with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=60) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            join = {"type": "join", "table": self.table, "seat": 0}
            if not first:
                join = {"type": "join", "table": self.table, "since": max(0, self.newest.n)}
            await ws.send(json.dumps(join))
            newest = self.newest
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), 0.2)
                except TimeoutError:
                    text = None
                if text is not None:
                    frame = decode(text)
                    self.last = (frame.type, frame.n, len(frame.legal))
                    now = time.monotonic()
                    seen = self.shown[-1][1] if self.shown else 0
                    self.shown += [(now, e.n) for e in frame.events if e.type == "action" and e.n > seen]
                    if frame.type == "error":
                        self.sent = None
                    elif frame.type in ("table", "update"):
                        if self.sent is not None:
                            for e in frame.events:
                                # His own move, shown: the same label, after the number he quoted.
                                if (
                                    e.type == "action"
                                    and e.seat == 0
                                    and e.n > self.sent[0]
                                    and e.action == self.sent[2]
                                ):
                                    self.acked.append((time.monotonic(), self.sent[1]))
                                    self.sent = None
                                    break
                        if frame.type == "table":
                            self.sent = None  # a full view: a move not in it was lost, not acknowledged
                        if frame.type == "table" or frame.n >= newest.n:
                            newest = self.newest = frame
                if newest.legal and self.sent is None and newest.status == "playing":
                    await asyncio.sleep(rng.uniform(0.05, 0.2))
                    choice = rng.choice(newest.legal)
                    self.sent = (newest.n, choice.action, choice.label)
                    message = {"type": "act", "table": self.table, "action": choice.action, "n": newest.n}
                    await ws.send(json.dumps(message))


async def stored_actions(db: str, tables: list[str]) -> dict[str, list[tuple[int, int]]]:
    import asyncpg  # type: ignore[import-untyped]

    connection = await asyncpg.connect(db.replace("+asyncpg", ""))
    try:
        rows = await connection.fetch(
            "SELECT table_id, seat, action FROM actions WHERE table_id = ANY($1) ORDER BY table_id, number",
            tables,
        )
    finally:
        await connection.close()
    found: dict[str, list[tuple[int, int]]] = {t: [] for t in tables}
    for r in rows:
        found[r["table_id"]].append((r["seat"], r["action"]))
    return found


def lost(acked: list[int], stored: list[tuple[int, int]]) -> int:
    """How many of ``acked`` (in order) are not a subsequence of seat 0's stored actions."""
    mine = iter(a for s, a in stored if s == 0)
    return sum(1 for a in acked if a not in mine)


async def round_(
    ports: list[int],
    victim: int,
    tables_n: int,
    signal_: int,
    db: str,
    servers: list[Any],
    redis: str,
    people_on: str = "survivor",
    schedule: list[float] | None = None,
) -> tuple[list[float], list[float], int]:
    survivor = 1 - victim
    loop = asyncio.get_running_loop()

    def setup() -> list[tuple[str, str]]:
        made = []
        for k in range(tables_n):
            token = http(ports[victim], "POST", "/api/players", {"name": f"p{k}"})["token"]
            body = {"game": GAME, "settings": SETTINGS, "bots": {"1": "normal", "2": "normal", "3": "normal"}}
            made.append((http(ports[victim], "POST", "/api/tables", body, token)["table"], token))
        return made

    made = await loop.run_in_executor(None, setup)

    def port_of(k: int) -> int:
        on_victim = people_on == "victim" or (people_on == "both" and k % 2 == 0)
        return ports[victim if on_victim else survivor]

    waits = schedule or [0.5]
    people = [Person(port_of(k), t, token, ports[survivor], waits) for k, (t, token) in enumerate(made)]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(p.run(stop)) for p in people]

    def report(task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            print(f"a person failed: {task.exception()!r}", file=sys.stderr)

    for task in tasks:
        task.add_done_callback(report)
    await asyncio.sleep(2.0)
    killed = time.monotonic()
    servers[victim].send_signal(signal_)
    deadline = killed + 30

    def back(p: Person) -> bool:
        return any(t > killed for t, _ in p.acked) and any(t > killed for t, _ in p.shown)

    while time.monotonic() < deadline and not all(back(p) for p in people):
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    await loop.run_in_executor(None, servers[victim].wait)
    times = [next((t - killed for t, _ in p.acked if t > killed), float("inf")) for p in people]
    seen = [next((t - killed for t, _ in p.shown if t > killed), float("inf")) for p in people]
    stored = await stored_actions(db, [p.table for p in people])
    missing = sum(lost([a for _, a in p.acked], stored[p.table]) for p in people)
    if DEBUG:
        for p in people:
            if not any(t > killed for t, _ in p.acked):
                print("never recovered:", p.table, p.sent, p.last, file=sys.stderr)
    if missing and DEBUG:
        for p in people:
            mine = [a for s, a in stored[p.table] if s == 0]
            print(p.table, "acked", [a for _, a in p.acked], "stored", mine, file=sys.stderr)
    servers[victim] = await loop.run_in_executor(None, lambda: start_server(ports[victim], db, redis=redis))
    return times, seen, missing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--db", required=True, help="postgresql+asyncpg://... (a fresh database is made on it)"
    )
    parser.add_argument("--redis", required=True)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--mode", choices=("kill", "term"), default="kill")
    parser.add_argument(
        "--people-on",
        choices=("survivor", "victim", "both"),
        default="survivor",
        help="where the people connect: the process that survives, the victim (they connect again to "
        "the survivor), or half to each",
    )
    parser.add_argument(
        "--reconnect-ms",
        default="500,1000,2000,4000,8000",
        help="the waits before each attempt to connect again, the last repeated (the page's schedule)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    raise_open_files()
    db = fresh_database(args.db)
    ports = [free_port(), free_port()]
    servers = [start_server(port, db, redis=args.redis) for port in ports]
    sig = signal.SIGKILL if args.mode == "kill" else signal.SIGTERM
    schedule = [int(ms) / 1000 for ms in args.reconnect_ms.split(",")]
    all_times: list[float] = []
    all_seen: list[float] = []
    missing = 0
    try:
        for r in range(args.rounds):
            times, seen, lost_now = asyncio.run(
                round_(ports, r % 2, args.tables, sig, db, servers, args.redis, args.people_on, schedule)
            )
            all_times += times
            all_seen += seen
            missing += lost_now
            print(
                f"round {r + 1}: median {statistics.median(times):.2f} s, max {max(times):.2f} s,"
                f" lost {lost_now}",
                file=sys.stderr,
                flush=True,
            )
    finally:
        for s in servers:
            s.kill()
    ordered = sorted(all_times)
    shown = sorted(all_seen)

    def pct(values: list[float], q: float) -> float:
        return round(values[min(len(values) - 1, int(q * len(values)))], 2)

    row = {
        "mode": args.mode,
        "people_on": args.people_on,
        "reconnect_ms": args.reconnect_ms,
        "rounds": args.rounds,
        "tables_per_round": args.tables,
        "p50_s": pct(ordered, 0.5),
        "p99_s": pct(ordered, 0.99),
        "max_s": round(ordered[-1], 2),
        "seen_p50_s": pct(shown, 0.5),
        "seen_p99_s": pct(shown, 0.99),
        "never_recovered": sum(1 for t in ordered if t == float("inf")),
        "acknowledged_lost": missing,
    }
    print(json.dumps(row) if args.json else row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
