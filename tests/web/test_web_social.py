"""Playing with people one knows, in a real browser (Debian's headless Chromium through Playwright,
against ``cardhall serve``): two friends meet at a private table, one by a friend's invitation and a
guest by the table's link, and chat there, in the waiting room and at the table, on a desktop and on a
phone, with markup and script in their names and lines shown as typed and never run (a link offers
its seat: the guest takes it); a blocked person's link leads nowhere. Screenshots (both sizes, both
languages) go to ``tests/screenshots/``."""

# ruff: noqa: F811  (the browser fixtures are imported by name, then asked for as arguments)

from __future__ import annotations

from typing import Any

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
    browser_page,
    enter,
    shot,
    web_server,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# A name may hold no angle brackets (server/names.py), so the name tries an attribute instead.
SCRIPT_NAME = 'Bob" onmouseover="window.pwned=1'
SCRIPT_LINE = "<script>window.pwned = 1</script><b>hi</b>"


def new_page(browser: Browser, base_url: str, viewport: dict[str, int], errors: list[Any]) -> Page:
    context = browser.new_context(viewport=viewport, base_url=base_url)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(error))
    page.on("dialog", lambda dialog: errors.append(f"a dialog opened: {dialog.message}"))
    return page


def me(page: Page) -> int:
    found: int = api(page, "GET", "/api/players/me")["id"]
    return found


def no_script_ran(*pages: Page) -> None:
    for page in pages:
        assert page.evaluate("window.pwned") is None, "a script typed by a person ran"
        assert page.locator(".chat img, .chat script, .chat b").count() == 0


def test_two_friends_meet_at_a_private_table_and_chat(browser: Browser, base_url: str) -> None:
    errors: list[Any] = []
    ann = new_page(browser, base_url, DESKTOP, errors)
    bob = new_page(browser, base_url, PHONE, errors)
    cid = new_page(browser, base_url, PHONE, errors)
    enter(ann, "Ann")
    enter(bob, SCRIPT_NAME)
    # Friends through the lobby: Bob asks by Ann's number, Ann accepts (her panel is told at once).
    ann.wait_for_selector(".my-number")
    bob.click(".fold-friends > summary")  # (on a phone the lobby's friends are folded)
    bob.fill("#friend-id", str(me(ann)))
    bob.click("#friend-add")
    bob.wait_for_selector(".friend-cancel")
    ann.wait_for_selector(".friend-accept")
    shot(ann, "friends-request-en-desktop")
    ann.click(".friend-accept")
    ann.wait_for_selector(".friend .presence.online")
    bob.reload()
    bob.click(".fold-friends > summary")
    bob.wait_for_selector(".friend .presence.online")
    assert bob.locator(".friend-name").inner_text() == "Ann"
    shot(bob, "friends-en-phone")
    # Ann makes a private table: not listed, its link to copy.
    ann.click("#ct-private")
    ann.click("#create")
    ann.wait_for_selector("#copy-invite")
    link = ann.locator("#invite-link").input_value()
    table = link.split("/")[-2]
    assert link.startswith(base_url + "/#invite/") and len(link.split("/")[-1]) == 22
    ann.click("#room-seats .sit, .room-seat .sit") if ann.locator(".room-seat .sit").count() else None
    ann.wait_for_selector(".room-seat.me")
    assert table not in [t["table"] for t in api(bob, "GET", "/api/tables")["open"]]
    # She invites Bob, who is in the lobby: the invitation shows there, and takes him to the table.
    ann.wait_for_selector("#invite-friend")
    ann.click("#invite-send")
    bob.wait_for_selector("#invitation")
    shot(bob, "invitation-en-phone", full_page=False)
    bob.click("#invitation-join")
    bob.wait_for_selector(".room-seat.me")
    # They chat in the waiting room: markup and script show as typed, and nothing runs.
    bob.fill("#chat-text", SCRIPT_LINE)
    bob.click("#chat-send")
    ann.wait_for_selector(".chat-line .chat-text")
    line = ann.locator(".chat-line").last
    assert line.locator(".chat-text").inner_text() == SCRIPT_LINE
    # (a guest is told apart by his number)
    assert line.locator(".chat-name").inner_text() == f"{SCRIPT_NAME} (guest #{me(bob)})"
    assert line.locator(".chat-name").get_attribute("href") == f"/players/{me(bob)}"
    ann.fill("#chat-text", "welcome, friend")
    ann.press("#chat-text", "Enter")
    bob.wait_for_function("document.querySelectorAll('.chat-line').length === 2")
    no_script_ran(ann, bob)
    shot(ann, "private-room-en-desktop")
    shot(bob, "private-room-en-phone")
    # A guest comes by the link, gives a name, is offered the last seat and takes it: the match starts.
    cid.goto(link.replace(base_url, ""))
    cid.wait_for_selector("#name")
    cid.fill("#name", "Cid")
    cid.click("#enter")
    cid.click("#take-seat")
    for page in (ann, bob, cid):
        page.wait_for_selector(".table-view[data-status='playing']")
    # The lines said while waiting are still there at the table, and the chat goes on.
    assert ann.locator(".chat-line").count() == 2
    cid.fill("#chat-text", "hello both")
    cid.click("#chat-send")
    for page in (ann, bob):
        page.wait_for_function(
            "[...document.querySelectorAll('.chat-text')].some(e => e.textContent === 'hello both')"
        )
    no_script_ran(ann, bob, cid)
    chat = bob.locator(".chat").bounding_box()
    assert chat is not None and chat["x"] >= 0 and chat["x"] + chat["width"] <= PHONE["width"] + 1
    bob.locator(".chat").scroll_into_view_if_needed()
    shot(ann, "table-chat-en-desktop")
    shot(bob, "table-chat-en-phone")
    # Bob mutes Cid in his own view: Cid's line is hidden for Bob alone.
    bob.locator(".chat-line", has_text="hello both").locator(".chat-mute").click()
    bob.wait_for_selector(".chat-muted")
    assert bob.locator(".chat-text", has_text="hello both").count() == 0
    assert ann.locator(".chat-text", has_text="hello both").count() == 1
    # Ann reports Bob's line; it is stored with its text.
    ann.locator(".chat-line").first.locator(".chat-report").click()
    ann.locator(".report-send").click()
    ann.wait_for_selector(".chat-note:has-text('Reported')")
    seats = [s["name"] for s in api(ann, "GET", "/api/players/me/tables")["tables"][0]["seats"]]
    assert seats == ["Ann", SCRIPT_NAME, "Cid"]
    assert not errors, errors


