"""The bot tier (:mod:`cardhall.bot_tier`): deadlines (a move is answered by its deadline, with the rules
move when the search cannot finish), the fair order (earliest deadline first, and a long think at one
table never holds another's move past its deadline), the decisions' weights (the heavier served first
and cut last, a light move's deadline held all the same), budgets that shrink under load, the job kinds,
and the in-process tier, a worker of it killed mid-think included. The order and the arithmetic are
tested with a fake clock; no test asserts a duration."""

from __future__ import annotations

import asyncio
import math
import os
import signal
import time
from typing import Any

import pytest

import cardhall
from cardhall.bot_tier import InProcessTier, nominal_ms, thinks_elsewhere
from cardhall.bot_tier.jobs import (
    MARGIN_MS,
    MIN_THINK_MS,
    MOVE,
    REVIEW,
    THINK_CAP_MS,
    MoveOutcome,
    decode_move,
    decode_outcome,
    encode_move,
    encode_outcome,
    rules_move,
    think,
)
from cardhall.bot_tier.schedule import WINDOW_VARIABLE, EdfQueue, Scheduler, Ticket
from cardhall.bots.rules import NEUTRAL_WEIGHT
from cardhall.review import review
from cardhall.table import BotJob, Table
from tests.helpers import playing


def a_job(game: str = "hokm", seed: int = 3, bot: str = "search(ms=300)") -> BotJob:
    """A search bot's decision with several legal actions, some way into a match."""
    table = Table(game, [bot] * Table(game).game.num_players, seed=seed)
    for _ in playing(table):
        seat = table.bots_to_act()[0]
        if len(table.legal_actions(seat)) > 2:
            return table.bot_job(seat)
        table.play_bot(seat)
    raise AssertionError("no decision with a choice")


def move(deadline: float, nominal: int = 300, job: Any = None, weight: int = NEUTRAL_WEIGHT) -> Ticket:
    return Ticket(MOVE, job, deadline, nominal, weight)


HEAVY = NEUTRAL_WEIGHT + 2  # (Hokm's bids and trump)


def job_in_phase(phase: str, game: str = "hokm", seed: int = 3) -> BotJob:
    """A search bot's decision with a choice, in ``phase``."""
    table = Table(game, ["search(ms=300)"] * Table(game).game.num_players, seed=seed)
    for _ in playing(table):
        seat = table.bots_to_act()[0]
        job = table.bot_job(seat)
        if len(job.legal_actions) > 1 and job.observation["phase"] == phase:
            return job
        table.play_bot(seat)
    raise AssertionError(f"no decision with a choice in phase {phase}")


# --- the order and the budgets, on a fake clock ------------------------------------------------------


def test_the_earliest_deadline_goes_first_whatever_the_order_of_arrival() -> None:
    queue = EdfQueue(slots=1)
    late, soon, middle = move(10.0), move(3.0), move(5.0)
    for ticket in (late, soon, middle):
        queue.add(ticket)
    assert [t for t, _ in queue.dispatch(now=0.0)] == [soon]
    assert queue.dispatch(now=0.1) == []  # the one slot is busy
    queue.finished(soon)
    assert [t for t, _ in queue.dispatch(now=0.5)] == [middle]
    queue.finished(middle)
    assert [t for t, _ in queue.dispatch(now=1.0)] == [late]


def test_a_long_think_at_one_table_leaves_another_tables_move_its_deadline() -> None:
    queue = EdfQueue(slots=1)
    long_think = queue.add(move(deadline=1.0, nominal=THINK_CAP_MS))
    assert [t for t, _ in queue.dispatch(now=0.0)] == [long_think]
    other = queue.add(move(deadline=1.5))
    assert queue.dispatch(now=0.2) == []  # waiting behind the think...
    # ...but only until its own deadline: then it is answered (with the rules move), the slot still busy.
    assert queue.expire(1.5 - MARGIN_MS / 1000, other)
    assert queue.dispatch(now=1.6) == []
    assert queue.running == 1
    queue.finished(long_think)
    assert queue.running == 0 and queue.dispatch(now=1.7) == []  # (the expired move is not run late)


