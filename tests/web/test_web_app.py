"""cardhall as an app to install (issue 46), in a real browser (Debian's headless Chromium through
Playwright, against ``cardhall serve``): Chromium finds the site installable (its DevTools protocol's
``Page.getInstallabilityErrors`` lists no error) with a manifest in the page's language; the service
worker keeps the page, so a second visit opens from the kept copy and a visit without a network opens
and says there is none; a new version of the client's files reaches the browser (at once on a page not
yet touched; by the page's "Reload" on one in use). Each test failed against the client of c90bd0d."""

# ruff: noqa: F811  (the fixtures are imported by name, then asked for as arguments)

from __future__ import annotations

import json
import os
import struct
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import cardhall
from tests.web.test_web_routes import hall, person  # noqa: F401 (the module's server)
from tests.web.web_helpers import CHROMIUM, DESKTOP, WAIT_MS, Browser, Page, browser, enter, shot  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WEB = Path(cardhall.__file__).parent / "web"
KEPT = "caches.keys().then((keys) => keys.filter((k) => k.startsWith('cardhall-')))"


def kept(page: Page) -> list[str]:
    """The caches of the client's versions the worker keeps."""
    found: list[str] = page.evaluate(KEPT)
    return found


def until(page: Page, predicate: str) -> None:
    """Wait until ``predicate`` (JavaScript: an expression whose promise resolves to a truth value) holds.
    (Playwright's ``wait_for_function`` takes a promise for a truth: it waits for nothing asked this way.)"""
    page.evaluate(
        """async ([predicate, ms]) => {
            const deadline = Date.now() + ms;
            while (!(await (0, eval)(predicate))) {
                if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${predicate}`);
                await new Promise((wake) => setTimeout(wake, 100));
            }
        }""",
        [predicate, WAIT_MS],
    )


def wait_kept(page: Page, condition: str) -> None:
    """Wait until the versions kept (``k``, a list) meet ``condition`` (a JavaScript expression)."""
    until(page, f"{KEPT}.then((k) => {condition})")


def worker_ready(page: Page) -> None:
    """Wait for the page's service worker to be active (its files kept: it installs by keeping them)."""
    until(page, "navigator.serviceWorker.getRegistration().then((r) => r?.active?.state === 'activated')")
    wait_kept(page, "k.length === 1")


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@contextmanager
def installed_browser(chromium: Browser, url: str, profile: Path) -> Iterator[Any]:
    """A browser with a profile on disk: Chromium installs nothing from a private (incognito) context,
    which every ``new_context`` is, and says so ("in-incognito")."""
    context = chromium.browser_type.launch_persistent_context(
        str(profile), executable_path=str(CHROMIUM), base_url=url, viewport=DESKTOP
    )
    context.set_default_timeout(WAIT_MS)
    try:
        yield context
    finally:
        context.close()


def test_chromium_finds_the_site_installable_in_both_languages(
    browser: Browser, hall: str, tmp_path: Path
) -> None:
    with installed_browser(browser, hall, tmp_path / "profile") as context:
        page = context.new_page()
        page.goto("/")
        page.wait_for_selector("#name")
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        worker_ready(page)  # (and with its worker running)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"].endswith("/static/manifest-en.webmanifest") and not manifest["errors"]
        data = json.loads(manifest["data"])
        assert data["name"].startswith("cardhall") and data["display"] == "standalone"
        sizes = set()
        for icon in data["icons"]:
            if icon["type"] == "image/png":
                size = png_size(page.request.get(icon["src"]).body())
                assert icon["sizes"] == f"{size[0]}x{size[1]}", icon
                sizes.add(size[0])
        assert sizes == {192, 512}
        # In Bengali the app is named in Bengali.
        page.click("#lang")
        page.wait_for_function("document.documentElement.lang === 'bn'")
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"].endswith("/static/manifest-bn.webmanifest") and not manifest["errors"]
        assert json.loads(manifest["data"])["name"] == "কার্ড হল"
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []


def test_a_second_visit_opens_from_the_kept_page_and_says_when_there_is_no_network(
    browser: Browser, hall: str
) -> None:
    with person(browser, hall) as page:
        enter(page, "Ann")
        worker_ready(page)
        response = page.reload()  # the second visit: the page from the worker's copy, at once
        assert response is not None and response.from_service_worker
        page.wait_for_selector("#quickplay")
        page.context.set_offline(True)
        page.reload()  # (without a worker: the browser's own "no internet" page)
        note = page.wait_for_selector("#offline-note")
        assert "No network" in note.inner_text()
        page.wait_for_selector("#offline-retry")  # the lobby could not load: it says so in its place
        shot(page, "offline-en-desktop")
        page.context.set_offline(False)
        page.wait_for_selector("#quickplay")  # back by itself
        page.wait_for_selector("#offline-note", state="detached")
        page.wait_for_selector("#conn[data-status='online']")


@contextmanager
def new_version() -> Iterator[None]:
    """A client file changed on the server (its time: the version is a hash of the files' paths, sizes
    and times), put back as it was afterwards."""
    icon = WEB / "favicon.svg"
    before = icon.stat()
    later = time.time_ns() + 5_000_000_000
    os.utime(icon, ns=(later, later))
    try:
        yield
    finally:
        os.utime(icon, ns=(before.st_atime_ns, before.st_mtime_ns))


def test_a_new_version_of_the_client_reaches_the_browser(browser: Browser, hall: str) -> None:
    with person(browser, hall) as page:
        page.goto("/")
        page.wait_for_selector("#name")
        worker_ready(page)
        [first] = kept(page)
        loads: list[Any] = []
        page.on("load", lambda loaded: loads.append(loaded))
        with new_version():
            # A page not touched yet (just opened): the new version takes over at once (it reloads).
            page.reload()
            while len(loads) < 2:  # (the reload, then the new version's)
                page.wait_for_event("load")
            wait_kept(page, f"k.length === 1 && k[0] !== {first!r}")
            page.wait_for_selector("#name")
            [second] = kept(page)
            with new_version():
                # A page in use: it says a new version is ready, and reloads into it when asked.
                page.click("#name")
                page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
                page.wait_for_selector("#update-note")
                assert kept(page)[0] == second  # (this page's version, until it reloads)
                shot(page, "update-en-desktop", full_page=False)
                with page.expect_event("load"):
                    page.click("#update-reload")
                wait_kept(page, f"k.length === 1 && k[0] !== {second!r}")
                page.wait_for_selector("#name")
