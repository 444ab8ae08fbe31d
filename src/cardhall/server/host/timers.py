"""A table's clocks on the event loop: the machine decides which turn and away timers run
(:class:`~cardhall.server.host.effects.TurnTimer`, :class:`~cardhall.server.host.effects.AwayTimer`);
this holds their loop handles (``call_later``, never sleeping tasks). Each, when it fires, only hands the
table's owner task the command (``on_time_up(seat, since)``, ``on_gone(seat)``): what it means is decided
there, against the table as it is then.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable

from cardhall.server.host.effects import AwayTimer, TurnTimer


class Timers:
    def __init__(self, on_time_up: Callable[[int, int], None], on_gone: Callable[[int], None]) -> None:
        self._on_time_up = on_time_up
        self._on_gone = on_gone
        self._turns: dict[int, asyncio.TimerHandle] = {}
        self._away: dict[int, asyncio.TimerHandle] = {}

    def apply(self, changes: Iterable[TurnTimer | AwayTimer]) -> None:
        loop = asyncio.get_running_loop()
        for change in changes:
            held = self._turns if isinstance(change, TurnTimer) else self._away
            old = held.pop(change.seat, None)
            if old is not None:
                old.cancel()
            if change.seconds is None:
                continue
            if isinstance(change, TurnTimer):
                fire = loop.call_later(change.seconds, self._on_time_up, change.seat, change.since)
            else:
                fire = loop.call_later(change.seconds, self._fire_away, change.seat)
            held[change.seat] = fire

    def _fire_away(self, seat: int) -> None:
        self._away.pop(seat, None)
        self._on_gone(seat)

    def stop(self) -> None:
        for handle in [*self._turns.values(), *self._away.values()]:
            handle.cancel()
        self._turns.clear()
        self._away.clear()
