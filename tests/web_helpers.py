"""Helpers for the browser tests of the lobby, rules and replay pages (``tests/test_web_lobby.py``): the
headless Chromium (Debian's, driven by Playwright; skipped without it, except in CI), a real ``cardhall
serve`` per test, a page that fails its test on any script error, and screenshots under
``tests/screenshots/``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server_helpers import free_port, running_server, server_log

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

# The browser tests import Playwright's names from here, after the skip above.
__all__ = ["Browser", "Error", "Page"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM))
        yield browser
        browser.close()


# The longest any wait of a browser test waits (Playwright's default: 30 s). Every wait is for a state of
# the page or the server, so a loaded machine only makes it take longer; a bug still fails at this.
WAIT_MS = 90_000


@pytest.fixture
def base_url(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    db = tmp_path / "web.db"
    try:
        with running_server(db, port):
            yield f"http://127.0.0.1:{port}"
    finally:
        # Shown with a failing test's output: what the server logged (a failed bot move, a table task).
        print(f"--- the server's output ---\n{server_log(db).read_text(errors='replace')}")


@pytest.fixture(name="page")
def browser_page(browser: Browser, base_url: str) -> Iterator[Page]:
    """A desktop-sized page of a fresh server; any script error in it fails the test."""
    context = browser.new_context(viewport=DESKTOP, base_url=base_url)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    errors: list[Any] = []
    page.on("pageerror", lambda error: errors.append(error))
    yield page
    context.close()
    assert not errors, f"errors in the page: {errors}"


def shot(page: Page, name: str, full_page: bool = True) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page, animations="disabled")


def enter(page: Page, name: str, lang: str = "en") -> None:
    """Open the page, switch it to ``lang``, and enter as a new player called ``name``."""
    page.goto("/")
    page.wait_for_selector("#name")
    if lang != "en":
        page.click("#lang")
        page.wait_for_function(f"document.documentElement.lang === {lang!r}")
    page.fill("#name", name)
    page.click("#enter")
    page.wait_for_selector("#quickplay")
