"""The end of a table's match: storing its results and ratings (:func:`finish`), the seats a stand-in
played (:func:`absences`), and stopping a table unfinished (:func:`halt`: stored ``abandoned``).

- The end is held only once it is stored: a store that fails pauses the table, which finishes when the
  store is back (``finish_due``).
- A table with hints is casual, never rated; a person who took a bot's seat during the match is not rated
  by it (:mod:`cardhall.server.ratings`).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime

from cardhall.server import ratings
from cardhall.server.host.effects import COMMITTED, FENCED, FinishMatch, Rating
from cardhall.server.host.machine import lease
from cardhall.server.host.machine.base import Machine, Run
from cardhall.server.host.status import Command, F
from cardhall.server.protocol import StoppedFrame
from cardhall.server.settings import gives_hints
from cardhall.store import ResultRow, SeatKind
from cardhall.store import TableStatus as RowStatus

log = logging.getLogger("cardhall.server.host")


def finish(m: Machine) -> Run[bool]:
    """Store the match's end (results, ratings), then hold the table as finished. False when the
    store failed: the table pauses, and finishes when the store is back."""
    table = m.table
    assert table is not None
    state = table.state
    m.clear_turns()
    lease.drop_promises(m)
    winners = state.winners
    players = [s.player_id if s.kind == SeatKind.PERSON else None for s in m.row.seats]
    absent = absences(m)
    results = [
        ResultRow(
            m.id,
            s,
            players[s],
            state.scores[s],
            1 / len(winners) if s in winners and s not in absent else 0.0,
            absent.get(s),
        )
        for s in range(len(players))
    ]
    finished = replace(m.row, status=RowStatus.FINISHED, finished_at=datetime.now().astimezone())
    # A table with hints is casual: never rated.
    rated = not gives_hints(m.row.settings)
    # A person who took a bot's seat during the match is not rated by it (its score is partly the
    # bot's): his seat counts as the bot's in the others' update (cardhall.server.ratings).
    rated_players = [None if s.before is not None else players[s.seat] for s in m.row.seats]
    rating = Rating(table.game, rated_players, list(state.scores), absent) if rated else None
    answer = yield FinishMatch(finished, results, rating)
    if answer is FENCED:
        lease.lease_lost(m)
        return False
    if answer is not COMMITTED:
        log.error("table %s: the end of its match was not stored: the table pauses", m.id)
        lease.pause(m)
        return False
    m.finish_due = False
    m.row.status, m.row.finished_at = finished.status, finished.finished_at
    m.move_to(F, "the end of its match")
    m.out.lobby_changed = True
    return True


def absences(m: Machine) -> dict[int, str]:
    """The seats of the people whose match a stand-in played, and why (:func:`ratings.absence`):
    from the seats (who left) and the actions the stand-ins made, counted as they were stored."""
    table = m.table
    assert table is not None
    decisions = [0] * len(m.row.seats)
    since = [s.since for s in m.row.seats]  # (a person who took a bot's seat: his decisions only)
    for number, (seat, _) in enumerate(table.state.history):
        decisions[seat] += number >= since[seat]
    found = {}
    for s in m.row.seats:
        if s.kind == SeatKind.PERSON:
            why = ratings.absence(s.left, decisions[s.seat], m.by_stand_in[s.seat])
            if why is not None:
                found[s.seat] = why
    return found


def halt(m: Machine, reason: str) -> Run[bool]:
    """Stop the table here and now (the operator's ``cardhall admin stop``, or the cap on actions of
    :mod:`cardhall.server.bounds`): stored ``abandoned``, then every connection at it gets a
    ``stopped`` frame saying why and an ``update`` showing the status; nothing moves there again (a
    bot's move on its way is dropped). False when the table was over already;
    ``store_unavailable`` (and nothing changed) when the store does not take it."""
    if not m.admit(Command.HALT):
        return False
    return (yield from abandon(m, reason))


def abandon(m: Machine, reason: str) -> Run[bool]:
    yield from lease.store_row(m, replace(m.row, status=RowStatus.ABANDONED))
    lease.drop_promises(m)
    m.stop_timers()
    log.warning("table %s stopped: %s", m.id, reason)
    m.send_all(StoppedFrame(table=m.id, n=m.number, reason=reason))
    m.broadcast()
    m.out.lobby_changed = True
    return True
