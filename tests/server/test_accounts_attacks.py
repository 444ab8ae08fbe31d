"""The accounts attacked, as an attacker would, on SQLite and PostgreSQL: another person's session or
token, a forged or expired cookie, cross-site requests (a form post, a ``text/plain`` body, another
site's ``Origin``, no ``Origin`` at all behind the cookie, a websocket opened from another site),
guessing passwords, names spoofed (confusables, zero-width characters, bidirectional overrides) and
markup in every text field. Each is refused and logged, and the store is read after it: nothing
changed."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cardhall.server import names
from cardhall.server.rates import Limits, Rate
from cardhall.server.sessions import COOKIE
from tests.server.account_helpers import (
    BACKENDS,
    ORIGIN,
    PASSWORD,
    account,
    app,
    guest,
    read,
    sign_in,
)
from tests.server_helpers import auth, refused, store_url


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return store_url(request.param, request, tmp_path)


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    with app(url) as c:
        yield c


EVIL = {"Origin": "https://evil.example"}
NEW = {"current": PASSWORD, "new": "the attacker's password"}


def password_is(client: TestClient, name: str, password: str) -> bool:
    """Whether ``password`` still signs ``name`` in (without the client's cookies, and keeping none)."""
    kept = client.cookies
    client.cookies = {}  # type: ignore[assignment]
    try:
        return bool(client.post("/api/signin", json={"name": name, "password": password}).status_code == 201)
    finally:
        client.cookies = kept


def cookie_client(client: TestClient, token: str) -> TestClient:
    client.cookies.set(COOKIE, token)
    return client


# --- another person's credentials --------------------------------------------------------------------


def test_a_signed_out_session_or_a_dead_guest_token_opens_nothing(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    ann, ann_session = account(client, "Ann")
    stolen = sign_in(client, "Ann").json()["token"]
    client.post("/api/signout", json={}, headers=auth(stolen))  # Ann signs that device out
    _, guest_token = guest(client, "Bob")
    bob_session = client.post(
        "/api/account", json={"name": "Bob", "password": PASSWORD}, headers=auth(guest_token)
    ).json()["token"]
    with caplog.at_level(logging.WARNING, "cardhall.server.sessions"):
        for token in (stolen, guest_token, "forged" + ann_session[6:], ann_session + "x"):
            refused(client.post("/api/account/password", json=NEW, headers=auth(token)), 401, "bad_token")
            refused(
                client.post("/api/signout", json={"everywhere": True}, headers=auth(token)), 401, "bad_token"
            )
    assert "refused a token" in caplog.text
    assert ann_session not in caplog.text and stolen not in caplog.text  # never a credential in the log
    assert password_is(client, "Ann", PASSWORD) and password_is(client, "Bob", PASSWORD)
    assert read(client, lambda s: s.sessions(ann)) >= 1
    assert client.get("/api/players/me", headers=auth(bob_session)).json()["name"] == "Bob"


def test_a_players_page_shows_no_secret(client: TestClient) -> None:
    ann, _ = account(client, "Ann")
    text = client.get(f"/api/players/{ann}").text
    for secret in ("token", "password", "hash", "argon2", "session"):
        assert secret not in text


def test_a_forged_or_expired_cookie_is_refused(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    ann, _ = account(client, "Ann")
    expired = read(client, lambda s: s.create_session(ann, datetime.now(UTC) - timedelta(seconds=1)))
    with caplog.at_level(logging.WARNING, "cardhall.server.sessions"):
        for value in ("forged-cookie-value", expired):
            cookie_client(client, value)
            refused(client.get("/api/players/me"), 401, "bad_token")
            refused(client.post("/api/account/password", json=NEW, headers=ORIGIN), 401, "bad_token")
            with client.websocket_connect("/ws", headers=ORIGIN) as ws:
                ws.send_json({"type": "hello", "id": 1})
                assert ws.receive_json()["code"] == "bad_token"
    assert "no live session" in caplog.text
    assert password_is(client, "Ann", PASSWORD)


# --- cross-site requests ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "body", "status", "code"),
    [
        (
            {"Content-Type": "text/plain", **ORIGIN},
            '{"current": "x", "new": "yyyyyyyyyy"}',
            415,
            "bad_content_type",
        ),
        (
            {"Content-Type": "application/x-www-form-urlencoded", **EVIL},
            "current=x&new=yyyyyyyyyy",
            403,
            "cross_site",
        ),
        (
            {"Content-Type": "application/x-www-form-urlencoded"},
            "current=x&new=yyyyyyyyyy",
            415,
            "bad_content_type",
        ),
        ({"Content-Type": "multipart/form-data; boundary=x"}, "--x--", 415, "bad_content_type"),
        ({"Content-Type": "application/json", **EVIL}, None, 403, "cross_site"),
        ({"Content-Type": "application/json", "Origin": "null"}, None, 403, "cross_site"),
        ({"Content-Type": "application/json"}, None, 403, "cross_site"),  # the cookie needs our Origin
    ],
)
def test_a_cross_site_request_riding_the_cookie_is_refused(
    client: TestClient,
    headers: dict[str, str],
    body: str | None,
    status: int,
    code: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    ann, _ = account(client, "Ann")
    assert sign_in(client, "Ann", cookie=True).status_code == 201  # the victim's browser holds the cookie
    before = read(client, lambda s: s.sessions(ann))
    content = body if body is not None else json.dumps(NEW)
    with caplog.at_level(logging.WARNING, "cardhall.server"):
        for route in ("/api/account/password", "/api/signout", "/api/quickplay"):
            refused(client.post(route, content=content, headers=headers), status, code)
    if code == "cross_site":
        assert "another site" in caplog.text or "refused the session cookie" in caplog.text
    assert read(client, lambda s: s.sessions(ann)) == before
    assert password_is(client, "Ann", PASSWORD)
    assert client.get("/api/players/me/tables").json() == {"tables": []}  # no table made for her


def test_a_websocket_opened_from_another_site_does_not_get_the_cookies_player(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    account(client, "Ann")
    sign_in(client, "Ann", cookie=True)
    with caplog.at_level(logging.WARNING, "cardhall.server.sessions"):
        for headers in (EVIL, {"Origin": "http://testserver.evil.example"}, {}):
            with client.websocket_connect("/ws", headers=headers) as ws:
                ws.send_json({"type": "hello", "id": 1})
                assert ws.receive_json()["code"] == "cross_site"
                ws.send_json({"type": "join", "table": "aaaaaaaa", "id": 2})
                assert ws.receive_json()["code"] == "not_authenticated"  # still nobody
    assert "refused the session cookie" in caplog.text
    with client.websocket_connect("/ws", headers=ORIGIN) as ws:  # our own page: welcome
        ws.send_json({"type": "hello", "id": 1})
        assert ws.receive_json()["type"] == "welcome"


# --- guessing -------------------------------------------------------------------------------------------


def test_guessing_a_password_is_slowed_then_refused_and_makes_no_session(
    url: str, caplog: pytest.LogCaptureFixture
) -> None:
    limits = Limits(signin_failures_per_name=Rate(1 / 60, 5), signin_failures_per_address=Rate(1 / 60, 50))
    with app(url, limits) as client:
        ann, _ = account(client, "Ann")
        before = read(client, lambda s: s.sessions(ann))
        codes = []
        with caplog.at_level(logging.WARNING, "cardhall.server.accounts"):
            for guess in ["123456", "password", "qwerty", "letmein", "Ann", "annann", PASSWORD]:
                codes.append(sign_in(client, "ANN", guess).json()["error"])
        assert codes == ["bad_credentials"] * 5 + ["rate_limited"] * 2  # the right one too, once locked
        assert caplog.text.count("failed sign-in") == 5
        assert PASSWORD not in caplog.text and "letmein" not in caplog.text
        assert read(client, lambda s: s.sessions(ann)) == before


# --- names ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spoof",
    [
        "\u0410nn",  # Cyrillic A
        "\u0430nn",  # Cyrillic a
        "\uff21nn",  # fullwidth A
        "\U0001d400nn",  # mathematical bold A
        "A\u200bnn",  # zero-width space
        "A\u200dnn",  # zero-width joiner
        "\ufeffAnn",  # byte-order mark
        "\u202eAnn",  # right-to-left override
        "Ann\u202e",
        "\u2067Ann",  # right-to-left isolate
        "Ann\u0000",
        "ANN",
    ],
)
def test_a_spoofed_name_is_refused_and_the_impostor_stays_a_guest(
    client: TestClient, spoof: str, caplog: pytest.LogCaptureFixture
) -> None:
    ann, _ = account(client, "Ann")
    mallory, token = guest(client, "Mallory")
    with caplog.at_level(logging.INFO, "cardhall.server.accounts"):
        response = client.post(
            "/api/account", json={"name": spoof, "password": PASSWORD}, headers=auth(token)
        )
    assert response.status_code in (400, 409), response.text
    assert response.json()["error"] in ("bad_name", "name_taken")
    assert "sign-up refused" in caplog.text
    if response.json()["error"] == "name_taken":
        assert "is taken" in caplog.text
        # The one account a look-alike name leads to is Ann's own.
        found = read(client, lambda s: s.account(names.name_key(spoof)))
        assert found is not None and found[0].id == ann
    page = client.get(f"/api/players/{mallory}").json()
    assert page["guest"] is True and page["name"] == "Mallory"
    refused(sign_in(client, spoof, "the attacker's password"), 401, "bad_credentials")


MARKUP = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<b>Ann</b>", "a<b", "x>y"]


@pytest.mark.parametrize("text", MARKUP)
def test_markup_in_a_name_is_refused_for_guests_and_accounts(client: TestClient, text: str) -> None:
    refused(client.post("/api/players", json={"name": text}), 400, "bad_message")
    _, token = guest(client, "Bob")
    refused(
        client.post("/api/account", json={"name": text, "password": PASSWORD}, headers=auth(token)),
        400,
        "bad_name",
    )
    assert client.get("/api/players/me", headers=auth(token)).json() == {
        "id": 1,
        "name": "Bob",
        "guest": True,
    }


@pytest.mark.parametrize("text", MARKUP)
def test_markup_in_a_password_or_a_sign_in_name_is_only_text(client: TestClient, text: str) -> None:
    """A password may hold anything (it is only ever hashed); a sign-in name with markup finds nobody.
    Neither comes back in any answer."""
    _, token = guest(client, "Bob")
    password = text + "-long-enough"
    made = client.post("/api/account", json={"name": "Bob", "password": password}, headers=auth(token))
    assert made.status_code == 201 and text not in made.text
    answer = sign_in(client, text, password)
    refused(answer, 401, "bad_credentials")
    assert text not in answer.text
    assert sign_in(client, "Bob", password).status_code == 201
    assert made.headers["content-type"] == "application/json"


# Every class of character that shows as nothing, or as no more than the name beside it, put after (or in)
# a name: each would have made a second "Annabel" (issue 47; the first four were found in an attack).
SHOWS_AS_NOTHING = {
    "U+3164 HANGUL FILLER": "Annabel\u3164",
    "U+FE0F VARIATION SELECTOR-16": "Annabel\ufe0f",
    "U+2800 BRAILLE PATTERN BLANK": "Annabel\u2800",
    "U+034F COMBINING GRAPHEME JOINER": "Annabel\u034f",
    "U+115F HANGUL CHOSEONG FILLER": "Annabel\u115f",
    "U+1160 HANGUL JUNGSEONG FILLER": "Annabel\u1160",
    "U+FFA0 HALFWIDTH HANGUL FILLER": "Annabel\uffa0",
    "U+E0100 VARIATION SELECTOR-17": "Annabel\U000e0100",
    "U+180B MONGOLIAN FREE VARIATION SELECTOR ONE": "Annabel\u180b",
    "U+180E MONGOLIAN VOWEL SEPARATOR": "Annabel\u180e",
    "U+00AD SOFT HYPHEN": "Anna\u00adbel",
    "U+2060 WORD JOINER": "Anna\u2060bel",
    "U+2064 INVISIBLE PLUS": "Annabel\u2064",
    "U+E0041 TAG LATIN CAPITAL LETTER A": "Annabel\U000e0041",
    "U+1D173 MUSICAL SYMBOL BEGIN BEAM": "Annabel\U0001d173",
    "U+3000 IDEOGRAPHIC SPACE": "Annabel\u3000x",
    "U+00A0 NO-BREAK SPACE": "Anna\u00a0bel",
    "U+2007 FIGURE SPACE": "Anna\u2007bel",
    "U+0335 COMBINING SHORT STROKE OVERLAY on l": "Annabel\u0335",
    "U+0332 COMBINING LOW LINE on l": "Annabel\u0332",
    "U+200C ZERO WIDTH NON-JOINER": "Anna\u200cbel",
}


@pytest.fixture(scope="module", params=BACKENDS)
def annabels_hall(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    """One app per backend, with the account "Annabel", for the look-alikes of her name: each is refused
    and makes nothing, so they share it (an app and a store of each one's own were three quarters of
    their time)."""
    with app(store_url(request.param, request, tmp_path_factory.mktemp("names"))) as client:
        account(client, "Annabel")
        yield client


@pytest.mark.parametrize("name", list(SHOWS_AS_NOTHING.values()), ids=list(SHOWS_AS_NOTHING))
def test_a_name_with_a_character_that_shows_as_nothing_is_refused(
    annabels_hall: TestClient, name: str
) -> None:
    client = annabels_hall
    # A guest of that name is refused, naming the character (never a second "Annabel" at a table).
    made = client.post("/api/players", json={"name": name})
    assert made.status_code == 400, made.text
    assert "U+" in made.json()["message"], made.json()
    # And an account of it.
    _, token = guest(client, "Mallory")
    response = client.post("/api/account", json={"name": name, "password": PASSWORD}, headers=auth(token))
    assert response.status_code in (400, 409), response.text
    assert response.json()["error"] in ("bad_name", "name_taken")


@pytest.mark.parametrize("name", ["Anne-Marie", "O'Neil", "José", "Zoë", "রহিম", "অর্ণব", "Ann Bel", "김민수"])
def test_real_names_of_every_script_still_pass(client: TestClient, name: str) -> None:
    _, token = guest(client, name)
    made = client.post("/api/account", json={"name": name, "password": PASSWORD}, headers=auth(token))
    assert made.status_code == 201, made.text
    assert made.json()["name"] == name
