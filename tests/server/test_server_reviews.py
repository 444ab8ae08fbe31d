"""The server's reviews of finished matches (:mod:`cardhall.server.reviews`): made for a player of the
match as an offline job, stored, identical to the library's review of the record, and refused to
everyone else and before the match is over."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cardhall.review import REVIEW_VERSION, review
from cardhall.server.reviews import MAX_PENDING_PER_ADDRESS, MAX_PENDING_PER_PERSON, Reviews, ReviewsBusy
from cardhall.store import ReviewRow, open_store
from tests.helpers import steps
from tests.server_helpers import FAST, auth, new_player, play_to_the_end, server, session

BUDGET = 3  # determinizations a decision: enough to be a review, small enough for a test
GAME = "hokm(max_hands=1)"


def finished_match(client: TestClient, token: str) -> str:
    started = client.post("/api/quickplay", json={"game": GAME, "settings": FAST}, headers=auth(token))
    assert started.status_code == 201, started.text
    table: str = started.json()["table"]
    with session(client, token) as s:
        s.send(type="join", table=table)
        play_to_the_end(s, table, s.until("table"))
    return table


def wait_for_review(client: TestClient, table: str, seat: int) -> dict[str, Any]:
    for _ in steps(f"the review of table {table}", 3000):
        answer = client.get(f"/api/tables/{table}/review?seat={seat}")
        assert answer.status_code == 200, answer.text
        status: dict[str, Any] = answer.json()
        if status["status"] != "running":
            return status
        time.sleep(0.02)
    raise AssertionError("unreachable")


@pytest.mark.slow
def test_a_player_has_any_seat_reviewed_and_the_stored_review_is_the_librarys(tmp_path: Path) -> None:
    db = tmp_path / "hall.db"
    with server(db, review_budget=BUDGET) as client:
        token = new_player(client)
        started = client.post("/api/quickplay", json={"game": GAME, "settings": FAST}, headers=auth(token))
        table = started.json()["table"]
        early = client.post(f"/api/tables/{table}/review?seat=0", json={}, headers=auth(token))
        assert (early.status_code, early.json()["error"]) == (409, "not_over")
        with session(client, token) as s:
            s.send(type="join", table=table)
            play_to_the_end(s, table, s.until("table"))
        assert client.get(f"/api/tables/{table}/review?seat=0").json() == {"status": "none"}
        asked = client.post(f"/api/tables/{table}/review?seat=0", json={}, headers=auth(token))
        assert asked.status_code == 202 and asked.json() == {"status": "running"}
        done = wait_for_review(client, table, 0)
        record = client.get(f"/api/tables/{table}/record").json()
        assert done == {"status": "done", "review": review(record, 0, BUDGET, 0)}
        again = client.post(f"/api/tables/{table}/review?seat=0", json={}, headers=auth(token))
        assert again.status_code == 200 and again.json() == done  # stored: no second job
        # a bot's seat too: the player may see how the bots played
        bots_seat = client.post(f"/api/tables/{table}/review?seat=1", json={}, headers=auth(token))
        assert bots_seat.status_code == 202
        assert wait_for_review(client, table, 1)["review"]["seat"] == 1
    with server(db) as client:  # kept over a restart, read by anyone
        assert client.get(f"/api/tables/{table}/review?seat=0").json() == done


@pytest.mark.slow
def test_a_review_is_refused_to_those_who_did_not_play_and_for_a_bad_seat_or_table() -> None:
    with server(review_budget=BUDGET) as client:
        ann = new_player(client, "Ann")
        table = finished_match(client, ann)
        bob = new_player(client, "Bob")
        url = f"/api/tables/{table}/review"
        refusals = [
            (client.post(f"{url}?seat=0", json={}), 401, "not_authenticated"),
            (client.post(f"{url}?seat=0", json={}, headers=auth("forged")), 401, "bad_token"),
            (client.post(f"{url}?seat=0", json={}, headers=auth(bob)), 403, "not_a_player"),
            (client.post(url, json={}, headers=auth(ann)), 400, "bad_request"),
            (client.post(f"{url}?seat=3", json={}, headers=auth(ann)), 400, "bad_request"),
            (client.post(f"{url}?seat=x", json={}, headers=auth(ann)), 400, "bad_request"),
            (client.get(f"{url}?seat=-1"), 400, "bad_request"),
            (client.post("/api/tables/no/review?seat=0", json={}, headers=auth(ann)), 404, "no_such_table"),
            (client.get("/api/tables/no/review?seat=0"), 404, "no_such_table"),
        ]
        for response, status, code in refusals:
            assert (response.status_code, response.json()["error"]) == (status, code), response.request.url
        assert client.get(f"{url}?seat=0").json() == {"status": "none"}  # nothing was started


class NeverDone(Executor):
    """A pool whose jobs never finish: reviews stay pending."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        return Future()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_a_person_has_at_most_a_few_reviews_pending() -> None:
    store = await open_store("sqlite+aiosqlite:///:memory:")
    reviews = Reviews(store, BUDGET, pool=NeverDone())
    record: dict[str, Any] = {"game": GAME, "seed": 1, "actions": []}
    try:
        for n in range(MAX_PENDING_PER_PERSON):
            assert await reviews.start(f"t{n}", 0, person=1, record=record) == {"status": "running"}
        assert await reviews.start("t0", 0, person=1, record=record) == {"status": "running"}  # joins it
        with pytest.raises(ReviewsBusy) as refused:
            await reviews.start("t9", 0, person=1, record=record)
        assert refused.value.per_person
        assert await reviews.start("t9", 0, person=2, record=record) == {"status": "running"}
        assert len(reviews.jobs) == MAX_PENDING_PER_PERSON + 1
    finally:
        await reviews.stop()
        await asyncio.sleep(0)
        await store.close()


