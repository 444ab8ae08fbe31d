"""One table on the server as the rest of the server holds it: a thin actor around the table's machine
(:mod:`cardhall.server.host.machine`). Each command runs in the table's owner task
(:mod:`~cardhall.server.host.queue`), through the machine; the actor commits each write the machine
yields (:meth:`TableHost._commit`: tried again, and asked whether a cut-off commit landed), hands the
outcome back, and then carries out what the machine asked for (:meth:`TableHost._carry_out`): frames
sent, timers set, bot and hint jobs started. One action reads in one direction: machine, effects,
commit, frames.

What only the actor does, because it waits on something: the social checks before a person sits or
watches (they read the store), the store's writes and reads, a searching bot's and a hint's search in
the bot tier, the loop's timers, and the chat (:mod:`~cardhall.server.host.chat`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Collection, Coroutine, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from cardhall.bot_tier import nominal_ms
from cardhall.server.host.audience import Audience, Listener
from cardhall.server.host.chat import TableChat
from cardhall.server.host.effects import (
    COMMITTED,
    FENCED,
    Answer,
    CommitAction,
    Effects,
    FinishMatch,
    HintJob,
    Pace,
    SaveRow,
    StoreFailed,
    Write,
)
from cardhall.server.host.machine import HINT_BOT, UNDER_WAY, Run, TableMachine
from cardhall.server.host.queue import OwnerQueue, Work
from cardhall.server.host.seated import SeatIndex
from cardhall.server.host.status import TableStatus
from cardhall.server.host.timers import Timers
from cardhall.server.host.writes import write_retried
from cardhall.server.outage import StoreWatch
from cardhall.server.pacing import Pacing, Wait
from cardhall.server.protocol import ProtocolError, ServerFrame, TableFrame
from cardhall.store import (
    ActionRow,
    FencedError,
    PlayerRow,
    SeatKind,
    SeatRow,
    StoreUnavailableError,
    TableRow,
)
from cardhall.table import BotJob, BotResult, Event, Table

if TYPE_CHECKING:
    from cardhall.bot_tier import BotTier
    from cardhall.core import Game
    from cardhall.server.committer import Committer
    from cardhall.server.relations import Relations
    from cardhall.store import Store
    from cardhall.store.rows import RatingRequest

log = logging.getLogger("cardhall.server.host")
T = TypeVar("T")

HINT_SLACK = 0.5  # seconds past the hint's think time before the tier answers with the rules move


class Services(Protocol):
    """What a table needs of the server (:class:`~cardhall.server.context.ServerContext` has it)."""

    store: Store
    committer: Committer
    store_watch: StoreWatch
    pacing: Pacing  # the bots' paces
    social: Relations  # private tables, bans, mutes, blocks (issue 25, part B)
    seated: SeatIndex  # who plays at which table of this process (kept by the tables: _carry_out)

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


class Takeovers(Protocol):
    """Play now's side of a bot's seat given to a person (:mod:`cardhall.server.playnow`): told when he
    took it at a deal's start, or when he will not get it (the match ended first)."""

    def taken(self, host: TableHost, player: int, seat: int, there: bool) -> None: ...

    def untaken(self, host: TableHost, player: int) -> None: ...


