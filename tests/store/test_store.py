"""The store (:mod:`cardhall.store.sql`): every method on SQLite (a file and memory) and on a real
PostgreSQL started for the session (:mod:`tests.postgres`), the migrated schema against the metadata,
durability and the errors of a store that cannot open."""

from __future__ import annotations

import asyncio
import hashlib
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import create_async_engine

import cardhall
from cardhall.server import ratings
from cardhall.store import (
    ActionRow,
    ChatRow,
    NameTakenError,
    PlayerRow,
    RatingRow,
    ResultRow,
    SeatRow,
    SqlStore,
    StoreError,
    TableRow,
    open_store,
)
from cardhall.store.rows import RatingInputs, RatingRequest, SeekerFacts
from cardhall.store.sql import PLAYERS, metadata, migrations_config
from cardhall.store.sql.sqlite_log import ROWS_PER_STATEMENT, OwnConnections, SqliteActionLog
from cardhall.table import Table
from tests.postgres import PostgresServer

pytestmark = pytest.mark.anyio

BACKENDS = ["sqlite-file", "sqlite-memory", "postgresql"]
PERSISTENT = ["sqlite-file", "postgresql"]
MAX_SEED = 2**63 - 1
T0 = datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def new_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path, empty: bool = False) -> str:
    """A new store's URL (``empty``: a PostgreSQL database the migrations never ran on, for their tests;
    an SQLite file is always new)."""
    if backend == "sqlite-file":
        return f"sqlite+aiosqlite:///{tmp_path / 'store.db'}"
    if backend == "sqlite-memory":
        return "sqlite+aiosqlite:///:memory:"
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.create_database(empty=empty)


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return new_url(request.param, request, tmp_path)


@pytest.fixture(params=PERSISTENT)
def persistent_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return new_url(request.param, request, tmp_path)


