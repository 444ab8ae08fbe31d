"""What a guest (or a script) may not do to the server, and what the operator may: simultaneous rematches
make one table; no table of bots alone; no match beyond the server's bounds, and a cap on actions per
table; rates per person and per address (creating players and tables, websocket messages, reconnecting
included) with 429 and ``Retry-After``; a cap on waiting tables; the operator's ``cardhall admin``."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import cardhall
from cardhall.cli import main
from cardhall.server import bounds, rates
from cardhall.server.context import ServerContext
from cardhall.server.rates import Buckets, Limiter, Limits, Rate, address_key
from cardhall.store import SeatRow, TableRow
from cardhall.store.sql import open_store
from tests.server_helpers import (
    FAST,
    Watcher,
    auth,
    free_port,
    http,
    new_player,
    new_table,
    running_server,
    server,
    server_log,
    session,
)

NEVER = 0.001  # a rate that refills nothing a test could wait for (one token every 1,000 s)
ADMIN = "operator-token-" + "x" * 24


def until_status(client: TestClient, table: str, status: str) -> dict[str, Any]:
    """The table's summary once it has ``status`` (a generous ceiling for a loaded machine)."""
    deadline = time.monotonic() + 120
    while True:
        summary: dict[str, Any] = client.get(f"/api/tables/{table}").json()
        if summary["status"] == status:
            return summary
        assert time.monotonic() < deadline, summary
        time.sleep(0.02)


def quick(client: TestClient, token: str, game: str = "hokm(max_hands=1)", **settings: Any) -> Any:
    return client.post(
        "/api/quickplay",
        json={"game": game, "level": "easy", "settings": {**FAST, **settings}},
        headers=auth(token),
    )


# --- rematch races -------------------------------------------------------------------------------


def test_simultaneous_rematches_from_the_players_of_a_match_make_one_table() -> None:
    """Each request found no rematch yet, then awaited the store before recording its own table: four
    players asking at once made four tables. (Now the first opens an offer and the others accept it:
    the last acceptance makes the one table.)"""

    async def scenario() -> tuple[list[str | None], list[str], int]:
        store = await open_store("sqlite+aiosqlite:///:memory:")
        ctx = ServerContext(store)
        await ctx.start()
        try:
            people = [(await store.create_player(name))[0] for name in ("Ann", "Bob", "Cy", "Dee")]
            # Nobody connects to a seat: the stand-ins play the match at once (away_seconds 0).
            host = await ctx.lobby.create(
                people[0],
                "hearts(decks=1,players=4,max_hands=1)",
                {**FAST, "away_seconds": 0},
                people=dict(enumerate(people)),
            )
            watcher = Watcher(people[0])  # keeps the finished table in memory, and hears its rematch
            await host.call(lambda: host.watch(watcher, 0))
            for _ in range(12_000):  # (a ceiling: the stand-ins finish in well under a second)
                if host.row.status == "finished":
                    break
                await asyncio.sleep(0.01)
            assert host.row.status == "finished"
            made = await asyncio.gather(*(ctx.lobby.rematch(p, host.id) for p in people))
            again = await asyncio.gather(*(ctx.lobby.rematch(p, host.id) for p in people))
            rematches = [h.id for h in ctx.lobby.hosts.values() if h.row.rematch_of == host.id]
            told = sum(1 for f in watcher.frames if f["type"] == "rematch" and f["new"])
            return [f.new for f in (*made, *again)], rematches, told
        finally:
            await ctx.stop()

    answers, rematches, told = asyncio.run(scenario())
    assert len(rematches) == 1, f"{len(rematches)} tables made"
    assert answers == [None, None, None, *rematches * 5]  # the last acceptance makes it; then the same
    assert told == 1  # the old table's connections hear of one new table


# --- no table of bots alone -------------------------------------------------------------------------


def test_a_table_with_a_bot_in_every_seat_is_refused() -> None:
    with server() as client:
        token = new_player(client)
        body = {"game": "hokm", "settings": FAST, "bots": {"0": "easy", "1": "easy", "2": "easy"}}
        response = client.post("/api/tables", json=body, headers=auth(token))
        assert response.status_code == 400 and response.json()["error"] == "no_person", response.text
        assert "person" in response.json()["message"]
        assert client.get("/api/tables").json() == {"open": [], "running": []}
        assert quick(client, token).status_code == 201  # a person and bots: played


