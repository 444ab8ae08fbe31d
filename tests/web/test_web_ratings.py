"""What a match counts for, as a person sees it in a real browser (Debian's headless Chromium through
Playwright, against ``cardhall serve``; issue 46): a person who left a Hokm match after 2 deals, which
the stand-in finished, reads "left; a bot finished" on his page instead of a win, his totals hold no
win, and he is on no board; the boards list established ratings only, on the scale a person reads
(1500 to start), with guests told apart. Both languages, desktop and phone; screenshots to
``tests/screenshots/``."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from cardhall.loadclient import connect
from cardhall.server import ratings
from tests.web.web_helpers import (  # noqa: F401 (fixtures)
    DESKTOP,
    PHONE,
    SHOTS,
    Page,
    api,
    base_url,
    browser,
    browser_page,
    enter,
    shot,
    web_server,
)

# The tests read the whole server's boards, and one writes ratings into its store's file (tmp_path): a
# server each.
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.own_server]

SHOW_PROFILE = "async (id) => (await import('/static/profile.js')).showProfile(id)"


def wait_status(page: Page, table: str, wanted: str) -> None:
    deadline = time.monotonic() + 120
    while api(page, "GET", f"/api/tables/{table}")["status"] != wanted:
        assert time.monotonic() < deadline
        time.sleep(0.05)


def left_after_two_deals(page: Page, base: str) -> tuple[int, str]:
    """The page's player quick-plays Hokm against bots, plays 2 deals over the websocket and leaves
    (as if he closed his browser for good: the stand-in finishes the match); his id and the table."""
    token = page.evaluate("localStorage.getItem('cardhall.token')")
    player: int = api(page, "GET", "/api/players/me")["id"]
    body = {"game": "hokm(max_hands=4)", "level": "normal", "settings": {"bot_pace_ms": 0, "turn_seconds": 0}}
    table: str = api(page, "POST", "/api/quickplay", body)["table"]
    port = urlsplit(base).port
    assert port is not None
    with connect(port, token) as ws:
        ws.send(type="join", table=table)
        scored, acted = 0, -1
        while scored < 2:
            frame = ws.receive(60)
            if frame.get("table") != table or frame["type"] not in ("table", "update"):
                continue
            scored += sum(1 for e in frame["events"] if e["type"] == "deal_scored")
            if frame["legal"] and frame["n"] > acted and scored < 2:
                ws.send(type="act", table=table, action=frame["legal"][0]["label"], n=frame["n"])
                acted = frame["n"]
        ws.send(type="leave", table=table)
        ws.send(type="ping", id="gone")
        ws.until("pong", ref="gone")
    wait_status(page, table, "finished")
    return player, table


# Each view a person may have: language and window (the screenshots' names).
VIEWS = (
    ("en", "desktop", DESKTOP),
    ("en", "phone", PHONE),
    ("bn", "desktop", DESKTOP),
    ("bn", "phone", PHONE),
)
ABSENT_WORDS = {
    "en": ("left; a bot finished", "won", "1 match, 0 won"),
    "bn": ("ছেড়ে গিয়েছিলেন; বাকিটা বদলি বট খেলেছেন", "জিতেছেন", "১টি খেলা, ০টিতে জয়"),
}


def view(page: Page, lang: str, size: dict[str, int]) -> None:
    """The page in ``lang`` at ``size`` (the lobby drawn again in the language)."""
    page.set_viewport_size(size)
    # (a new width's media query change is reported at the next rendering update, before its animation
    # frames: the lobby folds or unfolds then, after which the boards' fold is looked at)
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    if page.evaluate("document.documentElement.lang") != lang:
        # (the lobby is drawn again: its controls are new ones, the old ones marked until they go)
        page.evaluate("document.getElementById('lb-game').dataset.old = '1'")
        page.click("#lang")
        page.wait_for_function(f"document.documentElement.lang === {lang!r}")
        page.wait_for_selector("#lb-game:not([data-old])")
    unfold_boards(page)


def unfold_boards(page: Page) -> None:
    """On a phone the lobby folds the boards under their title: opened, as a person would."""
    for fold in page.locator("details:has(#lb-game):not([open]) > summary").all():
        fold.click()


def test_who_left_after_two_deals_reads_it_on_his_page_and_is_on_no_board(
    page: Page,
    base_url: str,  # noqa: F811 (the fixture)
) -> None:
    enter(page, "Ann")
    player, table = left_after_two_deals(page, base_url)
    for lang, size, viewport in VIEWS:
        view(page, lang, viewport)
        page.evaluate(SHOW_PROFILE, player)
        page.wait_for_selector(f"#player-dialog[data-loaded][data-player='{player}'] .match")
        dialog = page.locator("#player-dialog")
        outcome = dialog.locator(f".match[data-table='{table}']").inner_text()
        left, won, totals = ABSENT_WORDS[lang]
        assert left in outcome and won not in outcome, outcome
        assert totals in dialog.locator(".totals").inner_text()
        rating = dialog.locator(".rating[data-game='hokm'][data-pool='bots'] p").first.inner_text()
        assert "?" in rating  # provisional
        assert dialog.locator(".scale").count() == 1
        shot(page, f"profile-absent-{lang}-{size}", full_page=False)
        page.keyboard.press("Escape")
        page.wait_for_selector("#player-dialog:not([open])", state="attached")
        page.wait_for_function("!location.pathname.startsWith('/players/')")  # (its Back has come)
        unfold_boards(page)  # (the lobby may be drawn again as the page comes back to it)
        # No board place, in either pool: one match is provisional, and it was a loss.
        page.select_option("#lb-game", "hokm")
        page.select_option("#lb-pool", "people")
        page.wait_for_selector(".board[data-game='hokm'][data-pool='people'] .empty")
        page.select_option("#lb-pool", "bots")
        page.wait_for_selector(".board[data-game='hokm'][data-pool='bots'] .empty")
        assert page.locator(".board .scale").count() == 1


def established(db: Path, rows: list[tuple[int, str, float, float, int]]) -> None:
    """Ratings written into the server's store as if played: (player, pool, mu, sigma, games)."""
    with sqlite3.connect(db, timeout=30) as c:
        c.executemany(
            "INSERT INTO ratings (player_id, game, pool, mu, sigma, games) VALUES (?, 'hokm', ?, ?, ?, ?)",
            rows,
        )


