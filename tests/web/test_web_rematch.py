"""Play again as an offer, in a real browser (Debian's headless Chromium through Playwright, against
``cardhall serve``; issue 46, D5): Ann offers, Bob's page shows the offer with Accept and Decline and its
clock, nobody is seated before he answers; he accepts and both pages go to the new table; at its end he
declines, and the new table starts with Ann and a bot in his seat, his page saying so. Screenshots of the
offer in both languages, desktop and phone."""

from __future__ import annotations

import time
from typing import Any

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

OVER = ".match-over"


def my_tables(page: Page) -> list[dict[str, Any]]:
    tables: list[dict[str, Any]] = api(page, "GET", "/api/players/me/tables")["tables"]
    return tables


def playing_rematch_of(page: Page, table: str) -> dict[str, Any]:
    """The page's player's new table that plays ``table`` again, once it is there."""
    deadline = time.monotonic() + 60
    while True:
        for mine in my_tables(page):
            summary: dict[str, Any] = api(page, "GET", f"/api/tables/{mine['table']}")
            if summary.get("rematch_of") == table:
                return summary
        assert time.monotonic() < deadline
        time.sleep(0.1)


def at_the_end(page: Page) -> None:
    """Wait for the match's end on the page (the stand-ins play it: nobody moves)."""
    page.wait_for_selector(f"{OVER} #rematch")


def test_play_again_is_an_offer_the_other_accepts_or_declines(
    browser: Browser,  # noqa: F811 (the fixture)
    base_url: str,  # noqa: F811 (the fixture)
) -> None:
    contexts = [browser.new_context(viewport=DESKTOP, base_url=base_url) for _ in range(2)]
    for c in contexts:
        c.set_default_timeout(WAIT_MS)
    try:
        ann, bob = (c.new_page() for c in contexts)
        enter(ann, "Ann")
        enter(bob, "Bob")
        # A table of the two and a bot; each person's turn runs out at once and a stand-in plays it.
        body = {
            "game": "hokm(max_hands=1)",
            "settings": {"bot_pace_ms": 0, "turn_seconds": 1},
            "bots": {"2": "easy"},
        }
        table: str = api(ann, "POST", "/api/tables", body)["table"]
        open_table(ann, table)
        open_table(bob, table)
        at_the_end(ann)
        at_the_end(bob)

        ann.click("#rematch")
        offer = bob.wait_for_selector(".rematch-offer")
        assert "Ann offers to play again." in offer.inner_text()
        assert bob.locator("#rematch-accept").count() == 1 and bob.locator("#rematch-decline").count() == 1
        bob.wait_for_selector(".rematch-clock:has-text(' s, without')")
        assert "waiting for Bob" in ann.inner_text(".rematch-offer")
        assert not [t for t in my_tables(bob) if t["table"] != table]  # nobody seated before he answers
        shot(bob, "rematch-offer-en-desktop", full_page=False)
        shot(ann, "rematch-offered-en-desktop", full_page=False)
        bob.set_viewport_size(PHONE)
        shot(bob, "rematch-offer-en-phone", full_page=False)
        bob.click("#lang")
        bob.wait_for_function("document.documentElement.lang === 'bn'")
        bob.wait_for_selector(".rematch-offer:has-text('আবার খেলার প্রস্তাব দিয়েছেন')")
        shot(bob, "rematch-offer-bn-phone", full_page=False)
        bob.set_viewport_size(DESKTOP)
        shot(bob, "rematch-offer-bn-desktop", full_page=False)

        bob.click("#rematch-accept")
        for page in (ann, bob):
            page.wait_for_selector(OVER, state="detached")  # both taken to the new table
        second = playing_rematch_of(ann, table)
        assert [s["kind"] for s in second["seats"]] == ["person", "person", "bot"]
        assert second["seats"][1]["name"] == "Bob"

        # At its end Bob declines: the table starts at once, with Ann and a bot in his seat.
        at_the_end(ann)
        bob.wait_for_selector(f"{OVER} #rematch")
        ann.click("#rematch")
        bob.wait_for_selector("#rematch-decline")
        bob.click("#rematch-decline")
        ann.wait_for_selector(OVER, state="detached")
        note = bob.wait_for_selector(".rematch-note")
        assert "অন্যরা আপনাকে ছাড়াই আবার খেলছেন" in note.inner_text()
        third = playing_rematch_of(ann, second["table"])
        assert [s["kind"] for s in third["seats"]] == ["person", "bot", "bot"]
        assert not [t for t in my_tables(bob) if t["table"] == third["table"]]
        shot(bob, "rematch-declined-bn-desktop", full_page=False)
    finally:
        for c in contexts:
            c.close()
