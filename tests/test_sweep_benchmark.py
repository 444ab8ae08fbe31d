"""``benchmarks/sweep.py`` measures the lease keeper's sweep, and the statement it replaced, on a real
PostgreSQL: both find nothing free among tables held by live processes, and both are timed."""

from __future__ import annotations

import asyncio

from tests.benchmark_scripts import load_script
from tests.postgres import PostgresServer


def test_the_sweep_benchmark_times_both_statements_on_the_same_rows(postgres: PostgresServer) -> None:
    sweep = load_script("sweep.py")
    result = asyncio.run(sweep.measure(postgres.create_database(), 300, 3))
    assert set(result) == {"index", "scan"}
    assert all(0 < ms < 10_000 for ms in result.values())
