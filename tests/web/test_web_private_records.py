"""A finished private table's replay in the browser (issue 47): for its people and for whoever holds its
link (the page keeps the invitation it was opened with and shows the replay), not for a stranger who
learnt its id (before, its record showed him every card)."""

from __future__ import annotations

import pytest

from tests.web.web_helpers import Browser, Page, api, base_url, browser, checked_page, enter, web_server  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Whether the record of a table is there yet for this page, polled in the page (Playwright's
# wait_for_function does not wait for a promise).
RECORD_READY = """([table, invitation]) => {
    if (window.recordReady === undefined) {
        window.recordReady = false;
        const poll = async () => {
            const answer = await fetch(`/api/tables/${table}/record?invitation=${invitation}`);
            if (answer.ok) window.recordReady = true; else setTimeout(poll, 200);
        };
        poll();
    }
    return window.recordReady;
}"""


def test_a_private_replay_is_for_its_link_not_for_its_id(browser: Browser, base_url: str) -> None:  # noqa: F811
    with checked_page(browser, base_url) as ann:
        enter(ann, "Ann")
        body = {"game": "hokm(max_hands=1)", "bots": {"1": "easy", "2": "easy"}}
        body["settings"] = {"bot_pace_ms": 0, "away_seconds": 0}
        made = api(ann, "POST", "/api/private-tables", body)
        table, invitation, link = made["table"], made["invitation"], made["link"]
        ann.goto(f"/tables/{table}")  # its waiting room: she takes her seat, and the match starts
        ann.click("#take-seat")
        ann.wait_for_selector(".table-view .arena .seat")
    # She closed her page: her stand-in plays her seat to the match's end.
    with checked_page(browser, base_url) as bob:
        enter(bob, "Bob")
        bob.wait_for_function(RECORD_READY, arg=[table, invitation])
        bob.goto(link)  # the link she sent him: its invitation kept by his page
        bob.wait_for_function(f"location.pathname === '/tables/{table}'")
        bob.goto(f"/tables/{table}/replay")
        bob.wait_for_selector(f'#replay-dialog[data-table="{table}"] .replay-seat .card')
    with checked_page(browser, base_url) as eve:
        enter(eve, "Eve")
        eve.goto(f"/tables/{table}/replay")  # the id alone
        eve.wait_for_selector("#replay-dialog .error:not(:empty)")
        assert eve.locator("#replay-dialog .replay-seat .card").count() == 0
