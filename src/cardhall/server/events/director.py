"""An event's director: the one process of a hall that starts an event at its time, seats its people
and tells its followers the standings, under a lease on the event's row (the store's
:meth:`~cardhall.store.events.Events.claim_event`, on the database's clock, renewed every
:data:`RENEW_SECONDS`, lapsing after :data:`LEASE_SECONDS`).

Choices:

- **From the store, read once**: the event's row and its sign-ups at every step; its tables with
  their rows and results on the director's first step (and whenever the store counts tables it does
  not know: a stale director's), then only the tables it made and, by their ids, those it saw open
  that have ended since (:meth:`Director.read`: a step costs the open tables, not the event's
  length: every table of a 1,000-person arena at 2,800 tables was 171 ms a step). An arena's standings
  are kept in a :class:`~cardhall.server.events.scoring.ArenaBoard` that each ended table is added
  to, equal to their recomputation from every row (tested), and built from the rows alone on a new
  director's first step: nothing of an event lives only in a director's memory, so another process
  that takes the lease after a crash computes the same standings.
- **A step a second** (:data:`WAVE_SECONDS`), and sooner when a table of the event held by this
  process ends (:meth:`Director.poke`; :data:`STEP_SPACING` apart at least, so a thousand tables
  ending together make a few steps, not a thousand): an arena's wave seats whoever is free; a
  duplicate event's next round starts when every table of the round before has ended. A poke also
  wakes the director's scoring task, which reads the ended tables and pushes the standings at once,
  between steps (not after a step's seating and spacing); the service publishes at most one frame an
  event per :data:`~cardhall.server.events.service.PUSH_SPACING`, the newest.
- **Arena**: free = signed up, not withdrawn, connected somewhere in the hall (presence), and at no
  unfinished table of the event; seated by :func:`cardhall.events.arena.seat_free` (rank in the
  standings, the rating of the game's ``people`` pool, his last table's people kept apart); those left
  over wait :data:`ARENA_MIN_WAIT` seconds for others to come free, then sit with bots. No table
  starts after the event's end; it finishes when its last table ends.
- **Duplicate**: seated by :func:`cardhall.events.duplicate.swiss_seating`; a round's seed is the
  event's id and round hashed, so every table of the round deals the same cards seat by seat (a hand
  is a seat: :mod:`cardhall.server.events.scoring` says why), and the people of the table at index t
  sit from seat t mod n on (the rotation: the first of its list at seat t mod n), so that the leaders
  of the tables hold different hands. Every signed-up person not withdrawn plays every round (a
  stand-in for whoever is not connected, as at any table; his match then earns him nothing).
- **A crash in the middle of a round's seating** (some tables made, not all): the next director finds
  people signed up with no table in the current round and seats them with the round's seed (the
  same cards), at once. A crash between making a table and storing it as the event's leaves that table
  outside the event (its match is played and rated, not counted; its people are seated again).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import heapq
import logging
import time
from collections.abc import Callable, Collection
from datetime import UTC, datetime
from typing import Any, Protocol

from cardhall.events.arena import Free, seat_free
from cardhall.events.duplicate import swiss_seating
from cardhall.events.model import Entrant
from cardhall.registry import load_game
from cardhall.server.events.scoring import ArenaBoard, Line, standings
from cardhall.server.events.shapes import current_round, table_entry
from cardhall.server.hall import Options
from cardhall.server.lobby import Lobby
from cardhall.server.protocol import EventFrame, SeatedFrame
from cardhall.server.ratings import SHOWN_START, shown
from cardhall.server.relations import Relations
from cardhall.server.settings import bot_for_level
from cardhall.server.stopping import cancel_and_wait
from cardhall.store import Store
from cardhall.store.events import EventRow, EventTable, EventTableRow, SignupRow
from cardhall.store.rows import TableStatus


class Context(Protocol):
    """What events ask of the server (:class:`~cardhall.server.context.ServerContext` has it)."""

    store: Store
    lobby: Lobby
    social: Relations
    hall_options: Options


class Host(Protocol):
    """What a director asks of the process's events (:class:`.service.EventsService`)."""

    ctx: Context
    node: str

    async def changed(
        self, event: EventRow, frame: EventFrame | Callable[[], EventFrame] | None = None
    ) -> None: ...

    def directed(self, event_id: str, director: Director) -> None: ...

    def table_made(self, table_id: str, event_id: str) -> None: ...