@pytest.fixture(params=PERSISTENT)
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A store nothing ran on yet: the tests of the migrations themselves."""
    return new_url(request.param, request, tmp_path, empty=True)


@pytest.fixture
async def store(url: str) -> AsyncIterator[SqlStore]:
    opened = await open_store(url)
    assert isinstance(opened, SqlStore)
    yield opened
    await opened.close()


def with_unknown_status(row: TableRow) -> TableRow:
    """The row with a status no TableRow accepts, set past its check, as a bug or an old client would."""
    object.__setattr__(row, "status", "lost")
    return row


def table_row(table_id: str, status: str = "waiting", **changes: Any) -> TableRow:
    row = TableRow(
        id=table_id,
        game="hokm(max_hands=1)",
        rules_version="1",
        seed=7,
        settings={},
        seats=[SeatRow(0), SeatRow(1, "bot", "Bot", bot="random"), SeatRow(2)],
        status=status,
        created_at=T0,
    )
    for name, value in changes.items():
        setattr(row, name, value)
    return row


def count_statements(store: SqlStore, prefix: str) -> list[bool]:
    """A list that gets, per statement starting with ``prefix`` run from now on, whether it was an
    executemany."""
    seen: list[bool] = []

    def before(_c: Any, _cursor: Any, statement: str, _p: Any, _ctx: Any, executemany: bool) -> None:
        if statement.lstrip().upper().startswith(prefix):
            seen.append(executemany)

    sa.event.listen(store.engine.sync_engine, "before_cursor_execute", before)
    return seen


# --- players -------------------------------------------------------------------------------------


async def test_a_player_is_found_by_his_token_and_only_its_hash_is_stored(store: SqlStore) -> None:
    ann, token = await store.create_player("Ann")
    bob, _ = await store.create_player("Bob")
    assert ann.name == "Ann" and ann.id != bob.id
    assert await store.player_by_token(token) == ann
    assert await store.player_by_token(token + "x") is None
    assert await store.player_by_token("") is None
    async with store.engine.connect() as c:
        stored = (await c.execute(sa.select(PLAYERS.c.token_hash).where(PLAYERS.c.id == ann.id))).scalar_one()
    assert stored != token and token not in stored
    assert stored == hashlib.sha256(token.encode()).hexdigest()


async def test_players_by_id_skip_unknown_ids(store: SqlStore) -> None:
    ann, _ = await store.create_player("Ann")
    bob, _ = await store.create_player("Bob")
    assert await store.players([bob.id, ann.id, 999_999, ann.id]) == {ann.id: ann, bob.id: bob}
    assert await store.players([]) == {}


# --- tables --------------------------------------------------------------------------------------


async def test_a_table_round_trips_with_its_seed_settings_seats_times_and_pool(store: SqlStore) -> None:
    ann, _ = await store.create_player("Ann")
    await store.save_table(table_row("old"))
    tehran = timezone(timedelta(hours=3, minutes=30))
    row = TableRow(
        id="aZ-09_x",
        game="hokm(max_hands=3)",
        rules_version="1",
        seed=MAX_SEED,
        settings={"turn_seconds": 30, "pace": 0.5, "nested": {"list": [1, None, "ü"]}, "on": True},
        seats=[
            SeatRow(0, "person", "Ann", player_id=ann.id),
            SeatRow(1, "bot", "Rules", bot="rules_hokm"),
            SeatRow(2),
        ],
        status="playing",
        owner_id=ann.id,
        rematch_of="old",
        created_at=T0.astimezone(tehran),
        play_now='["hokm(max_hands=3)",{},"normal"]',  # (Play now's: its pool)
    )
    await store.save_table(row)
    got = await store.table(row.id)
    assert got == row
    assert got is not None and got.created_at.tzinfo == UTC and got.seed == MAX_SEED
    assert await store.table("absent") is None


async def test_a_seat_taken_from_a_bot_during_the_match_round_trips(store: SqlStore) -> None:
    ann, _ = await store.create_player("Ann")
    row = table_row("took")
    row.seats = [
        SeatRow(0, "person", "Ann", player_id=ann.id, since=40, before="rules"),
        SeatRow(1),
        SeatRow(2),
    ]
    await store.save_table(row)
    assert await store.table("took") == row


async def test_early_leaves_are_noted_once_a_table_and_counted_since_a_time(store: SqlStore) -> None:
    ann, _ = await store.create_player("Ann")
    bob, _ = await store.create_player("Bob")
    for table in ("a", "b"):
        await store.save_table(table_row(table))
    await store.note_early_leave(ann.id, "a", T0)
    await store.note_early_leave(ann.id, "a", T0 + timedelta(minutes=1))  # (again: nothing changes)
    await store.note_early_leave(ann.id, "b", T0 + timedelta(minutes=10))
    assert await store.early_leaves(ann.id, T0 - timedelta(minutes=1)) == 2
    assert await store.early_leaves(ann.id, T0 + timedelta(minutes=5)) == 1
    assert await store.early_leaves(bob.id, T0) == 0


async def test_what_a_seek_needs_is_read_in_one_call(store: SqlStore) -> None:
    """Play now's seeker: his people rating in the game, blocks both ways, the people of his last
    matches finished since a time (at most so many), his early leaves since a time; each part from its
    own rows only (Cy's rating, Bob's matches without Ann, a rating in the bots' pool are not Ann's)."""
    ann, bob, cy, dee, eve = [(await store.create_player(n))[0] for n in ("Ann", "Bob", "Cy", "Dee", "Eve")]
    since = T0 + timedelta(minutes=30)
    for k, (people, minutes) in enumerate(
        [((ann, bob), 60), ((ann, cy), 50), ((ann, eve), 10), ((bob, dee), 70), ((ann, dee), 40)]
    ):
        row = table_row(f"m{k}", "playing")
        await store.save_table(row)
        row.status, row.finished_at = "finished", T0 + timedelta(minutes=minutes)
        results = [ResultRow(row.id, seat, p.id, 1, 0.5) for seat, p in enumerate(people)]
        results.append(ResultRow(row.id, 2, None, 0, 0.0))  # (a bot)
        mu = [RatingRow(ann.id, "hokm", "people", 27.0, 8.0, k + 1)] if k == 4 else []
        await store.finish(row, results, [*mu, RatingRow(cy.id, "hokm", "people", 30.0, 8.0, 1)])
    bots = table_row("bots", "playing")
    await store.save_table(bots)
    bots.status, bots.finished_at = "finished", T0
    await store.finish(bots, [], [RatingRow(ann.id, "hokm", "bots", 40.0, 8.0, 1)])  # (not his people's)
    await store.block(ann.id, bob.id)
    await store.block(eve.id, ann.id)
    await store.save_table(table_row("left"))
    await store.note_early_leave(ann.id, "left", T0 + timedelta(minutes=45))

    facts = await store.seeker(ann.id, "hokm", since, 2, since)
    assert facts.mu == 27.0 and facts.blocks == {bob.id} and facts.blockers == {eve.id}
    assert facts.recent == {bob.id, cy.id}  # (his two last since then: m0 and m1, not m4 at 40 min)
    assert facts.leaves == 1
    assert (await store.seeker(ann.id, "hokm", since, 3, since)).recent == {bob.id, cy.id, dee.id}
    later = T0 + timedelta(minutes=55)
    assert (await store.seeker(ann.id, "hokm", later, 3, later)) == SeekerFacts(
        27.0, frozenset({bob.id}), frozenset({eve.id}), frozenset({bob.id}), 0
    )
    assert await store.seeker(dee.id, "kierki", later, 3, later) == SeekerFacts(
        None, frozenset(), frozenset(), frozenset({bob.id}), 0
    )


async def test_saving_a_table_again_updates_its_status_seats_settings_and_finish(store: SqlStore) -> None:
    row = table_row("t")
    await store.save_table(row)
    row.status = "finished"
    row.seats[0] = SeatRow(0, "person", "Ann")
    row.settings = {"turn_seconds": 10}
    row.finished_at = T0 + timedelta(minutes=5)
    await store.save_table(row)
    assert await store.table("t") == row


async def test_tables_by_status_newest_first(store: SqlStore) -> None:
    statuses = ["waiting", "playing", "finished", "abandoned"] * 3
    for i, status in enumerate(statuses):
        await store.save_table(table_row(f"t{i:02}", status, created_at=T0 + timedelta(seconds=i)))
    got = await store.tables(["waiting", "playing"])
    assert [t.id for t in got] == ["t09", "t08", "t05", "t04", "t01", "t00"]
    assert [t.id for t in await store.tables(["finished"], limit=2)] == ["t10", "t06"]
    assert await store.tables([]) == []


async def test_the_database_refuses_an_unknown_status(store: SqlStore) -> None:
    with pytest.raises(IntegrityError):
        await store.save_table(with_unknown_status(table_row("t")))


# --- actions -------------------------------------------------------------------------------------


async def test_a_batch_of_5000_actions_of_50_tables_is_one_insert_and_comes_back_in_order(
    store: SqlStore,
) -> None:
    statuses = ["waiting", "playing", "finished", "abandoned", "playing"]
    rows = [table_row(f"t{i:02}", statuses[i % 5], created_at=T0 + timedelta(seconds=i)) for i in range(50)]
    for row in rows:
        await store.save_table(row)
    # Interleaved as the server's group commit sends them: action n of every table, then n + 1.
    batch = [ActionRow(r.id, n, n % 3, (n * 7 + i) % 52) for n in range(1, 101) for i, r in enumerate(rows)]
    inserts = count_statements(store, "INSERT")
    log = store.action_log
    appended: list[str] = []
    if isinstance(log, SqliteActionLog) and isinstance(log.connections, OwnConnections):
        log.connections.trace = appended.append  # (an SQLite file: sqlite3 writes it, on its own thread)
    run = log.batches
    await store.append_actions(batch)
    assert inserts == []  # (not through SQLAlchemy's statements: the action log's own)
    assert log.batches == run + 1  # (PostgreSQL: the fences and the rows in one statement)
    if appended:
        # One transaction: BEGIN, the rows in statements of many rows each, COMMIT.
        words = [s.split()[0].upper() for s in appended]
        statements = -(-len(batch) // ROWS_PER_STATEMENT)
        assert words == ["BEGIN"] + ["INSERT"] * statements + ["COMMIT"], words[:3]

    selects = count_statements(store, "SELECT")
    unfinished = await store.unfinished()
    assert len(selects) == 2  # the tables, then the actions of all of them
    expected = {
        r.id: [(n % 3, (n * 7 + i) % 52) for n in range(1, 101)]
        for i, r in enumerate(rows)
        if r.status in ("waiting", "playing")
    }
    assert [t.id for t, _ in unfinished] == sorted(expected)  # oldest first
    assert {t.id: [(a.seat, a.action) for a in acts] for t, acts in unfinished} == expected
    assert all([a.number for a in acts] == list(range(1, 101)) for _, acts in unfinished)
    assert unfinished[0][0] == rows[0]
    assert await store.actions("t02") == [(n % 3, (n * 7 + 2) % 52) for n in range(1, 101)]
    assert await store.actions("absent") == []


async def test_a_batch_is_all_or_nothing(store: SqlStore) -> None:
    await store.save_table(table_row("a"))
    await store.save_table(table_row("b"))
    await store.append_actions([ActionRow("a", 1, 0, 5)])
    with pytest.raises(IntegrityError):  # the second action 1 of table a
        await store.append_actions(
            [ActionRow("b", 1, 0, 6), ActionRow("a", 2, 1, 7), ActionRow("a", 1, 2, 8)]
        )
    with pytest.raises(IntegrityError):  # a table never saved
        await store.append_actions([ActionRow("b", 1, 0, 6), ActionRow("ghost", 1, 0, 0)])
    assert await store.actions("a") == [(0, 5)]
    assert await store.actions("b") == []
    await store.append_actions([])
    assert await store.actions("a") == [(0, 5)]


async def test_the_record_of_a_stored_match_replays_to_its_scores(store: SqlStore) -> None:
    match = Table("hokm(max_hands=1)", ["random"] * 3, seed=1, events=False)
    final = match.play()
    record = match.record()
    seats = [SeatRow(s, "bot", "Random", bot="random") for s in range(3)]
    await store.save_table(
        table_row("match", "playing", game=record["game"], seed=record["seed"], seats=seats)
    )
    pairs = record["actions"]
    for start in range(0, len(pairs), 7):  # as the server commits them: a few at a time
        chunk = pairs[start : start + 7]
        await store.append_actions(
            [ActionRow("match", start + i + 1, s, a) for i, (s, a) in enumerate(chunk)]
        )
    stored = await store.record("match")
    assert stored == record
    assert cardhall.replay(stored).scores == final.scores
    assert await store.record("absent") is None


# --- finishing, results and ratings --------------------------------------------------------------


async def test_finishing_stores_the_results_and_inserts_then_updates_ratings(store: SqlStore) -> None:
    ann, _ = await store.create_player("Ann")
    bob, _ = await store.create_player("Bob")
    first, second = table_row("first", "playing"), table_row("second", "playing")
    await store.save_table(first)
    await store.save_table(second)

    first.status, first.finished_at = "finished", T0 + timedelta(hours=1)
    results = [
        ResultRow("first", 0, ann.id, 7, 0.5),
        ResultRow("first", 1, None, 3, 0.0),
        ResultRow("first", 2, bob.id, 7, 0.5),
    ]
    await store.finish(
        first,
        results,
        [RatingRow(bob.id, "hokm", "bots", 26.0, 8.0, 1), RatingRow(ann.id, "hokm", "bots", 24.0, 8.1, 1)],
    )
    assert await store.table("first") == first
    assert await store.results("first") == results
    assert await store.ratings("hokm", "bots", [ann.id, bob.id]) == {
        ann.id: RatingRow(ann.id, "hokm", "bots", 24.0, 8.1, 1, "Ann"),
        bob.id: RatingRow(bob.id, "hokm", "bots", 26.0, 8.0, 1, "Bob"),
    }

    second.status, second.finished_at = "finished", T0 + timedelta(hours=2)
    await store.finish(
        second,
        [ResultRow("second", 0, ann.id, 9, 1.0)],
        [RatingRow(ann.id, "hokm", "bots", 27.5, 7.2, 2), RatingRow(ann.id, "hokm", "people", 25.0, 8.3, 1)],
    )
    assert await store.ratings("hokm", "bots", [ann.id, bob.id, 999]) == {
        ann.id: RatingRow(ann.id, "hokm", "bots", 27.5, 7.2, 2, "Ann"),
        bob.id: RatingRow(bob.id, "hokm", "bots", 26.0, 8.0, 1, "Bob"),
    }
    assert list(await store.ratings("hokm", "people", [ann.id, bob.id])) == [ann.id]
    assert await store.ratings("svara", "bots", [ann.id]) == {}
    assert await store.ratings("hokm", "bots", []) == {}
    assert [t.id for t in await store.tables(["finished"])] == ["second", "first"]


async def test_a_failed_finish_changes_nothing(store: SqlStore) -> None:
    ann, _ = await store.create_player("Ann")
    row = table_row("t", "playing")
    await store.save_table(row)
    row.status = "finished"
    with pytest.raises(IntegrityError):  # an unknown rating pool, after the table and the results
        await store.finish(
            row, [ResultRow("t", 0, ann.id, 1, 1.0)], [RatingRow(ann.id, "hokm", "robots", 1, 1)]
        )
    assert (await store.table("t")) == table_row("t", "playing")
    assert await store.results("t") == []


async def test_the_leaderboard_orders_by_mu_with_names_past_its_minimum_of_games(store: SqlStore) -> None:
    """The boards order by mu (the displayed rating's order: ratings.shown), and list only ratings of at
    least ``min_games`` rated matches (issue 46: one match made a person #1)."""
    people = [(await store.create_player(name))[0] for name in ("Ann", "Bob", "Cem", "Dia", "Eve")]
    await store.save_table(table_row("t", "finished"))
    # mu - 3 sigma would order Dia 16, Ann 12, Cem 6, Bob 0; mu orders Bob, Ann, Dia, Cem. Eve has
    # the highest mu but 2 rated matches only.
    mu_sigma_games = [(24.0, 4.0, 3), (30.0, 10.0, 3), (15.0, 3.0, 3), (22.0, 2.0, 3), (40.0, 6.0, 2)]
    ratings = [
        RatingRow(p.id, "hokm", "people", mu, sigma, games)
        for p, (mu, sigma, games) in zip(people, mu_sigma_games, strict=True)
    ]
    ratings.append(RatingRow(people[0].id, "hokm", "bots", 50.0, 1.0, 9))
    ratings.append(RatingRow(people[1].id, "svara", "people", 50.0, 1.0, 9))
    await store.finish(table_row("t", "finished"), [], ratings)
    board = await store.leaderboard("hokm", "people", min_games=3)
    assert [r.name for r in board] == ["Bob", "Ann", "Dia", "Cem"]
    assert board[2] == RatingRow(people[3].id, "hokm", "people", 22.0, 2.0, 3, "Dia")
    assert next(r.name for r in await store.leaderboard("hokm", "people")) == "Eve"
    assert [r.name for r in await store.leaderboard("hokm", "people", limit=2, min_games=3)] == ["Bob", "Ann"]
    assert [r.name for r in await store.leaderboard("hokm", "bots", min_games=9)] == ["Ann"]
    assert await store.leaderboard("hokm", "bots", min_games=10) == []
    assert await store.leaderboard("gin", "people") == []


async def test_two_matches_of_one_person_finishing_at_once_both_count(store: SqlStore) -> None:
    """The rating update reads the ratings in the finish's own transaction: two of Ann's matches
    ending together each build on the other's result (none is lost), as if they had ended in turn."""
    ann, _ = await store.create_player("Ann")
    rows = [table_row(t, "playing") for t in ("a", "b")]
    for row in rows:
        await store.save_table(row)
        row.status, row.finished_at = "finished", T0

    def request(table: str) -> RatingRequest:
        made = ratings.request("hokm", [ann.id, None, None], [500, 100, 0], False, T0)
        assert made is not None
        return made

    await asyncio.gather(
        *(store.finish(row, [ResultRow(row.id, 0, ann.id, 500, 1.0)], rating=request(row.id)) for row in rows)
    )
    (after,) = (await store.ratings("hokm", "bots", [ann.id])).values()
    once = ratings.rate_match(
        "hokm", "bots", [ann.id, None, None], [500, 100, 0], False, RatingInputs({}, {}, set(), {})
    )
    twice = ratings.rate_match(
        "hokm",
        "bots",
        [ann.id, None, None],
        [500, 100, 0],
        False,
        RatingInputs({ann.id: once[0]}, {}, set(), {}),
    )
    assert after.games == 2
    assert (after.mu, after.sigma) == pytest.approx((twice[0].mu, twice[0].sigma))
    history = await store.rating_history(ann.id)
    assert sorted(h.table_id for h in history) == ["a", "b"]
    assert (history[-1].mu, history[-1].sigma) == (after.mu, after.sigma)


async def test_an_account_keeps_its_row_and_a_taken_key_is_refused(store: SqlStore) -> None:
    ann, token = await store.create_player("ann the guest")
    bob, _ = await store.create_player("Bob")
    assert ann.guest and await store.password_hash(ann.id) is None
    assert await store.create_account(ann.id, "Ann", "ann", "hash-1")
    assert not await store.create_account(ann.id, "Ann", "ann", "hash-2")  # an account already
    with pytest.raises(NameTakenError):
        await store.create_account(bob.id, "ANN", "ann", "hash-3")
    assert (await store.players([bob.id]))[bob.id] == PlayerRow(bob.id, "Bob", guest=True)
    found = await store.account("ann")
    assert found == (PlayerRow(ann.id, "Ann", guest=False), "hash-1")
    assert await store.account("bob") is None  # a guest has no account to sign in to
    assert await store.player_by_token(token) is None  # the guest's token died
    assert await store.password_hash(ann.id) == "hash-1"


async def test_sessions_expire_end_one_by_one_or_all_and_with_a_new_password(store: SqlStore) -> None:
    ann, _ = await store.create_player("Ann")
    await store.create_account(ann.id, "Ann", "ann", "old")
    later = T0 + timedelta(days=30)
    first, second, third = [await store.create_session(ann.id, later) for _ in range(3)]
    assert await store.player_by_session(first, T0) == PlayerRow(ann.id, "Ann", guest=False)
    assert await store.player_by_session(first, later) is None  # expired
    assert await store.player_by_session("no such token", T0) is None
    assert await store.sessions(ann.id) == 3
    await store.end_session(first)
    assert await store.player_by_session(first, T0) is None
    await store.set_password(ann.id, "new", keep=second)
    assert await store.password_hash(ann.id) == "new"
    assert await store.player_by_session(second, T0) is not None
    assert await store.player_by_session(third, T0) is None
    assert await store.end_sessions(ann.id) == 1
    assert await store.sessions(ann.id) == 0


async def test_the_leaderboard_of_accounts_only_leaves_out_guests_and_the_provisional(
    store: SqlStore,
) -> None:
    people = [(await store.create_player(name))[0] for name in ("Ann", "Bob", "Cem")]
    await store.create_account(people[0].id, "Ann", "ann", "h")
    await store.create_account(people[1].id, "Bob", "bob", "h")
    await store.save_table(table_row("t", "finished"))
    await store.finish(
        table_row("t", "finished"),
        [],
        [
            RatingRow(people[0].id, "svara", "people", 30.0, 2.0, 10),
            RatingRow(people[1].id, "svara", "people", 40.0, 2.0, 9),  # provisional
            RatingRow(people[2].id, "svara", "people", 50.0, 2.0, 20),  # a guest
        ],
    )
    board = await store.leaderboard("svara", "people", accounts_only=True, min_games=10)
    assert [(r.name, r.guest) for r in board] == [("Ann", False)]
    assert [r.name for r in await store.leaderboard("svara", "people")] == ["Cem", "Bob", "Ann"]


# --- chat ----------------------------------------------------------------------------------------


async def test_chat_lines_get_ids_and_come_back_last_ones_oldest_first(store: SqlStore) -> None:
    ann, _ = await store.create_player("Ann")
    await store.save_table(table_row("t"))
    await store.save_table(table_row("other"))
    lines = []
    for i in range(5):
        at = (T0 + timedelta(seconds=i)).astimezone(timezone(timedelta(hours=-5)))
        lines.append(
            await store.add_chat(ChatRow("t", ann.id if i % 2 else None, f"n{i}", f"hello {i} ✓", at=at))
        )
    await store.add_chat(ChatRow("other", None, "x", "elsewhere"))
    assert [line.id for line in lines] == sorted({line.id for line in lines})
    assert all(line.at.tzinfo == UTC for line in lines) and lines[0].at == T0
    assert await store.chat("t") == lines
    assert await store.chat("t", limit=3) == lines[2:]
    assert await store.chat("absent") == []


# --- concurrency, reopening, the schema ----------------------------------------------------------


async def test_concurrent_calls_on_one_store(store: SqlStore) -> None:
    for i in range(10):
        await store.save_table(table_row(f"t{i}"))
    players = asyncio.gather(*(store.create_player(f"p{i}") for i in range(10)))
    appends = asyncio.gather(
        *(store.append_actions([ActionRow(f"t{i}", n, 0, n) for n in range(1, 21)]) for i in range(10))
    )
    reads = asyncio.gather(*(store.unfinished() for _ in range(3)))
    made, _, _ = await asyncio.gather(players, appends, reads)
    assert len({player.id for player, _ in made}) == 10
    assert all(len(acts) == 20 for _, acts in await store.unfinished())


async def test_reopening_keeps_everything_and_migrates_nothing(persistent_url: str) -> None:
    store = await open_store(persistent_url)
    ann, token = await store.create_player("Ann")
    await store.save_table(table_row("t", seed=MAX_SEED))
    await store.append_actions([ActionRow("t", n, n % 3, n) for n in range(1, 11)])
    await store.add_chat(ChatRow("t", ann.id, "Ann", "gg"))
    await store.close()

    again = await open_store(persistent_url)
    assert isinstance(again, SqlStore)
    try:
        assert await again.player_by_token(token) == ann
        assert await again.table("t") == table_row("t", seed=MAX_SEED)
        assert await again.actions("t") == [(n % 3, n) for n in range(1, 11)]
        assert [line.text for line in await again.chat("t")] == ["gg"]
        async with again.engine.connect() as c:
            version = (await c.execute(sa.text("SELECT version_num FROM alembic_version"))).scalars().all()
        # The newest revision (the head of the migrations, whichever number it has by now).
        assert version == [ScriptDirectory.from_config(migrations_config()).get_current_head()]
        assert version[0] is not None and version[0] != "0001"
    finally:
        await again.close()


OPENER = """
import asyncio, sys
from cardhall.store import open_store

async def main():
    store = await open_store(sys.argv[1])
    await store.close()
    print("opened", flush=True)

asyncio.run(main())
"""


@pytest.mark.process
def test_processes_opening_an_empty_postgres_database_together_all_open(
    postgres: PostgresServer,
) -> None:
    # The processes of a hall (serve --workers) start at once on a database that may be empty: each
    # runs the migrations, and without taking turns all but one failed creating the same tables.
    url = postgres.create_database(empty=True)
    src = str(Path(cardhall.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    openers = [
        subprocess.Popen(
            [sys.executable, "-c", OPENER, url],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(4)
    ]
    results = [opener.communicate(timeout=120) for opener in openers]
    assert [(opener.returncode, out) for opener, (out, _) in zip(openers, results, strict=True)] == [
        (0, "opened\n")
    ] * 4, [err[-800:] for _, err in results]

    async def version() -> list[str]:
        store = await open_store(url)
        assert isinstance(store, SqlStore)
        try:
            async with store.engine.connect() as c:
                return list((await c.execute(sa.text("SELECT version_num FROM alembic_version"))).scalars())
        finally:
            await store.close()

    assert asyncio.run(version()) == [ScriptDirectory.from_config(migrations_config()).get_current_head()]


async def test_the_migrated_schema_is_the_metadata(empty_url: str) -> None:
    store = await open_store(empty_url)
    assert isinstance(store, SqlStore)
    try:
        async with store.engine.connect() as c:
            diff = await c.run_sync(lambda sync: compare_metadata(MigrationContext.configure(sync), metadata))
        assert diff == []
        names = await c_names(store)
        assert {"ix_tables_status_created_at", "ix_players_token_hash", "pk_actions"} <= names
    finally:
        await store.close()


async def c_names(store: SqlStore) -> set[str]:
    """The names of the indexes and primary keys in the store's database."""

    def read(sync: sa.Connection) -> set[str]:
        inspector = sa.inspect(sync)
        names = set()
        for table in inspector.get_table_names():
            names |= {str(ix["name"]) for ix in inspector.get_indexes(table)}
            names.add(str(inspector.get_pk_constraint(table)["name"]))
        return names

    async with store.engine.connect() as c:
        return await c.run_sync(read)


async def test_sqlite_runs_in_wal_mode_with_normal_sync_and_foreign_keys(tmp_path: Path) -> None:
    store = await open_store(f"sqlite:///{tmp_path / 'plain-url.db'}")  # gets the aiosqlite driver
    assert isinstance(store, SqlStore)
    try:
        async with store.engine.connect() as c:
            pragmas = {
                p: (await c.exec_driver_sql(f"PRAGMA {p}")).scalar()
                for p in ("journal_mode", "synchronous", "busy_timeout", "foreign_keys")
            }
        assert pragmas == {"journal_mode": "wal", "synchronous": 1, "busy_timeout": 10_000, "foreign_keys": 1}
    finally:
        await store.close()


KILLED = """
import asyncio, sys
from cardhall.store import ActionRow, TableRow, open_store

async def main():
    store = await open_store(sys.argv[1])
    await store.save_table(TableRow("k", "hokm", "1", 1, {}, []))
    for n in range(1, 101):
        await store.append_actions([ActionRow("k", n, 0, n)])
    print("committed", flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


@pytest.mark.process
async def test_a_killed_process_keeps_every_committed_action(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'killed.db'}"
    src = str(Path(cardhall.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    with subprocess.Popen(
        [sys.executable, "-c", KILLED, url], stdout=subprocess.PIPE, text=True, env=env
    ) as p:
        assert p.stdout is not None
        try:
            assert p.stdout.readline() == "committed\n"
        finally:
            p.kill()
    store = await open_store(url)
    try:
        assert await store.actions("k") == [(0, n) for n in range(1, 101)]
    finally:
        await store.close()


# --- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("postgresql+asyncpg://cardhall:s3cret@127.0.0.1:1/cardhall", "Connect call failed"),
        ("sqlite+aiosqlite:///{tmp}/no/such/dir/store.db", "unable to open database file"),
        (
            "sqlite+pysqlite:///{tmp}/store.db",
            "the store runs on sqlite+aiosqlite:// or postgresql+asyncpg://",
        ),
        ("not a url", "not a database URL"),
    ],
)
async def test_a_store_that_cannot_open_says_where_and_why(url: str, reason: str, tmp_path: Path) -> None:
    url = url.format(tmp=tmp_path)
    with pytest.raises(StoreError) as e:
        await open_store(url)
    message = str(e.value)
    assert message.startswith(f"cannot open the store at {url.replace('s3cret', '***')}: ")
    assert reason in message and "s3cret" not in message


async def test_a_missing_postgres_database_is_named(postgres: PostgresServer) -> None:
    with pytest.raises(StoreError, match='database "absent" does not exist'):
        await open_store(postgres.url("absent"))


async def test_a_checkpoint_moves_the_log_into_the_database(tmp_path: Path) -> None:
    """Commits leave the write-ahead log to grow (no commit waits for a checkpoint); a checkpoint,
    alongside a writer, copies it into the database file."""
    path = tmp_path / "cardhall.db"
    store = await open_store(f"sqlite+aiosqlite:///{path}")
    try:
        await store.create_player("Ann")
        before = path.stat().st_size
        await store.checkpoint()
        assert path.stat().st_size > before  # the player's row reached the database file
        wal = path.with_name(path.name + "-wal")
        assert wal.exists() and wal.stat().st_size > 0
    finally:
        await store.close()


def upgrade_to(sync: sa.Connection, revision: str) -> None:
    """Migrate the database on ``sync`` to ``revision`` of the store's migrations (not the head)."""
    config = migrations_config()
    config.attributes["connection"] = sync
    command.upgrade(config, revision)


async def test_revision_0009_frees_the_tables_of_processes_without_a_lease_row(empty_url: str) -> None:
    """A table's ``node`` refers to ``nodes`` from revision 0009: a table that named a process with no
    row (which the sweeps took to be free) comes through free, the others keep their process."""
    engine = create_async_engine(empty_url)
    async with engine.begin() as c:
        await c.run_sync(upgrade_to, "0008")
        await c.execute(sa.text("INSERT INTO nodes VALUES ('known', 1e12)"))
        for table_id, node in (("kept", "known"), ("freed", "ghost"), ("none", None)):
            await c.execute(
                sa.text(
                    "INSERT INTO tables (id, game, rules_version, seed, settings, seats, status, created_at,"
                    " node) VALUES (:id, 'hokm', '1', 3, '{}', '[]', 'playing', :at, :node)"
                ),
                {"id": table_id, "at": T0, "node": node},
            )
    await engine.dispose()

    store = await open_store(empty_url)
    try:
        nodes = {t: row.node for t in ("kept", "freed", "none") if (row := await store.table(t))}
        assert nodes == {"kept": "known", "freed": None, "none": None}
        assert sorted(await store.expired(10)) == ["freed", "none"]
    finally:
        await store.close()


async def test_a_store_made_by_the_first_revision_migrates_with_its_rows(empty_url: str) -> None:
    """Revision 0002 rebuilds the tables table on SQLite (a CHECK constraint changes): the actions, chat
    and play-again tables that refer to it come through, and the new status is accepted."""
    engine = create_async_engine(empty_url)
    async with engine.begin() as c:
        await c.run_sync(upgrade_to, "0001")
        values = {"game": "hokm", "rules_version": "1", "seed": 3, "settings": "{}", "seats": "[]", "at": T0}
        for table_id, rematch_of in (("old", None), ("again", "old")):
            await c.execute(
                sa.text(
                    "INSERT INTO tables (id, game, rules_version, seed, settings, seats, status, rematch_of,"
                    " created_at) VALUES (:id, :game, :rules_version, :seed, :settings, :seats, 'playing',"
                    " :rematch_of, :at)"
                ),
                {**values, "id": table_id, "rematch_of": rematch_of},
            )
        await c.execute(sa.text("INSERT INTO actions VALUES ('old', 1, 0, 7), ('old', 2, 1, 9)"))
    await engine.dispose()

    store = await open_store(empty_url)
    try:
        assert await store.actions("old") == [(0, 7), (1, 9)]
        again = await store.table("again")
        assert again is not None and again.rematch_of == "old" and again.problem is None
        await store.mark_broken("old", "a test")
        old = await store.table("old")
        assert old is not None and (old.status, old.problem) == ("broken", "a test")
        with pytest.raises(IntegrityError):
            await store.save_table(with_unknown_status(table_row("x")))
    finally:
        await store.close()
