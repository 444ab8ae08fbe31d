"""A table's chat is kept, in a real browser (Debian's headless Chromium through Playwright, against
``cardhall serve``; issue 46, D9): a person says a line in the waiting room and reloads: it is there; a
second person who arrives later sees it, and so does the table once the match starts."""

from __future__ import annotations

import pytest

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


def lines(page: Page) -> list[str]:
    texts: list[str] = page.locator(".chat-line .chat-text").all_inner_texts()
    return texts


def test_what_was_said_is_there_after_a_reload_and_for_who_comes_later(
    browser: Browser,  # noqa: F811 (the fixture)
    base_url: str,  # noqa: F811 (the fixture)
) -> None:
    contexts = [browser.new_context(viewport=size, base_url=base_url) for size in (DESKTOP, PHONE)]
    for c in contexts:
        c.set_default_timeout(WAIT_MS)
    try:
        ann, bob = (c.new_page() for c in contexts)
        enter(ann, "Ann")
        table = api(ann, "POST", "/api/tables", {"game": "hokm", "settings": {"bot_pace_ms": 0}})["table"]
        ann.wait_for_selector(f'.tables li[data-table="{table}"]')
        ann.click(f'.tables li[data-table="{table}"] button.watch')
        ann.wait_for_selector(".room-seat .sit")
        ann.click('.room-seat[data-seat="0"] .sit')
        ann.wait_for_selector('.room-seat.me[data-seat="0"]')
        ann.fill("#chat-text", "anyone for Hokm?")
        ann.click("#chat-send")
        ann.wait_for_selector(".chat-line .chat-text:text-is('anyone for Hokm?')")
        ann.reload()
        ann.wait_for_selector('.room-seat.me[data-seat="0"]')
        ann.wait_for_selector(".chat-line .chat-text:text-is('anyone for Hokm?')")
        assert lines(ann) == ["anyone for Hokm?"]  # once, after the reload

        enter(bob, "Bob")
        bob.wait_for_selector(f'.tables li[data-table="{table}"]')
        bob.click(f'.tables li[data-table="{table}"] button.watch')
        bob.wait_for_selector(".chat-line .chat-text:text-is('anyone for Hokm?')")
        assert "Ann" in bob.inner_text(".chat-line .chat-name")
        shot(bob, "chat-history-en-phone", full_page=False)
        bob.click('.room-seat[data-seat="1"] .sit')
        bob.wait_for_selector('.room-seat.me[data-seat="1"]')
        bob.fill("#chat-text", "me!")
        bob.click("#chat-send")
        ann.wait_for_selector(".chat-line .chat-text:text-is('me!')")
        assert lines(bob) == ["anyone for Hokm?", "me!"]
        assert lines(ann) == ["anyone for Hokm?", "me!"]
    finally:
        for c in contexts:
            c.close()
