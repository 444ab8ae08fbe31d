"""Thinking scheduled, not queued: every search move has a deadline and a weight, and the tier's worker
slots go to the heaviest decisions first, earliest deadline first within a weight, each with a think
budget that leaves time for the moves of its weight behind it.

- **Deadline**: a table asks for a move when the bot's turn starts, with its pace (``bot_pace_ms``)
  still to run; the move is due at ``start + pace + think``, ``think`` the bot's own ``ms`` capped at
  :data:`~cardhall.bot_tier.jobs.THINK_CAP_MS` (1 s). The search runs during the pace, so an idle tier
  plays a ``hard`` move exactly at the pace.
- **Weight**: what a search pays at that decision, from the game's bot rules module
  (:func:`cardhall.bots.rules.decision_weight`: its ``DECISION_WEIGHTS`` by phase; the tier knows no
  game). In Hokm the bids and the trump choice weigh more than a card played, because most of what the
  search gains over the rules bot is there; the other games' decisions are neutral (all one weight).
- **Heaviest first, then earliest deadline first**: the waiting moves are ordered by weight (heaviest
  first), then by deadline, then by arrival; a free slot takes the first. A long think at one table,
  or heavier decisions ahead, never hold another table's move past its deadline: at its deadline (less
  :data:`~cardhall.bot_tier.jobs.MARGIN_MS`) a move still waiting, or still thinking, is answered with
  the rules move (``fallback="late"``), computed here in microseconds; a late search result is dropped.
- **Budget under load**: the move taken gets ``min(its bot's ms, its own slack, and for each move of
  its weight or heavier waiting behind it at rank r (from 1), slack_r * slots / (r + 1 + running))``:
  the slots' time until each deadline shared among the moves due by then that would be served before it
  or with it; lighter moves are not counted (they are served after it). An idle tier grants the bot's
  full ``ms``; a busy one grants less (fewer determinizations), down to the rules move when less than
  :data:`~cardhall.bot_tier.jobs.MIN_THINK_MS` is left (``fallback="no_time"``), or when a lighter move
  is still waiting behind heavier ones at the end of its pace (``fallback="no_time"`` too).
- **What ``hard`` means under load**: it never waits past its deadline; it thinks less (a light move
  still waiting behind heavier ones when its pace has run out gets its rules move then, at its pace,
  rather than at its deadline: it would not have been served before the deadline anyway). An idle tier
  thinks every decision its full ``ms`` (300 ms for ``hard``); as the load grows the light decisions (in
  Hokm the cards played) are cut first, down to the rules move, while the heavy ones (Hokm's bids and
  trump) keep their full think for as long as the slots can give it to them all, and share the slots'
  time among themselves beyond that (down to the rules move too when there are more of them than the
  slots can think at all).
- Jobs without a deadline (reviews) come after every move, in arrival order.

:class:`EdfQueue` is the order and the arithmetic alone (every method takes ``now``: tests drive it
with a fake clock); :class:`Scheduler` runs it on the event loop against a ``run`` coroutine (the
in-process pool, or the Redis tier).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import math
import os
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from cardhall.bot_tier.jobs import MARGIN_MS, MIN_THINK_MS, MOVE, MoveOutcome, rules_move
from cardhall.bots.rules import NEUTRAL_WEIGHT, decision_weight
from cardhall.table import BotJob

log = logging.getLogger(__name__)
# The environment variable naming a number of seconds: the statistics also over the moves answered in
# the last that many seconds before they are read (the load benchmark's window).
WINDOW_VARIABLE = "CARDHALL_BOT_STATS_SECONDS"
LOOKAHEAD = 256  # waiting moves looked at when a budget is granted (the rest are due later still)


@dataclass(eq=False)
class Ticket:
    """One job in the scheduler: its kind, payload (a :class:`BotJob` for a move), deadline (epoch
    seconds; ``inf`` for none), nominal budget and weight (heavier first)."""

    kind: str
    payload: Any
    deadline: float = math.inf
    nominal_ms: int = 0
    weight: int = NEUTRAL_WEIGHT
    seq: int = 0
    granted_ms: int | None = None
    state: str = "new"  # new -> queued -> running -> finished (or expired / cancelled)
    future: asyncio.Future[Any] | None = field(default=None, repr=False)

    def key(self) -> tuple[int, float, int]:
        """The order served: heaviest first, then earliest deadline, then first come."""
        return (-self.weight, self.deadline, self.seq)


class EdfQueue:
    """The waiting jobs, heaviest first and earliest deadline first within a weight, and ``slots``
    workers' worth of running ones."""

    def __init__(self, slots: int = 1) -> None:
        self.slots = slots
        self._heap: list[tuple[tuple[int, float, int], Ticket]] = []
        self._seq = itertools.count()
        self.running = 0

    def add(self, ticket: Ticket) -> Ticket:
        ticket.seq = next(self._seq)
        ticket.state = "queued"
        heapq.heappush(self._heap, (ticket.key(), ticket))
        return ticket

    def cancel(self, ticket: Ticket) -> None:
        """Forget a waiting job (its table stopped, or it expired); a running one keeps its slot until
        :meth:`finished`."""
        if ticket.state == "queued":
            ticket.state = "cancelled"

    def _head(self) -> Ticket | None:
        while self._heap and self._heap[0][1].state != "queued":
            heapq.heappop(self._heap)
        return self._heap[0][1] if self._heap else None

    def grant(self, now: float, ticket: Ticket) -> int:
        """The think budget (ms) for ``ticket``, taken now ahead of every other waiting job: the moves of
        its weight and heavier waiting behind it share the slots' time with it, the lighter ones are
        left what remains (they are cut first)."""
        if ticket.kind != MOVE:
            return ticket.nominal_ms
        budget = min(ticket.nominal_ms, int((ticket.deadline - now) * 1000) - MARGIN_MS)
        # (By deadline: with the ticket the heaviest waiting, those counted are of its own weight.)
        behind = heapq.nsmallest(
            LOOKAHEAD,
            (
                (e.deadline, e.seq)
                for _, e in self._heap
                if e.state == "queued" and e.kind == MOVE and e.weight >= ticket.weight and e is not ticket
            ),
        )
        # (No floor for the heavy ones: measured, a few determinizations on every bid pay more than many
        # on a few of them, the rest the rules move; benchmarks/load.md.)
        for rank, (deadline, _) in enumerate(behind, start=1):
            share = (deadline - now) * 1000 * self.slots / (rank + 1 + self.running) - MARGIN_MS
            budget = min(budget, int(share))
        return budget

    def dispatch(self, now: float) -> list[tuple[Ticket, int]]:
        """The jobs to start now with their budgets, in :meth:`Ticket.key` order, while a slot is free. A
        move whose budget is under :data:`MIN_THINK_MS` is handed out too, without a slot: its caller
        plays the rules move."""
        out: list[tuple[Ticket, int]] = []
        while True:
            head = self._head()
            if head is None:
                return out
            budget = self.grant(now, head)
            if head.kind == MOVE and budget < MIN_THINK_MS:
                head.state, head.granted_ms = "finished", max(budget, 0)
                out.append((head, head.granted_ms))
                continue
            if self.running >= self.slots:
                return out
            head.state, head.granted_ms = "running", budget
            self.running += 1
            out.append((head, budget))

    def finished(self, ticket: Ticket) -> None:
        """A running job's worker is free again (whether or not its answer still counted)."""
        if ticket.state in ("running", "expired-running"):
            self.running -= 1
        ticket.state = "finished"

    def cut(self, ticket: Ticket) -> bool:
        """The end of ``ticket``'s pace has come: True (its caller plays the rules move now) when it is
        still waiting behind a heavier move, which would keep it from a slot until its deadline anyway;
        False when it may still be served (nothing heavier ahead: it is next by its deadline)."""
        head = self._head()
        if ticket.state != "queued" or ticket.kind != MOVE or head is None or head.weight <= ticket.weight:
            return False
        ticket.state = "expired"
        return True

    def expire(self, now: float, ticket: Ticket) -> bool:
        """The job's deadline (less the margin) has come: True when it had no answer yet (its caller plays
        the rules move). A running one keeps its slot until its worker is done."""
        if ticket.state == "queued":
            ticket.state = "expired"
            return True
        if ticket.state == "running":
            ticket.state = "expired-running"
            return True
        return False


