"""Playing the match: a person's move, committing each action before anyone sees it, undoing what the
store did not take and pausing until it is back, what comes next after each move (a bot's turn, the
turn timers, the cap on a match's length), and stand-ins.

- Every applied action is committed (group commit, :mod:`cardhall.server.committer`) before any frame
  shows it, as the next number after those stored (:attr:`HostBase.stored`, counted from what the
  store holds, never from the length of the match in memory).
- **A store that fails** never leaves the match in memory ahead of it. A write that fails is tried
  again (:mod:`cardhall.server.host.writes`); then the action is undone (the match is dealt again from
  its seed and replayed to what the store holds, or, when even reading fails, to what it last
  committed), the table pauses (a ``paused`` frame; moves refused with ``store_unavailable``, no bot
  moves, no timers) and goes on (``resumed``) once :class:`~cardhall.server.outage.StoreWatch` sees the
  store take writes again. A person whose move was undone is told so and plays it again.
- A person has ``turn_seconds`` for each decision (0: no limit); when it runs out, or ``away_seconds``
  after his last connection to the table dropped, the ``stand_in`` bot plays for him until he acts,
  says he is ``back``, or joins again.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from cardhall.errors import CardhallError, IllegalActionError, InvalidActionError
from cardhall.server.host.audience import Listener
from cardhall.server.host.base import STORE_UNAVAILABLE, HostBase
from cardhall.server.host.writes import write_retried
from cardhall.server.protocol import PausedFrame, ProtocolError, ResumedFrame
from cardhall.store import ActionRow, FencedError, StoreUnavailableError, TableStatus
from cardhall.table import StaleActionError

log = logging.getLogger(__name__)


class Play(HostBase):
    async def act(self, listener: Listener, action: int | str, expect: int, ref: Any) -> None:
        self.check_owned(ref)
        seat = self.audience.seat_of(listener)
        if seat is None or self.seat_of(listener.player) != seat:
            raise ProtocolError("not_seated", f"you hold no seat at table {self.id}: join it first", ref)
        table = self.playing_table(ref)
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
        if not await self.applied(seat_changed=came_back):
            self.check_owned(ref)
            raise ProtocolError(
                STORE_UNAVAILABLE,
                f"your move at table {self.id} was not played: its storage failed, and the table is "
                "paused until it is back; play your move again then",
                ref,
            )

    async def applied(self, seat_changed: bool = False) -> bool:
        """An action was applied: commit it, show it, and see what comes next. False when the store
        did not take it: the action is undone and the table paused."""
        if not await self._commit():
            return False
        assert self.table is not None
        if self.table.is_over:
            self.finish_due = True
            await self.finish()  # (a failure pauses the table, which then finishes it when it can)
        self.broadcast(seat_changed)
        await self.advance()
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
        # (a person's own move clears his stand-in before it is committed: see act)
        row = ActionRow(self.id, number, acted, action, table.stand_in_for(acted) is not None)
        committer, store = self.ctx.committer, self.ctx.store
        try:
            await committer.commit([row], self.fence)  # (the common case, without the retries' closures)
        except FencedError:
            log.warning("table %s: action %d refused, another process owns the table now", self.id, number)
            self.fenced()
            return False
        except Exception:

            async def landed() -> bool:
                return await store.last_action(self.id) == row

            if not await self._committed_after_all(row, landed):
                return False
        self.stored = number
        self.by_stand_in[acted] += row.stand_in
        return True

    async def _committed_after_all(self, row: ActionRow, landed: Callable[[], Awaitable[bool]]) -> bool:
        """After a failed commit of ``row``: whether it landed, or is written on another try; if not,
        the action is undone and the table paused."""
        number = row.number
        try:
            try:
                done = await landed()
            except StoreUnavailableError:
                done = False
            if not done:
                await write_retried(
                    f"table {self.id}", lambda: self.ctx.committer.commit([row], self.fence), landed
                )
        except FencedError:
            self.fenced()
            return False
        except Exception as e:
            log.error("table %s: action %d was not stored (%s): undone, the table pauses", self.id, number, e)
            await self._roll_back()
            if self.stored == number:  # (it was stored after all: the store says so now)
                return True
            self.pause()
            return False
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
        rebuilt = self.deal(self.row.seats, actions)
        for seat in range(len(self.row.seats)):
            bot = table.stand_in_for(seat)
            if bot is not None and rebuilt.stand_in_for(seat) is None:
                rebuilt.stand_in(seat, bot)
        self.table, self.stored = rebuilt, len(actions)
        self.timers.clear_turns()

    def pause(self) -> None:
        """Wait for the store: no moves, bots or timers until :meth:`store_back`."""
        if self.paused is not None:
            return
        self.paused = STORE_UNAVAILABLE
        self.timers.clear_turns()
        self.send_all(PausedFrame(table=self.id, n=self.number, reason=STORE_UNAVAILABLE))
        self.ctx.store_watch.pause(self.id, lambda: self.post(self.store_back))

    async def store_back(self) -> None:
        """The store takes writes again: finish what waited for it, and play on."""
        if self.paused is None:
            return
        self.paused = None
        if self.finish_due and not await self.finish():
            return  # (paused again)
        self.send_all(ResumedFrame(table=self.id, n=self.number))
        self.broadcast(seats_changed=True)
        await self.advance()

    async def advance(self) -> None:
        """Start what the new position calls for: a bot's move, the timers of the people to act."""
        self.sync_timers()
        table = self.table
        if table is None or not self.playing:
            return
        if len(table.state.history) >= self.max_actions:
            try:
                await self.halt(f"the match reached {self.max_actions} actions, the most this server plays")
            except ProtocolError:  # (the store did not take the stop: stopped once it is back)
                self.pause()
            return
        self.next_bot()

    # --- stand-ins ------------------------------------------------------------------------------

    async def time_up(self, seat: int, since: int) -> None:
        table = self.table
        if table is None or self.row.status != TableStatus.PLAYING:
            return
        if seat in table.waiting_for() and table.choice_since(seat) == since:
            self.timers.turn_over(seat)
            await self.stand_in(seat)

    async def gone(self, seat: int) -> None:
        if self.audience.connected[seat] == 0 and self.row.status == TableStatus.PLAYING:
            await self.stand_in(seat)

    async def stand_in(self, seat: int) -> None:
        table = self.table
        if table is None or table.stand_in_for(seat) is not None:
            return
        table.stand_in(seat, str(self.row.settings["stand_in"]))
        self.broadcast(seats_changed=True)
        await self.advance()

    async def back_to(self, seat: int) -> None:
        table = self.table
        if table is not None and table.stand_in_for(seat) is not None and not self.row.seats[seat].left:
            table.stand_in(seat, None)
            await self.advance()
