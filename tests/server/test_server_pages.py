"""The server's routes behind the browser's lobby, rules page and replay viewer, in-process: the rules of
each game in each language (``GET /api/rules/{game}``), the finished tables (``GET /api/finished``) and a
finished match position by position (``GET /api/tables/{table}/replay``), with their bad input."""

from __future__ import annotations

import itertools
import re
import time
from typing import Any

import pytest
from starlette.testclient import TestClient

import cardhall
from cardhall.records import replay
from cardhall.rulebook import LANGUAGES
from cardhall.server.replays import MAX_POSITIONS
from tests.server_helpers import auth, new_player, new_table, server, session


def finish(client: TestClient, table: str) -> dict[str, Any]:
    """The table's summary once its match is over (bots play it: it takes a moment; a generous ceiling
    for a loaded machine)."""
    deadline = time.monotonic() + 120
    while True:
        summary: dict[str, Any] = client.get(f"/api/tables/{table}").json()
        if summary["status"] == "finished":
            return summary
        assert time.monotonic() < deadline, summary
        time.sleep(0.05)


def bot_match(client: TestClient, game: str = "hokm(max_hands=1)") -> str:
    """A finished match the bots play by themselves: a person's quick play with easy bots, where he
    never comes (``away_seconds`` 0: the stand-in plays his seat at once; a server table seats at least
    one person)."""
    token = new_player(client, "Nobody")
    settings = {"bot_pace_ms": 0, "away_seconds": 0}
    response = client.post(
        "/api/quickplay", json={"game": game, "level": "easy", "settings": settings}, headers=auth(token)
    )
    assert response.status_code == 201, response.text
    table: str = response.json()["table"]
    finish(client, table)
    return table


# --- rules ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", sorted(cardhall.game_classes()))
def test_the_rules_of_every_game_in_every_language(game: str, lang: str) -> None:
    with server() as client:
        response = client.get(f"/api/rules/{game}", params={"lang": lang})
        assert response.status_code == 200, response.text
        data = response.json()
        assert (data["game"], data["lang"]) == (game, lang)
        assert data["markdown"].startswith("# ")
        assert len(data["markdown"].splitlines()) > 10


def test_the_rules_are_in_english_unless_asked_otherwise() -> None:
    with server() as client:
        plain = client.get("/api/rules/hokm").json()
        assert plain["lang"] == "en"
        assert plain["markdown"] == client.get("/api/rules/hokm?lang=en").json()["markdown"]
        if "bn" in LANGUAGES:
            assert plain["markdown"] != client.get("/api/rules/hokm?lang=bn").json()["markdown"]


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("/api/rules/chess", 404, "no_such_game"),
        ("/api/rules/hokm(target=300)", 404, "no_such_game"),  # a name, not a game string
        ("/api/rules/hokm?lang=fr", 400, "bad_request"),
        ("/api/rules/hokm?lang=", 400, "bad_request"),
        ("/api/rules/chess?lang=fr", 404, "no_such_game"),  # the game is checked first
    ],
)
def test_bad_rules_requests_say_what_was_wrong(path: str, status: int, code: str) -> None:
    with server() as client:
        response = client.get(path)
        assert response.status_code == status
        error = response.json()
        assert error["error"] == code and error["message"]


# --- finished tables ----------------------------------------------------------------------------------


def test_finished_tables_are_listed_newest_first_with_their_people() -> None:
    with server() as client:
        assert client.get("/api/finished").json() == {"tables": []}
        first = bot_match(client)
        token = new_player(client, "Ann")
        me = client.get("/api/players/me", headers=auth(token)).json()["id"]
        # Ann quick-plays and never comes: after away_seconds the stand-in plays her seat to the end.
        quick = client.post(
            "/api/quickplay",
            json={"game": "hokm(max_hands=1)", "settings": {"bot_pace_ms": 0, "away_seconds": 1}},
            headers=auth(token),
        ).json()["table"]
        waiting = new_table(client, token, "svara")  # not finished: not listed
        finish(client, quick)
        tables = client.get("/api/finished").json()["tables"]
        assert [t["table"] for t in tables] == [quick, first]
        assert waiting not in {t["table"] for t in tables}
        ann = tables[0]["seats"][0]
        assert (ann["kind"], ann["name"], ann["player"]) == ("person", "Ann", me)
        nobody = tables[1]["seats"][0]
        assert (nobody["kind"], nobody["name"]) == ("person", "Nobody")
        assert all(s["kind"] == "bot" and s["player"] is None for s in tables[1]["seats"][1:])
        assert tables[0]["game"] == "hokm(max_hands=1)" and tables[0]["finished_at"]
        assert [t["table"] for t in client.get("/api/finished?limit=1").json()["tables"]] == [quick]


@pytest.mark.parametrize("limit", ["0", "51", "x", "-1", "1.5"])
def test_a_bad_limit_of_finished_tables_is_refused(limit: str) -> None:
    with server() as client:
        response = client.get("/api/finished", params={"limit": limit})
        assert response.status_code == 400
        assert response.json()["error"] == "bad_request" and "limit" in response.json()["message"]


# --- replays -------------------------------------------------------------------------------------------