def test_a_bot_that_would_fill_the_last_seat_with_no_person_is_refused() -> None:
    with server() as client:
        ann = new_player(client)
        table = new_table(client, ann, "hokm", {1: "easy"})
        with session(client, ann) as a:  # the creator, seated nowhere: watching
            a.send(type="watch", table=table)
            a.until("table")
            a.send(type="bot", table=table, seat=0, level="easy")  # not the last seat: seated
            a.until_seat(0, kind="bot")
            a.send(type="bot", table=table, seat=2, level="easy", id=9)
            refused = a.receive()
            while refused["type"] != "error" and refused.get("status") != "playing":
                refused = a.receive()  # (the seats' update of the first bot, or the match of bots)
            assert refused["type"] == "error", "a match of bots alone started"
            assert refused["code"] == "no_person" and refused["ref"] == 9
            assert "seat 2" in refused["message"]
            summary = client.get(f"/api/tables/{table}").json()
            assert summary["status"] == "waiting"
            assert [s["kind"] for s in summary["seats"]] == ["bot", "bot", "empty"]
            a.send(type="join", table=table)  # a person takes the last seat: the match starts
            assert a.until("table", table=table, you=2)["status"] == "playing"


# --- match lengths ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "named"),
    [
        ("hokm(target=1000000000)", "target"),
        ("hokm(target=1501)", "target"),
        ("hearts(target=451)", "target"),
        ("gin(target=301)", "target"),
        ("svara(stack=5000000,ante=10000)", "stack / ante"),
        ("svara(stack=3010)", "stack / ante"),
    ],
)
def test_a_match_beyond_the_servers_bounds_is_refused(game: str, named: str) -> None:
    with server() as client:
        token = new_player(client)
        for route, body in (
            ("/api/tables", {"game": game, "settings": FAST}),
            ("/api/quickplay", {"game": game, "settings": FAST}),
        ):
            response = client.post(route, json=body, headers=auth(token))
            assert response.status_code == 400, (route, response.text)
            assert response.json()["error"] == "bad_game" and named in response.json()["message"]
        assert client.get("/api/tables").json() == {"open": [], "running": []}


@pytest.mark.parametrize(
    "game",
    [
        "hokm(target=1500)",
        "hearts(target=450)",
        "gin(target=300)",
        "svara(stack=3000)",
        "kierki",
        "hokm(max_hands=999)",
    ],
)
def test_a_match_within_the_bounds_is_accepted(game: str) -> None:
    with server() as client:
        new_table(client, new_player(client), game)


def test_a_table_that_reaches_the_cap_on_actions_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Easy bots in Hokm drift below zero and never reach the target: without a cap the table played
    (and stored) actions for as long as the server ran."""
    monkeypatch.setitem(bounds.MAX_ACTIONS, "hokm", 30)
    with server() as client:
        ann = new_player(client)
        table = quick(client, ann, "hokm", away_seconds=0).json()["table"]
        with session(client, ann) as a:
            a.send(type="watch", table=table)
            frame = a.until("table")
            while frame["type"] != "stopped":
                assert frame.get("n", 0) < 400, "the table plays on"
                frame = a.receive()
            assert frame["table"] == table and "30 actions" in frame["reason"] and frame["n"] > 30
            update = a.until("update", table=table)
            assert update["status"] == "abandoned" and update["legal"] == []
        assert client.get(f"/api/tables/{table}").json()["status"] == "abandoned"
        assert len(client.get(f"/api/tables/{table}/record").json()["actions"]) == 30


def test_a_stored_match_beyond_the_bounds_comes_back_and_stops_at_the_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``hokm(target=1000000000)`` stored before the bounds came back after a restart, and played on."""
    monkeypatch.setitem(bounds.MAX_ACTIONS, "hokm", 40)
    db = tmp_path / "cardhall.db"

    async def store_it() -> tuple[str, str]:
        store = await open_store(f"sqlite+aiosqlite:///{db}")
        try:
            ann, token = await store.create_player("Ann")
            seats = [
                SeatRow(0, "person", "Ann", ann.id),
                *(SeatRow(s, "bot", "random", None, "random") for s in (1, 2)),
            ]
            settings = {**FAST, "away_seconds": 0, "turn_seconds": 60, "stand_in": "rules"}
            game = "hokm(target=1000000000)"
            version = cardhall.load_game(game).rules_version
            row = TableRow("long1234", game, version, 7, settings, seats, "playing", ann.id)
            await store.save_table(row)
            return row.id, token
        finally:
            await store.close()

    table, token = asyncio.run(store_it())
    with server(db) as client, session(client, token) as a:
        a.send(type="watch", table=table)
        frame = a.until("table")
        while frame["type"] != "stopped":
            assert frame.get("n", 0) < 400, "the table plays on"
            frame = a.receive()
        assert until_status(client, table, "abandoned")["table"] == table
    with server(db) as client:  # stopped for good: not brought back
        assert client.get("/api/tables").json() == {"open": [], "running": []}


