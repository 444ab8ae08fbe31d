"""The table's machine and its store: storing the table's row and committing each action (a store that
fails changes nothing held, undoes the move and pauses the table), and the table leaving this process
(its lease taken by another, or the process stopping).

- A move is applied first and undone when the store does not take it: the match is dealt again from its
  seed and replayed to what the store holds (or, when even reading fails, to what this table committed),
  so the match in memory is never ahead of the store.
- A write whose fence moved on means another process owns the table: the table is ``moved`` and nothing
  more is written, timed or played here.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from cardhall.server.host.effects import COMMITTED, FENCED, CommitAction, SaveRow, StoreFailed
from cardhall.server.host.machine.base import STORE_UNAVAILABLE, Machine, Run
from cardhall.server.host.status import Command, M, P, TableStatus, Z
from cardhall.server.protocol import PausedFrame, ProtocolError
from cardhall.store import ActionRow, TableRow

log = logging.getLogger("cardhall.server.host")


def store_row(m: Machine, row: TableRow, ref: Any = None, invitation: str | None = None) -> Run[None]:
    """Store the table as ``row`` (its seats, status), then hold it; a store that fails changes
    nothing and gets ``store_unavailable``."""
    if m.status is M:
        raise ProtocolError("table_moved", m.refusal("table_moved"), ref)
    answer = yield SaveRow(row, invitation)
    if answer is FENCED:
        lease_lost(m)
        raise ProtocolError(
            "table_moved", f"table {m.id} moved to another server: nothing changed; try again", ref
        )
    if answer is not COMMITTED:
        raise ProtocolError(
            STORE_UNAVAILABLE, f"table {m.id} cannot be stored now: nothing changed; try again", ref
        )
    m.row.seats, m.row.status = row.seats, row.status
    status = TableStatus.of_row(row.status)
    m.move_to(Z if status is P and m.status is Z else status, "storing its row")


def commit(m: Machine) -> Run[bool]:
    """Commit the match's last action as number ``stored`` + 1; on failure undo it and pause."""
    table = m.table
    assert table is not None
    history = table.state.history
    number = m.stored + 1
    if len(history) != number:  # memory ahead of the store by more than this action: never
        log.error("table %s holds %d actions but stored %d", m.id, len(history), m.stored)
        roll_back(m, None)
        return False
    acted, action = history[-1]
    # (a person's own move clears his stand-in before it is committed: see act)
    row = ActionRow(m.id, number, acted, action, table.stand_in_for(acted) is not None)
    answer = yield CommitAction(row)
    if answer is FENCED:
        log.warning("table %s: action %d refused, another process owns the table now", m.id, number)
        lease_lost(m)
        return False
    if isinstance(answer, StoreFailed):
        log.error("table %s: action %d was not stored: undone, the table pauses", m.id, number)
        roll_back(m, answer.actions)
        if m.stored != number:
            pause(m)
            return False
        # (it was stored after all: the store says so now)
    m.stored = number
    m.by_stand_in[acted] += row.stand_in
    return True


def roll_back(m: Machine, actions: Sequence[tuple[int, int]] | None) -> None:
    """Hold the match as the store holds it (``actions``; None: the store could not be read, so as
    this table committed it). People away stay away."""
    table = m.table
    assert table is not None
    if actions is None:
        actions = table.state.history[: m.stored]
    rebuilt = m.deal(m.row.seats, actions)
    for seat in range(len(m.row.seats)):
        bot = table.stand_in_for(seat)
        if bot is not None and rebuilt.stand_in_for(seat) is None:
            rebuilt.stand_in(seat, bot)
    m.table, m.stored = rebuilt, len(actions)
    m.deals = rebuilt.state.deals_finished
    m.clear_turns()


def pause(m: Machine) -> None:
    """Wait for the store: no moves, bots or timers until it is back (:func:`.play.store_back`)."""
    if m.status is Z:
        return
    m.move_to(Z, "the store failing")
    m.clear_turns()
    m.send_all(PausedFrame(table=m.id, n=m.number, reason=STORE_UNAVAILABLE))
    m.out.wait_for_store = True


def lease_lost(m: Machine) -> None:
    """Another process owns the table now (a write found its fence moved on, or its lease was
    taken): nothing more here (no timers, no bots, no writes); the server drops it and sends its
    connections to the new owner."""
    if not m.admit(Command.LEASE_LOST):
        return
    m.move_to(M, Command.LEASE_LOST.value)
    drop_promises(m)
    m.stop_timers()
    m.out.stop_bots = m.out.forget_store = m.out.lost = True


def stop_here(m: Machine) -> None:
    """This process stops: the table is the next owner's (nothing more is written here)."""
    if m.status.is_open:
        m.move_to(M, "the process stopping")
    drop_promises(m)
    m.stop_timers()
    m.out.stop_bots = True


def drop_promises(m: Machine) -> None:
    """The match ends (or leaves this process) before the next deal: the promised seats are not given."""
    if m.pending:
        m.out.untaken = (*m.out.untaken, *(p.id for p in m.pending.values()))
        m.pending = {}
