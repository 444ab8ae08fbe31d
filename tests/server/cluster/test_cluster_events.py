"""Tournaments in a hall of two real ``cardhall serve`` processes on one PostgreSQL and one Redis (issue
50): the process that directs an event (under a lease on the event's row) is killed (SIGKILL) in the
middle of a duplicate event; the other process takes the lease once it lapses and goes on from the
store: every round is played, every table of the event finishes and counts, and the standings read
from either the survivor or a fresh process are the same."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from tests.cluster_helpers import hall
from tests.postgres import PostgresServer
from tests.server_helpers import http

pytestmark = [
    pytest.mark.process,
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX"),
]
# Nobody connects: a stand-in plays each person's seat from the start (away 0), bots at once.
SETTINGS = {"bot_pace_ms": 0, "turn_seconds": 0, "away_seconds": 0}


def director(db: str, event: str) -> str | None:
    async def read() -> str | None:
        engine = create_async_engine(db)
        try:
            async with engine.connect() as c:
                row = (
                    await c.execute(text("SELECT director FROM events WHERE id = :e"), {"e": event})
                ).first()
                return None if row is None else row[0]
        finally:
            await engine.dispose()

    return asyncio.run(read())


def wait_for(what: str, check: Any, seconds: float = 120.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.25)
    raise AssertionError(f"waited {seconds:g} s for {what}")


def test_killing_the_directors_process_mid_event_loses_no_round_and_no_standing(
    tmp_path: Path, postgres: PostgresServer, redis_url: str
) -> None:
    db = postgres.create_database()
    with hall(tmp_path, db, redis_url, 2) as nodes:
        a = nodes[0]
        ann = http(a.port, "POST", "/api/players", {"name": "Ann"})["token"]
        others = [http(a.port, "POST", "/api/players", {"name": n})["token"] for n in ("Bob", "Cy")]
        body = {"kind": "duplicate", "game": "gin(players=2)", "rounds": 4, "deals": 1, "starts_in": 0}
        event = http(a.port, "POST", "/api/events", {**body, "settings": SETTINGS}, ann)
        for token in others:
            http(a.port, "POST", f"/api/events/{event['id']}/join", {"token": event["token"]}, token)
        path = f"/api/events/{event['id']}?token={event['token']}"
        wait_for("round 1", lambda: (http(a.port, "GET", path)["round"] or 0) >= 1)
        name = wait_for("a director", lambda: director(db, event["id"]))
        killed = next(n for n in nodes if n.name == name)
        survivor = next(n for n in nodes if n.name != name)
        before = http(survivor.port, "GET", path)
        assert before["status"] == "running" and before["round"] < 4, before  # (killed mid-event)
        killed.kill()
        done = wait_for(
            "the event's end on the survivor",
            lambda: (d := http(survivor.port, "GET", path))["status"] == "finished" and d,
            180.0,
        )
        assert director(db, event["id"]) in (None, survivor.name)
        rounds = sorted({t["round"] for t in done["tables"]})
        assert rounds == [1, 2, 3, 4]
        assert all(t["status"] == "finished" for t in done["tables"]), done["tables"]
        assert len(done["tables"]) == 8  # two tables a round (3 people at tables of 2: one bot)
        # Every person played (and is counted for) every round: nothing of the killed process was lost.
        assert sorted(s["tables"] for s in done["standings"]) == [4, 4, 4]
        killed.start()  # (a fresh process of the hall reads the same standings from the store)
        assert http(killed.port, "GET", path)["standings"] == done["standings"]
