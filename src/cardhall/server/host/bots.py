"""Bots' turns at a table: at most one bot move under way at a time; it waits the table's
``bot_pace_ms`` (a timer on the event loop, not a sleeping task) so people can follow, and then one
step of the owner task picks the bot, chooses (a rules or random bot, in microseconds, right there)
and applies the move. A bot that searches thinks in a worker process instead (the event loop never
runs a search), and its move comes back to the owner task when it is ready. Whatever changed meanwhile
(a person came back, the table paused or stopped) is checked when the move comes back: a move that no
longer fits is dropped, and the table asks again what comes next.
"""

from __future__ import annotations

import asyncio
import logging

from cardhall.server.host.base import HostBase
from cardhall.table import BotJob, BotResult, StaleActionError, run_bot_job

log = logging.getLogger(__name__)


def thinks_elsewhere(bot: str) -> bool:
    """Whether a bot string names a bot that searches (it thinks in a worker process)."""
    return bot.startswith("search")


class Bots(HostBase):
    def next_bot(self) -> None:
        """Start the next bot move, if a bot should act and none is under way."""
        table = self.table
        if self.bot_busy or table is None or not self.playing or not table.bots_to_act():
            return
        self.bot_busy = True
        pace = int(self.row.settings["bot_pace_ms"]) / 1000
        if pace:
            self.bot_timer = asyncio.get_running_loop().call_later(pace, self.post, self._bot_step)
        else:
            self.post(self._bot_step)

    def stop_bots(self) -> None:
        if self.bot_timer is not None:
            self.bot_timer.cancel()
        if self.thinking is not None:
            self.thinking.cancel()

    async def _bot_step(self) -> None:
        """In the owner task, once the pace has passed: choose and play (or send the search away)."""
        self.bot_timer = None
        job = self._bot_job()
        if job is None:
            self.bot_busy = False
            return
        if thinks_elsewhere(job.bot):
            self.thinking = asyncio.create_task(self._think(job), name=f"table {self.id}: {job.bot} thinks")
            return
        try:
            result = run_bot_job(job)
        except Exception:
            log.exception("table %s: a bot's move failed", self.id)
            self.bot_busy = False
            return
        await self._bot_done(job, result)

    def _bot_job(self) -> BotJob | None:
        table = self.table
        if table is None or not self.playing:
            return None
        bots = table.bots_to_act()
        return table.bot_job(bots[0]) if bots else None

    async def _think(self, job: BotJob) -> None:
        """Outside the owner task: the search in a worker process; its move handed back."""
        try:
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(self.ctx.bot_pool, run_bot_job, job)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a bot's move failed", self.id)
            self.post(self._bot_failed)
            return
        self.post(lambda: self._bot_done(job, result))

    async def _bot_failed(self) -> None:
        self.thinking, self.bot_busy = None, False

    async def _bot_done(self, job: BotJob, result: BotResult) -> None:
        self.thinking, self.bot_busy = None, False
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
