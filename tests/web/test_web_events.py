"""Tournaments in a real browser (issue 50; Debian's Chromium through Playwright, against ``cardhall serve``
in its own process): Bob makes a private duplicate event of Hokm for friends (2 rounds of 1 deal, bots
filling the seats nobody takes, stand-ins after 10 s for people away), Cy and Dee sign up by its token,
and Ann opens its link, signs up on its page and plays both rounds by clicking her cards and moves in the
page (each round's ``seated`` frame takes her page to her table). Meanwhile Eve, who only follows the
event's page, sees the standings come without reloading (pushed: ``follow_event`` -> ``event``; the test
fails with the page's ``follow_event`` left out). At the end her last table leads back to the event,
where Ann reads the final standings (people only, no bot) in English and in Bengali; the events list has
it among the finished ones; her results page sets each deal of hers beside what the other table made of
the same cards. A second test makes a private event on the page and joins it by its link.

Screenshots to ``tests/screenshots/`` (events-*.png)."""

# ruff: noqa: F811  (the browser fixture is imported by name, then asked for as an argument)

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server_helpers import free_port, running_server, server_log
from tests.web.web_helpers import (  # noqa: F401 (fixtures)
    DESKTOP,
    PHONE,
    Browser,
    Page,
    api,
    browser,
    checked_page,
    enter,
    shot,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TABLE_URL = re.compile(r".*/tables/[\w-]+$")
LATIN = re.compile(r"[A-Za-z]{2,}")
# Bots play at once; a stand-in plays for a person away after 10 s (Bob, Cy and Dee never come; Ann's
# page is at her table well within it, even on a loaded machine).
SETTINGS = {"bot_pace_ms": 0, "away_seconds": 10}


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    db = tmp_path / "web.db"
    try:
        with running_server(db, port, "--no-rate-limits"):
            yield f"http://127.0.0.1:{port}"
    finally:
        print(f"--- the server's output ---\n{server_log(db).read_text(errors='replace')}")


def guest(page: Page, name: str) -> tuple[int, str]:
    """A new guest (id, token), made from the page's address."""
    made: dict[str, Any] = page.evaluate(
        """async (name) => (await fetch("/api/players", {method: "POST",
            headers: {"Content-Type": "application/json"}, body: JSON.stringify({name})})).json()""",
        name,
    )
    return int(made["id"]), str(made["token"])


def call(page: Page, token: str, method: str, path: str, body: Any = None) -> Any:
    """The HTTP API as the player of ``token`` (not the page's), from the page's address."""
    return page.evaluate(
        """async ([token, method, path, body]) => {
            const response = await fetch(path, {
                method, body: body && JSON.stringify(body),
                headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
            });
            return { status: response.status, body: await response.json() };
        }""",
        [token, method, path, body],
    )


def play_out(page: Page, table: str) -> int:
    """Ann plays her table to its end by clicking in the page (the first playable card or move each
    turn: the test is about the event, not the play); how many times she clicked."""
    clicks = 0
    deadline = time.monotonic() + 240
    # (and "I'm back" if a stand-in began for her before her page came: she takes her seat back)
    playable = page.locator("#back, .hand .card.legal, .actions button.act")
    while api(page, "GET", f"/api/tables/{table}")["status"] != "finished":
        assert time.monotonic() < deadline, f"table {table} did not end"
        if playable.count():
            try:
                playable.first.click(timeout=2000)
                clicks += 1
            except Exception:  # (redrawn under the click: the next turn's elements)
                pass
        else:
            page.wait_for_timeout(100)
    return clicks


def standings_rows(page: Page) -> list[list[str]]:
    """The standings' lines as the page shows them, cell by cell (read again while an ``event`` frame
    is redrawing them)."""
    deadline = time.monotonic() + 30
    while True:
        rows = [
            [cell.strip() for cell in row.split("\t")]
            for row in page.locator("#event-standings tbody tr").all_inner_texts()
        ]
        if rows and all(len(row) >= 4 for row in rows):
            return rows
        assert time.monotonic() < deadline, rows
        page.wait_for_timeout(100)


def test_a_person_signs_up_plays_two_duplicate_rounds_and_reads_the_standings_in_both_languages(
    browser: Browser,
    hall: str,
) -> None:
    with checked_page(browser, hall) as ann, checked_page(browser, hall) as eve:
        enter(ann, "Ann")
        enter(eve, "Eve")
        players = {name: guest(ann, name) for name in ("Bob", "Cy", "Dee")}
        bob = players["Bob"][1]
        body = {"kind": "duplicate", "game": "hokm", "rounds": 2, "deals": 1, "starts_in": 20}
        body["settings"] = SETTINGS
        made = call(ann, bob, "POST", "/api/events", body)
        assert made["status"] == 201, made
        event, token = made["body"]["id"], made["body"]["token"]
        for name in ("Cy", "Dee"):
            joined = call(ann, players[name][1], "POST", f"/api/events/{event}/join", {"token": token})
            assert joined["status"] == 200 and joined["body"]["joined"], joined

        # Eve follows the event's page by its link (she does not play).
        eve.goto(f"/events/{event}#token={token}")
        eve.wait_for_selector("#event-standings")
        assert "token" not in eve.url  # (kept by the page, out of the address bar)

        # Ann opens Bob's link and signs up on the event's page.
        ann.goto(f"/events/{event}#token={token}")
        button = ann.locator(".event-head .event-join")
        button.wait_for()
        assert button.inner_text() == "Sign up"
        assert ann.locator(".event-head .event-state").inner_text().startswith("starts in")
        button.click()
        ann.wait_for_selector(".event-head .event-join[data-joined='1']")
        assert ann.locator(".event-head .event-join").inner_text() == "Withdraw"
        ann.wait_for_selector(".event-players li:has-text('Ann')")
        shot(ann, "events-signed-up")

        # Two rounds: each round's seat takes her page to her table, where she plays by clicking.
        played: list[str] = []
        for _ in range(2):
            ann.wait_for_url(lambda url: bool(TABLE_URL.match(url)) and url.rsplit("/", 1)[1] not in played)
            table = ann.url.rsplit("/", 1)[1]
            played.append(table)
            assert play_out(ann, table) > 0
            if len(played) == 1:
                # Eve never reloaded: a table of round 1 ended, and its news was pushed to her page.
                eve.wait_for_selector("#event-tables .replay-link")
                assert eve.locator("#event-standings tbody tr[data-player]").count()
        deadline = time.monotonic() + 120
        while api(ann, "GET", f"/api/events/{event}")["status"] != "finished":
            assert time.monotonic() < deadline, "the event did not finish"
            time.sleep(0.2)

        # Ann reads the final standings: from her last table ("Back to the event"), the people only.
        ann.click("#over-event")
        ann.wait_for_selector("#standings-title:has-text('Final standings')")
        rows = standings_rows(ann)
        names = [row[1] for row in rows]
        assert sorted(names) == ["Ann", "Bob", "Cy", "Dee"], rows
        assert not ann.locator("#event-standings tbody tr:has-text('bot')").count()
        detail = api(ann, "GET", f"/api/events/{event}")
        best = detail["standings"][0]
        first = ann.locator("#event-standings tbody tr").first
        assert first.get_attribute("data-player") == str(best["player"])
        assert f"{round(best['share'] * 100, 1):g}" in first.inner_text()
        assert ann.locator("#event-tables .event-table .replay-link").count() == len(detail["tables"]) >= 4
        assert eve.locator("#standings-title").inner_text() == "Final standings"  # (pushed to her too)
        shot(ann, "events-standings-en")

        # In Bengali: the same standings, in Bengali words and digits.
        ann.click("#lang")
        ann.wait_for_selector("#standings-title:has-text('চূড়ান্ত অবস্থান')")
        rows_bn = standings_rows(ann)
        assert [row[1] for row in rows_bn] == names
        words = " ".join(" ".join(r[:1] + r[2:]) for r in rows_bn)
        assert not re.search(r"[0-9]", words), words
        assert re.search(r"[০-৯]", words), words
        head = ann.locator(".event-head").inner_text() + ann.locator("#event-standings thead").inner_text()
        assert not LATIN.findall(head), head
        shot(ann, "events-standings-bn")
        # On a phone: the standings fit its width (nothing to scroll sideways).
        ann.set_viewport_size(PHONE)
        ann.wait_for_function("document.documentElement.scrollWidth <= window.innerWidth")
        shot(ann, "events-standings-bn-phone")
        ann.set_viewport_size(DESKTOP)

        # The events list has it among the finished ones (a private event: hers, since she signed up).
        ann.click("#events-link")
        ann.wait_for_selector(f".event-group.finished .event-row[data-event='{event}']")
        ann.locator(f".event-row[data-event='{event}'] .event-link").click()
        ann.wait_for_selector("#event-standings tbody tr")

        # Her results: each deal beside what the other table made of the same cards.
        ann.locator("#event-standings a.event-player-link", has_text="Ann").click()
        ann.wait_for_selector(".event-player .deal-compare")
        me = api(ann, "GET", "/api/players/me")["id"]
        results = api(ann, "GET", f"/api/events/{event}/players/{me}")
        assert [x["absent"] for x in results["tables"]] == [None, None]  # (she played them, no stand-in)
        assert {d["round"] for d in results["deals"]} == {1, 2}  # (a deal a round, or more: see below)
        assert ann.locator(".event-player .played").count() == 2
        compared = ann.locator(".deal-compare")
        # Each deal of hers the server counted (Hokm's max_hands=1 may still play a second hand at a
        # table: the page shows what the records say), with her line and each other holder of her cards.
        assert compared.count() == len(results["deals"])
        for i, deal in enumerate(sorted(results["deals"], key=lambda d: (d["round"], d["deal"]))):
            assert compared.nth(i).locator("tbody tr").count() == 1 + len(deal["others"])
            assert compared.nth(i).locator("tbody tr.me").count() == 1
        assert any(deal["others"] for deal in results["deals"])
        shot(ann, "events-results-bn")


def test_an_event_for_friends_is_made_on_the_page_and_joined_by_its_link(browser: Browser, hall: str) -> None:
    """Ann makes a private arena on the events page; the link it shows her brings Bob to its page, where
    he signs up; it is listed for both of them, for nobody else; someone new who opens the link gives
    his name on the first page and comes to the event, its token kept."""
    with (
        checked_page(browser, hall) as ann,
        checked_page(browser, hall) as bob,
        checked_page(browser, hall) as cy,
    ):
        for page, name in ((ann, "Ann"), (bob, "Bob"), (cy, "Cy")):
            enter(page, name)
        ann.click("#events-link")
        ann.wait_for_selector(".event-create")
        ann.select_option("#ev-game", "hokm")
        ann.select_option("#ev-kind", "arena")
        assert ann.locator("#ev-rounds").is_hidden() and ann.locator("#ev-minutes").is_visible()
        ann.fill("#ev-minutes", "15")
        ann.fill("#ev-start", "30")
        ann.click("#ev-create")
        ann.wait_for_selector("#event-link")
        assert ann.locator(".event-head .event-format").inner_text() == "Arena, 15 min"
        assert ann.locator(".event-head .event-join").inner_text() == "Withdraw"  # (its maker is signed up)
        link = ann.locator("#event-link").input_value()
        event = link.split("/events/")[1].split("#")[0]
        shot(ann, "events-made")

        # Without the link the event is nowhere; with it, Bob signs up.
        assert event not in str(api(cy, "GET", "/api/events"))
        bob.goto(link)
        bob.locator(".event-head .event-join").click()
        bob.wait_for_selector(".event-head .event-join[data-joined='1']")
        for page in (ann, bob):
            page.goto("/events")
            page.wait_for_selector(f".event-row[data-event='{event}'] .event-state:has-text('starts in')")
            assert (
                page.locator(f".event-row[data-event='{event}'] .event-count").inner_text() == "2 signed up"
            )
        cy.goto("/events")
        cy.wait_for_selector(".event-create")
        assert not cy.locator(f".event-row[data-event='{event}']").count()

    # Someone new opens the link: the first page asks his name, then shows the event (its token kept).
    with checked_page(browser, hall) as dee:
        dee.goto(link)
        dee.wait_for_selector("#name")
        dee.fill("#name", "Dee")
        dee.click("#enter")
        dee.locator(".event-head .event-join").click()
        dee.wait_for_selector(".event-head .event-join[data-joined='1']")
        dee.wait_for_selector(".event-players li:has-text('Dee')")
