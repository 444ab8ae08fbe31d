"""The wire benchmark (``benchmarks/wire.py``) runs end to end at a tiny size: a real server, one table
of people over real websockets with and without permessage-deflate (and with deltas), bytes per deal
and CPU per action reported, the compressed far below the plain, the deltas below the compressed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

# A server in a process of its own.
pytestmark = [pytest.mark.process, pytest.mark.slow]

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "wire.py"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads CPU time from /proc")
def test_the_wire_benchmark_measures_one_deal_with_and_without_compression() -> None:
    command = [sys.executable, str(SCRIPT), "--games", "hokm", "--deals", "1", "--rounds", "1"]
    command += ["--tables", "1", "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr
    plain, packed, deltas = json.loads(done.stdout)
    assert (plain["game"], plain["client"], plain["compressed"]) == ("hokm", "plain", False)
    assert (packed["game"], packed["client"], packed["compressed"]) == ("hokm", "deflate", True)
    assert (deltas["game"], deltas["client"], deltas["compressed"]) == ("hokm", "deltas", True)
    for row in (plain, packed, deltas):
        assert row["deals"] == 1 and row["actions"] > 0 and row["frames_per_deal"] > 0
        assert row["cpu_us_per_action"] >= 0
    assert 0 < packed["bytes_per_deal"] * 3 < plain["bytes_per_deal"]
    assert 0 < deltas["bytes_per_deal"] * 3 < plain["bytes_per_deal"]
