"""The Table: seats, the bots' turns (here and in worker processes), simultaneous choices, numbered
events redacted per seat, stale actions, records."""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor

import pytest

import cardhall
from cardhall.table import Occupant, StaleActionError, Table, run_bot_job
from tests.helpers import bounded, playing

ME = Occupant.person("Ann")


def gin_with_advisor_to_act(seats: list[Occupant | str]) -> Table:
    """A three-hand gin table whose captain has a decision, so captain and advisor are both to act."""
    table = Table("gin", seats, seed=4)
    rng = random.Random(4)
    for _ in bounded(lambda: len(table.to_act) < 2):
        seat = table.to_act[0]
        table.apply(seat, rng.choice(table.legal_actions(seat)))
    return table


def roles(table: Table) -> dict[str, int]:
    roles: dict[str, int] = table.observation(None)["roles"]
    return roles


# --- seats ---------------------------------------------------------------------------------------


def test_seats_start_empty_and_are_announced() -> None:
    table = Table("hokm", seed=1)
    assert [o.kind for o in table.seats] == ["empty"] * 3
    assert table.waiting_for() == table.to_act
    assert table.bots_to_act() == []
    table.sit(1, "rules")
    table.sit(2, Occupant.remote("Bo"))
    seat_events = [e for e in table.events(None) if e["type"] == "seat"]
    first, second = seat_events[-2:]
    assert first == {
        "n": first["n"],
        **{"type": "seat", "seat": 1, "kind": "bot", "name": "rules", "bot": "rules"},
    }
    assert second == {
        "n": second["n"],
        "type": "seat",
        "seat": 2,
        "kind": "remote",
        "name": "Bo",
    }


@pytest.mark.parametrize(
    ("make", "fragment"),
    [
        (lambda: Table("hokm", ["rules", "rules"]), "2 seats given for 3 players"),
        (lambda: Table("hokm", ["rules", "genius", "rules"]), "unknown bot 'genius'"),
        (lambda: Table("hokm", seed=1).sit(3, "rules"), "seat must be 0..2"),
        (lambda: Table("hokm", seed=1).observation(9), "seat must be 0..2"),
        (lambda: Table("hokm", seed=1).legal_actions(-1), "seat must be 0..2"),
        (lambda: Table("hokm", seed=1).events(3), "seat must be 0..2"),
        (lambda: Table("hokm", [1, 2, 3]), "a seat holds an Occupant or a bot string"),  # type: ignore[list-item]
        (lambda: Occupant("robot"), "seat kind must be one of"),
        (lambda: Occupant("bot", "x"), "a bot seat needs a bot string"),
        (lambda: Table("hokm", seed=1).events(None, since=-1), "since must be an event number"),
        (lambda: Table("hokm", seed=1).play_bot(0), "holds no bot"),
        (lambda: Table("hokm", ["rules", ME, "rules"], seed=1).play(), "waits for seat"),
    ],
)
def test_bad_seats_and_requests_are_refused_clearly(make: object, fragment: str) -> None:
    with pytest.raises(cardhall.CardhallError, match=fragment):
        make()  # type: ignore[operator]


# --- playing -------------------------------------------------------------------------------------


def test_a_table_of_bots_plays_the_match_its_record_replays() -> None:
    table = Table("hokm(max_hands=2)", ["rules", "random", "rules"], seed=8)
    state = table.play()
    assert state.is_over and table.bots_to_act() == []
    again = cardhall.replay(table.record())
    assert again.scores == state.scores and again.history == state.history
    copy = Table.from_record(table.record(), ["rules", "random", "rules"])
    assert copy.events(1) == table.events(1)


def test_run_bots_stops_for_the_person_and_takes_his_action_by_label() -> None:
    table = Table("hokm(max_hands=1)", ["rules", ME, "rules"], seed=3)
    for _ in playing(table):
        table.run_bots()
        if table.is_over:
            break
        assert table.waiting_for() == (1,) and table.bots_to_act() == []
        label = table.game.action_label(table.legal_actions(1)[-1])
        events = table.apply(1, label)
        assert events[0] == {
            "n": events[0]["n"],
            "type": "action",
            "seat": 1,
            "action": label,
            "hidden": False,
            "move": table.game.action_info(table.game.parse_action(label)),
        }
    assert table.events(None)[-1]["type"] == "match_over"


