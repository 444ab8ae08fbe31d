"""Playing with people one knows (issue 25, part B), on SQLite and PostgreSQL: private tables reached by
their link, friends (requests, answers, presence, the tables they sit at), invitations over the
websocket to whatever page a person is on, blocks, chat (its ids, rate and blocks), reports, and the
moderators' mutes and bans; and ``cardhall admin moderator`` / ``reports`` against a running server.
The attacks on all of this are in ``tests/server/test_social_attacks.py``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from cardhall.cli import main
from cardhall.server.rates import Limits, Rate
from cardhall.store import SqlStore
from tests.server.social_helpers import ADMIN, BACKENDS, Hall, hall
from tests.server_helpers import FAST, Session, attach, free_port, http, refused, running_server, store_url

NEVER = 1e-9  # a rate that does not refill within a test


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return store_url(request.param, request, tmp_path)


@pytest.fixture
def social(url: str) -> Hall:
    with hall(url) as made:
        yield made  # type: ignore[misc]


# --- private tables ---------------------------------------------------------------------------------


def test_a_private_table_is_not_listed_and_its_link_seats_the_invited(social: Hall) -> None:
    ann, bob = social.person("Ann"), social.person("Bob")
    table, invitation = social.private_table(ann)
    listing = social.client.get("/api/tables").json()
    assert table not in [t["table"] for t in listing["open"] + listing["running"]]
    refused(social.client.get(f"/api/tables/{table}"), 404, "no_such_table")
    with social.client.websocket_connect("/ws") as wa, social.client.websocket_connect("/ws") as wb:
        a, b = attach(wa, ann.token), attach(wb, bob.token)
        a.send(type="join", table=table)  # its creator needs no invitation
        assert a.until("table", table=table)["you"] == 0
        b.send(type="join", table=table, invitation=invitation)
        frame = b.until("table", table=table)
        assert frame["you"] == 1 and [s["name"] for s in frame["seats"][:2]] == ["Ann", "Bob"]
    # Both seated people read the link again; a stranger is told there is no such table.
    for who in (ann, bob):
        again = social.client.get(f"/api/private-tables/{table}/invitation", headers=who.headers).json()
        assert again == {"table": table, "invitation": invitation, "link": f"/#invite/{table}/{invitation}"}
    eve = social.person("Eve")
    refused(
        social.client.get(f"/api/private-tables/{table}/invitation", headers=eve.headers),
        404,
        "no_such_table",
    )


def test_a_full_private_table_is_watched_with_its_link(social: Hall) -> None:
    ann, bob, cid = social.person("Ann"), social.person("Bob"), social.person("Cid")
    table, invitation = social.private_table(ann, "hokm", bots={"2": "easy"})
    with social.client.websocket_connect("/ws") as wa, social.client.websocket_connect("/ws") as wb:
        a, b = attach(wa, ann.token), attach(wb, bob.token)
        a.send(type="join", table=table)
        a.until("table", table=table)
        b.send(type="join", table=table, invitation=invitation)  # the last seat: the match starts
        b.until("table", table=table, status="playing")
        with social.client.websocket_connect("/ws") as wc:
            c = attach(wc, cid.token)
            assert c.error(type="join", table=table, invitation=invitation)["code"] == "seat_taken"
            assert c.error(type="watch", table=table)["code"] == "no_such_table"
            c.send(type="watch", table=table, invitation=invitation)
            watched = c.until("table", table=table)
            assert watched["you"] is None and watched["status"] == "playing"


def test_a_private_table_stays_private_after_a_restart(url: str) -> None:
    with hall(url) as first:
        ann, bob = first.person("Ann"), first.person("Bob")
        table, invitation = first.private_table(ann)
    with hall(url) as again:
        assert table not in [t["table"] for t in again.client.get("/api/tables").json()["open"]]
        with again.client.websocket_connect("/ws") as ws:
            b = attach(ws, bob.token)
            assert b.error(type="join", table=table)["code"] == "no_such_table"
            b.send(type="join", table=table, invitation=invitation)
            assert b.until("table", table=table)["you"] == 0


class Died(Exception):
    """The end of the process, planted in its store's connection."""


