"""What every part of the table's machine shares: the shape of a command (:data:`Run`, a generator of
writes), the table's statuses by letter, the names the frames and the actor use (:data:`STORE_UNAVAILABLE`,
:data:`HINT_BOT`, :data:`UNDER_WAY`), and :class:`Machine`, the state the command modules read and change.

- The command modules (:mod:`.seating`, :mod:`.play`, :mod:`.playnow`, :mod:`.hints`, :mod:`.lease`,
  :mod:`.ending`) are plain functions of the machine, typed against :class:`Machine` (a protocol) and not
  against :class:`~cardhall.server.host.machine.TableMachine`, which calls them: no import runs back up.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import Any, Final, Protocol, TypeVar

from cardhall.bots import BOT_LEVELS
from cardhall.server.host.audience import Audience, Listener
from cardhall.server.host.effects import COMMITTED, Answer, Effects, Write
from cardhall.server.host.status import Command, P, TableStatus, Z
from cardhall.server.protocol import ServerFrame, TableFrame
from cardhall.store import PlayerRow, SeatKind, SeatRow, TableRow
from cardhall.table import Occupant, Table

T = TypeVar("T")
Run = Generator[Write, Answer, T]  # a command: yields writes, is sent how each went, returns its result

STORE_UNAVAILABLE: Final = "store_unavailable"  # why a table pauses (the ``paused`` frame's reason)
# The hard level's search, on its time budget: a count of determinizations would give the same hint
# for the same position on any machine, but take seconds in six-player Hearts (2.8 s at 200).
HINT_BOT: Final = BOT_LEVELS["hard"]

UNDER_WAY: Final = (P, Z)  # a match dealt and not over (paused or not)


class Machine(Protocol):
    """The table's state and helpers the command modules use (:class:`~cardhall.server.host.machine.
    TableMachine` is the one implementation; see it for what each means)."""

    row: TableRow
    status: TableStatus
    table: Table | None
    audience: Audience
    stored: int
    by_stand_in: list[int]
    finish_due: bool
    max_actions: int
    bot_busy: bool
    hinting: set[int]
    turns: dict[int, tuple[int, float]]
    away: set[int]
    invitation: str | None
    pending: dict[int, PlayerRow]
    deals: int
    out: Effects

    @property
    def id(self) -> str: ...
    @property
    def playing(self) -> bool: ...
    @property
    def number(self) -> int: ...
    def seat_of(self, player: PlayerRow | None) -> int | None: ...
    def admit(self, command: Command, ref: Any = None) -> bool: ...
    def refusal(self, code: str) -> str: ...
    def move_to(self, status: TableStatus, command: str) -> None: ...
    def full_frame(self, listener: Listener, since: int) -> TableFrame: ...
    def send(self, listener: Listener, frame: ServerFrame) -> None: ...
    def send_all(self, frame: ServerFrame) -> None: ...
    def broadcast(self, seats_changed: bool = False) -> None: ...
    def sync_timers(self) -> None: ...
    def clear_turns(self) -> None: ...
    def away_later(self, seat: int) -> None: ...
    def stop_timers(self) -> None: ...
    def attach(self, listener: Listener, seat: int | None) -> None: ...
    def deal(self, seats: Sequence[SeatRow], actions: Sequence[tuple[int, int]] = ()) -> Table: ...


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
