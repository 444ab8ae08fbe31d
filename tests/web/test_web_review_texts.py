"""What the review, the replay and the rules page say, in a real browser (issue 46: D7, D8, D13, D24, D25).

Debian's headless Chromium driven by Playwright, against one ``cardhall serve`` for the module (review
budget 6), where one guest played a Hokm deal and a Svara deal, both finished by the stand-in, and asked
for the review of his seat in each. The review's wording is checked on a review made for the purpose and
shown by the page's own panel (``review.js``), so that each defect has its case whatever the dice: a best
move no better than the one played (D7: "Better: 7♠ (costs 0 ± 0)"), a cost every sampled deal agrees
on (D8: "costs 20 ± 0"), deals numbered into their results (D7), a plot without numbers or legend and
"points given away" in a match won (D8); and on the real review in the replay, in both languages, with
screenshots. Then the Svara replay's chips against the table's number (D24), the rules page's options
named as the create form names them (D13) and "Hands at most" saying what a tie does (D25).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardhall
from cardhall.server.client_games import catalogue
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

WEB = Path(cardhall.__file__).parent / "web"
ENGLISH = catalogue("en")
LATIN_WORD = re.compile(r"[A-Za-z_]{2,}")  # a card's rank is one letter (K♠, J Q K A)
CARD = re.compile(r"(?:10|[2-9AKQJ])[♣♦♥♠]")


def finished(page: Page, game: str) -> str:
    """A match of ``game`` the page's guest quick-played and left to the stand-in, once finished."""
    body = {"game": game, "level": "easy", "settings": {"bot_pace_ms": 0, "away_seconds": 1}}
    table: str = api(page, "POST", "/api/quickplay", body)["table"]
    deadline = time.monotonic() + 120
    while api(page, "GET", f"/api/tables/{table}")["status"] != "finished":
        assert time.monotonic() < deadline, f"{game} did not finish"
        time.sleep(0.1)
    return table


