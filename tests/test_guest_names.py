"""Guests' names (issue 46, D16; issue 47): a guest may not take an account's name, up to case and look
(the key accounts are kept unique by), and a guest is marked as one wherever a name is listed (seat
entries, chat frames, boards, pages), so two guests of one name can be told apart by their numbers."""

from __future__ import annotations

import pytest

from tests.server_helpers import auth, new_player, new_table, refused, server, session

PASSWORD = "correct horse battery"


@pytest.mark.parametrize("taken", ["Ann", "ann", " ANN ", "\u0410nn", "\uff21nn"])
def test_a_guest_may_not_take_an_accounts_name_in_any_case_or_look(taken: str) -> None:
    with server() as client:
        token = new_player(client, "Ann the guest")
        made = client.post("/api/account", json={"name": "Ann", "password": PASSWORD}, headers=auth(token))
        assert made.status_code == 201, made.text
        message = refused(client.post("/api/players", json={"name": taken}), 409, "name_taken")
        assert "account" in message
        assert client.post("/api/players", json={"name": "Bob"}).status_code == 201
        assert client.post("/api/players", json={"name": "Annie"}).status_code == 201  # (another name)


def test_guests_are_marked_as_guests_in_seats_and_chat_lines() -> None:
    with server() as client:
        ann, other = new_player(client, "Ann"), new_player(client, "Ann")  # two guests called Ann
        table = new_table(client, ann, "hokm")
        with session(client, ann) as a, session(client, other) as o:
            a.send(type="join", table=table, seat=0)
            a.until("table")
            o.send(type="join", table=table, seat=1)
            seats = a.until_seat(1, kind="person")["seats"]
            assert [(s["name"], s["guest"]) for s in seats] == [("Ann", True), ("Ann", True), ("", None)]
            assert seats[0]["player"] != seats[1]["player"]  # (what tells them apart on a page)
            o.send(type="chat", table=table, text="which Ann am I?")
            line = a.until("chat")
            assert (line["from"], line["guest"], line["player"]) == ("Ann", True, seats[1]["player"])
