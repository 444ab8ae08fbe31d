"""The hall's views that are not one table's, on two real ``cardhall serve`` processes sharing one
PostgreSQL and one Redis that the test run starts: a person's own tables (the lobby's "your tables"
and its your-turn badge) and the operator's listing seen from a process that does not own the table,
friends' presence and the tables they sit at, and an invitation delivered to a friend connected to
another process; and a private table moved to another process (its owner killed or stopped) that
still refuses anyone without its invitation and seats the invited person with it."""

from __future__ import annotations

import json
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.cluster_helpers import SETTINGS, Client, Node, hall, new_table, play
from tests.postgres import PostgresServer
from tests.server_helpers import http

pytestmark = [
    pytest.mark.process,
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX"),
]
GAME = "hokm(max_hands=2)"
ADMIN = "the-operators-token-0123456789"


def answer(port: int, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    """An HTTP answer's status and JSON body, an error's included."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def person(port: int, name: str) -> tuple[str, int]:
    made = http(port, "POST", "/api/players", {"name": name})
    return made["token"], made["id"]


def eventually(check: Callable[[], Any], what: str, timeout: float = 10) -> Any:
    """``check()``'s first true answer within ``timeout`` seconds (the hall's views are a beat behind
    at most)."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"never true: {what} (last: {found!r})")
        time.sleep(0.2)


def socket(port: int, token: str) -> ClientConnection:
    # (entered as a context manager, which websockets asks for; closed by the test)
    ws = connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10).__enter__()
    ws.send(json.dumps({"type": "hello", "token": token}))
    until(ws, lambda f: f["type"] == "welcome")
    return ws


def until(
    ws: ClientConnection, wanted: Callable[[dict[str, Any]], bool], timeout: float = 15
) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError("the frame waited for never came")
        frame: dict[str, Any] = json.loads(ws.recv(timeout=left))
        if wanted(frame):
            return frame


def mine(port: int, token: str, table: str) -> dict[str, Any] | None:
    found = http(port, "GET", "/api/players/me/tables", token=token)["tables"]
    return next((t for t in found if t["table"] == table), None)


@contextmanager
def operated_hall(tmp_path: Path, postgres: PostgresServer, redis_url: str) -> Iterator[list[Node]]:
    """Two processes of one hall whose operator's token is :data:`ADMIN`."""
    token_file = tmp_path / "admin-token"
    token_file.write_text(ADMIN + "\n")
    with hall(
        tmp_path, postgres.create_database(), redis_url, 2, "--admin-token-file", str(token_file)
    ) as nodes:
        yield nodes


def test_your_tables_and_the_turn_badge_are_the_same_through_either_process(
    tmp_path: Path, postgres: PostgresServer, redis_url: str
) -> None:
    with hall(tmp_path, postgres.create_database(), redis_url, 2) as (a, b):
        (ann, _), (bob, _) = person(a.port, "Ann"), person(a.port, "Bob")
        table = new_table(a.port, ann, GAME, {"2": "easy"})  # made on a: a owns it
        clients = [Client(a.port, ann, table, 0), Client(b.port, bob, table, 1)]
        for c in clients:
            c.connect()
        play(clients, lambda: all(c.frame.get("status") == "playing" for c in clients))
        turns_seen = 0
        for _ in range(4):
            for c in clients:
                # a owns the table: its answer is as the table is, once the client has seen all of it.
                here = eventually(
                    lambda c=c: c.pump(0.1) and (e := mine(a.port, c.token, table)) and e["n"] == c.n and e,  # type: ignore[misc]
                    f"seat {c.seat}'s view and a's answer at the same event",
                )
                waits = c.seat in c.frame.get("to_act", [])
                assert here["you"] == c.seat and here["your_turn"] == waits, (here, c.frame.get("to_act"))
                assert here["status"] == "playing" and "private" not in here
                # b does not own it: its answer comes from a's seated index, a beat behind at most.
                eventually(
                    lambda c=c, here=here: mine(b.port, c.token, table) == here,  # type: ignore[misc]
                    f"b's answer for seat {c.seat} is a's: {here}",
                )
                turns_seen += waits
            moved = [c for c in clients if c.move()]
            assert moved, "nobody's turn: the badge was not tested"
            play(clients, lambda: all(c.pending is None for c in clients))
        assert turns_seen >= 4


