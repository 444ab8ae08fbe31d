"""Helpers for the browser tests (``tests/web/test_web*.py``): the headless Chromium (Debian's, driven by
Playwright; skipped without it, except in CI), a real ``cardhall serve`` per module (``base_url``; a test
marked ``own_server`` has one of its own), a page that fails its test on any script error, and screenshots
under ``tests/screenshots/``."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.server_helpers import free_port, running_server, server_log
from tests.sqlite_template import migrated_file

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parents[1] / "screenshots"
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

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
WAIT_MS = int(os.environ.get("CARDHALL_WEB_WAIT_MS", "90000"))  # lower it to see a failure sooner


@dataclass(frozen=True)
class WebServer:
    """A ``cardhall serve`` that several tests share: its address, its process and its output's file."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path


@contextmanager
def served(directory: Path, *options: str) -> Iterator[WebServer]:
    """``cardhall serve`` (with ``options``) on a free port and a new store in ``directory``: a copy of a
    migrated one (:mod:`tests.sqlite_template`), so the server starts without running the migrations."""
    db = directory / "web.db"
    migrated_file(db)
    port = free_port()
    with running_server(db, port, *options) as process:
        yield WebServer(f"http://127.0.0.1:{port}", process, server_log(db))


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """One server for a module's tests (``base_url``). A server of each test's own (a process, its
    imports, its store) was a third to a half of a browser test's time; the tests stay independent by
    making players and tables of their own (each page is a new browser context: a new guest)."""
    with served(tmp_path_factory.mktemp("web")) as server:
        yield server


@pytest.fixture
def base_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The module's server (``web_server``), alive when the test starts; for a test marked
    ``own_server`` (it counts what the whole server holds: the lobby's tables, the leaderboards, the
    finished matches, the accounts' names), one of its own on a new store (``tmp_path / "web.db"``).
    Shown with a failing test's output: what the server logged while the test ran (a failed bot move,
    a table task)."""
    if request.node.get_closest_marker("own_server"):
        with served(tmp_path) as server, logged(server):
            yield server.url
        return
    shared: WebServer = request.getfixturevalue("web_server")
    if shared.process.poll() is not None:
        pytest.fail(f"the module's server has stopped:\n{shared.log.read_text(errors='replace')}")
    with logged(shared):
        yield shared.url


@contextmanager
def logged(server: WebServer) -> Iterator[None]:
    """Print what ``server`` logs from now to the end of the block (pytest shows it with a failure)."""
    start = server.log.stat().st_size
    try:
        yield
    finally:
        with server.log.open("rb") as log:
            log.seek(start)
            print(f"--- the server's output during the test ---\n{log.read().decode(errors='replace')}")


@pytest.fixture(scope="module")
def static_url(web_server: WebServer) -> str:
    """The module's server, for the tests that draw the table from frames (``tests/web/table_frames.py``):
    they only need it to serve the page."""
    return web_server.url


@contextmanager
def drawn_page(browser: Browser, base_url: str, lang: str = "en", **context: Any) -> Iterator[Page]:
    """A page of the server at ``base_url`` (a new browser context: ``context`` its options, e.g.
    ``viewport``, ``device_scale_factor``) in ``lang``, ready to draw a table from a frame (RENDER of
    ``tests/web/table_frames.py``), with no motion; any script error in it fails the test."""
    options: dict[str, Any] = {"viewport": DESKTOP, "reduced_motion": "reduce", **context}
    browser_context = browser.new_context(base_url=base_url, **options)
    browser_context.set_default_timeout(WAIT_MS)
    page = browser_context.new_page()
    errors: list[Any] = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto("/")
    page.wait_for_selector("#name")
    if lang != "en":
        page.evaluate("async (lang) => (await import('/static/i18n.js')).setLanguage(lang)", lang)
    yield page
    browser_context.close()
    assert not errors, f"errors in the page: {errors}"


@contextmanager
def checked_page(browser: Browser, base_url: str) -> Iterator[Page]:
    """A desktop-sized page of the server at ``base_url``; any script error in it fails the test."""
    context = browser.new_context(viewport=DESKTOP, base_url=base_url)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    errors: list[Any] = []
    page.on("pageerror", lambda error: errors.append(error))
    yield page
    context.close()
    assert not errors, f"errors in the page: {errors}"


@pytest.fixture(name="page")
def browser_page(browser: Browser, base_url: str) -> Iterator[Page]:
    """A desktop-sized page of a fresh server; any script error in it fails the test."""
    with checked_page(browser, base_url) as page:
        yield page


def shot(page: Page, name: str, full_page: bool = True) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page, animations="disabled")


# Every card of the hand and every move of a seat that must act, as a box in the window (scrolled to the
# top, as the page opens): whatever lies above them (a deal summary, a knock, a pass confirmation).
OUT_OF_VIEW = """() => {
    window.scrollTo(0, 0);
    const w = window.innerWidth, h = window.innerHeight, out = [];
    for (const el of document.querySelectorAll(".hand .card, .actions button, .actions input")) {
        const r = el.getBoundingClientRect();
        if (!r.width && !r.height) continue;
        if (r.left < -1 || r.top < -1 || r.right > w + 1 || r.bottom > h + 1) {
            const what = el.dataset.card || el.dataset.label || el.textContent.trim();
            const box = [r.left, r.top, r.right, r.bottom].map(Math.round);
            out.push(`${what} at ${box[0]},${box[1]}..${box[2]},${box[3]}`);
        }
    }
    return out.length ? `${w}x${h}: ${out.join("; ")}` : "";
}"""


def assert_controls_in_view(page: Page, where: str = "") -> None:
    """The seat's hand and moves are all inside the window without scrolling (fails naming those that
    are not, with the window's size)."""
    outside = page.evaluate(OUT_OF_VIEW)
    assert not outside, f"{where}: out of view: {outside}"


def set_options(page: Page, prefix: str, options: str) -> None:
    """Set a game's options (``"max_hands=1,bidding=auction"``) through the lobby's controls whose ids
    start with ``prefix`` (``qp-opt``: quick play, ``ct-opt``: create a table), opening them first."""
    if not options:
        return
    field = page.locator(f"[id^='{prefix}-']").first
    if not field.is_visible():
        # (the innermost fold: the lobby's fold of the whole form holds the controls too)
        page.locator(f"details:has([id^='{prefix}-']) > summary").last.click()
    for pair in options.split(","):
        name, _, value = pair.partition("=")
        control = page.locator(f"#{prefix}-{name.strip()}")
        kind = control.get_attribute("data-kind")
        if kind == "bool":
            control.set_checked(value.strip() == "true")
        elif kind == "choice":
            index = control.locator(f"option[data-value='{value.strip()}']").get_attribute("value")
            control.select_option(index)
        else:
            control.fill(value.strip())


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


def api(page: Page, method: str, path: str, body: Any = None) -> Any:
    """A call of the HTTP API as the page's player (its token from the page's storage)."""
    return page.evaluate(
        """async ([method, path, body]) => {
            const token = localStorage.getItem("cardhall.token");
            const response = await fetch(path, {
                method, body: body && JSON.stringify(body),
                headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
            });
            return response.json();
        }""",
        [method, path, body],
    )
