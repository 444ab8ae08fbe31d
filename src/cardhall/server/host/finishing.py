"""The end of a table: a match played out (its results and the players' new ratings stored, then the
table held as finished; a person whose match a stand-in played gets a loss: :mod:`cardhall.server.ratings`),
or stopped by the operator or by the cap on a match's length (stored as
``abandoned``, every connection told why). Either is held in memory only once stored: whoever sees the
table over (the lobby, a summary) can read its record, and the lobby drops finished tables from memory,
never one mid-write. A store that fails to take a match's end pauses the table, which finishes it when
the store is back (or at the next start)."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime

from cardhall.server import ratings
from cardhall.server.host.base import HostBase
from cardhall.server.host.writes import write_retried
from cardhall.server.protocol import StoppedFrame
from cardhall.server.settings import gives_hints
from cardhall.store import FencedError, ResultRow, SeatKind, StoreUnavailableError, TableStatus

log = logging.getLogger(__name__)


class Finishing(HostBase):
    async def finish(self) -> bool:
        """Store the match's end (results, ratings), then hold the table as finished. False when the
        store failed: the table pauses, and finishes when the store is back."""
        table = self.table
        assert table is not None
        state = table.state
        self.timers.clear_turns()
        winners = state.winners
        players = [s.player_id if s.kind == SeatKind.PERSON else None for s in self.row.seats]
        absent = self.absences()
        results = [
            ResultRow(
                self.id,
                s,
                players[s],
                state.scores[s],
                1 / len(winners) if s in winners and s not in absent else 0.0,
                absent.get(s),
            )
            for s in range(len(players))
        ]
        finished = replace(self.row, status=TableStatus.FINISHED, finished_at=datetime.now().astimezone())
        store = self.ctx.store

        async def landed() -> bool:
            found = await store.table(self.id)
            return found is not None and found.status == TableStatus.FINISHED

        try:
            # The ratings are read and written in the transaction of the match's end (no lost update);
            # a table with hints is casual (hints.py): never rated.
            rated = not gives_hints(self.row.settings)
            rating = self.ctx.rating(table.game, players, list(state.scores), absent) if rated else None
            await write_retried(
                f"table {self.id}", lambda: store.finish(finished, results, rating=rating), landed
            )
        except FencedError:
            self.fenced()
            return False
        except StoreUnavailableError as e:
            log.error("table %s: the end of its match was not stored (%s): the table pauses", self.id, e)
            self.pause()
            return False
        self.finish_due = False
        self.row.status, self.row.finished_at = finished.status, finished.finished_at
        self.ctx.lobby_changed(self)
        return True

    def absences(self) -> dict[int, str]:
        """The seats of the people whose match a stand-in played, and why (:func:`ratings.absence`):
        from the seats (who left) and the actions the stand-ins made, counted as they were stored."""
        table = self.table
        assert table is not None
        decisions = [0] * len(self.row.seats)
        for seat, _ in table.state.history:
            decisions[seat] += 1
        found = {}
        for s in self.row.seats:
            if s.kind == SeatKind.PERSON:
                why = ratings.absence(s.left, decisions[s.seat], self.by_stand_in[s.seat])
                if why is not None:
                    found[s.seat] = why
        return found

    async def halt(self, reason: str) -> bool:
        """Stop the table here and now (the operator's ``cardhall admin stop``, or the cap on actions of
        :mod:`cardhall.server.bounds`): it is stored ``abandoned``, then every connection at it gets a
        ``stopped`` frame saying why and an ``update`` showing the status; nothing moves there again (a
        bot's move on its way is dropped: bots play only while ``playing``). Runs in the owner task.
        False when the table was over already; ``store_unavailable`` (and nothing changed) when the
        store does not take it."""
        if not self.row.status.is_open:
            return False
        await self.store_row(replace(self.row, status=TableStatus.ABANDONED))
        self.paused = None  # (a table paused for the store stays stopped when the store is back)
        self.timers.stop()
        log.warning("table %s stopped: %s", self.id, reason)
        self.send_all(StoppedFrame(table=self.id, n=self.number, reason=reason))
        self.broadcast()
        self.ctx.lobby_changed(self)
        return True
