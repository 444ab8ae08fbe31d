"""A table's chat is kept (issue 46, D9): whoever arrives at a table (a reload, a new visit, a person
coming later; the waiting room is the same table) gets its last lines, oldest first, except those of the
people he blocks; a table brought back after a restart reads them from the store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server_helpers import auth, new_player, new_table, server, session

CHAT_HISTORY = 50  # protocol.CHAT_HISTORY (docs/protocol.md, limits)


def said(frames: list[dict[str, Any]], table: str) -> list[str]:
    return [f["text"] for f in frames if f["type"] == "chat" and f["table"] == table]


def arrive(client: Any, token: str, table: str, how: str = "join") -> list[str]:
    """What a new connection of ``token`` is told was said at ``table`` when it arrives."""
    with session(client, token) as s:
        s.send(type=how, table=table)
        s.until("table")
        s.send(type="ping", id="after")
        s.until("pong", ref="after")
        return said(s.frames, table)


def test_a_reload_and_a_later_visitor_find_what_was_said() -> None:
    with server() as client:
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        table = new_table(client, ann, "hokm")  # a waiting room
        with session(client, ann) as a:
            a.send(type="join", table=table)
            a.until("table")
            for text in ("hello", "anyone?"):
                a.send(type="chat", table=table, text=text)
                a.until("chat", text=text)
        assert arrive(client, ann, table) == ["hello", "anyone?"]  # Ann reloads her page
        assert arrive(client, bob, table, "watch") == ["hello", "anyone?"]  # Bob comes later
        with session(client, bob) as b:
            b.send(type="join", table=table)
            b.until("table")
            b.send(type="chat", table=table, text="hi Ann")
            b.until("chat", text="hi Ann")
            b.send(type="join", table=table)  # a second join of one connection: nothing again
            b.until("table")
            b.send(type="ping", id="again")
            b.until("pong", ref="again")
            assert said(b.frames, table) == ["hello", "anyone?", "hi Ann"]
        lines = [f for f in client.app.state.ctx.lobby.host(table).chat_lines]  # type: ignore[attr-defined]
        assert [(f.sender, f.guest) for f in lines] == [("Ann", True), ("Ann", True), ("Bob", True)]


def test_the_lines_of_someone_one_blocks_are_not_sent_on_arrival() -> None:
    with server() as client:
        ann, bob, cem = new_player(client, "Ann"), new_player(client, "Bob"), new_player(client, "Cem")
        table = new_table(client, ann, "hokm")
        for token, text in ((ann, "from Ann"), (cem, "from Cem")):
            with session(client, token) as s:
                s.send(type="watch", table=table)
                s.until("table")
                s.send(type="chat", table=table, text=text)
                s.until("chat", text=text)
        ann_id = client.get("/api/players/me", headers=auth(ann)).json()["id"]
        assert client.post(f"/api/blocks/{ann_id}", json={}, headers=auth(bob)).status_code == 200
        assert arrive(client, bob, table, "watch") == ["from Cem"]
        assert arrive(client, cem, table, "watch") == ["from Ann", "from Cem"]


def test_only_the_last_lines_are_sent() -> None:
    with server() as client:
        ann = new_player(client, "Ann")
        table = new_table(client, ann, "hokm")
        with session(client, ann) as a:
            a.send(type="join", table=table)
            a.until("table")
            for k in range(CHAT_HISTORY + 5):
                a.send(type="chat", table=table, text=f"line {k}")
            a.until("chat", text=f"line {CHAT_HISTORY + 4}")
        assert arrive(client, ann, table) == [f"line {k}" for k in range(5, CHAT_HISTORY + 5)]


def test_a_table_brought_back_after_a_restart_has_its_chat(tmp_path: Path) -> None:
    db = tmp_path / "hall.db"
    with server(db) as client:
        ann = new_player(client, "Ann")
        table = new_table(client, ann, "hokm")
        with session(client, ann) as a:
            a.send(type="join", table=table)
            a.until("table")
            a.send(type="chat", table=table, text="before the restart")
            a.until("chat")
    with server(db) as client:
        with session(client, ann) as a:
            a.send(type="join", table=table)
            a.until("table")
            line = a.until("chat")
        assert line["text"] == "before the restart" and line["from"] == "Ann" and line["guest"] is True
