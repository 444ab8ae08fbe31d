"""The match being played: a person's move (:func:`act`), a bot's (:func:`bot_step`, :func:`bot_thought`),
a turn's time running out and a person away past his grace (stand-ins), and what each position calls for
next (:func:`advance`); going on after a restart or once the store is back.

- An action is applied, then committed, then shown (:func:`applied`): one direction, machine, effects,
  commit, frames.
- Bots move one at a time: a forced move (one legal action) is played here, a search is a job for the
  actor's workers (:class:`~cardhall.server.host.effects.Think`).
"""

from __future__ import annotations

import logging
from typing import Any

from cardhall.bot_tier import thinks_elsewhere
from cardhall.errors import CardhallError, IllegalActionError, InvalidActionError
from cardhall.server.host.audience import Listener
from cardhall.server.host.effects import Pace, Think
from cardhall.server.host.machine import ending, lease, playnow
from cardhall.server.host.machine.base import STORE_UNAVAILABLE, Machine, Run
from cardhall.server.host.status import Command, M, P, Z
from cardhall.server.protocol import ProtocolError, ResumedFrame
from cardhall.store import SeatKind
from cardhall.table import BotJob, BotResult, StaleActionError

log = logging.getLogger("cardhall.server.host")


def resume(m: Machine) -> Run[None]:
    """Go on after a restart. A match whose last action was committed but not its end (the server
    stopped between the two) ends now."""
    if not m.admit(Command.RESUME):
        return
    table = m.table
    if table is not None and table.is_over:
        m.finish_due = True
        if not (yield from ending.finish(m)):
            return
    yield from advance(m)


def store_back(m: Machine) -> Run[None]:
    """The store takes writes again: finish what waited for it, and play on."""
    if not m.admit(Command.STORE_BACK):
        return
    m.move_to(P, Command.STORE_BACK.value)
    if m.finish_due and not (yield from ending.finish(m)):
        return  # (paused again)
    m.send_all(ResumedFrame(table=m.id, n=m.number))
    m.broadcast(seats_changed=True)
    yield from advance(m)


def advance(m: Machine) -> Run[None]:
    """Start what the new position calls for: a bot's move, the timers of the people to act."""
    m.sync_timers()
    table = m.table
    if table is None or not m.playing:
        return
    if len(table.state.history) >= m.max_actions:
        try:
            yield from ending.abandon(
                m, f"the match reached {m.max_actions} actions, the most this server plays"
            )
        except ProtocolError:  # (the store did not take the stop: stopped once it is back)
            lease.pause(m)
        return
    next_bot(m)


def act(m: Machine, listener: Listener, action: int | str, expect: int, ref: Any) -> Run[None]:
    status = m.status  # (a move at a table being played is the common case: one check)
    if status is M:
        m.admit(Command.ACT, ref)
    seat = m.audience.seat_of(listener)
    if seat is None or m.seat_of(listener.player) != seat:
        raise ProtocolError("not_seated", f"you hold no seat at table {m.id}: join it first", ref)
    if status is not P and status is not Z:
        m.admit(Command.ACT, ref)  # (not started, over)
    table = m.table
    assert table is not None
    if m.row.seats[seat].left:  # (from another connection of his, still joined)
        raise ProtocolError("not_seated", f"you left table {m.id}: a bot plays your seat to the end", ref)
    if status is not P:
        m.admit(Command.ACT, ref)  # (paused)
    try:
        table.apply(seat, action, expect=expect, report=False)
    except StaleActionError as e:
        raise ProtocolError("stale", str(e), ref) from None
    except (IllegalActionError, InvalidActionError) as e:
        raise ProtocolError("illegal_action", str(e), ref) from None
    except CardhallError as e:
        raise ProtocolError("bad_request", str(e), ref) from None
    came_back = table.stand_in_for(seat) is not None
    if came_back:
        table.stand_in(seat, None)  # he acts: he is back (even if the store fails to take his move)
    if not (yield from applied(m, seat_changed=came_back)):
        if m.status is M:
            m.admit(Command.ACT, ref)
        raise ProtocolError(
            STORE_UNAVAILABLE,
            f"your move at table {m.id} was not played: its storage failed, and the table is "
            "paused until it is back; play your move again then",
            ref,
        )


