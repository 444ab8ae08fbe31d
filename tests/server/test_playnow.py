"""Play now on the in-process server (issue 49): people pressing it for one pool are seated together,
bots fill what nobody comes for after the bound, they may leave the queue, a blocked pair never sits
together, and a dropped connection leaves the queue after the grace of a table's away timer."""

from __future__ import annotations

import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cardhall.server import matching
from tests.server_helpers import FAST, auth, new_player, play_until, server, session

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


def test_a_block_made_after_hello_and_the_seek_then_at_once_still_keeps_the_pair_apart() -> None:
    """What a seek reads of a person (his blocks) is read at the seek, not at his hello: Bob, connected
    before he blocks Ann, blocks her and presses Play now at once; Ann waits already."""
    with server() as client:
        short_bound(client)
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        ann_id = player_id(client, ann)
        with session(client, ann) as a, session(client, bob) as b:
            seek(a)
            assert client.post(f"/api/blocks/{ann_id}", headers=auth(bob), json={}).status_code == 200
            seek(b)
            seated_a, seated_b = a.until("seated"), b.until("seated")
            assert seated_a["table"] != seated_b["table"]


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


def test_a_person_takes_a_bots_seat_at_the_next_deal_and_a_player_may_not_seek_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The matcher waits 3 s for people before a bot's seat: here as long as the bound, so Bob's seat is
    # given in the wave where he is due his bots (a bot's seat comes first, its table's next deal
    # unknown: any bound passes).
    monkeypatch.setattr(matching, "TAKEOVER_AFTER", BOUND)
    with server() as client:
        short_bound(client, BOUND)
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        with session(client, ann) as a, session(client, bob) as b:
            seek(a, "now", game="hokm(max_hands=3)")
            table = a.until("seated")["table"]
            a.send(type="join", table=table)
            frame = a.until("table")
            # a player at a match under way may not wait for another
            again = a.error(type="seek", game="hokm", settings=FAST, choice="now")
            assert again["code"] == "already_playing"
            seek(b, game="hokm(max_hands=3)")
            promised = b.until("seated")  # (a bot's seat, his from the next deal: he watches till then)
            assert promised["table"] == table and promised["next_deal"] is True
            seats_before = seats_of(client, table)
            assert [s["kind"] for s in seats_before] == ["person", "bot", "bot"]
            assert b.error(type="join", table=table)["code"] == "seat_taken"
            assert b.error(type="seek", game="hokm", settings=FAST)["code"] == "already_playing"
            b.send(type="watch", table=table)
            assert b.until("table")["you"] is None

            def bob_sat(f: dict[str, Any]) -> bool:
                return any(e["type"] == "seat" and "replaces" in e for e in f.get("events", []))

            frame = play_until(a, table, frame, bob_sat)
            taken = next(e for e in frame["events"] if e["type"] == "seat" and "replaces" in e)
            assert taken["name"] == "Bob" and taken["replaces"]["kind"] == "bot"
            assert taken["seat"] == promised["seat"]
            seats = seats_of(client, table)
            assert [s["kind"] for s in seats].count("person") == 2 and seats[taken["seat"]]["name"] == "Bob"
            assert b.until("table", you=taken["seat"])["status"] == "playing"  # (his watching connection)
            assert b.error(type="seek", game="hokm", settings=FAST)["code"] == "already_playing"
            # both leave: the stand-ins play the match out; its replay says who held Bob's seat when
            a.send(type="leave", table=table)
            b.send(type="leave", table=table)
            for _ in range(500):
                if client.get(f"/api/tables/{table}").json()["status"] == "finished":
                    break
                time.sleep(0.02)
            replay = client.get(f"/api/tables/{table}/replay", params={"count": 1}).json()
            held = replay["seats"][taken["seat"]]
            assert held["name"] == "Bob" and held["before"] == seats_before[taken["seat"]]["bot"]
            record = client.get(f"/api/tables/{table}/record").json()
            assert 0 < held["since"] < len(record["actions"])