class TableHost:
    def __init__(self, ctx: Services, row: TableRow) -> None:
        self.ctx = ctx
        self.row = row  # (the machine's own: it changes it in place, never replaces it)
        self.machine = TableMachine(row)
        self.queue = OwnerQueue(f"table {row.id}")
        self.timers = Timers(self._time_up, self._gone)
        self.chat_room = TableChat(ctx.store, ctx.social, row)
        self.bot_timer: asyncio.TimerHandle | Wait | None = None
        self.thinking: asyncio.Task[None] | None = None
        self.hint_tasks: set[asyncio.Task[None]] = set()
        self.play_now = row.play_now  # made by Play now: its pool's name (cardhall.server.playnow)
        self.takeovers: Takeovers | None = None  # (Play now's, with play_now)
        # What ctx.seated holds of this table: its people playing, as of this seat list and status.
        self._indexed: tuple[list[SeatRow] | None, TableStatus | None] = (None, None)
        self._playing: frozenset[int] = frozenset()

    # --- what the server reads of a table --------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.machine.row.id

    @property
    def table(self) -> Table | None:
        return self.machine.table

    @property
    def status(self) -> TableStatus:
        return self.machine.status

    @property
    def audience(self) -> Audience:
        return self.machine.audience

    @property
    def listeners(self) -> Audience:
        return self.machine.audience

    @property
    def invitation(self) -> str | None:
        return self.machine.invitation

    @invitation.setter
    def invitation(self, invitation: str | None) -> None:
        self.machine.invitation = invitation

    @property
    def number(self) -> int:
        return self.machine.number

    @property
    def stored(self) -> int:
        return self.machine.stored

    @property
    def by_stand_in(self) -> list[int]:
        return self.machine.by_stand_in

    @property
    def paused(self) -> str | None:
        return self.machine.paused

    @property
    def finish_due(self) -> bool:
        return self.machine.finish_due

    @property
    def bot_busy(self) -> bool:
        return self.machine.bot_busy

    @property
    def lost(self) -> bool:
        return self.machine.status is TableStatus.MOVED

    @property
    def fence(self) -> int | None:
        """The fencing number this table's writes carry (None: one process, nothing to check)."""
        return self.row.fence if self.ctx.fencing else None

    @property
    def chat_lines(self) -> Any:
        return self.chat_room.lines

    def summary(self) -> dict[str, Any]:
        """The table as the lobby lists it."""
        row = self.row
        return {
            "table": row.id,
            "game": row.game,
            "status": row.status.value,
            "seats": self.machine.seats_view(),
            "settings": row.settings,
            "rematch_of": row.rematch_of,
        }

    def seats_view(self) -> list[dict[str, Any]]:
        return self.machine.seats_view()

    def events_for(self, seat: int | None, since: int = 0) -> list[Event]:
        return self.machine.events_for(seat, since)

    def full_frame(self, listener: Listener, since: int) -> TableFrame:
        return self.machine.full_frame(listener, since)

    def send_all(self, frame: ServerFrame) -> None:
        self.audience.send_all(frame)

    # --- the owner task --------------------------------------------------------------------------------

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
        if self.bot_timer is not None:
            self.bot_timer.cancel()
        if self.thinking is not None:
            self.thinking.cancel()

    def fenced(self) -> None:
        """Another process owns the table now: stop here, and let the server drop it and send its
        connections to the new owner."""
        self.machine.lease_lost()
        self._carry_out(self.machine.take())

    def stop_here(self) -> None:
        """This process stops: nothing more happens (or is written) here; the next owner goes on."""
        self.machine.stop_here()
        self._carry_out(self.machine.take())

    # --- commands: each queued for the owner task, run there through the machine ---------------------

    def restore(self, actions: Sequence[ActionRow]) -> None:
        """After a restart: the match as it was (raises when its stored actions do not replay)."""
        self.machine.restore(actions)
        self._carry_out(self.machine.take())
        if self.status is TableStatus.PLAYING:
            self.post(partial(self._run, self.machine.resume()))

    async def open(self) -> None:
        """Store the new table (and start it, if every seat is taken already)."""
        self.chat_room.opened()
        await self.queue.call(partial(self._run, self.machine.open()))

    async def join(
        self, listener: Listener, seat: int | None, since: int, ref: Any, invitation: str | None = None
    ) -> None:
        await self.queue.call(partial(self._join, listener, seat, since, ref, invitation))

    async def _join(
        self, listener: Listener, seat: int | None, since: int, ref: Any, invitation: str | None
    ) -> None:
        player = listener.player
        assert player is not None
        await self.ctx.social.check_table(self, player, invitation, ref)  # (bans; a private table's link)
        await self._run(self.machine.join(listener, seat, since, ref))

    async def watch(self, listener: Listener, since: int, invitation: str | None = None) -> None:
        await self.queue.call(partial(self._watch, listener, since, invitation))

    async def _watch(self, listener: Listener, since: int, invitation: str | None) -> None:
        if listener.player is not None and listener not in self.audience:
            await self.ctx.social.check_table(self, listener.player, invitation, None)
        await self._run(self.machine.watch(listener, since))

    async def detach(self, listener: Listener) -> None:
        """A connection closed (or stopped watching)."""
        await self.queue.call(partial(self._run, self.machine.detach(listener)))

    async def leave(self, listener: Listener, ref: Any) -> None:
        await self.queue.call(partial(self._run, self.machine.leave(listener, ref)))

    async def back(self, listener: Listener, ref: Any) -> None:
        await self.queue.call(partial(self._run, self.machine.back(listener, ref)))

    async def add_bot(self, listener: Listener, seat: int, bot: str, ref: Any) -> None:
        await self.queue.call(partial(self._run, self.machine.add_bot(listener, seat, bot, ref)))

    async def act(self, listener: Listener, action: int | str, expect: int, ref: Any) -> None:
        await self.queue.call(partial(self._run, self.machine.act(listener, action, expect, ref)))

    async def hint(self, listener: Listener, expect: int, ref: Any) -> None:
        await self.queue.call(partial(self._run, self.machine.hint(listener, expect, ref)))

    async def take_seat_later(self, player: PlayerRow) -> int | None:
        """Play now: promise ``player`` a bot's seat from the next deal's start (None: none to give)."""

        async def promise() -> int | None:
            return self.machine.take_seat_later(player)

        return await self.queue.call(promise)

    async def cancel_seat(self, player: PlayerRow) -> bool:
        """Play now: ``player``'s promised seat is not his any more (False: he had none here)."""

        async def cancel() -> bool:
            return self.machine.cancel_seat(player)

        return await self.queue.call(cancel)

    async def halt(self, reason: str) -> bool:
        return await self.queue.call(partial(self._run, self.machine.halt(reason)))

    async def chat(self, listener: Listener, text: str, ref: Any) -> None:
        await self.queue.call(partial(self._chat, listener, text, ref))

    async def _chat(self, listener: Listener, text: str, ref: Any) -> None:
        await self.chat_room.say(self.audience, self.number, listener, text, ref)

    # --- running a command: machine, effects, commit, frames ------------------------------------------

    async def _run(self, command: Run[T]) -> T:
        """Run one of the machine's commands: each write it yields committed (after what it asked for
        before the write is carried out), and what it asks for after the last one carried out."""
        machine = self.machine
        try:
            write = next(command)
            while True:
                self._carry_out(machine.take())
                if isinstance(write, CommitAction):  # (the common write: one call less)
                    answer = await self._commit_action(write.row)
                else:
                    answer = await self._commit(write)
                write = command.send(answer)
        except StopIteration as end:
            result: T = end.value
        except BaseException:
            self._carry_out(machine.take())
            raise
        effects = machine.take()
        self._carry_out(effects)
        for listener in effects.history:
            await self.chat_room.history(self.number, listener)
        return result

    def _carry_out(self, effects: Effects) -> None:
        for listener, frame in effects.frames:
            listener.send(frame)
        if effects.timers:
            self.timers.apply(effects.timers)
        if effects.stop_bots:
            self.stop_bots()
        bot = effects.bot
        if bot is not None:
            if isinstance(bot, Pace):
                if bot.seconds:
                    self.bot_timer = self.ctx.pacing.call_later(bot.seconds, self.post, self._bot_step)
                else:
                    self.post(self._bot_step)
            else:
                self.thinking = asyncio.create_task(
                    self._think(bot.job, time.time() + bot.seconds), name=f"table {self.id}: {bot.job.bot}"
                )
        for hint in effects.hints:
            task = asyncio.create_task(self._search_hint(hint), name=f"table {self.id}: a hint")
            self.hint_tasks.add(task)
            task.add_done_callback(self.hint_tasks.discard)
        if effects.lobby_changed:
            self.ctx.lobby_changed(self)
        if effects.wait_for_store:
            self.ctx.store_watch.pause(self.id, self._store_back)
        if effects.forget_store:
            self.ctx.store_watch.forget(self.id)
        if effects.lost:
            self.ctx.table_lost(self.id)
        for player in effects.early_leaves:
            self.ctx.spawn(self._note_early_leave(player))
        if self.takeovers is not None:
            for player, seat, there in effects.taken:
                self.takeovers.taken(self, player, seat, there)
            for player in effects.untaken:
                self.takeovers.untaken(self, player)
        indexed = self._indexed
        if self.row.seats is not indexed[0] or self.machine.status is not indexed[1]:
            self._index_seats()  # (a seat or the status changed: see cardhall.server.host.seated)

    def _index_seats(self) -> None:
        """Tell the process's seat index who plays here now (a seat not left, the match under way)."""
        seats, status = self.row.seats, self.machine.status
        self._indexed = (seats, status)
        playing = (
            frozenset(
                s.player_id
                for s in seats
                if s.kind == SeatKind.PERSON and s.player_id is not None and not s.left
            )
            if status in UNDER_WAY
            else frozenset()
        )
        if playing != self._playing:
            self.ctx.seated.update(self.id, self._playing, playing)
            self._playing = playing

    async def _note_early_leave(self, player: int) -> None:
        try:
            await self.ctx.store.note_early_leave(player, self.id, datetime.now(UTC))
        except Exception:  # (a leaver not counted waits no longer: nothing else is lost)
            log.exception("table %s: player %d's early leave was not noted", self.id, player)

    async def _commit(self, write: Write) -> Answer:
        """Commit a table's row or its match's end: tried again when it fails (each failure asking
        whether it landed after all); how it went, for the machine."""
        store = self.ctx.store
        try:
            if isinstance(write, SaveRow):
                row, invitation, committer = write.row, write.invitation, self.ctx.committer

                async def saved() -> bool:
                    # (A row that landed has its invitation: they are one transaction.)
                    found = await store.table(row.id)
                    return found is not None and found.seats == row.seats and found.status == row.status

                # (through the group committer: a hall's joins are stored together, see committer.py)
                await write_retried(f"table {self.id}", lambda: committer.save(row, invitation), saved)
            else:
                assert isinstance(write, FinishMatch)
                end = write

                async def finished() -> bool:
                    found = await store.table(end.row.id)
                    return found is not None and found.status == end.row.status

                # The ratings are read and written in the transaction of the match's end (no lost update).
                rating = None if end.rating is None else self.ctx.rating(*end.rating)
                await write_retried(
                    f"table {self.id}", lambda: store.finish(end.row, end.results, rating=rating), finished
                )
        except FencedError:
            return FENCED
        except StoreUnavailableError as e:
            log.error("table %s: a write failed (%s)", self.id, e)
            return StoreFailed()
        return COMMITTED

    async def _commit_action(self, row: ActionRow) -> Answer:
        """Commit one action (the same retries, and then the actions the store holds, for the undo)."""
        committer, store = self.ctx.committer, self.ctx.store
        try:
            await committer.commit([row], self.fence)  # (the common case, without the retries' closures)
            return COMMITTED
        except FencedError:
            return FENCED
        except Exception:
            pass

        async def landed() -> bool:
            return await store.last_action(self.id) == row

        try:
            try:
                done = await landed()
            except StoreUnavailableError:
                done = False
            if not done:
                await write_retried(f"table {self.id}", lambda: committer.commit([row], self.fence), landed)
        except FencedError:
            return FENCED
        except Exception as e:
            log.error("table %s: action %d was not stored (%s)", self.id, row.number, e)
            try:
                return StoreFailed(await store.actions(self.id))
            except StoreUnavailableError:
                return StoreFailed(None)
        return COMMITTED

    # --- what the loop hands the owner task ------------------------------------------------------------

    def _time_up(self, seat: int, since: int) -> None:
        self.post(partial(self._run, self.machine.time_up(seat, since)))

    def _gone(self, seat: int) -> None:
        self.post(partial(self._run, self.machine.gone(seat)))

    def _store_back(self) -> None:
        self.post(partial(self._run, self.machine.store_back()))

    async def _bot_step(self) -> None:
        self.bot_timer = None
        await self._run(self.machine.bot_step())

    async def _think(self, job: BotJob, due: float) -> None:
        """Outside the owner task: a searching bot's move from the bot tier, during the pace; handed to
        the owner task once the pace (``due``, epoch seconds) has passed."""
        think = nominal_ms(job.bot)
        try:
            outcome = await self.ctx.bot_tier.move(job, due + think / 1000, think)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a bot's move failed", self.id)
            self.post(partial(self._bot_done, job, None))
            return
        wait = due - time.time()
        if wait > 0:
            self.bot_timer = asyncio.get_running_loop().call_later(
                wait, self.post, partial(self._bot_done, job, outcome.result)
            )
        else:
            self.post(partial(self._bot_done, job, outcome.result))

    async def _bot_done(self, job: BotJob, result: BotResult | None) -> None:
        self.thinking, self.bot_timer = None, None
        await self._run(self.machine.bot_thought(job, result))

    async def _search_hint(self, hint: HintJob) -> None:
        """Outside the owner task: the hint's search in the bot tier, with a deadline (a tier too busy
        answers with the rules move, which is then the hint)."""
        listener, job, ref = hint
        try:
            think = nominal_ms(HINT_BOT)
            outcome = await self.ctx.bot_tier.move(job, time.time() + think / 1000 + HINT_SLACK, think)
            result = outcome.result
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a hint's search failed", self.id)
            listener.send(ProtocolError("bad_request", "the hint's search failed", ref).frame())
            return
        finally:
            self.machine.hinting.discard(job.seat)
        self.post(partial(self._run, self.machine.hint_ready(listener, job, result.action, ref)))
