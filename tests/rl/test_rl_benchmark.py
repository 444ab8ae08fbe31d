"""The RL benchmark runs end to end at a tiny size, and the training example is importable where its
libraries are installed (the training itself never runs in the tests)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

# The benchmark script runs in a process of its own.
pytestmark = [pytest.mark.process]

pytest.importorskip("pettingzoo", reason="needs the rl extra: pip install -e '.[rl]'")

ROOT = Path(__file__).resolve().parents[2]


def test_the_rl_benchmark_measures_every_environment_briefly() -> None:
    command = [
        sys.executable,
        str(ROOT / "benchmarks" / "rl.py"),
        "--seconds",
        "0.05",
        "--rounds",
        "1",
        "--json",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    rows = {row["env"]: row for row in out["envs"]}
    ours = rows["cardhall aec gin(players=2,max_hands=1)"]
    assert ours["available"] and ours["episodes"] >= 1 and ours["steps_per_second"] > 0
    assert rows["cardhall gym gin(players=2,max_hands=1) vs random"]["steps"] > 0
    assert all(row["steps"] > 0 for name, row in rows.items() if name.startswith("cardhall"))
    assert len([name for name in rows if name.startswith("cardhall aec")]) == 7  # every game
    if rows["rlcard gin-rummy"]["available"]:
        (ratio,) = out["ratios"]
        assert ratio["ratio"] > 0 and ratio["target"] == 5.0


def test_the_rl_benchmark_refuses_bad_arguments() -> None:
    command = [sys.executable, str(ROOT / "benchmarks" / "rl.py"), "--seconds", "0"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "--seconds must be > 0" in done.stderr


def test_the_training_example_imports_where_sb3_contrib_is_installed() -> None:
    pytest.importorskip("sb3_contrib")
    spec = importlib.util.spec_from_file_location("train_gin", ROOT / "examples" / "train_gin.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.GAME == "gin(players=2,max_hands=1)" and callable(module.train)
