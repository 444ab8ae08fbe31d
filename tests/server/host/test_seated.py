"""The index of who plays at which table of the process (:mod:`cardhall.server.host.seated`), which Play
now's ``already_playing`` reads instead of walking every table: kept by the tables as a person is
seated, leaves, the match finishes or is stopped, or the table moves to another process."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from tests.server.test_playnow import player_id, seek
from tests.server_helpers import FAST, auth, new_player, new_table, play_to_the_end, server, session


def tables_of(client: TestClient, player: int) -> frozenset[str]:
    found: frozenset[str] = client.app.state.ctx.seated.tables_of(player)  # type: ignore[attr-defined]
    return found


def host(client: TestClient, table: str) -> Any:
    return client.app.state.ctx.lobby.hosts[table]  # type: ignore[attr-defined]


def test_a_person_is_indexed_while_he_plays_a_match_under_way_and_not_after_he_left() -> None:
    with server() as client:
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        ann_id, bob_id = player_id(client, ann), player_id(client, bob)
        table = new_table(client, ann, "hokm", {2: "normal"})  # (Ann sits at seat 0: waiting for Bob)
        with session(client, ann) as a, session(client, bob) as b:
            a.send(type="join", table=table)
            a.until("table")
            assert tables_of(client, ann_id) == frozenset()  # (a waiting table: no match yet)
            seek(a, "people_only")  # (so Play now lets her wait)
            a.send(type="unseek", id="u")
            a.until("unseeked", ref="u")
            b.send(type="join", table=table)  # (the last seat: the match starts)
            b.until("table")
            assert tables_of(client, ann_id) == tables_of(client, bob_id) == frozenset({table})
            refused = a.error(type="seek", game="hokm", settings=FAST)
            assert refused["code"] == "already_playing" and table in refused["message"]
            b.send(type="leave", table=table)
            b.send(type="ping", id="p")
            b.until("pong", ref="p")
            assert tables_of(client, bob_id) == frozenset()  # (left: a stand-in plays his seat)
            assert tables_of(client, ann_id) == frozenset({table})
            seek(b, "people_only")  # (Bob may look for another match)


def test_a_finished_match_a_stopped_one_and_a_table_moved_away_leave_the_index() -> None:
    with server() as client:
        ann = new_player(client, "Ann")
        ann_id = player_id(client, ann)
        body = {"game": "hokm(max_hands=1)", "settings": FAST}
        finished = client.post("/api/quickplay", json=body, headers=auth(ann)).json()["table"]
        stopped = client.post("/api/quickplay", json=body, headers=auth(ann)).json()["table"]
        moved = client.post("/api/quickplay", json=body, headers=auth(ann)).json()["table"]
        assert tables_of(client, ann_id) == {finished, stopped, moved}
        with session(client, ann) as a:
            a.send(type="join", table=finished)
            play_to_the_end(a, finished, a.until("table"))
        assert tables_of(client, ann_id) == {stopped, moved}
        portal = client.portal
        assert portal is not None
        assert portal.call(host(client, stopped).halt, "the operator's stop")
        assert tables_of(client, ann_id) == {moved}
        portal.call(portal_fenced, host(client, moved))  # (another process took it: nothing here)
        assert tables_of(client, ann_id) == frozenset()


async def portal_fenced(table_host: Any) -> None:
    table_host.fenced()