@pytest.mark.parametrize("end", ["the process dies", "the store fails"])
def test_a_private_table_is_stored_with_its_invitation_or_not_at_all(url: str, end: str) -> None:
    """The process dies (or its store fails) right after a new private table's row is written, at the
    statement that stores its invitation, and nothing of it reaches the store after that. What is
    stored then is no table, or the table with its invitation: never a table without one, which a
    restart (or another process taking it over: the same restore) would bring back open to all."""
    with hall(url) as first:
        ann = first.person("Ann")
        store = first.store
        assert isinstance(store, SqlStore)
        ended = False

        def fault(*args: Any) -> None:
            nonlocal ended
            statement: str = args[2]
            ended = ended or statement.lstrip().upper().startswith("INSERT INTO PRIVATE_TABLES")
            if ended and end == "the process dies":
                raise Died("the process died (planted)")
            if ended:
                raise OSError(28, "No space left on device (planted)")

        sa.event.listen(store.engine.sync_engine, "before_cursor_execute", fault)
        body = {"game": "hokm", "settings": FAST}
        if end == "the process dies":
            with pytest.raises(Died):
                first.post("/api/private-tables", ann, body)
        else:
            refused(first.post("/api/private-tables", ann, body), 503, "store_unavailable")
            sa.event.remove(store.engine.sync_engine, "before_cursor_execute", fault)  # (back)
        assert ended  # (the invitation's statement was reached)
    with hall(url) as again:
        stored = again.read(again.store.tables, ["waiting", "playing"])
        mine = [t.id for t in stored if t.owner_id == ann.id]
        invitations = again.read(again.store.private_tables, mine)
        assert set(invitations) == set(mine), f"tables {mine} stored, invitations of {list(invitations)}"
        listing = again.client.get("/api/tables").json()
        assert listing == {"open": [], "running": []}  # nothing came back open


def test_a_rematch_of_a_private_table_is_private(social: Hall) -> None:
    ann = social.person("Ann")
    table, _ = social.private_table(ann, "hokm(max_hands=1)", bots={"1": "easy", "2": "easy"})
    from tests.server_helpers import play_to_the_end

    with social.client.websocket_connect("/ws") as ws:
        a = attach(ws, ann.token)
        a.send(type="join", table=table)
        play_to_the_end(a, table, a.until("table", table=table))
        a.send(type="rematch", table=table, id="again")
        new = a.until("rematch", ref="again")["new"]
    assert new not in [t["table"] for t in social.client.get("/api/tables").json()["running"]]
    private = social.read(social.store.private_tables, [new])
    assert set(private) == {new} and len(private[new]) == 22


# --- friends ----------------------------------------------------------------------------------------


def test_friends_request_accept_and_see_each_other_online_with_their_tables(social: Hall) -> None:
    ann, bob = social.person("Ann"), social.person("Bob")
    with social.client.websocket_connect("/ws") as wb:
        b = attach(wb, bob.token)  # Bob's lobby page: a connection at no table
        asked = social.post(f"/api/friends/{bob.id}/request", ann)
        assert asked.status_code == 201 and asked.json() == {"status": "requested"}
        assert b.until("friends") == {
            "type": "friends",
            "event": "request",
            "player": {"id": ann.id, "name": "Ann", "guest": True},
        }
        lists = social.client.get("/api/friends", headers=bob.headers).json()
        assert lists["incoming"] == [{"id": ann.id, "name": "Ann"}] and lists["friends"] == []
        assert social.client.get("/api/friends", headers=ann.headers).json()["outgoing"] == [
            {"id": bob.id, "name": "Bob"}
        ]
        assert social.post(f"/api/friends/{ann.id}/accept", bob).json() == {"status": "friends"}
        quick = social.post("/api/quickplay", bob, {"game": "hokm", "settings": FAST}).json()["table"]
        friends = social.client.get("/api/friends", headers=ann.headers).json()["friends"]
        assert friends == [
            {
                "id": bob.id,
                "name": "Bob",
                "online": True,
                "tables": [{"table": quick, "game": "hokm", "status": "playing", "seat": 0}],
            }
        ]
    # His connection closed: offline, and his tables are not shown.
    assert social.client.get("/api/friends", headers=ann.headers).json()["friends"][0]["online"] is False
    assert social.read(social.store.friends, ann.id) == [bob.id]


