"""Who is at the table: opening it, taking a seat, watching, leaving, coming back, seating a bot.

- Seats change only while the table waits; each change is stored first, then held, and the match is
  dealt when the last seat is taken (dealt before the row is stored as playing).
- Leaving a match under way keeps the seat (a stand-in plays it to the end); every person leaving before
  the first deal was scored stops the table unrated.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from cardhall.server.host.audience import Listener
from cardhall.server.host.machine import ending, lease, play
from cardhall.server.host.machine.base import UNDER_WAY, Machine, Run
from cardhall.server.host.status import A, Command, F, W
from cardhall.server.protocol import ProtocolError
from cardhall.store import SeatKind, SeatRow
from cardhall.store import TableStatus as RowStatus

log = logging.getLogger("cardhall.server.host")


def open(m: Machine) -> Run[None]:
    """Store the new table, a private one with its invitation (and start it, if every seat is taken
    already): one transaction, so no process can bring back a private table open to all."""
    if m.admit(Command.OPEN):
        yield from take_seats(m, m.row.seats, invitation=m.invitation)


def join(m: Machine, listener: Listener, seat: int | None, since: int, ref: Any) -> Run[None]:
    m.admit(Command.JOIN, ref)
    player = listener.player
    assert player is not None
    mine = m.seat_of(player)
    if mine is not None and m.row.seats[mine].left and m.status in UNDER_WAY:
        raise ProtocolError(
            "seat_taken", f"you left table {m.id}: a bot plays your seat to the end (watch it)", ref
        )
    promised = [seat for seat, p in m.pending.items() if p.id == player.id]
    if mine is None and promised:
        raise ProtocolError(
            "seat_taken",
            f"seat {promised[0]} of table {m.id} is yours from the next deal: watch until it starts",
            ref,
        )
    if mine is None:
        if m.status in (F, A):
            raise ProtocolError("table_over", f"the match at table {m.id} is over", ref)
        if m.status is not W:
            raise ProtocolError("seat_taken", f"table {m.id} has started: every seat is taken", ref)
        if seat is None:
            empty = [s.seat for s in m.row.seats if s.kind == SeatKind.EMPTY]
            if not empty:
                raise ProtocolError("seat_taken", f"table {m.id} has no empty seat", ref)
            seat = empty[0]
        check_seat_number(m, seat, ref)
        if m.row.seats[seat].kind != SeatKind.EMPTY:
            raise ProtocolError("seat_taken", f"seat {seat} of table {m.id} is taken", ref)
        person = SeatRow(seat, SeatKind.PERSON, player.name, player.id, guest=player.guest)
        yield from take_seats(m, seats_with(m, person), ref)
        mine = seat
    elif seat is not None and seat != mine:
        raise ProtocolError("seat_taken", f"you already hold seat {mine} of table {m.id}", ref)
    arriving = listener not in m.audience
    m.attach(listener, mine)
    yield from play.back_to(m, mine)
    m.send(listener, m.full_frame(listener, since))
    m.broadcast(seats_changed=True)
    if arriving:
        m.out.history = (*m.out.history, listener)


def watch(m: Machine, listener: Listener, since: int) -> Run[None]:
    m.admit(Command.WATCH)
    old = m.audience.seat_of(listener)
    watchers = m.audience.spectators(m.row.seats)
    arriving = listener not in m.audience
    m.attach(listener, None)
    m.send(listener, m.full_frame(listener, since))
    if old is not None:  # this connection held a seat: the seat may now have none
        if m.audience.connected[old] == 0 and m.status in UNDER_WAY:
            m.away_later(old)
        m.broadcast(seats_changed=True)
    elif m.audience.spectators(m.row.seats) != watchers:  # one more watching: all see the count
        m.broadcast()
    if arriving:
        m.out.history = (*m.out.history, listener)
    yield from ()


def detach(m: Machine, listener: Listener) -> Run[None]:
    """A connection closed (or stopped watching)."""
    m.admit(Command.DETACH)
    watchers = m.audience.spectators(m.row.seats)
    seat = m.audience.detach(listener)
    if seat is None:
        if m.audience.spectators(m.row.seats) != watchers:  # one fewer person watching
            m.broadcast()
        return
    if m.audience.connected[seat] == 0 and m.status in UNDER_WAY:
        m.away_later(seat)
    m.broadcast(seats_changed=True)
    yield from ()


def leave(m: Machine, listener: Listener, ref: Any) -> Run[None]:
    m.admit(Command.LEAVE, ref)
    seat = m.seat_of(listener.player)
    yield from detach(m, listener)
    if seat is None:
        return
    if m.status is W:
        seats = seats_with(m, SeatRow(seat))
        nobody = not any(s.kind == SeatKind.PERSON for s in seats)
        yield from take_seats(m, seats, ref, RowStatus.ABANDONED if nobody else RowStatus.WAITING)
        m.broadcast(seats_changed=True)
    elif m.status in UNDER_WAY:
        seats = seats_with(m, replace(m.row.seats[seat], left=True))
        yield from lease.store_row(m, replace(m.row, seats=seats), ref)
        play.early_leave(m, seat)
        if abandoned_early(m):
            try:
                yield from ending.abandon(m, "every person left before the first deal was scored")
                return
            except ProtocolError:  # (the store did not take the stop: the stand-ins play on)
                log.warning("table %s: its people left early, but its stop was not stored", m.id)
        yield from play.stand_in(m, seat)


def abandoned_early(m: Machine) -> bool:
    """Whether every person has left the match before its first deal was scored: then nobody plays
    it, and it is stopped unrated (cardhall.server.ratings)."""
    people = [s for s in m.row.seats if s.kind == SeatKind.PERSON]
    table = m.table
    return table is not None and table.state.deals_finished == 0 and all(s.left for s in people)


def back(m: Machine, listener: Listener, ref: Any) -> Run[None]:
    m.admit(Command.BACK, ref)
    seat = m.seat_of(listener.player)
    if seat is None:
        raise ProtocolError("not_seated", f"you hold no seat at table {m.id}", ref)
    yield from play.back_to(m, seat)
    m.broadcast(seats_changed=True)


def add_bot(m: Machine, listener: Listener, seat: int, bot: str, ref: Any) -> Run[None]:
    player = listener.player
    if m.seat_of(player) is None and m.row.owner_id != (player and player.id):
        raise ProtocolError("not_seated", f"only the players of table {m.id} may seat bots", ref)
    m.admit(Command.ADD_BOT, ref)
    check_seat_number(m, seat, ref)
    if m.row.seats[seat].kind != SeatKind.EMPTY:
        raise ProtocolError("seat_taken", f"seat {seat} of table {m.id} is taken", ref)
    check_someone_plays(m, seat, ref)
    yield from take_seats(m, seats_with(m, SeatRow(seat, SeatKind.BOT, bot, None, bot)), ref)
    m.broadcast(seats_changed=True)


def check_seat_number(m: Machine, seat: int, ref: Any) -> None:
    if not 0 <= seat < len(m.row.seats):
        raise ProtocolError("no_such_seat", f"table {m.id} has seats 0..{len(m.row.seats) - 1}", ref)


def check_someone_plays(m: Machine, seat: int, ref: Any) -> None:
    """Refuse a bot in ``seat`` that would start a match of bots alone: work for nobody, which a guest
    could start without end."""
    others = [s for s in m.row.seats if s.seat != seat]
    if all(s.kind == SeatKind.BOT for s in others):
        raise ProtocolError(
            "no_person",
            f"a bot in seat {seat} would start table {m.id} with bots alone: "
            "take a seat first (a match needs at least one person)",
            ref,
        )


def seats_with(m: Machine, changed: SeatRow) -> list[SeatRow]:
    """The table's seats with one of them changed (the row's own list is left as it is)."""
    return [changed if s.seat == changed.seat else s for s in m.row.seats]


def take_seats(
    m: Machine,
    seats: list[SeatRow],
    ref: Any = None,
    status: RowStatus | None = None,
    invitation: str | None = None,
) -> Run[None]:
    """Seats change while waiting: stored first, then held; the match starts when every seat is
    taken (dealt before the row is stored as playing, stored before it is held)."""
    if status is None:
        full = all(s.kind != SeatKind.EMPTY for s in seats)
        status = RowStatus.PLAYING if full else RowStatus.WAITING
    table = m.deal(seats) if status == RowStatus.PLAYING else None
    yield from lease.store_row(m, replace(m.row, seats=seats, status=status), ref, invitation)
    m.out.lobby_changed = True
    if table is None:
        return
    m.table, m.stored, m.deals = table, 0, 0
    for s in m.row.seats:
        if s.kind == SeatKind.PERSON and m.audience.connected[s.seat] == 0:
            m.away_later(s.seat)  # seated without a connection yet (quick play, again)
    for listener in list(m.audience.seats):
        m.send(listener, m.full_frame(listener, 0))
    yield from play.advance(m)
