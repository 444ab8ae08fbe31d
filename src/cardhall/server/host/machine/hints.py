"""Hints: checking a seat's ask and handing its search to the actor (:class:`~cardhall.server.host.
effects.HintJob`), then the hint, if the seat still has that move to make. A table gives hints only when
its ``hints`` setting is on.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from cardhall.server.host.audience import Listener
from cardhall.server.host.effects import HintJob
from cardhall.server.host.machine.base import HINT_BOT, Machine, Run
from cardhall.server.host.status import Command
from cardhall.server.protocol import HintFrame, ProtocolError
from cardhall.server.settings import gives_hints
from cardhall.table import BotJob

log = logging.getLogger("cardhall.server.host")


def hint(m: Machine, listener: Listener, expect: int, ref: Any) -> Run[None]:
    """Check a hint's ask and start its search (see :mod:`cardhall.server.host.table_host`)."""
    if not gives_hints(m.row.settings):
        raise ProtocolError("no_hints", f"table {m.id} gives no hints (its setting hints is off)", ref)
    seat = m.audience.seat_of(listener)
    if seat is None or m.seat_of(listener.player) != seat or m.row.seats[seat].left:
        raise ProtocolError("not_seated", f"you hold no seat at table {m.id}: join it first", ref)
    m.admit(Command.HINT, ref)
    table = m.table
    assert table is not None
    # An older number is fine: in a round where every seat chooses at once (passing cards), the
    # others' moves go on while the ask is on its way, and the hint is for the seat's choice now.
    if expect > table.number:
        raise ProtocolError("stale", f"table {m.id} is at event {table.number}, not {expect}", ref)
    state = table.state
    if seat not in state.to_act:
        raise ProtocolError("not_your_turn", f"it is not your turn at table {m.id}", ref)
    if seat in m.hinting:
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
    m.hinting.add(seat)
    m.out.hints = (*m.out.hints, HintJob(listener, job, ref))
    yield from ()


def hint_ready(m: Machine, listener: Listener, job: BotJob, action: int, ref: Any) -> Run[None]:
    """The hint, if the seat still has that move to make."""
    table = m.table
    if table is None or not m.playing or action not in table.state.legal_actions(job.seat):
        error = ProtocolError("stale", "the table moved on before the hint came: ask again", ref)
        m.send(listener, error.frame())
        return
    label = table.game.action_label(action)
    m.send(listener, HintFrame(table=m.id, n=table.number, action=label, ref=ref))
    yield from ()
