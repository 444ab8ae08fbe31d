"""Tournaments on the server (issue 50), in process: a duplicate event of two rounds and an arena run to
their ends with people playing over their websockets and bots filling seats; the standings are checked
against the tables' stored records (recomputed here, independently), again after a restart; bad input
is refused with its code."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cardhall.registry import load_game
from tests.helpers import steps
from tests.server_helpers import FAST, auth, new_player, play_to_the_end, refused, server, session

pytestmark = pytest.mark.slow  # (events run for seconds, people play in threads)


def make_event(client: TestClient, token: str, **fields: Any) -> dict[str, Any]:
    body = {"starts_in": 0, "settings": {**FAST, "away_seconds": 60}, **fields}
    response = client.post("/api/events", json=body, headers=auth(token))
    assert response.status_code == 201, response.text
    event: dict[str, Any] = response.json()
    return event


def join(client: TestClient, token: str, event: dict[str, Any]) -> None:
    response = client.post(
        f"/api/events/{event['id']}/join", json={"token": event["token"]}, headers=auth(token)
    )
    assert response.status_code == 200 and response.json()["joined"], response.text


def person(client: TestClient, token: str, event: dict[str, Any]) -> list[str]:
    """A person who follows the event and plays (the first legal action) every table it seats him at,
    until it finishes; the tables he played."""
    played: list[str] = []
    with session(client, token) as s:
        s.send(type="follow_event", event=event["id"], token=event["token"], id=1)
        assert s.until("event")["ref"] == 1
        for _ in steps(f"event {event['id']}"):
            if any(f["type"] == "event" and f["status"] == "finished" for f in s.frames):
                return played
            frame = s.receive()
            if frame["type"] == "seated" and frame["event"] == event["id"]:
                s.send(type="join", table=frame["table"])
                first = s.until("table", table=frame["table"])
                play_to_the_end(s, frame["table"], first)
                played.append(frame["table"])
    return played


def run_people(client: TestClient, tokens: list[str], event: dict[str, Any]) -> list[list[str]]:
    with ThreadPoolExecutor(len(tokens)) as pool:
        return list(pool.map(lambda t: person(client, t, event), tokens))


def details(client: TestClient, event: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"/api/events/{event['id']}", params={"token": event["token"]})
    assert response.status_code == 200, response.text
    out: dict[str, Any] = response.json()
    return out


def deal_scores(record: dict[str, Any]) -> list[list[int]]:
    """Each seat's score in each deal of a stored record, replayed here (the test's own reading)."""
    state = load_game(record["game"]).new_game(seed=record["seed"])
    done, before, out = 0, None, []
    for seat, action in record["actions"]:
        state.apply(seat, action)
        if state.deals_finished != done:
            done = state.deals_finished
            now = list(state.scores)
            out.append(now if before is None else [a - b for a, b in zip(now, before, strict=True)])
            before = now
    return out


def test_a_duplicate_event_of_two_rounds_seats_plays_and_scores_by_matchpoints(tmp_path: Path) -> None:
    db = tmp_path / "hall.db"
    with server(db) as client:
        ann, bob, cat = (new_player(client, n) for n in ("Ann", "Bob", "Cat"))
        event = make_event(client, ann, kind="duplicate", game="gin(players=2)", rounds=2, deals=1)
        assert event["private"] and event["link"].endswith(event["token"])
        join(client, bob, event)
        join(client, cat, event)
        played = run_people(client, [ann, bob, cat], event)
        assert all(len(p) == 2 for p in played), played  # every round, every person
        shown = details(client, event)
        assert shown["status"] == "finished" and shown["round"] == 2
        tables = shown["tables"]
        assert sorted((t["round"], t["index"]) for t in tables) == [(1, 0), (1, 1), (2, 0), (2, 1)]
        records = {t["table"]: client.get(f"/api/tables/{t['table']}/record").json() for t in tables}
        for r in (1, 2):
            seeds = {records[t["table"]]["seed"] for t in tables if t["round"] == r}
            assert len(seeds) == 1  # the same deals at every table of a round
        assert records[tables[0]["table"]]["seed"] != records[tables[-1]["table"]]["seed"]
        # Every table has a bot (3 people at tables of 2) only at the last table of a round.
        for t in tables:
            bots = [s for s in t["seats"] if s["bot"]]
            assert len(bots) == (1 if t["index"] == 1 else 0), t
        # The matchpoints, recomputed: per round and hand (seat), one deal, two tables: 1 to the higher
        # score of the hand, 1/2 each on a tie; a bot is compared against and never scored.
        expected: dict[int, float] = {}
        for r in (1, 2):
            pair = [t for t in tables if t["round"] == r]
            scores = [deal_scores(records[t["table"]])[0] for t in pair]
            for i, t in enumerate(pair):
                for s in t["seats"]:
                    if s["bot"]:
                        continue
                    mine, theirs = scores[i][s["seat"]], scores[1 - i][s["seat"]]
                    expected[s["player"]] = expected.get(s["player"], 0.0) + (
                        1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
                    )
        standings = shown["standings"]
        assert {s["player"]: s["matchpoints"] for s in standings} == expected
        assert all(s["share"] == s["matchpoints"] / 2 for s in standings)  # 2 comparisons each
        shares = [s["share"] for s in standings]
        assert shares == sorted(shares, reverse=True) and standings[0]["rank"] == 1
        # A person's page: what the other table made of his cards.
        someone = standings[0]["player"]
        page = client.get(f"/api/events/{event['id']}/players/{someone}", params={"token": event["token"]})
        deals = page.json()["deals"]
        assert len(deals) == 2 and all(len(d["others"]) == 1 for d in deals)
    # A restart: the same standings from the same rows.
    with server(db) as client:
        assert details(client, event)["standings"] == standings


def test_an_arena_seats_two_people_with_a_bot_again_and_again_until_its_end() -> None:
    with server() as client:
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        event = make_event(client, ann, kind="arena", game="hokm", minutes=0.25, deals=1)
        assert event["ends_at"] is not None and event["rounds"] is None
        join(client, bob, event)
        started = time.monotonic()
        played = run_people(client, [ann, bob], event)
        assert time.monotonic() - started >= 0.25 * 60 * 0.9  # (it ran its time)
        assert all(len(p) >= 2 for p in played), played  # seated again after each table
        shown = details(client, event)
        assert shown["status"] == "finished"
        lowest = load_game(shown["game"]).lowest_score_wins
        points: dict[int, int] = {}
        streak: dict[int, int] = {}
        for t in sorted(shown["tables"], key=lambda t: t["finished_at"]):
            assert [s["bot"] for s in t["seats"]].count(True) == 1  # two people and a bot
            record = client.get(f"/api/tables/{t['table']}/record").json()
            state = load_game(record["game"]).new_game(seed=record["seed"])
            for seat, action in record["actions"]:
                state.apply(seat, action)
            scores = list(state.scores)
            for s in t["seats"]:
                if s["bot"]:
                    continue
                mine = scores[s["seat"]]
                better = sum(1 for o in scores if (o < mine if lowest else o > mine))
                equal = scores.count(mine)
                gained = sum(3 - k for k in range(better + 1, better + equal + 1)) // equal
                p = s["player"]
                points[p] = points.get(p, 0) + gained * (2 if streak.get(p, 0) >= 2 else 1)
                streak[p] = streak.get(p, 0) + 1 if better == 0 and equal == 1 else 0  # (won alone)
        assert {s["player"]: s["points"] for s in shown["standings"]} == points


def test_bad_input_is_refused_with_its_code() -> None:
    with server() as client:
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        base = {"kind": "arena", "game": "hokm"}
        post = lambda **f: client.post("/api/events", json={**base, **f}, headers=auth(ann))  # noqa: E731
        assert "kind" in refused(post(kind="swiss"), 400, "bad_event")
        assert "rounds" in refused(post(rounds=3), 400, "bad_event")
        assert "minutes" in refused(post(kind="duplicate", minutes=10), 400, "bad_event")
        assert "deals" in refused(post(deals=40), 400, "bad_event")
        refused(post(game="hokm(nope=1)"), 400, "bad_game")
        refused(post(level="genius"), 400, "bad_request")
        refused(client.post("/api/events", json=base), 401, "not_authenticated")
        refused(client.get("/api/events/nothing"), 404, "no_such_event")
        event = make_event(client, ann, kind="arena", game="hokm", starts_in=3600)
        # A private event: hidden from others without its token, listed for its maker.
        refused(client.get(f"/api/events/{event['id']}"), 404, "no_such_event")
        refused(
            client.post(f"/api/events/{event['id']}/join", json={}, headers=auth(bob)), 404, "no_such_event"
        )
        assert [e["id"] for e in client.get("/api/events", headers=auth(ann)).json()["upcoming"]] == [
            event["id"]
        ]
        assert client.get("/api/events", headers=auth(bob)).json()["upcoming"] == []
        with session(client, bob) as s:
            s.send(type="follow_event", event=event["id"], id=7)
            error = s.until("error")
            assert (error["code"], error["ref"]) == ("no_such_event", 7)


def test_the_operator_makes_cancels_and_schedules_events() -> None:
    with server(admin_token="secret") as client:
        ann = new_player(client, "Ann")
        admin = auth("secret")
        body = {"kind": "duplicate", "game": "hokm", "rounds": 2, "starts_in": 600}
        refused(client.post("/api/admin/events", json=body, headers=auth(ann)), 403, "not_admin")
        made = client.post("/api/admin/events", json=body, headers=admin)
        assert made.status_code == 201 and not made.json()["private"], made.text
        event = made.json()
        listed = client.get("/api/events").json()["upcoming"]
        assert [e["id"] for e in listed] == [event["id"]]  # public: listed for anyone
        joined = client.post(f"/api/events/{event['id']}/join", json={}, headers=auth(ann))
        assert joined.status_code == 200 and joined.json()["players"] == 1
        assert client.post(f"/api/admin/events/{event['id']}/cancel", json={}, headers=admin).json() == {
            "cancelled": event["id"]
        }
        again = client.post(f"/api/events/{event['id']}/join", json={}, headers=auth(ann))
        assert "cancelled" in refused(again, 409, "event_closed")
        refused(client.post("/api/admin/events/nothing/cancel", json={}, headers=admin), 404, "no_such_event")
        bad = client.post("/api/admin/events", json={**body, "rrule": "FREQ=SOMETIMES"}, headers=admin)
        assert "rrule" in refused(bad, 400, "bad_event")
        # A schedule whose occurrence is within its lead makes its event at once (one only).
        schedule = client.post(
            "/api/admin/events",
            json={**body, "rrule": "FREQ=MINUTELY;INTERVAL=30", "lead": 3600},
            headers=admin,
        )
        assert schedule.status_code == 201, schedule.text
        for _ in steps("the schedule's event"):
            made_events = [e for e in client.get("/api/events").json()["upcoming"] if e["schedule"]]
            if made_events:
                break
            time.sleep(0.2)
        assert [e["schedule"] for e in made_events] == [schedule.json()["schedule"]]
        shown = client.get("/api/admin/events", headers=admin).json()
        assert [s["rrule"] for s in shown["schedules"]] == ["FREQ=MINUTELY;INTERVAL=30"]


def test_a_restart_mid_event_goes_on_from_the_store(tmp_path: Path) -> None:
    db = tmp_path / "hall.db"
    stand_ins = {**FAST, "away_seconds": 0, "turn_seconds": 0}  # (nobody connects: stand-ins play)
    with server(db) as client:
        ann, bob, cat = (new_player(client, n) for n in ("Ann", "Bob", "Cat"))
        body = {"kind": "duplicate", "game": "gin(players=2)", "rounds": 3, "deals": 1, "starts_in": 0}
        made = client.post("/api/events", json={**body, "settings": stand_ins}, headers=auth(ann))
        event = made.json()
        join(client, bob, event)
        join(client, cat, event)
        for _ in steps("round 1"):
            if (details(client, event)["round"] or 0) >= 1:
                break
            time.sleep(0.1)
    with server(db) as client:  # (stopped mid-event: the new server's director goes on from the rows)
        shown = details(client, event)
        assert shown["status"] == "running" and shown["round"] < 3, shown
        for _ in steps("the event's end after the restart"):
            shown = details(client, event)
            if shown["status"] == "finished":
                break
            time.sleep(0.2)
        assert sorted({t["round"] for t in shown["tables"]}) == [1, 2, 3]
        assert [s["tables"] for s in shown["standings"]] == [3, 3, 3]  # every round counted for each
