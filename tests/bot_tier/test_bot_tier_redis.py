"""The bot tier on real Redis: ``cardhall bots`` workers as real processes taking moves and reviews from
the streams' consumer group, one SIGKILLed mid-think (its job claimed and answered by another, or the
rules move played by the deadline: nothing lost, the match finishes and replays), and no worker at
all (the rules move by the deadline)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis

import cardhall
from cardhall.bot_tier import REVIEW, MoveOutcome, streams
from cardhall.bot_tier.redis_tier import RedisTier
from cardhall.review import review
from cardhall.table import Table
from tests.bot_tier.test_bot_tier import a_job, play_through

pytestmark = [pytest.mark.process, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def workers(url: str, *names: str) -> Iterator[dict[str, subprocess.Popen[bytes]]]:
    """``cardhall bots --redis url`` processes, by name, running until the block ends (their output is
    printed when a test fails)."""
    logs = Path(tempfile.mkdtemp(prefix="cardhall-bots-"))
    procs = {}
    for name in names:
        with open(logs / f"{name}.log", "wb") as out:  # (the process keeps its own descriptor)
            procs[name] = subprocess.Popen(
                [sys.executable, "-m", "cardhall", "bots", "--redis", url, "--name", name],
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=ROOT,
            )
    client = redis.Redis.from_url(url)
    try:
        for _ in range(300):  # until every worker has beaten once
            beating = {n.decode() for n in client.zrange(streams.WORKERS, 0, -1)}
            if beating >= set(names):
                break
            time.sleep(0.05)
        else:
            raise AssertionError(f"the workers did not start: {read_logs(logs)}")
        yield procs
    except BaseException:
        print(read_logs(logs))
        raise
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.terminate()
        for proc in procs.values():
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        client.close()


def read_logs(folder: Path) -> str:
    return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')}" for p in sorted(folder.glob("*.log")))


def holder(url: str) -> str | None:
    """The worker holding the jobs stream's pending entry, if one is pending."""
    client = redis.Redis.from_url(url)
    try:
        pending = client.xpending_range(streams.JOBS, streams.GROUP, "-", "+", 10)
    finally:
        client.close()
    return pending[0]["consumer"].decode() if pending else None


def test_moves_go_to_the_workers_and_the_match_replays(redis_url: str) -> None:
    outcomes: list[MoveOutcome] = []
    with workers(redis_url, "w1"):
        table = play_through(
            RedisTier(redis_url),
            "hokm(max_hands=1)",
            ["search(ms=30)", "rules", "search(ms=30)"],
            seed=4,
            on_move=lambda n, o: outcomes.append(o),
        )
    assert table.is_over
    cardhall.replay(table.state.record())
    searched = [o for o in outcomes if o.fallback is None]
    assert searched and all(o.worker == "w1" for o in searched)
    assert sum(o.determinizations for o in searched) > 0


def test_a_worker_killed_mid_think_has_its_job_claimed_and_answered_by_another(redis_url: str) -> None:
    job = a_job(bot="search(ms=3000)")
    with workers(redis_url, "w1", "w2") as procs:

        async def main() -> MoveOutcome:
            tier = RedisTier(redis_url)
            try:
                thinking = asyncio.create_task(tier.move(job, time.time() + 30, 3000))
                for _ in range(400):
                    await asyncio.sleep(0.05)
                    if holder(redis_url) is not None:
                        break
                name = holder(redis_url)
                assert name in procs, f"no worker took the job (pending: {name})"
                os.kill(procs[name].pid, signal.SIGKILL)
                killed.append(name)
                return await thinking
            finally:
                await tier.close()

        killed: list[str] = []
        outcome = asyncio.run(main())
    assert outcome.fallback is None and outcome.determinizations > 0
    assert outcome.worker != killed[0] and outcome.worker in ("w1", "w2")
    assert outcome.result.action in job.legal_actions
    assert holder(redis_url) is None  # answered, acknowledged: nothing left pending


def test_a_match_goes_on_through_a_worker_killed_mid_match_and_replays(redis_url: str) -> None:
    outcomes: list[MoveOutcome] = []
    with workers(redis_url, "w1", "w2") as procs:

        def kill_one(moves: int, outcome: MoveOutcome) -> None:
            outcomes.append(outcome)
            if moves == 3 and procs["w1"].poll() is None:
                os.kill(procs["w1"].pid, signal.SIGKILL)

        table = play_through(
            RedisTier(redis_url),
            "kierki(first_deal=12)",
            ["search(ms=40)", "rules", "search(ms=40)", "rules"],
            seed=6,
            on_move=kill_one,
        )
    assert table.is_over and len(outcomes) > 3
    cardhall.replay(table.state.record())
    assert all(o.worker == "w2" for o in outcomes[4:] if o.fallback is None)


def test_without_workers_the_rules_move_is_played_by_the_deadline(redis_url: str) -> None:
    job = a_job()

    async def main() -> MoveOutcome:
        tier = RedisTier(redis_url)
        try:
            return await tier.move(job, time.time() + 0.5, 300)
        finally:
            await tier.close()

    outcome = asyncio.run(main())
    assert outcome.fallback == "late" and outcome.result.action in job.legal_actions


def test_a_review_runs_on_a_worker_as_it_runs_here(redis_url: str) -> None:
    table = Table("hokm(max_hands=1)", ["rules", "random", "rules"], seed=2)
    table.play()
    record = table.state.record()
    payload: dict[str, Any] = {"record": record, "seat": 1, "budget": 4, "seed": 9}

    async def main() -> Any:
        tier = RedisTier(redis_url)
        try:
            return await tier.job(REVIEW, payload)
        finally:
            await tier.close()

    with workers(redis_url, "w1"):
        answer = asyncio.run(main())
    assert answer == review(record, 1, 4, 9)
