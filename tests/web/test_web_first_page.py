"""The first page and the lobby as a person meets them (issue 46), in a real browser (Debian's headless
Chromium through Playwright, against ``cardhall serve``): the first page says what cardhall is, shows
the games and plays one in a single step; a name of spaces is refused in words (D18); the lobby puts
playing first and on a phone folds the rest (D22: it was 3,500 px tall), and lists only the running
matches people are playing (D22: it listed matches whose people left long ago). Each test failed
against the client of c90bd0d. Screenshots (both languages, both sizes) to ``tests/screenshots/``."""

# ruff: noqa: F811  (the fixtures are imported by name, then asked for as arguments)

from __future__ import annotations

import re
import time

import pytest

from tests.web.test_web_routes import hall, path, person  # noqa: F401 (the module's server)
from tests.web.web_helpers import DESKTOP, PHONE, WAIT_MS, Browser, Page, api, browser, enter, shot  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LATIN = re.compile(r"[A-Za-z]+")
PHONE_LOBBY_MOST = 1700  # px: the phone's lobby, at most two windows tall (3,500 before)


def games(page: Page) -> list[str]:
    return [g["name"] for g in page.evaluate("async () => (await (await fetch('/api/games')).json()).games")]


def test_the_first_page_says_what_cardhall_is_and_plays_a_game_in_one_step(
    browser: Browser, hall: str
) -> None:
    with person(browser, hall) as page:
        page.goto("/")
        page.wait_for_selector(".first-game .play-now")
        assert "card" in page.inner_text(".first-what")
        names = games(page)
        shown = page.locator(".first-game").evaluate_all("items => items.map(i => i.dataset.game)")
        assert shown == names and len(names) == 5
        for game in names:  # each game: its title, its players, what it is, "Play now" and its rules
            item = page.locator(f'.first-game[data-game="{game}"]')
            assert item.locator("h3").inner_text() and item.locator(".blurb").inner_text()
            assert item.locator(".play-now").count() == 1
            assert item.locator(".rules-link").get_attribute("href") == f"/rules/{game}"
        offered = page.input_value("#name")  # a name offered: he may play at once
        assert offered.startswith("Player ")
        assert page.evaluate("document.activeElement.id") == "name"
        axe = pytest.importorskip("tests.web.test_web_axe", reason="axe-core: the dev extra")
        found = axe.serious(page, "the first page")
        shot(page, "first-en-desktop")
        page.set_viewport_size(PHONE)
        shot(page, "first-en-phone")
        page.click("#lang")
        page.wait_for_function("document.documentElement.lang === 'bn'")
        page.wait_for_selector(".first-game .play-now")
        text = page.inner_text("#main")
        assert not LATIN.findall(text), f"English left on the Bengali first page: {text!r}"
        found += axe.serious(page, "the Bengali first page")
        assert not found, "\n".join(found)
        shot(page, "first-bn-phone")
        page.set_viewport_size(DESKTOP)
        shot(page, "first-bn-desktop")
        page.click("#lang")
        page.wait_for_function("document.documentElement.lang === 'en'")
        page.wait_for_selector(".first-game .play-now")
        # One click: the guest is made with the name offered and seated at a Hokm table against bots.
        name = page.input_value("#name")
        page.click('.first-game[data-game="hokm"] .play-now')
        page.wait_for_selector(".table-view .hand .card, .table-view .actions button.act")
        table = page.evaluate("localStorage.getItem('cardhall.table')")
        assert path(page) == f"/tables/{table}"
        assert api(page, "GET", "/api/players/me")["name"] == name
        summary = api(page, "GET", f"/api/tables/{table}")
        assert summary["game"] == "hokm" and summary["seats"][0]["name"] == name
        assert [s["kind"] for s in summary["seats"]] == ["person", "bot", "bot"]


@pytest.mark.parametrize("lang", ["en", "bn"])
def test_a_name_of_spaces_is_refused_in_words(browser: Browser, hall: str, lang: str) -> None:
    """D18: a name of spaces alone was ignored without a word."""
    with person(browser, hall) as page:
        page.goto("/")
        page.wait_for_selector("#name")
        if lang == "bn":
            page.click("#lang")
            page.wait_for_function("document.documentElement.lang === 'bn'")
        page.fill("#name", "   ")
        page.click("#enter")
        said = page.wait_for_selector(".name-form .error:not(:empty)").inner_text()
        assert ("spaces" in said) if lang == "en" else ("ফাঁকা" in said), said
        assert page.evaluate("localStorage.getItem('cardhall.token')") is None  # nobody was made
        page.fill("#name", "")
        page.click('.first-game[data-game="hokm"] .play-now')  # the games' "Play now" checks it too
        page.wait_for_function(
            "said => document.querySelector('.name-form .error').textContent !== said", arg=said
        )
        assert page.evaluate("localStorage.getItem('cardhall.token')") is None
        shot(page, f"first-name-refused-{lang}-desktop", full_page=False)