def test_a_person_who_left_a_table_in_its_first_deal_waits_behind_as_a_leaver() -> None:
    with server() as client:
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        ann_id = player_id(client, ann)
        play_now = client.app.state.ctx.play_now  # type: ignore[attr-defined]
        portal = client.portal
        assert portal is not None

        def leaves(player: int) -> int:
            async def seeker() -> Any:
                rows = await play_now.ctx.store.players([player])
                return await play_now.seeker(rows[player], "hokm", "after_wait")

            found: int = portal.call(seeker).leaves
            return found

        assert leaves(ann_id) == 0
        with session(client, ann) as a, session(client, bob) as b:
            seek(a, "now", game="hokm(max_hands=3)")
            table = a.until("seated")["table"]
            a.send(type="join", table=table)
            a.until("table")
            a.send(type="leave", table=table)
            a.send(type="ping", id="p")  # (leave has no reply: the pong comes after it)
            a.until("pong", ref="p")
            seek(b, "now", game="hokm(max_hands=3)")  # (someone else's table: nobody left it)
            b.until("seated")
        for _ in range(100):  # (the note is written beside the leave, not in its transaction)
            if leaves(ann_id):
                break
            time.sleep(0.02)
        assert leaves(ann_id) == 1 and leaves(player_id(client, bob)) == 0


def test_a_person_who_leaves_play_now_gives_up_the_bots_seat_he_was_promised(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(matching, "TAKEOVER_AFTER", 0.0)
    with server() as client:
        short_bound(client, 30)
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        with session(client, ann) as a, session(client, bob) as b:
            seek(a, "now", game="hokm(max_hands=3)")
            table = a.until("seated")["table"]
            a.send(type="join", table=table)
            frame = a.until("table")
            seek(b, game="hokm(max_hands=3)")
            assert b.until("seated")["next_deal"] is True
            b.send(type="unseek", id="u")
            assert b.until("unseeked", ref="u")["pool"] is not None

            def second_deal(f: dict[str, Any]) -> bool:
                return any(e["type"] == "deal" and e["deal"] == 2 for e in f.get("events", []))

            frame = play_until(a, table, frame, second_deal)
            assert not any(e["type"] == "seat" and "replaces" in e for e in frame["events"])
            assert [s["kind"] for s in seats_of(client, table)] == ["person", "bot", "bot"]
            seek(b, "now", game="hokm")  # (free to wait again)
            assert b.until("seated")["table"] != table


def test_a_play_now_table_every_person_left_offers_no_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(matching, "TAKEOVER_AFTER", 0.0)
    with server() as client:
        short_bound(client)
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        with session(client, ann) as a, session(client, bob) as b:
            seek(a, "now", game="hokm")
            table = a.until("seated")["table"]
            a.send(type="join", table=table)
            frame = a.until("table")

            def second_deal(f: dict[str, Any]) -> bool:
                return any(e["type"] == "deal" and e["deal"] == 2 for e in f.get("events", []))

            play_until(a, table, frame, second_deal)
            a.send(type="leave", table=table)  # (after the first deal: the stand-in plays on)
            a.send(type="ping", id="p")
            a.until("pong", ref="p")
            assert client.get(f"/api/tables/{table}").json()["status"] == "playing"
            seek(b, game="hokm")
            seated = b.until("seated")
            assert seated["table"] != table and not seated["next_deal"]


def test_a_play_now_table_brought_back_by_a_restart_still_offers_its_bots_seats(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(matching, "TAKEOVER_AFTER", 0.0)
    db = tmp_path / "hall.db"
    with server(db) as client:
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        with session(client, ann) as a:
            seek(a, "now", game="hokm(max_hands=3)", away_seconds=60)
            table = a.until("seated")["table"]
            a.send(type="join", table=table)
            a.until("table")
    with server(db) as client:  # (the same store: the table comes back, as Play now's)
        short_bound(client, 30)
        host = client.app.state.ctx.lobby.hosts[table]  # type: ignore[attr-defined]
        assert host.play_now is not None and host.row.play_now == host.play_now
        with session(client, bob) as b:
            seek(b, game="hokm(max_hands=3)", away_seconds=60)  # (Ann's pool)
            promised = b.until("seated")
            assert promised["table"] == table and promised["next_deal"] is True
