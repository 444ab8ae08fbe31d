"""A bot move whose search never answers gets its fallback (the rules move) *before* its deadline: at the
deadline less :data:`~cardhall.bot_tier.jobs.MARGIN_MS`, the time kept for the answer's way back and its
apply (issue 47: a planted bug that answered at the deadline itself went unnoticed; the scheduler's
other tests used a clock fixed at 0, where "due now" hid by how much).

Measured on a loop of virtual time: its clock jumps to the next timer whenever nothing is ready (a
selector that never waits), so when the answer comes is exact and a loaded machine cannot move it.
"""

from __future__ import annotations

import asyncio
import selectors
from typing import Any

from cardhall.bot_tier.jobs import MARGIN_MS, MoveOutcome, rules_move
from cardhall.bot_tier.schedule import Scheduler, Ticket
from tests.bot_tier.test_bot_tier import a_job


class VirtualSelector(selectors.DefaultSelector):
    """Never waits: a wait of ``timeout`` seconds moves the loop's virtual clock on by as much."""

    def __init__(self, clock: list[float]) -> None:
        super().__init__()
        self.clock = clock

    def select(self, timeout: float | None = None) -> list[Any]:
        ready = super().select(0)
        if not ready and timeout:
            self.clock[0] += timeout
        return ready


class VirtualLoop(asyncio.SelectorEventLoop):
    def __init__(self) -> None:
        self.virtual = [1_000.0]
        super().__init__(VirtualSelector(self.virtual))

    def time(self) -> float:
        return self.virtual[0]


def test_a_search_that_never_answers_gets_the_rules_move_by_its_deadline_less_the_margin() -> None:
    job = a_job()
    never = asyncio.Event()

    async def run(ticket: Ticket, budget: int) -> MoveOutcome:
        await never.wait()  # a worker that never answers
        raise AssertionError("unreachable")

    async def main() -> tuple[float, float, MoveOutcome]:
        loop = asyncio.get_running_loop()
        scheduler = Scheduler(run, lambda: 1, clock=loop.time)  # (epoch seconds = the loop's clock here)
        deadline = loop.time() + 2.0
        outcome = await scheduler.move(job, deadline, 300)
        answered = loop.time()
        await scheduler.close()
        return deadline, answered, outcome

    loop = VirtualLoop()
    try:
        deadline, answered, outcome = loop.run_until_complete(main())
    finally:
        loop.close()
    assert outcome.fallback == "late" and outcome.result.action == rules_move(job).action
    # Before the deadline by the margin, on the loop's clock (and not long before: it waited for the search).
    assert answered <= deadline - MARGIN_MS / 1000 + 1e-9, (deadline - answered) * 1000
    assert answered >= deadline - MARGIN_MS / 1000 - 0.01, (deadline - answered) * 1000