def test_an_action_applied_without_its_report_is_logged_as_one_reported() -> None:
    reported = Table("hearts(decks=1,players=4)", ["rules", ME, "rules", "rules"], seed=4)
    quiet = Table("hearts(decks=1,players=4)", ["rules", ME, "rules", "rules"], seed=4)
    for _ in range(60):
        bots = reported.bots_to_act()
        if bots:
            events = reported.play_bot(bots[0])
            assert quiet.play_bot(bots[0], report=False) == []
        else:
            action = reported.legal_actions(1)[0]
            events = reported.apply(1, action, expect=reported.number)
            assert quiet.apply(1, action, expect=quiet.number, report=False) == []
        assert events and events[-1]["n"] == reported.number
        assert quiet.events(1) == reported.events(1) and quiet.number == reported.number
    assert quiet.observation(1) == reported.observation(1)


def test_an_illegal_or_unreadable_action_changes_nothing() -> None:
    table = Table("hokm", seed=2)
    seat = table.to_act[0]
    before, history = table.number, list(table.state.history)
    for bad in [0, "play QS", "bid 99", 10**6, True, "nonsense"]:
        with pytest.raises(cardhall.InvalidActionError):
            table.apply(seat, bad)  # type: ignore[arg-type]
    with pytest.raises(cardhall.IllegalActionError, match="may not act now"):
        table.apply((seat + 1) % 3, table.legal_actions(seat)[0])
    assert table.number == before and table.state.history == history


# --- simultaneous choices ------------------------------------------------------------------------


def test_gin_bots_let_the_advisor_speak_before_the_captain_plays() -> None:
    table = gin_with_advisor_to_act(["rules", "rules", "rules"])
    r = roles(table)
    assert set(table.to_act) == {r["captain"], r["advisor"]}
    assert table.bots_to_act() == [r["advisor"]]
    table.play_bot(r["advisor"])
    assert table.bots_to_act() == [r["captain"]]


def test_a_bot_captain_waits_for_a_person_advising_him() -> None:
    probe = gin_with_advisor_to_act(["rules", "rules", "rules"])
    r = roles(probe)
    seats: list[Occupant | str] = ["rules", "rules", "rules"]
    seats[r["advisor"]] = ME
    table = gin_with_advisor_to_act(seats)
    assert table.bots_to_act() == [] and table.waiting_for() == (r["advisor"],)
    seats = ["rules", "rules", "rules"]
    seats[r["captain"]] = ME
    table = gin_with_advisor_to_act(seats)
    assert table.bots_to_act() == [r["advisor"]]  # a person captain hears his bot advisor first


def test_hearts_bots_pass_while_the_person_chooses_and_his_view_stays_fresh() -> None:
    table = Table("hearts(decks=1,players=4)", [ME, "rules", "rules", "rules"], seed=5)
    seen = table.number
    assert table.bots_to_act() == [1, 2, 3]
    table.run_bots()
    assert table.to_act == (0,) and table.number > seen
    # The bots' passes did not change the person's choice: an action quoting the old number stands.
    table.apply(0, table.legal_actions(0)[0], expect=seen)


# --- events --------------------------------------------------------------------------------------


def test_events_are_numbered_and_a_seat_can_ask_for_those_it_missed() -> None:
    table = Table("hokm(max_hands=1)", ["rules"] * 3, seed=6)
    table.play()
    everything = table.events(0)
    assert [e["n"] for e in everything] == list(range(1, table.number + 1))
    assert table.events(0, since=10) == everything[10:]
    assert table.events(0, since=table.number) == []
    assert [e["type"] for e in everything[:3]] == ["seat"] * 3


def test_a_hidden_action_reaches_only_its_seats() -> None:
    table = Table("hearts(decks=1,players=4)", ["rules"] * 4, seed=7)
    table.play_bot(1)
    passed = table.events(1)[-1]
    assert passed["type"] == "action" and passed["seat"] == 1
    assert passed["action"].startswith("pass ") and not passed["hidden"]
    for viewer in (0, 2, 3, None):
        seen = table.events(viewer)[-1]
        assert seen["n"] == passed["n"] and seen["hidden"] and seen["action"] == "pass"


# --- stale and duplicate actions -----------------------------------------------------------------