def test_an_idle_tier_grants_the_whole_budget_and_a_busy_one_shares_the_time_to_the_deadlines() -> None:
    alone = EdfQueue(slots=1)
    ticket = alone.add(move(deadline=1.0, nominal=300))
    assert alone.dispatch(now=0.0) == [(ticket, 300)]

    busy = EdfQueue(slots=1)
    tickets = [busy.add(move(deadline=1.0, nominal=300)) for _ in range(10)]
    (first, budget), *_ = busy.dispatch(now=0.0)
    assert first is tickets[0]
    assert MIN_THINK_MS <= budget <= 1000 // 10  # ten moves due in a second on one worker

    two = EdfQueue(slots=2)
    for _ in range(10):
        two.add(move(deadline=1.0, nominal=300))
    budgets = [b for _, b in two.dispatch(now=0.0)]
    assert len(budgets) == 2 and budgets[0] > budget  # two workers: more each


def test_a_heavy_decision_is_served_before_a_light_one_due_no_sooner_and_edf_within_a_weight() -> None:
    queue = EdfQueue(slots=1)
    # The light ones arrive first; a heavy one is due with the first light one, another with the second.
    light_soon, light_late = queue.add(move(1.0)), queue.add(move(2.0))
    heavy_late, heavy_soon = queue.add(move(2.0, weight=HEAVY)), queue.add(move(1.0, weight=HEAVY))
    served = []
    for now in (0.0, 0.1, 0.2, 0.3):
        (ticket, budget), *rest = queue.dispatch(now)
        assert not rest and budget >= MIN_THINK_MS
        served.append(ticket)
        queue.finished(ticket)
    assert served == [heavy_soon, heavy_late, light_soon, light_late]


def simulate_load(queue: EdfQueue, tickets: list[Ticket]) -> dict[int, int]:
    """Run ``tickets`` (added at 0) through ``queue`` on a fake clock, each search taking its whole
    budget, a waiting move expiring at its deadline: the budget each got (ms; under MIN_THINK_MS the
    rules move), by ``id``."""
    now, got, running = 0.0, {}, []
    for ticket in tickets:
        queue.add(ticket)
    while len(got) < len(tickets):
        for ticket in tickets:
            if (
                id(ticket) not in got
                and ticket.deadline - MARGIN_MS / 1000 <= now
                and queue.expire(now, ticket)
            ):
                got[id(ticket)] = 0  # answered with the rules move at its deadline
        for ticket, budget in queue.dispatch(now):
            got[id(ticket)] = budget
            if ticket.state == "running":
                running.append((now + budget / 1000, ticket))
        if not running:
            now += 0.001
            continue
        running.sort(key=lambda r: r[0])
        now, done = running.pop(0)
        queue.finished(done)
    return got


def test_under_load_the_light_decisions_are_cut_to_the_rules_move_first() -> None:
    # Twelve moves due within a second on one worker, the six light ones arrived first: the heavy ones
    # think, and the light ones are cut (to the rules move) before any heavy one is.
    lights = [move(1.0) for _ in range(6)]
    heavies = [move(1.0, weight=HEAVY) for _ in range(6)]
    got = simulate_load(EdfQueue(slots=1), lights + heavies)
    heavy, light = [got[id(t)] for t in heavies], [got[id(t)] for t in lights]
    assert min(heavy) >= MIN_THINK_MS  # every heavy decision searched...
    assert any(b < MIN_THINK_MS for b in light)  # ...and the light ones gave way
    assert min(heavy) > max(light)
    # The same moves all of one weight share the second alike: no move is cut before another's kind.
    same = [move(1.0) for _ in range(12)]
    even = [simulate_load(EdfQueue(slots=1), same)[id(t)] for t in same]
    assert min(even) >= MIN_THINK_MS