def test_a_blocked_person_cannot_join_by_the_link(browser: Browser, base_url: str) -> None:
    errors: list[Any] = []
    ann = new_page(browser, base_url, DESKTOP, errors)
    eve = new_page(browser, base_url, DESKTOP, errors)
    enter(ann, "Ann")
    enter(eve, "Eve")
    made = api(ann, "POST", "/api/private-tables", {"game": "hokm", "settings": {"bot_pace_ms": 0}})
    assert api(ann, "POST", f"/api/blocks/{me(eve)}", {}) == {"status": "blocked"}
    eve.goto(made["link"])
    eve.wait_for_selector(".room .error:has-text('no longer open')")
    shot(eve, "blocked-link-en-desktop")
    seats = api(ann, "GET", f"/api/private-tables/{made['table']}/invitation")
    assert seats["table"] == made["table"]
    assert api(eve, "GET", "/api/players/me/tables")["tables"] == []
    assert not errors, errors


@pytest.mark.parametrize("lang", ["en", "bn"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_friends_panel_and_the_table_chat_in_each_language(
    browser: Browser, base_url: str, lang: str, size: str
) -> None:
    errors: list[Any] = []
    viewport = DESKTOP if size == "desktop" else PHONE
    ann = new_page(browser, base_url, viewport, errors)
    enter(ann, "Ann", lang)
    if size == "phone":
        ann.click(".fold-friends > summary")  # (on a phone the lobby's friends are folded)
    ann.wait_for_selector("#friends .my-number")
    assert "null" not in ann.locator("#friends").inner_text()  # (no part left out shows as "null")
    shot(ann, f"friends-{lang}-{size}")
    quick = api(
        ann, "POST", "/api/quickplay", {"game": "hokm", "settings": {"bot_pace_ms": 0, "turn_seconds": 0}}
    )
    ann.reload()
    ann.wait_for_selector(f'.yours [data-table="{quick["table"]}"] button, .yours button')
    ann.locator(".yours button").first.click()
    ann.wait_for_selector(".table-view .chat")
    ann.fill("#chat-text", "ভালো খেলা!" if lang == "bn" else "good game!")
    ann.click("#chat-send")
    ann.wait_for_selector(".chat-line")
    ann.locator(".chat").scroll_into_view_if_needed()
    title = ann.locator(".chat h2").inner_text()
    assert title == ("আলাপ" if lang == "bn" else "Chat")
    shot(ann, f"table-chat-{lang}-{size}", full_page=False)
    # A private table's waiting room: its badge, its link to copy, its chat.
    made = api(ann, "POST", "/api/private-tables", {"game": "hokm", "settings": {"bot_pace_ms": 0}})
    ann.goto(made["link"])
    ann.click("#take-seat")  # (the link offers a seat, even to the table's creator: issue 46, D6)
    ann.wait_for_selector(".room-seat.me")
    ann.wait_for_selector("#copy-invite")
    assert ann.locator("#invite-link").input_value().endswith(made["link"])
    ann.fill("#chat-text", "এখানে আসুন" if lang == "bn" else "come over")
    ann.click("#chat-send")
    ann.wait_for_selector(".room ~ .chat .chat-line")
    assert ann.locator(".private-badge").inner_text() == (
        "ব্যক্তিগত টেবিল" if lang == "bn" else "Private table"
    )
    shot(ann, f"private-room-{lang}-{size}")
    assert not errors, errors
