"""Accounts (:mod:`cardhall.server.accounts`, :mod:`cardhall.server.sessions`, :mod:`cardhall.server.names`)
on SQLite and PostgreSQL: a guest made an account keeps his history and ratings, sign-in on another
device, sign-out here or everywhere, a new password ending the other sessions, the session cookie over
HTTP and the websocket, a player's page, every refusal of each route, the throttling of sign-ins, and
the ratings that cannot be farmed (the farming case played through the websocket)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardhall.server import connection, names, ratings
from cardhall.server.accounts import MAX_PASSWORD, MIN_PASSWORD
from cardhall.server.rates import Limits, Rate
from cardhall.store import RatingRow
from cardhall.store.rows import RatingInputs
from tests.server.account_helpers import (
    BACKENDS,
    ORIGIN,
    PASSWORD,
    account,
    app,
    cheapest_stay,
    fold_or_first,
    guest,
    play_two,
    read,
    sign_in,
    sign_up,
)
from tests.server_helpers import FAST, auth, play_to_the_end, refused, session, store_url


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return store_url(request.param, request, tmp_path)


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    with app(url) as c:
        yield c


def quick_match(client: TestClient, token: str) -> str:
    started = client.post(
        "/api/quickplay", json={"game": "hokm(max_hands=1)", "settings": FAST}, headers=auth(token)
    )
    assert started.status_code == 201, started.text
    table: str = started.json()["table"]
    with session(client, token) as s:
        s.send(type="join", table=table)
        play_to_the_end(s, table, s.until("table"))
    return table


# --- a guest becomes an account -----------------------------------------------------------------------


def test_a_guest_made_an_account_keeps_his_id_history_and_ratings(client: TestClient) -> None:
    ann, token = guest(client, "Ann")
    table = quick_match(client, token)
    before = client.get(f"/api/players/{ann}").json()
    assert before["guest"] is True and [m["table"] for m in before["matches"]] == [table]
    assert [(r["game"], r["pool"], r["games"]) for r in before["ratings"]] == [("hokm", "bots", 1)]

    session_token = sign_up(client, token, "Ann")
    after = client.get(f"/api/players/{ann}").json()
    assert after["guest"] is False and after["name"] == "Ann"
    assert after["ratings"] == before["ratings"] and after["matches"] == before["matches"]
    assert client.get("/api/players/me", headers=auth(session_token)).json() == {
        "id": ann,
        "name": "Ann",
        "guest": False,
    }
    # The guest's token died: a password guards him now.
    refused(client.get("/api/players/me", headers=auth(token)), 401, "bad_token")


def test_the_account_name_may_differ_from_the_guest_name_and_is_his_name_everywhere(
    client: TestClient,
) -> None:
    ann, token = guest(client, "guest 7")
    session_token = sign_up(client, token, "Annika")
    assert client.get("/api/players/me", headers=auth(session_token)).json()["name"] == "Annika"
    with session(client, session_token) as s:
        assert s.frames[-1]["player"] == {"id": ann, "name": "Annika", "guest": False}


def test_signing_in_on_another_device_gives_another_session_of_the_same_player(client: TestClient) -> None:
    ann, first = account(client, "Ann")
    response = sign_in(client, "ann")  # the name's case does not matter
    assert response.status_code == 201, response.text
    second = response.json()["token"]
    device = response.json()["device"]  # (the proof of this sign-in, for the next: cardhall.server.devices)
    assert response.json() == {"id": ann, "name": "Ann", "guest": False, "token": second, "device": device}
    assert second != first
    for token in (first, second):
        assert client.get("/api/players/me", headers=auth(token)).json()["id"] == ann
    assert read(client, lambda s: s.sessions(ann)) == 2


def test_signing_out_ends_this_session_only_or_every_one(client: TestClient) -> None:
    ann, first = account(client, "Ann")
    second = sign_in(client, "Ann").json()["token"]
    third = sign_in(client, "Ann").json()["token"]
    out = client.post("/api/signout", json={}, headers=auth(first))
    assert out.status_code == 200 and out.json() == {"ended": 1}
    refused(client.get("/api/players/me", headers=auth(first)), 401, "bad_token")
    assert client.get("/api/players/me", headers=auth(second)).status_code == 200
    out = client.post("/api/signout", json={"everywhere": True}, headers=auth(second))
    assert out.json() == {"ended": 2}
    for token in (second, third):
        refused(client.get("/api/players/me", headers=auth(token)), 401, "bad_token")
    assert read(client, lambda s: s.sessions(ann)) == 0
    assert sign_in(client, "Ann").status_code == 201  # the account stays


def test_signing_out_everywhere_closes_the_websockets_of_the_ended_sessions(client: TestClient) -> None:
    ann, mine = account(client, "Ann")
    other = sign_in(client, "Ann").json()["token"]
    with session(client, other) as theirs, session(client, mine) as kept:
        client.post(
            "/api/account/password", json={"current": PASSWORD, "new": "a new long one"}, headers=auth(mine)
        )
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                theirs.receive()
        assert closed.value.code == connection.WS_SESSION_ENDED
        kept.send(type="ping", id="still")
        assert kept.until("pong")["ref"] == "still"  # the session that changed it stays
        client.post("/api/signout", json={"everywhere": True}, headers=auth(mine))
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                kept.receive()
        assert closed.value.code == connection.WS_SESSION_ENDED
    assert read(client, lambda s: s.sessions(ann)) == 0


def test_a_new_password_ends_the_other_sessions_and_the_old_one_stops_working(client: TestClient) -> None:
    _, mine = account(client, "Ann")
    other = sign_in(client, "Ann").json()["token"]
    changed = client.post(
        "/api/account/password", json={"current": PASSWORD, "new": "a new long one"}, headers=auth(mine)
    )
    assert changed.status_code == 200, changed.text
    assert client.get("/api/players/me", headers=auth(mine)).status_code == 200
    refused(client.get("/api/players/me", headers=auth(other)), 401, "bad_token")
    refused(sign_in(client, "Ann"), 401, "bad_credentials")
    assert sign_in(client, "Ann", "a new long one").status_code == 201


# --- the cookie -----------------------------------------------------------------------------------------


def test_the_browser_gets_an_httponly_samesite_cookie_and_no_token(client: TestClient) -> None:
    ann, _ = account(client, "Ann")
    response = sign_in(client, "Ann", cookie=True)
    assert response.status_code == 201 and "token" not in response.json()
    cookie = response.headers["set-cookie"]
    for part in ("cardhall_session=", "HttpOnly", "SameSite=strict", "Path=/", "Max-Age="):
        assert part in cookie, cookie
    assert "Secure" not in cookie  # plain http here; https gets it
    # Reading needs no Origin; the cookie speaks for him.
    assert client.get("/api/players/me").json()["id"] == ann
    made = client.post("/api/quickplay", json={"game": "hokm(max_hands=1)", "settings": FAST}, headers=ORIGIN)
    assert made.status_code == 201, made.text
    # The websocket: hello without a token, from this site's page.
    with client.websocket_connect("/ws", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "id": 1})
        assert ws.receive_json() == {
            "type": "welcome",
            "ref": 1,
            "player": {"id": ann, "name": "Ann", "guest": False},
        }
    out = client.post("/api/signout", json={}, headers=ORIGIN)
    assert out.status_code == 200 and "cardhall_session=" in out.headers["set-cookie"]
    refused(client.get("/api/players/me"), 401, "not_authenticated")


def test_a_guest_signed_up_from_the_browser_gets_the_cookie(client: TestClient) -> None:
    ann, token = guest(client, "Ann")
    made = client.post(
        "/api/account", json={"name": "Ann", "password": PASSWORD, "cookie": True}, headers=auth(token)
    )
    assert made.status_code == 201 and "token" not in made.json()
    assert client.get("/api/players/me").json() == {"id": ann, "name": "Ann", "guest": False}


# --- a player's page ----------------------------------------------------------------------------------


def test_a_players_page_has_his_ratings_history_totals_and_matches(client: TestClient) -> None:
    ann, token = guest(client, "Ann")
    tables = [quick_match(client, token) for _ in range(2)]
    page = client.get(f"/api/players/{ann}").json()
    (rating,) = page["ratings"]
    assert rating["games"] == 2 and rating["provisional"] is True
    assert [p["table"] for p in rating["history"]] == tables
    assert rating["history"][-1]["mu"] == rating["mu"] and rating["history"][-1]["sigma"] == rating["sigma"]
    assert page["totals"][0]["game"] == "hokm" and page["totals"][0]["matches"] == 2
    assert {m["table"] for m in page["matches"]} == set(tables)
    seat = page["matches"][0]["seats"][page["matches"][0]["seat"]]
    assert seat["player"] == ann and seat["name"] == "Ann" and seat["guest"] is True
    assert all(m["absent"] is None for m in page["matches"])  # (he played them himself)
    assert rating["rating"] == ratings.shown(rating["mu"]) and page["min_games"] == ratings.BOARD_MIN_GAMES
    # A provisional rating is on no board, the bots' one included (issue 46).
    assert client.get("/api/leaderboard/hokm?pool=bots").json()["players"] == []


def test_a_page_of_nobody_is_404(client: TestClient) -> None:
    for path in ("999999", "ann", "-1", "1e3", "9" * 40):
        refused(client.get(f"/api/players/{path}"), 404, "no_such_player")


# --- refusals -------------------------------------------------------------------------------------------


def test_signing_up_needs_a_player_and_refuses_a_second_account(client: TestClient) -> None:
    refused(client.post("/api/account", json={"name": "Ann", "password": PASSWORD}), 401, "not_authenticated")
    bad = {"Authorization": "Bearer nothing-like-a-token"}
    refused(
        client.post("/api/account", json={"name": "Ann", "password": PASSWORD}, headers=bad), 401, "bad_token"
    )
    _, token = account(client, "Ann")
    refused(
        client.post("/api/account", json={"name": "Ann2", "password": PASSWORD}, headers=auth(token)),
        409,
        "already_an_account",
    )


@pytest.mark.parametrize("taken", ["ann", "ANN", "\u0410nn", "\uff21nn", " Ann ", "AnnI", "Ann1"])
def test_a_name_taken_in_another_case_or_look_is_refused(client: TestClient, taken: str) -> None:
    account(client, "Annl" if taken in ("AnnI", "Ann1") else "Ann")
    _, token = guest(client, "Bob")
    refused(
        client.post("/api/account", json={"name": taken, "password": PASSWORD}, headers=auth(token)),
        409,
        "name_taken",
    )
    assert client.get("/api/players/me", headers=auth(token)).json()["guest"] is True  # nothing changed


@pytest.mark.parametrize(
    ("name", "named"),
    [
        ("A\u200bnn", "U+200B ZERO WIDTH SPACE"),
        ("\u202eAnn", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("Ann\u2066", "U+2066 LEFT-TO-RIGHT ISOLATE"),
        ("A\tnn", "U+0009"),
        ("A\u00a0nn", "U+00A0 NO-BREAK SPACE"),
        ("A  nn", "two spaces in a row"),
        ("Ab", "3 to 24 characters"),
        ("A" * 25, "3 to 24 characters"),
        ("Ze\u0301\u0302\u0303\u0304\u0305", "combining marks"),
        ("An\ue000n", "private-use"),
    ],
)
def test_a_bad_account_name_is_refused_naming_what_is_wrong(
    client: TestClient, name: str, named: str
) -> None:
    _, token = guest(client, "Bob")
    message = refused(
        client.post("/api/account", json={"name": name, "password": PASSWORD}, headers=auth(token)),
        400,
        "bad_name",
    )
    assert named in message
    assert client.get("/api/players/me", headers=auth(token)).json()["guest"] is True


def test_names_of_every_script_are_accounts() -> None:
    for name in ("পলাশ দাস", "Ünal", "Петя", "李小龍"):
        assert names.account_name(name) == name
    assert names.name_key("Ann") == names.name_key("\u0430nn") == names.name_key("ANN")
    assert names.name_key("Ann") != names.name_key("Anna")


@pytest.mark.parametrize("password", ["x" * (MIN_PASSWORD - 1), "x" * (MAX_PASSWORD + 1)])
def test_a_password_too_short_or_too_long_is_refused(client: TestClient, password: str) -> None:
    _, token = guest(client, "Bob")
    message = refused(
        client.post("/api/account", json={"name": "Bob", "password": password}, headers=auth(token)),
        400,
        "bad_password",
    )
    assert f"{MIN_PASSWORD} to {MAX_PASSWORD}" in message
    changed = client.post(
        "/api/account/password", json={"current": PASSWORD, "new": password}, headers=auth(token)
    )
    refused(changed, 400, "bad_password")


@pytest.mark.parametrize(
    ("route", "body"),
    [
        ("/api/signin", b"not json"),
        ("/api/signin", b'{"name": "Ann"}'),
        ("/api/signin", b'{"name": "Ann", "password": 7}'),
        ("/api/signin", b'{"name": "Ann", "password": "x", "admin": true}'),
        ("/api/account", b"[]"),
        ("/api/signout", b'{"everywhere": "yes"}'),
        ("/api/account/password", b'{"new": "a long password"}'),
    ],
)
def test_bodies_of_the_wrong_shape_are_refused(client: TestClient, route: str, body: bytes) -> None:
    _, token = account(client, "Ann")
    response = client.post(route, content=body, headers={**auth(token), "Content-Type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"] in ("bad_json", "bad_message")


def test_a_guest_has_no_session_to_end_and_no_password_to_change(client: TestClient) -> None:
    _, token = guest(client)
    refused(client.post("/api/signout", json={}, headers=auth(token)), 409, "not_an_account")
    changed = client.post(
        "/api/account/password", json={"current": PASSWORD, "new": "a new long one"}, headers=auth(token)
    )
    refused(changed, 409, "not_an_account")
    assert client.get("/api/players/me", headers=auth(token)).status_code == 200


def test_a_wrong_current_password_changes_nothing(client: TestClient) -> None:
    _, token = account(client, "Ann")
    changed = client.post(
        "/api/account/password", json={"current": "not the one", "new": "a new long one"}, headers=auth(token)
    )
    refused(changed, 401, "bad_credentials")
    assert sign_in(client, "Ann").status_code == 201
    refused(sign_in(client, "Ann", "a new long one"), 401, "bad_credentials")


def test_a_sign_in_says_the_same_for_an_unknown_name_and_a_wrong_password(client: TestClient) -> None:
    account(client, "Ann")
    unknown, wrong = sign_in(client, "Nobody"), sign_in(client, "Ann", "wrong password")
    assert unknown.status_code == wrong.status_code == 401
    assert (
        unknown.json()
        == wrong.json()
        == {
            "error": "bad_credentials",
            "message": "no account has this name and password",
        }
    )
    refused(sign_in(client, "", ""), 401, "bad_credentials")  # nothing to tell either
    refused(sign_in(client, "Ann\x00", PASSWORD), 401, "bad_credentials")  # no name an account may have


# --- throttling -------------------------------------------------------------------------------------------


def test_repeated_failed_sign_ins_are_refused_with_retry_after_even_with_the_right_password(url: str) -> None:
    limits = Limits(
        signin_failures_per_name=Rate(1 / 60, 3),
        signin_failures_per_address=Rate(1 / 60, 5),
    )
    with app(url, limits) as client:
        account(client, "Ann")
        account(client, "Bob")
        for _ in range(3):
            refused(sign_in(client, "Ann", "guess"), 401, "bad_credentials")
        answer = sign_in(client, "ann")  # the right password: refused all the same, before any hashing
        refused(answer, 429, "rate_limited")
        assert int(answer.headers["Retry-After"]) >= 1
        assert sign_in(client, "Bob").status_code == 201  # another name is not held up yet
        for _ in range(2):
            refused(sign_in(client, "Nobody", "guess"), 401, "bad_credentials")
        refused(sign_in(client, "Bob"), 429, "rate_limited")  # the address's failures: 5 now
        message = refused(sign_in(client, "Carol", "x"), 429, "rate_limited")
        assert "failed sign-ins from one address" in message


def test_making_accounts_is_rated_per_address(url: str) -> None:
    with app(url, Limits(accounts_per_address=Rate(1 / 60, 2))) as client:
        account(client, "Ann")
        _, bob = guest(client, "Bob")
        taken = client.post("/api/account", json={"name": "ANN", "password": PASSWORD}, headers=auth(bob))
        refused(taken, 409, "name_taken")  # refused before the rate: it takes nothing from it
        sign_up(client, bob, "Bob")
        _, token = guest(client, "Carol")
        answer = client.post(
            "/api/account", json={"name": "Carol", "password": PASSWORD}, headers=auth(token)
        )
        refused(answer, 429, "rate_limited")
        assert "Retry-After" in answer.headers


# --- ratings that cannot be farmed ------------------------------------------------------------------------


def inputs(
    accounts: set[int] = frozenset(),  # type: ignore[assignment]
    played: dict[int, int] | None = None,
    pairs: dict[tuple[int, int], int] | None = None,
) -> RatingInputs:
    return RatingInputs({}, played or {}, set(accounts), pairs or {})


def test_an_established_account_counts_a_fresh_one_and_a_guest_do_not() -> None:
    established = inputs({2}, {2: ratings.ESTABLISHED_MATCHES})
    (row,) = [
        r
        for r in ratings.rate_match("svara", "people", [1, 2], [10, 0], False, established)
        if r.player_id == 1
    ]
    assert row.mu > 25 and row.games == 1
    # Player 1 an established account: he counts for 2, but a fresh account 2, or a guest 2, not for him.
    fresh = inputs({1, 2}, {1: 50, 2: ratings.ESTABLISHED_MATCHES - 1})
    guest_opponent = inputs({1}, {1: 50, 2: 100})
    for case in (fresh, guest_opponent):
        assert [r.player_id for r in ratings.rate_match("svara", "people", [1, 2], [10, 0], False, case)] == [
            2
        ]


def test_a_pair_counts_only_so_often_within_the_window() -> None:
    pairs = {(1, 2): ratings.PAIR_LIMIT - 1}
    case = inputs({1, 2}, {1: 50, 2: 50}, pairs)
    assert {r.player_id for r in ratings.rate_match("svara", "people", [1, 2], [10, 0], False, case)} == {
        1,
        2,
    }
    case.pairs[(1, 2)] = ratings.PAIR_LIMIT
    assert ratings.rate_match("svara", "people", [1, 2], [10, 0], False, case) == []


def test_bots_always_count() -> None:
    rows = ratings.rate_match("hokm", "bots", [1, None, None], [500, 200, 100], False, inputs())
    assert [(r.player_id, r.games) for r in rows] == [(1, 1)] and rows[0].mu > 25


def test_a_farmer_folding_fresh_guests_does_not_climb_nor_reach_the_board(client: TestClient) -> None:
    """The case of the issue: a farmer opens a fresh guest for each two-player Svara match and folds
    with it. Before these rules he climbed from 3.44 to 22.5 in 12 matches and led the people's
    board; now his throwaway opponents count for nothing."""
    farmer, farmer_token = account(client, "Farmer")
    for k in range(12):
        _, sock = guest(client, f"sock {k}")
        play_two(client, (farmer_token, sock), "svara(players=2,max_deals=1)", (cheapest_stay, fold_or_first))
    page = client.get(f"/api/players/{farmer}").json()
    assert [m["win_share"] for m in page["matches"]] == [1.0] * 12  # he won every one
    assert all(r["games"] == 0 for r in page["ratings"])  # none of them rated
    assert read(client, lambda s: s.ratings("svara", "people", [farmer])) == {}
    board = client.get("/api/leaderboard/svara?pool=people").json()["players"]
    assert farmer not in [p["player"] for p in board]


def test_matches_against_established_accounts_do_count_through_the_server(client: TestClient) -> None:
    """The positive case beside the farming one: the same play against an account that has played
    its matches moves the winner's rating, until the pair has met too often."""
    ann, ann_token = account(client, "Ann")
    bob, bob_token = account(client, "Bob")
    game = "svara(players=2,max_deals=1)"
    for _ in range(ratings.ESTABLISHED_MATCHES):  # both establish themselves, rating nobody
        play_two(client, (ann_token, bob_token), game, (cheapest_stay, fold_or_first))
    rows: dict[int, RatingRow] = read(client, lambda s: s.ratings("svara", "people", [ann, bob]))
    assert rows == {}
    # Established now, but they met 5 times within the window: beyond the pair limit, nothing.
    play_two(client, (ann_token, bob_token), game, (cheapest_stay, fold_or_first))
    assert read(client, lambda s: s.ratings("svara", "people", [ann, bob])) == {}
    carol, carol_token = account(client, "Carol")
    play_two(client, (carol_token, ann_token), game, (cheapest_stay, fold_or_first))
    rows = read(client, lambda s: s.ratings("svara", "people", [ann, carol]))
    assert set(rows) == {carol}  # Ann counts for Carol; fresh Carol does not for Ann
    assert rows[carol].mu > 25 and rows[carol].games == 1