def test_a_light_move_waiting_behind_heavy_ones_gets_the_rules_move_at_its_pace() -> None:
    light_job, heavy_job = job_in_phase("play"), job_in_phase("bidding")
    never = asyncio.Event()

    async def run(ticket: Ticket, budget: int) -> MoveOutcome:
        await never.wait()  # a worker that never answers: the heavy move in the slot holds it
        raise AssertionError("unreachable")

    async def main() -> MoveOutcome:
        scheduler = Scheduler(run, lambda: 1, clock=lambda: 0.0)
        # Heavy moves due in an hour (on the loop's timers) fill the slot and the head of the queue...
        heavies = [asyncio.create_task(scheduler.move(heavy_job, 3600.0, 300)) for _ in range(3)]
        await asyncio.sleep(0)
        # ...and a light move whose pace ends at once, due in a minute, is answered at its pace: the
        # wait gives up long before its deadline.
        light = await asyncio.wait_for(scheduler.move(light_job, 60.0, 59_950), timeout=30)
        for task in heavies:
            task.cancel()
        await asyncio.gather(*heavies, return_exceptions=True)
        await scheduler.close()
        return light

    light = asyncio.run(main())
    assert light.fallback == "no_time" and light.result.action == rules_move(light_job).action


def test_a_move_with_nothing_heavier_ahead_waits_past_its_pace_for_a_slot_until_its_deadline() -> None:
    light_job = job_in_phase("play")
    never = asyncio.Event()

    async def run(ticket: Ticket, budget: int) -> MoveOutcome:
        await never.wait()  # the first light move holds the one slot
        raise AssertionError("unreachable")

    async def main() -> MoveOutcome:
        scheduler = Scheduler(run, lambda: 1, clock=lambda: 0.0)
        first = asyncio.create_task(scheduler.move(light_job, 3600.0, 300))
        await asyncio.sleep(0)
        # Its pace ends at 0.1 s, its deadline at 0.4 s: next in line, it is kept until the deadline.
        second = await asyncio.wait_for(scheduler.move(light_job, 0.4, 300), timeout=30)
        first.cancel()
        await asyncio.gather(first, return_exceptions=True)
        await scheduler.close()
        return second

    second = asyncio.run(main())
    assert second.fallback == "late" and second.result.action == rules_move(light_job).action


