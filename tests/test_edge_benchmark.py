"""``benchmarks/edge.py`` runs ``load.py``'s levels in turn, each on services started for it, and counts
the runs each level held."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

import pytest

from tests.benchmark_scripts import BENCHMARKS, load_script
from tests.postgres import postgres_bin
from tests.redis_server import redis_binary

# Servers, load generators, PostgreSQL and Redis in processes of their own.
pytestmark = [pytest.mark.process, pytest.mark.slow]


def test_a_level_is_servers_and_people_and_anything_else_is_refused_by_name() -> None:
    edge = load_script("edge.py")
    assert edge.parse_level("2:9600") == (2, 9600)
    for bad in ("9600", "0:10", "2:", "two:10", "2:-5"):
        with pytest.raises(argparse.ArgumentTypeError, match=repr(bad)):
            edge.parse_level(bad)


def test_levels_run_in_turn_and_each_counts_the_runs_it_held() -> None:
    if postgres_bin() is None or redis_binary() is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL and Redis are installed in CI (.ci/run)")
        pytest.skip("needs PostgreSQL and Redis (apt-get install postgresql redis-server)")
    command = [sys.executable, str(BENCHMARKS / "edge.py"), "--level", "1:8", "--level", "2:8"]
    command += ["--rounds", "2", "--warmup", "1", "--seconds", "2", "--limit-ms", "100000", "--json"]
    command += ["--generator-tick", "2"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [(r["servers"], r["players"]) for r in report["runs"]] == [(1, 8), (2, 8)] * 2
    for level in report["levels"]:
        assert level["runs"] == 2 and level["held"] == 2 and len(level["p99_ms"]) == 2
    assert all(r["person_actions_per_s"] > 0 and r["errors"] == 0 for r in report["runs"])
    assert all(r["generator_tick_ms"] == 2 for r in report["runs"])


def test_a_negative_generator_tick_is_refused_by_name() -> None:
    for script in ("edge.py", "load.py"):
        command = [sys.executable, str(BENCHMARKS / script), "--generator-tick", "-1"]
        done = subprocess.run(
            command + (["--level", "1:8"] if script == "edge.py" else []),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 2 and "--generator-tick is 0 milliseconds or more, not -1" in done.stderr