# --- rates: HTTP ----------------------------------------------------------------------------------


def refused(response: Any) -> None:
    """``response`` is a refusal for a rate: 429, ``rate_limited``, and a whole number of seconds to wait."""
    assert response.status_code == 429 and response.json()["error"] == "rate_limited", response.text
    assert int(response.headers["Retry-After"]) >= 1


def test_new_players_are_rated_per_address() -> None:
    with server(limits=Limits(players_per_address=Rate(NEVER, 3))) as client:
        for _ in range(5):  # refused names cost nothing
            assert client.post("/api/players", json={"name": ""}).status_code == 400
        tokens = [new_player(client, f"p{k}") for k in range(3)]
        response = client.post("/api/players", json={"name": "p3"})
        refused(response)
        assert "address" in response.json()["message"]
        assert client.get("/api/players/me", headers=auth(tokens[0])).status_code == 200


def test_new_tables_are_rated_per_player_and_quick_play_counts() -> None:
    with server(limits=Limits(tables_per_player=Rate(NEVER, 3))) as client:
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        new_table(client, ann, "hokm")
        assert quick(client, ann).status_code == 201
        new_table(client, ann, "svara")
        refused(client.post("/api/tables", json={"game": "hokm"}, headers=auth(ann)))
        refused(quick(client, ann))
        assert len(client.get("/api/tables").json()["open"]) == 2  # the refused ones made nothing
        new_table(client, bob, "hokm")  # another player has his own


def test_new_tables_are_rated_per_address() -> None:
    with server(limits=Limits(tables_per_address=Rate(NEVER, 3))) as client:
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        new_table(client, ann, "hokm")
        new_table(client, ann, "hokm")
        new_table(client, bob, "hokm")
        response = client.post("/api/tables", json={"game": "hokm"}, headers=auth(bob))
        refused(response)
        assert "address" in response.json()["message"]


def test_a_player_owns_few_waiting_tables_at_once() -> None:
    """One guest made 1,000 waiting tables in 4 s."""
    with server(limits=Limits(waiting_tables_per_player=2)) as client:
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        first = new_table(client, ann, "hokm")
        new_table(client, ann, "kierki")
        response = client.post("/api/tables", json={"game": "hokm"}, headers=auth(ann))
        assert response.status_code == 409 and response.json()["error"] == "too_many_tables"
        assert len(client.get("/api/tables").json()["open"]) == 2
        assert quick(client, ann).status_code == 201  # starts at once: not waiting
        new_table(client, bob, "hokm")
        with session(client, ann) as a:  # one of hers is given up: room for another
            a.send(type="join", table=first)
            a.until("table")
            a.send(type="leave", table=first)
            a.send(type="ping", id="left")
            a.until("pong", ref="left")
        assert client.get(f"/api/tables/{first}").json()["status"] == "abandoned"
        new_table(client, ann, "hokm")


