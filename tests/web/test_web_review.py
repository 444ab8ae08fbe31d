"""The review of a finished match and hints at a casual table, in a real browser (Debian's headless
Chromium driven by Playwright, against ``cardhall serve`` in its own process with a small review
budget): a player asks for his seat's review in the replay viewer and sees each decision marked at its
move, the better move beside the one played, the plot and each deal's accuracy, in English and in
Bengali; at a table with hints he asks for one and sees the move suggested. Screenshots go to
``tests/screenshots/``."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardhall
from cardhall.server.client_games import catalogue
from tests.web.web_helpers import (  # noqa: F401 (fixtures)
    DESKTOP,
    PHONE,
    WAIT_MS,
    Browser,
    Page,
    WebServer,
    api,
    browser,
    checked_page,
    enter,
    logged,
    served,
    shot,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def review_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """One server for the module (each test reviews a match of its own)."""
    with served(tmp_path_factory.mktemp("review"), "--review-budget", "4") as server:
        yield server


@pytest.fixture
def review_url(review_server: WebServer) -> Iterator[str]:
    with logged(review_server):
        yield review_server.url


@pytest.fixture(name="page")
def review_page(browser: Browser, review_url: str) -> Iterator[Page]:  # noqa: F811
    with checked_page(browser, review_url) as page:
        yield page


SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


WEB = Path(cardhall.__file__).parent / "web"
ENGLISH = catalogue("en")


def move_text(move: dict[str, Any]) -> str:
    """A Hokm move as the English page's button names it (``move.play.card``: "Play 10♠"), from its data."""
    if move["kind"] == "bid" and f"move.bid.{move['contract']}" in ENGLISH:
        return str(ENGLISH[f"move.bid.{move['contract']}"])
    card = move.get("card", "")
    suit = move.get("suit", "")
    return str(ENGLISH[f"move.{move['kind']}"]).format(
        card=f"{card[:-1]}{SUITS[card[-1]]}" if card else "",
        suit=f"{SUITS[suit]} {ENGLISH[f'suit.{suit}']}" if suit else "",
        contract=move.get("contract", ""),
    )


def finished_match(page: Page) -> str:
    """A Hokm deal the page's player quick-played and left to the stand-in."""
    settings = {"bot_pace_ms": 0, "away_seconds": 1}
    body = {"game": "hokm(max_hands=1)", "level": "easy", "settings": settings}
    table: str = api(page, "POST", "/api/quickplay", body)["table"]
    deadline = time.monotonic() + 120
    while api(page, "GET", f"/api/tables/{table}")["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    return table


@pytest.mark.parametrize("lang", ["en", "bn"])
def test_a_player_reviews_his_play_in_the_replay(page: Page, lang: str) -> None:
    enter(page, "Ann", lang=lang)
    table = finished_match(page)
    page.reload()
    page.click(f'.replays li[data-table="{table}"] button.replay')
    page.wait_for_selector("#replay-dialog .review-ask")
    page.click(".review-ask")
    page.wait_for_selector("#replay-dialog .review-plot")
    review = api(page, "GET", f"/api/tables/{table}/review?seat=0")
    assert review["status"] == "done"
    decisions = review["review"]["decisions"]
    assert decisions, "a Hokm deal has decisions"
    assert page.locator(".review-plot circle.dot").count() == len(decisions)
    assert page.locator(".review-deals li").count() == len(review["review"]["deals"])
    accuracy = int(review["review"]["match"]["accuracy"] + 0.5)  # (as the page's Math.round)
    status = page.inner_text(".review-status")
    assert (str(accuracy) if lang == "en" else "%") in status
    # A decision's point steps the replay to its move, which the review marks.
    worst = max(range(len(decisions)), key=lambda i: decisions[i]["loss"])
    page.locator(".review-plot circle.dot").nth(worst).click()
    step = decisions[worst]["index"] + 1
    page.wait_for_selector("#replay-dialog .review-mark")
    mark = page.inner_text(".review-mark")
    if lang == "en":
        assert page.inner_text(".replay-where").startswith(f"Move {step} of")
        played, better = decisions[worst]["played"], decisions[worst]["better"]
        # The move as its button names it ("Play A♠", not "Played play A♠"), its result in points; a
        # better move only where the review found one clearly better.
        assert f"{move_text(played['move'])}: expected deal result " in mark and " points." in mark
        assert "Played " not in mark
        assert ("Better: " in mark) == (better is not None)
        if better is not None:
            assert f"Better: {move_text(better['move'])}, expected " in mark
    shot(page, f"review-{lang}-desktop", full_page=False)
    page.set_viewport_size(PHONE)
    page.locator(".review").scroll_into_view_if_needed()
    shot(page, f"review-{lang}-phone", full_page=False)


def test_hints_at_a_casual_table_show_the_suggested_move(page: Page) -> None:
    enter(page, "Ann")
    settings = {"bot_pace_ms": 0, "hints": True, "turn_seconds": 0}
    body = {"game": "hokm(max_hands=1)", "level": "normal", "settings": settings}
    table: str = api(page, "POST", "/api/quickplay", body)["table"]
    # The page opens the table it was at when it loads (as after a reload at the table).
    page.evaluate(
        f"localStorage.setItem('cardhall.table', {table!r}); localStorage.setItem('cardhall.mode', 'join')"
    )
    page.reload()
    page.wait_for_selector("#hint")
    page.click("#hint")
    page.wait_for_selector(".hint-line .hint")
    assert page.inner_text(".hint-line .hint").startswith("Hint:")
    assert page.locator(".hinted").count() >= 1
    shot(page, "hint-en-desktop", full_page=False)
