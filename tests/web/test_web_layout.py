"""Nothing a person needs to decide is ever under anything, at any size (issue 46: Svara's hand value
under the dock, D4, D11, D26), measured in Debian's headless Chromium, not looked at: for every game
(Hokm; Svara with four players; three-hand gin; Cancellation Hearts with 8 and with 11 players; Kierki
from its deal 11, through its trump choice and a trick to its lottery), at a few positions each (its
first decisions, a card to play to a trick already led, the next deal's first decision with the last
deal's summary still open, gin's laying off on a knock), at 320x640, 390x844, 1366x768 and 200 % zoom
(1366x768 at 200 %: a 683x384 window at device scale factor 2), the hand's cards, the hand's value where
the game has one (Svara's worth, gin's deadwood), the player's own seat, the trick or the pot (gin's
stock and pile or the knock laid out, the lottery's rows), the turn line and the move buttons are inside
the window and not covered: ``document.elementFromPoint`` at sample points of each (a card's corner
index, as fanned cards overlap; a box's middle and four points round it) finds the element or one of
its own. The page never scrolls sideways, and the scores and the log are covered by nothing either.

The positions are a match played here by the rules bot at every seat (``tests/web/table_frames.py``), each
drawn by the page's own table view from the frame the server would send; one page per size draws them
all, in English, and the Bengali table (its words are longer) at the narrowest and at 200 %; the first
seat's offer of sound and notifications shows, as to a person new to the site. With
``CARDHALL_LAYOUT_SHOTS`` set to a folder, every drawing is kept there as a PNG, to be looked at.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from tests.web.table_frames import RENDER, positions
from tests.web.web_helpers import Browser, Page, browser, drawn_page, static_url, web_server  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GAMES = (
    "hokm",
    "svara(players=4)",
    "gin",
    "hearts(players=8)",
    "hearts(players=11)",
    "kierki(first_deal=11)",
)

# name, CSS size of the window, device scale factor
SIZES = (
    ("320x640", {"width": 320, "height": 640}, 1),
    ("390x844", {"width": 390, "height": 844}, 1),
    ("1366x768", {"width": 1366, "height": 768}, 1),
    ("zoom200", {"width": 683, "height": 384}, 2),
)

# What the layout promises, measured in the page as it is now: a list of what fails it (empty: holds).
MEASURE = """(expectValue) => {
    window.scrollTo(0, 0);
    const W = window.innerWidth, H = window.innerHeight, problems = [];
    const root = document.documentElement;
    if (root.scrollWidth > W) problems.push(`the page scrolls sideways: ${root.scrollWidth} px in ${W}`);
    const name = (el) => {
        if (!el) return "nothing";
        const cls = typeof el.className === "string" ? el.className.trim().split(/\\s+/).slice(0, 3) : [];
        const card = el.dataset?.card ? `[${el.dataset.card}]` : "";
        return [el.tagName.toLowerCase(), ...cls].join(".") + card;
    };
    const box = (r) => [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
    // `what` inside the window and found at `points` (of its box, or of `at`'s box: a card's corner;
    // `edges`: near its four edges too, for a box that must be seen whole, as a seat's lines)
    const check = (el, what, at = null, edges = false) => {
        const r = el.getBoundingClientRect();
        if (r.width < 1 || r.height < 1) return problems.push(`${what}: not shown`);
        if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5)
            return problems.push(`${what}: outside the ${W}x${H} window at ${box(r)}`);
        const p = (at || el).getBoundingClientRect();
        const points = at
            ? [[p.left + p.width / 2, p.top + p.height / 2]]
            : [[0.5, 0.5], [0.2, 0.5], [0.8, 0.5], [0.5, 0.25], [0.5, 0.75]]
                  .concat(edges ? [[0.5, 0.06], [0.5, 0.94], [0.06, 0.5], [0.94, 0.5]] : [])
                  .map(
                  ([x, y]) => [p.left + x * p.width, p.top + y * p.height],
              );
        for (const [x, y] of points) {
            const hit = document.elementFromPoint(x, y);
            if (!hit || !(hit === el || el.contains(hit))) {
                const at = `${Math.round(x)},${Math.round(y)}`;
                problems.push(`${what} at ${box(r)}: covered at ${at} by ${name(hit)}`);
                break;
            }
        }
    };
    const all = (selector) => [...document.querySelectorAll(selector)];
    const card = (el, what) =>
        check(el, `${what} ${el.dataset.card || "(face down)"}`, el.querySelector(".corner"));
    const dock = document.querySelector(".dock");
    if (!dock) problems.push("no dock");
    const hand = all(".dock .hand .card");
    if (!hand.length) problems.push("no hand");
    hand.forEach((el) => card(el, "hand card"));
    const value = document.querySelector(".dock .hand-value");
    if (expectValue && !value) problems.push("no hand value");
    if (value) check(value, "hand value");
    const me = document.querySelector(".arena .seat.me");
    if (!me) problems.push("no seat of his");
    else check(me, "his seat", null, true);
    all(".felt .played .card").forEach((el) => card(el, "trick card"));
    for (const sel of [".felt .pot", ".felt .stock", ".felt .pile"]) all(sel).forEach((el) => check(el, sel));
    all(".felt .stock .card, .felt .pile .card.top").forEach((el) => check(el, "stock or pile card"));
    all(".felt .knock").forEach((el) => check(el, "the knock laid out"));
    all(".felt .lottery-row").forEach((row) => {
        check(row.querySelector(".row-suit"), `lottery row ${row.dataset.suit}`);
        row.querySelectorAll(".card").forEach((el) => card(el, "lottery card"));
    });
    const turn = document.querySelector(".dock .turn-line .prompt");
    if (turn) check(turn, "turn line");
    all(".dock .actions button, .dock .actions input").forEach((el) =>
        check(el, `move ${el.dataset.label || el.textContent.trim() || el.className}`),
    );
    // the side column's parts (the summary, the scores, the sheet, the log, the chat) each clear of the
    // others, and the scores and the log covered by nothing, wherever they are (beside the table or below)
    const parts = all(".side > *").map((el) => [el, el.getBoundingClientRect()]);
    for (const [a, ra] of parts) {
        for (const [b, rb] of parts) {
            const overlap = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top) > 1
                && Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left) > 1;
            const later = a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING;
            if (a !== b && overlap && later)
                problems.push(`the side column: ${name(a)} at ${box(ra)}, ${name(b)} at ${box(rb)} overlap`);
        }
    }
    const side = document.querySelector(".side");
    const sideAt = side ? side.scrollTop : 0;
    for (const sel of [".side .scores caption", ".side .log"]) {
        const el = document.querySelector(sel);
        if (!el) continue;
        const r = el.getBoundingClientRect();
        if (r.top >= H || r.bottom <= 0) {
            el.scrollIntoView({ block: "nearest" });
        }
        const s = el.getBoundingClientRect();
        const x = s.left + Math.min(20, s.width / 2), y = s.top + Math.min(8, s.height / 2);
        const hit = document.elementFromPoint(x, y);
        if (!hit || !(hit === el || el.contains(hit))) problems.push(`${sel}: covered by ${name(hit)}`);
        window.scrollTo(0, 0);
        if (side) side.scrollTop = sideAt;
    }
    return problems;
}"""


def expects_value(frame: dict[str, Any]) -> bool:
    """Whether the hand has a value the dock must show: Svara's (once he has looked), gin's deadwood."""
    o = frame["observation"]
    if frame["game"].startswith("svara"):
        return o.get("hand_value") is not None and bool(o.get("hand"))
    return frame["game"].startswith("gin") and bool(o.get("hand_layout"))


def measure_all(
    page: Page, lang: str, games: dict[str, list[tuple[str, dict[str, Any]]]], where: str
) -> list[str]:
    """Draw every position of ``games`` in ``page`` and measure each: what fails, named."""
    keep = os.environ.get("CARDHALL_LAYOUT_SHOTS")  # a folder: every drawing kept there as a PNG
    problems: list[str] = []
    for game, frames in games.items():
        for label, frame in frames:
            page.evaluate(RENDER, [lang, frame])
            found = page.evaluate(MEASURE, expects_value(frame))
            problems += [f"{game} {label} {where} {lang}: {p}" for p in found]
            if keep:
                page.screenshot(path=f"{keep}/{game}-{label}-{lang}-{where}.png", animations="disabled")
    return problems


def test_what_a_person_decides_on_is_in_the_window_and_uncovered_at_every_size(
    browser: Browser,  # noqa: F811 (the fixture)
    static_url: str,  # noqa: F811 (the fixture)
) -> None:
    games = {game: positions(game) for game in GAMES}
    problems: list[str] = []
    for where, size, scale in SIZES:
        with drawn_page(browser, static_url, viewport=size, device_scale_factor=scale) as page:
            problems += measure_all(page, "en", games, where)
    assert not problems, "\n".join(problems)


def test_the_bengali_table_holds_too(browser: Browser, static_url: str) -> None:  # noqa: F811
    """Bengali's words are longer: each game's last position on the narrowest phone and at 200 % zoom."""
    games = {game: positions(game)[-1:] for game in GAMES}
    problems: list[str] = []
    for where, size, scale in (SIZES[0], SIZES[3]):
        with drawn_page(browser, static_url, "bn", viewport=size, device_scale_factor=scale) as page:
            problems += measure_all(page, "bn", games, where)
    assert not problems, "\n".join(problems)
