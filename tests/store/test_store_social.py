"""The store's social part (:mod:`cardhall.store.social`) on SQLite (a file and memory) and PostgreSQL:
friend requests and their outcomes, friendships stored once, blocks ending both, roles and reasons kept
by the database's checks, mutes and bans replaced rather than added, reports kept as they were said,
private tables' invitations (stored with their tables' rows, in one transaction)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from cardhall.store import (
    ChatRow,
    FencedError,
    ReportRow,
    SeatRow,
    SqlStore,
    StoreUnavailableError,
    TableRow,
    open_store,
)
from cardhall.store.sql import SOCIAL
from tests.store.test_store import BACKENDS, new_url

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    opened = await open_store(new_url(request.param, request, tmp_path))
    assert isinstance(opened, SqlStore)
    yield opened
    await opened.close()


async def people(store: SqlStore, *names: str) -> list[int]:
    return [(await store.create_player(n))[0].id for n in names]


async def test_a_request_its_answers_and_the_friendship_stored_once(store: SqlStore) -> None:
    ann, bob, cid = await people(store, "Ann", "Bob", "Cid")
    assert await store.request_friend(ann, bob) == "requested"
    assert await store.request_friend(ann, bob) == "pending"
    assert await store.friend_requests(bob) == ([ann], [])
    assert await store.request_friend(bob, ann) == "accepted"  # he had asked first
    assert await store.request_friend(ann, bob) == "friends"
    assert await store.friends(ann) == [bob] and await store.friends(bob) == [ann]
    assert await store.are_friends(bob, ann)
    assert await store.friend_requests(ann) == ([], [])
    assert await store.request_friend(cid, ann) == "requested"
    assert await store.answer_request(cid, ann, accept=False)
    assert not await store.answer_request(cid, ann, accept=True)  # refused: gone
    async with store.engine.connect() as c:
        rows = (await c.execute(sa.select(SOCIAL["friends"]))).all()
    assert [(r.low_id, r.high_id) for r in rows] == [(min(ann, bob), max(ann, bob))]
    assert await store.remove_friend(bob, ann) and not await store.remove_friend(bob, ann)


async def test_a_block_ends_friendship_and_requests_and_stops_new_ones(store: SqlStore) -> None:
    ann, bob = await people(store, "Ann", "Bob")
    await store.request_friend(ann, bob)
    await store.request_friend(bob, ann)
    await store.block(ann, bob)
    await store.block(ann, bob)  # twice: one block
    assert await store.friends(ann) == [] and await store.blocked_by(ann) == [bob]
    assert (
        await store.blockers(bob) == [ann]
        and await store.blocks(ann, bob)
        and not await store.blocks(bob, ann)
    )
    # Bob's request is kept as any other, answered as sent, and never shown to Ann (the block untold).
    assert await store.request_friend(bob, ann) == "requested"
    assert await store.friend_requests(bob) == ([], [ann])
    assert await store.request_friend(ann, bob) == "blocked"
    assert await store.friend_requests(ann) == ([], [])
    assert await store.unblock(ann, bob) and not await store.unblock(ann, bob)
    assert await store.friend_requests(ann) == ([bob], [])
    assert await store.request_friend(bob, ann) == "pending"


async def test_the_database_keeps_friendships_ordered_and_roles_known(store: SqlStore) -> None:
    ann, bob = await people(store, "Ann", "Bob")
    now = datetime.now(UTC)
    with pytest.raises(IntegrityError):
        async with store.engine.begin() as c:
            await c.execute(
                SOCIAL["friends"].insert().values(low_id=max(ann, bob), high_id=min(ann, bob), since=now)
            )
    with pytest.raises(IntegrityError):
        async with store.engine.begin() as c:
            await c.execute(SOCIAL["roles"].insert().values(player_id=ann, role="king", granted_at=now))
    assert await store.add_role(ann, "moderator") and not await store.add_role(ann, "moderator")
    assert await store.has_role(ann, "moderator") and not await store.has_role(bob, "moderator")
    assert await store.remove_role(ann, "moderator") and not await store.has_role(ann, "moderator")


async def test_mutes_and_bans_are_replaced_not_added(store: SqlStore) -> None:
    ann, mod = await people(store, "Ann", "Mo")
    first = datetime(2030, 1, 1, tzinfo=UTC)
    await store.mute_chat(ann, first, "spam", mod)
    await store.mute_chat(ann, first + timedelta(hours=1), "spam again", None)
    assert await store.chat_muted_until(ann) == first + timedelta(hours=1)
    assert await store.banned(ann) is None
    await store.ban(ann, "cheating", mod)
    await store.ban(ann, "cheating, twice", mod)
    assert await store.banned(ann) == "cheating, twice"
    assert await store.unban(ann) and await store.banned(ann) is None and not await store.unban(ann)


async def test_a_credentials_player_comes_with_his_ban_in_the_same_lookup(store: SqlStore) -> None:
    (ann, token), (bob, _) = await store.create_player("Ann"), await store.create_player("Bob")
    session = await store.create_session(ann.id, datetime(2100, 1, 1, tzinfo=UTC))
    now = datetime.now(UTC)
    assert await store.player_by_token(token) == ann and ann.banned is None
    await store.ban(ann.id, "cheating", bob.id)
    by_token, by_session = await store.player_by_token(token), await store.player_by_session(session, now)
    assert by_token is not None and by_token.banned == "cheating" and by_token.id == ann.id
    assert by_session is not None and by_session.banned == "cheating" and by_session.id == ann.id
    await store.unban(ann.id)
    assert await store.player_by_token(token) == ann
    assert await store.player_by_session(session, now) == ann


async def test_a_report_keeps_the_line_as_it_was_and_a_private_table_its_invitation(store: SqlStore) -> None:
    ann, bob = await people(store, "Ann", "Bob")
    await store.save_table(TableRow("t1", "hokm", "3", 1, {}, [SeatRow(0)] * 3), "x" * 22)
    await store.save_table(TableRow("t2", "hokm", "3", 2, {}, [SeatRow(0)] * 3))
    line = await store.add_chat(ChatRow("t1", bob, "Bob", "<b>rude</b>"))
    assert await store.chat_line(line.id) == line and await store.chat_line(line.id + 99) is None
    made = await store.add_report(ReportRow(ann, line.id, "t1", bob, "Bob", line.text, "abuse"))
    second = await store.add_report(ReportRow(ann, line.id, "t1", bob, "Bob", line.text, "again"))
    assert [r.id for r in await store.reports()] == [second.id, made.id]  # newest first
    assert (await store.reports(1))[0].reason == "again" and (await store.reports())[1].text == "<b>rude</b>"
    assert await store.private_tables(["t1", "t2", "nope"]) == {"t1": "x" * 22}
    assert await store.private_tables([]) == {}
    assert [p.name for p in await store.players_named("Bob")] == ["Bob"] and await store.players_named(
        "Z"
    ) == []


async def test_the_open_private_tables_are_those_waiting_or_playing(store: SqlStore) -> None:
    rows = [
        TableRow(table_id, "hokm", "3", 1, {}, [SeatRow(0)] * 3, status=status)  # type: ignore[arg-type]
        for table_id, status in (("w", "waiting"), ("p", "playing"), ("f", "finished"), ("o", "waiting"))
    ]
    await store.save_tables(rows, {t: f"invitation-{t}" for t in ("w", "p", "f")})
    assert await store.open_private_tables() == {"w": "invitation-w", "p": "invitation-p"}


async def test_a_private_table_and_its_invitation_are_stored_in_one_transaction(store: SqlStore) -> None:
    def row(table_id: str, fence: int = 1) -> TableRow:
        return TableRow(table_id, "hokm", "3", 1, {}, [SeatRow(0)] * 3, fence=fence)

    def fail(*args: Any) -> None:
        if str(args[2]).lstrip().upper().startswith("INSERT INTO PRIVATE_TABLES"):
            raise OSError(28, "No space left on device (planted)")

    # The invitation's statement fails: the row written just before it is rolled back with it.
    sa.event.listen(store.engine.sync_engine, "before_cursor_execute", fail)
    try:
        with pytest.raises(StoreUnavailableError):
            await store.save_table(row("t"), "x" * 22)
        with pytest.raises(StoreUnavailableError):
            await store.save_tables([row("t"), row("u")], {"t": "x" * 22})
    finally:
        sa.event.remove(store.engine.sync_engine, "before_cursor_execute", fail)
    assert await store.table("t") is None and await store.table("u") is None
    assert await store.private_tables(["t", "u"]) == {}
    # Stored; and again, as a write tried again after the answer of its commit was lost: the same.
    for _ in range(2):
        await store.save_table(row("t"), "x" * 22)
        await store.save_tables([row("u"), row("v")], {"u": "y" * 22})
    assert await store.private_tables(["t", "u", "v"]) == {"t": "x" * 22, "u": "y" * 22}
    # A writer whose fence is stale (the table moved to another process) stores neither.
    await store.save_table(row("w"))
    with pytest.raises(FencedError):
        await store.save_table(row("w", fence=2), "z" * 22)
    with pytest.raises(FencedError):
        await store.save_tables([row("new"), row("w", fence=2)], {"new": "n" * 22, "w": "z" * 22})
    assert await store.table("new") is None
    assert await store.private_tables(["w", "new"]) == {}