Run = Callable[[Ticket, int], Awaitable[Any]]


def _summary(answered: dict[str, int], searched: deque[tuple[int, int]]) -> dict[str, Any]:
    budgets = sorted(b for b, _ in searched)
    done = sorted(d for _, d in searched)

    def at(xs: list[int], q: float) -> int | None:
        return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else None

    spread = {f"p{int(q * 100)}": (at(budgets, q), at(done, q)) for q in (0.1, 0.5, 0.9)}
    return {"answered": dict(answered), "searched_budget_ms_determinizations": spread}


class Scheduler:
    """:class:`EdfQueue` on the event loop: ``await move(job, deadline)`` answers by the deadline,
    always; ``await job(kind, payload)`` runs a job without one. ``run(ticket, budget_ms)`` does the
    work (a move's answer is a :class:`MoveOutcome`); ``slots()`` says how many workers there are now."""

    def __init__(self, run: Run, slots: Callable[[], int], clock: Callable[[], float] = time.time) -> None:
        self._run = run
        self._slots = slots
        self.clock = clock
        self.queue = EdfQueue(max(1, slots()))
        self._tasks: set[asyncio.Task[None]] = set()
        self.answered = {"search": 0, "no_time": 0, "late": 0, "failed": 0}
        # (budget granted ms, determinizations) of the latest moves searched: what "hard" got under load
        self.searched: deque[tuple[int, int]] = deque(maxlen=100_000)
        # The same per decision weight: what the heavy and the light decisions got.
        self.by_weight: dict[int, tuple[dict[str, int], deque[tuple[int, int]]]] = {}
        # (when, weight, how answered, budget, determinizations) of the latest moves: the statistics of
        # the last seconds alone (WINDOW_VARIABLE)
        self.recent: deque[tuple[float, int, str, int, int]] = deque(maxlen=200_000)

    async def move(
        self, job: BotJob, deadline: float, nominal_ms: int, weight: int | None = None
    ) -> MoveOutcome:
        """The move by ``deadline``; ``weight`` (None: the game's bot rules module's weight for the
        decision, :func:`~cardhall.bots.rules.decision_weight`) orders it among the waiting moves."""
        if weight is None:
            weight = decision_weight(job.game, job.observation)
        ticket = Ticket(MOVE, job, deadline, nominal_ms, weight)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[MoveOutcome] = loop.create_future()
        ticket.future = future
        self.queue.add(ticket)
        now = self.clock()
        timer = loop.call_later(max(0.0, deadline - MARGIN_MS / 1000 - now), self._expire, ticket)
        # (The pace ends ``nominal_ms`` before the deadline: a light move cut then is played at its pace.)
        pace = loop.call_later(max(0.0, deadline - nominal_ms / 1000 - now), self._cut, ticket)
        self.pump()
        try:
            outcome = await future
        finally:
            timer.cancel()
            pace.cancel()
            self.queue.cancel(ticket)
        how = "search" if outcome.fallback is None else outcome.fallback
        answered, searched = self.by_weight.setdefault(
            weight, ({k: 0 for k in self.answered}, deque(maxlen=100_000))
        )
        self.answered[how] += 1
        answered[how] += 1
        if outcome.fallback is None and outcome.determinizations:
            self.searched.append((outcome.budget_ms, outcome.determinizations))
            searched.append((outcome.budget_ms, outcome.determinizations))
        self.recent.append((time.time(), weight, how, outcome.budget_ms, outcome.determinizations))
        return outcome

    def stats(self) -> dict[str, Any]:
        """How the moves were answered, and the budgets and determinizations of those searched; the same
        per decision weight (``by_weight``); with :data:`WINDOW_VARIABLE` set to N, also all of it over
        the moves answered in the last N seconds alone (``window``: a benchmark's measured window,
        without its warm-up)."""
        out = {
            **_summary(self.answered, self.searched),
            "by_weight": {str(w): _summary(a, s) for w, (a, s) in sorted(self.by_weight.items())},
        }
        seconds = os.environ.get(WINDOW_VARIABLE)
        if seconds:
            since = time.time() - float(seconds)
            answered: dict[int, dict[str, int]] = {}
            searched: dict[int, deque[tuple[int, int]]] = {}
            for when, weight, how, budget, done in self.recent:
                if when < since:
                    continue
                answered.setdefault(weight, {k: 0 for k in self.answered})[how] += 1
                kept = searched.setdefault(weight, deque())
                if how == "search" and done:
                    kept.append((budget, done))
            total = {k: sum(a[k] for a in answered.values()) for k in self.answered}
            every: deque[tuple[int, int]] = deque(x for s in searched.values() for x in s)
            out["window"] = {
                "seconds": float(seconds),
                **_summary(total, every),
                "by_weight": {str(w): _summary(answered[w], searched[w]) for w in sorted(answered)},
            }
        return out

    async def job(self, kind: str, payload: Any) -> Any:
        ticket = Ticket(kind, payload)
        ticket.future = asyncio.get_running_loop().create_future()
        self.queue.add(ticket)
        self.pump()
        try:
            return await ticket.future
        finally:
            self.queue.cancel(ticket)

    def pump(self) -> None:
        """Start what may start now."""
        self.queue.slots = max(1, self._slots())
        for ticket, budget in self.queue.dispatch(self.clock()):
            if ticket.state == "finished":  # no time to search: the rules move, here and now
                self._answer(ticket, MoveOutcome(rules_move(ticket.payload), budget, 0, "no_time"))
                continue
            task = asyncio.create_task(self._work(ticket, budget))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _work(self, ticket: Ticket, budget: int) -> None:
        try:
            answer = await self._run(ticket, budget)
        except asyncio.CancelledError:
            raise
        except Exception as e:
            if ticket.future is not None and not ticket.future.done():  # (not a move answered late)
                log.warning("bot tier: a %s job failed (%s)", ticket.kind, e)
            if ticket.kind == MOVE:
                answer = MoveOutcome(rules_move(ticket.payload), budget, 0, "failed")
            else:
                if ticket.future is not None and not ticket.future.done():
                    ticket.future.set_exception(e)
                return
        finally:
            self.queue.finished(ticket)
            self.pump()
        self._answer(ticket, answer)

    def _answer(self, ticket: Ticket, answer: Any) -> None:
        if ticket.future is not None and not ticket.future.done():
            ticket.future.set_result(answer)

    def _cut(self, ticket: Ticket) -> None:
        if self.queue.cut(ticket):
            self._answer(ticket, MoveOutcome(rules_move(ticket.payload), 0, 0, "no_time"))

    def _expire(self, ticket: Ticket) -> None:
        if self.queue.expire(self.clock(), ticket):
            self._answer(ticket, MoveOutcome(rules_move(ticket.payload), ticket.granted_ms or 0, 0, "late"))

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