def test_a_request_to_someone_who_asked_first_makes_friends(social: Hall) -> None:
    ann, bob = social.person("Ann"), social.person("Bob")
    assert social.post(f"/api/friends/{bob.id}/request", ann).status_code == 201
    both = social.post(f"/api/friends/{ann.id}/request", bob)
    assert both.status_code == 201 and both.json() == {"status": "friends"}
    refused(social.post(f"/api/friends/{bob.id}/request", ann), 409, "already_friends")
    assert social.read(social.store.friend_requests, ann.id) == ([], [])


def test_refuse_and_remove(social: Hall) -> None:
    ann, bob = social.person("Ann"), social.person("Bob")
    social.post(f"/api/friends/{bob.id}/request", ann)
    refused(social.post(f"/api/friends/{bob.id}/request", ann), 409, "already_asked")
    assert social.post(f"/api/friends/{ann.id}/refuse", bob).json() == {"status": "refused"}
    refused(social.post(f"/api/friends/{ann.id}/accept", bob), 404, "no_such_request")
    social.befriend(ann, bob)
    assert social.post(f"/api/friends/{ann.id}/remove", bob).json() == {"status": "removed"}
    refused(social.post(f"/api/friends/{ann.id}/remove", bob), 403, "not_friends")
    assert social.read(social.store.friends, ann.id) == []


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("/api/friends/abc/request", 400, "bad_request"),
        ("/api/friends/999999/request", 404, "no_such_player"),
        ("/api/friends/999999/accept", 404, "no_such_player"),
        ("/api/blocks/999999", 404, "no_such_player"),
        ("/api/blocks/999999/remove", 404, "no_such_player"),
    ],
)
def test_bad_player_ids_are_refused(social: Hall, path: str, status: int, code: str) -> None:
    refused(social.post(path, social.person("Ann")), status, code)


def test_oneself_is_no_friend(social: Hall) -> None:
    ann = social.person("Ann")
    refused(social.post(f"/api/friends/{ann.id}/request", ann), 400, "bad_request")
    refused(social.post(f"/api/blocks/{ann.id}", ann), 400, "bad_request")


@pytest.mark.parametrize(
    "path", ["/api/friends", "/api/private-tables/x/invitation", "/api/moderation/reports"]
)
def test_the_social_routes_need_a_token(social: Hall, path: str) -> None:
    refused(social.client.get(path), 401, "not_authenticated")
    refused(social.client.get(path, headers={"Authorization": "Bearer nope"}), 401, "bad_token")


# --- invitations ------------------------------------------------------------------------------------


def test_an_invitation_reaches_a_friend_on_the_lobby_page_and_opens_the_private_table(social: Hall) -> None:
    ann, bob = social.person("Ann"), social.person("Bob")
    social.befriend(ann, bob)
    table, invitation = social.private_table(ann)
    with social.client.websocket_connect("/ws") as wa, social.client.websocket_connect("/ws") as wb:
        a, b = attach(wa, ann.token), attach(wb, bob.token)
        a.send(type="join", table=table)
        a.until("table", table=table)
        sent = social.post("/api/invitations", ann, {"table": table, "player": bob.id})
        assert sent.status_code == 200 and sent.json() == {"delivered": 1}
        got = b.until("invited")
        assert got == {
            "type": "invited",
            "table": table,
            "game": "hokm",
            "from": {"id": ann.id, "name": "Ann", "guest": True},
            "invitation": invitation,
        }
        b.send(type="join", table=table, invitation=got["invitation"])
        assert b.until("table", table=table)["you"] == 1


