"""Play again as an offer (issue 46, D5): the others see it and accept or decline; the new table starts when
everyone has answered, or when the offer lapses, without those who did not accept (a bot in their seats);
nobody is seated, nor timed, at a table he did not accept; one table however many answer at once."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from starlette.testclient import TestClient

from cardhall.server.rates import Limits
from tests.server_helpers import Session, attach, new_player, new_table, server, session

GAME = "hokm(max_hands=1)"


@contextmanager
def finished_pair(client: TestClient) -> Iterator[tuple[str, Session, Session, str, str]]:
    """Ann (seat 0) and Bob (seat 1) at a finished match with a bot (seat 2), both watching it still
    (their stand-ins played it, at once): the table, their sessions and their tokens."""
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    table = new_table(client, ann, GAME, {2: "normal"}, turn_seconds=0, away_seconds=0)
    with client.websocket_connect("/ws") as wa, client.websocket_connect("/ws") as wb:
        a, b = attach(wa, ann), attach(wb, bob)
        a.send(type="join", table=table, seat=0)
        a.until("table")
        b.send(type="join", table=table, seat=1)
        b.until("table", status="playing")
        for s in (a, b):
            s.send(type="watch", table=table)
        for s in (a, b):
            s.wait(lambda f: f.get("table") == table and f.get("status") == "finished")
        yield table, a, b, ann, bob


def rematches_of(client: TestClient, table: str) -> list[Any]:
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    return [h for h in ctx.lobby.hosts.values() if h.row.rematch_of == table]


def offer(s: Session, **match: Any) -> dict[str, Any]:
    return s.wait(lambda f: f["type"] == "rematch" and all(f.get(k) == v for k, v in match.items()))


def test_an_offer_is_seen_by_the_others_and_the_table_starts_when_all_accepted() -> None:
    with server() as client, finished_pair(client) as (table, a, b, _, _):
        a.send(type="rematch", table=table, id="again")
        made = offer(a, ref="again")
        assert (made["new"], made["by"], made["accepted"], made["declined"]) == (None, 0, [0], [])
        seen = offer(b, by=0)
        assert seen["until"] > 0 and seen["new"] is None
        assert rematches_of(client, table) == []  # nobody seated, nobody timed: no table yet
        b.send(type="rematch", table=table, id="yes")
        answer = offer(b, ref="yes")
        assert answer["new"] and answer["accepted"] == [0, 1]
        assert offer(a, new=answer["new"])["accepted"] == [0, 1]
        (new,) = rematches_of(client, table)
        assert [(s.kind, s.player_id is not None) for s in new.row.seats] == [
            ("person", True),
            ("person", True),
            ("bot", False),
        ]
        # Asking again: the same table.
        a.send(type="rematch", table=table, id="twice")
        assert offer(a, ref="twice")["new"] == answer["new"]


def test_who_declines_is_not_seated_and_the_table_starts_without_him() -> None:
    with server() as client, finished_pair(client) as (table, a, b, _, bob):
        a.send(type="rematch", table=table)
        offer(b, by=0)
        b.send(type="rematch", table=table, decline=True, id="no")
        answer = offer(b, ref="no")
        assert answer["new"] and answer["accepted"] == [0] and answer["declined"] == [1]
        (new,) = rematches_of(client, table)
        assert new.row.seats[1].kind == "bot" and new.row.seats[1].bot == "rules"  # (the stand_in bot)
        assert new.row.seats[0].kind == "person"
        bob_id = client.get("/api/players/me", headers={"Authorization": f"Bearer {bob}"}).json()["id"]
        assert all(s.player_id != bob_id for s in new.row.seats)
        # He asks later: the table made without him (his page says so).
        b.send(type="rematch", table=table, id="later")
        assert offer(b, ref="later")["accepted"] == [0]


def test_an_offer_lapses_into_a_table_without_those_who_did_not_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardhall.server import rematch

    monkeypatch.setattr(rematch, "OFFER_SECONDS", 0.2)
    with server() as client, finished_pair(client) as (table, a, b, _, _):
        a.send(type="rematch", table=table)
        offer(b, by=0)  # Bob sees it, and says nothing
        made = offer(a, until=None, by=0)
        assert made["new"] and made["accepted"] == [0] and made["declined"] == []
        (new,) = rematches_of(client, table)
        assert new.row.seats[1].kind == "bot"  # (nobody waits on Bob, nor runs his clock)


def test_the_maker_may_withdraw_his_offer_and_a_decline_needs_an_offer() -> None:
    with server() as client, finished_pair(client) as (table, a, b, _, _):
        assert a.error(type="rematch", table=table, decline=True)["code"] == "bad_request"
        a.send(type="rematch", table=table)
        offer(b, by=0)
        a.send(type="rematch", table=table, decline=True, id="withdrawn")
        gone = offer(a, ref="withdrawn")
        assert (gone["new"], gone["by"], gone["until"]) == (None, None, None)
        assert offer(b, by=None)["new"] is None
        assert rematches_of(client, table) == []
        # A new offer may be made after it.
        b.send(type="rematch", table=table, id="mine")
        assert offer(b, ref="mine")["by"] == 1


def test_simultaneous_answers_make_one_table() -> None:
    with server(limits=Limits().unpaced()) as client, finished_pair(client) as (table, a, b, _, _):
        a.send(type="rematch", table=table)
        offer(b, by=0)
        for k in range(3):
            b.send(type="rematch", table=table, id=k)
            a.send(type="rematch", table=table, id=k)
        answers = [offer(s, ref=k) for k in range(3) for s in (a, b)]
        assert len(rematches_of(client, table)) == 1
        assert {f["new"] for f in answers} == {rematches_of(client, table)[0].id}


def test_an_open_offer_is_answered_after_its_table_left_memory() -> None:
    with server() as client:
        with finished_pair(client) as (table, a, b, ann, bob):
            a.send(type="rematch", table=table)
            offer(b, by=0)
        new_table(client, ann, "hokm")  # a lobby change: the finished table, unwatched, leaves memory
        ctx = client.app.state.ctx  # type: ignore[attr-defined]
        assert table not in ctx.lobby.hosts
        with session(client, bob) as b:
            b.send(type="rematch", table=table, id="late")
            made = offer(b, ref="late")
        assert made["new"] and made["accepted"] == [0, 1]
