"""A table's life on the server, as one status with checked transitions (Starlette's ``WebSocketState``
is the model), and what each command may do in each status.

- :class:`TableStatus`: ``waiting`` (seats being taken), ``playing``, ``paused`` (its store failed: no
  moves, no bots, no turn timers until the store is back), ``finished``, ``abandoned`` (every person
  left before it started, or it was stopped), ``moved`` (another process owns it now: nothing more
  happens here). The stored row's status (:class:`cardhall.store.TableStatus`) is the part of it a
  store keeps: ``paused`` is stored as ``playing``, and ``moved`` is nothing stored at all.
- :data:`TRANSITIONS` is the one list of the moves between statuses; a move outside it raises
  :class:`StatusError`, naming both statuses and the command that asked for it.
- :data:`DECISIONS` says, for every command and every status, whether the command runs, is ignored
  (a timer or a bot's move that comes after the table moved on: nothing to do, nobody to tell), or is
  refused to the person who asked, with the protocol's error code. A command refused for a reason that
  is not the status (a seat taken, a move out of turn) is refused by the machine itself.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from cardhall.store import TableStatus as RowStatus


class TableStatus(Enum):
    # (a member is its own only instance: hashed as an object, in C, not by its name in Python, on the
    # path of every action)
    __hash__ = object.__hash__

    WAITING = "waiting"
    PLAYING = "playing"
    PAUSED = "paused"
    FINISHED = "finished"
    ABANDONED = "abandoned"
    MOVED = "moved"

    @property
    def is_open(self) -> bool:
        """Whether things still happen at the table here."""
        return self in (TableStatus.WAITING, TableStatus.PLAYING, TableStatus.PAUSED)

    @classmethod
    def of_row(cls, status: RowStatus) -> TableStatus:
        """The status of a table whose row the store holds as ``status`` (a restart, a new table)."""
        return _OF_ROW[status]


_OF_ROW: Final = {
    RowStatus.WAITING: TableStatus.WAITING,
    RowStatus.PLAYING: TableStatus.PLAYING,
    RowStatus.FINISHED: TableStatus.FINISHED,
    RowStatus.ABANDONED: TableStatus.ABANDONED,
    RowStatus.BROKEN: TableStatus.ABANDONED,  # (never held: a broken table is not brought back)
}

W, P, Z, F, A, M = (
    TableStatus.WAITING,
    TableStatus.PLAYING,
    TableStatus.PAUSED,
    TableStatus.FINISHED,
    TableStatus.ABANDONED,
    TableStatus.MOVED,
)

# status -> the statuses it may become (staying where it is is always allowed)
TRANSITIONS: Final[dict[TableStatus, frozenset[TableStatus]]] = {
    W: frozenset({P, A, M}),  # the last seat taken; the last person left; another process took it
    P: frozenset({Z, F, A, M}),  # the store failed; the end stored; stopped; taken elsewhere
    Z: frozenset({P, F, A, M}),  # the store is back (and the end, when it was due, stored); stopped
    F: frozenset(),
    A: frozenset(),
    M: frozenset(),
}


class StatusError(RuntimeError):
    """A move between statuses that the table's life does not have (a bug, never a person's doing)."""

    def __init__(self, table: str, status: TableStatus, to: TableStatus, command: str) -> None:
        super().__init__(f"table {table}: {command} cannot take it from {status.value} to {to.value}")
        self.status, self.to, self.command = status, to, command


def moved(table: str, status: TableStatus, to: TableStatus, command: str) -> TableStatus:
    """``to``, if ``status`` may become it; else :class:`StatusError`."""
    if to is not status and to not in TRANSITIONS[status]:
        raise StatusError(table, status, to, command)
    return to


class Command(Enum):
    """What a table is asked to do: by a connection, by its timers, its bots, its store, its process."""

    __hash__ = object.__hash__

    OPEN = "open"  # a new table stored
    JOIN = "join"
    WATCH = "watch"
    DETACH = "detach"  # a connection closed or stopped watching
    LEAVE = "leave"
    BACK = "back"
    ADD_BOT = "add_bot"
    ACT = "act"
    HINT = "hint"
    TIME_UP = "time_up"  # a person's turn timer ran out
    GONE = "gone"  # a person's away timer ran out
    BOT_MOVED = "bot_moved"  # a bot's pace passed, or its search came back
    STORE_BACK = "store_back"
    HALT = "halt"  # the operator's stop, or the cap on a match's length
    LEASE_LOST = "lease_lost"  # another process owns the table now
    RESUME = "resume"  # after a restart


RUN: Final = "run"
IGNORE: Final = "ignore"
# A decision: RUN, IGNORE, or the error code refused with.
Decision = str

_MOVED: Final = "table_moved"
_OVER: Final = "table_over"

DECISIONS: Final[dict[Command, dict[TableStatus, Decision]]] = {
    Command.OPEN: {W: RUN, P: IGNORE, Z: IGNORE, F: IGNORE, A: IGNORE, M: IGNORE},
    # (at a table under way, a person joins his own seat again; the seat decides the rest)
    Command.JOIN: {W: RUN, P: RUN, Z: RUN, F: RUN, A: RUN, M: _MOVED},
    Command.WATCH: {W: RUN, P: RUN, Z: RUN, F: RUN, A: RUN, M: _MOVED},
    Command.DETACH: {W: RUN, P: RUN, Z: RUN, F: RUN, A: RUN, M: RUN},
    Command.LEAVE: {W: RUN, P: RUN, Z: RUN, F: RUN, A: RUN, M: _MOVED},
    Command.BACK: {W: RUN, P: RUN, Z: RUN, F: RUN, A: RUN, M: _MOVED},
    Command.ADD_BOT: {W: RUN, P: "seat_taken", Z: "seat_taken", F: "seat_taken", A: "seat_taken", M: _MOVED},
    Command.ACT: {W: "not_started", P: RUN, Z: "store_unavailable", F: _OVER, A: _OVER, M: _MOVED},
    # (a hint asked while paused is searched, and found stale when it comes back)
    Command.HINT: {W: "not_started", P: RUN, Z: RUN, F: _OVER, A: _OVER, M: _MOVED},
    Command.TIME_UP: {W: IGNORE, P: RUN, Z: IGNORE, F: IGNORE, A: IGNORE, M: IGNORE},
    # (a person away while the store is out gets his stand-in, who plays once it is back)
    Command.GONE: {W: IGNORE, P: RUN, Z: RUN, F: IGNORE, A: IGNORE, M: IGNORE},
    Command.BOT_MOVED: {W: IGNORE, P: RUN, Z: IGNORE, F: IGNORE, A: IGNORE, M: IGNORE},
    Command.STORE_BACK: {W: IGNORE, P: IGNORE, Z: RUN, F: IGNORE, A: IGNORE, M: IGNORE},
    Command.HALT: {W: RUN, P: RUN, Z: RUN, F: IGNORE, A: IGNORE, M: _MOVED},
    Command.LEASE_LOST: {W: RUN, P: RUN, Z: RUN, F: IGNORE, A: IGNORE, M: IGNORE},
    Command.RESUME: {W: IGNORE, P: RUN, Z: IGNORE, F: IGNORE, A: IGNORE, M: IGNORE},
}