def applied(m: Machine, seat_changed: bool = False) -> Run[bool]:
    """An action was applied: commit it, show it, and see what comes next. False when the store
    did not take it: the action is undone and the table paused."""
    if not (yield from lease.commit(m)):
        return False
    table = m.table
    assert table is not None
    if table.is_over:
        m.finish_due = True
        yield from ending.finish(m)  # (a failure pauses the table, which then finishes it when it can)
    elif table.state.deals_finished != m.deals:
        m.deals = table.state.deals_finished
        if m.pending:
            seat_changed = (yield from playnow.take_over(m)) or seat_changed
    m.broadcast(seat_changed)
    yield from advance(m)
    return True


def next_bot(m: Machine) -> None:
    """Start the next bot move, if a bot should act and none is under way."""
    table = m.table
    if m.bot_busy or table is None or not m.playing:
        return
    # (asked once: at a simultaneous choice, Hearts' pass, each asking tries a move on a copy)
    bots = table.bots_to_act()
    if not bots:
        return
    m.bot_busy = True
    pace = int(m.row.settings["bot_pace_ms"]) / 1000
    seat = bots[0]
    spec = table.acting_bot(seat) or ""
    # A forced move (one legal action) needs no search: it is played here, and leaves the tier's
    # time to the decisions that have a choice.
    if thinks_elsewhere(spec) and len(table.legal_actions(seat)) > 1:
        m.out.bot = Think(table.bot_job(seat), pace)
    else:
        m.out.bot = Pace(pace)


def bot_step(m: Machine) -> Run[None]:
    """The pace has passed: the rules (or random) bot chooses and plays, through the Table itself
    (:meth:`~cardhall.table.Table.play_bot`: the seat's own RNG), the move a worker would make."""
    m.bot_busy = False
    if m.status is not P and not m.admit(Command.BOT_MOVED):
        return
    table = m.table
    bots = table.bots_to_act() if table is not None else ()
    if table is None or not bots:
        return
    try:
        table.play_bot(bots[0], report=False)
    except Exception:
        log.exception("table %s: a bot's move failed", m.id)
        return
    yield from applied(m)


def bot_thought(m: Machine, job: BotJob, result: BotResult | None) -> Run[None]:
    """A searching bot's move came back (None: its search failed). A move that no longer fits (its
    person came back meanwhile) is dropped, and the table asks again what comes next."""
    m.bot_busy = False
    if result is None or (m.status is not P and not m.admit(Command.BOT_MOVED)):
        return
    table = m.table
    if table is not None:
        try:
            table.apply_bot(job, result)
        except StaleActionError:
            pass  # the table moved on while it thought (its person came back): nothing to do
        else:
            yield from applied(m)
            return
    yield from advance(m)


def time_up(m: Machine, seat: int, since: int) -> Run[None]:
    if not m.admit(Command.TIME_UP):
        return
    table = m.table
    if table is not None and seat in table.waiting_for() and table.choice_since(seat) == since:
        m.turns.pop(seat, None)  # (it fired)
        yield from stand_in(m, seat)


def gone(m: Machine, seat: int) -> Run[None]:
    m.away.discard(seat)  # (it fired)
    if m.admit(Command.GONE) and m.audience.connected[seat] == 0:
        early_leave(m, seat)
        yield from stand_in(m, seat)


def early_leave(m: Machine, seat: int) -> None:
    """Note a person leaving ``seat`` (or away past his grace) during the match's first deal: Play
    now's leavers wait behind others (:mod:`cardhall.server.playnow`)."""
    table, s = m.table, m.row.seats[seat]
    if (
        table is not None
        and table.state.deals_finished == 0
        and not table.is_over
        and s.kind == SeatKind.PERSON
        and s.player_id is not None
        and table.stand_in_for(seat) is None
    ):
        m.out.early_leaves = (*m.out.early_leaves, s.player_id)


def stand_in(m: Machine, seat: int) -> Run[None]:
    table = m.table
    if table is None or table.stand_in_for(seat) is not None:
        return
    table.stand_in(seat, str(m.row.settings["stand_in"]))
    m.broadcast(seats_changed=True)
    yield from advance(m)


def back_to(m: Machine, seat: int) -> Run[None]:
    table = m.table
    if table is not None and table.stand_in_for(seat) is not None and not m.row.seats[seat].left:
        table.stand_in(seat, None)
        yield from advance(m)
