"""Accessibility, checked by axe-core (the ``axe-playwright-python`` package's copy, MPL-2.0, injected
into the page by this test only: the app never serves it) in Debian's headless Chromium: the lobby, a
table of each of the five games, the rules page and the replay viewer, in English and in Bengali, have
no serious or critical violation."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.test_web_lobby import wait_status
from tests.web.test_web_seat import open_table
from tests.web.web_helpers import Page, api, base_url, browser, browser_page, enter, web_server  # noqa: F401 (fixtures)

axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright", reason="the dev extra")

# Chromium through Playwright: a browser test, and seconds each (the module imported its helpers from
# test_web, but not test_web's marks, so the quick run used to run it).
pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHORT = {
    "gin": "gin(max_hands=1)",
    "hearts": "hearts(max_hands=1)",
    "hokm": "hokm(max_hands=1)",
    "kierki": "kierki(last_deal=1)",
    "svara": "svara(players=3,max_deals=2)",
}


def serious(page: Page, where: str) -> list[str]:
    """The serious and critical violations axe finds in the page as it is now, one line each."""
    results: Any = axe_playwright.Axe().run(page)
    found = []
    for v in results.response["violations"]:
        if v["impact"] in ("serious", "critical"):
            nodes = "; ".join(" ".join(n["target"]) for n in v["nodes"][:4])
            found.append(f"{where}: {v['id']} ({v['impact']}): {v['help']}: {nodes}")
    return found


@pytest.mark.parametrize("lang", ["en", "bn"])
def test_no_serious_accessibility_violation_on_any_page(page: Page, lang: str) -> None:
    enter(page, "Ann" if lang == "en" else "রহিম", lang)
    # The detector works: a button without a name is planted, found, and taken away again.
    page.evaluate("document.body.append(Object.assign(document.createElement('button'), {id: 'planted'}))")
    assert any("button-name" in line for line in serious(page, "planted"))
    page.evaluate("document.getElementById('planted').remove()")
    found = serious(page, "lobby")
    # (a quick play whose person never sits: his stand-in plays at once; tables of bots alone are refused)
    bots = api(
        page,
        "POST",
        "/api/quickplay",
        {"game": SHORT["hokm"], "level": "easy", "settings": {"bot_pace_ms": 0, "away_seconds": 0}},
    )["table"]
    for game, text in SHORT.items():
        table = api(
            page, "POST", "/api/quickplay", {"game": text, "level": "easy", "settings": {"bot_pace_ms": 3000}}
        )
        open_table(page, table["table"])
        page.wait_for_selector(".dock .hand .card, .dock .hand .card.back, .actions button.act")
        found += serious(page, f"{game} table")
        if game == "hokm":
            page.click("#rules")
            page.wait_for_selector(f'#rules-dialog[data-lang="{lang}"] h2')
            found += serious(page, "rules")
            page.keyboard.press("Escape")
            page.wait_for_selector("#rules-dialog", state="hidden")
        page.click("#to-lobby")
        page.wait_for_selector("#quickplay")
    wait_status(page, bots, ("finished",))
    page.evaluate("id => window.cardhall.showReplay(id)", bots)
    page.wait_for_selector("#replay-dialog .replay-seat .card")
    page.click(".replay-next-trick")
    page.wait_for_selector(".replay-felt .played")
    found += serious(page, "replay")
    assert not found, "\n".join(found)