def test_the_scheduler_weighs_each_move_by_its_games_bot_rules_module(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(WINDOW_VARIABLE, "3600")  # (the statistics of the last hour as well: all of them)
    bid, card = job_in_phase("bidding"), job_in_phase("play")

    async def run(ticket: Ticket, budget: int) -> MoveOutcome:
        return MoveOutcome(rules_move(ticket.payload), budget, 1)

    async def main() -> dict[str, Any]:
        scheduler = Scheduler(run, lambda: 1)
        await scheduler.move(bid, time.time() + 30, 300)
        await scheduler.move(card, time.time() + 30, 300)
        await scheduler.move(card, time.time() + 30, 300)
        stats: dict[str, Any] = scheduler.stats()
        await scheduler.close()
        return stats

    stats = asyncio.run(main())
    for by_weight in (stats["by_weight"], stats["window"]["by_weight"]):
        assert {w: s["answered"]["search"] for w, s in by_weight.items()} == {
            str(NEUTRAL_WEIGHT): 2,
            str(HEAVY): 1,
        }


def test_a_move_with_no_time_left_is_handed_out_for_the_rules_move_without_a_slot() -> None:
    queue = EdfQueue(slots=1)
    busy = queue.add(move(deadline=5.0))
    queue.dispatch(now=0.0)
    hurried = queue.add(move(deadline=1.0))
    handed = queue.dispatch(now=1.0 - (MARGIN_MS + MIN_THINK_MS - 1) / 1000)
    assert [t for t, _ in handed] == [hurried] and handed[0][1] < MIN_THINK_MS
    assert hurried.state == "finished" and queue.running == 1
    queue.finished(busy)


def test_jobs_without_a_deadline_wait_for_every_move() -> None:
    queue = EdfQueue(slots=1)
    offline = queue.add(Ticket(REVIEW, {}, math.inf, 0))
    soon = queue.add(move(deadline=100.0))
    assert [t for t, _ in queue.dispatch(now=0.0)] == [soon]
    queue.finished(soon)
    assert [t for t, _ in queue.dispatch(now=1.0)] == [offline]


# --- the scheduler on the event loop (a fake clock for its budgets; its timers run on the loop) ---------


def test_a_move_is_answered_by_its_deadline_with_the_rules_move_when_the_search_never_finishes() -> None:
    job = a_job()
    never = asyncio.Event()

    async def run(ticket: Ticket, budget: int) -> MoveOutcome:
        await never.wait()  # a worker that never answers
        raise AssertionError("unreachable")

    async def main() -> tuple[MoveOutcome, MoveOutcome]:
        scheduler = Scheduler(run, lambda: 1, clock=lambda: 0.0)
        # Due "now" on the fake clock (plus the margin): the loop's timer answers it at once.
        first = asyncio.create_task(scheduler.move(job, 0.05, 300))
        await asyncio.sleep(0)
        second = await scheduler.move(job, 0.1, 300)  # behind the first, which never finishes
        answers = (await first, second)
        await scheduler.close()
        return answers

    first, second = asyncio.run(main())
    rules = rules_move(job)
    assert first.fallback == "late" and first.result.action == rules.action
    assert second.fallback in ("late", "no_time") and second.result.action in job.legal_actions


def test_a_failing_worker_gives_the_rules_move() -> None:
    job = a_job()

    async def run(ticket: Ticket, budget: int) -> MoveOutcome:
        raise OSError("the worker is gone")

    async def main() -> MoveOutcome:
        scheduler = Scheduler(run, lambda: 1)
        return await scheduler.move(job, time.time() + 30, 300)

    outcome = asyncio.run(main())
    assert outcome.fallback == "failed" and outcome.result.action == rules_move(job).action


# --- the jobs --------------------------------------------------------------------------------------


def test_a_search_thinks_within_its_budget_and_not_past_its_deadline() -> None:
    job = a_job()
    searched = think(job, 40)
    assert searched.fallback is None and searched.budget_ms == 40 and searched.determinizations > 0
    assert searched.result.action in job.legal_actions
    past = think(job, 300, deadline=time.time() - 1)
    assert past.fallback == "no_time" and past.determinizations == 0
    assert past.result.action == rules_move(job).action


def test_levels_and_budgets() -> None:
    assert thinks_elsewhere("hard") and thinks_elsewhere("search(ms=50)")
    assert not thinks_elsewhere("normal") and not thinks_elsewhere("rules")
    assert nominal_ms("hard") == 300
    assert nominal_ms("search(ms=5000)") == THINK_CAP_MS
    assert nominal_ms("search(iterations=40)") == THINK_CAP_MS


def test_jobs_travel_as_json_and_come_back_the_same() -> None:
    job = a_job()
    back = decode_move(encode_move(job))
    assert back == job
    outcome = think(job, 20)
    again = decode_outcome(encode_outcome(outcome))
    assert again == outcome


# --- the in-process tier ------------------------------------------------------------------------------


def play_through(tier: Any, game: str, bots: list[str], seed: int, on_move: Any = None) -> Table:
    """A match of bots played to its end, every search move through ``tier``."""

    async def main() -> Table:
        table = Table(game, bots, seed=seed)
        moves = 0
        for _ in playing(table):
            seat = table.bots_to_act()[0]
            if thinks_elsewhere(table.acting_bot(seat) or ""):
                job = table.bot_job(seat)
                outcome = await tier.move(job, time.time() + 5, 100)
                table.apply_bot(job, outcome.result)
                moves += 1
                if on_move is not None:
                    on_move(moves, outcome)
            else:
                table.play_bot(seat)
        await tier.close()
        return table

    return asyncio.run(main())


@pytest.mark.process
@pytest.mark.slow
def test_a_match_through_the_in_process_tier_finishes_and_replays() -> None:
    table = play_through(InProcessTier(1), "hokm(max_hands=1)", ["search(ms=30)", "rules", "rules"], seed=5)
    assert table.is_over
    cardhall.replay(table.state.record())


@pytest.mark.process
@pytest.mark.slow
def test_a_pool_worker_killed_mid_think_costs_one_rules_move_and_the_match_goes_on() -> None:
    tier = InProcessTier(1)
    outcomes: list[MoveOutcome] = []

    async def main() -> None:
        job = a_job(bot="search(ms=3000)")
        thinking = asyncio.create_task(tier.move(job, time.time() + 20, 3000))
        for _ in range(200):  # until the pool's worker process exists and has the job
            await asyncio.sleep(0.05)
            if tier._pool is not None and tier._pool._processes:
                break
        await asyncio.sleep(0.3)
        assert tier._pool is not None
        for pid in list(tier._pool._processes):
            os.kill(pid, signal.SIGKILL)
        outcomes.append(await thinking)
        outcomes.append(await tier.move(job, time.time() + 5, 50))  # a fresh pool takes the next
        await tier.close()

    asyncio.run(main())
    killed, after = outcomes
    assert killed.fallback == "failed"
    assert after.fallback is None and after.determinizations > 0


@pytest.mark.process
@pytest.mark.slow
def test_a_review_runs_through_the_tier_as_it_runs_here() -> None:
    table = Table("hokm(max_hands=1)", ["rules", "random", "rules"], seed=2)
    table.play()
    record = table.state.record()
    payload = {"record": record, "seat": 1, "budget": 4, "seed": 9}

    async def main() -> Any:
        tier = InProcessTier(1)
        try:
            return await tier.job(REVIEW, payload)
        finally:
            await tier.close()

    assert asyncio.run(main()) == review(record, 1, 4, 9)


class SilentTier:
    """A bot tier whose workers never answer (all busy, dead, or unreachable)."""

    def __init__(self) -> None:
        self.never = asyncio.Event()
        self.scheduler = Scheduler(self._run, lambda: 1)

    async def _run(self, ticket: Ticket, budget: int) -> Any:
        await self.never.wait()

    async def move(self, job: BotJob, deadline: float, nominal_ms: int) -> MoveOutcome:
        return await self.scheduler.move(job, deadline, nominal_ms)

    async def job(self, kind: str, payload: Any) -> Any:
        raise NotImplementedError

    def stats(self) -> dict[str, Any]:
        return self.scheduler.stats()

    async def close(self) -> None:
        await self.scheduler.close()


def test_a_server_table_whose_searches_never_answer_plays_the_rules_moves_by_the_deadlines() -> None:
    from cardhall.server.context import ServerContext
    from cardhall.store.sql import open_store

    settings = {"turn_seconds": 0, "away_seconds": 3600, "bot_pace_ms": 0}

    async def scenario() -> tuple[str, Any, dict[str, int]]:
        store = await open_store("sqlite+aiosqlite:///:memory:")
        ctx = ServerContext(store)
        tier = SilentTier()
        ctx._bot_tier = tier
        await ctx.start()
        try:
            bots = {0: "search(ms=100)", 1: "rules", 2: "search(ms=100)"}
            host = await ctx.lobby.create(None, "hokm(max_hands=1)", settings, bots)
            for _ in range(3000):  # (a ceiling: some 25 search moves, each answered 70 ms after it is asked)
                row = await store.table(host.id)
                assert row is not None
                if row.status == "finished":
                    break
                await asyncio.sleep(0.01)
            record = host.table.state.record() if host.table is not None else None
            return row.status, record, tier.scheduler.answered
        finally:
            await ctx.stop()

    status, record, answered = asyncio.run(scenario())
    assert status == "finished"
    cardhall.replay(record)
    assert answered["late"] > 0 and answered["search"] == 0


@pytest.mark.parametrize(
    ("argv", "named"),
    [(["bots", "--redis", "http://host:6379"], "--redis"), (["serve", "--bots", "host:6379"], "--bots")],
)
def test_a_bot_tier_url_that_is_not_redis_is_refused_in_one_line(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from cardhall.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert named in err and "Redis URL" in err and "\n" not in err