@pytest.mark.parametrize("lang", ["en", "bn"])
def test_a_name_that_shows_as_another_is_refused_naming_the_character(
    browser: Browser, hall: str, lang: str
) -> None:
    """Issue 47: "Annabel" and a character that shows as nothing (U+3164 HANGUL FILLER) made a second
    Annabel; the server refuses it, and the first page says which character, in its language."""
    with person(browser, hall) as page:
        page.goto("/")
        page.wait_for_selector("#name")
        if lang == "bn":
            page.click("#lang")
            page.wait_for_function("document.documentElement.lang === 'bn'")
        page.fill("#name", "Annabel\u3164")
        page.click("#enter")
        said = page.wait_for_selector(".name-form .error:not(:empty)").inner_text()
        assert "U+3164" in said and ("letters" in said if lang == "en" else "অক্ষর" in said), said
        assert page.evaluate("localStorage.getItem('cardhall.token')") is None


def test_the_lobby_puts_playing_first_and_folds_the_rest_on_a_phone(browser: Browser, hall: str) -> None:
    """D22: the phone's lobby was 3,500 px tall, Friends before playing."""
    with person(browser, hall, PHONE) as page:
        enter(page, "Ann")
        page.wait_for_selector(".lobby .game", state="attached")  # (its last part, drawn)
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height <= PHONE_LOBBY_MOST, f"the phone's lobby is {height} px tall"
        order = page.evaluate(
            "() => [...document.querySelectorAll('.lobby > *')].map(el => el.dataset.fold || el.classList[1])"
        )
        assert order.index("quick") < order.index("tables") < order.index("friends"), order
        assert page.locator(".lobby > details.fold:not([open])").count() >= 5
        shot(page, "lobby-en-phone")
        # A fold opens at a tap, and stays open when the lobby is drawn again.
        page.click(".fold-friends > summary")
        page.wait_for_selector("#friend-id")
        page.click("#refresh")
        page.wait_for_selector("#friend-id")
        page.click("#lang")
        page.wait_for_function("document.documentElement.lang === 'bn'")
        page.wait_for_selector(".fold-games")
        assert page.evaluate("document.documentElement.scrollHeight") <= PHONE_LOBBY_MOST + 300
        shot(page, "lobby-bn-phone")
        # On a desktop everything is open.
        page.set_viewport_size(DESKTOP)
        page.wait_for_selector(".fold-games .game .rules-link")
        assert page.locator(".lobby > details.fold:not([open])").count() == 0
        shot(page, "lobby-bn-desktop")


def test_the_lobby_lists_only_the_matches_people_are_playing(browser: Browser, hall: str) -> None:
    """D22: "Tables being played" listed matches whose people had left long ago."""
    with person(browser, hall) as ann, person(browser, hall) as bob:
        enter(ann, "Ann")
        # Ann's quick play, where she never sits: her stand-in plays at once; nobody plays it.
        settings = {"bot_pace_ms": 5000, "away_seconds": 0}
        left = api(ann, "POST", "/api/quickplay", {"game": "hokm", "settings": settings})["table"]
        deadline = time.monotonic() + WAIT_MS / 1000
        while api(ann, "GET", f"/api/tables/{left}")["seats"][0]["stand_in"] is None:
            assert time.monotonic() < deadline, "no stand-in came"
            time.sleep(0.1)
        # Bob plays his.
        enter(bob, "Bob")
        bob.select_option("#qp-game", "kierki")
        bob.click("#quickplay")
        bob.wait_for_selector(".table-view .arena .seat")
        played = bob.evaluate("localStorage.getItem('cardhall.table')")
        running = [t["table"] for t in api(ann, "GET", "/api/tables")["running"]]
        assert played in running and left not in running, running
        ann.click("#refresh")
        ann.wait_for_selector(f'.tables li[data-table="{played}"]')
        assert ann.locator(f'.tables li[data-table="{left}"]').count() == 0
        assert ann.locator(f'.yours li[data-table="{left}"]').count() == 1  # (hers, under her tables)
