"""The table's owner as a pure state machine: every command (a seat taken, an action, a bot's move, a
timer running out, the store failing or coming back, the table taken by another process) is a method of
:class:`TableMachine` that changes the table and says what must follow, as
:mod:`~cardhall.server.host.effects`: the writes to commit, then the frames, timers, bot and hint jobs.
No asyncio, no store, no socket: the actor (:class:`~cardhall.server.host.TableHost`) commits and sends,
and the tests drive it by hand (:func:`drive`).

- A command that writes is a generator: it yields each :class:`~effects.Write` and is sent back how the
  commit went. What it changed before a write is held only once the write is committed (seats, a
  status, a match's end), except a move, which is applied first and undone when the store does not
  take it (the match is dealt again from its seed and replayed to what the store holds, or, when even
  reading fails, to what this table committed): the match in memory is never ahead of the store.
- Each command is admitted by the table's status first (:data:`~cardhall.server.host.status.DECISIONS`):
  run, ignored, or refused with a reason; then by what it asks (a seat taken, a move out of turn).
- The table's life is one :class:`~cardhall.server.host.status.TableStatus`, moved only through its
  checked transitions.
- Frames are built by :mod:`cardhall.server.host.frames`, for each connection's seat, when the command
  decides them; the clock of the turn timers' deadlines is the machine's ``clock`` (tests pass one).
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any, Final, TypeVar

import msgspec

from cardhall.bot_tier import thinks_elsewhere
from cardhall.bots import BOT_LEVELS
from cardhall.errors import CardhallError, IllegalActionError, InvalidActionError
from cardhall.server import bounds, ratings
from cardhall.server.host import frames
from cardhall.server.host.audience import Audience, Listener
from cardhall.server.host.effects import (
    COMMITTED,
    FENCED,
    Answer,
    AwayTimer,
    CommitAction,
    Effects,
    FinishMatch,
    HintJob,
    Pace,
    Rating,
    SaveRow,
    StoreFailed,
    Think,
    TurnTimer,
    Write,
)
from cardhall.server.host.status import DECISIONS, IGNORE, RUN, Command, TableStatus, moved
from cardhall.server.protocol import (
    HintFrame,
    PausedFrame,
    ProtocolError,
    ResumedFrame,
    ServerFrame,
    StoppedFrame,
    TableFrame,
)
from cardhall.server.settings import gives_hints
from cardhall.store import ActionRow, PlayerRow, ResultRow, SeatKind, SeatRow, TableRow
from cardhall.store import TableStatus as RowStatus
from cardhall.table import BotJob, BotResult, Event, Occupant, StaleActionError, Table

log = logging.getLogger("cardhall.server.host")

T = TypeVar("T")
Run = Generator[Write, Answer, T]  # a command: yields writes, is sent how each went, returns its result

STORE_UNAVAILABLE: Final = "store_unavailable"  # why a table pauses (the ``paused`` frame's reason)
# The hard level's search, on its time budget: a count of determinizations would give the same hint
# for the same position on any machine, but take seconds in six-player Hearts (2.8 s at 200).
HINT_BOT: Final = BOT_LEVELS["hard"]

W, P, Z, F, A, M = (
    TableStatus.WAITING,
    TableStatus.PLAYING,
    TableStatus.PAUSED,
    TableStatus.FINISHED,
    TableStatus.ABANDONED,
    TableStatus.MOVED,
)
UNDER_WAY: Final = (P, Z)  # a match dealt and not over (paused or not)


class TableMachine:
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
        raise ProtocolError(decision, self._refusal(decision), ref)

    def _refusal(self, code: str) -> str:
        return {
            "table_moved": f"table {self.id} moved to another server: it is back there in a moment",
            "table_over": f"the match at table {self.id} is over",
            "not_started": f"table {self.id} waits for every seat to be taken",
            "seat_taken": f"table {self.id} has started: every seat is taken",
            STORE_UNAVAILABLE: (
                f"table {self.id} is paused: its storage failed; your move waits until it is back"
            ),
        }.get(code, f"table {self.id} is {self.status.value}")

    def _to(self, status: TableStatus, command: str) -> None:
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

    # --- timers (as data: the actor holds the loop's handles) -----------------------------------------

    def sync_timers(self) -> None:
        """One turn timer per person to act, for his current decision; none for anyone else (nor for
        anyone while the match is not playing: not started, over, stopped or paused)."""
        table = self.table
        if table is None or self.status is not P:
            self._clear_turns()
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

    def _clear_turns(self) -> None:
        for seat, (since, _) in self.turns.items():
            self.out.timers.append(TurnTimer(seat, since, None))
        self.turns.clear()

    def _away_later(self, seat: int) -> None:
        if seat not in self.away:
            self.away.add(seat)
            self.out.timers.append(AwayTimer(seat, int(self.row.settings["away_seconds"])))

    def _stop_timers(self) -> None:
        self._clear_turns()
        for seat in self.away:
            self.out.timers.append(AwayTimer(seat, None))
        self.away.clear()

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
                self._away_later(s.seat)

    def resume(self) -> Run[None]:
        """Go on after a restart. A match whose last action was committed but not its end (the server
        stopped between the two) ends now."""
        if not self.admit(Command.RESUME):
            return
        table = self.table
        if table is not None and table.is_over:
            self.finish_due = True
            if not (yield from self._finish()):
                return
        yield from self._advance()

    # --- seats -------------------------------------------------------------------------------------

    def open(self) -> Run[None]:
        """Store the new table, a private one with its invitation (and start it, if every seat is taken
        already): one transaction, so no process can bring back a private table open to all."""
        if self.admit(Command.OPEN):
            yield from self._take_seats(self.row.seats, invitation=self.invitation)

    def join(self, listener: Listener, seat: int | None, since: int, ref: Any) -> Run[None]:
        self.admit(Command.JOIN, ref)
        player = listener.player
        assert player is not None
        mine = self.seat_of(player)
        if mine is not None and self.row.seats[mine].left and self.status in UNDER_WAY:
            raise ProtocolError(
                "seat_taken", f"you left table {self.id}: a bot plays your seat to the end (watch it)", ref
            )
        promised = [seat for seat, p in self.pending.items() if p.id == player.id]
        if mine is None and promised:
            raise ProtocolError(
                "seat_taken",
                f"seat {promised[0]} of table {self.id} is yours from the next deal: watch until it starts",
                ref,
            )
        if mine is None:
            if self.status in (F, A):
                raise ProtocolError("table_over", f"the match at table {self.id} is over", ref)
            if self.status is not W:
                raise ProtocolError("seat_taken", f"table {self.id} has started: every seat is taken", ref)
            if seat is None:
                empty = [s.seat for s in self.row.seats if s.kind == SeatKind.EMPTY]
                if not empty:
                    raise ProtocolError("seat_taken", f"table {self.id} has no empty seat", ref)
                seat = empty[0]
            self._check_seat_number(seat, ref)
            if self.row.seats[seat].kind != SeatKind.EMPTY:
                raise ProtocolError("seat_taken", f"seat {seat} of table {self.id} is taken", ref)
            person = SeatRow(seat, SeatKind.PERSON, player.name, player.id, guest=player.guest)
            yield from self._take_seats(self._seats_with(person), ref)
            mine = seat
        elif seat is not None and seat != mine:
            raise ProtocolError("seat_taken", f"you already hold seat {mine} of table {self.id}", ref)
        arriving = listener not in self.audience
        self._attach(listener, mine)
        yield from self._back_to(mine)
        self.send(listener, self.full_frame(listener, since))
        self.broadcast(seats_changed=True)
        if arriving:
            self.out.history = (*self.out.history, listener)

    def watch(self, listener: Listener, since: int) -> Run[None]:
        self.admit(Command.WATCH)
        old = self.audience.seat_of(listener)
        watchers = self.audience.spectators(self.row.seats)
        arriving = listener not in self.audience
        self._attach(listener, None)
        self.send(listener, self.full_frame(listener, since))
        if old is not None:  # this connection held a seat: the seat may now have none
            if self.audience.connected[old] == 0 and self.status in UNDER_WAY:
                self._away_later(old)
            self.broadcast(seats_changed=True)
        elif self.audience.spectators(self.row.seats) != watchers:  # one more watching: all see the count
            self.broadcast()
        if arriving:
            self.out.history = (*self.out.history, listener)
        yield from ()

    def _attach(self, listener: Listener, seat: int | None) -> None:
        self.audience.attach(listener, seat)
        if seat is not None and seat in self.away:  # a connection joined the seat: no away timer
            self.away.discard(seat)
            self.out.timers.append(AwayTimer(seat, None))

    def detach(self, listener: Listener) -> Run[None]:
        """A connection closed (or stopped watching)."""
        self.admit(Command.DETACH)
        watchers = self.audience.spectators(self.row.seats)
        seat = self.audience.detach(listener)
        if seat is None:
            if self.audience.spectators(self.row.seats) != watchers:  # one fewer person watching
                self.broadcast()
            return
        if self.audience.connected[seat] == 0 and self.status in UNDER_WAY:
            self._away_later(seat)
        self.broadcast(seats_changed=True)
        yield from ()

    def leave(self, listener: Listener, ref: Any) -> Run[None]:
        self.admit(Command.LEAVE, ref)
        seat = self.seat_of(listener.player)
        yield from self.detach(listener)
        if seat is None:
            return
        if self.status is W:
            seats = self._seats_with(SeatRow(seat))
            nobody = not any(s.kind == SeatKind.PERSON for s in seats)
            yield from self._take_seats(seats, ref, RowStatus.ABANDONED if nobody else RowStatus.WAITING)
            self.broadcast(seats_changed=True)
        elif self.status in UNDER_WAY:
            seats = self._seats_with(replace(self.row.seats[seat], left=True))
            yield from self._store_row(replace(self.row, seats=seats), ref)
            self._early_leave(seat)
            if self._abandoned_early():
                try:
                    yield from self._halt("every person left before the first deal was scored")
                    return
                except ProtocolError:  # (the store did not take the stop: the stand-ins play on)
                    log.warning("table %s: its people left early, but its stop was not stored", self.id)
            yield from self._stand_in(seat)

    def _abandoned_early(self) -> bool:
        """Whether every person has left the match before its first deal was scored: then nobody plays
        it, and it is stopped unrated (cardhall.server.ratings)."""
        people = [s for s in self.row.seats if s.kind == SeatKind.PERSON]
        table = self.table
        return table is not None and table.state.deals_finished == 0 and all(s.left for s in people)

    def back(self, listener: Listener, ref: Any) -> Run[None]:
        self.admit(Command.BACK, ref)
        seat = self.seat_of(listener.player)
        if seat is None:
            raise ProtocolError("not_seated", f"you hold no seat at table {self.id}", ref)
        yield from self._back_to(seat)
        self.broadcast(seats_changed=True)

    def add_bot(self, listener: Listener, seat: int, bot: str, ref: Any) -> Run[None]:
        player = listener.player
        if self.seat_of(player) is None and self.row.owner_id != (player and player.id):
            raise ProtocolError("not_seated", f"only the players of table {self.id} may seat bots", ref)
        self.admit(Command.ADD_BOT, ref)
        self._check_seat_number(seat, ref)
        if self.row.seats[seat].kind != SeatKind.EMPTY:
            raise ProtocolError("seat_taken", f"seat {seat} of table {self.id} is taken", ref)
        self._check_someone_plays(seat, ref)
        yield from self._take_seats(self._seats_with(SeatRow(seat, SeatKind.BOT, bot, None, bot)), ref)
        self.broadcast(seats_changed=True)

    def _check_seat_number(self, seat: int, ref: Any) -> None:
        if not 0 <= seat < len(self.row.seats):
            raise ProtocolError(
                "no_such_seat", f"table {self.id} has seats 0..{len(self.row.seats) - 1}", ref
            )

    def _check_someone_plays(self, seat: int, ref: Any) -> None:
        """Refuse a bot in ``seat`` that would start a match of bots alone: work for nobody, which a guest
        could start without end."""
        others = [s for s in self.row.seats if s.seat != seat]
        if all(s.kind == SeatKind.BOT for s in others):
            raise ProtocolError(
                "no_person",
                f"a bot in seat {seat} would start table {self.id} with bots alone: "
                "take a seat first (a match needs at least one person)",
                ref,
            )

    def _seats_with(self, changed: SeatRow) -> list[SeatRow]:
        """The table's seats with one of them changed (the row's own list is left as it is)."""
        return [changed if s.seat == changed.seat else s for s in self.row.seats]

    def _store_row(self, row: TableRow, ref: Any = None, invitation: str | None = None) -> Run[None]:
        """Store the table as ``row`` (its seats, status), then hold it; a store that fails changes
        nothing and gets ``store_unavailable``."""
        if self.status is M:
            raise ProtocolError("table_moved", self._refusal("table_moved"), ref)
        answer = yield SaveRow(row, invitation)
        if answer is FENCED:
            self.lease_lost()
            raise ProtocolError(
                "table_moved", f"table {self.id} moved to another server: nothing changed; try again", ref
            )
        if answer is not COMMITTED:
            raise ProtocolError(
                STORE_UNAVAILABLE, f"table {self.id} cannot be stored now: nothing changed; try again", ref
            )
        self.row.seats, self.row.status = row.seats, row.status
        status = TableStatus.of_row(row.status)
        self._to(Z if status is P and self.status is Z else status, "storing its row")

    def _take_seats(
        self,
        seats: list[SeatRow],
        ref: Any = None,
        status: RowStatus | None = None,
        invitation: str | None = None,
    ) -> Run[None]:
        """Seats change while waiting: stored first, then held; the match starts when every seat is
        taken (dealt before the row is stored as playing, stored before it is held)."""
        if status is None:
            full = all(s.kind != SeatKind.EMPTY for s in seats)
            status = RowStatus.PLAYING if full else RowStatus.WAITING
        table = self.deal(seats) if status == RowStatus.PLAYING else None
        yield from self._store_row(replace(self.row, seats=seats, status=status), ref, invitation)
        self.out.lobby_changed = True
        if table is None:
            return
        self.table, self.stored, self.deals = table, 0, 0
        for s in self.row.seats:
            if s.kind == SeatKind.PERSON and self.audience.connected[s.seat] == 0:
                self._away_later(s.seat)  # seated without a connection yet (quick play, again)
        for listener in list(self.audience.seats):
            self.send(listener, self.full_frame(listener, 0))
        yield from self._advance()

    # --- Play now: a person takes a bot's seat at the next deal's start ------------------------------

    def bot_seats_free(self) -> list[int]:
        """The bots' seats a person may still be promised (none once the match is over or stopped)."""
        table = self.table
        if self.status not in UNDER_WAY or table is None or table.is_over or self.finish_due:
            return []
        return [s.seat for s in self.row.seats if s.kind == SeatKind.BOT and s.seat not in self.pending]

    def take_seat_later(self, player: PlayerRow) -> int | None:
        """Promise ``player`` a bot's seat from the next deal's start (:meth:`_take_over`): the seat, or
        None when there is none to give (the match over, every bot's seat taken or promised, or he holds
        a seat here already). Nothing is written until the deal starts."""
        free = self.bot_seats_free()
        if not free or self.seat_of(player) is not None or player.id in {p.id for p in self.pending.values()}:
            return None
        self.pending[free[0]] = player
        return free[0]

    def _take_over(self) -> Run[bool]:
        """A deal starts: each person promised a bot's seat takes it, stored first (the seat with the
        number of actions played before it, so a replay seats him there again), then held: a ``seat``
        event shows it (``replaces``: the bot), and his page is told (``taken``). Whoever cannot take
        his (stored by nobody: the store failed) goes back to the queue (``untaken``)."""
        table = self.table
        assert table is not None
        promised, self.pending = self.pending, {}
        seats = list(self.row.seats)
        taking: list[tuple[int, PlayerRow]] = []
        for seat, player in sorted(promised.items()):
            old = seats[seat]
            if old.kind != SeatKind.BOT or self.seat_of(player) is not None:
                self.out.untaken = (*self.out.untaken, player.id)
                continue
            seats[seat] = SeatRow(
                seat,
                SeatKind.PERSON,
                player.name,
                player.id,
                guest=player.guest,
                since=self.stored,
                before=old.bot,
            )
            taking.append((seat, player))
        if not taking:
            return False
        try:
            yield from self._store_row(replace(self.row, seats=seats))
        except ProtocolError as e:
            log.warning("table %s: bots' seats not given (%s)", self.id, e.code)
            self.out.untaken = (*self.out.untaken, *(p.id for _, p in taking))
            return False
        for seat, player in taking:
            table.sit(seat, occupant(self.row.seats[seat]))
            for listener in list(self.audience.seats):  # (watching till his deal: he sits now)
                if (
                    self.audience.seat_of(listener) is None
                    and listener.player
                    and listener.player.id == player.id
                ):
                    self._attach(listener, seat)
                    self.send(listener, self.full_frame(listener, 0))
            if self.audience.connected[seat] == 0:
                self._away_later(seat)  # (he has away_seconds to open the table)
            self.out.taken = (*self.out.taken, (player.id, seat, self.audience.connected[seat] > 0))
        self.out.lobby_changed = True
        return True

    def cancel_seat(self, player: PlayerRow) -> bool:
        """``player`` no longer wants the seat he was promised (he left Play now): whether he had one."""
        for seat, promised in list(self.pending.items()):
            if promised.id == player.id:
                del self.pending[seat]
                return True
        return False

    def _drop_promises(self) -> None:
        """The match ends (or leaves this process) before the next deal: the promised seats are not given."""
        if self.pending:
            self.out.untaken = (*self.out.untaken, *(p.id for p in self.pending.values()))
            self.pending = {}

    # --- play --------------------------------------------------------------------------------------

    def act(self, listener: Listener, action: int | str, expect: int, ref: Any) -> Run[None]:
        status = self.status  # (a move at a table being played is the common case: one check)
        if status is M:
            self.admit(Command.ACT, ref)
        seat = self.audience.seat_of(listener)
        if seat is None or self.seat_of(listener.player) != seat:
            raise ProtocolError("not_seated", f"you hold no seat at table {self.id}: join it first", ref)
        if status is not P and status is not Z:
            self.admit(Command.ACT, ref)  # (not started, over)
        table = self.table
        assert table is not None
        if self.row.seats[seat].left:  # (from another connection of his, still joined)
            raise ProtocolError(
                "not_seated", f"you left table {self.id}: a bot plays your seat to the end", ref
            )
        if status is not P:
            self.admit(Command.ACT, ref)  # (paused)
        try:
            table.apply(seat, action, expect=expect, report=False)
        except StaleActionError as e:
            raise ProtocolError("stale", str(e), ref) from None
        except (IllegalActionError, InvalidActionError) as e:
            raise ProtocolError("illegal_action", str(e), ref) from None
        except CardhallError as e:
            raise ProtocolError("bad_request", str(e), ref) from None
        came_back = table.stand_in_for(seat) is not None
        if came_back:
            table.stand_in(seat, None)  # he acts: he is back (even if the store fails to take his move)
        if not (yield from self._applied(seat_changed=came_back)):
            if self.status is M:
                self.admit(Command.ACT, ref)
            raise ProtocolError(
                STORE_UNAVAILABLE,
                f"your move at table {self.id} was not played: its storage failed, and the table is "
                "paused until it is back; play your move again then",
                ref,
            )

    def _applied(self, seat_changed: bool = False) -> Run[bool]:
        """An action was applied: commit it, show it, and see what comes next. False when the store
        did not take it: the action is undone and the table paused."""
        if not (yield from self._commit()):
            return False
        table = self.table
        assert table is not None
        if table.is_over:
            self.finish_due = True
            yield from self._finish()  # (a failure pauses the table, which then finishes it when it can)
        elif table.state.deals_finished != self.deals:
            self.deals = table.state.deals_finished
            if self.pending:
                seat_changed = (yield from self._take_over()) or seat_changed
        self.broadcast(seat_changed)
        yield from self._advance()
        return True

    def _commit(self) -> Run[bool]:
        """Commit the match's last action as number :attr:`stored` + 1; on failure undo it and pause."""
        table = self.table
        assert table is not None
        history = table.state.history
        number = self.stored + 1
        if len(history) != number:  # memory ahead of the store by more than this action: never
            log.error("table %s holds %d actions but stored %d", self.id, len(history), self.stored)
            self._roll_back(None)
            return False
        acted, action = history[-1]
        # (a person's own move clears his stand-in before it is committed: see act)
        row = ActionRow(self.id, number, acted, action, table.stand_in_for(acted) is not None)
        answer = yield CommitAction(row)
        if answer is FENCED:
            log.warning("table %s: action %d refused, another process owns the table now", self.id, number)
            self.lease_lost()
            return False
        if isinstance(answer, StoreFailed):
            log.error("table %s: action %d was not stored: undone, the table pauses", self.id, number)
            self._roll_back(answer.actions)
            if self.stored != number:
                self._pause()
                return False
            # (it was stored after all: the store says so now)
        self.stored = number
        self.by_stand_in[acted] += row.stand_in
        return True

    def _roll_back(self, actions: Sequence[tuple[int, int]] | None) -> None:
        """Hold the match as the store holds it (``actions``; None: the store could not be read, so as
        this table committed it). People away stay away."""
        table = self.table
        assert table is not None
        if actions is None:
            actions = table.state.history[: self.stored]
        rebuilt = self.deal(self.row.seats, actions)
        for seat in range(len(self.row.seats)):
            bot = table.stand_in_for(seat)
            if bot is not None and rebuilt.stand_in_for(seat) is None:
                rebuilt.stand_in(seat, bot)
        self.table, self.stored = rebuilt, len(actions)
        self.deals = rebuilt.state.deals_finished
        self._clear_turns()

    def _pause(self) -> None:
        """Wait for the store: no moves, bots or timers until :meth:`store_back`."""
        if self.status is Z:
            return
        self._to(Z, "the store failing")
        self._clear_turns()
        self.send_all(PausedFrame(table=self.id, n=self.number, reason=STORE_UNAVAILABLE))
        self.out.wait_for_store = True

    def store_back(self) -> Run[None]:
        """The store takes writes again: finish what waited for it, and play on."""
        if not self.admit(Command.STORE_BACK):
            return
        self._to(P, Command.STORE_BACK.value)
        if self.finish_due and not (yield from self._finish()):
            return  # (paused again)
        self.send_all(ResumedFrame(table=self.id, n=self.number))
        self.broadcast(seats_changed=True)
        yield from self._advance()

    def _advance(self) -> Run[None]:
        """Start what the new position calls for: a bot's move, the timers of the people to act."""
        self.sync_timers()
        table = self.table
        if table is None or not self.playing:
            return
        if len(table.state.history) >= self.max_actions:
            try:
                yield from self._halt(
                    f"the match reached {self.max_actions} actions, the most this server plays"
                )
            except ProtocolError:  # (the store did not take the stop: stopped once it is back)
                self._pause()
            return
        self._next_bot()

    # --- stand-ins -----------------------------------------------------------------------------------

    def time_up(self, seat: int, since: int) -> Run[None]:
        if not self.admit(Command.TIME_UP):
            return
        table = self.table
        if table is not None and seat in table.waiting_for() and table.choice_since(seat) == since:
            self.turns.pop(seat, None)  # (it fired)
            yield from self._stand_in(seat)

    def gone(self, seat: int) -> Run[None]:
        self.away.discard(seat)  # (it fired)
        if self.admit(Command.GONE) and self.audience.connected[seat] == 0:
            self._early_leave(seat)
            yield from self._stand_in(seat)

    def _early_leave(self, seat: int) -> None:
        """Note a person leaving ``seat`` (or away past his grace) during the match's first deal: Play
        now's leavers wait behind others (:mod:`cardhall.server.playnow`)."""
        table, s = self.table, self.row.seats[seat]
        if (
            table is not None
            and table.state.deals_finished == 0
            and not table.is_over
            and s.kind == SeatKind.PERSON
            and s.player_id is not None
            and table.stand_in_for(seat) is None
        ):
            self.out.early_leaves = (*self.out.early_leaves, s.player_id)

    def _stand_in(self, seat: int) -> Run[None]:
        table = self.table
        if table is None or table.stand_in_for(seat) is not None:
            return
        table.stand_in(seat, str(self.row.settings["stand_in"]))
        self.broadcast(seats_changed=True)
        yield from self._advance()

    def _back_to(self, seat: int) -> Run[None]:
        table = self.table
        if table is not None and table.stand_in_for(seat) is not None and not self.row.seats[seat].left:
            table.stand_in(seat, None)
            yield from self._advance()

    # --- bots --------------------------------------------------------------------------------------

    def _next_bot(self) -> None:
        """Start the next bot move, if a bot should act and none is under way."""
        table = self.table
        if self.bot_busy or table is None or not self.playing:
            return
        # (asked once: at a simultaneous choice, Hearts' pass, each asking tries a move on a copy)
        bots = table.bots_to_act()
        if not bots:
            return
        self.bot_busy = True
        pace = int(self.row.settings["bot_pace_ms"]) / 1000
        seat = bots[0]
        spec = table.acting_bot(seat) or ""
        # A forced move (one legal action) needs no search: it is played here, and leaves the tier's
        # time to the decisions that have a choice.
        if thinks_elsewhere(spec) and len(table.legal_actions(seat)) > 1:
            self.out.bot = Think(table.bot_job(seat), pace)
        else:
            self.out.bot = Pace(pace)

    def bot_step(self) -> Run[None]:
        """The pace has passed: the rules (or random) bot chooses and plays, through the Table itself
        (:meth:`~cardhall.table.Table.play_bot`: the seat's own RNG), the move a worker would make."""
        self.bot_busy = False
        if self.status is not P and not self.admit(Command.BOT_MOVED):
            return
        table = self.table
        bots = table.bots_to_act() if table is not None else ()
        if table is None or not bots:
            return
        try:
            table.play_bot(bots[0], report=False)
        except Exception:
            log.exception("table %s: a bot's move failed", self.id)
            return
        yield from self._applied()

    def bot_thought(self, job: BotJob, result: BotResult | None) -> Run[None]:
        """A searching bot's move came back (None: its search failed). A move that no longer fits (its
        person came back meanwhile) is dropped, and the table asks again what comes next."""
        self.bot_busy = False
        if result is None or (self.status is not P and not self.admit(Command.BOT_MOVED)):
            return
        table = self.table
        if table is not None:
            try:
                table.apply_bot(job, result)
            except StaleActionError:
                pass  # the table moved on while it thought (its person came back): nothing to do
            else:
                yield from self._applied()
                return
        yield from self._advance()

    # --- hints -------------------------------------------------------------------------------------

    def hint(self, listener: Listener, expect: int, ref: Any) -> Run[None]:
        """Check a hint's ask and start its search (see :mod:`cardhall.server.host.table_host`)."""
        if not gives_hints(self.row.settings):
            raise ProtocolError("no_hints", f"table {self.id} gives no hints (its setting hints is off)", ref)
        seat = self.audience.seat_of(listener)
        if seat is None or self.seat_of(listener.player) != seat or self.row.seats[seat].left:
            raise ProtocolError("not_seated", f"you hold no seat at table {self.id}: join it first", ref)
        self.admit(Command.HINT, ref)
        table = self.table
        assert table is not None
        # An older number is fine: in a round where every seat chooses at once (passing cards), the
        # others' moves go on while the ask is on its way, and the hint is for the seat's choice now.
        if expect > table.number:
            raise ProtocolError("stale", f"table {self.id} is at event {table.number}, not {expect}", ref)
        state = table.state
        if seat not in state.to_act:
            raise ProtocolError("not_your_turn", f"it is not your turn at table {self.id}", ref)
        if seat in self.hinting:
            raise ProtocolError("rate_limited", "your last hint is still being searched", ref)
        dice = random.Random()
        job = BotJob(
            str(table.game),
            HINT_BOT,
            seat,
            state.observation(seat, ints=True),
            state.legal_actions(seat),
            dice.getstate(),
            table.number,
        )
        self.hinting.add(seat)
        self.out.hints = (*self.out.hints, HintJob(listener, job, ref))
        yield from ()

    def hint_ready(self, listener: Listener, job: BotJob, action: int, ref: Any) -> Run[None]:
        """The hint, if the seat still has that move to make."""
        table = self.table
        if table is None or not self.playing or action not in table.state.legal_actions(job.seat):
            error = ProtocolError("stale", "the table moved on before the hint came: ask again", ref)
            self.send(listener, error.frame())
            return
        label = table.game.action_label(action)
        self.send(listener, HintFrame(table=self.id, n=table.number, action=label, ref=ref))
        yield from ()

    # --- the end -----------------------------------------------------------------------------------

    def _finish(self) -> Run[bool]:
        """Store the match's end (results, ratings), then hold the table as finished. False when the
        store failed: the table pauses, and finishes when the store is back."""
        table = self.table
        assert table is not None
        state = table.state
        self._clear_turns()
        self._drop_promises()
        winners = state.winners
        players = [s.player_id if s.kind == SeatKind.PERSON else None for s in self.row.seats]
        absent = self.absences()
        results = [
            ResultRow(
                self.id,
                s,
                players[s],
                state.scores[s],
                1 / len(winners) if s in winners and s not in absent else 0.0,
                absent.get(s),
            )
            for s in range(len(players))
        ]
        finished = replace(self.row, status=RowStatus.FINISHED, finished_at=datetime.now().astimezone())
        # A table with hints is casual: never rated.
        rated = not gives_hints(self.row.settings)
        # A person who took a bot's seat during the match is not rated by it (its score is partly the
        # bot's): his seat counts as the bot's in the others' update (cardhall.server.ratings).
        rated_players = [None if s.before is not None else players[s.seat] for s in self.row.seats]
        rating = Rating(table.game, rated_players, list(state.scores), absent) if rated else None
        answer = yield FinishMatch(finished, results, rating)
        if answer is FENCED:
            self.lease_lost()
            return False
        if answer is not COMMITTED:
            log.error("table %s: the end of its match was not stored: the table pauses", self.id)
            self._pause()
            return False
        self.finish_due = False
        self.row.status, self.row.finished_at = finished.status, finished.finished_at
        self._to(F, "the end of its match")
        self.out.lobby_changed = True
        return True

    def absences(self) -> dict[int, str]:
        """The seats of the people whose match a stand-in played, and why (:func:`ratings.absence`):
        from the seats (who left) and the actions the stand-ins made, counted as they were stored."""
        table = self.table
        assert table is not None
        decisions = [0] * len(self.row.seats)
        since = [s.since for s in self.row.seats]  # (a person who took a bot's seat: his decisions only)
        for number, (seat, _) in enumerate(table.state.history):
            decisions[seat] += number >= since[seat]
        found = {}
        for s in self.row.seats:
            if s.kind == SeatKind.PERSON:
                why = ratings.absence(s.left, decisions[s.seat], self.by_stand_in[s.seat])
                if why is not None:
                    found[s.seat] = why
        return found

    def halt(self, reason: str) -> Run[bool]:
        """Stop the table here and now (the operator's ``cardhall admin stop``, or the cap on actions of
        :mod:`cardhall.server.bounds`): stored ``abandoned``, then every connection at it gets a
        ``stopped`` frame saying why and an ``update`` showing the status; nothing moves there again (a
        bot's move on its way is dropped). False when the table was over already;
        ``store_unavailable`` (and nothing changed) when the store does not take it."""
        if not self.admit(Command.HALT):
            return False
        return (yield from self._halt(reason))

    def _halt(self, reason: str) -> Run[bool]:
        yield from self._store_row(replace(self.row, status=RowStatus.ABANDONED))
        self._drop_promises()
        self._stop_timers()
        log.warning("table %s stopped: %s", self.id, reason)
        self.send_all(StoppedFrame(table=self.id, n=self.number, reason=reason))
        self.broadcast()
        self.out.lobby_changed = True
        return True

    def lease_lost(self) -> None:
        """Another process owns the table now (a write found its fence moved on, or its lease was
        taken): nothing more here (no timers, no bots, no writes); the server drops it and sends its
        connections to the new owner."""
        if not self.admit(Command.LEASE_LOST):
            return
        self._to(M, Command.LEASE_LOST.value)
        self._drop_promises()
        self._stop_timers()
        self.out.stop_bots = self.out.forget_store = self.out.lost = True

    def stop_here(self) -> None:
        """This process stops: the table is the next owner's (nothing more is written here)."""
        if self.status.is_open:
            self._to(M, "the process stopping")
        self._drop_promises()
        self._stop_timers()
        self.out.stop_bots = True


def occupant(seat: SeatRow, first: bool = False) -> Occupant:
    """The Table's occupant of a stored seat (a person here plays over the network); ``first``: who
    held it at the match's start (the bot, for a person who took a bot's seat later)."""
    if first and seat.before is not None:
        return Occupant.for_bot(seat.before, seat.before)
    if seat.kind == SeatKind.BOT and seat.bot:
        return Occupant.for_bot(seat.bot, seat.name)
    return Occupant.remote(seat.name)


def drive(command: Run[T], answer: Callable[[Write], Answer] = lambda _: COMMITTED) -> tuple[list[Write], T]:
    """Run a command to its end without a store: each write answered by ``answer`` (committed by
    default); the writes in order and the command's result. For tests and tools."""
    writes: list[Write] = []
    try:
        write = next(command)
        while True:
            writes.append(write)
            write = command.send(answer(write))
    except StopIteration as end:
        return writes, end.value