def test_a_duplicate_or_stale_action_is_refused() -> None:
    table = Table("hokm", [ME, "rules", "rules"], seed=9)
    table.run_bots()
    assert table.waiting_for() == (0,)
    view = table.number
    action = table.legal_actions(0)[0]
    table.apply(0, action, expect=view)
    table.run_bots()
    with pytest.raises(StaleActionError, match="its choice has changed"):
        table.apply(0, table.legal_actions(0)[0] if table.to_act == (0,) else action, expect=view)
    with pytest.raises(StaleActionError):
        table.apply(0, action, expect=table.number + 1)
    with pytest.raises(cardhall.InvalidOptionError, match="takes no 'expect'"):
        Table("hokm", seed=1, events=False).apply(0, 0, expect=0)


# --- bots in worker processes --------------------------------------------------------------------


@pytest.mark.process
def test_bot_jobs_in_worker_processes_play_the_same_match() -> None:
    bots: list[Occupant | str] = ["rules", "random", "rules", "search(iterations=2)"]
    here = Table("hearts(decks=1,players=4,max_hands=1)", bots, seed=11)
    here.play()
    there = Table("hearts(decks=1,players=4,max_hands=1)", bots, seed=11)
    with ProcessPoolExecutor(max_workers=2) as pool:
        for _ in playing(there):
            job = there.bot_job(there.bots_to_act()[0])
            there.apply_bot(job, pool.submit(run_bot_job, job).result())
    assert there.record() == here.record()
    assert there.events(2) == here.events(2)


@pytest.mark.parametrize(
    "game_string",
    [
        "hokm(max_hands=3)",
        "svara",
        "gin(max_hands=2)",
        "gin(players=2,max_hands=2)",
        "hearts(decks=1,players=4,max_hands=2)",
        "hearts(players=6,max_hands=1)",
        "kierki(first_deal=3,last_deal=6)",
    ],
)
def test_rules_bots_played_here_from_the_state_play_what_they_choose_on_observations(
    game_string: str,
) -> None:
    # play_bot asks a rules bot through act_state (no observation built); a job asks act on the
    # seat's observation. Same match, action for action, and the same draws of every seat's RNG.
    for seed in range(4):
        seats: list[Occupant | str] = ["rules"] * cardhall.load_game(game_string).num_players
        here = Table(game_string, seats, seed=seed)
        there = Table(game_string, seats, seed=seed)
        for _ in playing(there):
            seat = there.bots_to_act()[0]
            job = there.bot_job(seat)
            there.apply_bot(job, run_bot_job(job))
            here.play_bot(seat)
            assert here.state.history == there.state.history, (seed, len(there.state.history))
            if not here.is_over:
                assert here.bot_job(seat).rng_state == there.bot_job(seat).rng_state
        assert here.state.is_over and here.record() == there.record()


def test_a_job_the_table_has_moved_past_is_refused() -> None:
    table = Table("hokm", ["rules"] * 3, seed=12)
    job = table.bot_job(table.to_act[0])
    result = run_bot_job(job)
    table.play_bot(table.to_act[0])
    with pytest.raises(StaleActionError):
        table.apply_bot(job, result)
    fresh = Table("hokm", ["rules"] * 3, seed=12)
    job = fresh.bot_job(fresh.to_act[0])
    fresh.sit(fresh.to_act[0], ME)
    with pytest.raises(StaleActionError, match="no longer holds bot"):
        fresh.apply_bot(job, run_bot_job(job))


def test_a_bot_stands_in_for_a_person_who_is_away_until_he_is_back() -> None:
    table = Table("hokm(max_hands=1)", [ME, "rules", "rules"], seed=13)
    table.run_bots()
    assert table.waiting_for() == (0,)
    number = table.number
    table.stand_in(0, "rules")
    assert table.number == number and table.stand_in_for(0) == "rules"  # not an event of the match
    assert table.bots_to_act() == [0] and table.waiting_for() == ()
    job = table.bot_job(0)
    table.apply_bot(job, run_bot_job(job))  # the stand-in plays Ann's move
    table.stand_in(0, None)
    table.run_bots()
    assert table.waiting_for() == (0,) and table.stand_in_for(0) is None
    with pytest.raises(cardhall.InvalidOptionError, match="no person to stand in for"):
        table.stand_in(1, "rules")