def test_a_player_keeps_few_unfinished_tables_going_at_once() -> None:
    """Quick plays he leaves are played to the end by stand-ins: without a cap a guest kept any number
    going."""
    with server(limits=Limits(unfinished_tables_per_player=2), admin_token=ADMIN) as client:
        ann = new_player(client)
        first = quick(client, ann, "hokm").json()["table"]
        assert quick(client, ann, "kierki").status_code == 201
        for response in (
            quick(client, ann),
            client.post("/api/tables", json={"game": "hokm"}, headers=auth(ann)),
        ):
            assert response.status_code == 409 and response.json()["error"] == "too_many_tables", (
                response.text
            )
        assert len(client.get("/api/tables").json()["running"]) == 2
        client.post(f"/api/admin/tables/{first}/stop", json={}, headers=auth(ADMIN))  # one is over
        assert quick(client, ann).status_code == 201


def test_a_rematch_that_makes_a_table_counts_as_a_new_table() -> None:
    with server(limits=Limits(tables_per_player=Rate(NEVER, 1))) as client:
        ann = new_player(client)
        table = quick(client, ann, away_seconds=0).json()["table"]
        with session(client, ann) as a:
            a.send(type="watch", table=table)
            a.until("update", table=table, status="finished")
            a.send(type="rematch", table=table, id=5)
            answer = a.receive()
            while answer.get("ref") != 5:
                answer = a.receive()
            assert answer["type"] == "error" and answer["code"] == "rate_limited", answer
        assert client.get("/api/tables").json()["running"] == []


# --- rates: websocket messages -------------------------------------------------------------------


def pings(s: Any, count: int) -> tuple[int, int]:
    """Send ``count`` pings and read their answers: how many pongs, how many ``rate_limited``."""
    for k in range(count):
        s.send(type="ping", id=k)
    answers = [s.receive() for _ in range(count)]
    limited = sum(1 for f in answers if f["type"] == "error" and f["code"] == "rate_limited")
    return sum(1 for f in answers if f["type"] == "pong"), limited


def test_a_player_reconnecting_gets_no_fresh_messages() -> None:
    """Each connection had its own bucket only: reconnecting every 60 messages accepted 21,677 messages a
    second."""
    with server(limits=Limits(messages_per_player=Rate(NEVER, 50))) as client:
        token = new_player(client)
        accepted = limited = 0
        for _ in range(6):  # 15 messages a connection: within the connection's own burst (40)
            with session(client, token) as s:
                ok, no = pings(s, 15)
                accepted, limited = accepted + ok, limited + no
        assert accepted == 50 and limited == 40
        other = new_player(client, "Bob")  # another player from the same address has his own
        with session(client, other) as s:
            assert pings(s, 5) == (5, 0)


def test_a_players_connections_share_his_rate() -> None:
    with server(limits=Limits(messages_per_player=Rate(NEVER, 30))) as client:
        token = new_player(client)
        with session(client, token) as one, session(client, token) as two:
            first, second = pings(one, 20), pings(two, 20)
        assert first == (20, 0) and second == (10, 10)


def test_an_address_has_one_rate_for_all_its_players() -> None:
    limits = Limits(messages_per_address=Rate(NEVER, 40), messages_per_player=None)
    with server(limits=limits) as client:
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        with session(client, ann) as a, session(client, bob) as b:  # (their hellos: 2 of the 40)
            first, second = pings(a, 30), pings(b, 20)
        assert first == (30, 0) and second == (8, 12)


def test_a_connections_own_rate_is_a_setting() -> None:
    # Limits.messages_per_connection: 5 at once here; unpaced() lifts it (what the other tests run with).
    only_connection = Limits(messages_per_player=None, messages_per_address=None)
    limits = replace(only_connection, messages_per_connection=Rate(NEVER, 5))
    with server(limits=limits) as client, session(client, new_player(client)) as s:  # (hello: 1 of 5)
        assert pings(s, 10) == (4, 6)
    with server(limits=Limits().unpaced()) as client, session(client, new_player(client)) as s:
        assert pings(s, 300) == (300, 0)  # beyond every default rate: the connection's is 40 at once


def test_a_flood_across_connections_is_still_closed() -> None:
    with server(limits=Limits(messages_per_player=Rate(NEVER, 10))) as client:
        token = new_player(client)
        with session(client, token) as s:
            for k in range(30):  # (within the connection's own burst)
                s.send(type="ping", id=k)
            s.send(type="ping", id="end")  # (answered only if the connection was not closed)
            with pytest.raises(WebSocketDisconnect) as closed:
                while s.receive().get("ref") != "end":
                    pass
            assert closed.value.code == 1008
            assert sum(1 for f in s.frames if f["type"] == "pong") == 10


