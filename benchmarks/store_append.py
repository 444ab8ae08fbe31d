"""The store's hottest write: ``Store.append_actions``, the group committer's batches, timed from the
caller on an SQLite file and on PostgreSQL, with fences (a hall of many processes) and without (one
process).

    .venv/bin/python benchmarks/store_append.py [--batches 2000] [--size 8] [--rounds 3]

A batch is ``--size`` actions of as many tables (one action each, as the group commit gathers the
moves of many tables), numbered on from the last batch. Each case opens a new store (a file in a
temporary directory, or a new database on a PostgreSQL server started and removed by the run: the
tests' helper, fsync off, as ``hall_services.py``), saves the tables, writes 100 batches to warm up and
then ``--batches`` batches one after another. Reported per batch: the wall time's median and 99th
percentile, and the process's CPU time (threads included: SQLite writes on a thread of its own) over
all batches divided by their number. With ``--rounds N`` every case runs N times in turn and the best
round counts (on a shared machine other work only slows a run down).

It uses the public API only (``open_store``, ``save_table``, ``append_actions``), so the same script
measures the store of any revision: run it with each tree's ``src`` first on ``PYTHONPATH``, back to back.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.postgres import postgres_server

from cardhall.store import ActionRow, SeatRow, TableRow, open_store

WARM_UP = 100


@dataclass
class Figures:
    median_us: float
    p99_us: float
    cpu_us: float


def table(table_id: str) -> TableRow:
    return TableRow(
        id=table_id,
        game="hokm",
        rules_version="1",
        seed=7,
        settings={},
        seats=[SeatRow(0), SeatRow(1, "bot", "Bot", bot="random")],
        status="playing",
        created_at=datetime.now(UTC),
    )


async def measure(url: str, batches: int, size: int, fenced: bool) -> Figures:
    store = await open_store(url)
    try:
        ids = [f"t{k:03}" for k in range(size)]
        for table_id in ids:
            await store.save_table(table(table_id))
        fences = dict.fromkeys(ids, 1) if fenced else None
        walls: list[float] = []
        cpu = 0.0
        for n in range(1, WARM_UP + batches + 1):
            batch = [ActionRow(t, n, n % 2, n % 52) for t in ids]
            wall, started = time.perf_counter(), time.process_time()
            await store.append_actions(batch, fences)
            if n > WARM_UP:
                walls.append(time.perf_counter() - wall)
                cpu += time.process_time() - started
        walls.sort()
        return Figures(
            statistics.median(walls) * 1e6, walls[int(len(walls) * 0.99)] * 1e6, cpu / batches * 1e6
        )
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batches", type=int, default=2000)
    parser.add_argument("--size", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cases", nargs="*", help="only these, e.g. 'sqlite plain' 'postgresql fenced'")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    best: dict[str, Figures] = {}
    with postgres_server() as postgres, tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            for backend in ("sqlite", "postgresql"):
                for fenced in (False, True):
                    case = f"{backend} {'fenced' if fenced else 'plain'}"
                    if args.cases and case not in args.cases:
                        continue
                    url = (
                        f"sqlite+aiosqlite:///{tmp}/{r}-{int(fenced)}.db"
                        if backend == "sqlite"
                        else postgres.create_database()
                    )
                    got = asyncio.run(measure(url, args.batches, args.size, fenced))
                    if case not in best or got.median_us < best[case].median_us:
                        best[case] = got
    if args.json:
        print(json.dumps({case: vars(f) for case, f in best.items()}))
        return
    print(f"{'case':20} {'median µs':>10} {'p99 µs':>10} {'CPU µs':>10}   (a batch of {args.size} actions)")
    for case, f in best.items():
        print(f"{case:20} {f.median_us:10.0f} {f.p99_us:10.0f} {f.cpu_us:10.0f}")


if __name__ == "__main__":
    main()
