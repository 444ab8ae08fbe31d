"""Play now's seats: a person promised a bot's seat takes it at the next deal's start
(:mod:`cardhall.server.playnow`), stored first, then held; nothing is written before that deal starts.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from cardhall.server.host.machine import lease
from cardhall.server.host.machine.base import UNDER_WAY, Machine, Run, occupant
from cardhall.server.protocol import ProtocolError
from cardhall.store import PlayerRow, SeatKind, SeatRow

log = logging.getLogger("cardhall.server.host")


def bot_seats_free(m: Machine) -> list[int]:
    """The bots' seats a person may still be promised (none once the match is over or stopped)."""
    table = m.table
    if m.status not in UNDER_WAY or table is None or table.is_over or m.finish_due:
        return []
    return [s.seat for s in m.row.seats if s.kind == SeatKind.BOT and s.seat not in m.pending]


def take_seat_later(m: Machine, player: PlayerRow) -> int | None:
    """Promise ``player`` a bot's seat from the next deal's start (:func:`take_over`): the seat, or
    None when there is none to give (the match over, every bot's seat taken or promised, or he holds
    a seat here already). Nothing is written until the deal starts."""
    free = bot_seats_free(m)
    if not free or m.seat_of(player) is not None or player.id in {p.id for p in m.pending.values()}:
        return None
    m.pending[free[0]] = player
    return free[0]


def take_over(m: Machine) -> Run[bool]:
    """A deal starts: each person promised a bot's seat takes it, stored first (the seat with the
    number of actions played before it, so a replay seats him there again), then held: a ``seat``
    event shows it (``replaces``: the bot), and his page is told (``taken``). Whoever cannot take
    his (stored by nobody: the store failed) goes back to the queue (``untaken``)."""
    table = m.table
    assert table is not None
    promised, m.pending = m.pending, {}
    seats = list(m.row.seats)
    taking: list[tuple[int, PlayerRow]] = []
    for seat, player in sorted(promised.items()):
        old = seats[seat]
        if old.kind != SeatKind.BOT or m.seat_of(player) is not None:
            m.out.untaken = (*m.out.untaken, player.id)
            continue
        seats[seat] = SeatRow(
            seat,
            SeatKind.PERSON,
            player.name,
            player.id,
            guest=player.guest,
            since=m.stored,
            before=old.bot,
        )
        taking.append((seat, player))
    if not taking:
        return False
    try:
        yield from lease.store_row(m, replace(m.row, seats=seats))
    except ProtocolError as e:
        log.warning("table %s: bots' seats not given (%s)", m.id, e.code)
        m.out.untaken = (*m.out.untaken, *(p.id for _, p in taking))
        return False
    for seat, player in taking:
        table.sit(seat, occupant(m.row.seats[seat]))
        for listener in list(m.audience.seats):  # (watching till his deal: he sits now)
            if m.audience.seat_of(listener) is None and listener.player and listener.player.id == player.id:
                m.attach(listener, seat)
                m.send(listener, m.full_frame(listener, 0))
        if m.audience.connected[seat] == 0:
            m.away_later(seat)  # (he has away_seconds to open the table)
        m.out.taken = (*m.out.taken, (player.id, seat, m.audience.connected[seat] > 0))
    m.out.lobby_changed = True
    return True


def cancel_seat(m: Machine, player: PlayerRow) -> bool:
    """``player`` no longer wants the seat he was promised (he left Play now): whether he had one."""
    for seat, promised in list(m.pending.items()):
        if promised.id == player.id:
            del m.pending[seat]
            return True
    return False
