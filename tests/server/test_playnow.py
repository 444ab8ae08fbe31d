"""Play now on the in-process server (issue 49): people pressing it for one pool are seated together,
bots fill what nobody comes for after the bound, they may leave the queue, a blocked pair never sits
together, and a dropped connection leaves the queue after the grace of a table's away timer."""

from __future__ import annotations

import time
from contextlib import ExitStack
from typing import Any

from starlette.testclient import TestClient

from tests.server_helpers import FAST, auth, new_player, server, session

BOUND = 0.6  # the bound before bots (seconds): the server's default 10 s, made short here


def short_bound(client: TestClient, seconds: float = BOUND) -> None:
    client.app.state.ctx.play_now.bot_wait = seconds  # type: ignore[attr-defined]


def seek(s: Any, choice: str = "after_wait", game: str = "hokm", **settings: Any) -> dict[str, Any]:
    s.send(type="seek", id="s", game=game, settings={**FAST, **settings}, choice=choice)
    frame: dict[str, Any] = s.until("seeking", ref="s")
    return frame


def player_id(client: TestClient, token: str) -> int:
    found: int = client.get("/api/players/me", headers=auth(token)).json()["id"]
    return found


def seats_of(client: TestClient, table: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = client.get(f"/api/tables/{table}").json()["seats"]
    return found


def test_two_people_meet_at_one_table_with_a_bot_in_the_third_seat_after_the_bound() -> None:
    with server() as client:
        short_bound(client)
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        with session(client, ann) as a, session(client, bob) as b:
            first = seek(a)
            assert first["waiting"] == 1 and first["seats"] == 3 and first["game"] == "hokm"
            assert 0 < first["bots_in"] <= BOUND
            started = time.monotonic()
            second = seek(b)
            assert second["waiting"] == 2
            assert "ref" not in a.until("seeking", waiting=2)  # (told when Bob came)
            listed = client.get("/api/playnow").json()["pools"]
            assert [(p["game"], p["waiting"]) for p in listed] == [("hokm", 2)]
            seated_a, seated_b = a.until("seated"), b.until("seated")
            assert time.monotonic() - started >= BOUND * 0.5  # (bots only once Ann's bound was up)
            assert seated_a["table"] == seated_b["table"]
            assert (seated_a["seat"], seated_b["seat"]) == (0, 1)  # in the order they waited
            seats = seats_of(client, seated_a["table"])
            assert [s["kind"] for s in seats] == ["person", "person", "bot"]
            assert [s["name"] for s in seats[:2]] == ["Ann", "Bob"]
            a.send(type="join", table=seated_a["table"])
            assert a.until("table")["you"] == 0
            assert client.get("/api/playnow").json()["pools"] == []


def test_three_people_make_a_table_of_people_without_a_bot() -> None:
    with server() as client:
        short_bound(client, 30)  # (no bot could come in time: the three fill the table)
        tokens = [new_player(client, name) for name in ("Ann", "Bob", "Cy")]
        with ExitStack() as stack:
            sessions = [stack.enter_context(session(client, t)) for t in tokens]
            for s in sessions:
                seek(s)
            seated = [s.until("seated") for s in sessions]
            assert len({f["table"] for f in seated}) == 1
            assert sorted(f["seat"] for f in seated) == [0, 1, 2]
            seats = seats_of(client, seated[0]["table"])
            assert [s["kind"] for s in seats] == ["person"] * 3


def test_with_bots_now_seats_at_once_and_a_person_may_leave_the_queue() -> None:
    with server() as client:
        short_bound(client, 30)
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        with session(client, ann) as a, session(client, bob) as b:
            assert seek(a, "people_only")["bots_in"] is None
            a.send(type="unseek", id="u")
            left = a.until("unseeked", ref="u")
            assert left["reason"] == "left" and left["pool"] is not None
            assert client.get("/api/playnow").json()["pools"] == []
            a.send(type="unseek", id="again")
            assert a.until("unseeked", ref="again")["pool"] is None
            seek(b, "now")
            seated = b.until("seated")
            assert [s["kind"] for s in seats_of(client, seated["table"])] == ["person", "bot", "bot"]
            a.send(type="ping", id="p")
            a.until("pong", ref="p")
            assert not any(f["type"] == "seated" for f in a.frames)  # (Ann left: never seated)


def test_a_blocked_pair_is_never_seated_together() -> None:
    with server() as client:
        short_bound(client)
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        bob_id = player_id(client, bob)
        assert client.post(f"/api/blocks/{bob_id}", headers=auth(ann), json={}).status_code == 200
        with session(client, ann) as a, session(client, bob) as b:
            seek(a)
            seek(b)
            seated_a, seated_b = a.until("seated"), b.until("seated")
            assert seated_a["table"] != seated_b["table"]
            for frame in (seated_a, seated_b):
                assert [s["kind"] for s in seats_of(client, frame["table"])] == ["person", "bot", "bot"]


def test_the_refusals_of_seek() -> None:
    with server() as client:
        token = new_player(client)
        with session(client, token) as s:
            assert s.error(type="seek", game="hokm", choice="soon")["code"] == "bad_choice"
            assert s.error(type="seek", game="nosuchgame")["code"] == "bad_game"
            assert s.error(type="seek", game="hokm", settings={"turn_seconds": -1})["code"] == "bad_game"
            assert s.error(type="seek", game="hokm", level="godlike")["code"] == "bad_request"
            assert client.get("/api/playnow").json()["pools"] == []
        with session(client, None) as s:
            assert s.error(type="seek", game="hokm")["code"] == "not_authenticated"


def test_a_dropped_connection_leaves_the_queue_after_the_grace_unless_he_comes_back() -> None:
    with server() as client:
        short_bound(client, 30)
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        with session(client, ann) as a:
            seek(a, "people_only", away_seconds=1)
        with session(client, bob) as b:
            seek(b, "people_only", away_seconds=1)
            time.sleep(0.3)
        with session(client, bob):  # (Bob comes back within the grace: he keeps his place)
            assert [p["waiting"] for p in client.get("/api/playnow").json()["pools"]] == [2]
            time.sleep(1.5)
            pools = client.get("/api/playnow").json()["pools"]
            assert [p["waiting"] for p in pools] == [1]  # (Ann stayed away: she is out)
        time.sleep(1.5)
        assert client.get("/api/playnow").json()["pools"] == []