def test_an_invitation_needs_a_friend_who_is_online_and_a_live_table(social: Hall) -> None:
    ann, bob, cid = social.person("Ann"), social.person("Bob"), social.person("Cid")
    social.befriend(ann, bob)
    table = social.post("/api/quickplay", ann, {"game": "hokm", "settings": FAST}).json()["table"]
    refused(social.post("/api/invitations", ann, {"table": table, "player": bob.id}), 409, "not_online")
    refused(social.post("/api/invitations", ann, {"table": table, "player": cid.id}), 403, "not_friends")
    social.befriend(cid, bob)  # a friend of Bob's, but not at Ann's table
    refused(social.post("/api/invitations", cid, {"table": table, "player": bob.id}), 403, "not_your_table")
    refused(social.post("/api/invitations", ann, {"table": "nope", "player": bob.id}), 404, "no_such_table")
    refused(social.post("/api/invitations", ann, {"table": table}), 400, "bad_message")
    refused(social.post("/api/invitations", ann, {"table": table, "player": "Bob"}), 400, "bad_message")


# --- chat -------------------------------------------------------------------------------------------


def test_a_chat_line_names_its_speaker_and_its_id(social: Hall) -> None:
    ann = social.person("Ann")
    table = social.post("/api/quickplay", ann, {"game": "hokm", "settings": FAST}).json()["table"]
    with social.client.websocket_connect("/ws") as ws:
        a = attach(ws, ann.token)
        a.send(type="join", table=table)
        a.until("table", table=table)
        a.send(type="chat", table=table, text="  good luck ")
        line = a.until("chat")
        assert (line["from"], line["player"], line["text"]) == ("Ann", ann.id, "good luck")
        stored = social.read(social.store.chat_line, line["line"])
        assert stored is not None and (stored.text, stored.table_id) == ("good luck", table)
        assert a.error(type="chat", table=table, text="two\nlines")["code"] == "bad_message"
        assert a.error(type="chat", table=table, text="x" * 501)["code"] == "bad_message"
        a.send(type="ping", id="on")
        a.until("pong", ref="on")  # the table plays on


def test_the_chat_has_a_rate_of_its_own(url: str) -> None:
    with hall(url, Limits(chat_per_player=Rate(NEVER, 2))) as social:
        ann = social.person("Ann")
        table = social.post("/api/quickplay", ann, {"game": "hokm", "settings": FAST}).json()["table"]
        with social.client.websocket_connect("/ws") as ws:
            a = attach(ws, ann.token)
            a.send(type="join", table=table)
            a.until("table", table=table)
            for text in ("one", "two"):
                a.send(type="chat", table=table, text=text)
                a.until("chat", text=text)
            error = a.error(type="chat", table=table, text="three", id=3)
            assert error["code"] == "rate_limited" and error["ref"] == 3 and "chat lines" in error["message"]
        assert [line.text for line in social.read(social.store.chat, table)] == ["one", "two"]


def test_a_blocked_persons_lines_do_not_reach_the_blocker(social: Hall) -> None:
    ann, bob, cid = social.person("Ann"), social.person("Bob"), social.person("Cid")
    table = social.post("/api/tables", ann, {"game": "kierki", "settings": FAST}).json()["table"]
    assert social.post(f"/api/blocks/{bob.id}", ann).json() == {"status": "blocked"}
    with (
        social.client.websocket_connect("/ws") as wa,
        social.client.websocket_connect("/ws") as wb,
        social.client.websocket_connect("/ws") as wc,
    ):
        sessions = [attach(w, p.token) for w, p in ((wa, ann), (wb, bob), (wc, cid))]
        for s in sessions:
            s.send(type="join", table=table)
            s.until("table", table=table)
        a, b, c = sessions
        b.send(type="chat", table=table, text="from Bob")
        c.send(type="chat", table=table, text="from Cid")
        assert b.until("chat", text="from Bob") and c.until("chat", text="from Bob")
        heard = a.until("chat")
        assert heard["text"] == "from Cid"  # Bob's line, said first, never reached Ann
        assert all(f.get("text") != "from Bob" for f in a.frames)


# --- blocks -----------------------------------------------------------------------------------------


