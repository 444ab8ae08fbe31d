"""The table's owner as a pure state machine: every command (a seat taken, an action, a bot's move, a
timer running out, the store failing or coming back, the table taken by another process) is a method of
:class:`TableMachine` that changes the table and says what must follow, as
:mod:`~cardhall.server.host.effects`: the writes to commit, then the frames, timers, bot and hint jobs.
No asyncio, no store, no socket: the actor (:class:`~cardhall.server.host.TableHost`) commits and sends,
and the tests drive it by hand (:func:`drive`).

- :class:`TableMachine` holds the table's state and what every command shares (admission, frames, turn
  and away timers, dealing); each command is a plain function of one module of one purpose, which its
  method calls: :mod:`.seating` (who sits and watches), :mod:`.play` (moves, bots, stand-ins, going on),
  :mod:`.playnow` (a bot's seat promised for the next deal), :mod:`.hints`, :mod:`.lease` (the store's
  failures and the table leaving this process) and :mod:`.ending` (the match's end, a stopped table).
  They read the machine through :class:`~.base.Machine`, so no import runs back up to this module.
- A command that writes is a generator: it yields each :class:`~effects.Write` and is sent back how the
  commit went. What it changed before a write is held only once the write is committed (seats, a
  status, a match's end), except a move, which is applied first and undone when the store does not
  take it (see :mod:`.lease`): the match in memory is never ahead of the store.
- Each command is admitted by the table's status first (:data:`~cardhall.server.host.status.DECISIONS`):
  run, ignored, or refused with a reason; then by what it asks (a seat taken, a move out of turn).
- The table's life is one :class:`~cardhall.server.host.status.TableStatus`, moved only through its
  checked transitions.
- Frames are built by :mod:`cardhall.server.host.frames`, for each connection's seat, when the command
  decides them; the clock of the turn timers' deadlines is the machine's ``clock`` (tests pass one).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from cardhall.server import bounds
from cardhall.server.host import frames
from cardhall.server.host.audience import Audience, Listener
from cardhall.server.host.effects import AwayTimer, Effects, TurnTimer
from cardhall.server.host.machine import ending, hints, lease, play, playnow, seating
from cardhall.server.host.machine.base import (
    HINT_BOT,
    STORE_UNAVAILABLE,
    UNDER_WAY,
    Run,
    drive,
    occupant,
)
from cardhall.server.host.status import DECISIONS, IGNORE, RUN, Command, P, TableStatus, Z, moved
from cardhall.server.protocol import ProtocolError, ServerFrame, TableFrame
from cardhall.store import ActionRow, PlayerRow, SeatKind, SeatRow, TableRow
from cardhall.table import BotJob, BotResult, Event, Table

__all__ = ["HINT_BOT", "STORE_UNAVAILABLE", "UNDER_WAY", "Run", "TableMachine", "drive", "occupant"]


class TableMachine:
    """One table's state and its commands (each a method calling its module's function)."""

    def __init__(self, row: TableRow, clock: Callable[[], float] = time.time) -> None:
        self.row = row
        self.clock = clock
        self.status = TableStatus.of_row(row.status)
        self.table: Table | None = None
        self.audience = Audience(len(row.seats))
        self.stored = 0  # the actions of the match the store holds: the next is number stored + 1
        # Per seat: the stored actions the bot standing in for its person made (ratings.absence counts
        # a match played by a stand-in from them; a restart counts them again from the stored actions).
        self.by_stand_in = [0] * len(row.seats)
        self.finish_due = False  # the match is over but its end not stored yet (paused until it is)
        self.max_actions = bounds.max_actions(row.game.partition("(")[0])
        self.bot_busy = False  # a bot move is under way (its pace, its thinking)
        self.hinting: set[int] = set()  # seats whose hint is being searched
        self.encoded = frames.Encoded()  # what its frames repeat, encoded once (see frames.py)
        self.turns: dict[int, tuple[int, float]] = {}  # seat -> (its choice's event, deadline epoch s)
        self.away: set[int] = set()  # seats whose away timer runs
        # A private table's invitation (None: open to all): the lobby does not list it, and a person who
        # is not one of its people needs it to sit or watch (see cardhall.server.relations).
        self.invitation: str | None = None
        # Play now: seat -> the person to take that bot's seat at the next deal's start (take_seat_later).
        self.pending: dict[int, PlayerRow] = {}
        self.deals = 0  # the deals finished when the last action was applied (a change: a deal starts)
        self.out = Effects()

    # --- reading the table ---------------------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def playing(self) -> bool:
        """Whether the match goes on: dealt, not over, not stopped, not paused, not moved."""
        return self.status is P and self.table is not None

    @property
    def number(self) -> int:
        return 0 if self.table is None else self.table.number

    @property
    def paused(self) -> str | None:
        """Why the table waits (:data:`STORE_UNAVAILABLE`), None while it does not."""
        return STORE_UNAVAILABLE if self.status is Z else None

    def seat_of(self, player: PlayerRow | None) -> int | None:
        if player is None:
            return None
        for s in self.row.seats:
            if s.kind == SeatKind.PERSON and s.player_id == player.id:
                return s.seat
        return None

    def events_for(self, seat: int | None, since: int = 0) -> list[Event]:
        return [] if self.table is None else self.table.events(seat, since=since)

    def seats_view(self) -> list[dict[str, Any]]:
        """The seat entries, JSON-ready (the HTTP API's table summaries)."""
        entries = frames.seat_entries(self.row.seats, self.table, self.audience.connected)
        seats: list[dict[str, Any]] = msgspec.to_builtins(entries)
        return seats

    def take(self) -> Effects:
        """What the commands asked for since the last take (the actor carries it out)."""
        out, self.out = self.out, Effects()
        return out

    # --- admission --------------------------------------------------------------------------------

    def admit(self, command: Command, ref: Any = None) -> bool:
        """Whether ``command`` runs in the table's status (False: ignored); raises when refused."""
        decision = DECISIONS[command][self.status]
        if decision == RUN:
            return True
        if decision == IGNORE:
            return False
        raise ProtocolError(decision, self.refusal(decision), ref)

    def refusal(self, code: str) -> str:
        return {
            "table_moved": f"table {self.id} moved to another server: it is back there in a moment",
            "table_over": f"the match at table {self.id} is over",
            "not_started": f"table {self.id} waits for every seat to be taken",
            "seat_taken": f"table {self.id} has started: every seat is taken",
            STORE_UNAVAILABLE: (
                f"table {self.id} is paused: its storage failed; your move waits until it is back"
            ),
        }.get(code, f"table {self.id} is {self.status.value}")

    def move_to(self, status: TableStatus, command: str) -> None:
        self.status = moved(self.id, self.status, status, command)

    # --- frames (built by frames.py; sent by the actor) -------------------------------------------

    def picture(self, seats: bool = True) -> frames.Picture:
        """What the table's frames share now (``seats``: with the seat entries)."""
        self.sync_timers()  # a frame never shows a deadline that no longer holds, nor lacks one
        return frames.Picture(
            row=self.row,
            deadlines={str(seat): int(at * 1000) for seat, (_, at) in self.turns.items()},
            spectators=self.audience.spectators(self.row.seats),
            paused=self.paused,
            seats=frames.seat_entries(self.row.seats, self.table, self.audience.connected) if seats else None,
            encoded=self.encoded,
        )

    def full_frame(self, listener: Listener, since: int) -> TableFrame:
        """The ``table`` frame for ``listener``'s seat, with the events after ``since``."""
        seat = self.audience.seat_of(listener)
        frame = frames.table_frame(self.picture(), self.table, seat, since)
        self.audience.seen[listener] = frame.n
        self.audience.shown_to(listener, frame.observation)
        return frame

    def send(self, listener: Listener, frame: ServerFrame) -> None:
        self.out.frames.append((listener, frame))

    def send_all(self, frame: ServerFrame) -> None:
        self.out.frames.extend((listener, frame) for listener in self.audience.seats)

    def broadcast(self, seats_changed: bool = False) -> None:
        """Tell every connection what changed since its last frame, as its seat may see it."""
        number = self.number
        build = frames.updates(self.picture(seats=seats_changed), self.table, seats_changed)
        audience = self.audience
        seen, shown, out = audience.seen, audience.shown, self.out.frames
        for listener, seat in audience.seats.items():
            out.append((listener, build(seat, seen.get(listener, 0), shown.get(listener))))
            seen[listener] = number
            audience.shown_to(listener, build.view(seat).observation)

    # --- timers (as data: the actor holds the loop's handles) and connections at seats -------------

    def sync_timers(self) -> None:
        """One turn timer per person to act, for his current decision; none for anyone else (nor for
        anyone while the match is not playing: not started, over, stopped or paused)."""
        table = self.table
        if table is None or self.status is not P:
            self.clear_turns()
            return
        turn_seconds = int(self.row.settings["turn_seconds"])
        if not turn_seconds and not self.turns:
            return
        waiting = set(table.waiting_for()) if turn_seconds else set()
        turns, timers = self.turns, self.out.timers
        for seat in list(turns):
            since = turns[seat][0]
            if seat not in waiting or since != table.choice_since(seat):
                del turns[seat]
                timers.append(TurnTimer(seat, since, None))
        for seat in waiting - turns.keys():
            since = table.choice_since(seat)
            turns[seat] = (since, self.clock() + turn_seconds)
            timers.append(TurnTimer(seat, since, turn_seconds))

    def clear_turns(self) -> None:
        for seat, (since, _) in self.turns.items():
            self.out.timers.append(TurnTimer(seat, since, None))
        self.turns.clear()

    def away_later(self, seat: int) -> None:
        if seat not in self.away:
            self.away.add(seat)
            self.out.timers.append(AwayTimer(seat, int(self.row.settings["away_seconds"])))

    def stop_timers(self) -> None:
        self.clear_turns()
        for seat in self.away:
            self.out.timers.append(AwayTimer(seat, None))
        self.away.clear()

    def attach(self, listener: Listener, seat: int | None) -> None:
        self.audience.attach(listener, seat)
        if seat is not None and seat in self.away:  # a connection joined the seat: no away timer
            self.away.discard(seat)
            self.out.timers.append(AwayTimer(seat, None))

    # --- the match ---------------------------------------------------------------------------------

    def deal(self, seats: Sequence[SeatRow], actions: Sequence[tuple[int, int]] = ()) -> Table:
        """The match of these seats, dealt from the seed (its ``actions`` replayed: after a restart, or to
        undo an action the store did not take); raises when an action is illegal."""
        table = Table(self.row.game, [occupant(s, first=True) for s in seats], self.row.seed)
        later: dict[int, list[SeatRow]] = {}  # actions played -> the people who took a bot's seat then
        for s in seats:
            if s.before is not None:
                later.setdefault(s.since, []).append(s)
        for number, (seat, action) in enumerate(actions):
            for s in later.get(number, ()):
                table.sit(s.seat, occupant(s))
            table.apply(seat, action, report=False)
        for s in later.get(len(actions), ()):
            table.sit(s.seat, occupant(s))
        for s in seats:
            if s.kind == SeatKind.PERSON and s.left:
                table.stand_in(s.seat, str(self.row.settings["stand_in"]))
        return table

    def restore(self, actions: Sequence[ActionRow]) -> None:
        """After a restart: the match as it was (raises when its stored actions do not replay), with
        what its stand-ins played counted again; its people have ``away_seconds`` to come back."""
        if self.status is not P:
            return
        self.table = self.deal(self.row.seats, [(a.seat, a.action) for a in actions])
        self.stored = len(actions)
        self.deals = self.table.state.deals_finished
        for a in actions:
            self.by_stand_in[a.seat] += a.stand_in
        for s in self.row.seats:
            if s.kind == SeatKind.PERSON and not s.left:
                self.away_later(s.seat)

    # --- the commands: each is its module's function ---------------------------------------------

    def resume(self) -> Run[None]:
        return play.resume(self)

    # seating
    def open(self) -> Run[None]:
        return seating.open(self)

    def join(self, listener: Listener, seat: int | None, since: int, ref: Any) -> Run[None]:
        return seating.join(self, listener, seat, since, ref)

    def watch(self, listener: Listener, since: int) -> Run[None]:
        return seating.watch(self, listener, since)

    def detach(self, listener: Listener) -> Run[None]:
        return seating.detach(self, listener)

    def leave(self, listener: Listener, ref: Any) -> Run[None]:
        return seating.leave(self, listener, ref)

    def back(self, listener: Listener, ref: Any) -> Run[None]:
        return seating.back(self, listener, ref)

    def add_bot(self, listener: Listener, seat: int, bot: str, ref: Any) -> Run[None]:
        return seating.add_bot(self, listener, seat, bot, ref)

    # Play now
    def bot_seats_free(self) -> list[int]:
        return playnow.bot_seats_free(self)

    def take_seat_later(self, player: PlayerRow) -> int | None:
        return playnow.take_seat_later(self, player)

    def cancel_seat(self, player: PlayerRow) -> bool:
        return playnow.cancel_seat(self, player)

    # play
    def act(self, listener: Listener, action: int | str, expect: int, ref: Any) -> Run[None]:
        return play.act(self, listener, action, expect, ref)

    def store_back(self) -> Run[None]:
        return play.store_back(self)

    def time_up(self, seat: int, since: int) -> Run[None]:
        return play.time_up(self, seat, since)

    def gone(self, seat: int) -> Run[None]:
        return play.gone(self, seat)

    def bot_step(self) -> Run[None]:
        return play.bot_step(self)

    def bot_thought(self, job: BotJob, result: BotResult | None) -> Run[None]:
        return play.bot_thought(self, job, result)

    # hints
    def hint(self, listener: Listener, expect: int, ref: Any) -> Run[None]:
        return hints.hint(self, listener, expect, ref)

    def hint_ready(self, listener: Listener, job: BotJob, action: int, ref: Any) -> Run[None]:
        return hints.hint_ready(self, listener, job, action, ref)

    # the end, and the table leaving this process
    def absences(self) -> dict[int, str]:
        return ending.absences(self)

    def halt(self, reason: str) -> Run[bool]:
        return ending.halt(self, reason)

    def lease_lost(self) -> None:
        return lease.lease_lost(self)

    def stop_here(self) -> None:
        return lease.stop_here(self)
