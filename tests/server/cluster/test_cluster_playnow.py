"""Play now in a hall of two real ``cardhall serve`` processes on one PostgreSQL and one Redis (issue 49):
the queue is the hall's (Redis), so two people connected to two processes are seated together, each
told through presence on his own process; and a process killed (SIGKILL) after it led a pool's waves
loses nobody: its people are still in the queue, the other process takes the pool's lead once the lease
lapses and seats them."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from cardhall.loadclient import connect
from cardhall.server.playnow import WAIT_VARIABLE
from tests.cluster_helpers import hall
from tests.postgres import PostgresServer
from tests.server_helpers import http

pytestmark = [
    pytest.mark.process,
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX"),
]
SETTINGS = {"bot_pace_ms": 0, "turn_seconds": 0, "away_seconds": 600}
WAIT = 20.0  # seconds a frame may take to come (a loaded machine)


def player(port: int, name: str) -> str:
    token: str = http(port, "POST", "/api/players", {"name": name})["token"]
    return token


def test_two_people_on_two_processes_meet_at_one_table(
    tmp_path: Path, postgres: PostgresServer, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(WAIT_VARIABLE, "2")
    with hall(tmp_path, postgres.create_database(), redis_url, 2) as (a, b):
        ann, bob = player(a.port, "Ann"), player(b.port, "Bob")
        with connect(a.port, ann) as on_a, connect(b.port, bob) as on_b:
            on_a.send(type="seek", id="s", game="hokm", settings=SETTINGS)
            on_a.wait(lambda f: f["type"] == "seeking" and f.get("ref") == "s", WAIT)
            on_b.send(type="seek", id="s", game="hokm", settings=SETTINGS)
            assert on_b.wait(lambda f: f["type"] == "seeking" and f.get("ref") == "s", WAIT)["waiting"] == 2
            # (the pool is the hall's: either process lists both)
            assert [p["waiting"] for p in http(a.port, "GET", "/api/playnow")["pools"]] == [2]
            seated_a = on_a.wait(lambda f: f["type"] == "seated", WAIT)
            seated_b = on_b.wait(lambda f: f["type"] == "seated", WAIT)
            assert seated_a["table"] == seated_b["table"]
            assert {seated_a["seat"], seated_b["seat"]} == {0, 1}
            table = seated_a["table"]
            on_b.send(type="join", table=table)  # (through b to the table's owner, wherever it is)
            frame = on_b.wait(lambda f: f["type"] == "table" and f["table"] == table, WAIT)
            assert frame["you"] == seated_b["seat"]
            assert [s["kind"] for s in frame["seats"]] == ["person", "person", "bot"]
            # Playing there, neither may wait for another table, whichever process holds his socket:
            # the table's own, or the other (the hall's seated index, a beat behind at most).
            for port, token, client in ((a.port, ann, on_a), (b.port, bob, on_b)):
                deadline = time.monotonic() + WAIT
                while not any(
                    t["table"] == table and t["status"] == "playing"
                    for t in http(port, "GET", "/api/players/me/tables", token=token)["tables"]
                ):
                    assert time.monotonic() < deadline, "the seated index never showed the table"
                    time.sleep(0.1)
                client.send(type="seek", id="again", game="hokm", settings=SETTINGS)
                refused = client.wait(lambda f: f.get("ref") == "again", WAIT)
                assert refused["type"] == "error" and refused["code"] == "already_playing", refused


def test_a_process_killed_after_leading_a_pool_loses_nobody(
    tmp_path: Path, postgres: PostgresServer, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(WAIT_VARIABLE, "600")  # (people only: no bots come into it)
    with hall(tmp_path, postgres.create_database(), redis_url, 2) as (a, b):
        ann, bob, cy = player(a.port, "Ann"), player(b.port, "Bob"), player(b.port, "Cy")
        seek = {"type": "seek", "id": "s", "game": "hokm", "settings": SETTINGS, "choice": "people_only"}
        with connect(a.port, ann) as on_a:
            on_a.send(**seek)  # (a's waves run the pool: a poked first)
            on_a.wait(lambda f: f["type"] == "seeking" and f.get("ref") == "s", WAIT)
            with connect(b.port, bob) as on_b:
                on_b.send(**seek)
                on_b.wait(lambda f: f["type"] == "seeking" and f.get("ref") == "s", WAIT)
                a.kill()
                killed = time.monotonic()
                with connect(b.port, ann) as ann_again, connect(b.port, cy) as on_cy:  # (Ann comes back on b)
                    pools = http(b.port, "GET", "/api/playnow")["pools"]
                    assert [p["waiting"] for p in pools] == [2]  # (nobody lost with a)
                    on_cy.send(**seek)
                    seated = [c.wait(lambda f: f["type"] == "seated", WAIT) for c in (ann_again, on_b, on_cy)]
                    assert len({f["table"] for f in seated}) == 1
                    assert sorted(f["seat"] for f in seated) == [0, 1, 2]
                    print(f"seated {time.monotonic() - killed:.1f} s after the kill")
