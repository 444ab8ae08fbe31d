"""The server's CPU per Play now arrival, by phase (issue 49): what one person pressing "Play now" costs
the one ``cardhall serve`` process, end to end, apart from the tables the hall plays.

    python benchmarks/load_arrival.py [--rate 30] [--seconds 20] [--phases hello,queue,seated]
        [--db URL] [--server-src DIR] [--profile DIR] [--json]

One fresh server (SQLite file unless ``--db``), nothing else on it; for each phase, back to back,
Poisson arrivals at ``--rate`` a second for ``--seconds``, each a new player (made through the HTTP
API before the clock) on a new connection:

- ``hello``: connect, ``hello``, ``welcome``, close: the connection alone;
- ``queue``: as ``hello``, then ``seek`` (Hokm, ``people_only``), ``unseek`` on the ``seeking``
  reply, close: the queue's own work (a seek's reads, the frames, the waves; nobody is seated unless
  three wait in the same few milliseconds);
- ``seated``: as ``load_seekers`` does beside workload (b): ``seek`` (``after_wait``), and on
  ``seated`` ``leave`` at once, close: the table made per three arrivals, stored, dealt, left and
  stopped (``abandoned``) as well.

The server's CPU (``/proc``) over each phase from its first arrival to its last one's end, divided
by the arrivals: ms of server CPU per arrival. Before the first phase, a second of ``seated``
arrivals not counted (the server's first tables and stand-ins import the bots' modules: once). The
differences between phases are the costs of a seek and of a table made and abandoned. ``--profile
DIR`` records each phase with py-spy (raw stacks, ``DIR/PHASE.txt``) for a breakdown by function.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any

from cardhall import loadclient

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import load  # (its server, players and CPU readings)

PHASES = ("hello", "queue", "seated")


async def arrival(port: int, token: str, phase: str, stats: dict[str, int]) -> None:
    try:
        async with loadclient.open_async(port) as ws:
            await ws.send(loadclient.message(type="hello", token=token))
            async for text in ws:
                frame = json.loads(text)
                kind = frame["type"]
                if kind == "welcome":
                    if phase == "hello":
                        break
                    choice = "people_only" if phase == "queue" else "after_wait"
                    await ws.send(loadclient.message(type="seek", game="hokm", choice=choice))
                elif kind == "seeking" and phase == "queue":
                    await ws.send(loadclient.message(type="unseek", id="u"))
                elif kind == "unseeked":
                    break
                elif kind == "seated":
                    stats["seated"] += 1
                    if frame.get("next_deal"):
                        await ws.send(loadclient.message(type="unseek"))
                    else:
                        await ws.send(loadclient.message(type="leave", table=frame["table"]))
                    break
                elif kind == "error":
                    stats["errors"] += 1
                    break
        stats["done"] += 1
    except Exception:
        stats["failed"] += 1


async def phase_run(port: int, tokens: list[str], phase: str, rate: float, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    stats = {"arrived": 0, "done": 0, "seated": 0, "errors": 0, "failed": 0}
    tasks = []
    due = time.time()
    for token in tokens:
        due += rng.expovariate(rate)
        await asyncio.sleep(max(0.0, due - time.time()))
        stats["arrived"] += 1
        tasks.append(asyncio.create_task(arrival(port, token, phase, stats)))
    await asyncio.wait_for(asyncio.gather(*tasks), 60)
    return stats


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=30.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--phases", default=",".join(PHASES))
    parser.add_argument("--db", default="")
    parser.add_argument("--server-src", default="")
    parser.add_argument("--profile", default="", help="a directory for py-spy's raw stacks of each phase")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    phases = [p for p in args.phases.split(",") if p]
    if any(p not in PHASES for p in phases):
        parser.error(f"phases are {', '.join(PHASES)}")
    if args.server_src:
        load.SERVER_ENV["PYTHONPATH"] = os.path.abspath(args.server_src)
    load.raise_open_files()
    count = int(args.rate * args.seconds)
    port = load.free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = load.start_server(port, args.db or f"sqlite+aiosqlite:///{tmp}/arrival.db")
        try:
            warm = load.make_players(port, max(3, int(args.rate)), "w")
            asyncio.run(phase_run(port, warm, "seated", args.rate, 48))
            rows = []
            for k, phase in enumerate(phases):
                tokens = load.make_players(port, count, f"{phase[0]}")
                time.sleep(1.0)  # (the players' making settled)
                spy = None
                if args.profile:
                    os.makedirs(args.profile, exist_ok=True)
                    spy = subprocess.Popen(
                        [
                            os.path.join(os.path.dirname(sys.executable), "py-spy"),
                            *("record", "--pid", str(server.pid), "--rate", "200"),
                            *("--format", "raw", "-o", os.path.join(args.profile, f"{phase}.txt")),
                        ],
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                    )
                    time.sleep(1.0)
                cpu, wall = load.cpu_seconds(server.pid), time.time()
                stats = asyncio.run(phase_run(port, tokens, phase, args.rate, 49 + k))
                time.sleep(0.5)  # (the last leaves' writes)
                cpu, wall = load.cpu_seconds(server.pid) - cpu, time.time() - wall
                if spy is not None:
                    spy.send_signal(signal.SIGINT)
                    spy.wait(timeout=60)
                row: dict[str, Any] = {
                    "phase": phase,
                    **stats,
                    "server_cpu_pct": round(100 * cpu / wall, 1),
                    "cpu_ms_per_arrival": round(1000 * cpu / max(1, stats["arrived"]), 2),
                }
                rows.append(row)
                if args.json:
                    continue
                print(
                    f"{phase:>7}: {stats['arrived']} arrivals at {args.rate}/s, done {stats['done']}"
                    f" seated {stats['seated']} errors {stats['errors']} failed {stats['failed']}"
                    f"  server CPU {row['server_cpu_pct']}%  {row['cpu_ms_per_arrival']} ms an arrival",
                    flush=True,
                )
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
    if args.json:
        print(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
