"""What the server gives a browser so that a person never loses his seat and reads his moves and options
without parsing text: the legal entries' structured fields (``Game.action_info``), the player's own
tables (``GET /api/players/me/tables``) and coming back to his seat from any connection, and each
option described for a control in both languages (``GET /api/games``)."""

from __future__ import annotations

from typing import Any

import cardhall
from cardhall.rulebook import LANGUAGES
from tests.server_helpers import FAST, auth, new_player, new_table, server, session


def quick_play(client: Any, token: str, game: str = "hokm", **settings: Any) -> str:
    body = {"game": game, "level": "easy", "settings": {**FAST, **settings}}
    response = client.post("/api/quickplay", json=body, headers=auth(token))
    assert response.status_code == 201, response.text
    table: str = response.json()["table"]
    return table


def test_each_legal_entry_says_what_its_action_means() -> None:
    with server() as client:
        token = new_player(client)
        # Bots at a pace: the first frames show the bidding, whoever bids first (a fifth of a second
        # a move, not ten: a bot bidding before the person was most of this test's time).
        table = quick_play(client, token, "hokm", bot_pace_ms=200)
        with session(client, token) as s:
            s.send(type="join", table=table)
            frame = s.until("table", table=table)
            game = cardhall.load_game(frame["game"])
            seen = [frame]
            while not frame["legal"]:
                frame = s.until("update", table=table)
                seen.append(frame)
            for entry in frame["legal"]:
                assert entry == {
                    "action": entry["action"],
                    "label": game.action_label(entry["action"]),
                    **game.action_info(entry["action"]),
                }
            assert {e["kind"] for e in frame["legal"]} == {"bid"}
            assert {e["contract"] for e in frame["legal"]} == set(range(2, 11))
            # The int is what a client sends back.
            s.send(type="act", table=table, action=frame["legal"][0]["action"], n=frame["n"])
            shown = s.until("update", table=table)
            while not any(e["type"] == "action" and e["seat"] == 0 for e in shown["events"]):
                shown = s.until("update", table=table)


def test_a_player_sees_his_tables_and_whether_it_is_his_turn() -> None:
    with server() as client:
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        assert client.get("/api/players/me/tables").json()["error"] == "not_authenticated"
        playing = quick_play(client, ann, "hokm", bot_pace_ms=10_000)
        waiting = new_table(client, ann, "kierki")
        with session(client, ann) as s:
            s.send(type="join", table=waiting)
            s.until("table", table=waiting)
            s.send(type="join", table=playing)
            frame = s.until("table", table=playing)
            mine = client.get("/api/players/me/tables", headers=auth(ann)).json()["tables"]
            assert {t["table"]: t["status"] for t in mine} == {playing: "playing", waiting: "waiting"}
            listed = next(t for t in mine if t["table"] == playing)
            assert listed["you"] == 0 and listed["n"] >= frame["n"]
            assert listed["your_turn"] == (0 in frame["to_act"])
            assert next(t for t in mine if t["table"] == waiting)["your_turn"] is False
            assert client.get("/api/players/me/tables", headers=auth(bob)).json() == {"tables": []}
            # Left for good during the match: no longer his to go back to.
            s.send(type="leave", table=playing)
            s.send(type="ping", id="after")
            s.until("pong", ref="after")
            mine = client.get("/api/players/me/tables", headers=auth(ann)).json()["tables"]
            assert [t["table"] for t in mine] == [waiting]


def test_a_player_comes_back_to_his_seat_from_any_connection_whatever_he_did() -> None:
    with server() as client:
        token = new_player(client)
        table = quick_play(client, token, "hokm", bot_pace_ms=10_000, away_seconds=0)
        with session(client, token) as first:
            first.send(type="join", table=table)
            first.until("table", table=table, you=0)
            # He went to the lobby and watched his own table from there: his seat has no connection, and
            # with away_seconds 0 the stand-in plays for him at once.
            first.send(type="watch", table=table)
            first.until("table", table=table, you=None)
            first.until_seat(0, connected=False, stand_in="rules")
            # Another tab (another connection) joins: the seat is his again and the stand-in stops.
            with session(client, token) as second:
                second.send(type="join", table=table, since=0)
                back = second.until("table", table=table)
                assert back["you"] == 0
                second.until_seat(0, connected=True, stand_in=None)
                # ... and the first tab may take it too: both are joined to it.
                first.send(type="join", table=table)
                assert first.until("table", table=table)["you"] == 0


def test_every_option_is_described_for_a_control_in_both_languages() -> None:
    with server() as client:
        data = client.get("/api/games").json()
        described = [(g["name"], o) for g in data["games"] for o in g["options"]]
        described += [("table", o) for o in data["settings"]]
        assert len(described) > 40
        for owner, o in described:
            assert o["type"] in ("bool", "int", "choice"), (owner, o)
            if o["type"] == "choice":
                assert o["default"] in o["values"], (owner, o)
            if o["type"] == "int":
                assert o["values"] is None and (o["minimum"] is None or o["minimum"] <= o["default"])
            assert set(o["text"]) == set(LANGUAGES), (owner, o["name"])
            for lang, text in o["text"].items():
                assert text["title"] and text["help"], (owner, o["name"], lang)
                words = [v for v in o["values"] or [] if isinstance(v, str)]
                assert sorted(text.get("values", {})) == sorted(words), (owner, o["name"], lang)
        hokm = next(g for g in data["games"] if g["name"] == "hokm")
        bidding = next(o for o in hokm["options"] if o["name"] == "bidding")
        assert bidding["values"] == ["compulsory", "auction"]
        assert bidding["text"]["bn"]["values"]["auction"] == "নিলাম"


def test_everyone_at_a_table_sees_how_many_people_watch_it() -> None:
    with server() as client:
        ann, cat = new_player(client, "Ann"), new_player(client, "Cat")
        table = quick_play(client, ann, "hokm", bot_pace_ms=10_000)
        with session(client, ann) as player:
            player.send(type="join", table=table)
            assert player.until("table", table=table)["spectators"] == 0
            with session(client, cat) as watcher:
                watcher.send(type="watch", table=table)
                assert watcher.until("table", table=table)["spectators"] == 1
                player.until("update", table=table, spectators=1)
                with session(client, cat) as second_tab:  # the same person twice counts once
                    second_tab.send(type="watch", table=table)
                    assert second_tab.until("table", table=table)["spectators"] == 1
            player.until("update", table=table, spectators=0)


def test_the_client_is_served_compressed_with_cache_headers_that_follow_changes() -> None:
    with server() as client:
        page = client.get("/", headers={"Accept-Encoding": "gzip"})
        assert page.headers["cache-control"] == "no-cache"
        assert 'rel="icon"' in page.text
        for path in ("/static/table.js", "/static/i18n/bn.json", "/static/style.css"):
            first = client.get(path, headers={"Accept-Encoding": "gzip"})
            assert first.status_code == 200 and first.headers["content-encoding"] == "gzip", path
            assert first.headers["cache-control"] == "no-cache" and first.headers["etag"], path
            again = client.get(path, headers={"If-None-Match": first.headers["etag"]})
            assert again.status_code == 304, path
        icon = client.get("/static/favicon.svg")
        assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg")
        api = client.get("/api/games", headers={"Accept-Encoding": "gzip"})
        assert api.headers["content-encoding"] == "gzip"
