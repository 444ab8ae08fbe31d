"""The arena benchmark's smoke tests: a small arena (12 people, 40 s) runs to its end through a real
server process and reports its waits and pushes; the hall's other tables alone report their latency."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "events_arena.py"
pytestmark = [pytest.mark.slow, pytest.mark.process]


def test_the_arena_benchmark_measures_a_small_arena() -> None:
    command = [
        sys.executable,
        str(SCRIPT),
        "--players",
        "12",
        "--minutes",
        "0.7",
        "--followers",
        "2",
        "--json",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(done.stdout)
    assert row["status"] == "finished" and row["players"] == 12
    assert row["tables_played"] >= 4  # (12 people at tables of 3, at least once each)
    pushed = row["standings_pushed"]
    assert pushed["n"] > 0 and pushed["p50_ms"] <= pushed["max_ms"] and row["unpushed"] == 0
    assert row["person_actions_per_s"] > 0 and row["largest_event_frame_bytes"] > 0


def test_the_arena_benchmark_measures_the_halls_other_tables_alone() -> None:
    command = [sys.executable, str(SCRIPT), "--players", "0", "--followers", "0", "--hall", "8"]
    command += ["--hall-warmup", "2", "--hall-seconds", "4", "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(done.stdout)
    assert row["hall_people"] == 8 and row["hall_errors"] == 0
    latency = row["hall_latency"]
    assert latency["n"] > 0 and latency["p50_ms"] <= latency["p99_ms"] <= latency["max_ms"]