# --- the buckets -----------------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_idle_buckets_expire_and_their_number_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    buckets = Buckets(Rate(1.0, 5), "tests")
    for key in range(1000):
        buckets.take(key, clock())
    assert len(buckets) == 1000
    clock.now += 5  # a whole burst refilled: every bucket is full, the same as none
    buckets.take("new", clock())
    assert len(buckets) == 1
    monkeypatch.setattr(rates, "MAX_KEYS", 10)
    for key in range(100):
        buckets.take(key, clock())
    assert len(buckets) == 10


def test_a_refused_request_takes_nothing_from_any_bucket() -> None:
    clock = Clock()
    limiter = Limiter(Limits(messages_per_player=Rate(1.0, 2), messages_per_address=Rate(1.0, 3)), clock)
    limiter.message(1, "10.0.0.1")
    limiter.message(1, "10.0.0.1")
    with pytest.raises(rates.RateLimited) as caught:
        limiter.message(1, "10.0.0.1")  # the player's bucket is empty: the address's is left alone
    assert caught.value.retry_after == pytest.approx(1.0)
    limiter.message(2, "10.0.0.1")
    with pytest.raises(rates.RateLimited):
        limiter.message(3, "10.0.0.1")  # now the address's is empty
    clock.now += 1
    limiter.message(1, "10.0.0.1")  # waiting as told gets through


def test_an_ipv6_client_counts_by_its_network() -> None:
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7" == address_key("192.0.2.7")
    assert address_key(None) == "?" and address_key("testclient") == "testclient"


# --- the operator ----------------------------------------------------------------------------------


def test_the_operator_lists_and_stops_tables_and_everyone_at_a_stopped_table_is_told(tmp_path: Path) -> None:
    db = tmp_path / "cardhall.db"
    with server(db, admin_token=ADMIN) as client:
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        table = quick(client, ann, "hokm", turn_seconds=0).json()["table"]
        waiting = new_table(client, bob, "svara")
        with session(client, ann) as a, session(client, bob) as b:
            a.send(type="join", table=table)
            a.until("table")
            b.send(type="watch", table=table)
            b.until("table")
            listed = client.get("/api/admin/tables", headers=auth(ADMIN)).json()["tables"]
            entry = next(t for t in listed if t["table"] == table)
            assert {t["table"] for t in listed} == {table, waiting}
            assert entry["status"] == "playing" and entry["connections"] == 2 and entry["actions"] >= 0
            stop = f"/api/admin/tables/{table}/stop"
            response = client.post(stop, json={"reason": "  back in five minutes "}, headers=auth(ADMIN))
            assert response.status_code == 200 and response.json()["status"] == "abandoned", response.text
            for s in (a, b):
                told = s.until("stopped")
                assert told == {
                    "type": "stopped",
                    "table": table,
                    "n": told["n"],
                    "reason": "back in five minutes",
                }
                update = s.until("update", table=table)
                assert update["status"] == "abandoned" and update["legal"] == [] and update["to_act"] == []
            acting = a.error(type="act", table=table, action=0, n=update["n"])
            assert acting["code"] == "table_over"
            again = client.post(stop, json={}, headers=auth(ADMIN))
            assert again.status_code == 409 and again.json()["error"] == "table_over"
        assert client.get(f"/api/tables/{table}").json()["status"] == "abandoned"
        assert (
            client.post(f"/api/admin/tables/{waiting}/stop", json={}, headers=auth(ADMIN)).status_code == 200
        )
        assert client.get(f"/api/tables/{waiting}").json()["status"] == "abandoned"
    with server(db, admin_token=ADMIN) as client:  # stopped for good: not brought back
        assert client.get("/api/tables").json() == {"open": [], "running": []}


