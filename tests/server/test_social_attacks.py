"""Attacks on playing with people one knows, on SQLite and PostgreSQL: each is refused (with its code,
and logged), and the store shows that nothing changed. Joining a private table without its link or
with a guessed or altered one; acting at a table one was not invited to; friend-request and
invitation spam; a blocked person trying every way in; a non-moderator calling the moderators' and
the operator's routes; markup and script in every text field (chat, report reason, mute and ban
reasons), stored and sent back as the very text typed (the browser's side: tests/web/test_web_social.py)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from cardhall.server.rates import Limits, Rate
from tests.server.social_helpers import BACKENDS, Hall, Person, hall
from tests.server_helpers import FAST, attach, refused, store_url

NEVER = 1e-9
MARKUP = [
    "<script>window.pwned = 1</script>",
    '<img src=x onerror="window.pwned=1">',
    "<b>bold</b> &amp; &lt;",
    '"><svg onload=alert(1)>',
    "{{7*7}} ${7*7}",
]


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return store_url(request.param, request, tmp_path)


@pytest.fixture
def social(url: str) -> Hall:
    with hall(url) as made:
        yield made  # type: ignore[misc]


def seats(social: Hall, table: str) -> list[int | None]:
    row = social.read(social.store.table, table)
    assert row is not None
    return [s.player_id for s in row.seats]


def altered(invitation: str) -> list[str]:
    """Invitations one character, one case or one length away from the real one, and the table id."""
    flip = ("A" if invitation[0] != "A" else "B") + invitation[1:]
    return [
        flip,
        invitation[:-1],
        invitation + "x",
        invitation.swapcase(),
        "",
        " " + invitation,
        invitation * 2,
    ]


def test_a_private_table_without_its_link_or_with_an_altered_one_is_no_table(
    social: Hall, caplog: pytest.LogCaptureFixture
) -> None:
    ann, eve = social.person("Ann"), social.person("Eve")
    table, invitation = social.private_table(ann)
    before = seats(social, table)
    caplog.set_level(logging.INFO)
    with social.client.websocket_connect("/ws") as ws:
        e = attach(ws, eve.token)
        missing = e.error(type="join", table="zzzzzzzz")  # a table that does not exist, for comparison
        for guess in [None, table, *altered(invitation)]:
            for kind in ("join", "watch"):
                got = e.error(type=kind, table=table, invitation=guess, id=7)
                # Word for word the refusal of a table that does not exist (but for the id).
                assert got["code"] == missing["code"] == "no_such_table"
                assert got["message"] == missing["message"].replace("zzzzzzzz", table)
        assert e.error(type="join", table=table, invitation=123)["code"] == "bad_message"
    assert seats(social, table) == before == [None, None, None]
    assert "refused player" in caplog.text and table in caplog.text
    assert invitation not in caplog.text  # (the invitation is never logged)


def test_acting_at_a_private_table_one_was_not_invited_to_is_refused(social: Hall) -> None:
    ann, bob, eve = social.person("Ann"), social.person("Bob"), social.person("Eve")
    table, _ = social.private_table(ann, bots={"2": "easy"})
    with social.client.websocket_connect("/ws") as wa, social.client.websocket_connect("/ws") as we:
        a, e = attach(wa, ann.token), attach(we, eve.token)
        a.send(type="join", table=table)
        a.until("table", table=table)
        for message in (
            {"type": "act", "table": table, "action": 0, "n": 0},
            {"type": "chat", "table": table, "text": "hi"},
            {"type": "bot", "table": table, "seat": 1},
            {"type": "back", "table": table},
            {"type": "rematch", "table": table},
        ):
            assert e.error(**message)["code"] in ("not_seated", "no_such_table"), message
        # A leave of a table one is not at is nothing (docs/protocol.md, leave): it gets no frame.
        e.send(type="leave", table=table)
        # HTTP: its link, its invitations, its summary.
        refused(
            social.client.get(f"/api/private-tables/{table}/invitation", headers=eve.headers),
            404,
            "no_such_table",
        )
        refused(social.client.get(f"/api/tables/{table}"), 404, "no_such_table")
        social.befriend(eve, bob)
        refused(
            social.post("/api/invitations", eve, {"table": table, "player": bob.id}), 404, "no_such_table"
        )
    assert seats(social, table)[:2] == [ann.id, None]
    assert social.read(social.store.chat, table) == []


def test_friend_request_and_invitation_spam_is_rate_limited(url: str) -> None:
    limits = Limits(friend_requests_per_player=Rate(NEVER, 3), invitations_per_player=Rate(NEVER, 2))
    with hall(url, limits) as social:
        spammer = social.person("Spam")
        targets = [social.person(f"T{i}") for i in range(5)]
        for t in targets[:3]:
            assert social.post(f"/api/friends/{t.id}/request", spammer).status_code == 201
        for t in targets[3:]:
            response = social.post(f"/api/friends/{t.id}/request", spammer)
            refused(response, 429, "rate_limited")
            assert int(response.headers["Retry-After"]) >= 1
            assert social.read(social.store.friend_requests, t.id) == ([], [])
        # A request refused for another reason takes no token: the same one again is refused as such.
        refused(social.post(f"/api/friends/{targets[0].id}/request", spammer), 409, "already_asked")
        friend = targets[0]
        social.post(f"/api/friends/{spammer.id}/accept", friend)
        table = social.post("/api/quickplay", spammer, {"game": "hokm", "settings": FAST}).json()["table"]
        with social.client.websocket_connect("/ws") as ws:
            f = attach(ws, friend.token)
            for _ in range(2):
                assert (
                    social.post(
                        "/api/invitations", spammer, {"table": table, "player": friend.id}
                    ).status_code
                    == 200
                )
            refused(
                social.post("/api/invitations", spammer, {"table": table, "player": friend.id}),
                429,
                "rate_limited",
            )
            f.send(type="ping", id="end")
            f.until("pong", ref="end")
            assert [x["type"] for x in f.frames].count("invited") == 2


def test_a_blocked_person_tries_every_way_in(social: Hall, caplog: pytest.LogCaptureFixture) -> None:
    ann, eve = social.person("Ann"), social.person("Eve")
    social.befriend(ann, eve)
    table, invitation = social.private_table(ann)
    social.post(f"/api/blocks/{eve.id}", ann)
    caplog.set_level(logging.INFO)
    # A friend request (answered as sent, never shown to Ann), an accept of an old request: nothing opens.
    assert social.post(f"/api/friends/{ann.id}/request", eve).json() == {"status": "requested"}
    refused(social.post(f"/api/friends/{ann.id}/accept", eve), 404, "no_such_request")
    # An invitation (they are no longer friends), to Ann's own table, to Eve's.
    refused(social.post("/api/invitations", eve, {"table": table, "player": ann.id}), 404, "no_such_table")
    own = social.post("/api/quickplay", eve, {"game": "hokm", "settings": FAST}).json()["table"]
    with social.client.websocket_connect("/ws") as wa:
        attach(wa, ann.token)  # Ann is online
        refused(social.post("/api/invitations", eve, {"table": own, "player": ann.id}), 403, "not_friends")
        # Ann's private table, even with its link, by joining and by watching.
        with social.client.websocket_connect("/ws") as we:
            e = attach(we, eve.token)
            for kind in ("join", "watch"):
                assert e.error(type=kind, table=table, invitation=invitation)["code"] == "no_such_table"
    assert seats(social, table) == [None, None, None]
    assert social.read(social.store.friends, ann.id) == []
    assert social.read(social.store.friend_requests, ann.id) == ([], [])  # (Eve's is not shown to her)
    assert "refused player" in caplog.text


def test_a_non_moderator_is_refused_every_moderators_and_operators_route(
    social: Hall, caplog: pytest.LogCaptureFixture
) -> None:
    ann, eve = social.person("Ann"), social.person("Eve")
    caplog.set_level(logging.INFO)
    refused(social.client.get("/api/moderation/reports", headers=eve.headers), 403, "not_moderator")
    for path, body in (
        ("/api/moderation/mute", {"player": ann.id, "minutes": 60, "reason": "x"}),
        ("/api/moderation/ban", {"player": ann.id, "reason": "x"}),
        ("/api/moderation/unban", {"player": ann.id}),
    ):
        refused(social.post(path, eve, body), 403, "not_moderator")
        refused(social.post(path, None, body), 401, "not_authenticated")
    for path, body in (
        ("/api/admin/moderators", {"player": eve.id}),
        ("/api/admin/moderators/remove", {"player": eve.id}),
    ):
        refused(social.post(path, eve, body), 403, "not_admin")
    refused(social.client.get("/api/admin/reports", headers=eve.headers), 403, "not_admin")
    assert social.read(social.store.banned, ann.id) is None
    assert social.read(social.store.chat_muted_until, ann.id) is None
    assert social.read(social.store.has_role, eve.id, "moderator") is False
    assert "without being a moderator" in caplog.text


@pytest.mark.parametrize("text", MARKUP)
def test_markup_in_every_text_field_is_kept_as_the_text_typed(social: Hall, text: str) -> None:
    # A name may hold no markup (server/names.py refuses angle brackets, naming the first): nobody is
    # made with such a name; every other text field keeps what was typed, to be shown as text.
    if "<" in text or ">" in text:
        refused(social.client.post("/api/players", json={"name": text[:40]}), 400, "bad_message")
        sender = "Ann"
    else:
        sender = text[:40]  # (a template's braces are no markup: the name is kept as typed)
    ann, bob, mod = social.person(sender), social.person("Bob"), social.person("Mo")
    social.moderator(mod)
    table = social.post("/api/tables", ann, {"game": "hokm", "settings": FAST}).json()["table"]
    with social.client.websocket_connect("/ws") as wa, social.client.websocket_connect("/ws") as wb:
        a, b = attach(wa, ann.token), attach(wb, bob.token)
        for s in (a, b):
            s.send(type="join", table=table)
            s.until("table", table=table)
        a.send(type="chat", table=table, text=text)
        heard = b.until("chat")
        assert (heard["text"], heard["from"]) == (text, sender)
        made = social.post("/api/reports", bob, {"line": heard["line"], "reason": text})
        assert made.status_code == 201
    reports = social.client.get("/api/moderation/reports", headers=mod.headers).json()["reports"]
    assert (reports[0]["text"], reports[0]["reason"], reports[0]["sender_name"]) == (text, text, sender)
    assert (
        social.post("/api/moderation/mute", mod, {"player": ann.id, "minutes": 1, "reason": text}).status_code
        == 200
    )


@pytest.mark.parametrize("reason", ["", " ", "x" * 201, "line\nbreak", "\x00"])
def test_a_bad_reason_is_refused_and_stores_nothing(social: Hall, reason: str) -> None:
    ann, bob, mod = social.person("Ann"), social.person("Bob"), social.person("Mo")
    social.moderator(mod)
    table = social.post("/api/quickplay", ann, {"game": "hokm", "settings": FAST}).json()["table"]
    with social.client.websocket_connect("/ws") as ws:
        a = attach(ws, ann.token)
        a.send(type="join", table=table)
        a.until("table", table=table)
        a.send(type="chat", table=table, text="hello")
        line = a.until("chat")["line"]
    refused(social.post("/api/reports", ann, {"line": line, "reason": reason}), 400, "bad_message")
    refused(social.post("/api/moderation/ban", mod, {"player": bob.id, "reason": reason}), 400, "bad_message")
    assert social.read(social.store.reports) == []
    assert social.read(social.store.banned, bob.id) is None


def test_a_report_of_a_line_of_another_table_is_refused(social: Hall) -> None:
    ann, eve = social.person("Ann"), social.person("Eve")
    table = social.post("/api/quickplay", ann, {"game": "hokm", "settings": FAST}).json()["table"]
    with social.client.websocket_connect("/ws") as ws:
        a = attach(ws, ann.token)
        a.send(type="join", table=table)
        a.until("table", table=table)
        a.send(type="chat", table=table, text="hello")
        line = a.until("chat")["line"]
    for body in ({"line": line, "reason": "spam"}, {"line": line + 1000, "reason": "spam"}):
        refused(social.post("/api/reports", eve, body), 404, "no_such_line")
    refused(social.post("/api/reports", eve, {"line": "1", "reason": "spam"}), 400, "bad_message")
    assert social.read(social.store.reports) == []


def test_a_moderator_cannot_ban_himself_nor_a_player_who_does_not_exist(social: Hall) -> None:
    mod: Person = social.person("Mo")
    social.moderator(mod)
    refused(social.post("/api/moderation/ban", mod, {"player": mod.id, "reason": "oops"}), 400, "bad_request")
    refused(social.post("/api/moderation/ban", mod, {"player": 999999, "reason": "x"}), 404, "no_such_player")
    assert social.read(social.store.banned, mod.id) is None
