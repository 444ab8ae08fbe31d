"""A real server process (``cardhall serve`` on uvicorn, SQLite file) killed with SIGKILL in the middle
of a match and started again: the table is back as it was, its players resume their seats with the
same view, and the match plays on to a record that replays."""

from __future__ import annotations

import contextlib
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

import cardhall
from cardhall.loadclient import connect
from tests.helpers import steps
from tests.server_helpers import free_port, http, running_server

# A real `cardhall serve`, killed and started again.
pytestmark = [
    pytest.mark.process,
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX"),
]


class Player:
    """A websocket client at one table (the shared client, cardhall.loadclient), keeping its newest
    frame."""

    def __init__(self, stack: contextlib.ExitStack, port: int, token: str, table: str) -> None:
        self.table = table
        self.frame: dict[str, Any] = {}
        self.client = stack.enter_context(connect(port, token))

    def send(self, **message: Any) -> None:
        self.client.send(**message)

    def until(self, done: Any, timeout: float = 20) -> dict[str, Any]:
        def seen(frame: dict[str, Any]) -> bool:
            if frame["type"] in ("table", "update") and frame.get("table") == self.table:
                self.frame = frame
            return bool(done(frame))

        return self.client.wait(seen, timeout)

    def drain(self) -> None:
        """Read what has arrived (waiting a little for more)."""
        with contextlib.suppress(TimeoutError):
            while True:
                self.until(lambda f: False, timeout=0.05)

    def join(self, seat: int, since: int = 0) -> dict[str, Any]:
        self.send(type="join", table=self.table, seat=seat, since=since)
        return self.until(lambda f: f["type"] == "table")


def settle(players: list[Player]) -> tuple[int, Player | None]:
    """Read until the table waits for one of ``players`` (its bot has moved) or the match is over:
    the table's number, and who is to act (None when it is over)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for p in players:
            p.drain()
        newest = max(p.frame.get("n", 0) for p in players)
        for p in players:
            if p.frame.get("n") == newest and p.frame.get("status") == "finished":
                return newest, None
            if p.frame.get("n") == newest and p.frame.get("legal"):
                return newest, p
    raise AssertionError("the table stopped moving")


def play_one(players: list[Player], table: str) -> bool:
    """The person to act plays his first legal action; False when the match is over."""
    n, mover = settle(players)
    if mover is None:
        return False
    mover.send(type="act", table=table, action=mover.frame["legal"][0]["action"], n=n)
    mover.until(lambda f: f["type"] == "update" and f["n"] > n)
    return True


def test_a_table_killed_mid_match_comes_back_identical(tmp_path: Path) -> None:
    db, port = tmp_path / "cardhall.db", free_port()
    with running_server(db, port) as process, contextlib.ExitStack() as stack:
        ann = http(port, "POST", "/api/players", {"name": "Ann"})["token"]
        bob = http(port, "POST", "/api/players", {"name": "Bob"})["token"]
        settings = {"bot_pace_ms": 0, "turn_seconds": 0, "away_seconds": 600}
        body = {"game": "hokm(max_hands=2)", "settings": settings, "bots": {"2": "normal"}}
        table = http(port, "POST", "/api/tables", body, ann)["table"]
        players = [Player(stack, port, ann, table), Player(stack, port, bob, table)]
        players[0].join(0)
        players[1].join(1)
        players[0].until(lambda f: f.get("status") == "playing")
        for _ in range(12):  # a dozen moves by the people, the bot's between them
            play_one(players, table)
        n, _ = settle(players)
        before = [p.join(seat) for seat, p in enumerate(players)]  # each seat's whole view now
        assert all(b["n"] == n for b in before)
        process.send_signal(signal.SIGKILL)
        process.wait()
        for p in players:
            with pytest.raises(ConnectionClosed):  # the server is gone mid-match
                p.until(lambda f: False)

    with running_server(db, port), contextlib.ExitStack() as stack:
        assert [t["table"] for t in http(port, "GET", "/api/tables")["running"]] == [table]
        players = [Player(stack, port, ann, table), Player(stack, port, bob, table)]
        after = [p.join(seat) for seat, p in enumerate(players)]
        for b, a in zip(before, after, strict=True):
            assert a["n"] == b["n"] and a["you"] == b["you"]
            assert a["observation"] == b["observation"] and a["legal"] == b["legal"]
            assert a["events"] == b["events"]  # every event, numbered and redacted as before
            assert [s["name"] for s in a["seats"]] == [s["name"] for s in b["seats"]]
        for _ in steps(f"table {table} after the restart"):
            if not play_one(players, table):
                break
        record = http(port, "GET", f"/api/tables/{table}/record")
        assert cardhall.replay(record).is_over
