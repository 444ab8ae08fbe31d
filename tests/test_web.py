"""The browser client (``src/cardhall/web``) in a real browser: Debian's headless Chromium driven by
Playwright against ``cardhall serve`` in its own process (SQLite file). A person opens the page, picks a
name, quick-plays a Hokm deal against easy bots by clicking his legal cards and buttons (reloading the page
once mid-deal), and sees the score; the Bengali lobby and table show no English (card ranks aside).
Screenshots (desktop and phone) go to ``tests/screenshots/`` (two of them are in docs/screenshots/).

Without ``/usr/bin/chromium`` (``apt-get install chromium fonts-beng``) or Playwright the tests are
skipped, except in CI (the env var ``CI`` set), where ``.ci/run`` installs them and they must run.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server_helpers import free_port, running_server

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parent / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 812}

if not os.environ.get("CI"):
    if not CHROMIUM.exists():
        pytest.skip(
            "the browser tests need Debian's chromium: apt-get install chromium fonts-beng",
            allow_module_level=True,
        )
    pytest.importorskip("playwright", reason="the browser tests need Playwright (the dev extra)")

from playwright.sync_api import Browser, Error, Page, sync_playwright  # noqa: E402


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM))
        yield browser
        browser.close()


@pytest.fixture
def base_url(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    with running_server(tmp_path / "web.db", port):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture
def page(browser: Browser, base_url: str) -> Iterator[Page]:
    context = browser.new_context(viewport=DESKTOP, base_url=base_url)
    page = context.new_page()
    errors: list[Any] = []
    page.on("pageerror", lambda error: errors.append(error))
    yield page
    context.close()
    assert not errors, f"errors in the page: {errors}"


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True, animations="disabled")


def enter(page: Page, name: str) -> None:
    page.goto("/")
    page.fill("#name", name)
    page.click("#enter")
    page.wait_for_selector("#quickplay")


def test_a_person_plays_a_hokm_deal_against_easy_bots(page: Page) -> None:
    enter(page, "Ann")
    page.wait_for_selector('.game strong:text("Hokm Egbari")')
    shot(page, "lobby-en-desktop")
    page.select_option("#qp-game", "hokm")
    page.fill("#qp-options", "max_hands=1")
    page.select_option("#qp-level", "easy")
    page.select_option("#qp-pace", "0")
    page.click("#quickplay")
    page.wait_for_selector(".hand .card")
    assert page.locator(".ring .seat").count() == 2
    assert page.locator(".ring .badge.bot").count() == 2
    assert page.locator(".hand .card").count() == 10  # Hokm deals ten cards to each of three seats

    moves = 0
    reloaded = shot_taken = False
    playable = ".hand .card.legal, .actions button.act:not([disabled])"
    while True:
        page.wait_for_selector(f".match-over, {playable}", timeout=30_000)
        if page.locator(".match-over").count():
            break
        mid_trick = page.locator(".trick .card").count() and page.locator(".hand .card.legal").count()
        if mid_trick and not shot_taken:
            shot(page, "table-en-desktop")
            shot_taken = True
        if moves == 3 and not reloaded:
            # A reload mid-deal: the page rejoins its table (since the last event it had) and plays on.
            page.reload()
            page.wait_for_selector(".hand .card")
            assert page.locator(".log li").count() >= 4
            reloaded = True
            continue
        try:
            page.locator(playable).first.click(timeout=2_000)
        except Error:  # the table moved on (a new frame re-drew it) between finding and clicking
            continue
        moves += 1
        assert moves < 100

    assert moves >= 10  # a bid, maybe trump, and at least nine cards of his (one may go to a stand-in)
    assert reloaded
    assert "Winners" in page.inner_text(".match-over")
    assert page.locator(".scores tbody tr").count() == 3
    assert re.search(r"Deal 1 scored: Ann [+-]?\d+", page.inner_text(".log"))
    assert page.get_attribute(".table-view", "data-status") == "finished"
    shot(page, "table-en-over-desktop")
    page.set_viewport_size(PHONE)
    shot(page, "table-en-over-phone")


LATIN = re.compile(r"[A-Za-z]")
CARD_TEXT = re.compile(r"(10|[2-9AKQJ])[♣♦♥♠]")


def test_the_bengali_lobby_shows_no_english(page: Page) -> None:
    page.goto("/")
    page.wait_for_selector("#name")
    page.click("#lang")
    page.wait_for_selector("text=কার্ড হলে স্বাগতম")
    assert page.get_attribute("html", "lang") == "bn"
    page.fill("#name", "রহিম")
    page.click("#enter")
    page.wait_for_selector("#quickplay")
    page.wait_for_selector('.game strong:text("হোকম এগবারি")')
    # Everything but the language switch (which names English in English) is Bengali.
    text = page.inner_text("#main") + page.inner_text("#brand") + page.inner_text("#who")
    assert not LATIN.findall(text), f"English left in the Bengali lobby: {text!r}"
    options = page.locator("#qp-game option").all_inner_texts()
    assert options and not any(LATIN.search(o) for o in options)
    shot(page, "lobby-bn-desktop")
    page.set_viewport_size(PHONE)
    shot(page, "lobby-bn-phone")
    # The choice is remembered: a reload keeps the page in Bengali.
    page.reload()
    page.wait_for_selector('.game strong:text("হোকম এগবারি")')
    assert page.get_attribute("html", "lang") == "bn"


def test_the_bengali_table_shows_no_english_but_the_cards(page: Page) -> None:
    page.goto("/")
    page.click("#lang")
    page.wait_for_selector("text=কার্ড হলে স্বাগতম")
    page.fill("#name", "রহিম")
    page.click("#enter")
    page.wait_for_selector("#quickplay")
    page.select_option("#qp-game", "hokm")
    page.select_option("#qp-pace", "0")
    page.click("#quickplay")
    page.wait_for_selector(".actions button.act, .hand .card.legal")
    page.wait_for_selector(".log li")
    # Card ranks keep their symbols (A, K, Q, J), as on the cards themselves.
    text = CARD_TEXT.sub("", page.inner_text(".table-view") + page.inner_text("#top"))
    text = text.replace("English", "")  # the language switch
    assert not LATIN.findall(text), f"English left on the Bengali table: {text!r}"
    shot(page, "table-bn-desktop")
    page.set_viewport_size(PHONE)
    shot(page, "table-bn-phone")