@pytest.fixture(scope="module")
def hall(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:  # noqa: F811
    """The server's address and its finished tables (``hokm`` and ``svara``, each reviewed for seat 0)."""
    port = free_port()
    db = tmp_path_factory.mktemp("review-texts") / "web.db"
    try:
        with running_server(db, port, "--review-budget", "6"):
            url = f"http://127.0.0.1:{port}"
            with checked_page(browser, url) as page:
                enter(page, "Ann")
                hokm = finished(page, "hokm(max_hands=1)")
                svara = finished(page, "svara(players=3,max_deals=1)")
                for table in (hokm, svara):
                    api(page, "POST", f"/api/tables/{table}/review?seat=0", {})
                    deadline = time.monotonic() + 120
                    while api(page, "GET", f"/api/tables/{table}/review?seat=0")["status"] != "done":
                        assert time.monotonic() < deadline, "the review was not made"
                        time.sleep(0.1)
            yield {"url": url, "hokm": hokm, "svara": svara}
    finally:
        print(f"--- the server's output ---\n{server_log(db).read_text(errors='replace')}")


@pytest.fixture(name="page")
def hall_page(browser: Browser, hall: dict[str, str]) -> Iterator[Page]:  # noqa: F811
    with checked_page(browser, hall["url"]) as page:
        yield page


# --- the review's words, on a review made for the purpose ------------------------------------------------

HOKM = cardhall.load_game("hokm(max_hands=1)")
ACTION = {HOKM.action_label(a): a for a in range(HOKM.num_distinct_actions)}


def candidate(label: str, value: float, loss: float = 0.0, loss_se: float = 0.0) -> dict[str, Any]:
    action = ACTION[label]
    return {
        "action": action,
        "label": label,
        "move": HOKM.action_info(action),
        "value": value,
        "se": 1.0,
        "loss": loss,
        "loss_se": loss_se,
    }


def decision(
    index: int, deal: int, played: dict[str, Any], best: dict[str, Any], **fields: Any
) -> dict[str, Any]:
    loss, se = played["loss"], played["loss_se"]
    return {
        "index": index,
        "turn": index,
        "deal": deal,
        "legal": 5,
        "searched": True,
        "samples": 200,
        "played": played,
        "best": best,
        "better": None,
        "rules": {"action": best["action"], "label": best["label"], "move": best["move"]},
        "candidates": [best, played] if best is not played else [played],
        "loss": loss,
        "loss_se": se,
        "interval": [round(loss - 2 * se, 3), round(loss + 2 * se, 3)],
        "agree": se == 0,
        "verdict": "good",
        "accuracy": 100.0,
    } | fields


def made_review() -> dict[str, Any]:
    """A review of a match the seat won (its deals +5 and +120 points) with 125.8 points left on the table:
    a best move no better than the one played (0 ± 0), a bid that costs 20 points in all 200 sampled deals,
    and a card that costs 16.0 points, 95% between 9.8 and 22.2."""
    seven, ten = candidate("play 7S", 3.2), candidate("play 10S", 3.2)
    bas = candidate("bid bas", 24.0)
    four = candidate("bid 4", 4.0, 20.0, 0.0)
    queen = candidate("play QH", 30.0)
    ten_h = candidate("play 10H", 14.0, 16.0, 3.1)
    decisions = [
        decision(3, 1, ten, seven),
        decision(7, 1, four, bas, better=bas, verdict="mistake", accuracy=40.0),
        decision(40, 2, ten_h, queen, better=queen, verdict="inaccuracy", accuracy=65.0),
    ]
    summary = {"decisions": 3, "forced": 0, "unclear": 0, "loss": 125.8, "accuracy": 68.3}
    verdicts = {"good": 1, "inaccuracy": 1, "mistake": 1, "blunder": 0}
    return {
        "review_version": 2,
        "game": str(HOKM),
        "seat": 0,
        "seed": 0,
        "budget": 200,
        "z": 2.0,
        "unit": "points",
        "thresholds": {"inaccuracy": 5.0, "mistake": 15.0, "blunder": 40.0},
        "record": {"seed": 1, "actions": 60, "over": True},
        "match": summary | {"verdicts": verdicts},
        "deals": [
            {"deal": 1, **summary, "verdicts": verdicts, "accuracy": 70.0, "result": 5.0},
            {"deal": 2, **summary, "verdicts": verdicts, "accuracy": 65.0, "result": 120.0},
        ],
        "decisions": decisions,
    }


SHOW = """async (review) => {
    const { ReviewPanel } = await import("/static/review.js");
    const seats = [0, 1, 2].map((seat) => ({ seat, kind: seat ? "bot" : "person", player: null }));
    const replay = { meta: { seats }, table: "t", shown: true, seatName: (s) => (s ? `Bot ${s + 1}` : "Ann"),
                     go() {}, refresh() {} };
    const panel = new ReviewPanel(replay);
    panel.status = document.createElement("p");
    panel.status.className = "review-status";
    panel.body = document.createElement("div");
    panel.el.append(panel.status, panel.body);
    const host = document.createElement("div");
    host.id = "made-review";
    host.style.cssText = "position: fixed; inset: 0; overflow: auto; background: #fff; z-index: 99";
    host.append(panel.el);
    document.body.append(host);
    panel.show(review);
    for (const d of review.decisions) host.append(panel.mark(d.index + 1));
}"""


def show_made_review(page: Page, lang: str = "en") -> dict[str, Any]:
    enter(page, "Bea", lang=lang)
    review = made_review()
    page.evaluate(SHOW, review)
    page.wait_for_selector("#made-review .review-plot")
    return review


def marks(page: Page) -> list[str]:
    return page.locator("#made-review .review-mark").all_inner_texts()


def test_a_better_move_only_where_it_is_better_named_as_its_button(page: Page) -> None:
    """D7: "Good. Better: play 7♠ (costs 0 ± 0)" and "Played play 10♠"."""
    show_made_review(page)
    good, bid, card = marks(page)
    assert "Good." in good and "Play 10♠: expected deal result +3.2 points." in good
    assert "Better" not in good and "±" not in good, good
    assert "Better: Bas, expected +24 points." in bid
    assert "Better: Play Q♥, expected +30 points." in card
    for text in marks(page):
        assert "Played" not in text and not re.search(r"\b(\w+) \1\b", text.lower()), text


def test_deals_do_not_run_into_their_results_and_every_amount_has_its_unit(page: Page) -> None:
    """D7: "result +52. Deal 2" was "result +5" with the next item's marker "2." after it."""
    show_made_review(page)
    deals = page.locator("#made-review .review-deals li")
    assert deals.all_inner_texts() == [
        "Deal 1: accuracy 70%, result +5 points",
        "Deal 2: accuracy 65%, result +120 points",
    ]
    boxes = page.evaluate(
        """() => [...document.querySelectorAll("#made-review .review-deals li")].map((li) => {
            const r = li.getBoundingClientRect(), style = getComputedStyle(li);
            return { left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                     marker: style.display === "list-item" && style.listStyleType !== "none" };
        })"""
    )
    assert not any(b["marker"] for b in boxes), "no list marker to run into the text before it"
    first, second = boxes
    apart = first["right"] <= second["left"] or first["bottom"] <= second["top"]
    assert apart, f"the deals' boxes overlap: {boxes}"
    # Every amount says its unit.
    text = page.inner_text("#made-review")
    for said in (
        "+3.2 points",
        "+24 points",
        "cost 20 points",
        "9.8 to 22.2 points",
        "125.8 points",
        "+5 points",
    ):
        assert said in text, said


def test_points_left_on_the_table_and_an_honest_interval(page: Page) -> None:
    """D8: "125.8 points given away" in a match won; "costs 20 ± 0" over 200 sampled deals."""
    show_made_review(page)
    status = page.inner_text("#made-review .review-status")
    assert "given away" not in status
    assert (
        "Left on the table: 125.8 points, what the better moves the search found would have added" in status
    )
    _, bid, card = marks(page)
    assert "The move played cost 20 points (the same in all 200 sampled deals)." in bid and "±" not in bid
    assert "The move played cost 16 points (95% interval 9.8 to 22.2 points, over 200 sampled deals)." in card


def test_the_plot_has_numbers_on_its_axes_and_a_legend(page: Page) -> None:
    """D8: the plot had no number on its axis and no legend."""
    show_made_review(page)
    y = page.locator("#made-review .review-plot .y-tick").all_text_contents()  # (SVG text: no innerText)
    assert len(y) >= 3 and all(re.fullmatch(r"-?\d+(\.\d+)?", v) for v in y), y
    values = [float(v) for v in y]
    assert values == sorted(values, reverse=True) or values == sorted(values)
    assert min(values) <= 3.2 and max(values) >= 30  # every point drawn lies within the axis
    assert page.locator("#made-review .review-plot .x-tick").all_text_contents() == ["1", "2"]  # the deals
    assert "points" in (page.text_content("#made-review .review-plot .y-label") or "")
    legend = page.locator("#made-review .review-legend li").all_inner_texts()
    assert [s.strip() for s in legend[:2]] == [
        "the move played: its expected deal result",
        "a clearly better move",
    ]
    assert {s.strip() for s in legend[2:]} == {"Good", "Inaccuracy", "Mistake", "Blunder", "Unclear"}
    # A ring above the move played only where the move was clearly better.
    assert page.locator("#made-review .review-plot .best-dot").count() == 2


def test_the_review_in_bengali_has_its_units_and_no_english(page: Page) -> None:
    show_made_review(page, lang="bn")
    text = page.inner_text("#made-review")
    assert "১২৫.৮ পয়েন্ট" in text and "দান ১: নির্ভুলতা ৭০%, ফল +৫ পয়েন্ট" in text
    assert "বাছাই করা ২০০টি দানের সবকটিতে একই" in text and "৯.৮ থেকে ২২.২" in text
    assert not LATIN_WORD.findall(text), LATIN_WORD.findall(text)
    assert not re.search(r"[0-9]", CARD.sub("", text)), "Bengali digits (a card's index as printed on it)"
    assert "ডিল" not in text, "a deal is দান (docs/glossary-bn.md)"


# --- the review of a real match, in the replay -----------------------------------------------------------


def accessibility(page: Page) -> list[str]:
    """The serious and critical violations axe-core finds in the page (none checked without the dev
    extra's ``axe-playwright-python``, as ``tests/web/test_web_axe.py``)."""
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        return []
    results: Any = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']}: {'; '.join(' '.join(n['target']) for n in v['nodes'][:4])}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("lang", ["en", "bn"])
def test_the_review_of_a_match_in_the_replay(page: Page, hall: dict[str, str], lang: str) -> None:
    enter(page, "Cy", lang=lang)
    table = hall["hokm"]
    review = api(page, "GET", f"/api/tables/{table}/review?seat=0")["review"]
    page.evaluate("(table) => window.cardhall.showReplay(table)", table)
    page.wait_for_selector("#replay-dialog .review-plot .dot")
    dots = page.locator("#replay-dialog .review-plot circle.dot")
    assert dots.count() == len(review["decisions"])
    for d, said in zip(review["decisions"], dots.locator("title").all_text_contents(), strict=True):
        assert "± ০" not in said and "± 0" not in said and "Played" not in said, said
        if lang == "en":
            assert ("Better: " in said) == (d.get("better") is not None), (said, d)
            assert " points." in said, said
    assert page.locator("#replay-dialog .review-plot .y-tick").count() >= 3
    assert page.locator("#replay-dialog .review-legend li").count() == 7
    serious = accessibility(page)
    assert not serious, serious
    if lang == "bn":
        panel = page.inner_text("#replay-dialog .review")
        assert not LATIN_WORD.findall(panel.replace("Ann", "")), LATIN_WORD.findall(panel)
    # The worst decision: its point steps the replay to its move, which the review marks.
    worst = max(range(len(review["decisions"])), key=lambda i: review["decisions"][i]["loss"])
    dots.nth(worst).click()
    page.wait_for_selector("#replay-dialog .review-mark")
    page.locator("#replay-dialog .review-mark").scroll_into_view_if_needed()
    shot(page, f"review-texts-{lang}-mark-desktop", full_page=False)
    page.locator("#replay-dialog .review-plot").scroll_into_view_if_needed()
    shot(page, f"review-texts-{lang}-desktop", full_page=False)
    page.set_viewport_size(PHONE)
    page.wait_for_function(
        """() => { const s = document.querySelector("#replay-dialog .review-plot");
                   return s && Number(s.getAttribute("viewBox").split(" ")[2]) < 420; }"""
    )  # drawn again at the phone's width, so its text is the page's size
    page.locator("#replay-dialog .review-plot").scroll_into_view_if_needed()
    shot(page, f"review-texts-{lang}-phone", full_page=False)


# --- Svara's replay: chips, the table's number (D24) -----------------------------------------------------


def test_the_svara_replay_shows_each_players_chips_as_the_table_does(
    page: Page, hall: dict[str, str]
) -> None:
    """D24: the replay said "score 170" where the table said 1,000 chips (170 and 830 in the pot)."""
    enter(page, "Dee")
    table = hall["svara"]
    positions = api(page, "GET", f"/api/tables/{table}/replay?from=0&count=20")["positions"]
    step = max(range(len(positions)), key=lambda k: sum(positions[k]["observation"]["contributions"]))
    o = positions[step]["observation"]
    assert sum(o["contributions"]) > 0, "a position with chips in the pot"
    page.evaluate("(table) => window.cardhall.showReplay(table)", table)
    page.wait_for_selector("#replay-dialog .replay-seat .score")
    page.evaluate(
        """(step) => { const s = document.querySelector("#replay-dialog .replay-slider");
                       s.value = String(step); s.dispatchEvent(new Event("input")); }""",
        step,
    )
    page.wait_for_selector(f'#replay-dialog .replay-where:text("Move {step} of")')
    for seat in range(3):
        said = page.inner_text(f'#replay-dialog .replay-seat[data-seat="{seat}"] .score')
        chips, in_pot = o["stacks"][seat], o["contributions"][seat]
        expected = f"chips {chips + in_pot}" + (f" ({in_pot} in the pot)" if in_pot else "")
        assert said == expected, (seat, said, o["stacks"], o["contributions"])
    # The table's own scores cell of the same observation says the same number.
    cells = page.evaluate(
        """async (o) => { const { svara } = await import("/static/games/svara.js");
                          return [0, 1, 2].map((s) => String([svara.scoreCell(o, s)].flat()[0])); }""",
        o,
    )
    assert cells == [str(o["stacks"][s] + o["contributions"][s]) for s in range(3)]
    # And the review of a Svara seat counts in chips too.
    page.wait_for_selector("#replay-dialog .review-plot")
    said = page.inner_text("#replay-dialog .review-deals") + page.inner_text(
        "#replay-dialog .review-deals-title"
    )
    assert " chips" in said and "points" not in said, said
    assert "(chips)" in (page.text_content("#replay-dialog .review-plot .y-label") or "")
    shot(page, "replay-svara-chips-en-desktop", full_page=False)


# --- the rules page: options as the create form names them (D13), a tie (D25) ----------------------------


def typed(game: str) -> set[str]:
    """The words of ``game``'s action labels (what a person types at the command line: "bid kaboot")."""
    rules = cardhall.load_game(game)
    labels = (rules.action_label(a) for a in range(rules.num_distinct_actions))
    return {w.lower() for label in labels for w in LATIN_WORD.findall(label)}


def open_rules(page: Page, game: str, lang: str) -> str:
    page.click(f'.game[data-game="{game}"] .rules-link')
    page.wait_for_selector(f'#rules-dialog[data-lang="{lang}"][data-game="{game}"] .rules-text h2')
    text = page.inner_text("#rules-dialog .rules-text")
    return text


def close_rules(page: Page) -> None:
    page.keyboard.press("Escape")
    page.wait_for_selector("#rules-dialog", state="hidden")


def create_form_names(page: Page, game: str) -> list[str]:
    """The option names the lobby's create form shows for ``game``."""
    page.select_option("#ct-game", game)
    first = page.locator(f"#ct-opt-{cardhall.game_classes()[game].option_spec[0].name}")
    first.wait_for(state="attached")
    # The game's options are folded until opened, inside the lobby's fold of the whole form on a phone:
    # every closed fold holding them is opened, the outermost first.
    for fold in page.locator("details:has([id^='ct-opt-']):not([open]) > summary").all():
        fold.click()
    first.wait_for()
    return page.locator(".create .game-options .field label").all_inner_texts()


@pytest.mark.parametrize("lang", ["en", "bn"])
def test_the_rules_name_every_option_as_the_create_form_does(page: Page, lang: str) -> None:
    """D13: the rules named options by code (``max_deals``, ``svara_join: anyone``): 15 Latin code words
    in the Bengali Svara rules."""
    enter(page, "Eve", lang=lang)
    for game in sorted(cardhall.game_classes()):
        names = create_form_names(page, game)
        text = open_rules(page, game, lang)
        codes = [w for w in re.findall(r"\b\w+_\w+\b", text)]
        assert not codes, f"{game}: code words on the rules page: {codes}"
        missing = [n for n in names if n not in text]
        assert not missing, f"{game}: options not named as the create form names them: {missing}"
        if lang == "bn":  # (a contract's name people type, "bid bas", may be given beside its Bengali)
            latin = [w for w in LATIN_WORD.findall(text) if w.lower() not in typed(game)]
            assert not latin, f"{game}: {latin}"
        if game == "svara":
            section = page.locator("#rules-dialog .rules-text ul").last.inner_text()
            if lang == "en":
                assert "Who may join a svara: anyone, for the fee (the standard rule):" in section
            page.locator("#rules-dialog .rules-text ul").last.scroll_into_view_if_needed()
            shot(page, f"rules-options-{lang}-desktop", full_page=False)
            page.set_viewport_size(PHONE)
            page.locator("#rules-dialog .rules-text ul").last.scroll_into_view_if_needed()
            shot(page, f"rules-options-{lang}-phone", full_page=False)
            page.set_viewport_size(DESKTOP)
        close_rules(page)


@pytest.mark.parametrize("lang", ["en", "bn"])
def test_hands_at_most_says_that_a_tie_for_the_lead_plays_on(page: Page, lang: str) -> None:
    """D25: Hokm's "Hands at most" did not say that a tie for the lead plays on."""
    enter(page, "Flo", lang=lang)
    create_form_names(page, "hokm")
    help_text = page.inner_text("#ct-opt-max_hands-help")
    plays_on = {"en": "A tie for the lead plays on", "bn": "সমতা থাকলে খেলা চলতে থাকে"}[lang]
    assert plays_on in help_text, help_text
    text = open_rules(page, "hokm", lang)
    title = page.inner_text("label[for='ct-opt-max_hands']")
    line = next(li for li in text.splitlines() if li.startswith(title))
    tied = {"en": "tied for the highest total: then another hand is played", "bn": "সমতা না ভাঙা পর্যন্ত"}[lang]
    assert tied in line, line
    close_rules(page)
    # Where a tie ends the match shared, the option says that instead.
    create_form_names(page, "gin")
    share = {"en": "share the win", "bn": "জয় ভাগ করে নেন"}[lang]
    assert share in page.inner_text("#ct-opt-max_hands-help")
