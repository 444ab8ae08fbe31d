"""The table's owner as a pure machine (cardhall.server.host.machine), driven without asyncio, a store or a
socket: every status a table has, every command it is asked, each either run (with the writes it asks
for and the status it leaves) or ignored or refused with its reason. A new status or command without a
decision here fails. And the transitions between statuses are checked."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pytest

from cardhall.server.host.effects import (
    COMMITTED,
    FENCED,
    Answer,
    AwayTimer,
    CommitAction,
    Effects,
    FinishMatch,
    Pace,
    SaveRow,
    StoreFailed,
    TurnTimer,
    Write,
)
from cardhall.server.host.machine import TableMachine, drive
from cardhall.server.host.status import (
    DECISIONS,
    IGNORE,
    RUN,
    TRANSITIONS,
    A,
    Command,
    F,
    M,
    P,
    StatusError,
    TableStatus,
    W,
    Z,
    moved,
)
from cardhall.server.protocol import (
    PausedFrame,
    ProtocolError,
    ResumedFrame,
    ServerFrame,
    StoppedFrame,
    TableFrame,
)
from cardhall.server.settings import table_settings
from cardhall.store import ActionRow, PlayerRow, SeatKind, SeatRow, TableRow
from cardhall.store import TableStatus as RowStatus
from tests.games import schemas

GAME = "hearts(decks=1,players=4,target=10)"


@dataclass(eq=False)
class Conn:
    """A connection as the table sees it: what it was sent is kept (the machine never sends)."""

    player: PlayerRow | None
    sent: list[ServerFrame] = field(default_factory=list)

    def send(self, frame: ServerFrame) -> None:
        self.sent.append(frame)


ANN = PlayerRow(1, "Ann")
BOB = PlayerRow(2, "Bob")


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def new_machine(full: bool) -> TableMachine:
    seats = [
        SeatRow(0, SeatKind.PERSON, "Ann", ANN.id),
        SeatRow(1, SeatKind.BOT, "rules", None, "rules"),
        SeatRow(2, SeatKind.BOT, "rules", None, "rules"),
        SeatRow(3, SeatKind.BOT, "rules", None, "rules") if full else SeatRow(3),
    ]
    row = TableRow("t1", GAME, "1", 7, dict(table_settings({"hints": True, "turn_seconds": 30})), seats)
    return TableMachine(row, clock=Clock())


class Table:
    """A machine in one status, with Ann joined at seat 0 and a spectator (Bob) watching."""

    def __init__(self, status: TableStatus) -> None:
        self.ann, self.bob = Conn(ANN), Conn(BOB)
        self.machine = m = new_machine(full=status is not W)
        drive(m.open())
        drive(m.join(self.ann, 0, 0, None))
        drive(m.watch(self.bob, 0))
        if status is Z:
            self.ann_moves(lambda _: StoreFailed(None))
        elif status is F:
            self.play_out()
        elif status is A:
            drive(m.halt("for the test"))
        elif status is M:
            m.lease_lost()
        m.take()
        assert m.status is status

    def ann_moves(self, answer: Callable[[Write], Answer] = lambda _: COMMITTED) -> list[Write]:
        m = self.machine
        assert m.table is not None
        try:
            writes, _ = drive(m.act(self.ann, m.table.legal_actions(0)[0], m.number, None), answer)
        except ProtocolError as e:
            assert e.code == "store_unavailable"
            return []
        return writes

    def play_out(self) -> None:
        m = self.machine
        while m.status is P:
            assert m.table is not None
            if 0 in m.table.to_act:
                self.ann_moves()
            else:
                m.bot_busy = True
                drive(m.bot_step())


def command(t: Table, c: Command) -> Iterator[Write]:
    """``c`` as the test asks it: by Ann (seat 0) where a person asks."""
    m = t.machine
    table = m.table
    if c is Command.OPEN:
        return m.open()
    if c is Command.JOIN:
        return m.join(Conn(ANN), 0, 0, None)  # (Ann from a second tab)
    if c is Command.WATCH:
        return m.watch(Conn(PlayerRow(3, "Cy")), 0)
    if c is Command.DETACH:
        return m.detach(t.ann)
    if c is Command.LEAVE:
        return m.leave(t.ann, None)
    if c is Command.BACK:
        return m.back(t.ann, None)
    if c is Command.ADD_BOT:
        return m.add_bot(t.ann, 3, "rules", None)
    if c is Command.ACT:
        legal = table.legal_actions(0) if table is not None and 0 in table.to_act else [0]
        return m.act(t.ann, legal[0], m.number, None)
    if c is Command.HINT:
        return m.hint(t.ann, m.number, None)
    if c is Command.TIME_UP:
        return m.time_up(0, 0 if table is None else table.choice_since(0))
    if c is Command.GONE:
        drive(m.detach(t.ann))
        m.take()
        return m.gone(0)
    if c is Command.BOT_MOVED:
        m.bot_busy = True
        return m.bot_step()
    if c is Command.STORE_BACK:
        return m.store_back()
    if c is Command.HALT:
        return m.halt("the operator")
    if c is Command.LEASE_LOST:
        m.lease_lost()
        return iter(())
    if c is Command.RESUME:
        return m.resume()
    raise AssertionError(f"the test asks no {c}")


# (command, status) -> (the writes it asks for, the status it leaves, whether frames are sent), for
# every decision RUN of DECISIONS.
EXPECTED: dict[tuple[Command, TableStatus], tuple[tuple[type, ...], TableStatus, bool]] = {
    (Command.OPEN, W): ((SaveRow,), W, False),
    (Command.JOIN, W): ((), W, True),
    (Command.JOIN, P): ((), P, True),
    (Command.JOIN, Z): ((), Z, True),
    (Command.JOIN, F): ((), F, True),
    (Command.JOIN, A): ((), A, True),
    (Command.WATCH, W): ((), W, True),
    (Command.WATCH, P): ((), P, True),
    (Command.WATCH, Z): ((), Z, True),
    (Command.WATCH, F): ((), F, True),
    (Command.WATCH, A): ((), A, True),
    (Command.DETACH, W): ((), W, True),
    (Command.DETACH, P): ((), P, True),
    (Command.DETACH, Z): ((), Z, True),
    (Command.DETACH, F): ((), F, True),
    (Command.DETACH, A): ((), A, True),
    (Command.DETACH, M): ((), M, True),
    # (Ann is the one person: her leaving a waiting table abandons it; leaving before the first deal
    # was scored stops the match, unrated)
    (Command.LEAVE, W): ((SaveRow,), A, True),
    (Command.LEAVE, P): ((SaveRow, SaveRow), A, True),
    (Command.LEAVE, Z): ((SaveRow, SaveRow), A, True),
    (Command.LEAVE, F): ((), F, True),
    (Command.LEAVE, A): ((), A, True),
    (Command.BACK, W): ((), W, True),
    (Command.BACK, P): ((), P, True),
    (Command.BACK, Z): ((), Z, True),
    (Command.BACK, F): ((), F, True),
    (Command.BACK, A): ((), A, True),
    (Command.ADD_BOT, W): ((SaveRow,), P, True),
    (Command.ACT, P): ((CommitAction,), P, True),
    (Command.HINT, P): ((), P, False),
    (Command.HINT, Z): ((), Z, False),
    (Command.TIME_UP, P): ((), P, True),
    (Command.GONE, P): ((), P, True),
    (Command.GONE, Z): ((), Z, True),
    (Command.BOT_MOVED, P): ((CommitAction,), P, True),
    (Command.STORE_BACK, Z): ((), P, True),
    (Command.HALT, W): ((SaveRow,), A, True),
    (Command.HALT, P): ((SaveRow,), A, True),
    (Command.HALT, Z): ((SaveRow,), A, True),
    (Command.LEASE_LOST, W): ((), M, False),
    (Command.LEASE_LOST, P): ((), M, False),
    (Command.LEASE_LOST, Z): ((), M, False),
    (Command.RESUME, P): ((), P, False),
}


@pytest.mark.parametrize(
    ("status", "c"), list(itertools.product(TableStatus, Command)), ids=lambda v: str(v.value)
)
def test_every_command_in_every_status_runs_is_ignored_or_is_refused_with_a_reason(
    status: TableStatus, c: Command
) -> None:
    decision = DECISIONS[c][status]  # (a KeyError: a status or command with no decision)
    t = Table(status)
    m = t.machine
    if decision not in (RUN, IGNORE):
        with pytest.raises(ProtocolError) as refused:
            drive(command(t, c))
        assert refused.value.code == decision
        assert m.status is status
        return
    writes, _ = drive(command(t, c))
    effects = m.take()
    if decision == IGNORE:
        assert (writes, effects, m.status) == ([], Effects(), status)
        return
    expected = EXPECTED[(c, status)]
    assert (tuple(type(w) for w in writes), m.status, bool(effects.frames)) == expected


def test_every_run_decision_has_its_expected_effects_and_no_other() -> None:
    runs = {(c, s) for c, row in DECISIONS.items() for s, d in row.items() if d == RUN}
    assert runs == set(EXPECTED)


def test_every_status_and_every_command_has_a_decision() -> None:
    assert set(DECISIONS) == set(Command)
    assert all(set(row) == set(TableStatus) for row in DECISIONS.values())
    assert set(TRANSITIONS) == set(TableStatus)


@pytest.mark.parametrize(("a", "b"), list(itertools.product(TableStatus, TableStatus)), ids=str)
def test_a_status_moves_only_as_its_transitions_allow(a: TableStatus, b: TableStatus) -> None:
    if a is b or b in TRANSITIONS[a]:
        assert moved("t1", a, b, "a test") is b
    else:
        with pytest.raises(StatusError, match=f"a test cannot take it from {a.value} to {b.value}"):
            moved("t1", a, b, "a test")


def test_the_ends_are_ends_and_every_open_status_can_be_moved_away() -> None:
    assert all(not TRANSITIONS[s] for s in TableStatus if not s.is_open)
    assert all(M in TRANSITIONS[s] for s in TableStatus if s.is_open)


# --- one action, read in one direction ------------------------------------------------------------


def test_a_move_is_committed_before_anyone_is_sent_it() -> None:
    t = Table(P)
    m = t.machine
    assert m.table is not None
    command = m.act(t.ann, m.table.legal_actions(0)[0], m.number, None)
    write = next(command)
    assert isinstance(write, CommitAction) and write.row.number == 1 and write.row.seat == 0
    assert not m.take().frames  # (nothing shown before the commit)
    with pytest.raises(StopIteration):
        command.send(COMMITTED)
    effects = m.take()
    assert {listener for listener, _ in effects.frames} == {t.ann, t.bob}
    assert m.stored == 1


def test_a_move_the_store_does_not_take_is_undone_and_the_table_pauses() -> None:
    t = Table(P)
    m = t.machine
    assert m.table is not None
    before = m.table.state.history[:]
    with pytest.raises(ProtocolError) as refused:
        drive(m.act(t.ann, m.table.legal_actions(0)[0], m.number, None), lambda _: StoreFailed(None))
    assert refused.value.code == "store_unavailable"
    effects = m.take()
    assert m.status is Z and m.stored == 0 and m.table.state.history == before
    assert effects.wait_for_store and {type(f) for _, f in effects.frames} == {PausedFrame}
    # the store is back: the table says so and goes on; Ann plays her move again
    drive(m.store_back())
    effects = m.take()
    assert m.status is P and ResumedFrame in {type(f) for _, f in effects.frames}
    assert t.ann_moves() and m.stored == 1


def test_a_move_the_store_took_after_all_is_kept() -> None:
    t = Table(P)
    m = t.machine
    assert m.table is not None
    action = m.table.legal_actions(0)[0]
    drive(m.act(t.ann, action, m.number, None), lambda _: StoreFailed([(0, action)]))
    assert m.status is P and m.stored == 1


def test_a_move_refused_by_the_fence_moves_the_table_away() -> None:
    t = Table(P)
    m = t.machine
    assert m.table is not None
    with pytest.raises(ProtocolError) as refused:
        drive(m.act(t.ann, m.table.legal_actions(0)[0], m.number, None), lambda _: FENCED)
    assert refused.value.code == "table_moved"
    effects = m.take()
    assert m.status is M and effects.lost and effects.stop_bots and effects.forget_store


def test_seats_are_held_only_once_stored() -> None:
    m = new_machine(full=False)
    drive(m.open())
    bob = Conn(BOB)
    with pytest.raises(ProtocolError) as refused:
        drive(m.join(bob, 3, 0, None), lambda _: StoreFailed())
    assert refused.value.code == "store_unavailable"
    assert m.status is W and bob not in m.audience and m.row.seats[3].kind == SeatKind.EMPTY
    writes, _ = drive(m.join(bob, 3, 0, None))
    assert isinstance(writes[0], SaveRow) and writes[0].row.seats[3].player_id == BOB.id
    assert m.status is P and m.audience.seat_of(bob) == 3 and m.row.seats[3].player_id == BOB.id


def test_the_last_seat_taken_deals_the_match_and_a_bot_is_paced() -> None:
    m = new_machine(full=False)
    drive(m.open())
    ann = Conn(ANN)
    drive(m.join(ann, 0, 0, None))
    m.take()
    writes, _ = drive(m.add_bot(ann, 3, "rules", None))
    effects = m.take()
    assert isinstance(writes[0], SaveRow) and writes[0].row.status == RowStatus.PLAYING
    assert m.status is P and m.table is not None
    assert effects.bot == Pace(0.7) and effects.lobby_changed
    assert (
        TurnTimer(0, m.table.choice_since(0), 30) in effects.timers
    )  # (Ann passes her cards with everyone else)


def test_a_match_played_out_stores_its_end_before_it_is_finished() -> None:
    t = Table(P)
    m = t.machine
    ends: list[FinishMatch] = []

    def answer(write: Write) -> Answer:
        if isinstance(write, FinishMatch):
            ends.append(write)
            return StoreFailed() if len(ends) == 1 else COMMITTED
        return COMMITTED

    while m.status is P:
        assert m.table is not None
        if 0 in m.table.to_act:
            t.ann_moves(answer)
        else:
            m.bot_busy = True
            drive(m.bot_step(), answer)
    # its end not stored: paused, the end due; the store back: finished
    assert m.status is Z and m.finish_due and len(ends) == 1
    drive(m.store_back(), answer)
    assert m.status is F and not m.finish_due and m.row.status == RowStatus.FINISHED
    assert ends[-1].rating is None  # (a table with hints is never rated)


def test_a_turn_timer_runs_out_and_the_stand_in_plays() -> None:
    t = Table(P)
    m = t.machine
    assert m.table is not None
    drive(m.time_up(0, m.table.choice_since(0)))
    assert m.table.stand_in_for(0) == "rules" and 0 not in m.turns
    drive(m.back(t.ann, None))
    assert m.table.stand_in_for(0) is None


def test_a_stopped_table_tells_everyone_why() -> None:
    t = Table(P)
    m = t.machine
    _, stopped = drive(m.halt("the operator"))
    effects = m.take()
    assert stopped and m.status is A
    assert (t.ann, StoppedFrame(table="t1", n=m.number, reason="the operator")) in effects.frames
    assert not m.turns and not m.away
    _, again = drive(m.halt("the operator"))
    assert again is False


def test_deadlines_come_from_the_machines_clock() -> None:
    t = Table(P)
    m = t.machine
    frame = m.full_frame(t.ann, 0)
    assert frame.deadlines == {"0": int((1_000_000.0 + 30) * 1000)}


# --- Play now: a person takes a bot's seat at the next deal's start ----------------------------------------

TAKEOVER_GAME = "hokm(max_hands=3)"  # (three deals: the first deal's end starts another)


def play_now_machine() -> tuple[TableMachine, Conn]:
    seats = [
        SeatRow(0, SeatKind.PERSON, "Ann", ANN.id),
        SeatRow(1, SeatKind.BOT, "rules", None, "rules"),
        SeatRow(2, SeatKind.BOT, "rules", None, "rules"),
    ]
    row = TableRow("t2", TAKEOVER_GAME, "1", 11, dict(table_settings({})), seats)
    m = TableMachine(row, clock=Clock())
    ann = Conn(ANN)
    drive(m.open())
    drive(m.join(ann, 0, 0, None))
    m.take()
    return m, ann


def play_one(
    m: TableMachine, ann: Conn, answer: Callable[[Write], Answer] = lambda _: COMMITTED
) -> list[Write]:
    """One move of whoever is to act (Ann's first legal one, or the bot's)."""
    assert m.table is not None
    if 0 in m.table.to_act:
        return drive(m.act(ann, m.table.legal_actions(0)[0], m.number, None), answer)[0]
    m.bot_busy = True
    return drive(m.bot_step(), answer)[0]


def test_a_person_promised_a_bots_seat_takes_it_when_the_next_deal_starts_and_a_replay_agrees() -> None:
    m, ann = play_now_machine()
    assert m.bot_seats_free() == [1, 2]
    assert m.take_seat_later(ANN) is None  # (he holds a seat here)
    assert m.take_seat_later(BOB) == 1 and m.bot_seats_free() == [2]
    assert m.take_seat_later(BOB) is None  # (promised once)
    assert m.table is not None
    saved: list[SaveRow] = []
    while m.table.state.deals_finished == 0:
        assert m.row.seats[1].kind == SeatKind.BOT  # (the bot plays the deal out)
        writes = play_one(m, ann)
        saved += [w for w in writes if isinstance(w, SaveRow)]
    effects = m.take()
    assert not m.table.is_over and m.table.state.deals_finished == 1
    # stored before held: the seat with the actions played before it and the bot it replaces
    assert len(saved) == 1 and saved[0].row.seats[1].player_id == BOB.id
    bob_seat = m.row.seats[1]
    assert (bob_seat.kind, bob_seat.since, bob_seat.before) == (SeatKind.PERSON, m.stored, "rules")
    assert effects.taken == ((BOB.id, 1, False),) and not effects.untaken
    assert AwayTimer(1, m.row.settings["away_seconds"]) in effects.timers  # (he has to open it)
    seat_events = [e for e in m.events_for(None) if e["type"] == "seat" and "replaces" in e]
    assert seat_events == [
        {"n": seat_events[0]["n"], "type": "seat", "seat": 1, "kind": "remote", "name": "Bob",
         "replaces": {"kind": "bot", "name": "rules", "bot": "rules"}}
    ]  # fmt: skip
    assert schemas.errors("hokm", "event", seat_events[0]) == []  # (the events' schema has it)
    assert 1 not in m.table.bots_to_act() and m.table.acting_bot(1) is None
    # a restart (the seats as stored, the actions replayed) holds the same match, events and numbers
    again = TableMachine(m.row, clock=Clock())
    history = m.table.state.history
    again.restore([ActionRow(m.id, n, seat, action, False) for n, (seat, action) in enumerate(history, 1)])
    assert again.table is not None and again.events_for(1) == m.events_for(1)
    assert again.deals == 1 and again.table.acting_bot(1) is None


def test_a_promise_the_match_ends_before_is_given_back_and_a_store_failure_gives_none() -> None:
    m, ann = play_now_machine()
    assert m.take_seat_later(BOB) == 1
    drive(m.halt("for the test"))
    effects = m.take()
    assert effects.untaken == (BOB.id,) and not m.pending and m.bot_seats_free() == []
    assert m.take_seat_later(BOB) is None  # (a stopped table gives no seat)

    m, ann = play_now_machine()
    assert m.take_seat_later(BOB) == 1
    assert m.table is not None
    failed = False

    def answer(write: Write) -> Answer:
        nonlocal failed
        if isinstance(write, SaveRow):
            failed = True
            return StoreFailed()
        return COMMITTED

    while m.table.state.deals_finished == 0:
        play_one(m, ann, answer)
    effects = m.take()
    assert failed and effects.untaken == (BOB.id,) and not effects.taken
    assert m.row.seats[1].kind == SeatKind.BOT and m.table.acting_bot(1) == "rules"


def test_a_person_who_took_a_bots_seat_is_not_rated_by_that_match() -> None:
    m, ann = play_now_machine()
    m.row.settings["hints"] = False  # (rated)
    m.take_seat_later(BOB)
    bob = Conn(BOB)
    assert m.table is not None
    ends: list[FinishMatch] = []
    while m.status is P:
        if m.row.seats[1].kind == SeatKind.PERSON and bob not in m.audience:
            drive(m.join(bob, 1, 0, None))
        if 1 in m.table.to_act and m.row.seats[1].kind == SeatKind.PERSON:
            writes = drive(m.act(bob, m.table.legal_actions(1)[0], m.number, None))[0]
        else:
            writes = play_one(m, ann)
        ends += [w for w in writes if isinstance(w, FinishMatch)]
    assert m.status is F and len(ends) == 1
    rating = ends[0].rating
    assert rating is not None and list(rating.players) == [ANN.id, None, None]
    assert [r.player_id for r in ends[0].results] == [ANN.id, BOB.id, None]


def test_a_person_who_leaves_or_stays_away_in_the_first_deal_is_noted_a_leaver_and_not_later() -> None:
    m, ann = play_now_machine()
    drive(m.leave(ann, None))
    assert m.take().early_leaves == (ANN.id,)
    m, ann = play_now_machine()
    drive(m.detach(ann))
    drive(m.gone(0))  # (his away timer ran out: the stand-in plays)
    assert m.take().early_leaves == (ANN.id,)
    drive(m.leave(ann, None))  # (counted once: the stand-in played for him already)
    assert m.take().early_leaves == ()
    m, ann = play_now_machine()
    assert m.table is not None
    while m.table.state.deals_finished == 0:
        play_one(m, ann)
    m.take()
    drive(m.leave(ann, None))
    assert m.take().early_leaves == ()  # (the first deal was played out)


def test_a_promised_person_watches_until_the_deal_starts_and_then_plays_from_his_watching_connection() -> (
    None
):
    m, ann = play_now_machine()
    bob = Conn(BOB)
    assert m.take_seat_later(BOB) == 1
    with pytest.raises(ProtocolError) as refused:
        drive(m.join(bob, None, 0, None))
    assert refused.value.code == "seat_taken" and "yours from the next deal" in refused.value.message
    drive(m.watch(bob, 0))
    assert m.table is not None
    while m.table.state.deals_finished == 0:
        play_one(m, ann)
    effects = m.take()
    assert effects.taken == ((BOB.id, 1, True),)
    assert m.audience.seat_of(bob) == 1 and 1 not in m.away
    full = [f for to, f in effects.frames if to is bob and isinstance(f, TableFrame)][-1]
    assert full.you == 1 and full.n == m.number


def test_a_promise_given_up_is_no_ones_and_a_takers_absence_counts_his_own_decisions() -> None:
    m, ann = play_now_machine()
    assert m.take_seat_later(BOB) == 1
    assert m.cancel_seat(BOB) and not m.cancel_seat(BOB) and m.bot_seats_free() == [1, 2]
    assert m.take_seat_later(BOB) == 1
    assert m.table is not None
    while m.table.state.deals_finished == 0:
        play_one(m, ann)
    assert m.row.seats[1].player_id == BOB.id and m.row.seats[1].since > 0
    bob = Conn(BOB)
    drive(m.join(bob, 1, 0, None))
    while m.table.state.deals_finished == 1:  # (Bob plays the second deal himself)
        if 1 in m.table.to_act:
            drive(m.act(bob, m.table.legal_actions(1)[0], m.number, None))
        else:
            play_one(m, ann)
    # the bot's decisions of the first deal are not his: he played every one of his, so he was not away
    assert 1 not in m.absences()
    history = m.table.state.history
    his = sum(1 for n, (s, _) in enumerate(history) if s == 1 and n >= m.row.seats[1].since)
    assert 0 < his < sum(1 for s, _ in history if s == 1)  # (the bot's first deal is the seat's too)
    m.by_stand_in[1] = his // 2 + 1  # a stand-in made just over half of his decisions: away
    assert m.absences().get(1) == "away"
