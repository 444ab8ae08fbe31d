"""Guests' names in a real browser (Debian's headless Chromium through Playwright, against ``cardhall
serve``; issue 46, D16): a person may not enter as a guest under an account's name (in another case),
and two guests of one name sitting at one table are told apart by their numbers."""

from __future__ import annotations

import pytest

from tests.web.test_web_seat import open_table
from tests.web.web_helpers import (  # noqa: F401 (fixtures)
    DESKTOP,
    PHONE,
    WAIT_MS,
    Browser,
    Page,
    api,
    base_url,
    browser,
    enter,
    shot,
    web_server,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "correct horse battery"


def test_no_guest_takes_an_accounts_name_and_two_guests_of_one_name_are_told_apart(
    browser: Browser,  # noqa: F811 (the fixture)
    base_url: str,  # noqa: F811 (the fixture)
) -> None:
    contexts = [browser.new_context(viewport=size, base_url=base_url) for size in (DESKTOP, PHONE, DESKTOP)]
    for c in contexts:
        c.set_default_timeout(WAIT_MS)
    try:
        ann, spoof, bob = (c.new_page() for c in contexts)
        enter(ann, "Ann the guest")
        made = api(ann, "POST", "/api/account", {"name": "Ann", "password": PASSWORD})
        assert made["name"] == "Ann", made

        spoof.goto("/")
        spoof.wait_for_selector("#name")
        spoof.fill("#name", "ANN")
        spoof.click("#enter")
        spoof.wait_for_selector(".name-form .error:not(:empty)")
        assert spoof.locator("#quickplay").count() == 0  # still at the name: refused
        assert spoof.evaluate("localStorage.getItem('cardhall.token')") is None
        shot(spoof, "guest-name-taken-en-phone", full_page=False)

        # Two guests called Bob at one table: each seat says which.
        enter(spoof, "Bob")
        enter(bob, "Bob")
        body = {"game": "hokm", "settings": {"bot_pace_ms": 0}, "bots": {"2": "easy"}}
        table: str = api(bob, "POST", "/api/tables", body)["table"]
        open_table(bob, table)
        open_table(spoof, table)
        names = sorted(bob.locator(".arena .seat-name").all_inner_texts())
        first, second = api(spoof, "GET", "/api/players/me")["id"], api(bob, "GET", "/api/players/me")["id"]
        assert f"Bob (guest #{first})" in names and f"Bob (guest #{second})" in names, names
        shot(bob, "guests-at-a-table-en-desktop", full_page=False)
    finally:
        for c in contexts:
            c.close()
