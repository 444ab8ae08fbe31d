"""What every part of a table's host shares: the server's services it uses, the table's row and match,
its owner queue, its connections (the audience) and its timers; dealing and restoring the match; and
turning the table's state into frames for its connections."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Collection, Coroutine, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import msgspec

from cardhall.server import bounds
from cardhall.server.host import frames
from cardhall.server.host.audience import Audience, Listener
from cardhall.server.host.queue import OwnerQueue, Work
from cardhall.server.host.timers import Timers
from cardhall.server.outage import StoreWatch
from cardhall.server.pacing import Pacing, Wait
from cardhall.server.protocol import ChatFrame, ProtocolError, ServerFrame, TableFrame
from cardhall.store import PlayerRow, SeatKind, SeatRow, TableRow, TableStatus
from cardhall.table import Event, Occupant, Table

if TYPE_CHECKING:
    from cardhall.bot_tier import BotTier
    from cardhall.core import Game
    from cardhall.server.committer import Committer
    from cardhall.server.relations import Relations
    from cardhall.store import Store
    from cardhall.store.rows import RatingRequest

T = TypeVar("T")

STORE_UNAVAILABLE = "store_unavailable"  # why a table pauses (the ``paused`` frame's reason)


class Services(Protocol):
    """What a table needs of the server (:class:`~cardhall.server.context.ServerContext` has it)."""

    store: Store
    committer: Committer
    store_watch: StoreWatch
    pacing: Pacing  # the bots' paces
    social: Relations  # private tables, bans, mutes, blocks (issue 25, part B)

    @property
    def bot_tier(self) -> BotTier: ...

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None: ...

    def lobby_changed(self, host: Any = None) -> None: ...

    # Many processes (cardhall.server.cluster): this process's name (None: the one process), whether
    # commits carry the owner's fence, and what to do when a write finds the table taken elsewhere.
    node: str | None
    fencing: bool

    def table_lost(self, table_id: str) -> None: ...

    def table_owned(self, table_id: str) -> None: ...

    def rating(
        self, game: Game, players: Sequence[int | None], scores: Sequence[int], absent: Collection[int] = ()
    ) -> RatingRequest | None: ...


class HostBase:
    def __init__(self, ctx: Services, row: TableRow) -> None:
        self.ctx = ctx
        self.row = row
        self.table: Table | None = None
        self.audience = Audience(len(row.seats))
        self.timers = Timers(self._post_time_up, self._post_gone)
        self.stored = 0  # the actions of the match the store holds: the next is number stored + 1
        # Per seat: the stored actions the bot standing in for its person made (ratings.absence counts
        # a match played by a stand-in from them; a restart counts them again from the stored actions).
        self.by_stand_in = [0] * len(row.seats)
        self.paused: str | None = None  # why the table waits (STORE_UNAVAILABLE), None while it plays
        self.finish_due = False  # the match is over but its end not stored yet
        self.max_actions = bounds.max_actions(row.game.partition("(")[0])
        self.bot_busy = False  # a bot move is under way (its pace, its thinking): see bots.py
        self.bot_timer: asyncio.TimerHandle | Wait | None = None
        self.thinking: asyncio.Task[None] | None = None
        self.encoded = frames.Encoded()  # what its frames repeat, encoded once (see frames.py)
        self.hinting: set[int] = set()  # seats whose hint is being searched (see hints.py)
        self.hint_tasks: set[asyncio.Task[None]] = set()
        self.queue = OwnerQueue(f"table {row.id}")
        self.lost = False  # another process took the table (its fence moved on): nothing more here
        # The table's last chat lines, as their frames (table_host.py); None until read from the store
        # (a table brought back after a restart, or taken over), empty for a new table.
        self.chat_lines: deque[ChatFrame] | None = None

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def listeners(self) -> Audience:
        return self.audience

    @property
    def playing(self) -> bool:
        """Whether the match goes on: dealt, not over, not stopped, not paused."""
        return (
            self.table is not None
            and self.row.status == TableStatus.PLAYING
            and self.paused is None
            and not self.lost
        )

    @property
    def fence(self) -> int | None:
        """The fencing number this table's writes carry (None: one process, nothing to check)."""
        return self.row.fence if self.ctx.fencing else None

    def fenced(self) -> None:
        """A write found the table owned by another process: stop here (no timers, no bots, no more
        writes) and let the server drop it and send its connections to the new owner."""
        if self.lost:
            return
        self.lost = True
        self.timers.stop()
        self.stop_bots()
        self.ctx.store_watch.forget(self.id)
        self.ctx.table_lost(self.id)

    def check_owned(self, ref: Any) -> None:
        """Refuse anything at a table this process no longer owns (``table_moved``)."""
        if self.lost:
            raise ProtocolError(
                "table_moved", f"table {self.id} moved to another server: it is back there in a moment", ref
            )

    # --- the owner task (see queue.py) -----------------------------------------------------------

    def call(self, work: Callable[[], Awaitable[T]]) -> Awaitable[T]:
        """Run ``work`` in the owner task, after everything queued before it (see queue.py)."""
        return self.queue.call(work)

    def post(self, work: Work) -> None:
        self.queue.post(work)

    async def retire(self) -> None:
        """Stop once the work queued before now is done (a table leaving memory keeps its last writes:
        :meth:`stop` would cancel the owner task wherever it waits, even mid-write)."""
        await self.queue.drain()
        await self.stop()

    async def stop(self) -> None:
        self.ctx.store_watch.forget(self.id)
        self.timers.stop()
        self.stop_bots()
        for task in self.hint_tasks:
            task.cancel()
        await self.queue.stop()

    def stop_bots(self) -> None:
        raise NotImplementedError

    # --- the match -------------------------------------------------------------------------------

    def deal(self, seats: Sequence[SeatRow], actions: Sequence[tuple[int, int]] = ()) -> Table:
        """The match of these seats, dealt from the seed (its ``actions`` replayed: after a restart, or to
        undo an action the store did not take); raises when an action is illegal."""
        table = Table(self.row.game, [occupant(s) for s in seats], self.row.seed)
        for seat, action in actions:
            table.apply(seat, action, report=False)
        for s in seats:
            if s.kind == SeatKind.PERSON and s.left:
                table.stand_in(s.seat, str(self.row.settings["stand_in"]))
        return table

    def playing_table(self, ref: Any) -> Table:
        """The match, refused (``not_started``, ``table_over``) unless it is being played."""
        if self.row.status == TableStatus.WAITING or self.table is None:
            raise ProtocolError("not_started", f"table {self.id} waits for every seat to be taken", ref)
        if self.row.status != TableStatus.PLAYING:
            raise ProtocolError("table_over", f"the match at table {self.id} is over", ref)
        return self.table

    def seat_of(self, player: PlayerRow | None) -> int | None:
        if player is None:
            return None
        for s in self.row.seats:
            if s.kind == SeatKind.PERSON and s.player_id == player.id:
                return s.seat
        return None

    # --- frames (built by frames.py, sent by the audience) ---------------------------------------

    def sync_timers(self) -> None:
        self.timers.sync(self.table, int(self.row.settings["turn_seconds"]), self.playing)

    def picture(self, seats: bool = True) -> frames.Picture:
        """What the table's frames share now (``seats``: with the seat entries)."""
        self.sync_timers()  # a frame never shows a deadline that no longer holds, nor lacks one
        return frames.Picture(
            row=self.row,
            deadlines=self.timers.deadlines(),
            spectators=self.audience.spectators(self.row.seats),
            paused=self.paused,
            seats=frames.seat_entries(self.row.seats, self.table, self.audience.connected) if seats else None,
            encoded=self.encoded,
        )

    def seats_view(self) -> list[dict[str, Any]]:
        """The seat entries, JSON-ready (the HTTP API's table summaries)."""
        entries = frames.seat_entries(self.row.seats, self.table, self.audience.connected)
        seats: list[dict[str, Any]] = msgspec.to_builtins(entries)
        return seats

    def summary(self) -> dict[str, Any]:
        """The table as the lobby lists it."""
        return {
            "table": self.id,
            "game": self.row.game,
            "status": self.row.status.value,
            "seats": self.seats_view(),
            "settings": self.row.settings,
            "rematch_of": self.row.rematch_of,
        }

    def full_frame(self, listener: Listener, since: int) -> TableFrame:
        """The ``table`` frame for ``listener``'s seat, with the events after ``since``."""
        seat = self.audience.seat_of(listener)
        frame = frames.table_frame(self.picture(), self.table, seat, since)
        self.audience.seen[listener] = frame.n
        return frame

    def broadcast(self, seats_changed: bool = False) -> None:
        """Tell every connection what changed since its last frame, as its seat may see it."""
        number = 0 if self.table is None else self.table.number
        picture = self.picture(seats=seats_changed)
        self.audience.send_each(frames.updates(picture, self.table, seats_changed), number)

    def send_all(self, frame: ServerFrame) -> None:
        self.audience.send_all(frame)

    @property
    def number(self) -> int:
        return 0 if self.table is None else self.table.number

    # --- timers' callbacks (from the loop: the work goes to the owner task) -----------------------

    def _post_time_up(self, seat: int, since: int) -> None:
        self.post(lambda: self.time_up(seat, since))

    def _post_gone(self, seat: int) -> None:
        self.post(lambda: self.gone(seat))

    # --- what the other parts do (play.py, bots.py, finishing.py), named here for each part to ask for
    # (they override these; a mixin never declares another's method, which would shadow it)

    async def time_up(self, seat: int, since: int) -> None:
        raise NotImplementedError

    async def gone(self, seat: int) -> None:
        raise NotImplementedError

    async def stand_in(self, seat: int) -> None:
        raise NotImplementedError

    async def back_to(self, seat: int) -> None:
        raise NotImplementedError

    async def advance(self) -> None:
        raise NotImplementedError

    async def applied(self, seat_changed: bool = False) -> bool:
        raise NotImplementedError

    async def finish(self) -> bool:
        raise NotImplementedError

    async def halt(self, reason: str) -> bool:
        raise NotImplementedError

    def next_bot(self) -> None:
        raise NotImplementedError

    def pause(self) -> None:
        raise NotImplementedError

    async def store_row(self, row: TableRow, ref: Any = None, invitation: str | None = None) -> None:
        raise NotImplementedError

    async def chat_history(self, listener: Listener) -> None:
        raise NotImplementedError

    # --- for tests and the lobby -----------------------------------------------------------------

    def events_for(self, seat: int | None, since: int = 0) -> list[Event]:
        return [] if self.table is None else self.table.events(seat, since=since)


def occupant(seat: SeatRow) -> Occupant:
    """The Table's occupant of a stored seat (a person here plays over the network)."""
    if seat.kind == SeatKind.BOT and seat.bot:
        return Occupant.for_bot(seat.bot, seat.name)
    return Occupant.remote(seat.name)
