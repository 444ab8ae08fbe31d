"""A table's clocks: one turn timer per person the match waits for (``turn_seconds``), and one away timer
per person whose last connection dropped (``away_seconds``). They run on the event loop
(``call_later``), never as sleeping tasks, and each only posts work to the table's owner task when it
fires: what it means (a stand-in starts) is decided there, against the table as it is then.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from cardhall.table import Table


class Timers:
    def __init__(self, on_time_up: Callable[[int, int], None], on_gone: Callable[[int], None]) -> None:
        """``on_time_up(seat, since)``: a person's turn timer for the choice standing since event ``since``
        ran out; ``on_gone(seat)``: a person's away timer ran out. Both are called from the loop."""
        self._on_time_up = on_time_up
        self._on_gone = on_gone
        self._turns: dict[int, tuple[int, asyncio.TimerHandle, float]] = {}  # seat -> (since, handle, at)
        self._away: dict[int, asyncio.TimerHandle] = {}

    def sync(self, table: Table | None, turn_seconds: int, running: bool) -> None:
        """One turn timer per person to act, for his current decision; none for anyone else (nor for
        anyone while the match is not ``running``: not started, over, stopped or paused)."""
        if table is None or not running:
            self.clear_turns()
            return
        waiting = set(table.waiting_for()) if turn_seconds else set()
        for seat in list(self._turns):
            since, handle, _ = self._turns[seat]
            if seat not in waiting or since != table.choice_since(seat):
                handle.cancel()
                del self._turns[seat]
        for seat in waiting - self._turns.keys():
            since = table.choice_since(seat)
            handle = asyncio.get_running_loop().call_later(turn_seconds, self._on_time_up, seat, since)
            self._turns[seat] = (since, handle, time.time() + turn_seconds)

    def deadlines(self) -> dict[str, int]:
        """Seat (as text) -> when its turn timer runs out, in epoch milliseconds."""
        return {str(seat): int(at * 1000) for seat, (_, _, at) in self._turns.items()}

    def turn_over(self, seat: int) -> None:
        """The seat's turn timer fired: forget it."""
        self._turns.pop(seat, None)

    def clear_turns(self) -> None:
        for _, handle, _ in self._turns.values():
            handle.cancel()
        self._turns.clear()

    def away_later(self, seat: int, seconds: int) -> None:
        """Start the seat's away timer (unless it runs already)."""
        if seat not in self._away:
            self._away[seat] = asyncio.get_running_loop().call_later(seconds, self._fire_away, seat)

    def _fire_away(self, seat: int) -> None:
        self._away.pop(seat, None)
        self._on_gone(seat)

    def back(self, seat: int) -> None:
        """A connection joined the seat: no away timer for it."""
        handle = self._away.pop(seat, None)
        if handle is not None:
            handle.cancel()

    def stop(self) -> None:
        self.clear_turns()
        for handle in self._away.values():
            handle.cancel()
        self._away.clear()
