"""Harassment, as an attacker does it with fresh guests (issue 47): a person blocked makes a new guest,
opens the blocker's private table by its link and talks there; 25 guests of one address flood a table's
chat, each within his own rate; a finished private table's record is read through its id on a player's
page. Each is refused, and the people at the table see nothing of it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from cardhall.server.rates import CHAT_PER_ADDRESS, CHAT_PER_TABLE, Limits
from tests.server.social_helpers import BACKENDS, Hall, hall
from tests.server_helpers import FAST, attach, play_to_the_end, store_url

QUIET = Limits().unpaced()


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return store_url(request.param, request, tmp_path)


@pytest.fixture
def social(url: str) -> Iterator[Hall]:
    with hall(url) as made:
        yield made


def said(frames: list[dict[str, Any]], text: str) -> bool:
    return any(f["type"] == "chat" and f["text"] == text for f in frames)


def test_a_fresh_guest_with_the_link_of_a_private_table_cannot_talk_there(social: Hall) -> None:
    ann, bob = social.person("Ann"), social.person("Bob")
    table, invitation = social.private_table(ann, "hokm", bots={"2": "easy"})
    with social.client.websocket_connect("/ws") as wa, social.client.websocket_connect("/ws") as wb:
        a, b = attach(wa, ann.token), attach(wb, bob.token)
        a.send(type="join", table=table)
        a.until("table", table=table)
        b.send(type="join", table=table, invitation=invitation)  # the last seat: the match starts
        b.until("table", table=table)
        social.post(f"/api/blocks/{bob.id}", ann)
        # Bob, blocked, comes back as a fresh guest with the link he kept: he may watch, not talk.
        eve = social.person("Bob the second")
        with social.client.websocket_connect("/ws") as we:
            e = attach(we, eve.token)
            e.send(type="watch", table=table, invitation=invitation)
            e.until("table", table=table)
            assert e.error(type="chat", table=table, text="hello Ann", id="c")["code"] == "chat_closed"
            a.send(type="chat", table=table, text="the players talk")  # (the seated still talk)
            a.until("chat", text="the players talk")
        assert not said(a.frames, "hello Ann")


def test_a_table_may_close_its_chat_to_guests(social: Hall) -> None:
    ann = social.person("Ann")
    made = social.post(
        "/api/tables", ann, {"game": "hokm", "settings": {**FAST, "chat": "accounts"}, "bots": {"1": "easy"}}
    )
    assert made.status_code == 201, made.text
    table = made.json()["table"]
    with social.client.websocket_connect("/ws") as wa:
        a = attach(wa, ann.token)
        a.send(type="join", table=table)
        a.until("table", table=table)
        assert a.error(type="chat", table=table, text="a guest's line", id="c")["code"] == "chat_closed"


def test_a_bad_chat_setting_is_refused_naming_it(social: Hall) -> None:
    ann = social.person("Ann")
    made = social.post("/api/tables", ann, {"game": "hokm", "settings": {"chat": "nobody"}})
    assert made.status_code == 400 and "chat" in made.json()["message"], made.text


def flood(social: Hall, table: str, guests: int, lines: int) -> tuple[int, list[dict[str, Any]]]:
    """``guests`` fresh guests of one address each try to say ``lines`` lines at ``table``: how many
    were said, and what a person at the table heard."""
    ann = social.person("Ann")
    heard: list[dict[str, Any]] = []
    with social.client.websocket_connect("/ws") as wa:
        a = attach(wa, ann.token)
        a.send(type="watch", table=table)
        a.until("table", table=table)
        taken = 0
        for g in range(guests):
            guest = social.person(f"Spam {g}")
            with social.client.websocket_connect("/ws") as wg:
                s = attach(wg, guest.token)
                s.send(type="watch", table=table)
                s.until("table", table=table)
                for k in range(lines):
                    s.send(type="chat", table=table, text=f"spam {g}.{k}", id=f"{g}.{k}")
                    answer = s.wait(
                        lambda f, k=k, g=g: f.get("ref") == f"{g}.{k}" or f.get("text") == f"spam {g}.{k}"
                    )
                    taken += answer["type"] == "chat"
        a.send(type="ping", id="end")
        a.until("pong", ref="end")
        heard = [f for f in a.frames if f["type"] == "chat"]
    return taken, heard


@pytest.mark.parametrize("limit", ["address", "table"])
def test_fresh_guests_of_one_address_cannot_flood_a_tables_chat(url: str, limit: str) -> None:
    # Each guest within his own rate (5 lines at once); only the limit under test is on.
    rate = CHAT_PER_ADDRESS if limit == "address" else CHAT_PER_TABLE
    limits = replace(QUIET, chat_per_player=None, **{f"chat_per_{limit}": rate})
    with hall(url, limits) as social:
        owner = social.person("Owner")
        table = social.post(
            "/api/quickplay", owner, {"game": "hokm", "settings": {**FAST, "bot_pace_ms": 10_000}}
        )
        taken, heard = flood(social, table.json()["table"], guests=25, lines=5)
    # 125 lines tried within a few seconds: the burst and what refills meanwhile, no more.
    assert taken <= rate.burst + 10 * rate.per_second, taken
    assert len(heard) == taken


def test_a_finished_private_tables_record_is_for_its_people(social: Hall) -> None:
    ann = social.person("Ann")
    table, invitation = social.private_table(ann, "hokm(max_hands=1)", bots={"1": "easy", "2": "easy"})
    with social.client.websocket_connect("/ws") as wa:
        a = attach(wa, ann.token)
        a.send(type="join", table=table)
        play_to_the_end(a, table, a.until("table", table=table))
    eve = social.person("Eve")
    for path in (f"/api/tables/{table}/record", f"/api/tables/{table}/replay"):
        assert social.client.get(path, headers=eve.headers).json()["error"] == "no_such_table"
        assert social.client.get(path).json().get("error") == "no_such_table"  # nobody at all
        assert social.client.get(path, headers=ann.headers).status_code == 200  # its person
        assert social.client.get(f"{path}?invitation={invitation}").status_code == 200  # its link
    # Ann's page names the table to her, and to nobody else.
    page = social.client.get(f"/api/players/{ann.id}", headers=eve.headers).json()
    assert [m["table"] for m in page["matches"]] == [None]
    mine = social.client.get(f"/api/players/{ann.id}", headers=ann.headers).json()
    assert [m["table"] for m in mine["matches"]] == [table]
