"""Play now in a real browser (issue 49; Debian's Chromium driven by Playwright, against ``cardhall
serve`` in its own process, its bound before bots made short): two people press Play now for Hokm
within a few seconds, each page counts ("1 of 3 seated", then "2 of 3"), and both land at the same
table with a bot in the third seat once the bound is up."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardhall.server.playnow import WAIT_VARIABLE
from tests.server_helpers import free_port, running_server, server_log
from tests.web.web_helpers import Browser, Page, api, browser, checked_page, enter  # noqa: F401 (fixtures)

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


def press_play_now(page: Page) -> None:
    page.select_option("#qp-game", "hokm")
    page.select_option("#qp-pace", "0")
    page.select_option("#qp-choice", "after_wait")
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