log = logging.getLogger(__name__)
WAVE_SECONDS = 1.0
STEP_SPACING = 0.2  # seconds at least between two steps, however many tables end (pokes coalesce)
SCORE_SPACING = 0.25  # seconds at least between two readings of the scoring task (the push's spacing)
ARENA_SLICE = 60  # free people seated by one call of seat_free at most (a bigger pool: slices by rank)
LEASE_SECONDS = 6.0
RENEW_SECONDS = 2.0
ARENA_MIN_WAIT = 3.0
FRAME_TABLES = 100  # the newest tables an ``event`` frame lists
ENDED = (TableStatus.FINISHED, TableStatus.ABANDONED, TableStatus.BROKEN)


def round_seed(event_id: str, round_number: int) -> int:
    digest = hashlib.sha256(f"{event_id}:{round_number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1  # (63 bits, as a table's seed)


async def standings_of(
    store: Store, event: EventRow, signups: list[SignupRow], tables: list[EventTable]
) -> list[Line]:
    """The event's standings from the store's rows (a duplicate event's records read for its deals)."""
    if event.kind == "arena":
        return standings(event, signups, tables)
    ended = [t for t in tables if t.table.status == TableStatus.FINISHED]
    actions = {t.table.id: await store.actions(t.table.id) for t in ended}
    return standings(event, signups, tables, actions)


def frame_of(event: EventRow, tables: Collection[EventTable], lines: list[Line]) -> EventFrame:
    newest = heapq.nlargest(FRAME_TABLES, tables, key=lambda t: (t.entry.round, t.entry.index))
    return EventFrame(
        event=event.id,
        status=event.status,
        round=current_round(event, tables),
        standings=[line.entry() for line in lines],
        tables=[table_entry(t) for t in newest],
    )


async def event_frame(store: Store, event: EventRow) -> EventFrame:
    """The event's ``event`` frame, from the store."""
    signups = await store.signups(event.id)
    tables = await store.event_tables(event.id)
    return frame_of(event, tables, await standings_of(store, event, signups, tables))


def arena_slices(free: list[Free], seats: int, clock: float) -> list[tuple[str, ...]]:
    """:func:`~cardhall.events.arena.seat_free` of a pool of any size: beyond :data:`ARENA_SLICE`
    people (an arena's first wave: everyone at once) the pool is cut in rank order into slices of
    whole tables, each seated alone (the partition's cost grows faster than its size: 1,000 free at
    once took 2.3 s in one call), the last slice keeping the leftovers."""
    if len(free) <= ARENA_SLICE:
        return seat_free(free, seats, clock, min_wait=ARENA_MIN_WAIT)
    size = max(seats, ARENA_SLICE // seats * seats)
    ordered = sorted(free, key=lambda f: (f.rank, f.player))
    slices = [ordered[i : i + size] for i in range(0, len(ordered), size)]
    if len(slices) > 1 and len(slices[-1]) < size:
        slices[-2].extend(slices.pop())
    out: list[tuple[str, ...]] = []
    for part in slices:
        out.extend(seat_free(part, seats, clock, min_wait=ARENA_MIN_WAIT))
    return out


def _place(t: EventTable) -> tuple[int, int]:
    return t.entry.round, t.entry.index


class Director:
    def __init__(self, service: Host, event_id: str) -> None:
        self.service = service
        self.event_id = event_id
        self.ctx = service.ctx
        self._poked = asyncio.Event()  # (the step's)
        self._to_score = asyncio.Event()  # (the scoring's, between steps)
        self._reading = asyncio.Lock()  # (one reading of the tables at a time: the step's or the scoring's)
        self._event: EventRow | None = None  # as the last step read it
        self._signups: list[SignupRow] = []  # as the last step read them
        self._making = 0  # tables being stored as the event's by a seating, not read back yet
        self._free_since: dict[int, float] = {}
        self._renewed = 0.0
        # The event's tables as last read (by id, in the order of their round and index), those of
        # them open then, each person's newest table, the newest round, and an arena's standings
        # counted from the finished ones: a step reads only what changed (:meth:`read`).
        self._tables: dict[str, EventTable] = {}
        self._open: set[str] = set()
        self._last: dict[int, str] = {}
        self._round = 0
        self._board: ArenaBoard | None = None
        self._lines_key: object = None  # what the arena's standings below were computed from
        self._lines: list[Line] = []
        self.full_reads = 0  # reads of every table (the first step's, then none unless tables are missing)
        self.done = False

    def poke(self) -> None:
        """A table of the event ended here (or someone signed up): score it at once, seat soon."""
        self._poked.set()
        self._to_score.set()

    async def run(self) -> None:
        node = self.service.node
        store = self.ctx.store
        scoring = asyncio.create_task(self._scoring(), name=f"event {self.event_id}: scoring")
        try:
            while True:
                if time.monotonic() - self._renewed >= RENEW_SECONDS:
                    if not await store.claim_event(self.event_id, node, LEASE_SECONDS):
                        log.info("event %s: its lease went to another process", self.event_id)
                        return
                    self._renewed = time.monotonic()
                try:
                    await self.step()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("event %s: a step failed (tried again)", self.event_id)
                if self.done:
                    break
                await asyncio.sleep(STEP_SPACING)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._poked.wait(), WAVE_SECONDS - STEP_SPACING)
                self._poked.clear()
            await store.release_event(self.event_id, node)
        finally:
            await cancel_and_wait([scoring])
            self.service.directed(self.event_id, self)

    async def _scoring(self) -> None:
        """Between two steps, a table's end is scored and pushed at once, not after the step's seating
        and spacing (the step's own reading scores what this did not)."""
        while True:
            await self._to_score.wait()
            self._to_score.clear()
            event = self._event
            if event is None or event.status != "running":
                continue
            try:
                await self.score(event)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("event %s: scoring failed (the next step scores it)", self.event_id)
            # (the tables ending meanwhile are read together: the followers get a frame a spacing at
            # most anyway, and a reading a table would take the store and the lock from the seating)
            await asyncio.sleep(SCORE_SPACING)

    async def score(self, event: EventRow) -> list[EventTable]:
        """Read the tables that ended since the last reading and push the standings they change."""
        async with self._reading:
            news = await self.read(event)
        if news:
            if event.kind == "arena":
                # (made when it goes out: the standings as they are then, at most one frame a spacing)
                await self.service.changed(event, lambda: self.arena_frame(event))
            else:
                await self.service.changed(event)
        return news

    async def step(self) -> None:
        store = self.ctx.store
        event = await store.event(self.event_id)
        if event is None or event.status in ("finished", "cancelled"):
            self.done = True
            return
        now = datetime.now(UTC)
        if event.status == "upcoming":
            if now < event.starts_at:
                return
            await store.set_event_status(event.id, "running", ["upcoming"])
            event.status = "running"
            await self.service.changed(event)
        self._event = event
        signups = self._signups = await store.signups(event.id)
        # The standings first (their followers wait for them), then the seating.
        await self.score(event)
        if event.kind == "arena":
            finished = await self.arena(event, now, signups, self.arena_lines(event, signups))
        else:
            finished = await self.duplicate(event, list(self._tables.values()), signups)
        if finished:
            await store.set_event_status(event.id, "finished", ["running"])
            event.status = "finished"
            self.done = True
            await self.service.changed(event)

    async def read(self, event: EventRow) -> list[EventTable]:
        """Bring the event's tables up to date from the store; those that ended since the last read.

        Every table once (the first step, or when the store counts tables this director does not
        know: another process's, a stale director's), then only those it saw open that have ended
        since, by their ids: a step's reading costs the open tables, not the event's length."""
        store = self.ctx.store
        known = len(self._tables)
        if (
            not self.full_reads
            or not known <= await store.event_table_count(event.id) <= known + self._making
        ):
            self.full_reads += 1
            tables = await store.event_tables(event.id)
            # (replaced at once, no await between: a seating never sees the tables half read)
            ended = {i for i, t in self._tables.items() if t.table.status in ENDED}
            self._tables, self._open, self._last, self._round = {}, set(), {}, 0
            self._board = ArenaBoard(event) if event.kind == "arena" else None
            self.take(event, tables)
            return [t for t in tables if t.table.status in ENDED and t.table.id not in ended]
        if not self._open:
            return []
        return self.take(event, await store.event_tables_among(event.id, self._open, ended=True))

    def take(self, event: EventRow, tables: list[EventTable]) -> list[EventTable]:
        """Keep ``tables`` as read (round, then index); those of them ended."""
        ended = []
        for t in tables:
            was = self._tables.get(t.table.id)
            self._tables[t.table.id] = t
            self._round = max(self._round, t.entry.round)
            if t.table.status in ENDED:
                if was is None or was.table.status not in ENDED:
                    ended.append(t)  # (not one known ended: another reading may have taken it first)
                self._open.discard(t.table.id)
            else:
                self._open.add(t.table.id)
            for seat in t.table.seats:
                if seat.player_id is not None:
                    newest = self._tables.get(self._last.get(seat.player_id, ""))
                    if newest is None or _place(newest) <= _place(t):
                        self._last[seat.player_id] = t.table.id
            if self._board is not None:
                self._board.note(t)
        return ended

    def arena_frame(self, event: EventRow) -> EventFrame:
        return frame_of(event, self._tables.values(), self.arena_lines(event, self._signups))

    def arena_lines(self, event: EventRow, signups: list[SignupRow]) -> list[Line]:
        """The arena's standings now, computed again only when a table was counted or someone came or
        went (:class:`~cardhall.server.events.scoring.ArenaBoard`: the new tables only are added)."""
        assert self._board is not None
        key = (len(self._board.tally), tuple((u.player_id, u.left_at) for u in signups))
        if key != self._lines_key:
            self._lines_key, self._lines = key, self._board.lines(signups)
        return self._lines

    # --- arena -----------------------------------------------------------------------------------

    async def arena(
        self, event: EventRow, now: datetime, signups: list[SignupRow], lines: list[Line]
    ) -> bool:
        open_tables = [self._tables[i] for i in self._open]
        assert event.ends_at is not None
        if now >= event.ends_at:
            return not open_tables
        busy = {s.player_id for t in open_tables for s in t.table.seats if s.player_id is not None}
        present = [s.player_id for s in signups if s.left_at is None and s.player_id not in busy]
        online = await self.ctx.social.presence.online(present) if present else set()
        free_ids = [p for p in present if p in online]
        clock = time.time()
        last = {p: self._tables[self._last[p]] for p in free_ids if p in self._last}
        for p in list(self._free_since):
            if p not in free_ids:
                del self._free_since[p]
        for p in free_ids:
            if p not in self._free_since:
                newest = last.get(p)
                ended_at = newest.table.finished_at if newest is not None else None
                self._free_since[p] = ended_at.timestamp() if ended_at is not None else clock
        if not free_ids:
            return False
        order = {line.player: line.standing.rank for line in lines}
        ratings = await self._ratings(event, free_ids)
        free = [
            Free(
                str(p),
                ratings[p],
                order.get(p, len(order) + 1),
                self._free_since[p],
                frozenset(str(s.player_id) for s in last[p].table.seats if s.player_id not in (None, p))
                if p in last
                else frozenset(),
            )
            for p in free_ids
        ]
        seats = load_game(event.game).num_players
        wave = 1 + self._round
        made = [
            ([int(p) for p in people], seats - len(people), index)
            for index, people in enumerate(arena_slices(free, seats, clock))
        ]
        if made:
            await self.seat(event, made, wave, None, clock)
        return False

    async def _ratings(self, event: EventRow, ids: list[int]) -> dict[int, float]:
        rated = await self.ctx.store.ratings(load_game(event.game).name, "people", ids)
        return {p: float(shown(rated[p].mu)) if p in rated else float(SHOWN_START) for p in ids}

    # --- duplicate -------------------------------------------------------------------------------

    async def duplicate(self, event: EventRow, tables: list[EventTable], signups: list[SignupRow]) -> bool:
        assert event.rounds is not None
        round_now = max((t.entry.round for t in tables), default=0)
        current = [t for t in tables if t.entry.round == round_now]
        present = [s.player_id for s in signups if s.left_at is None]
        if round_now:
            seated = {s.player_id for t in current for s in t.table.seats if s.player_id is not None}
            missing = [p for p in present if p not in seated]
            if missing:  # (a crash cut the round's seating short, or he came back: the round's cards)
                first = 1 + max(t.entry.index for t in current)
                await self.seat_round(event, signups, tables, missing, round_now, first)
                return False
        if any(t.table.status not in ENDED for t in current):
            return False
        if round_now >= event.rounds or not present:
            return True
        await self.seat_round(event, signups, tables, present, round_now + 1, 0)
        return False

    async def seat_round(
        self,
        event: EventRow,
        signups: list[SignupRow],
        tables: list[EventTable],
        present: list[int],
        round_number: int,
        first_index: int,
    ) -> None:
        """Seat ``present`` at tables of round ``round_number`` (its seed), indexes from ``first_index``."""
        ratings = await self._ratings(event, present)
        rank: dict[int, int] = {}
        if round_number > 1:
            lines = await standings_of(self.ctx.store, event, signups, tables)
            rank = {line.player: line.standing.rank for line in lines}
        entrants = [Entrant(str(p), ratings[p], rank.get(p, len(rank) + 1)) for p in present]
        met: dict[str, set[str]] = {}
        for t in tables:
            sat = {str(s.player_id) for s in t.table.seats if s.player_id is not None}
            for p in sat:
                met.setdefault(p, set()).update(sat - {p})
        seats = load_game(event.game).num_players
        frozen = {p: frozenset(m) for p, m in met.items()}
        seed = round_seed(event.id, round_number)
        made = [
            ([int(p) for p in people], seats - len(people), first_index + offset)
            for offset, people in enumerate(swiss_seating(entrants, seats, frozen, round_number))
        ]
        if made:
            await self.seat(event, made, round_number, seed, None)
        await self.service.changed(event)

    # --- a table ---------------------------------------------------------------------------------

    async def seat(
        self,
        event: EventRow,
        tables: list[tuple[list[int], int, int]],
        round_number: int,
        seed: int | None,
        clock: float | None,
    ) -> None:
        """Make the tables of a wave or round at once (``(people, bots, index)`` each: people from seat
        ``index mod seats`` on for duplicate, bots in the other seats), store them as the event's in
        one write, and tell their people. At once, not one by one: the new tables' rows share the
        group commits (a wave of 330 tables made one by one took 5 s to seat its last person)."""
        people = [p for table, _, _ in tables for p in table]
        rows = await self.ctx.store.players(people)
        bot = bot_for_level(event.options.get("level", "normal"))
        settings: dict[str, Any] = dict(event.options.get("settings", {}))
        plans = []
        for players, bots, index in tables:
            seats = len(players) + bots
            rotation = index % seats if seed is not None else 0
            seated = {(i + rotation) % seats: rows[p] for i, p in enumerate(players) if p in rows}
            bot_seats = {s: bot for s in range(seats) if s not in seated}
            plans.append((seated, bot_seats, index, rotation))
        hosts = await asyncio.gather(
            *(
                self.ctx.lobby.create(None, event.game, settings, bot_seats, seated, seed=seed)
                for seated, bot_seats, _, _ in plans
            )
        )
        self._making += len(hosts)
        try:
            await self.ctx.store.add_event_tables(
                [
                    EventTableRow(event.id, host.id, round_number, index, rotation)
                    for host, (_, _, index, rotation) in zip(hosts, plans, strict=True)
                ]
            )
            now = time.time()
            for host, (seated, _, _, _) in zip(hosts, plans, strict=True):
                self.service.table_made(host.id, event.id)
                for seat, player in seated.items():
                    since = self._free_since.pop(player.id, None)
                    waited = 0.0 if clock is None or since is None else round(max(0.0, now - since), 3)
                    frame = SeatedFrame(
                        table=host.id, seat=seat, game=event.game, waited=waited, event=event.id
                    )
                    await self.ctx.social.presence.send(player.id, frame)
            # (then read back as stored, their people told first: the next step knows them without
            # reading the event's every table)
            self.take(event, await self.ctx.store.event_tables_among(event.id, [host.id for host in hosts]))
        finally:
            self._making -= len(hosts)
