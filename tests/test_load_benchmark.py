"""The load benchmark runs end to end at a tiny size: a real server, real websockets, players who act,
latencies measured and CPU reported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

# A server and load generators in processes of their own.
pytestmark = [pytest.mark.process, pytest.mark.slow]

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "load.py"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads CPU time from /proc")
@pytest.mark.parametrize(("workload", "client"), [("a", "lean"), ("b", "lean"), ("b", "websockets")])
def test_the_load_benchmark_measures_a_small_load(workload: str, client: str) -> None:
    # (32 people: at 8 the lean generators' CPU over the window could round to 0.0%, and the server's
    # to no clock tick at all)
    command = [sys.executable, str(SCRIPT), "--players", "32", "--workload", workload, "--client", client]
    command += ["--warmup", "1", "--seconds", "4", "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(done.stdout)
    assert row["workload"] == workload and row["players"] == 32
    assert row["tables"] == (8 if workload == "a" else 32)
    assert row["person_actions_per_s"] > 0 and row["errors"] == 0
    assert 0 < row["p50_ms"] <= row["p99_ms"]
    assert row["server_cpu_pct"] > 0 and row["clients_cpu_pct"] > 0


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads CPU time from /proc")
def test_workload_c_measures_the_waits_the_bot_moves_and_what_the_bot_tier_granted() -> None:
    command = [sys.executable, str(SCRIPT), "--players", "4", "--workload", "c", "--bot-workers", "1"]
    command += ["--warmup", "2", "--seconds", "8", "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=240, check=False)
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(done.stdout)
    assert row["workload"] == "c" and row["game"] == "hokm" and row["tables"] == 4
    assert row["bot_delay"]["n"] > 0 and row["bot_delay"]["p50_ms"] <= row["bot_delay"]["max_ms"]
    assert row["wait"]["n"] > 0 and row["wait"]["p50_ms"] <= row["wait"]["max_ms"]
    tier = row["bot_tier"]
    assert tier["workers"] == 1 and sum(tier["answered"].values()) > 0


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads CPU time from /proc")
def test_play_now_seekers_arrive_beside_workload_b_and_are_seated() -> None:
    command = [sys.executable, str(SCRIPT), "--players", "4", "--workload", "b", "--seekers", "5"]
    command += ["--warmup", "1", "--seconds", "4", "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(done.stdout)
    assert row["workload"] == "b" and row["person_actions_per_s"] > 0 and row["errors"] == 0
    seekers = row["seekers"]
    assert seekers["rate"] == 5 and seekers["arrived"] > 0
    assert seekers["errors"] == 0 and seekers["failed"] == 0, seekers["error_codes"]
    # Hokm seats three: everyone of the window is seated, with people or with bots after the bound.
    assert seekers["seated"] == seekers["arrived"]
    assert 0 <= seekers["wait_p50_s"] <= seekers["wait_p90_s"] <= seekers["wait_max_s"]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads CPU time from /proc")
def test_the_cost_of_a_play_now_arrival_is_measured_by_phase() -> None:
    script = SCRIPT.parent / "load_arrival.py"
    command = [sys.executable, str(script), "--rate", "10", "--seconds", "1.5", "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert [r["phase"] for r in rows] == ["hello", "queue", "seated"]
    for row in rows:
        assert row["arrived"] == 15 and row["done"] == 15 and row["errors"] == row["failed"] == 0
        assert row["cpu_ms_per_arrival"] > 0
    assert rows[2]["seated"] == 15  # (each seated, with bots or with the others)