def test_the_operator_sees_every_table_of_the_hall_from_either_process(
    tmp_path: Path, postgres: PostgresServer, redis_url: str
) -> None:
    with operated_hall(tmp_path, postgres, redis_url) as (a, b):
        (ann, _), (bob, _) = person(a.port, "Ann"), person(b.port, "Bob")
        on_a = new_table(a.port, ann, GAME, {"1": "easy", "2": "easy"})  # starts at once (Ann joins)
        on_b = new_table(b.port, bob, GAME, {"2": "easy"})
        ann_client = Client(a.port, ann, on_a, 0)
        ann_client.connect()
        play([ann_client], lambda: ann_client.n > 0)
        for node in (a, b):
            listed = {
                t["table"]: t for t in http(node.port, "GET", "/api/admin/tables", token=ADMIN)["tables"]
            }
            assert set(listed) == {on_a, on_b}, node.name
            assert listed[on_a]["node"] == a.name and listed[on_b]["node"] == b.name
            assert listed[on_a]["status"] == "playing" and listed[on_b]["status"] == "waiting"
            assert listed[on_a]["actions"] >= 0 and listed[on_b]["actions"] == 0
            assert listed[on_a]["seats"][0]["player"] is not None
        # Stopped through b, which does not hold it: its owner a stops it and says so.
        status, stopped = answer(
            b.port, "POST", f"/api/admin/tables/{on_a}/stop", {"reason": "closing"}, ADMIN
        )
        assert status == 200 and stopped["table"] == on_a and stopped["status"] == "abandoned", stopped
        assert stopped["node"] == a.name
        play([ann_client], lambda: "stopped" in ann_client.kinds)
        status, again = answer(b.port, "POST", f"/api/admin/tables/{on_a}/stop", {}, ADMIN)
        assert (status, again["error"]) == (409, "table_over"), again
        status, none = answer(b.port, "POST", "/api/admin/tables/nosuch/stop", {}, ADMIN)
        assert (status, none["error"]) == (404, "no_such_table"), none


def test_friends_online_and_their_tables_and_invitations_reach_across_processes(
    tmp_path: Path, postgres: PostgresServer, redis_url: str
) -> None:
    with hall(tmp_path, postgres.create_database(), redis_url, 2) as (a, b):
        (ann, ann_id), (bob, bob_id) = person(a.port, "Ann"), person(b.port, "Bob")
        assert http(a.port, "POST", f"/api/friends/{bob_id}/request", {}, ann)["status"] == "requested"
        assert http(b.port, "POST", f"/api/friends/{ann_id}/accept", {}, bob)["status"] == "friends"
        table = new_table(a.port, ann, GAME, {"2": "easy"})  # Ann's, on a
        ann_ws = socket(a.port, ann)  # Ann is connected to a only
        ann_ws.send(json.dumps({"type": "join", "table": table}))
        until(ann_ws, lambda f: f["type"] == "table")

        def ann_as_bob_sees_her(port: int) -> dict[str, Any] | None:
            friends = http(port, "GET", "/api/friends", token=bob)["friends"]
            return next((f for f in friends if f["id"] == ann_id and f["online"] and f["tables"]), None)

        for node in (a, b):
            seen = eventually(lambda node=node: ann_as_bob_sees_her(node.port), f"Ann online on {node.name}")  # type: ignore[misc]
            assert [(t["table"], t["status"], t["seat"]) for t in seen["tables"]] == [(table, "waiting", 0)]

        # Bob, on b, invites Ann to his table: the invitation reaches her socket on a.
        bobs = new_table(b.port, bob, GAME, {"2": "easy"})
        status, sent = answer(b.port, "POST", "/api/invitations", {"table": bobs, "player": ann_id}, bob)
        assert status == 200 and sent == {"delivered": 1}, sent
        invited = until(ann_ws, lambda f: f["type"] == "invited")
        assert invited["table"] == bobs and invited["from"]["id"] == bob_id

        # And Ann inviting Bob from b to her table on a (not held by b) is refused only as it should be:
        # Bob is not connected anywhere.
        status, refused = answer(b.port, "POST", "/api/invitations", {"table": table, "player": bob_id}, ann)
        assert (status, refused["error"]) == (409, "not_online"), refused

        ann_ws.close()  # she leaves: nobody sees her online, through either process
        for node in (a, b):
            eventually(
                lambda node=node: (
                    not any(  # type: ignore[misc]
                        f["online"] for f in http(node.port, "GET", "/api/friends", token=bob)["friends"]
                    )
                ),
                f"Ann offline on {node.name}",
            )