@pytest.mark.parametrize(
    ("token", "status", "code"),
    [
        (None, 401, "not_authenticated"),
        ("wrong-token-" + "y" * 20, 403, "not_admin"),
        ("player", 403, "not_admin"),
    ],
)
def test_only_the_operator_may_use_the_admin_routes(token: str | None, status: int, code: str) -> None:
    with server(admin_token=ADMIN) as client:
        ann = new_player(client)
        table = new_table(client, ann, "hokm")
        headers = {} if token is None else auth(ann if token == "player" else token)
        for response in (
            client.get("/api/admin/tables", headers=headers),
            client.post(f"/api/admin/tables/{table}/stop", json={}, headers=headers),
        ):
            assert response.status_code == status and response.json()["error"] == code, response.text
        assert client.get(f"/api/tables/{table}").json()["status"] == "waiting"


def test_a_server_without_an_admin_token_has_no_operator() -> None:
    with server() as client:
        response = client.get("/api/admin/tables", headers=auth(ADMIN))
        assert response.status_code == 403 and "no admin token" in response.json()["message"]


@pytest.mark.parametrize(
    ("table", "body", "status", "code"),
    [
        ("nosuch12", {}, 404, "no_such_table"),
        (None, {"reason": ""}, 400, "bad_message"),
        (None, {"reason": "x" * 201}, 400, "bad_message"),
        (None, {"why": "x"}, 400, "bad_message"),
    ],
)
def test_a_bad_stop_is_refused_and_stops_nothing(
    table: str | None, body: dict[str, Any], status: int, code: str
) -> None:
    with server(admin_token=ADMIN) as client:
        mine = new_table(client, new_player(client), "hokm")
        response = client.post(f"/api/admin/tables/{table or mine}/stop", json=body, headers=auth(ADMIN))
        assert response.status_code == status and response.json()["error"] == code, response.text
        assert client.get(f"/api/tables/{mine}").json()["status"] == "waiting"


def test_cardhall_admin_lists_and_stops_the_tables_of_a_running_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, port = tmp_path / "cardhall.db", free_port()
    token_file = tmp_path / "admin-token"
    token_file.write_text(ADMIN + "\n")
    monkeypatch.delenv("CARDHALL_ADMIN_TOKEN", raising=False)
    url = f"http://127.0.0.1:{port}"
    with running_server(db, port, "--admin-token-file", str(token_file)):
        ann = http(port, "POST", "/api/players", {"name": "Ann"})["token"]
        table = http(port, "POST", "/api/quickplay", {"game": "hokm", "settings": FAST}, ann)["table"]
        assert main(["admin", "--server", url, "--token-file", str(token_file), "tables"]) == 0
        out = capsys.readouterr().out
        assert table in out and "playing" in out and "1 tables" in out
        monkeypatch.setenv("CARDHALL_ADMIN_TOKEN", ADMIN)  # the token from the environment
        assert main(["admin", "--server", url, "tables", "--json"]) == 0
        assert [t["table"] for t in json.loads(capsys.readouterr().out)] == [table]
        assert main(["admin", "--server", url, "stop", table, "--reason", "maintenance"]) == 0
        assert "abandoned" in capsys.readouterr().out
        assert http(port, "GET", f"/api/tables/{table}")["status"] == "abandoned"
        assert main(["admin", "--server", url, "stop", table]) == 2  # once is enough
        assert "no_such_table" in capsys.readouterr().err  # (stopped, watched by nobody: left memory)
        monkeypatch.setenv("CARDHALL_ADMIN_TOKEN", "wrong-token-" + "z" * 20)
        assert main(["admin", "--server", url, "tables"]) == 2
        assert "not_admin" in capsys.readouterr().err
        monkeypatch.delenv("CARDHALL_ADMIN_TOKEN")
        assert main(["admin", "--server", url, "tables"]) == 2
        assert "no admin token" in capsys.readouterr().err
    assert ADMIN not in server_log(db).read_text(errors="replace")  # never shown
    assert main(["admin", "--server", url, "--token-file", str(token_file), "tables"]) == 2
    assert "cannot reach" in capsys.readouterr().err


def test_a_short_admin_token_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    short = tmp_path / "short"
    short.write_text("secret\n")
    assert main(["serve", "--admin-token-file", str(short), "--port", "1"]) == 2
    assert "shorter than 16" in capsys.readouterr().err