class Stored:
    """A store holding two reviews of seat 0: table t1's made by version 1, t2's by today's."""

    async def stored_review(self, table_id: str, seat: int) -> ReviewRow | None:
        version = {"t1": 1, "t2": REVIEW_VERSION}.get(table_id)
        return None if version is None else ReviewRow(table_id, seat, BUDGET, 0, {"review_version": version})


@pytest.mark.anyio
async def test_a_review_of_an_older_version_counts_as_none_and_is_made_anew() -> None:
    """A review stored before ``review_version`` 2 lacks what the page now shows (a better move only where
    it is clearly better, the interval): it is not served; asked for, a new one is made."""
    reviews = Reviews(Stored(), BUDGET, pool=NeverDone())  # type: ignore[arg-type]
    record: dict[str, Any] = {"game": GAME, "seed": 1, "actions": []}
    try:
        assert await reviews.status("t1", 0) == {"status": "none"}
        assert (await reviews.status("t2", 0))["status"] == "done"
        assert await reviews.start("t1", 0, person=1, record=record) == {"status": "running"}
    finally:
        await reviews.stop()
        await asyncio.sleep(0)


@pytest.mark.anyio
async def test_one_address_cannot_fill_the_queue_and_addresses_take_turns() -> None:
    """Issue 47: sixteen guests of one address filled the server's whole queue of reviews and everyone
    else was told ``reviews_busy`` for minutes. An address holds a few places; the jobs waiting run one
    address's turn after another, so a newcomer's review comes after the one running, not after all of
    the first address's."""
    started: list[str] = []
    finish: dict[str, asyncio.Event] = {}

    async def runner(payload: dict[str, Any]) -> dict[str, Any]:
        name = payload["record"]["name"]
        started.append(name)
        finish[name] = asyncio.Event()
        await finish[name].wait()
        return {"review_version": REVIEW_VERSION}

    store = await open_store("sqlite+aiosqlite:///:memory:")
    reviews = Reviews(store, BUDGET, runner=runner)

    def record(name: str) -> dict[str, Any]:
        return {"game": GAME, "seed": 1, "actions": [], "name": name}

    try:
        for k in range(MAX_PENDING_PER_ADDRESS):  # (a different guest each time: the person's cap is not it)
            await reviews.start(f"a{k}", 0, person=100 + k, record=record(f"a{k}"), address="203.0.113.7")
        with pytest.raises(ReviewsBusy) as refused:
            await reviews.start("a9", 0, person=199, record=record("a9"), address="203.0.113.7")
        assert refused.value.per_person and "address" in str(refused.value)
        await reviews.start("b0", 0, person=2, record=record("b0"), address="198.51.100.2")
        for _ in range(MAX_PENDING_PER_ADDRESS + 1):
            while len(started) == len([e for e in finish.values() if e.is_set()]):
                await asyncio.sleep(0)
            finish[started[-1]].set()
        assert started == ["a0", "b0", "a1", "a2", "a3"], started
    finally:
        await reviews.stop()
        await asyncio.sleep(0)
        await store.close()
