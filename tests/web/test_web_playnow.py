"""Play now in a real browser (issue 49; Debian's Chromium driven by Playwright, against ``cardhall
serve`` in its own process, its bound before bots made short): two people press Play now for Hokm
within a few seconds, each page counts ("1 of 3 seated", then "2 of 3"), and both land at the same
table with a bot in the third seat once the bound is up; three land at one table with no bot; and a
person pressing Play now while a Play now table of that pool plays with bots takes a bot's seat at its
next deal's start, watching until then ("Bob takes Bot 2's seat")."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardhall.loadclient import connect
from cardhall.server.playnow import WAIT_VARIABLE
from tests.server_helpers import free_port, running_server, server_log
from tests.web.web_helpers import Browser, Page, api, browser, checked_page, enter, shot  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

BOUND = 4.0  # seconds before bots (the server's default: 10)


@pytest.fixture
def short_bound_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv(WAIT_VARIABLE, str(BOUND))
    port = free_port()
    db = tmp_path / "web.db"
    try:
        with running_server(db, port):
            yield f"http://127.0.0.1:{port}"
    finally:
        print(f"--- the server's output ---\n{server_log(db).read_text(errors='replace')}")


def press_play_now(page: Page, choice: str = "after_wait") -> None:
    page.select_option("#qp-game", "hokm")
    page.select_option("#qp-pace", "0")
    page.select_option("#qp-choice", choice)
    page.click("#playnow")


TABLE_URL = re.compile(r".*/tables/[^/]+$")


def test_two_browsers_pressing_play_now_meet_at_one_table_with_a_bot(
    browser: Browser,  # noqa: F811
    short_bound_url: str,
) -> None:
    with checked_page(browser, short_bound_url) as ann, checked_page(browser, short_bound_url) as bob:
        enter(ann, "Ann")
        enter(bob, "Bob")
        press_play_now(ann)
        ann.wait_for_selector("#pn-status:has-text('1 of 3 seated')")
        assert "starting with a bot in" in ann.inner_text("#pn-status")
        started = time.monotonic()
        press_play_now(bob)
        ann.wait_for_selector("#pn-status:has-text('2 of 3 seated')")
        bob.wait_for_selector("#pn-status:has-text('2 of 3 seated')")
        ann.wait_for_url(TABLE_URL)
        bob.wait_for_url(TABLE_URL)
        assert ann.url.rsplit("/", 1)[1] == bob.url.rsplit("/", 1)[1]
        assert time.monotonic() - started > 0.5  # (Ann's bound was still running when Bob came)
        table = ann.url.rsplit("/", 1)[1]
        seats = api(ann, "GET", f"/api/tables/{table}")["seats"]
        assert [s["kind"] for s in seats] == ["person", "person", "bot"]
        assert [s["name"] for s in seats[:2]] == ["Ann", "Bob"]
        # Both pages show the match (its cards), each from his own seat.
        ann.wait_for_selector(".hand")
        bob.wait_for_selector(".hand")
        assert api(ann, "GET", "/api/playnow")["pools"] == []


def test_three_browsers_pressing_play_now_meet_at_one_table_without_a_bot(
    browser: Browser,  # noqa: F811
    short_bound_url: str,
) -> None:
    with (
        checked_page(browser, short_bound_url) as ann,
        checked_page(browser, short_bound_url) as bob,
        checked_page(browser, short_bound_url) as cy,
    ):
        pages = [ann, bob, cy]
        for page, name in zip(pages, ("Ann", "Bob", "Cy"), strict=True):
            enter(page, name)
        for page in pages:
            press_play_now(page)
        for page in pages:
            page.wait_for_url(TABLE_URL)
        tables = {page.url.rsplit("/", 1)[1] for page in pages}
        assert len(tables) == 1
        seats = api(ann, "GET", f"/api/tables/{tables.pop()}")["seats"]
        assert [s["kind"] for s in seats] == ["person"] * 3
        assert sorted(s["name"] for s in seats) == ["Ann", "Bob", "Cy"]
        for page in pages:
            page.wait_for_selector(".hand")


class Player(threading.Thread):
    """A person at a table over the websocket (his page's token): plays his first legal move at a
    person's pace whenever it is his turn, until told to stop (the browser shows his table all along)."""

    def __init__(self, port: int, token: str, table: str) -> None:
        super().__init__(daemon=True)
        self.port, self.token, self.table = port, token, table
        self.stop = threading.Event()
        self.moves = 0

    def run(self) -> None:
        with connect(self.port, self.token) as client:
            client.send(type="join", table=self.table)
            newest, acted = -1, -1
            while not self.stop.is_set():
                try:
                    frame: dict[str, Any] = client.receive(timeout=0.2)
                except TimeoutError:
                    continue
                if frame.get("table") != self.table or frame["type"] not in ("table", "update"):
                    continue
                newest = max(newest, frame["n"])
                if frame.get("legal") and frame["n"] == newest and acted < newest:
                    time.sleep(0.15)  # (so the match lasts: bots play at once, 23 deals in a few seconds)
                    client.send(type="act", table=self.table, action=frame["legal"][0]["label"], n=frame["n"])
                    acted = newest
                    self.moves += 1


def test_a_browser_pressing_play_now_takes_a_bots_seat_at_the_next_deal(
    browser: Browser,  # noqa: F811
    short_bound_url: str,
) -> None:
    port = int(short_bound_url.rsplit(":", 1)[1])
    with checked_page(browser, short_bound_url) as ann, checked_page(browser, short_bound_url) as bob:
        enter(ann, "Ann")
        enter(bob, "Bob")
        press_play_now(ann, "now")  # (a table at once, Ann and two bots)
        ann.wait_for_url(TABLE_URL)
        table = ann.url.rsplit("/", 1)[1]
        ann.wait_for_selector(".hand")
        player = Player(port, ann.evaluate("localStorage.getItem('cardhall.token')"), table)
        player.start()
        try:
            press_play_now(bob)  # (after 3 s without people, a bot's seat is his: before his bound)
            bob.wait_for_url(TABLE_URL)
            assert bob.url.rsplit("/", 1)[1] == table
            bob.wait_for_selector(".spectating:has-text('is yours from the next deal')")
            shot(bob, "playnow-takeover-watching")
            bob.wait_for_selector(".log:has-text('Bob takes Bot')")
            bob.wait_for_selector(".hand")
            bob.wait_for_function("!document.querySelector('.spectating')")
            shot(bob, "playnow-takeover-seated")
            text = bob.inner_text(".log")
            taken = re.search(r"Bob takes Bot (\d)'s seat", text)
            assert taken is not None, text
            seats = api(bob, "GET", f"/api/tables/{table}")["seats"]
            seat = int(taken.group(1)) - 1
            assert seats[seat]["kind"] == "person" and seats[seat]["name"] == "Bob"
            assert [s["kind"] for s in seats].count("bot") == 1
            # The bot's moves before are still the bot's in the log (the seat's name then).
            before = text[: text.index(taken.group(0))]
            assert f"Bot {taken.group(1)} plays" in before and "Bob plays" not in before
            ann.wait_for_selector(".log:has-text('Bob takes Bot')")  # (Ann's page says it too)
            assert player.moves > 0
        finally:
            player.stop.set()
            player.join(5)
