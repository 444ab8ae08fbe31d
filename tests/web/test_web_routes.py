"""Every screen at an address of its own (issue 46, "Back leaves the site"), in a real browser (Debian's
headless Chromium through Playwright, against ``cardhall serve``): the lobby, a table, its waiting room,
a game's rules, a person's page and a finished match's replay each have an address; Back and Forward
move between them and a reload stays; a table's address bookmarked opens in a fresh browser (watching,
a seat offered in its waiting room), a private table's still needs its invitation. Issue 46's defects
of these screens: an invitation's link offers a seat instead of taking one (D6), a quick play asks for
no private table's invitation and meets no 404 (D17), the waiting room invites only people not at the
table and names the game's options in words (D21). Each test failed against the client of c90bd0d.

One server for the module (the tests make their own people and tables); screenshots to
``tests/screenshots/``."""

# ruff: noqa: F811  (the browser fixture is imported by name, then asked for as an argument)

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from tests.server_helpers import free_port, running_server, server_log
from tests.web.test_web_lobby import wait_status
from tests.web.web_helpers import (  # noqa: F401 (fixtures)
    DESKTOP,
    PHONE,
    WAIT_MS,
    Browser,
    Page,
    api,
    browser,
    enter,
    set_options,
    shot,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LATIN = re.compile(r"[A-Za-z]+")


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One ``cardhall serve`` for a module's tests (no rates: they make many guests from one address)."""
    db: Path = tmp_path_factory.mktemp("hall") / "web.db"
    port = free_port()
    try:
        with running_server(db, port, "--no-rate-limits"):
            yield f"http://127.0.0.1:{port}"
    finally:
        print(f"--- the server's output ---\n{server_log(db).read_text(errors='replace')}")


@contextmanager
def person(chromium: Browser, url: str, viewport: dict[str, int] = DESKTOP) -> Iterator[Page]:
    """A page in a browser context of its own (a person on his own device); a script error fails."""
    context = chromium.new_context(viewport=viewport, base_url=url)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    errors: list[Any] = []
    page.on("pageerror", lambda error: errors.append(error))
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"errors in the page: {errors}"


def path(page: Page) -> str:
    return urlparse(page.url).path


def wait_path(page: Page, wanted: str) -> None:
    page.wait_for_function("wanted => location.pathname === wanted", arg=wanted)


def test_back_forward_and_reload_move_between_the_screens_addresses(browser: Browser, hall: str) -> None:
    with person(browser, hall) as page:
        enter(page, "Ann")
        assert path(page) == "/"
        page.select_option("#qp-game", "hokm")
        page.select_option("#qp-pace", "1500")
        page.click("#quickplay")
        page.wait_for_selector(".table-view .arena .seat")
        table = page.evaluate("localStorage.getItem('cardhall.table')")
        here = f"/tables/{table}"
        assert path(page) == here  # was "/" on every screen
        page.click("#to-lobby")
        page.wait_for_selector("#quickplay")
        assert path(page) == "/"
        page.go_back()  # back to the table, not off the site
        page.wait_for_selector(".table-view .arena .seat")
        assert path(page) == here
        page.go_forward()
        page.wait_for_selector("#quickplay")
        page.go_back()
        page.wait_for_selector(".table-view .arena .seat")
        page.reload()  # a reload stays at the table
        page.wait_for_selector(".table-view .arena .seat")
        assert path(page) == here
        # The rules over the table have their own address: Back closes them, the table as it was.
        page.click("#rules")
        page.wait_for_selector('#rules-dialog[data-game="hokm"] .rules-text h2')
        assert path(page) == "/rules/hokm"
        page.go_back()
        page.wait_for_selector("#rules-dialog", state="hidden")
        assert path(page) == here and page.locator(".table-view .arena").count() == 1
        page.go_forward()
        page.wait_for_selector('#rules-dialog[data-game="hokm"] .rules-text h2')
        page.reload()  # the rules again, over the same table
        page.wait_for_selector('#rules-dialog[data-game="hokm"] .rules-text h2')
        page.wait_for_selector(".table-view .arena .seat", state="attached")
        page.keyboard.press("Escape")  # closed: the address is the table's again
        page.wait_for_selector("#rules-dialog", state="hidden")
        wait_path(page, here)
        # A person's page, from his name at the table.
        ann = api(page, "GET", "/api/players/me")["id"]
        page.click(f".table-view .seat-name a.player-link[data-player='{ann}']")
        page.wait_for_selector(f"#player-dialog[data-loaded][data-player='{ann}']")
        assert path(page) == f"/players/{ann}"
        page.go_back()
        page.wait_for_selector("#player-dialog", state="hidden")
        assert path(page) == here


def test_a_tables_address_opens_in_a_fresh_browser_and_a_private_one_needs_its_invitation(
    browser: Browser, hall: str
) -> None:
    with person(browser, hall) as ann:
        enter(ann, "Ann")
        public = api(ann, "POST", "/api/tables", {"game": "kierki", "settings": {"bot_pace_ms": 0}})["table"]
        private = api(ann, "POST", "/api/private-tables", {"game": "hokm", "settings": {"bot_pace_ms": 0}})
    with person(browser, hall, PHONE) as bob:
        # Bookmarked in a browser that knows nobody: the first page says where the address leads.
        response = bob.goto(f"/tables/{public}")
        assert response is not None and response.status == 200
        bob.wait_for_selector(".first-table-note")
        bob.fill("#name", "Bob")
        bob.click("#enter")
        bob.wait_for_selector(".room-seats .room-seat")
        assert path(bob) == f"/tables/{public}"
        # He watches, a seat offered: nobody sits by opening an address.
        assert bob.locator("#take-seat").count() == 1
        assert [s["kind"] for s in api(bob, "GET", f"/api/tables/{public}")["seats"]] == ["empty"] * 4
        shot(bob, "room-offer-en-phone")
        bob.click("#just-watch")
        bob.wait_for_selector("#take-seat", state="detached")
        assert bob.locator(".room-seat .sit").count() == 4  # (a seat can still be taken)
        bob.reload()
        bob.wait_for_selector(".room-seats .room-seat")
        assert path(bob) == f"/tables/{public}"
        # A private table's address without its invitation: no such table, as before.
        bob.goto(f"/tables/{private['table']}")
        bob.wait_for_selector(".room .error:has-text('no longer open')")
        assert api(bob, "GET", "/api/players/me/tables")["tables"] == []


def test_a_finished_matchs_address_leads_to_its_replay(browser: Browser, hall: str) -> None:
    with person(browser, hall) as ann:
        enter(ann, "Ann")
        # (a quick play she never sits at: her stand-in plays at once, the match is over in a moment)
        settings = {"bot_pace_ms": 0, "away_seconds": 0}
        body = {"game": "hokm(max_hands=1)", "settings": settings}
        table = api(ann, "POST", "/api/quickplay", body)["table"]
        wait_status(ann, table, ("finished",))
    with person(browser, hall) as bob:
        enter(bob, "Bob")
        bob.goto(f"/tables/{table}")  # a bookmark of the match, over: its replay is one click away
        bob.click("#room-replay, #table-replay")
        bob.wait_for_selector(f'#replay-dialog[data-table="{table}"] .replay-seat .card')
        assert path(bob) == f"/tables/{table}/replay"
        bob.go_back()
        bob.wait_for_selector("#replay-dialog", state="hidden")
        assert path(bob) == f"/tables/{table}"
        # Opened afresh, the replay's address shows it over the lobby; closed, the lobby's address.
        bob.goto(f"/tables/{table}/replay")
        bob.wait_for_selector(f'#replay-dialog[data-table="{table}"] .replay-seat .card')
        bob.wait_for_selector("#quickplay", state="attached")
        bob.keyboard.press("Escape")
        bob.wait_for_selector("#replay-dialog", state="hidden")
        wait_path(bob, "/")


def test_an_invitation_link_offers_a_seat_and_takes_none(browser: Browser, hall: str) -> None:
    """D6: opening a private table's link used to seat the person without asking."""
    with person(browser, hall) as ann, person(browser, hall) as cid:
        enter(ann, "Ann")
        made = api(ann, "POST", "/api/private-tables", {"game": "hokm", "settings": {"bot_pace_ms": 0}})
        enter(cid, "Cid")
        cid.goto(made["link"])
        cid.wait_for_selector(".room-seats .room-seat")
        assert cid.locator("#take-seat").count() == 1, "the link took a seat without asking"
        assert cid.locator(".room-seat.me").count() == 0
        # The table's own address in the bar, the invitation kept by the page (not left in the bar).
        assert path(cid) == f"/tables/{made['table']}" and "#" not in cid.url
        assert api(cid, "GET", "/api/players/me/tables")["tables"] == []
        axe = pytest.importorskip("tests.web.test_web_axe", reason="axe-core: the dev extra")
        found = axe.serious(cid, "a seat offered")
        assert not found, "\n".join(found)
        shot(cid, "room-invited-en-desktop")
        cid.click("#take-seat")
        cid.wait_for_selector(".room-seat.me")
        assert [t["table"] for t in api(cid, "GET", "/api/players/me/tables")["tables"]] == [made["table"]]
        cid.reload()  # the invitation kept: a reload joins again
        cid.wait_for_selector(".room-seat.me")


def test_a_quick_play_asks_for_no_invitation_and_meets_no_404(browser: Browser, hall: str) -> None:
    """D17: every quick-play table asked for a private table's invitation, and got a 404."""
    with person(browser, hall) as page:
        enter(page, "Ann")
        failed: list[str] = []
        invitations: list[str] = []
        page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        page.on("request", lambda r: invitations.append(r.url) if "/invitation" in r.url else None)
        page.select_option("#qp-game", "hokm")
        # (the table's share row asks for the online friends last: its other requests are done by then)
        with page.expect_response(lambda r: r.url.endswith("/api/friends")):
            page.click("#quickplay")
        page.wait_for_selector(".table-view .arena .seat")
        assert not invitations, invitations
        assert not failed, failed


def test_the_waiting_room_invites_only_people_away_and_names_the_options_in_words(
    browser: Browser, hall: str
) -> None:
    """D21: the waiting room offered to invite a person already seated, and showed the game string."""
    with person(browser, hall) as ann, person(browser, hall) as bob:
        enter(ann, "Ann")
        enter(bob, "Bob")
        ann_id, bob_id = (api(p, "GET", "/api/players/me")["id"] for p in (ann, bob))
        api(bob, "POST", f"/api/friends/{ann_id}/request", {})
        api(ann, "POST", f"/api/friends/{bob_id}/accept", {})
        ann.select_option("#ct-game", "hokm")
        set_options(ann, "ct-opt", "max_hands=3")
        ann.click("#create")
        ann.wait_for_selector(".room-seat.me")
        # The game in words: its title, and each option by its name and value in the page's language.
        hokm = next(g for g in api(ann, "GET", "/api/games")["games"] if g["name"] == "hokm")
        hands = next(o for o in hokm["options"] if o["name"] == "max_hands")
        assert ann.locator(".room-options li").all_inner_texts() == [f"{hands['text']['en']['title']}: 3"]
        assert "max_hands" not in ann.inner_text(".room")  # (the game string was shown as it is)
        # Bob, online in his lobby and not at the table, is offered; once he sits, he is not.
        ann.wait_for_selector("#invite-friend")
        assert ann.locator("#invite-friend option").all_inner_texts() == ["Bob"]
        ann.click("#invite-send")
        bob.wait_for_selector("#invitation")
        bob.click("#invitation-join")  # (answering a friend's invitation takes the seat)
        bob.wait_for_selector(".room-seat.me")
        ann.wait_for_selector("#invite-friend", state="detached")
        # In Bengali, the options are in Bengali words and digits.
        ann.click("#lang")
        ann.wait_for_function("document.documentElement.lang === 'bn'")
        options = ann.locator(".room-options li").all_inner_texts()
        assert options == [f"{hands['text']['bn']['title']}: ৩"], options
        assert not LATIN.findall(" ".join(options))
        shot(ann, "room-options-bn-desktop")
