"""The table's defects of issue 46, each in Debian's headless Chromium, the page's own table view drawing
the frames the server would send (``tests/web/table_frames.py``: a match played here by the rules bot at
every seat, so each position is reached at once and always the same): the focus after a bid (D10), what a
stand-in played while he was away (D12), Kierki's lottery with the last trick over its rows and a dock
left after the match (D14), "I'm back" after the match (D19), the previous deal's trick under the new
deal's bidding (D20), Hokm's tricks against the contract with overtricks (D15), the dock folded at 200 %
zoom (D11), and sound and notifications offered the first time a person sits at a table. Each failed
against the client of c90bd0d (D15's against c90bd0d~1, before its text was fixed)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.table_frames import FRAME, RENDER, Match, mid_trick
from tests.web.test_web_layout import MEASURE
from tests.web.web_helpers import (  # noqa: F401 (fixtures)
    PHONE,
    Browser,
    Page,
    browser,
    drawn_page,
    static_url,
    web_server,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ACTIVE = "document.activeElement"


def focus_in(page: Page, selector: str) -> bool:
    """Whether the focus is on an element inside ``selector`` (or on it)."""
    return bool(page.evaluate(f"!!{ACTIVE}?.closest({selector!r})"))


def test_after_a_bid_the_focus_stays_in_the_dock(browser: Browser, static_url: str) -> None:  # noqa: F811
    """D10: a bid made with the keyboard; while the others bid, the focus stays in the dock (it fell to
    the page's body); when it is his turn again it is on his first playable card or move."""
    m = Match("hokm", seed=1).until(lambda m: "bid" in m.kinds())
    bidding, since = m.frame(), m.table.number
    m.step()  # his bid (the rules bot's choice)
    others = m.update(since)
    m.until(lambda m: bool(m.kinds()))
    again = m.update(others["n"])
    with drawn_page(browser, static_url) as page:
        page.evaluate(RENDER, ["en", bidding])
        page.focus(".dock .actions button.act")
        page.keyboard.press("Enter")
        assert page.evaluate("window.sent.at(-1).type") == "act"
        assert focus_in(page, ".dock"), page.evaluate(f"{ACTIVE}.outerHTML.slice(0, 80)")
        page.evaluate(FRAME, others)  # the others bid: the dock is drawn again
        assert focus_in(page, ".dock"), page.evaluate(f"{ACTIVE}.outerHTML.slice(0, 80)")
        page.evaluate(FRAME, again)
        assert page.evaluate(f"{ACTIVE}.matches('.dock .hand .card.legal, .dock .actions button.act')")


def test_back_from_away_says_what_the_stand_in_played_for_him(browser: Browser, static_url: str) -> None:  # noqa: F811
    """D12: "While you were away: 20 events" though a stand-in played his cards: what was played for
    him is said first, by its cards, then the rest in brief."""
    m = Match("hokm", seed=2).until(mid_trick)
    before, since = m.frame(), m.table.number
    mine = 0
    while mine < 3:  # the stand-in plays three of his cards
        if 0 in m.table.state.to_act:
            mine += 1
        m.step()
    plays = [e["move"]["card"] for e in m.table.events(0, since) if e["type"] == "action" and e["seat"] == 0]
    seats = before["seats"]
    seats[0] = {**seats[0], "stand_in": "rules"}
    back = m.frame(seats=seats)
    with drawn_page(browser, static_url) as page:
        page.evaluate(RENDER, ["en", before])
        page.evaluate("() => window.view.setConnection('offline')")
        page.wait_for_selector(".offline-banner")
        page.evaluate("() => window.view.setConnection('online')")
        page.evaluate(FRAME, back)
        text = page.inner_text(".back-banner")
        suits = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
        cards = ", ".join(c.replace("T", "10")[:-1] + suits[c[-1]] for c in plays)
        assert f"While you were away, a bot that follows the rules played for you: {cards}." in text, text
        assert "other events" in text and page.locator(".back-banner li").count() >= 1, text


def test_the_lottery_on_a_phone_shows_no_trick_over_its_rows(browser: Browser, static_url: str) -> None:  # noqa: F811
    """D14: on a phone the last trick of deal 11 lay over Kierki's lottery rows."""
    m = Match("kierki(first_deal=11)", seed=1).until(lambda m: m.phase() == "lottery" and bool(m.kinds()))
    with drawn_page(browser, static_url, viewport=PHONE) as page:
        page.evaluate(RENDER, ["en", m.frame()])
        assert page.locator(".felt .lottery .lottery-row").count() == 4
        assert page.locator(".felt .played").count() == 0
        problems = page.evaluate(MEASURE, False)
        assert not [p for p in problems if "lottery" in p], problems


def test_once_the_match_is_over_no_dock_and_no_im_back(browser: Browser, static_url: str) -> None:  # noqa: F811
    """D14: after Kierki's match an empty dock with a left-over card stayed. D19: "You were away… I'm
    back" was shown after the match was over (his stand-in had finished it)."""
    m = Match("kierki(first_deal=12)", seed=1).to_end()
    frame = m.frame()
    assert frame["observation"]["hand"]  # a card left over in his hand, as the issue found
    frame["seats"][0] = {**frame["seats"][0], "stand_in": "rules", "connected": False}
    with drawn_page(browser, static_url, viewport=PHONE) as page:
        page.evaluate(RENDER, ["en", frame])
        page.wait_for_selector(".match-over")
        assert page.locator(".stand-in-banner").count() == 0
        assert page.locator(".dock").count() == 0 and page.locator(".hand .card").count() == 0


def test_the_last_trick_of_a_deal_is_gone_once_the_next_is_dealt(browser: Browser, static_url: str) -> None:  # noqa: F811
    """D20: the previous deal's last trick lay under the next deal's bidding; it is gone from the felt,
    and shown on demand named as that deal's."""
    m = Match("hokm", seed=1).until(lambda m: m.scored() == 1 and "bid" in m.kinds())
    with drawn_page(browser, static_url) as page:
        page.evaluate(RENDER, ["en", m.frame()])
        page.wait_for_selector(".deal-summary")
        assert page.locator(".felt .played").count() == 0
        assert page.locator(".taken-by").count() == 0
        page.keyboard.press("l")
        assert page.inner_text(".last-trick strong") == "Last trick of deal 1"
        assert page.locator(".last-trick .card").count() == 3


@pytest.mark.parametrize(
    ("lang", "expected"), [("en", "5 tricks of 4 bid"), ("bn", "ডাক ৪, নেওয়া ৫টি পিঠ")], ids=["en", "bn"]
)
def test_hokm_says_tricks_taken_against_the_bid_with_overtricks(
    browser: Browser,  # noqa: F811 (the fixture)
    static_url: str,  # noqa: F811 (the fixture)
    lang: str,
    expected: str,
) -> None:
    """D15: a seat that bid 4 and took 5 read "5 of 4 tricks"."""
    m = Match("hokm", seed=1).until(mid_trick)
    frame = m.frame()
    o = frame["observation"]
    o["bids"] = [{"seat": 0, "contract": 4}, {"seat": 1, "contract": 3}, {"seat": 2, "contract": 3}]
    o["tricks_won"] = [5, 1, 2]
    with drawn_page(browser, static_url, lang) as page:
        page.evaluate(RENDER, [lang, frame])
        facts = page.inner_text(".seat.me .facts")
        assert expected in facts, facts


def test_the_dock_folds_to_its_turn_line_and_stays_folded(browser: Browser, static_url: str) -> None:  # noqa: F811
    """D11: at 200 % zoom the dock took half the window with no way to fold it."""
    m = Match("hearts(players=8)", seed=1).until(mid_trick)
    zoom: dict[str, Any] = {"viewport": {"width": 683, "height": 384}, "device_scale_factor": 2}
    with drawn_page(browser, static_url, **zoom) as page:
        page.evaluate(RENDER, ["en", m.frame()])
        fold = page.locator("#dock-fold")
        assert fold.get_attribute("aria-expanded") == "true"
        fold.click()
        assert page.locator(".dock-body").is_hidden()
        assert page.locator("#dock-fold").get_attribute("aria-expanded") == "false"
        assert page.inner_text(".dock .turn-line .prompt") == "Your turn: show your hand to play"
        assert page.evaluate("localStorage.getItem('cardhall.dock_folded')") == "1"
        page.evaluate(RENDER, ["en", m.frame()])  # (as after a reload)
        assert page.locator(".dock-body").is_hidden()
        page.click("#dock-fold")
        assert page.locator(".dock .hand .card").first.is_visible()
        assert page.evaluate("localStorage.getItem('cardhall.dock_folded')") is None


# A browser whose notifications a test grants (none are shown).
NOTIFICATIONS = """
window.Notification = class {
    static permission = "default";
    static requestPermission() {
        window.Notification.permission = "granted";
        return Promise.resolve("granted");
    }
    constructor() {}
    close() {}
};
"""


# What the browser keeps: sound on, and the choice made at the offer.
KEPT = "[localStorage.getItem('cardhall.sound'), localStorage.getItem('cardhall.turn_offer')]"


@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        ("en", ["Be told when it is your turn?", "Turn on sound", "Notify me", "No thanks"]),
        ("bn", ["আপনার চাল এলে জানতে চান?", "শব্দ চালু করুন", "বিজ্ঞপ্তি দিন", "না, ধন্যবাদ"]),
    ],
    ids=["en", "bn"],
)
def test_sound_and_notifications_are_offered_the_first_time_he_sits(
    browser: Browser,  # noqa: F811 (the fixture)
    static_url: str,  # noqa: F811 (the fixture)
    lang: str,
    texts: list[str],
) -> None:
    """Sound and notifications were off until found in "?": offered once per browser, the choice kept."""
    frame = Match("hokm", seed=1).until(lambda m: "bid" in m.kinds()).frame()
    with drawn_page(browser, static_url, lang) as page:
        page.evaluate(RENDER, [lang, frame])
        offer = page.locator(".turn-offer")
        parts = ("#turn-offer-text", "#offer-sound", "#offer-notify", "#offer-no")
        assert [offer.locator(x).inner_text() for x in parts] == texts
        page.click("#offer-sound")
        assert offer.count() == 0
        assert page.evaluate(KEPT) == ["1", "sound"]
        page.evaluate(RENDER, [lang, frame])  # another table, or a reload: not offered again
        assert page.locator(".turn-offer").count() == 0
        page.click("#help")  # the "?" panel shows it on, to be turned off there
        assert page.is_checked("#opt-sound")
    with drawn_page(browser, static_url, lang) as page:  # a new browser: "Notify me"
        page.add_init_script(NOTIFICATIONS)
        page.reload()
        page.wait_for_selector("#name")
        page.evaluate(RENDER, [lang, frame])
        page.click("#offer-notify")
        page.wait_for_function("localStorage.getItem('cardhall.turn_offer') === 'notify'")
        assert page.evaluate("localStorage.getItem('cardhall.notify')") == "1"
        assert page.locator(".turn-offer").count() == 0
    with drawn_page(browser, static_url, lang) as page:  # and "No thanks": kept, nothing turned on
        page.evaluate(RENDER, [lang, frame])
        page.click("#offer-no")
        assert page.evaluate(KEPT) == [None, "no"]
        page.evaluate(RENDER, [lang, frame])
        assert page.locator(".turn-offer").count() == 0
