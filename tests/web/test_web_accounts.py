"""Accounts in a real browser (Debian's headless Chromium through Playwright, against ``cardhall serve``):
a guest plays, makes himself an account from the lobby and finds his history on his page (a rating
plotted, his match with its replay); the same account signed in from a second browser, and signed out
everywhere from the first. Both languages, desktop and phone; screenshots to ``tests/screenshots/``."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.test_web_lobby import finished_match
from tests.web.web_helpers import (  # noqa: F401 (fixtures)
    DESKTOP,
    PHONE,
    WAIT_MS,
    Browser,
    Page,
    api,
    base_url,
    browser,
    browser_page,
    enter,
    shot,
    web_server,
)

# Each test signs up the account "Ann", and an account's name is the whole server's: a server each.
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.own_server]

PASSWORD = "correct horse battery"


def me(page: Page) -> Any:
    """``GET /api/players/me`` as the page's browser holds it (its cookie; no token)."""
    return page.evaluate("async () => (await fetch('/api/players/me')).json()")


HELLO = """() => new Promise((resolve) => {
    const ws = new WebSocket(`ws://${location.host}/ws`);
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", id: 1 }));
    ws.onmessage = (m) => { resolve(JSON.parse(m.data)); ws.close(); };
})"""


def new_page(chromium: Browser, url: str, viewport: dict[str, int]) -> tuple[Any, Page]:
    context = chromium.new_context(viewport=viewport, base_url=url)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    return context, page


@pytest.mark.parametrize(("lang", "size"), [("en", "desktop"), ("bn", "phone")])
def test_a_guest_signs_up_and_finds_his_history(page: Page, lang: str, size: str) -> None:
    if size == "phone":
        page.set_viewport_size(PHONE)
    enter(page, "Ann", lang)
    table = finished_match(page)
    page.reload()
    if size == "phone":  # (on a phone the lobby's account and boards are folded)
        page.click(".fold-account > summary")
        page.click(".fold-leaderboards > summary")
    page.wait_for_selector("#account[data-state='guest']")
    shot(page, f"account-guest-{lang}-{size}")
    assert page.input_value("#signup-name") == "Ann"
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("#account[data-state='account']")
    assert page.evaluate("localStorage.getItem('cardhall.token')") is None  # the session is the cookie's
    assert me(page)["guest"] is False
    shot(page, f"account-signed-in-{lang}-{size}")
    page.click("#my-page")
    page.wait_for_selector("#player-dialog[data-loaded] .match")
    dialog = page.locator("#player-dialog")
    assert dialog.locator(f".match[data-table='{table}']").count() == 1
    # (finished_match never joins it: the stand-in played it all, and it counts as a loss)
    assert dialog.locator(f".match[data-table='{table}'] .outcome.absent").count() == 1
    assert dialog.locator(".rating[data-game='hokm'][data-pool='bots'] svg.rating-plot circle").count() == 1
    assert "Ann" in dialog.locator("#player-dialog-title").inner_text()
    shot(page, f"profile-{lang}-{size}", full_page=False)
    # From his page to the match's replay.
    dialog.locator(f".match[data-table='{table}'] .replay-link").click()
    page.wait_for_selector("#replay-dialog[open]")
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    page.wait_for_selector("#player-dialog:not([open])", state="attached")
    # The stand-in played that match for him (finished_match never joins it): his page says so, and his
    # one provisional rating is on no board (issue 46; tests/web/test_web_ratings.py follows a name there).
    page.select_option("#lb-game", "hokm")
    page.select_option("#lb-pool", "bots")
    page.wait_for_selector(".board[data-game='hokm'][data-pool='bots'] .empty")


def test_one_account_in_two_browsers_and_signed_out_everywhere(
    browser: Browser,  # noqa: F811 (the fixture)
    base_url: str,  # noqa: F811 (the fixture)
) -> None:
    first_context, first = new_page(browser, base_url, DESKTOP)
    second_context, second = new_page(browser, base_url, PHONE)
    try:
        enter(first, "Ann")
        first.fill("#signup-password", PASSWORD)
        first.click("#signup-form button[type=submit]")
        first.wait_for_selector("#account[data-state='account']")
        ann = me(first)["id"]

        second.goto("/")
        second.click(".first-signin > summary")  # ("Already have an account?": folded on the first page)
        second.wait_for_selector("#signin-form")
        shot(second, "account-first-page-en-phone")
        second.fill("#signin-name", "ANN")  # any case
        second.fill("#signin-password", "wrong password")
        second.click("#signin-form button[type=submit]")
        second.wait_for_selector("#signin-form .error:has-text('No account has this name and password')")
        second.fill("#signin-password", PASSWORD)
        second.click("#signin-form button[type=submit]")
        second.click(".fold-account > summary")  # (on a phone the lobby's account is folded)
        second.wait_for_selector("#account[data-state='account']")
        assert me(second)["id"] == ann
        assert second.locator("#who").inner_text().endswith("Ann")  # no longer a guest
        # The second browser plays as Ann too: its websocket says hello with the cookie, no token.
        welcome = second.evaluate(HELLO)
        assert welcome["type"] == "welcome"
        assert welcome["player"] == {"id": ann, "name": "Ann", "guest": False}

        first.click("#signout-all")
        first.wait_for_selector("#name")
        assert me(second)["error"] == "bad_token"  # its session ended too
        second.reload()
        second.wait_for_selector("#name")  # the hello was refused: back to the first page
    finally:
        first_context.close()
        second_context.close()


@pytest.mark.parametrize("lang", ["en", "bn"])
def test_a_name_at_the_table_leads_to_the_persons_page(page: Page, lang: str) -> None:
    enter(page, "Ann", lang)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("#account[data-state='account']")
    page.select_option("#qp-game", "hokm")
    page.select_option("#qp-pace", "0")
    page.click("#quickplay")
    ann = me(page)["id"]
    link = page.locator(f".table-view .seat .seat-name a.player-link[data-player='{ann}']")
    link.wait_for()
    assert page.locator(".table-view .seat .seat-name a.player-link").count() == 1  # bots have no page
    shot(page, f"table-account-{lang}-desktop", full_page=False)
    link.click()
    page.wait_for_selector(f"#player-dialog[data-loaded][data-player='{ann}']")
    assert page.locator("#player-dialog .who.account").count() == 1


@pytest.mark.parametrize("lang", ["en", "bn"])
def test_the_account_panel_and_a_persons_page_have_no_serious_accessibility_violation(
    page: Page, lang: str
) -> None:
    axe = pytest.importorskip("tests.web.test_web_axe", reason="axe-core: the dev extra")
    enter(page, "Ann", lang)
    finished_match(page)
    found = axe.serious(page, "the guest's account panel")
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("#account[data-state='account']")
    page.click("#account details summary")
    found += axe.serious(page, "the account's panel")
    page.click("#my-page")
    page.wait_for_selector("#player-dialog[data-loaded] .rating svg")
    found += axe.serious(page, "a person's page")
    assert not found, "\n".join(found)
