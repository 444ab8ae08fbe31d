"""A seat is played through the connection that joined it, never through the player's other connections
(issue 47: a planted bug that took the seat from the table's record, not from the connection, went
unnoticed). A person seated at a table on one connection opens a second one that only watches the table,
and a third that never joined it: an ``act`` from either is refused (``not_seated``) and nothing is
played; the seat's own connection then plays the same move at the same event number, which proves the
refused ones changed nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server_helpers import attach, new_player, new_table, server


def turn(frames: list[dict[str, Any]], table: str) -> dict[str, Any] | None:
    """The newest frame of ``table`` that asks its seat for a move, if the newest frame does."""
    mine = [f for f in frames if f.get("table") == table and f["type"] in ("table", "update")]
    return mine[-1] if mine and mine[-1]["legal"] else None


def test_only_the_connection_that_joined_a_seat_plays_it(tmp_path: Path) -> None:
    with server(tmp_path / "hall.db") as client:
        token = new_player(client, "Ann")
        table = new_table(client, token, "hokm", bots={1: "normal", 2: "normal"})
        with (
            client.websocket_connect("/ws") as seated_ws,
            client.websocket_connect("/ws") as watching_ws,
            client.websocket_connect("/ws") as idle_ws,
        ):
            seated, watching, idle = (attach(ws, token) for ws in (seated_ws, watching_ws, idle_ws))
            seated.send(type="join", table=table)
            you = seated.until("table", table=table)["you"]
            frame = (
                seated.frames[-1]
                if seated.frames[-1].get("legal")
                else seated.wait(lambda f: f.get("table") == table and bool(f.get("legal")))
            )
            n, move = frame["n"], frame["legal"][0]["label"]
            watching.send(type="watch", table=table)
            assert watching.until("table", table=table)["you"] is None
            for other in (watching, idle):
                # (a ping after it: its pong ends the wait, refused or not, so a bug fails at once)
                other.send(type="act", table=table, action=move, n=n, id="not-mine")
                other.send(type="ping", id="after")
                start = len(other.frames)
                other.until("pong", ref="after")
                answers = [f for f in other.frames[start:] if f.get("ref") == "not-mine"]
                assert [f.get("code") for f in answers] == ["not_seated"], other.frames[start:]
            # Nothing was played: the seat's own move at the same number is taken, not stale.
            seated.send(type="act", table=table, action=move, n=n, id="mine")
            after = seated.wait(
                lambda f: (f.get("table") == table and f.get("n", 0) > n) or f["type"] == "error"
            )
            assert after["type"] != "error", after
            played = [e for e in after.get("events", []) if e["type"] == "action"]
            assert played and played[0]["n"] == n + 1 and played[0]["seat"] == you, after