def take_over(gone: Node, signal_name: str, other: Node) -> None:
    if signal_name == "SIGKILL":
        gone.kill()
    else:
        gone.term()
    eventually(lambda: http(other.port, "GET", "/healthz/ready")["tables"] == 1, "the table taken", 20)


@pytest.mark.parametrize("signal_name", ["SIGKILL", "SIGTERM"])
def test_a_private_table_moved_to_another_process_stays_private(
    tmp_path: Path, postgres: PostgresServer, redis_url: str, signal_name: str
) -> None:
    with hall(tmp_path, postgres.create_database(), redis_url, 2) as (a, b):
        (ann, _), (bob, _), (eve, _) = person(a.port, "Ann"), person(a.port, "Bob"), person(a.port, "Eve")
        made = http(
            a.port,
            "POST",
            "/api/private-tables",
            {"game": GAME, "settings": SETTINGS, "bots": {"2": "easy"}},
            ann,
        )
        table, invitation = made["table"], made["invitation"]
        take_over(a, signal_name, b)
        assert table not in [t["table"] for t in http(b.port, "GET", "/api/tables")["open"]]
        assert answer(b.port, "GET", f"/api/tables/{table}")[0] == 404
        eve_ws, bob_ws = socket(b.port, eve), socket(b.port, bob)
        for kind in ("watch", "join"):
            eve_ws.send(json.dumps({"type": kind, "table": table, "id": 1}))
            refusal = until(eve_ws, lambda f: f["type"] in ("error", "table"))
            assert refusal["type"] == "error" and refusal["code"] == "no_such_table", refusal
        eve_ws.send(json.dumps({"type": "watch", "table": table, "invitation": "x" * 22}))
        assert until(eve_ws, lambda f: f["type"] in ("error", "table"))["code"] == "no_such_table"
        bob_ws.send(json.dumps({"type": "join", "table": table, "invitation": invitation}))
        seated = until(bob_ws, lambda f: f["type"] in ("error", "table"))
        assert seated["type"] == "table" and seated["you"] is not None, seated
        # Its link is still Ann's to ask for, from the new owner.
        link = http(b.port, "GET", f"/api/private-tables/{table}/invitation", token=ann)
        assert link["invitation"] == invitation
        eve_ws.close()
        bob_ws.close()


def test_quick_play_through_one_process_is_played_and_listed_through_another(
    tmp_path: Path, postgres: PostgresServer, redis_url: str
) -> None:
    """Quick play seats one person with bots (README): his table is the answering process's, and he
    plays it and finds it among his tables through any other."""
    with hall(tmp_path, postgres.create_database(), redis_url, 2) as (a, b):
        ann, _ = person(a.port, "Ann")
        made = http(
            b.port, "POST", "/api/quickplay", {"game": GAME, "level": "easy", "settings": SETTINGS}, ann
        )
        table = made["table"]
        assert made["you"] == 0 and http(b.port, "GET", "/healthz/ready")["tables"] == 1
        client = Client(a.port, ann, table, 0)
        client.connect()
        play([client], lambda: len(client.acked) >= 2)
        shown = eventually(
            lambda: (e := mine(a.port, ann, table)) and client.pump(0.1) and e["n"] == client.n and e,
            "Ann's quick play among her tables on a, as she sees it",
        )
        assert shown["you"] == 0 and shown["your_turn"] == (0 in client.frame.get("to_act", []))


def test_a_ban_through_one_process_closes_the_connections_on_another(
    tmp_path: Path, postgres: PostgresServer, redis_url: str
) -> None:
    with operated_hall(tmp_path, postgres, redis_url) as (a, b):
        (ann, ann_id), (mod, mod_id) = person(a.port, "Ann"), person(b.port, "Mod")
        http(b.port, "POST", "/api/admin/moderators", {"player": mod_id}, ADMIN)
        ann_ws = socket(a.port, ann)  # on a only
        eventually(lambda: answer(b.port, "GET", f"/api/players/{ann_id}")[0] == 200, "Ann known")
        status, banned = answer(
            b.port, "POST", "/api/moderation/ban", {"player": ann_id, "reason": "spam"}, mod
        )
        assert status == 200 and banned["closed"] == 1, banned
        told = until(ann_ws, lambda f: f["type"] == "error")
        assert told["code"] == "banned"
        with pytest.raises(ConnectionClosed) as closed:
            ann_ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4003