def test_a_block_ends_the_friendship_and_is_never_told(social: Hall) -> None:
    ann, bob = social.person("Ann"), social.person("Bob")
    social.befriend(ann, bob)
    social.post(f"/api/blocks/{bob.id}", ann)
    assert social.read(social.store.friends, ann.id) == []
    assert social.client.get("/api/friends", headers=ann.headers).json()["blocked"] == [
        {"id": bob.id, "name": "Bob"}
    ]
    # Bob's request is answered as sent (issue 47: "no such player", while Ann's page answered, told him
    # of the block), his own list shows it sent, and Ann never sees it.
    asked = social.post(f"/api/friends/{ann.id}/request", bob)
    assert (asked.status_code, asked.json()) == (201, {"status": "requested"})
    assert [p["id"] for p in social.client.get("/api/friends", headers=bob.headers).json()["outgoing"]] == [
        ann.id
    ]
    assert social.client.get("/api/friends", headers=ann.headers).json()["incoming"] == []
    refused(social.post(f"/api/friends/{bob.id}/request", ann), 409, "blocking")
    assert social.post(f"/api/blocks/{bob.id}/remove", ann).json() == {"status": "unblocked"}
    refused(social.post(f"/api/blocks/{bob.id}/remove", ann), 404, "no_such_player")
    # Unblocked, Ann sees the request he sent meanwhile.
    assert [p["id"] for p in social.client.get("/api/friends", headers=ann.headers).json()["incoming"]] == [
        bob.id
    ]


# --- reports and moderators --------------------------------------------------------------------------


def said(social: Hall, who: object, table: str, text: str) -> int:
    """The line id of ``text``, said at ``table`` by the session ``who``."""
    assert isinstance(who, Session)
    who.send(type="chat", table=table, text=text)
    line: int = who.until("chat", text=text)["line"]
    return line


def test_a_report_keeps_the_line_and_a_moderator_reads_it(social: Hall) -> None:
    ann, bob, mod = social.person("Ann"), social.person("Bob"), social.person("Mo")
    table = social.post("/api/tables", ann, {"game": "hokm", "settings": FAST}).json()["table"]
    with social.client.websocket_connect("/ws") as wa, social.client.websocket_connect("/ws") as wb:
        a, b = attach(wa, ann.token), attach(wb, bob.token)
        for s in (a, b):
            s.send(type="join", table=table)
            s.until("table", table=table)
        line = said(social, b, table, "you play like a bot")
        made = social.post("/api/reports", ann, {"line": line, "reason": "rude"})
        assert made.status_code == 201
    refused(social.client.get("/api/moderation/reports", headers=ann.headers), 403, "not_moderator")
    social.moderator(mod)
    reports = social.client.get("/api/moderation/reports", headers=mod.headers).json()["reports"]
    assert [
        (r["id"], r["reporter"], r["line"], r["table"], r["sender"], r["sender_name"], r["text"], r["reason"])
        for r in reports
    ] == [(made.json()["report"], ann.id, line, table, bob.id, "Bob", "you play like a bot", "rude")]
    assert social.client.get("/api/admin/reports", headers={"Authorization": f"Bearer {ADMIN}"}).json() == {
        "reports": reports
    }
    refused(social.client.get("/api/moderation/reports?limit=0", headers=mod.headers), 400, "bad_request")


def test_a_moderator_mutes_a_chat_for_a_time(social: Hall) -> None:
    ann, mod = social.person("Ann"), social.person("Mo")
    social.moderator(mod)
    table = social.post("/api/quickplay", ann, {"game": "hokm", "settings": FAST}).json()["table"]
    refused(
        social.post("/api/moderation/mute", mod, {"player": ann.id, "minutes": 0, "reason": "x"}),
        400,
        "bad_request",
    )
    refused(
        social.post("/api/moderation/mute", mod, {"player": 999999, "minutes": 5, "reason": "x"}),
        404,
        "no_such_player",
    )
    muted = social.post("/api/moderation/mute", mod, {"player": ann.id, "minutes": 30, "reason": "spam"})
    assert muted.status_code == 200 and muted.json()["player"] == ann.id
    with social.client.websocket_connect("/ws") as ws:
        a = attach(ws, ann.token)
        a.send(type="join", table=table)
        a.until("table", table=table)
        error = a.error(type="chat", table=table, text="hello?")
        assert error["code"] == "muted" and muted.json()["until"] in error["message"]
    assert social.read(social.store.chat, table) == []


