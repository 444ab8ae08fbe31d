"""What the table's machine (:mod:`cardhall.server.host.machine`) asks its actor to do: the writes to
commit, and once they are committed the frames to send, the timers to set or cancel, the bot and hint
jobs to start. Plain data: the machine builds them without asyncio, a store or a socket, and the tests
read them.

- A command is a generator: each :class:`Write` it yields is committed by the actor, which sends back
  how it went (:data:`COMMITTED`, :class:`StoreFailed`, :data:`FENCED`); what the command did before
  the write (frames of an earlier commit) is carried out before the write, and nothing it does after
  is seen until the write is committed. So one action reads in one direction: machine, effects,
  commit, frames.
- Frames are built by :mod:`cardhall.server.host.frames` and kept here with their connection, in the
  order they are to be sent.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from cardhall.server.protocol import ServerFrame
from cardhall.store import ActionRow, ResultRow, TableRow
from cardhall.table import BotJob

if TYPE_CHECKING:
    from cardhall.core import Game
    from cardhall.server.host.audience import Listener


# --- writes ---------------------------------------------------------------------------------------


class SaveRow(NamedTuple):
    """The table's row (its seats, its status), with a new private table's invitation."""

    row: TableRow
    invitation: str | None = None


class CommitAction(NamedTuple):
    """One action of the match, the next number after those stored."""

    row: ActionRow


class Rating(NamedTuple):
    """What the store's rating request is made of (read and written in the end's transaction)."""

    game: Game
    players: Sequence[int | None]
    scores: Sequence[int]
    absent: Collection[int]


class FinishMatch(NamedTuple):
    """A match's end: the row finished, its results, and its ratings (None: a casual table)."""

    row: TableRow
    results: list[ResultRow]
    rating: Rating | None


Write = SaveRow | CommitAction | FinishMatch


class Outcome(Enum):
    COMMITTED = "committed"
    FENCED = "fenced"  # another process owns the table now


COMMITTED: Final = Outcome.COMMITTED
FENCED: Final = Outcome.FENCED


class StoreFailed(NamedTuple):
    """Every try of the write failed. For an action: the actions the store holds, when it could
    still be read (None: it could not)."""

    actions: list[tuple[int, int]] | None = None


Answer = Outcome | StoreFailed


# --- what is done after a commit --------------------------------------------------------------------


class TurnTimer(NamedTuple):
    """Set (``seconds`` > 0) or cancel (``seconds`` None) a seat's turn timer for its choice since
    event ``since``."""

    seat: int
    since: int
    seconds: float | None


class AwayTimer(NamedTuple):
    seat: int
    seconds: float | None  # None: cancel


class Pace(NamedTuple):
    """A bot plays after ``seconds`` (rules and random bots: here, in the owner task)."""

    seconds: float


class Think(NamedTuple):
    """A bot searches in the bot tier; its move is played once ``seconds`` have passed."""

    job: BotJob
    seconds: float


class HintJob(NamedTuple):
    listener: Listener
    job: BotJob
    ref: Any


@dataclass(slots=True)
class Effects:
    """What one command, up to its next write (or its end), asks of the actor, in order."""

    frames: list[tuple[Listener, ServerFrame]] = field(default_factory=list)
    timers: list[TurnTimer | AwayTimer] = field(default_factory=list)
    bot: Pace | Think | None = None
    stop_bots: bool = False  # cancel the bot move under way (the table stopped or moved)
    # (rare: tuples, so that an action's effects allocate no list for them)
    hints: tuple[HintJob, ...] = ()
    history: tuple[Listener, ...] = ()  # connections to send the last chat lines
    lobby_changed: bool = False
    wait_for_store: bool = False  # paused: tell the store's watch to wake the table when it is back
    forget_store: bool = False
    lost: bool = False  # the table is another process's: the server drops it here
    # Play now: (player id, seat, whether a connection of his is at the table) of the people who took a
    # bot's seat at this deal's start, and the ids of those promised one who will not get it (the match
    # ended first): back to the queue.
    taken: tuple[tuple[int, int, bool], ...] = ()
    untaken: tuple[int, ...] = ()
    early_leaves: tuple[int, ...] = ()  # ids of people who left (or were stood in for) in the first deal

    def __bool__(self) -> bool:
        return bool(
            self.frames
            or self.timers
            or self.bot
            or self.stop_bots
            or self.hints
            or self.history
            or self.lobby_changed
            or self.wait_for_store
            or self.forget_store
            or self.lost
            or self.taken
            or self.untaken
            or self.early_leaves
        )
