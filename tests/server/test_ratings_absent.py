"""No win for the absent (issue 46): a match a stand-in played for a person counts for him as a loss
(he left it, or the stand-in made more than half of his seat's decisions), never a win in his totals,
and his page says why; the others are rated as usual; a match every person left before its first deal
was scored is stopped unrated; the count of a stand-in's decisions survives a restart; the boards list
established ratings only, in both pools, each shown as ``ratings.shown``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from cardhall.server import ratings
from cardhall.store import RatingRow, TableRow
from cardhall.store.rows import RatingInputs
from tests.server_helpers import auth, new_player, new_table, play_until, server, session

HOKM = "hokm(max_hands=4)"


def scored(frames: list[dict[str, Any]]) -> int:
    """Deals scored in what a client was sent."""
    return sum(1 for f in frames for e in f.get("events", ()) if e["type"] == "deal_scored")


def me(client: TestClient, token: str) -> int:
    player: int = client.get("/api/players/me", headers=auth(token)).json()["id"]
    return player


def wait_finished(client: TestClient, table: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while True:
        summary: dict[str, Any] = client.get(f"/api/tables/{table}").json()
        if summary["status"] in ("finished", "abandoned"):
            return summary
        assert time.monotonic() < deadline, summary
        time.sleep(0.02)


def test_who_leaves_after_two_deals_gets_a_loss_no_win_and_no_board_place() -> None:
    with server() as client:
        ann = new_player(client, "Ann")
        table = new_table(client, ann, HOKM, {1: "normal", 2: "normal"}, turn_seconds=0)
        with session(client, ann) as a:
            a.send(type="join", table=table, seat=0)
            frame = a.until("table", status="playing")
            play_until(a, table, frame, lambda f: scored(a.frames) >= 2)
            a.send(type="leave", table=table)
            a.send(type="ping", id="left")
            a.until("pong", ref="left")
        assert wait_finished(client, table)["status"] == "finished"
        page = client.get(f"/api/players/{me(client, ann)}").json()
        (match,) = page["matches"]
        assert match["absent"] == "left" and match["win_share"] == 0
        assert page["totals"] == [{"game": "hokm", "matches": 1, "wins": 0.0}]
        (rating,) = page["ratings"]
        # Ranked last whatever the stand-in scored: below the start, and no board place.
        assert rating["pool"] == "bots" and rating["games"] == 1 and rating["mu"] < ratings.MODEL.mu
        assert rating["rating"] < ratings.SHOWN_START and rating["provisional"] is True
        for pool in ("bots", "people"):
            assert client.get(f"/api/leaderboard/hokm?pool={pool}").json()["players"] == []


def test_who_is_away_for_most_of_a_match_gets_a_loss_and_the_other_person_plays_on() -> None:
    with server() as client:
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        table = new_table(client, ann, HOKM, {2: "normal"}, turn_seconds=0, away_seconds=0)
        with session(client, bob) as b:
            b.send(type="join", table=table, seat=1)
            b.until("table")
            with session(client, ann) as a:
                a.send(type="join", table=table, seat=0)
                a.until("table", status="playing")
            # Ann's connection closed (her browser): with away_seconds 0 a stand-in plays her seat now.
            frame = b.until_seat(0, stand_in="rules")
            play_until(b, table, frame, lambda f: f.get("status") == "finished")
        ann_page = client.get(f"/api/players/{me(client, ann)}").json()
        bob_page = client.get(f"/api/players/{me(client, bob)}").json()
    (ann_match,) = ann_page["matches"]
    (bob_match,) = bob_page["matches"]
    assert ann_match["absent"] == "away" and ann_match["win_share"] == 0
    assert ann_page["totals"][0]["wins"] == 0 and ann_page["ratings"][0]["mu"] < ratings.MODEL.mu
    assert bob_match["absent"] is None and bob_page["ratings"][0]["games"] == 1  # (he played it)


def test_the_absent_is_ranked_last_in_his_own_update_only() -> None:
    inputs = RatingInputs({}, {}, set(), {})
    people: list[int | None] = [1, None, 2, None]
    scores = [7, 3, 5, 1]  # seat 0, the absent one, has the best score
    usual = {r.player_id: r for r in ratings.rate_match("hokm", "bots", people, scores, False, inputs)}
    absent = {r.player_id: r for r in ratings.rate_match("hokm", "bots", people, scores, False, inputs, {0})}
    assert usual[1].mu > ratings.MODEL.mu > absent[1].mu  # a win as played, a loss as counted
    last = ratings.rate_match("hokm", "bots", people, [0, 3, 5, 9], False, inputs)
    assert absent[1].mu == last[0].mu  # ranked as if his score were the worst
    assert absent[2] == usual[2]  # the other person: as usual


def test_a_match_every_person_left_before_the_first_deal_was_scored_is_stopped_unrated() -> None:
    with server() as client:
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        table = new_table(client, ann, HOKM, {2: "normal"}, turn_seconds=0)
        with session(client, ann) as a, session(client, bob) as b:
            a.send(type="join", table=table, seat=0)
            b.send(type="join", table=table, seat=1)
            a.until("table", status="playing")
            b.until("table", status="playing")
            a.send(type="leave", table=table)
            b.until_seat(0, left=True)
            b.send(type="leave", table=table)
            b.send(type="ping", id="left")
            b.until("pong", ref="left")
        assert wait_finished(client, table)["status"] == "abandoned"
        for token in (ann, bob):
            page = client.get(f"/api/players/{me(client, token)}").json()
            assert page["ratings"] == [] and page["matches"] == [] and page["totals"] == []


def test_the_stand_ins_decisions_are_counted_again_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "hall.db"
    with server(db) as client:
        ann = new_player(client, "Ann")
        # A slow stand-in (0.05 s a move), so the server stops in the middle of the match.
        table = new_table(client, ann, HOKM, {1: "normal", 2: "normal"}, away_seconds=0, bot_pace_ms=50)
        with session(client, ann) as a:
            a.send(type="join", table=table, seat=0)
            a.until("table", status="playing")
        ctx = client.app.state.ctx  # type: ignore[attr-defined]
        deadline = time.monotonic() + 60
        while ctx.lobby.host(table).by_stand_in[0] < 5:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    with server(db) as client:
        ctx = client.app.state.ctx  # type: ignore[attr-defined]
        host = ctx.lobby.host(table)

        async def both() -> tuple[list[int], int]:
            # In the table's owner task: no action is committed between the two reads.
            async def read() -> tuple[list[int], int]:
                stored = (await ctx.store.actions_of([table]))[table]
                return list(host.by_stand_in), sum(1 for a in stored if a.seat == 0 and a.stand_in)

            return await host.call(read)  # type: ignore[no-any-return]

        counted, stored = client.portal.call(both)  # type: ignore[union-attr]
        assert stored >= 5 and counted == [stored, 0, 0]  # (bots' own moves are not a stand-in's)


def test_every_board_lists_established_ratings_only_shown_on_the_scale() -> None:
    with server() as client:
        ctx = client.app.state.ctx  # type: ignore[attr-defined]
        store = ctx.store

        async def rated() -> list[int]:
            ids = []
            for name, account in (("Ann", True), ("Bob", False), ("Cem", False)):
                player, _ = await store.create_player(name)
                if account:
                    await store.create_account(player.id, name, name.lower(), "hash")
                ids.append(player.id)
            row = TableRow("t", "hokm", "1", 1, {}, [], "finished")
            await store.save_table(row)
            games = ratings.BOARD_MIN_GAMES
            rows = [
                RatingRow(ids[0], "hokm", "people", 27.5, 3.0, games),
                RatingRow(ids[0], "hokm", "bots", 26.0, 3.0, games),
                RatingRow(ids[1], "hokm", "bots", 31.0, 2.0, games),  # a guest, established
                RatingRow(ids[2], "hokm", "bots", 40.0, 6.0, games - 1),  # provisional: on no board
            ]
            await store.finish(row, [], rows)
            return ids

        ann, bob, _ = client.portal.call(rated)  # type: ignore[union-attr]
        bots = client.get("/api/leaderboard/hokm?pool=bots").json()
        assert [(p["player"], p["rating"], p["guest"]) for p in bots["players"]] == [
            (bob, 1500 + 48 * 6, True),
            (ann, 1500 + 48 * 1, False),
        ]
        assert bots["min_games"] == ratings.BOARD_MIN_GAMES
        people = client.get("/api/leaderboard/hokm?pool=people").json()["players"]
        assert [(p["player"], p["rating"], p["mu"], p["sigma"]) for p in people] == [(ann, 1620, 27.5, 3.0)]
