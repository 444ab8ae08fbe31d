"""Who sits where: joining a seat (or rejoining one's own, from any connection), watching, leaving, seating
a bot, saying one is back; and storing every change of the seats before the table holds it.

- Seats are stored before they are held: a store that fails leaves them as they were and the asker
  gets ``store_unavailable``. The match starts when the last seat is taken: dealt first (a bad bot is
  refused before anything is stored), then the row is stored as ``playing``, then held.
- A person who leaves a waiting table frees his seat (the table is ``abandoned`` when no person is
  left); one who leaves during the match leaves for good (the stand-in plays his seat to the end, and
  the match counts for him as a loss: :mod:`cardhall.server.ratings`). When the last person leaves
  before the first deal was scored, the table is stopped (``abandoned``, unrated): nobody plays it.
- A match needs a person: a bot that would fill the last seat of a table with no person is refused.
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import replace
from typing import Any

from cardhall.server.host.audience import Listener
from cardhall.server.host.base import STORE_UNAVAILABLE, HostBase
from cardhall.server.host.writes import write_retried
from cardhall.server.protocol import CHAT_HISTORY, ProtocolError
from cardhall.store import FencedError, SeatKind, SeatRow, StoreUnavailableError, TableRow, TableStatus

log = logging.getLogger(__name__)


class Seating(HostBase):
    # A private table's invitation (None: open to all): the lobby does not list it, and a person who is
    # not one of its people needs it to sit or watch (see cardhall.server.relations).
    invitation: str | None = None

    async def join(
        self, listener: Listener, seat: int | None, since: int, ref: Any, invitation: str | None = None
    ) -> None:
        player = listener.player
        assert player is not None
        await self.ctx.social.check_table(self, player, invitation, ref)  # (bans; a private table's link)
        mine = self.seat_of(player)
        if mine is not None and self.row.seats[mine].left and self.row.status == TableStatus.PLAYING:
            raise ProtocolError(
                "seat_taken", f"you left table {self.id}: a bot plays your seat to the end (watch it)", ref
            )
        if mine is None:
            if self.row.status in (TableStatus.FINISHED, TableStatus.ABANDONED):
                raise ProtocolError("table_over", f"the match at table {self.id} is over", ref)
            if self.row.status != TableStatus.WAITING:
                raise ProtocolError("seat_taken", f"table {self.id} has started: every seat is taken", ref)
            if seat is None:
                empty = [s.seat for s in self.row.seats if s.kind == SeatKind.EMPTY]
                if not empty:
                    raise ProtocolError("seat_taken", f"table {self.id} has no empty seat", ref)
                seat = empty[0]
            self._check_seat_number(seat, ref)
            if self.row.seats[seat].kind != SeatKind.EMPTY:
                raise ProtocolError("seat_taken", f"seat {seat} of table {self.id} is taken", ref)
            person = SeatRow(seat, SeatKind.PERSON, player.name, player.id, guest=player.guest)
            await self.take_seats(self._seats_with(person), ref)
            mine = seat
        elif seat is not None and seat != mine:
            raise ProtocolError("seat_taken", f"you already hold seat {mine} of table {self.id}", ref)
        arriving = listener not in self.audience
        self._attach(listener, mine)
        await self.back_to(mine)
        listener.send(self.full_frame(listener, since))
        self.broadcast(seats_changed=True)
        if arriving:
            await self.chat_history(listener)

    async def watch(self, listener: Listener, since: int, invitation: str | None = None) -> None:
        if listener.player is not None and listener not in self.audience:
            await self.ctx.social.check_table(self, listener.player, invitation, None)
        old = self.audience.seat_of(listener)
        watchers = self.audience.spectators(self.row.seats)
        arriving = listener not in self.audience
        self._attach(listener, None)
        listener.send(self.full_frame(listener, since))
        if old is not None:  # this connection held a seat: the seat may now have none
            if self.audience.connected[old] == 0 and self.row.status == TableStatus.PLAYING:
                self.timers.away_later(old, int(self.row.settings["away_seconds"]))
            self.broadcast(seats_changed=True)
        elif self.audience.spectators(self.row.seats) != watchers:  # one more watching: all see the count
            self.broadcast()
        if arriving:
            await self.chat_history(listener)

    def _attach(self, listener: Listener, seat: int | None) -> None:
        self.audience.attach(listener, seat)
        if seat is not None:
            self.timers.back(seat)

    async def detach(self, listener: Listener) -> None:
        """A connection closed (or stopped watching)."""
        watchers = self.audience.spectators(self.row.seats)
        seat = self.audience.detach(listener)
        if seat is None:
            if self.audience.spectators(self.row.seats) != watchers:  # one fewer person watching
                self.broadcast()
            return
        if self.audience.connected[seat] == 0 and self.row.status == TableStatus.PLAYING:
            self.timers.away_later(seat, int(self.row.settings["away_seconds"]))
        self.broadcast(seats_changed=True)

    async def leave(self, listener: Listener, ref: Any) -> None:
        seat = self.seat_of(listener.player)
        await self.detach(listener)
        if seat is None:
            return
        if self.row.status == TableStatus.WAITING:
            seats = self._seats_with(SeatRow(seat))
            nobody = not any(s.kind == SeatKind.PERSON for s in seats)
            await self.take_seats(seats, ref, TableStatus.ABANDONED if nobody else TableStatus.WAITING)
            self.broadcast(seats_changed=True)
        elif self.row.status == TableStatus.PLAYING:
            seats = self._seats_with(replace(self.row.seats[seat], left=True))
            await self.store_row(replace(self.row, seats=seats), ref)
            if self._abandoned_early():
                try:
                    await self.halt("every person left before the first deal was scored")
                    return
                except ProtocolError:  # (the store did not take the stop: the stand-ins play on)
                    log.warning("table %s: its people left early, but its stop was not stored", self.id)
            await self.stand_in(seat)

    def _abandoned_early(self) -> bool:
        """Whether every person has left the match before its first deal was scored: then nobody plays
        it, and it is stopped unrated (cardhall.server.ratings)."""
        people = [s for s in self.row.seats if s.kind == SeatKind.PERSON]
        table = self.table
        return table is not None and table.state.deals_finished == 0 and all(s.left for s in people)

    async def back(self, listener: Listener, ref: Any) -> None:
        seat = self.seat_of(listener.player)
        if seat is None:
            raise ProtocolError("not_seated", f"you hold no seat at table {self.id}", ref)
        await self.back_to(seat)
        self.broadcast(seats_changed=True)

    async def add_bot(self, listener: Listener, seat: int, bot: str, ref: Any) -> None:
        player = listener.player
        if self.seat_of(player) is None and self.row.owner_id != (player and player.id):
            raise ProtocolError("not_seated", f"only the players of table {self.id} may seat bots", ref)
        if self.row.status != TableStatus.WAITING:
            raise ProtocolError("seat_taken", f"table {self.id} has started: every seat is taken", ref)
        self._check_seat_number(seat, ref)
        if self.row.seats[seat].kind != SeatKind.EMPTY:
            raise ProtocolError("seat_taken", f"seat {seat} of table {self.id} is taken", ref)
        self._check_someone_plays(seat, ref)
        await self.take_seats(self._seats_with(SeatRow(seat, SeatKind.BOT, bot, None, bot)), ref)
        self.broadcast(seats_changed=True)

    def _check_seat_number(self, seat: int, ref: Any) -> None:
        if not 0 <= seat < len(self.row.seats):
            raise ProtocolError(
                "no_such_seat", f"table {self.id} has seats 0..{len(self.row.seats) - 1}", ref
            )

    def _check_someone_plays(self, seat: int, ref: Any) -> None:
        """Refuse a bot in ``seat`` that would start a match of bots alone: work for nobody, which a guest
        could start without end."""
        others = [s for s in self.row.seats if s.seat != seat]
        if all(s.kind == SeatKind.BOT for s in others):
            raise ProtocolError(
                "no_person",
                f"a bot in seat {seat} would start table {self.id} with bots alone: "
                "take a seat first (a match needs at least one person)",
                ref,
            )

    # --- storing the seats -----------------------------------------------------------------------

    def _seats_with(self, changed: SeatRow) -> list[SeatRow]:
        """The table's seats with one of them changed (the row's own list is left as it is)."""
        return [changed if s.seat == changed.seat else s for s in self.row.seats]

    async def store_row(self, row: TableRow, ref: Any = None, invitation: str | None = None) -> None:
        """Store the table as ``row`` (its seats, status), then hold it; a store that fails changes
        nothing and gets ``store_unavailable``. ``invitation``: a new private table's, stored with its
        first row in one transaction."""
        stored, committer = self.ctx.store, self.ctx.committer

        async def landed() -> bool:
            # (A row that landed has its invitation: they are one transaction.)
            found = await stored.table(row.id)
            return found is not None and found.seats == row.seats and found.status == row.status

        self.check_owned(ref)
        try:
            # (through the group committer: a hall's joins are stored together, see committer.py)
            await write_retried(f"table {self.id}", lambda: committer.save(row, invitation), landed)
        except FencedError:
            self.fenced()
            raise ProtocolError(
                "table_moved", f"table {self.id} moved to another server: nothing changed; try again", ref
            ) from None
        except StoreUnavailableError:
            raise ProtocolError(
                STORE_UNAVAILABLE, f"table {self.id} cannot be stored now: nothing changed; try again", ref
            ) from None
        self.row.seats, self.row.status = row.seats, row.status

    async def take_seats(
        self,
        seats: list[SeatRow],
        ref: Any = None,
        status: TableStatus | None = None,
        invitation: str | None = None,
    ) -> None:
        """Seats change while waiting: stored first, then held; the match starts when every seat is
        taken (dealt before the row is stored as playing, stored before it is held). ``invitation``:
        a new private table's (:meth:`store_row`)."""
        if status is None:
            full = all(s.kind != SeatKind.EMPTY for s in seats)
            status = TableStatus.PLAYING if full else TableStatus.WAITING
        table = self.deal(seats) if status == TableStatus.PLAYING else None
        await self.store_row(replace(self.row, seats=seats, status=status), ref, invitation)
        self.ctx.lobby_changed(self)
        if table is None:
            return
        self.table, self.stored = table, 0
        away = int(self.row.settings["away_seconds"])
        for s in self.row.seats:
            if s.kind == SeatKind.PERSON and self.audience.connected[s.seat] == 0:
                self.timers.away_later(s.seat, away)  # seated without a connection yet (quick play, again)
        for listener, _ in self.audience:
            listener.send(self.full_frame(listener, 0))
        await self.advance()

    async def open(self) -> None:
        """Store the new table, a private one with its invitation (and start it, if every seat is taken
        already)."""
        # One transaction: stored apart, a process that died between the two writes would leave a
        # table without its invitation, which a restore (or another process taking it over) brings
        # back open to all.
        self.chat_lines = deque(maxlen=CHAT_HISTORY)  # (a new table: nothing said yet, nothing to read)
        await self.take_seats(self.row.seats, invitation=self.invitation)
