"""Bots' turns at a table: at most one bot move under way at a time; it waits the table's
``bot_pace_ms`` (a wait on the server's :class:`~cardhall.server.pacing.Pacing`: one loop timer for
all the waits of one pace, not a sleeping task) so people can follow, and then one step of the owner
task picks the bot, chooses (a rules or random bot, in microseconds, right there,
through the Table's own ``play_bot``) and applies the move. A bot that searches thinks in the server's
bot tier instead (:mod:`cardhall.bot_tier`: the event loop never runs a search), unless its move is
forced (one legal action): its job is sent when its turn starts, so it thinks during the pace, with a
deadline of the pace plus its think time (at most 1 s); the tier answers by then, with the search's
move or the rules move, and the move is played once the pace has passed. Whatever changed meanwhile
(a person came back, the table paused or stopped) is checked when the move comes back: a move that
no longer fits is dropped, and the table asks again what comes next.
"""

from __future__ import annotations

import asyncio
import logging
import time

from cardhall.bot_tier import nominal_ms, thinks_elsewhere
from cardhall.server.host.base import HostBase
from cardhall.table import BotJob, BotResult, StaleActionError

log = logging.getLogger(__name__)


class Bots(HostBase):
    def next_bot(self) -> None:
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
            job = table.bot_job(seat)
            self.thinking = asyncio.create_task(
                self._think(job, time.time() + pace), name=f"table {self.id}: {spec}"
            )
            return
        if pace:
            self.bot_timer = self.ctx.pacing.call_later(pace, self.post, self._bot_step)
        else:
            self.post(self._bot_step)

    def stop_bots(self) -> None:
        if self.bot_timer is not None:
            self.bot_timer.cancel()
        if self.thinking is not None:
            self.thinking.cancel()

    async def _bot_step(self) -> None:
        """In the owner task, once the pace has passed: the rules (or random) bot chooses and plays. It
        plays through the Table itself (:meth:`~cardhall.table.Table.play_bot`: the seat's own RNG, no
        job packed and unpacked), the same move a worker would make of the job."""
        self.bot_timer = None
        table = self.table
        bots = table.bots_to_act() if table is not None and self.playing else ()
        if table is None or not bots:
            self.bot_busy = False
            return
        try:
            table.play_bot(bots[0], report=False)
        except Exception:
            log.exception("table %s: a bot's move failed", self.id)
            self.bot_busy = False
            return
        self.bot_busy = False
        await self.applied()

    async def _think(self, job: BotJob, due: float) -> None:
        """Outside the owner task: the search in the bot tier, during the pace; its move handed back
        once the pace (``due``, epoch seconds) has passed."""
        think = nominal_ms(job.bot)
        try:
            outcome = await self.ctx.bot_tier.move(job, due + think / 1000, think)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a bot's move failed", self.id)
            self.post(self._bot_failed)
            return
        result = outcome.result
        wait = due - time.time()
        if wait > 0:
            self.bot_timer = asyncio.get_running_loop().call_later(
                wait, self.post, lambda: self._bot_done(job, result)
            )
        else:
            self.post(lambda: self._bot_done(job, result))

    async def _bot_failed(self) -> None:
        self.thinking, self.bot_busy = None, False

    async def _bot_done(self, job: BotJob, result: BotResult) -> None:
        self.thinking, self.bot_timer, self.bot_busy = None, None, False
        table = self.table
        if table is not None and self.playing:
            try:
                table.apply_bot(job, result)
            except StaleActionError:
                pass  # the table moved on while it thought (its person came back): nothing to do
            else:
                await self.applied()
                return
        await self.advance()
