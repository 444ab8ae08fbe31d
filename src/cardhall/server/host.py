"""One table on the server, and its owner task: every change to the table (a seat taken, an action, a bot's
move, a timer running out, a chat line) is applied by that one task, in order, so nothing needs a lock.

The life of a table: ``waiting`` (seats being taken; no match yet), ``playing`` (every seat holds a
person or a bot: the match is dealt), ``finished``; ``abandoned`` when its last person leaves before it
starts. The match (a :class:`~cardhall.table.Table`) is created only when play starts, from the seats and
the seed: so its events are numbered by the first seats and the record alone, and a restarted server
rebuilds it, events and numbers included, by replaying the stored actions.

Choices:

- Every applied action is committed (group commit, :mod:`cardhall.server.committer`) before any frame
  shows it, as the next number after those stored (:attr:`TableHost.stored`, counted from what the
  store holds, never from the length of the match in memory).
- **A store that fails** never leaves the match in memory ahead of it. A write that fails is tried
  :data:`WRITE_ATTEMPTS` times (after each failure the store is asked whether the write landed after
  all: a commit cut off may have); then the action is undone (the match is dealt again from its seed
  and replayed to what the store holds, or, when even reading fails, to what it last committed), the
  table pauses (a ``paused`` frame; moves refused with ``store_unavailable``, no bot moves, no
  timers) and goes on (``resumed``) once :class:`~cardhall.server.outage.StoreWatch` sees the store
  take writes again. A person whose move was undone is told so (``store_unavailable``) and plays it
  again. Seats are stored before they are held, and a match is finished in memory only once its
  end is stored: a failed write of either changes nothing.
- Each connection watching the table gets frames built for its seat alone: its observation, its legal
  actions and the events as its seat may see them (spectators: seat None); every frame carries the
  table's event number ``n``.
- A person has ``turn_seconds`` for each decision (0: no limit); when it runs out, or ``away_seconds``
  after his last connection to the table dropped, the ``stand_in`` bot plays for him until he acts,
  says he is ``back``, or joins again. Who is away is shown in the ``seats`` of every frame.
- Bots wait ``bot_pace_ms`` before each move so people can follow; a bot that searches thinks in a worker
  process (the server's event loop never runs a search), the others here (well under a millisecond).
- A person who leaves during the match leaves for good: the stand-in bot plays his seat to the end,
  and his result still counts.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from cardhall.errors import CardhallError, IllegalActionError, InvalidActionError
from cardhall.server import bounds
from cardhall.server.outage import StoreWatch
from cardhall.server.protocol import ProtocolError
from cardhall.store import ActionRow, ChatRow, PlayerRow, ResultRow, SeatRow, StoreUnavailableError, TableRow
from cardhall.table import BotJob, BotResult, Event, Occupant, StaleActionError, Table, run_bot_job

if TYPE_CHECKING:
    from collections.abc import Coroutine, Sequence
    from concurrent.futures import Executor

    from cardhall.core import Game
    from cardhall.server.committer import Committer
    from cardhall.store import RatingRow, Store

log = logging.getLogger(__name__)
T = TypeVar("T")

WRITE_ATTEMPTS = 3  # a write that fails is tried this many times before the table pauses
RETRY_DELAYS = (0.1, 0.5)  # seconds before the second and the third try
STORE_UNAVAILABLE = "store_unavailable"  # why a table pauses (the ``paused`` frame's reason)


async def _nothing() -> None:
    """Work for the owner task that only marks its place in the queue."""


class Services(Protocol):
    """What a table needs of the server (:class:`~cardhall.server.context.ServerContext` has it)."""

    store: Store
    committer: Committer
    store_watch: StoreWatch

    @property
    def bot_pool(self) -> Executor: ...

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None: ...

    def lobby_changed(self) -> None: ...

    async def rate(
        self, game: Game, players: Sequence[int | None], scores: Sequence[int]
    ) -> list[RatingRow]: ...


class Listener(Protocol):
    """A connection, as a table sees it."""

    player: PlayerRow | None

    def send(self, frame: dict[str, Any]) -> None: ...


class TableHost:
    def __init__(self, ctx: Services, row: TableRow) -> None:
        self.ctx = ctx
        self.row = row
        self.table: Table | None = None
        self.listeners: dict[Listener, int | None] = {}  # connection -> its seat (None: spectator)
        self.seen: dict[Listener, int] = {}  # the last event number each connection was sent
        self.connected = [0] * len(row.seats)  # connections per seat
        self.inbox: asyncio.Queue[tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any] | None]] = (
            asyncio.Queue()
        )
        self._timers: dict[int, tuple[int, asyncio.TimerHandle, float]] = {}  # seat -> (since, handle, at)
        self._away: dict[int, asyncio.TimerHandle] = {}
        self._bot_running = False
        self.stored = 0  # the actions of the match the store holds: the next is number stored + 1
        self.paused: str | None = None  # why the table waits (STORE_UNAVAILABLE), None while it plays
        self._finish_due = False  # the match is over but its end not stored yet
        self.max_actions = bounds.max_actions(row.game.partition("(")[0])
        self._task = asyncio.create_task(self._run(), name=f"table {row.id}")

    @property
    def id(self) -> str:
        return self.row.id

    # --- the owner task --------------------------------------------------------------------------

    async def call(self, work: Callable[[], Awaitable[T]]) -> T:
        """Run ``work`` in the owner task, after everything queued before it; its result."""
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self.inbox.put_nowait((work, done))
        return await done

    def post(self, work: Callable[[], Awaitable[Any]]) -> None:
        """Queue ``work`` for the owner task without waiting for it."""
        self.inbox.put_nowait((work, None))

    async def _run(self) -> None:
        while True:
            work, done = await self.inbox.get()
            try:
                result = await work()
            except Exception as e:
                if done is None:
                    log.exception("table %s: background work failed", self.id)
                elif not done.done():
                    done.set_exception(e)
            else:
                if done is not None and not done.done():
                    done.set_result(result)

    async def retire(self) -> None:
        """Stop once the work queued before now is done (a table leaving memory keeps its last writes:
        :meth:`stop` would cancel the owner task wherever it waits, even mid-write)."""
        await self.call(_nothing)
        await self.stop()

    async def stop(self) -> None:
        self.ctx.store_watch.forget(self.id)
        for _, handle, _ in self._timers.values():
            handle.cancel()
        for handle in self._away.values():
            handle.cancel()
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)

    # --- starting and restoring ------------------------------------------------------------------

    def _deal(self, seats: Sequence[SeatRow], actions: Sequence[tuple[int, int]] = ()) -> Table:
        """The match of these seats, dealt from the seed (its ``actions`` replayed: after a restart, or to
        undo an action the store did not take); raises when an action is illegal."""
        table = Table(self.row.game, [self._occupant(s) for s in seats], self.row.seed)
        for seat, action in actions:
            table.apply(seat, action)
        for s in seats:
            if s.kind == "person" and s.left:
                table.stand_in(s.seat, str(self.row.settings["stand_in"]))
        return table

    def _start(self, actions: Sequence[tuple[int, int]] = ()) -> None:
        """Hold the match, its stored ``actions`` replayed (after a restart)."""
        self.table = self._deal(self.row.seats, actions)
        self.stored = len(actions)
        self.row.status = "playing"

    @staticmethod
    def _occupant(seat: SeatRow) -> Occupant:
        if seat.kind == "bot" and seat.bot:
            return Occupant.for_bot(seat.bot, seat.name)
        return Occupant.remote(seat.name)

    def restore(self, actions: Sequence[tuple[int, int]]) -> None:
        """After a restart: the match as it was (raises when its stored actions do not replay); its
        people have ``away_seconds`` to come back."""
        if self.row.status == "playing":
            self._start(actions)
            for s in self.row.seats:
                if s.kind == "person" and not s.left:
                    self._away_later(s.seat)
            self.post(self._resume)

    async def _resume(self) -> None:
        """Go on after a restart. A match whose last action was committed but not its end (the server
        stopped between the two: :meth:`stop` cancels the owner task wherever it waits) ends now."""
        if self.table is not None and self.table.is_over and self.row.status == "playing":
            self._finish_due = True
            if not await self._finish():
                return
        await self._advance()

    # --- frames ----------------------------------------------------------------------------------

    def seats_view(self) -> list[dict[str, Any]]:
        table = self.table
        out = []
        for s in self.row.seats:
            stand_in = table.stand_in_for(s.seat) if table is not None else None
            out.append(
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": s.name,
                    "bot": s.bot,
                    "connected": self.connected[s.seat] > 0 if s.kind == "person" else None,
                    "stand_in": stand_in,
                    "left": s.left,
                }
            )
        return out

    def summary(self) -> dict[str, Any]:
        """The table as the lobby lists it."""
        return {
            "table": self.id,
            "game": self.row.game,
            "status": self.row.status,
            "seats": self.seats_view(),
            "settings": self.row.settings,
            "rematch_of": self.row.rematch_of,
        }

    def _deadlines(self) -> dict[str, int]:
        self._sync_timers()  # a frame never shows a deadline that no longer holds, nor lacks one
        return {str(seat): int(at * 1000) for seat, (_, _, at) in self._timers.items()}

    def _view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees of the match now (observation, legal actions, whose turn)."""
        table = self.table
        if table is None:
            return {"observation": None, "legal": [], "to_act": []}
        legal: list[dict[str, Any]] = []
        # A stopped match still has seats to act, who may no longer act: it waits for nobody.
        to_act = list(table.to_act) if self.row.status == "playing" else []
        if seat is not None and seat in to_act:
            game = table.game
            # each entry: the int to send, its label, and what it means (Game.action_info: kind, card...)
            legal = [
                {"action": a, "label": game.action_label(a), **game.action_info(a)}
                for a in table.legal_actions(seat)
            ]
        return {"observation": table.observation(seat), "legal": legal, "to_act": to_act}

    def full_frame(self, listener: Listener, since: int) -> dict[str, Any]:
        seat = self.listeners.get(listener)
        table = self.table
        number = 0 if table is None else table.number
        events = [] if table is None else table.events(seat, since=min(max(since, 0), number))
        self.seen[listener] = number
        return {
            "type": "table",
            "table": self.id,
            "n": number,
            "game": self.row.game,
            "status": self.row.status,
            "you": seat,
            "seats": self.seats_view(),
            "settings": self.row.settings,
            "rematch_of": self.row.rematch_of,
            "deadlines": self._deadlines(),
            "spectators": self.spectators(),
            "paused": self.paused,
            "events": events,
            **self._view(seat),
        }

    def _broadcast(self, seats_changed: bool = False) -> None:
        """Tell every listener what changed since its last frame, as its seat may see it."""
        table = self.table
        number = 0 if table is None else table.number
        views: dict[int | None, dict[str, Any]] = {}
        seats = self.seats_view() if seats_changed else None
        deadlines = self._deadlines()
        spectators = self.spectators()
        for listener, seat in list(self.listeners.items()):
            if seat not in views:
                views[seat] = self._view(seat)
            since = self.seen.get(listener, 0)
            events = [] if table is None or since >= number else table.events(seat, since=since)
            self.seen[listener] = number
            frame: dict[str, Any] = {
                "type": "update",
                "table": self.id,
                "n": number,
                "status": self.row.status,
                "events": events,
                "deadlines": deadlines,
                "spectators": spectators,
                **views[seat],
            }
            if seats is not None:
                frame["seats"] = seats
            listener.send(frame)

    def spectators(self) -> int:
        """How many people watch the table: players with a connection watching it who hold no seat
        there (a player's several tabs count once)."""
        seated = {s.player_id for s in self.row.seats if s.kind == "person"}
        watching = {
            listener.player.id
            for listener, seat in self.listeners.items()
            if seat is None and listener.player is not None
        }
        return len(watching - seated)

    def send_all(self, frame: dict[str, Any]) -> None:
        for listener in list(self.listeners):
            listener.send(frame)

    # --- what connections ask (each runs in the owner task) -------------------------------------

    def _seat_of(self, player: PlayerRow | None) -> int | None:
        if player is None:
            return None
        for s in self.row.seats:
            if s.kind == "person" and s.player_id == player.id:
                return s.seat
        return None

    async def join(self, listener: Listener, seat: int | None, since: int, ref: Any) -> None:
        player = listener.player
        assert player is not None
        mine = self._seat_of(player)
        if mine is not None and self.row.seats[mine].left and self.row.status == "playing":
            raise ProtocolError(
                "seat_taken", f"you left table {self.id}: a bot plays your seat to the end (watch it)", ref
            )
        if mine is None:
            if self.row.status in ("finished", "abandoned"):
                raise ProtocolError("table_over", f"the match at table {self.id} is over", ref)
            if self.row.status != "waiting":
                raise ProtocolError("seat_taken", f"table {self.id} has started: every seat is taken", ref)
            if seat is None:
                empty = [s.seat for s in self.row.seats if s.kind == "empty"]
                if not empty:
                    raise ProtocolError("seat_taken", f"table {self.id} has no empty seat", ref)
                seat = empty[0]
            if not 0 <= seat < len(self.row.seats):
                raise ProtocolError(
                    "no_such_seat", f"table {self.id} has seats 0..{len(self.row.seats) - 1}", ref
                )
            if self.row.seats[seat].kind != "empty":
                raise ProtocolError("seat_taken", f"seat {seat} of table {self.id} is taken", ref)
            await self._take_seats(self._seats_with(SeatRow(seat, "person", player.name, player.id)), ref)
            mine = seat
        elif seat is not None and seat != mine:
            raise ProtocolError("seat_taken", f"you already hold seat {mine} of table {self.id}", ref)
        self._attach(listener, mine)
        await self._back(mine)
        listener.send(self.full_frame(listener, since))
        self._broadcast(seats_changed=True)

    async def watch(self, listener: Listener, since: int) -> None:
        old = self.listeners.get(listener)
        watchers = self.spectators()
        self._attach(listener, None)
        listener.send(self.full_frame(listener, since))
        if old is not None:  # this connection held a seat: the seat may now have none
            if self.connected[old] == 0 and self.row.status == "playing":
                self._away_later(old)
            self._broadcast(seats_changed=True)
        elif self.spectators() != watchers:  # one more person watching: everyone sees the count
            self._broadcast()

    def _attach(self, listener: Listener, seat: int | None) -> None:
        old = self.listeners.get(listener, -1)
        if old == seat:
            return
        if old is not None and old >= 0:
            self.connected[old] -= 1
        self.listeners[listener] = seat
        if seat is not None:
            self.connected[seat] += 1
            handle = self._away.pop(seat, None)
            if handle is not None:
                handle.cancel()

    async def detach(self, listener: Listener) -> None:
        """A connection closed (or stopped watching)."""
        watchers = self.spectators()
        seat = self.listeners.pop(listener, None)
        self.seen.pop(listener, None)
        if seat is None:
            if self.spectators() != watchers:  # one fewer person watching
                self._broadcast()
            return
        self.connected[seat] -= 1
        if self.connected[seat] == 0 and self.row.status == "playing":
            self._away_later(seat)
        self._broadcast(seats_changed=True)

    async def leave(self, listener: Listener, ref: Any) -> None:
        seat = self._seat_of(listener.player)
        await self.detach(listener)
        if seat is None:
            return
        if self.row.status == "waiting":
            seats = self._seats_with(SeatRow(seat))
            nobody = not any(s.kind == "person" for s in seats)
            await self._take_seats(seats, ref, "abandoned" if nobody else "waiting")
            self._broadcast(seats_changed=True)
        elif self.row.status == "playing":
            seats = self._seats_with(replace(self.row.seats[seat], left=True))
            await self._store_row(replace(self.row, seats=seats), ref)
            await self._stand_in(seat)

    async def act(self, listener: Listener, action: int | str, expect: int, ref: Any) -> None:
        seat = self.listeners.get(listener)
        if seat is None or self._seat_of(listener.player) != seat:
            raise ProtocolError("not_seated", f"you hold no seat at table {self.id}: join it first", ref)
        table = self._playing(ref)
        if self.row.seats[seat].left:  # (from another connection of his, still joined)
            raise ProtocolError(
                "not_seated", f"you left table {self.id}: a bot plays your seat to the end", ref
            )
        if self.paused is not None:
            raise ProtocolError(
                STORE_UNAVAILABLE,
                f"table {self.id} is paused: its storage failed; your move waits until it is back",
                ref,
            )
        try:
            table.apply(seat, action, expect=expect)
        except StaleActionError as e:
            raise ProtocolError("stale", str(e), ref) from None
        except (IllegalActionError, InvalidActionError) as e:
            raise ProtocolError("illegal_action", str(e), ref) from None
        except CardhallError as e:
            raise ProtocolError("bad_request", str(e), ref) from None
        came_back = table.stand_in_for(seat) is not None
        if came_back:
            table.stand_in(seat, None)  # he acts: he is back (even if the store fails to take his move)
        if not await self._applied(seat, seats_changed=came_back):
            raise ProtocolError(
                STORE_UNAVAILABLE,
                f"your move at table {self.id} was not played: its storage failed, and the table is "
                "paused until it is back; play your move again then",
                ref,
            )

    async def back(self, listener: Listener, ref: Any) -> None:
        seat = self._seat_of(listener.player)
        if seat is None:
            raise ProtocolError("not_seated", f"you hold no seat at table {self.id}", ref)
        await self._back(seat)
        self._broadcast(seats_changed=True)

    async def chat(self, listener: Listener, text: str, ref: Any) -> None:
        player = listener.player
        assert player is not None
        if listener not in self.listeners:
            raise ProtocolError("not_seated", f"join or watch table {self.id} to talk there", ref)
        try:
            line = await self.ctx.store.add_chat(ChatRow(self.id, player.id, player.name, text))
        except StoreUnavailableError:
            raise ProtocolError(
                STORE_UNAVAILABLE, f"the chat of table {self.id} cannot be stored now: try again", ref
            ) from None
        number = 0 if self.table is None else self.table.number
        self.send_all(
            {
                "type": "chat",
                "table": self.id,
                "n": number,
                "from": player.name,
                "text": text,
                "at": line.at.isoformat(),
            }
        )

    async def add_bot(self, listener: Listener, seat: int, bot: str, ref: Any) -> None:
        if self._seat_of(listener.player) is None and self.row.owner_id != (
            listener.player and listener.player.id
        ):
            raise ProtocolError("not_seated", f"only the players of table {self.id} may seat bots", ref)
        if self.row.status != "waiting":
            raise ProtocolError("seat_taken", f"table {self.id} has started: every seat is taken", ref)
        if not 0 <= seat < len(self.row.seats):
            raise ProtocolError(
                "no_such_seat", f"table {self.id} has seats 0..{len(self.row.seats) - 1}", ref
            )
        if self.row.seats[seat].kind != "empty":
            raise ProtocolError("seat_taken", f"seat {seat} of table {self.id} is taken", ref)
        self._check_someone_plays(seat, ref)
        await self._take_seats(self._seats_with(SeatRow(seat, "bot", bot, None, bot)), ref)
        self._broadcast(seats_changed=True)

    def _check_someone_plays(self, seat: int, ref: Any) -> None:
        """Refuse a bot in ``seat`` that would start a match of bots alone: work for nobody, which a guest
        could start without end."""
        others = [s for s in self.row.seats if s.seat != seat]
        if all(s.kind == "bot" for s in others):
            raise ProtocolError(
                "no_person",
                f"a bot in seat {seat} would start table {self.id} with bots alone: "
                "take a seat first (a match needs at least one person)",
                ref,
            )

    def _playing(self, ref: Any) -> Table:
        if self.row.status == "waiting" or self.table is None:
            raise ProtocolError("not_started", f"table {self.id} waits for every seat to be taken", ref)
        if self.row.status != "playing":
            raise ProtocolError("table_over", f"the match at table {self.id} is over", ref)
        return self.table

    # --- changes and their consequences ----------------------------------------------------------

    def _seats_with(self, changed: SeatRow) -> list[SeatRow]:
        """The table's seats with one of them changed (the row's own list is left as it is)."""
        return [changed if s.seat == changed.seat else s for s in self.row.seats]

    async def _write(
        self, write: Callable[[], Awaitable[Any]], landed: Callable[[], Awaitable[bool]]
    ) -> None:
        """Run a store write, tried up to :data:`WRITE_ATTEMPTS` times; after a failure ``landed`` tells
        whether it committed after all (then it is not written twice). Raises the last
        :class:`StoreUnavailableError` when every try failed."""
        for attempt in range(WRITE_ATTEMPTS):
            try:
                await write()
                return
            except StoreUnavailableError as e:
                error = e
                log.warning(
                    "table %s: a write failed (try %d of %d): %s", self.id, attempt + 1, WRITE_ATTEMPTS, e
                )
            try:
                if await landed():
                    return
            except StoreUnavailableError:
                pass
            if attempt < len(RETRY_DELAYS):
                await asyncio.sleep(RETRY_DELAYS[attempt])
        raise error

    async def _store_row(self, row: TableRow, ref: Any = None) -> None:
        """Store the table as ``row`` (its seats, status), then hold it; a store that fails changes
        nothing and gets ``store_unavailable``."""
        stored = self.ctx.store

        async def landed() -> bool:
            found = await stored.table(row.id)
            return found is not None and found.seats == row.seats and found.status == row.status

        try:
            await self._write(lambda: stored.save_table(row), landed)
        except StoreUnavailableError:
            raise ProtocolError(
                STORE_UNAVAILABLE, f"table {self.id} cannot be stored now: nothing changed; try again", ref
            ) from None
        self.row.seats, self.row.status = row.seats, row.status

    async def _take_seats(self, seats: list[SeatRow], ref: Any = None, status: str | None = None) -> None:
        """Seats change while waiting: stored first, then held; the match starts when every seat is
        taken (dealt before the row is stored as playing, stored before it is held)."""
        if status is None:
            status = "playing" if all(s.kind != "empty" for s in seats) else "waiting"
        table = self._deal(seats) if status == "playing" else None
        await self._store_row(replace(self.row, seats=seats, status=status), ref)
        self.ctx.lobby_changed()
        if table is None:
            return
        self.table, self.stored = table, 0
        for s in self.row.seats:
            if s.kind == "person" and self.connected[s.seat] == 0:
                self._away_later(s.seat)  # seated without a connection yet (quick play, play again)
        for listener in list(self.listeners):
            listener.send(self.full_frame(listener, 0))
        await self._advance()

    async def open(self) -> None:
        """Store the new table (and start it, if every seat is taken already)."""
        await self._take_seats(self.row.seats)

    async def _applied(self, seat: int, seats_changed: bool = False) -> bool:
        """An action was applied: commit it, show it, and see what comes next. False when the store
        did not take it: the action is undone and the table paused."""
        table = self.table
        assert table is not None
        if not await self._commit():
            return False
        if table.is_over:
            self._finish_due = True
            await self._finish()  # (a failure pauses the table, which then finishes it when it can)
        self._broadcast(seats_changed)
        await self._advance()
        return True

    async def _commit(self) -> bool:
        """Commit the match's last action as number :attr:`stored` + 1; on failure undo it and pause."""
        table = self.table
        assert table is not None
        history = table.state.history
        number = self.stored + 1
        if len(history) != number:  # memory ahead of the store by more than this action: never
            log.error("table %s holds %d actions but stored %d", self.id, len(history), self.stored)
            await self._roll_back()
            return False
        acted, action = history[-1]
        row = ActionRow(self.id, number, acted, action)

        async def landed() -> bool:
            last = await self.ctx.store.last_action(self.id)
            return last is not None and last == row

        try:
            await self._write(lambda: self.ctx.committer.commit([row]), landed)
        except Exception as e:
            log.error("table %s: action %d was not stored (%s): undone, the table pauses", self.id, number, e)
            await self._roll_back()
            if self.stored == number:  # (it was stored after all: the store says so now)
                return True
            self._pause()
            return False
        self.stored = number
        return True

    async def _roll_back(self) -> None:
        """Hold the match as the store holds it: dealt again and replayed to the stored actions (to the
        ones this table committed, when the store cannot even be read). People away stay away."""
        table = self.table
        assert table is not None
        try:
            actions = await self.ctx.store.actions(self.id)
        except StoreUnavailableError:
            actions = table.state.history[: self.stored]
        rebuilt = self._deal(self.row.seats, actions)
        for seat in range(len(self.row.seats)):
            bot = table.stand_in_for(seat)
            if bot is not None and rebuilt.stand_in_for(seat) is None:
                rebuilt.stand_in(seat, bot)
        self.table, self.stored = rebuilt, len(actions)
        self._clear_timers()

    def _pause(self) -> None:
        """Wait for the store: no moves, bots or timers until :meth:`_store_back`."""
        if self.paused is not None:
            return
        self.paused = STORE_UNAVAILABLE
        self._clear_timers()
        number = 0 if self.table is None else self.table.number
        self.send_all({"type": "paused", "table": self.id, "n": number, "reason": STORE_UNAVAILABLE})
        self.ctx.store_watch.pause(self.id, lambda: self.post(self._store_back))

    async def _store_back(self) -> None:
        """The store takes writes again: finish what waited for it, and play on."""
        if self.paused is None:
            return
        self.paused = None
        if self._finish_due and not await self._finish():
            return  # (paused again)
        number = 0 if self.table is None else self.table.number
        self.send_all({"type": "resumed", "table": self.id, "n": number})
        self._broadcast(seats_changed=True)
        await self._advance()

    async def _advance(self) -> None:
        """Start what the new position calls for: a bot's move, the timers of the people to act."""
        table = self.table
        self._sync_timers()
        if table is None or self.row.status != "playing" or self.paused is not None:
            return
        if len(table.state.history) >= self.max_actions:
            try:
                await self.halt(f"the match reached {self.max_actions} actions, the most this server plays")
            except ProtocolError:  # (the store did not take the stop: stopped once it is back)
                self._pause()
            return
        if not self._bot_running and table.bots_to_act():
            self._bot_running = True
            self.ctx.spawn(self._bot_move())

    async def _bot_move(self) -> None:
        """Outside the owner task: wait the pace, think (here or in a worker), hand the move in."""
        try:
            pace = int(self.row.settings["bot_pace_ms"]) / 1000
            if pace:
                await asyncio.sleep(pace)
            job = await self.call(self._bot_job)
            if job is None:
                return
            if job.bot.startswith("search"):
                loop = asyncio.get_running_loop()
                result = await loop.run_in_executor(self.ctx.bot_pool, run_bot_job, job)
            else:
                result = run_bot_job(job)
            await self.call(lambda: self._bot_result(job, result))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a bot's move failed", self.id)
        finally:
            self._bot_running = False
            self.post(self._advance)

    async def _bot_job(self) -> BotJob | None:
        table = self.table
        if table is None or self.row.status != "playing" or self.paused is not None:
            return None
        bots = table.bots_to_act()
        return table.bot_job(bots[0]) if bots else None

    async def _bot_result(self, job: BotJob, result: BotResult) -> None:
        table = self.table
        if table is None or self.row.status != "playing" or self.paused is not None:
            return
        try:
            table.apply_bot(job, result)
        except StaleActionError:
            return  # the table moved on while it thought (its person came back): nothing to do
        await self._applied(job.seat)

    async def _finish(self) -> bool:
        """Store the match's end (results, ratings), then hold the table as finished. False when the
        store failed: the table pauses, and finishes when the store is back."""
        table = self.table
        assert table is not None
        state = table.state
        self._clear_timers()
        winners = state.winners
        players = [s.player_id if s.kind == "person" else None for s in self.row.seats]
        results = [
            ResultRow(self.id, s, players[s], state.scores[s], 1 / len(winners) if s in winners else 0.0)
            for s in range(len(players))
        ]
        # Finished in memory only once stored: whoever sees it finished (the lobby, a summary) can read
        # its record and replay; and the lobby drops finished tables from memory, never one mid-write.
        finished = replace(self.row, status="finished", finished_at=datetime.now().astimezone())
        store = self.ctx.store

        async def landed() -> bool:
            found = await store.table(self.id)
            return found is not None and found.status == "finished"

        try:
            ratings = await self.ctx.rate(table.game, players, list(state.scores))
            await self._write(lambda: store.finish(finished, results, ratings), landed)
        except StoreUnavailableError as e:
            log.error("table %s: the end of its match was not stored (%s): the table pauses", self.id, e)
            self._pause()
            return False
        self._finish_due = False
        self.row.status, self.row.finished_at = finished.status, finished.finished_at
        self.ctx.lobby_changed()
        return True

    # --- stopping a match -----------------------------------------------------------------------

    async def halt(self, reason: str) -> bool:
        """Stop the table here and now (the operator's ``cardhall admin stop``, or the cap on actions of
        :mod:`cardhall.server.bounds`): it is stored ``abandoned``, then every connection at it gets a
        ``stopped`` frame saying why and an ``update`` showing the status; nothing moves there again (a
        bot's move on its way is dropped: :meth:`_bot_result` plays only while ``playing``). Runs in the
        owner task. False when the table was over already; ``store_unavailable`` (and nothing changed)
        when the store does not take it."""
        if self.row.status not in ("waiting", "playing"):
            return False
        # Stopped in memory only once stored, as a finished match is (see _finish).
        await self._store_row(replace(self.row, status="abandoned"))
        self.paused = None  # (a table paused for the store stays stopped when the store is back)
        self._clear_timers()
        for handle in self._away.values():
            handle.cancel()
        self._away.clear()
        log.warning("table %s stopped: %s", self.id, reason)
        number = 0 if self.table is None else self.table.number
        self.send_all({"type": "stopped", "table": self.id, "n": number, "reason": reason})
        self._broadcast()
        self.ctx.lobby_changed()
        return True

    # --- timers and stand-ins --------------------------------------------------------------------

    def _sync_timers(self) -> None:
        """One timer per person to act, for his current decision; none for anyone else (nor for
        anyone while the table is paused)."""
        table = self.table
        if table is None or self.row.status != "playing" or self.paused is not None:
            self._clear_timers()
            return
        limit = int(self.row.settings["turn_seconds"])
        waiting = set(table.waiting_for()) if limit else set()
        for seat in list(self._timers):
            since, handle, _ = self._timers[seat]
            if seat not in waiting or since != table.choice_since(seat):
                handle.cancel()
                del self._timers[seat]
        for seat in waiting - set(self._timers):
            since = table.choice_since(seat)
            loop = asyncio.get_running_loop()
            handle = loop.call_later(limit, self._post_time_up, seat, since)
            self._timers[seat] = (since, handle, time.time() + limit)

    def _post_time_up(self, seat: int, since: int) -> None:
        self.post(lambda: self._time_up(seat, since))

    def _clear_timers(self) -> None:
        for _, handle, _ in self._timers.values():
            handle.cancel()
        self._timers.clear()

    async def _time_up(self, seat: int, since: int) -> None:
        table = self.table
        if table is None or self.row.status != "playing":
            return
        if seat in table.waiting_for() and table.choice_since(seat) == since:
            self._timers.pop(seat, None)
            await self._stand_in(seat)

    def _away_later(self, seat: int) -> None:
        if seat in self._away:
            return
        delay = int(self.row.settings["away_seconds"])
        loop = asyncio.get_running_loop()
        self._away[seat] = loop.call_later(delay, lambda: self.post(lambda: self._gone(seat)))

    async def _gone(self, seat: int) -> None:
        self._away.pop(seat, None)
        if self.connected[seat] == 0 and self.row.status == "playing":
            await self._stand_in(seat)

    async def _stand_in(self, seat: int) -> None:
        table = self.table
        if table is None or table.stand_in_for(seat) is not None:
            return
        table.stand_in(seat, str(self.row.settings["stand_in"]))
        self._broadcast(seats_changed=True)
        await self._advance()

    async def _back(self, seat: int) -> None:
        table = self.table
        if table is not None and table.stand_in_for(seat) is not None and not self.row.seats[seat].left:
            table.stand_in(seat, None)
            await self._advance()

    # --- for tests and the lobby -----------------------------------------------------------------

    def seat_rows(self) -> list[dict[str, Any]]:
        return [asdict(s) for s in self.row.seats]

    def events_for(self, seat: int | None, since: int = 0) -> list[Event]:
        return [] if self.table is None else self.table.events(seat, since=since)