def guest(page: Page, name: str) -> tuple[int, str]:
    made: dict[str, Any] = page.evaluate(
        """async (name) => (await fetch("/api/players", {method: "POST",
            headers: {"Content-Type": "application/json"}, body: JSON.stringify({name})})).json()""",
        name,
    )
    return int(made["id"]), str(made["token"])


def test_the_boards_list_established_ratings_on_a_scale_with_guests_told_apart(
    page: Page, tmp_path: Path
) -> None:
    enter(page, "Ann")
    me: int = api(page, "GET", "/api/players/me")["id"]
    other, _ = guest(page, "Ann")  # a second guest Ann
    carl, _ = guest(page, "Carl")
    dina, _ = guest(page, "Dina")
    games = ratings.BOARD_MIN_GAMES
    established(
        tmp_path / "web.db",
        [
            (me, "bots", 28.0, 2.0, games + 3),
            (other, "bots", 26.5, 2.5, games),
            (carl, "bots", 24.0, 1.5, games + 20),
            (dina, "bots", 40.0, 6.0, games - 1),  # the best mu, but provisional: on no board
        ],
    )
    digits = str.maketrans("০১২৩৪৫৬৭৮৯", "0123456789")
    for lang, size, viewport in VIEWS:
        view(page, lang, viewport)
        page.select_option("#lb-game", "hokm")
        page.select_option("#lb-pool", "bots")
        rows = page.locator(".board[data-game='hokm'][data-pool='bots'] .leaderboard tbody tr")
        rows.nth(2).wait_for()
        assert rows.count() == 3
        shown = [int(rows.nth(i).locator("td.rating").inner_text().translate(digits)) for i in range(3)]
        assert shown == [1644, 1572, 1452]  # 1500 + 48 (mu - 25), best first
        names = [rows.nth(i).locator("th.name").inner_text().translate(digits) for i in range(3)]
        # Two guests called Ann, told apart by their numbers.
        assert names[0].startswith("Ann") and f"#{me}" in names[0], names
        assert names[1].startswith("Ann") and f"#{other}" in names[1], names
        assert page.locator(".board .scale").count() == 1
        board = page.locator(".panel.leaderboards")
        board.scroll_into_view_if_needed()
        board.screenshot(path=str(SHOTS / f"board-{lang}-{size}.png"), animations="disabled")
    rows.nth(1).locator("a.player-link").click()
    page.wait_for_selector(f"#player-dialog[data-loaded][data-player='{other}']")
