"""Hints at a casual table (the table setting ``hints``): a person asks, on his turn, for the move the
search bot would play from his seat's observation (:data:`HINT_BOT`), and gets it in a ``hint`` frame
sent to his connection alone. What was chosen:

- **Only where allowed**: at a table made with ``hints`` on (``no_hints`` otherwise), to a person seated
  there whose turn it is (``not_seated``, ``not_your_turn``); the hint is for his choice at the
  table's current event number (``stale`` for a later number than the table has). A table with hints
  is casual: its matches are never rated (the finishing skips the ratings), whether or not a hint was
  asked, so a rated match never had one.
- **What it knows**: the search sees the seat's observation and legal actions only, as a bot in that
  seat would, with randomness of its own: asking changes nothing at the table.
- **Off the owner task**: the search runs in the bot tier (:mod:`cardhall.bot_tier`), like a ``hard``
  bot's move, with a deadline: a tier too busy to search in time answers with the rules move, which is
  then the hint. The hint is sent when it is ready, if the seat is still to act and the move still
  legal (other seats may have moved meanwhile, as in a passing round where everyone chooses at
  once); else the person is told it came too late (``stale``) and asks again. A search that fails is
  reported (``bad_request``). One hint under way a seat at a time, whatever the connections of its
  person (issue 47: a seat's thirty connections asked thirty at once); a later ask is refused as
  ``rate_limited``.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from typing import Any, Final

from cardhall.bot_tier import nominal_ms
from cardhall.bots import BOT_LEVELS
from cardhall.server.host.audience import Listener
from cardhall.server.host.base import HostBase
from cardhall.server.protocol import HintFrame, ProtocolError
from cardhall.server.settings import gives_hints
from cardhall.table import BotJob

log = logging.getLogger(__name__)

# The hard level's search, on its time budget: a count of determinizations would give the same hint
# for the same position on any machine, but take seconds in six-player Hearts (2.8 s at 200).
HINT_BOT: Final = BOT_LEVELS["hard"]
HINT_SLACK: Final = 0.5  # seconds past the think time before the tier answers with the rules move


class Hints(HostBase):
    async def hint(self, listener: Listener, expect: int, ref: Any) -> None:
        """Start the search for ``listener``'s move (in the owner task: the checks and the job)."""
        if not gives_hints(self.row.settings):
            raise ProtocolError("no_hints", f"table {self.id} gives no hints (its setting hints is off)", ref)
        seat = self.audience.seat_of(listener)
        if seat is None or self.seat_of(listener.player) != seat or self.row.seats[seat].left:
            raise ProtocolError("not_seated", f"you hold no seat at table {self.id}: join it first", ref)
        table = self.playing_table(ref)
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
        task = asyncio.create_task(self._search_hint(listener, job, ref), name=f"table {self.id}: a hint")
        self.hint_tasks.add(task)
        task.add_done_callback(self.hint_tasks.discard)

    async def _search_hint(self, listener: Listener, job: BotJob, ref: Any) -> None:
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
            self.hinting.discard(job.seat)
        self.post(lambda: self._send_hint(listener, job, result.action, ref))

    async def _send_hint(self, listener: Listener, job: BotJob, action: int, ref: Any) -> None:
        """In the owner task: the hint, if the seat still has that move to make."""
        table = self.table
        seat = job.seat
        if table is None or not self.playing or action not in table.state.legal_actions(seat):
            listener.send(
                ProtocolError("stale", "the table moved on before the hint came: ask again", ref).frame()
            )
            return
        label = table.game.action_label(action)
        listener.send(HintFrame(table=self.id, n=table.number, action=label, ref=ref))
