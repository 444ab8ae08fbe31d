"""What a lease keeper's sweep costs PostgreSQL as a hall's tables grow: ``SqlStore.expired`` (the
tables no live process holds) on a database of T tables, two thirds of them unfinished and every one
held by one of two live processes, so that the sweep finds nothing, as it does nearly always. Every
process of a hall sweeps four times a second (:mod:`cardhall.server.cluster.leases`).

    .venv/bin/python benchmarks/sweep.py [--tables 1000 10000 100000] [--runs 200]

Beside it, in the same run on the same rows, the sweep's statement before 2026-12-06's thirteenth
session (``scan``: one statement, the unfinished tables whose node is not among the live ones, which
PostgreSQL answered by reading every unfinished table). Each is timed from the caller, the round trips
on this machine's Unix socket included. PostgreSQL from Debian, started and removed by the run (the
tests' helper, as ``hall_services.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.postgres import postgres_server

from cardhall.store import SqlStore, open_store
from cardhall.store.sql import NODES, TABLES, UNFINISHED

FILL = """
INSERT INTO tables (id, game, rules_version, seed, settings, seats, status, created_at, node)
SELECT 't' || g, 'hokm', '1', 7, '{}', '[]', CASE WHEN g % 3 = 0 THEN 'finished' ELSE 'playing' END,
       now(), CASE WHEN g % 2 = 0 THEN 'a' ELSE 'b' END
FROM generate_series(1, :n) AS g
"""


def scan_statement(store: SqlStore) -> sa.Select[tuple[str]]:
    """The sweep's one statement before the thirteenth session."""
    live = sa.select(NODES.c.name).where(NODES.c.lease_until >= sa.literal_column(store.dialect.now))
    free = TABLES.c.status.in_(UNFINISHED) & (TABLES.c.node.is_(None) | TABLES.c.node.not_in(live))
    return sa.select(TABLES.c.id).where(free).order_by(TABLES.c.created_at).limit(64)


async def measure(url: str, tables: int, runs: int) -> dict[str, float]:
    store = await open_store(url)
    assert isinstance(store, SqlStore)
    try:
        await store.renew("a", 3600.0)
        await store.renew("b", 3600.0)
        async with store.engine.begin() as c:
            await c.execute(sa.text(FILL), {"n": tables})
            await c.execute(sa.text("ANALYZE tables"))
        scan = scan_statement(store)

        async def by_index() -> list[str]:
            return await store.expired(64)

        async def by_scan() -> list[str]:
            async with store.engine.connect() as c:
                return [r.id for r in await c.execute(scan)]

        timings: dict[str, list[float]] = {"index": [], "scan": []}
        for _ in range(runs):  # (alternated, so that the machine's noise falls on both alike)
            for name, sweep in (("index", by_index), ("scan", by_scan)):
                began = time.perf_counter()
                found = await sweep()
                timings[name].append(time.perf_counter() - began)
                assert found == [], found
        return {name: statistics.median(values) * 1000 for name, values in timings.items()}
    finally:
        await store.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    print(f"{'tables':>8} {'index ms':>9} {'scan ms':>8} {'scan/index':>10}   (medians of {args.runs})")
    with postgres_server() as pg:
        for tables in args.tables:
            result = asyncio.run(measure(pg.create_database(), tables, args.runs))
            ratio = result["scan"] / result["index"]
            print(f"{tables:>8} {result['index']:>9.2f} {result['scan']:>8.2f} {ratio:>10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
