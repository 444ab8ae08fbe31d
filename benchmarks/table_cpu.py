"""The server's own CPU per action, without sockets: N ``hearts(decks=1,players=4)`` tables in one
process, each seat a person whose connection only encodes the frames it is sent (as the websocket's
sender would before writing them), every action played through the table's owner task and committed
to a SQLite file, as in workload (a) of ``load.py``. What it leaves out (the websocket library,
uvicorn, the kernel's sockets) is the same for any version of the table's code, so two versions
measured in one run compare what the table's code costs.

    .venv/bin/python benchmarks/table_cpu.py [--tables 200] [--actions 20000] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import msgspec

from cardhall.server.context import ServerContext
from cardhall.server.protocol import encode
from cardhall.store import open_store

GAME = "hearts(decks=1,players=4)"
SETTINGS = {"turn_seconds": 0, "away_seconds": 3600, "bot_pace_ms": 0}


class Seat:
    """A person's connection: it encodes each frame, and keeps the newest of its table."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.newest: tuple[int, list[int], list[int]] | None = None  # (n, legal actions, to act)
        self.bytes = 0

    def send(self, frame: Any) -> None:
        self.bytes += len(encode(frame))
        if isinstance(frame, dict):  # (an older server's frames were dicts)
            if "legal" in frame:
                self.newest = (frame["n"], [e["action"] for e in frame["legal"]], frame["to_act"])
        elif hasattr(frame, "legal"):  # (since 2026-12-03 each legal entry is encoded once: msgspec.Raw)
            legal = [msgspec.json.decode(e) if isinstance(e, msgspec.Raw) else e for e in frame.legal]
            self.newest = (frame.n, [e["action"] for e in legal], frame.to_act)


async def run(tables: int, actions: int) -> dict[str, float]:
    db = Path(tempfile.mkdtemp()) / "cpu.db"
    store = await open_store(f"sqlite+aiosqlite:///{db}")
    ctx = ServerContext(store)
    await ctx.start()
    rng = random.Random(1)
    hosts = []
    try:
        for t in range(tables):
            people = [(await store.create_player(f"p{t}-{s}"))[0] for s in range(4)]
            host = await ctx.lobby.create(None, GAME, SETTINGS, people=dict(enumerate(people)))
            seats = [Seat(p) for p in people]
            for s, seat in enumerate(seats):
                await host.join(seat, s, 0, None)
            hosts.append((host, seats))
        played = 0
        start_cpu, start = time.process_time(), time.perf_counter()
        while played < actions:
            moves = []
            for host, seats in hosts:
                for s, seat in enumerate(seats):
                    if seat.newest and seat.newest[1] and s in seat.newest[2]:
                        number, legal, _ = seat.newest
                        # (as a connection does: the host queues the action for its owner task)
                        moves.append(host.act(seat, rng.choice(legal), number, None))
                        break
            results = await asyncio.gather(*moves, return_exceptions=True)
            played += sum(1 for r in results if not isinstance(r, BaseException))
        cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start
    finally:
        await ctx.stop()
    return {"actions": played, "cpu_s": cpu, "wall_s": wall, "cpu_us_per_action": cpu / played * 1e6}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--actions", type=int, default=20000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(run(args.tables, args.actions))
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{result['actions']} actions: {result['cpu_us_per_action']:.0f} us of CPU per action "
            f"({result['cpu_s']:.2f} s CPU in {result['wall_s']:.2f} s)"
        )


if __name__ == "__main__":
    main()