def test_a_replay_steps_through_the_whole_match_with_every_hand_open() -> None:
    with server() as client:
        table = bot_match(client)
        record = client.get(f"/api/tables/{table}/record").json()
        game = cardhall.load_game(record["game"])
        steps = len(record["actions"])
        positions: list[dict[str, Any]] = []
        while True:
            page = client.get(f"/api/tables/{table}/replay", params={"from": len(positions)}).json()
            assert page["steps"] == steps and page["from"] == len(positions)
            assert len(page["positions"]) <= MAX_POSITIONS
            positions += page["positions"]
            if len(positions) == steps + 1:
                break
            assert len(page["positions"]) == MAX_POSITIONS
        assert page["game"] == record["game"]
        assert [s["kind"] for s in page["seats"]] == ["person", "bot", "bot"]
        assert [p["step"] for p in positions] == list(range(steps + 1))
        first = positions[0]
        assert first["seat"] is None and first["action"] is None
        assert [e["type"] for e in first["events"]] == ["deal"]
        # The first deal: ten cards to each of three seats, all different.
        dealt = [card for hand in first["hands"] for card in hand]
        assert [len(h) for h in first["hands"]] == [10, 10, 10] and len(set(dealt)) == 30
        for position, (seat, action) in zip(positions[1:], record["actions"], strict=True):
            assert (position["seat"], position["action"]) == (seat, game.action_label(action))
        # A card played leaves its player's hand at that step (unless the step also deals the next hand,
        # which may give him the same card again).
        for before, after in itertools.pairwise(positions):
            word, _, card = after["action"].partition(" ")
            if word == "play":
                assert card in before["hands"][after["seat"]]
                if not any(e["type"] == "deal" for e in after["events"]):
                    assert card not in after["hands"][after["seat"]]
        tricks = sum(1 for p in positions for e in p["events"] if e["type"] == "trick")
        # Ten tricks a hand; max_hands=1 plays a second hand when the first ends in a tie for the top.
        hands = sum(1 for p in positions for e in p["events"] if e["type"] == "deal")
        assert hands >= 1 and tricks == 10 * hands
        last = positions[-1]
        assert last["observation"]["is_over"] and any(e["type"] == "deal_scored" for e in last["events"])
        assert last["observation"] == replay(record).observation(None)


def test_a_page_of_a_replay_is_the_same_as_the_positions_it_covers() -> None:
    with server() as client:
        table = bot_match(client)
        whole = client.get(f"/api/tables/{table}/replay", params={"count": 20}).json()["positions"]
        part = client.get(f"/api/tables/{table}/replay", params={"from": 7, "count": 5}).json()
        assert part["positions"] == whole[7:12]
        steps = part["steps"]
        end = client.get(f"/api/tables/{table}/replay", params={"from": steps, "count": 5}).json()
        assert [p["step"] for p in end["positions"]] == [steps]


@pytest.mark.parametrize(
    "query",
    [{"from": "-1"}, {"from": "x"}, {"from": "100000"}, {"count": "0"}, {"count": str(MAX_POSITIONS + 1)}],
)
def test_a_replay_page_out_of_range_is_refused(query: dict[str, str]) -> None:
    with server() as client:
        table = bot_match(client)
        response = client.get(f"/api/tables/{table}/replay", params=query)
        assert response.status_code == 400
        error = response.json()
        assert error["error"] == "bad_request" and next(iter(query)) in error["message"]


def test_a_replay_of_no_table_or_of_a_match_not_over_is_refused() -> None:
    with server() as client:
        missing = client.get("/api/tables/nosuch12/replay")
        assert missing.status_code == 404 and missing.json()["error"] == "no_such_table"
        token = new_player(client)
        waiting = new_table(client, token, "hokm")
        early = client.get(f"/api/tables/{waiting}/replay")
        assert early.status_code == 409 and early.json()["error"] == "not_over"


def test_an_abandoned_table_replays_to_nothing() -> None:
    with server() as client:
        token = new_player(client)
        table = new_table(client, token, "hokm")
        with session(client, token) as s:
            s.send(type="join", table=table)
            s.until("table")
            s.send(type="leave", table=table)
            deadline = time.monotonic() + 60
            while client.get(f"/api/tables/{table}").json()["status"] != "abandoned":
                assert time.monotonic() < deadline
                time.sleep(0.05)
        data = client.get(f"/api/tables/{table}/replay").json()
        assert (data["steps"], data["positions"]) == (0, [])


# --- the explanations of the options the server lists ---------------------------------------------------


def test_every_option_the_server_lists_is_explained_in_bengali_words() -> None:
    """The options' names, explanations and value words (``GET /api/games``, from
    ``cardhall.rulebook``) are Bengali in Bengali: no Latin letters (the values people type stay in the
    game string, not in the words shown)."""
    with server() as client:
        listed = client.get("/api/games").json()
    options = [o for g in listed["games"] for o in g["options"]] + listed["settings"]
    assert len(options) > 40
    for o in options:
        text = o["text"]["bn"]
        for words in (text["title"], text["help"], *text.get("values", {}).values()):
            assert re.search("[\u0980-\u09ff]", words) and not re.search("[A-Za-z]", words), (
                o["name"],
                words,
            )


def test_the_replay_says_where_each_trick_and_deal_is() -> None:
    with server() as client:
        table = bot_match(client, "hokm(max_hands=2)")
        first = client.get(f"/api/tables/{table}/replay").json()
        marks = first["marks"]
        record = client.get(f"/api/tables/{table}/record").json()
        state = replay({**record, "actions": []})
        assert marks["deals"][0] == 0 and len(marks["deals"]) == len(marks["scored"]) >= 2
        assert len(marks["tricks"]) == 10 * len(marks["scored"])  # ten tricks a Hokm hand
        assert marks["scored"][-1] == first["steps"]
        assert first["positions"][1]["move"] == state.game.action_info(record["actions"][0][1])
        assert client.get(f"/api/tables/{table}/replay?from=20").json()["marks"] is None
