"""The waves of "Play now": for each pool with people waiting, the process that leads it (one in a hall:
:meth:`~cardhall.server.seeking.Seekers.lead`) runs :func:`~cardhall.server.matching.match` every
:data:`WAVE_SECONDS`, and at once when asked (a person pressed "Play now" and a table's worth waits, or
someone is due his bots); it takes the chosen people out of the queue atomically, has the tables made
and the bots' seats given, and records the waits. What a table is, and how a person is told, are the
caller's (the server's callbacks): this module knows the queue and the matcher only.

Choices:

- **Claimed, then made.** A wave's table is made only with everyone it chose still waiting (a person who
  left meanwhile, or whom another process's wave took, spoils that table for this wave: the others are
  put back and meet again in the next). A table that cannot be made (the store failed) puts its people
  back, their waits kept. So a person is at most at one table, whatever fails.
- **Waits recorded** (the lobby's usual wait) for everyone seated, at a new table or in a bot's seat
  given (promised from the table's next deal: the wait until then is the table's, not the queue's).
- **A lead that lapses.** A process leads a pool for :data:`LEAD_SECONDS` at a time, renewed at each
  wave; if it dies, another takes the pool within that time, and nobody waiting is lost (the queue is
  the hall's, not the process's).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from cardhall.server.matching import BOT_WAIT, NewTable, OpenTable, Seeker, Wave, match, next_due
from cardhall.server.seeking import Seekers, now
from cardhall.server.stopping import cancel_and_wait

log = logging.getLogger(__name__)

WAVE_SECONDS = 2.0
WAVE_GAP = 0.25  # at least this between two waves of a process: at 100 arrivals a second, a wave for
# each cost 3.2 ms of CPU per person seated in Hearts' pool (benchmarks/matching.md)
LEAD_SECONDS = 6.0  # (three waves: a leader that stalls for one wave keeps its pools)

MakeTable = Callable[[str, NewTable, list[Seeker]], Awaitable[str]]
GiveSeat = Callable[[str, Seeker], Awaitable[bool]]
OpenTables = Callable[[str], Awaitable[list[OpenTable]]]


@dataclass
class Pool:
    """What a pool's waves need of the caller: its tables' seats, and the bot wait."""

    seats: int
    bot_wait: float = BOT_WAIT


@dataclass
class Matchmaker:
    """Runs the waves of the pools this ``node`` leads. ``make_table(pool, table, people)`` makes a
    table and seats them (its id; raises if it cannot); ``give_seat(table, person)`` seats a person in
    a bot's seat from that table's next deal (False: the seat is gone); ``open_tables(pool)`` lists the
    tables of that pool whose bots' seats are open."""

    seekers: Seekers
    node: str
    pools: Callable[[str], Pool]
    make_table: MakeTable
    give_seat: GiveSeat
    open_tables: OpenTables
    clock: Callable[[], float] = now
    every: float = WAVE_SECONDS
    made: int = 0
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _task: asyncio.Task[None] | None = None

    async def wave(self, pool: str) -> Wave | None:
        """One wave of ``pool`` if this process leads it (None: another does)."""
        if not await self.seekers.lead(pool, self.node, LEAD_SECONDS):
            return None
        rules = self.pools(pool)
        waiting = {s.player: s for s in await self.seekers.waiting(pool)}
        at = self.clock()
        wave = match(waiting.values(), rules.seats, at, rules.bot_wait, await self.open_tables(pool))
        done = Wave()
        for table in wave.tables:
            claimed = await self.seekers.claim(pool, list(table.players))
            people = [waiting[p] for p in claimed]
            if len(claimed) != len(table.players):
                await self.seekers.put_back(pool, people)  # (spoilt: they meet again next wave)
                continue
            try:
                await self.make_table(pool, table, people)
            except Exception:
                log.exception("a table of pool %s could not be made: its people wait again", pool)
                await self.seekers.put_back(pool, people)
                continue
            self.made += 1
            done.tables.append(table)
            for person in people:
                await self.seekers.record_wait(pool, at - person.since)
        for takeover in wave.takeovers:
            if not await self.seekers.claim(pool, [takeover.player]):
                continue
            person = waiting[takeover.player]
            try:
                given = await self.give_seat(takeover.table, person)
            except Exception:
                log.exception("a bot's seat at %s could not be given", takeover.table)
                given = False
            if given:
                done.takeovers.append(takeover)
                await self.seekers.record_wait(pool, at - person.since)  # (his wait for a seat: a wait)
            else:
                await self.seekers.put_back(pool, [person])
        return done

    def poke(self) -> None:
        """Run the waves now (someone arrived, or left)."""
        self._wake.set()

    async def run_once(self) -> float:
        """A wave of every pool with people waiting; the seconds until the next is due."""
        pause = self.every
        for pool in list(await self.seekers.counts()):
            try:
                await self.wave(pool)
                rules = self.pools(pool)
                due = next_due(await self.seekers.waiting(pool), self.clock(), rules.bot_wait)
            except Exception:
                log.exception("the waves of pool %s failed", pool)
                continue
            if due is not None:
                pause = min(pause, max(0.05, due - self.clock()))
        return pause

    async def _run(self) -> None:
        while True:
            self._wake.clear()  # (before the wave: a poke during it runs another soon)
            try:
                pause = await self.run_once()
            except Exception:  # (the queue unreadable, Redis down: the loop lives on and tries again)
                log.exception("the waves of play now failed")
                pause = self.every
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), pause)
            await asyncio.sleep(WAVE_GAP)  # (the pokes of a burst of arrivals make one wave)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="play now waves")

    async def stop(self) -> None:
        if self._task is not None:
            await cancel_and_wait([self._task])
            self._task = None