def test_a_ban_closes_the_connections_and_refuses_the_token(social: Hall) -> None:
    ann, mod = social.person("Ann"), social.person("Mo")
    social.moderator(mod)
    with social.client.websocket_connect("/ws") as ws:
        a = attach(ws, ann.token)
        banned = social.post("/api/moderation/ban", mod, {"player": ann.id, "reason": "cheating"})
        assert banned.json() == {"player": ann.id, "banned": True, "closed": 1}
        assert a.until("error")["code"] == "banned"
        closed = ws.receive()
        assert closed == {"type": "websocket.close", "code": 4003, "reason": ""}
    refused(social.client.get("/api/players/me", headers=ann.headers), 403, "banned")
    refused(social.post("/api/quickplay", ann, {"game": "hokm"}), 403, "banned")
    with social.client.websocket_connect("/ws") as ws:
        s = attach(ws, None)
        assert s.error(type="hello", token=ann.token)["code"] == "banned"
    unbanned = social.post("/api/moderation/unban", mod, {"player": ann.id})
    assert unbanned.json() == {"player": ann.id, "banned": False, "lifted": True}
    assert social.client.get("/api/players/me", headers=ann.headers).status_code == 200


def test_the_operator_names_a_moderator_by_a_name_only_one_player_has(social: Hall) -> None:
    ann = social.person("Ann")
    social.person("Twin")
    social.person("Twin")
    admin = {"Authorization": f"Bearer {ADMIN}"}
    made = social.client.post("/api/admin/moderators", json={"player": "Ann"}, headers=admin).json()
    assert made == {"id": ann.id, "name": "Ann", "moderator": True, "changed": True}
    refused(
        social.client.post("/api/admin/moderators", json={"player": "Twin"}, headers=admin),
        400,
        "bad_request",
    )
    refused(
        social.client.post("/api/admin/moderators", json={"player": "Nobody"}, headers=admin),
        404,
        "no_such_player",
    )
    refused(
        social.client.post("/api/admin/moderators", json={"player": "Ann"}, headers=ann.headers),
        403,
        "not_admin",
    )
    gone = social.client.post("/api/admin/moderators/remove", json={"player": ann.id}, headers=admin).json()
    assert gone["moderator"] is False and gone["changed"] is True
    assert social.read(social.store.has_role, ann.id, "moderator") is False


def test_cardhall_admin_gives_the_moderator_role_and_lists_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, port = tmp_path / "cardhall.db", free_port()
    monkeypatch.setenv("CARDHALL_ADMIN_TOKEN", ADMIN)
    url = f"http://127.0.0.1:{port}"
    with running_server(db, port):
        http(port, "POST", "/api/players", {"name": "Mo"})
        assert main(["admin", "--server", url, "moderator", "add", "Mo"]) == 0
        assert "is a moderator" in capsys.readouterr().out
        assert main(["admin", "--server", url, "moderator", "add", "Nobody"]) == 2
        assert "no_such_player" in capsys.readouterr().err
        assert main(["admin", "--server", url, "reports", "--json"]) == 0
        assert json.loads(capsys.readouterr().out) == []
        assert main(["admin", "--server", url, "reports"]) == 0
        assert "0 reports" in capsys.readouterr().out


BODY_ROUTES = [
    "/api/private-tables",
    "/api/invitations",
    "/api/reports",
    "/api/moderation/mute",
    "/api/moderation/ban",
    "/api/moderation/unban",
]


@pytest.mark.parametrize("path", BODY_ROUTES)
def test_a_body_that_is_not_json_or_of_the_wrong_shape_is_refused(social: Hall, path: str) -> None:
    mod = social.person("Mo")
    social.moderator(mod)
    headers = {**mod.headers, "Content-Type": "application/json"}
    refused(social.client.post(path, content=b"[", headers=headers), 400, "bad_json")
    refused(social.client.post(path, json={"nonsense": 1}, headers=mod.headers), 400, "bad_message")
    refused(
        social.client.post(path, content=b"{}", headers={**mod.headers, "Content-Type": "text/plain"}),
        415,
        "bad_content_type",
    )
    refused(social.client.post(path, json={}), 401, "not_authenticated")
    assert social.read(social.store.reports) == [] and social.read(social.store.banned, mod.id) is None
