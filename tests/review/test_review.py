"""The review (:mod:`cardhall.review`) and ``cardhall review``: verdicts and thresholds, reproducibility,
forced moves, refusals of bad input, the command line, and the search handed nothing but the observation
(a deal the player cannot tell apart getting the same review, in every game: ``test_review_peeking.py``).

Budgets here are tiny (a few determinizations a decision): the tests check what the review says and that
it says it the same way every time, not how good its estimates are (``benchmarks/review.md`` does).
No timing is asserted.
"""

from __future__ import annotations

import json
import math
import pickle
import random
import re
from pathlib import Path
from typing import Any

import pytest

import cardhall
from cardhall.cards import format_card, parse_card
from cardhall.cli import main
from cardhall.core import Record
from cardhall.errors import InvalidOptionError, InvalidRecordError
from cardhall.registry import game_classes
from cardhall.review import (
    DEFAULT_BUDGET,
    VERDICTS,
    Thresholds,
    accuracy,
    aggregate,
    chances_lost,
    count_decisions,
    counted_loss,
    review,
    stake,
    thresholds,
    verdict,
)
from cardhall.table import Table
from cardhall.terminal.style import Style
from tests.benchmark_scripts import load_script

# One short form of each game (a deal or two), and one seat to review in it.
SHORT = [
    "hokm(max_hands=1)",
    "kierki(first_deal=2,last_deal=2)",
    "hearts(decks=1,players=4,max_hands=1)",
    "gin(players=2,max_hands=1)",
    "svara(players=3,max_deals=2)",
]


def bot_record(game_text: str, seed: int = 3, bots: str = "rules") -> Record:
    game = cardhall.load_game(game_text)
    return Table(game, [bots] * game.num_players, seed, events=False).play().record()


# --- verdicts, thresholds, accuracy ---------------------------------------------------------------

LIMITS = Thresholds(5.0, 15.0, 40.0)


@pytest.mark.parametrize(
    ("loss", "se", "expected"),
    [
        (0.0, 0.0, "good"),
        (4.9, 0.0, "good"),
        (5.0, 0.0, "inaccuracy"),
        (3.0, 1.0, None),  # 3 + 2 se reaches 5: cannot tell from an inaccuracy
        (2.9, 1.0, "good"),
        (9.0, 2.0, "inaccuracy"),  # 9 - 2 se = 5
        (8.9, 2.0, None),
        (15.0, 0.0, "mistake"),
        (20.0, 2.6, "inaccuracy"),  # 20 - 5.2 < 15: only sure of an inaccuracy
        (19.0, 2.0, "mistake"),
        (40.0, 0.0, "blunder"),
        (60.0, 10.0, "blunder"),
        (60.0, 10.1, "mistake"),
        (100.0, 60.0, None),  # huge noise: not even sure of an inaccuracy, nor that it is small
    ],
)
def test_a_verdict_is_the_worst_class_the_loss_clears_by_two_standard_errors(
    loss: float, se: float, expected: str | None
) -> None:
    assert verdict(loss, se, LIMITS) == expected


def test_accuracy_is_lichess_curve_of_the_chances_a_decision_gave_away() -> None:
    assert counted_loss(10.0, 2.0) == 6.0
    assert counted_loss(3.0, 2.0) == 0.0
    # A decision's stake: the spread of its candidates' values, at least the blunder threshold (40).
    assert (stake(100.0, LIMITS), stake(12.0, LIMITS)) == (100.0, 40.0)
    assert chances_lost(50.0, 0.0, 100.0, LIMITS) == 50.0 and chances_lost(12.0, 0.0, 12.0, LIMITS) == 30.0
    assert chances_lost(30.0, 5.0, 80.0, LIMITS) == 25.0  # only the loss clear of the noise counts
    assert accuracy(0.0, 0.0, 100.0, LIMITS) == 100.0
    assert accuracy(3.0, 2.0, 100.0, LIMITS) == 100.0
    # lichess: 103.1668 * exp(-0.04354 * lost) - 3.1669, plus its "uncertainty bonus" of 1
    for loss in (5.0, 10.0, 20.0, 50.0):
        expected = 103.1668 * math.exp(-0.04354 * loss) - 2.1669
        assert accuracy(loss, 0.0, 100.0, LIMITS) == pytest.approx(expected)
    assert accuracy(50.0, 0.0, 100.0, LIMITS) == pytest.approx(9.5, abs=0.05)  # half the stake
    assert accuracy(90.0, 0.0, 100.0, LIMITS) == 0.0 and accuracy(1e6, 0.0, 1e6, LIMITS) == 0.0


def test_many_decisions_accuracy_is_the_mean_of_a_stake_weighted_mean_and_a_harmonic_mean() -> None:
    """One blunder in 30 decisions is not averaged away (issue 51: a match lost by a Kaboot bid showed
    86%), nor is a long match of careful play sunk by it; the decisions that could swing more count more."""
    assert aggregate([], []) is None
    assert aggregate([100.0] * 10, [40.0] * 10) == pytest.approx(100.0)
    assert aggregate([80.0, 20.0], [40.0, 40.0]) == pytest.approx((50.0 + 2 / (1 / 80 + 1 / 20)) / 2)
    assert aggregate([80.0, 20.0], [120.0, 40.0]) == pytest.approx((65.0 + 2 / (1 / 80 + 1 / 20)) / 2)
    assert aggregate([100.0] * 29 + [0.0], [40.0] * 30) == pytest.approx((29 * 100 / 30 + 30 / 1.29) / 2)
    assert aggregate([100.0] * 299 + [0.0], [40.0] * 300) == pytest.approx(87.4, abs=0.05)


def test_every_game_has_thresholds_in_increasing_order() -> None:
    for name in game_classes():
        limits = thresholds(cardhall.load_game(name))
        assert 0 < limits.inaccuracy < limits.mistake < limits.blunder
    assert thresholds(cardhall.load_game("hokm")) == Thresholds(5.0, 15.0, 40.0)
    # Svara's are in antes: the table's stakes.
    assert thresholds(cardhall.load_game("svara(ante=10)")) == Thresholds(20.0, 60.0, 200.0)
    assert thresholds(cardhall.load_game("svara(ante=50)")) == Thresholds(100.0, 300.0, 1000.0)


# --- the review --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hokm_record() -> Record:
    return bot_record("hokm(max_hands=2)", seed=5, bots="random")


@pytest.fixture(scope="module")
def hokm_review(hokm_record: Record) -> dict[str, Any]:
    return review(hokm_record, 1, budget=6, seed=11)


def test_a_review_is_json_and_says_what_it_reviewed(hokm_record: Record, hokm_review: dict[str, Any]) -> None:
    r = hokm_review
    assert json.loads(json.dumps(r)) == r
    assert (r["game"], r["seat"], r["seed"], r["budget"], r["review_version"]) == (
        "hokm(max_hands=2)",
        1,
        11,
        6,
        3,
    )
    assert (
        r["unit"] == "points"
        and review(bot_record("svara(players=3,max_deals=1)"), 0, budget=2)["unit"] == "chips"
    )
    assert r["thresholds"] == {"inaccuracy": 5.0, "mistake": 15.0, "blunder": 40.0}
    assert r["record"] == {"seed": 5, "actions": len(hokm_record["actions"]), "over": True}
    assert [d["deal"] for d in r["deals"]] == [1, 2]
    assert r["match"]["decisions"] == len(r["decisions"]) == sum(d["decisions"] for d in r["deals"])
    assert r["match"]["forced"] == sum(d["forced"] for d in r["deals"])
    for d in r["decisions"]:
        seat, action = hokm_record["actions"][d["index"]]
        assert (seat, d["played"]["action"]) == (1, action)
        labels = [c["label"] for c in d["candidates"]]
        assert d["played"]["label"] in labels and d["best"]["label"] in labels
        assert d["best"] == d["candidates"][0]  # best first
        assert d["best"]["loss"] == 0 and d["loss"] >= 0
        assert d["loss"] == d["played"]["loss"]
        assert all(c["loss"] >= 0 and c["loss_se"] >= 0 for c in d["candidates"])
        assert d["verdict"] in (*VERDICTS, None)
        assert d["verdict"] == verdict(d["loss"], d["loss_se"], thresholds(cardhall.load_game("hokm")))
        assert 0 <= d["accuracy"] <= 100
        values = [c["value"] for c in d["candidates"]]
        hokm = thresholds(cardhall.load_game("hokm"))
        assert d["stake"] == pytest.approx(stake(max(values) - min(values), hokm), abs=2e-3)
        assert d["accuracy"] == pytest.approx(accuracy(d["loss"], d["loss_se"], d["stake"], hokm), abs=1e-2)
        # A better move only where it is clearly better; an honest interval over the sampled deals.
        assert d["samples"] == 6
        clear = d["loss"] - 2 * d["loss_se"] > 0
        assert d["better"] == (d["best"] if clear and d["best"] is not d["played"] else None)
        assert d["better"] is None or d["better"]["action"] != d["played"]["action"]
        low, high = d["interval"]
        assert low == pytest.approx(d["loss"] - 2 * d["loss_se"], abs=2e-3) and high >= d["loss"] >= low
        assert not d["agree"] or d["loss_se"] == 0
        assert all(c["move"] == cardhall.load_game("hokm").action_info(c["action"]) for c in d["candidates"])
    for deal in r["deals"]:
        mine = [d for d in r["decisions"] if d["deal"] == deal["deal"]]
        assert sum(deal["verdicts"].values()) + deal["unclear"] == deal["decisions"] == len(mine)
        accuracies, stakes = [d["accuracy"] for d in mine], [d["stake"] for d in mine]
        assert deal["accuracy"] == pytest.approx(aggregate(accuracies, stakes), abs=1e-2)
        assert deal["result"] is not None  # both deals were finished


def test_a_deal_result_is_the_seats_real_deal_value(hokm_record: Record, hokm_review: dict[str, Any]) -> None:
    state = cardhall.replay(hokm_record)
    # Over the whole match the deal values add up to the seat's final margin over the others' mean.
    others = [v for s, v in enumerate(state.scores) if s != 1]
    margin = state.scores[1] - sum(others) / len(others)
    assert sum(d["result"] for d in hokm_review["deals"]) == pytest.approx(margin, abs=0.01)


def test_the_same_seed_gives_the_same_review_and_another_seed_another(
    hokm_record: Record, hokm_review: dict[str, Any]
) -> None:
    assert review(hokm_record, 1, budget=6, seed=11) == hokm_review
    other = review(hokm_record, 1, budget=6, seed=12)
    assert other["decisions"] != hokm_review["decisions"]
    # The review reads nothing but its arguments: the same after pickling them (a server's worker).
    args = pickle.loads(pickle.dumps((hokm_record, 1, 6, 11)))
    assert review(*args) == hokm_review


def test_a_worker_process_gives_the_same_review(hokm_record: Record, hokm_review: dict[str, Any]) -> None:
    """What a server's offline job does: the review in another process, handed back as JSON."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=1) as pool:
        result = pool.submit(review, hokm_record, 1, 6, 11).result()
    assert result == hokm_review


def test_forced_moves_are_skipped_and_counted(hokm_record: Record, hokm_review: dict[str, Any]) -> None:
    state = cardhall.replay({**hokm_record, "actions": []})
    choices = forced = 0
    for seat, action in hokm_record["actions"]:
        if seat == 1:
            n = len(state.legal_actions(1))
            choices += n > 1
            forced += n == 1
        state.apply(seat, action)
    assert forced > 0  # the last trick's card at least
    assert hokm_review["match"]["decisions"] == choices == count_decisions(hokm_record, 1)
    assert hokm_review["match"]["forced"] == forced
    assert all(d["legal"] > 1 for d in hokm_review["decisions"])


def test_progress_counts_every_decision(hokm_record: Record) -> None:
    calls: list[tuple[int, int]] = []
    r = review(hokm_record, 0, budget=2, seed=1, progress=lambda done, total: calls.append((done, total)))
    n = r["match"]["decisions"]
    assert calls == [(k, n) for k in range(n + 1)]


@pytest.mark.parametrize("game_text", SHORT)
def test_every_game_is_reviewed(game_text: str) -> None:
    record = bot_record(game_text, seed=2, bots="random")
    r = review(record, 0, budget=3, seed=0)
    assert r["match"]["decisions"] > 0
    assert json.loads(json.dumps(r)) == r
    for d in r["decisions"]:
        assert d["played"]["action"] == record["actions"][d["index"]][1]
        assert d["best"]["value"] >= d["played"]["value"] - 1e-9 or d["best"] == d["played"]


def decision_valued(monkeypatch: pytest.MonkeyPatch, rows: Any) -> dict[str, Any]:
    """The review of seat 1's first decision in a Hokm deal, its values ``rows(candidates)`` (one row a
    sampled deal) instead of the search's."""
    from cardhall.bots.search import SearchBot

    def evaluate(self: SearchBot, obs: Any, candidates: list[int], rng: random.Random, n: int) -> Any:
        return rows(candidates)

    monkeypatch.setattr(SearchBot, "evaluate", evaluate)
    record = bot_record("hokm(max_hands=1)", seed=1, bots="random")
    decision: dict[str, Any] = review(record, 1, budget=200, seed=0)["decisions"][0]
    return decision


def test_a_move_no_better_than_the_one_played_is_not_called_better(monkeypatch: pytest.MonkeyPatch) -> None:
    """D7: "Good. Better: play 7♠ (costs 0 ± 0)". Every candidate worth the same in all 200 sampled deals:
    the best (the lowest action, on a tie) is not a better move than the one played."""
    d = decision_valued(monkeypatch, lambda candidates: [[10.0] * len(candidates)] * 200)
    assert len(d["candidates"]) > 1 and d["played"]["action"] != d["best"]["action"]
    assert (d["loss"], d["loss_se"], d["better"], d["agree"], d["verdict"]) == (0, 0, None, True, "good")
    # A lead inside the noise is not one either: +1 in half the sampled deals, -1 in the other half.
    d = decision_valued(
        monkeypatch,
        lambda candidates: [[float(c != candidates[0]) * (-1) ** k for c in candidates] for k in range(200)],
    )
    assert (d["loss"], d["better"], d["agree"], d["verdict"]) == (0, None, False, "good")


def test_a_cost_every_sampled_deal_agrees_on_is_said_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """D8: a bid verdict "costs 20 ± 0" over 200 sampled deals: the review says that they all agree."""
    played: list[int] = []

    def rows(candidates: list[int]) -> list[list[float]]:
        return [[0.0 if c in played else 20.0 for c in candidates]] * 200

    record = bot_record("hokm(max_hands=1)", seed=1, bots="random")
    played.append(record["actions"][next(i for i, (s, _) in enumerate(record["actions"]) if s == 1)][1])
    d = decision_valued(monkeypatch, rows)
    assert d["played"]["action"] == played[0]
    assert (d["loss"], d["loss_se"], d["agree"], d["samples"], d["interval"]) == (20, 0, True, 200, [20, 20])
    assert d["better"] == d["best"] and d["verdict"] == "mistake"


def test_a_move_the_game_leaves_to_the_rules_player_is_valued_not_compared() -> None:
    # Two-player gin, played by the rules bot: its take-or-draw and plain discards are its own moves.
    record = bot_record("gin(players=2,max_hands=1)", seed=4)
    r = review(record, 0, budget=2, seed=0)
    alone = [d for d in r["decisions"] if not d["searched"]]
    assert alone
    for d in alone:
        assert len(d["candidates"]) == 1
        assert (d["loss"], d["loss_se"], d["verdict"], d["accuracy"]) == (0.0, 0.0, "good", 100.0)


# A short match of each game: the figure is per decision, so a deal or two reads as a match does
# (benchmarks/review-accuracy.md measures whole matches at the default budget).
BOT_MATCHES = {
    "hokm": "hokm(max_hands=2)",
    "kierki": "kierki(first_deal=1,last_deal=4)",
    "hearts": "hearts(decks=1,players=4,max_hands=2)",
    "gin": "gin(players=2,max_hands=2)",
    "svara": "svara(players=3,max_deals=4)",
}


@pytest.mark.slow  # twelve matches played and reviewed a game: 2-5 s each on an idle core
@pytest.mark.parametrize("name", sorted(BOT_MATCHES))
def test_a_random_seat_scores_far_below_a_normal_bots_seat(name: str) -> None:
    """Issue 51: a seat that played at random scored 86.2%. The headline figure now means what a player
    thinks it does: in every game the random (easy) bot's seat scores far below the normal (rules) bot's,
    both against normal bots, over six matches each at a budget of 8 (the noise of so small a budget is
    forgiven, so the gap here, at least 15 points, is narrower than at the default budget)."""
    game = cardhall.load_game(BOT_MATCHES[name])
    figures = {}
    for level in ("easy", "normal"):
        seats = [level] + ["normal"] * (game.num_players - 1)
        found = []
        for seed in range(1, 7):
            record = Table(game, seats, seed, events=False).play().record()
            found.append(review(record, 0, budget=8, seed=0)["match"]["accuracy"])
        figures[level] = sum(found) / len(found)
    assert figures["easy"] <= figures["normal"] - 15, figures


@pytest.mark.parametrize("seed", [1, 2])
def test_a_deal_lost_by_a_kaboot_bid_does_not_read_as_accurate(seed: int) -> None:
    """Issue 51: a match lost by a Kaboot bid showed 86%. Seat 0 plays as the rules bot but bids Kaboot
    at its turn to bid, and loses the contract: one blunder among a dozen decisions, the one that
    decided the deal."""
    from cardhall.bots import make_bot

    game = cardhall.load_game("hokm(max_hands=1)")
    state = game.new_game(seed=seed)
    bots = [make_bot("rules", game) for _ in range(3)]
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        kaboot = [a for a in legal if game.action_label(a) == "bid kaboot"]
        if seat == 0 and kaboot:
            action = kaboot[0]
        else:
            action = (
                legal[0]
                if len(legal) == 1
                else bots[seat].act(state.observation(seat, ints=True), legal, rng)
            )
        state.apply(seat, action)
    assert state.scores[0] <= -100  # the Kaboot failed
    r = review(state.record(), 0, budget=16, seed=0)
    assert r["decisions"][0]["played"]["label"] == "bid kaboot" and r["decisions"][0]["verdict"] == "blunder"
    assert r["match"]["accuracy"] < 50, r["match"]


def test_a_good_move_against_a_blunder() -> None:
    """A rules-bot seat scores better accuracy than a random seat in the same kind of match."""
    rules = review(bot_record("hokm(max_hands=2)", seed=8), 0, budget=12, seed=0)
    rand = review(bot_record("hokm(max_hands=2)", seed=8, bots="random"), 0, budget=12, seed=0)
    assert rules["match"]["accuracy"] > rand["match"]["accuracy"]
    assert rand["match"]["loss"] > rules["match"]["loss"]


# --- refusals -------------------------------------------------------------------------------------------


def test_bad_input_is_refused_naming_what_was_wrong(hokm_record: Record) -> None:
    with pytest.raises(InvalidOptionError, match=r"seat to review must be 0\.\.2, got 3"):
        review(hokm_record, 3)
    with pytest.raises(InvalidOptionError, match=r"0\.\.2, got -1"):
        review(hokm_record, -1)
    with pytest.raises(InvalidOptionError, match="got True"):
        review(hokm_record, True)
    with pytest.raises(InvalidOptionError, match=r"budget .* 1\.\.100000, got 0"):
        review(hokm_record, 0, budget=0)
    with pytest.raises(InvalidOptionError, match=r"review seed .* got -5"):
        review(hokm_record, 0, seed=-5)
    bad = {**hokm_record, "actions": [*hokm_record["actions"][:7], [0, 999]]}
    with pytest.raises(InvalidRecordError, match=r"record action 7 \[0, 999\] is illegal"):
        review(bad, 0)
    with pytest.raises(InvalidRecordError, match="lacks seed"):
        review({k: v for k, v in hokm_record.items() if k != "seed"}, 0)
    with pytest.raises(InvalidRecordError, match="must be a JSON object"):
        review([1, 2], 0)  # type: ignore[arg-type]
    with pytest.raises(InvalidRecordError, match="cannot be loaded"):
        review({**hokm_record, "game": "chess"}, 0)


def test_an_illegal_action_is_refused_before_any_search(hokm_record: Record) -> None:
    calls: list[tuple[int, int]] = []
    bad = {**hokm_record, "actions": [*hokm_record["actions"], [0, 0]]}  # one past the end of the match
    with pytest.raises(InvalidRecordError, match=r"record action \d+ \[0, 0\] is illegal"):
        review(bad, 0, progress=lambda d, t: calls.append((d, t)))
    assert calls == []


# --- no peeking (a deal the seat cannot tell apart, in every game: tests/review/test_review_peeking.py) ---


def test_the_review_never_reads_anything_but_the_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search is handed the observation and the legal actions, never a state."""
    from cardhall.bots.search import SearchBot

    seen: list[object] = []
    original = SearchBot.evaluate

    def spy(self: SearchBot, observation: Any, candidates: list[int], rng: random.Random, n: int) -> Any:
        seen.append(observation)
        assert isinstance(observation, dict)
        return original(self, observation, candidates, rng, n)

    monkeypatch.setattr(SearchBot, "evaluate", spy)
    record = bot_record("hokm(max_hands=1)", seed=1)
    review(record, 2, budget=2)
    state = cardhall.replay({**record, "actions": []})
    views = []
    for s, action in record["actions"]:
        if s == 2 and len(state.legal_actions(2)) > 1:
            views.append(state.observation(2, ints=True))
        state.apply(s, action)
    assert seen == views


def test_the_review_module_stands_on_the_engine_records_and_bots_only() -> None:
    import ast

    source = Path(cardhall.__file__).resolve().parent / "review.py"
    allowed = ("cardhall.core", "cardhall.errors", "cardhall.records", "cardhall.registry", "cardhall.bots")
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("cardhall"):
            assert node.module.startswith(allowed), node.module


# --- the command line -----------------------------------------------------------------------------------


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def records_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("review") / "matches.jsonl"
    lines = [json.dumps(bot_record("hokm(max_hands=1)", seed=s, bots="random")) for s in (1, 2)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_command_prints_one_json_review_a_line(
    records_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(  # --seat counts from 1: the second seat is the review's seat 1
        ["review", str(records_file), "--seat", "2", "--budget", "3", "--json", "--seed", "4"], capsys
    )
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])
    record = json.loads(records_file.read_text().splitlines()[0])
    assert first == review(record, 1, budget=3, seed=4)
    keys = "review_version game seat seed budget z unit thresholds record match deals decisions"
    assert set(first) == set(keys.split())
    code, out, _ = run(
        ["review", str(records_file), "--match", "2", "--budget", "3", "--json", "--quiet"], capsys
    )
    assert code == 0 and len(out.splitlines()) == 1 and json.loads(out)["record"]["seed"] == 2
    assert json.loads(out)["seat"] == 0  # a record does not say whose review: the first seat


def test_the_command_reads_one_pretty_printed_record_and_a_save_files_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = bot_record("hokm(max_hands=1)", seed=3)
    path = tmp_path / "one.json"
    path.write_text(json.dumps({**record, "seat": 2, "bots": [None, "rules", "rules"]}, indent=2))
    code, out, _ = run(["review", str(path), "--budget", "2", "--json"], capsys)
    assert code == 0 and json.loads(out)["seat"] == 2


def test_the_human_summary_names_flagged_decisions_deals_and_the_match(
    records_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["review", str(records_file), "--match", "2", "--budget", "4"], capsys)
    assert code == 0
    assert out.startswith("Reviewing the play of seat 1: hokm(max_hands=1), seed 2, ")
    assert out.splitlines()[1] == f"(from {records_file} line 2)"
    out = " ".join(out.split())  # (the prose is wrapped at 80 columns)
    assert "Per deal:" in out and "Match:" in out and "accuracy" in out
    assert "inaccuracy from 5, mistake from 15, blunder from 40" in out
    r = review(json.loads(records_file.read_text().splitlines()[1]), 0, budget=4)
    flagged = [d for d in r["decisions"] if d["verdict"] in ("inaccuracy", "mistake", "blunder")]
    assert flagged  # random play blunders (this match's seat 0 once at least)
    for d in flagged:
        shown = Style(pretty=True, colour=False)  # cards as the positions show them: play A♠
        assert shown.label(d["played"]["label"]) in out and shown.label(d["best"]["label"]) in out
    assert f"{r['match']['accuracy']:.1f}%" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["review", "MISSING.jsonl"], "MISSING.jsonl: no such file"),
        (["review", "{file}", "--seat", "4"], "--seat 4: hokm(max_hands=1) has seats 1 to 3"),
        (["review", "{file}", "--budget", "0"], "budget (determinizations per decision) must be an int"),
        (["review", "{file}", "--seed", "-1"], "review seed must be an int"),
        (["review", "{file}", "--match", "3"], "--match must be 1..2"),
        (["review", "{bad}"], "line 2: record action 4 [0, 999] is illegal"),
        (["review", "{notjson}"], "line 1: not JSON"),
        (["review", "{empty}"], "holds no record"),
        (["review"], "give a records FILE"),
        (["review", "--server", "http://127.0.0.1:9"], "--server and --table go together"),
        (["review", "--server", "ftp://x", "--table", "t1"], "give an http:// or https:// address"),
    ],
)
def test_the_command_refuses_bad_input_with_status_2(
    argv: list[str], message: str, records_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = records_file.read_text().splitlines()[0]
    record = json.loads(good)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(good + "\n" + json.dumps({**record, "actions": [*record["actions"][:4], [0, 999]]}) + "\n")
    (tmp_path / "notjson.jsonl").write_text("{nope\n")
    (tmp_path / "empty.jsonl").write_text("\n")
    names = {"file": str(records_file), "bad": str(bad), "notjson": str(tmp_path / "notjson.jsonl")}
    names["empty"] = str(tmp_path / "empty.jsonl")
    code, out, err = run([a.format(**names) for a in argv], capsys)
    assert code == 2
    assert out == ""
    assert message in err and err.startswith("cardhall review: ") and len(err.strip().splitlines()) == 1


def test_the_command_fetches_a_record_from_a_server(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--server URL --table ID`` reads ``GET /api/tables/{id}/record`` (here a stand-in server)."""
    import http.server
    import threading

    record = bot_record("hokm(max_hands=1)", seed=6)

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seats = [{"seat": 0, "name": "Ann"}, {"seat": 1, "bot": "rules"}, {"seat": 2, "bot": "rules"}]
            if self.path == "/api/tables/t%201/record":
                body, status = json.dumps(record).encode(), 200
            elif self.path.startswith("/api/tables/t%201/replay"):  # the seats' names
                body, status = json.dumps({"seats": seats, "positions": []}).encode(), 200
            else:
                body, status = json.dumps({"error": "no_such_table", "message": "no table 'x'"}).encode(), 404
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        code, out, _ = run(["review", "--server", url, "--table", "t 1", "--budget", "2", "--json"], capsys)
        assert code == 0 and json.loads(out) == review(record, 0, budget=2)
        code, out, _ = run(["review", "--server", url, "--table", "t 1", "--budget", "2", "--quiet"], capsys)
        assert out.startswith("Reviewing Ann's play (seat 1): hokm(max_hands=1), seed 6,")
        assert out.splitlines()[1] == "(from table t 1)"
        code, out, err = run(["review", "--server", url, "--table", "x", "--budget", "2"], capsys)
        assert code == 2 and "HTTP 404 no table 'x'" in err
    finally:
        server.shutdown()
        server.server_close()


def test_the_review_names_whose_play_it_is(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``cardhall review --seat 1`` reviewed Bot 2 without a word (issue 51): the first line names the
    player and the seat, counted from 1 as everywhere a person reads seats."""
    record = bot_record("hokm(max_hands=1)", seed=3)
    path = tmp_path / "match.json"  # a save file of ``cardhall play``: the person sat in the third seat
    path.write_text(json.dumps({**record, "seat": 2, "bots": ["normal", "hard", None]}), encoding="utf-8")
    code, out, _ = run(["review", str(path), "--budget", "2", "--quiet"], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("Reviewing your play (seat 3): hokm(max_hands=1), seed 3,")
    assert lines[1] == f"(from {path})"
    code, out, _ = run(["review", str(path), "--seat", "2", "--budget", "2", "--quiet"], capsys)
    assert out.startswith("Reviewing the hard bot's play (seat 2): ")
    code, out, _ = run(["review", str(path), "--seat", "2", "--budget", "2", "--json"], capsys)
    assert json.loads(out)["seat"] == 1  # the JSON's seats are the API's, from 0


def test_each_flagged_decision_shows_its_position(
    records_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under each flagged decision, its move (what ``replay --show --move N`` opens at) and the position
    as the seat saw it before the move: the seats with their bids and tricks, the trump, the trick so far
    and the seat's hand then."""
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run(["review", str(records_file), "--match", "2", "--seat", "1", "--budget", "4"], capsys)
    assert code == 0
    record = json.loads(records_file.read_text().splitlines()[1])
    r = review(record, 0, budget=4)
    flagged = [d for d in r["decisions"] if d["verdict"] in ("inaccuracy", "mistake", "blunder")]
    assert flagged
    assert f"\n  cardhall replay {records_file} --show --move N\n" in out
    blocks = re.split(r"^(?=Move \d+, deal \d+: )", out, flags=re.M)[1:]
    assert len(blocks) == len(flagged)
    state = cardhall.replay({**record, "actions": []})
    shown = {d["index"]: block for d, block in zip(flagged, blocks, strict=True)}
    for i, (seat, action) in enumerate(record["actions"]):
        if i in shown:
            block = shown[i]
            assert block.startswith(f"Move {i + 1}, deal ")
            hand = re.search(r"^    Your hand: (.*)$", block, flags=re.M)
            assert hand is not None, block
            faces = sorted(format_card(parse_card(face)) for face in hand.group(1).split())  # Q♠ or QS
            assert faces == sorted(format_card(c) for c in state.zones()["hand 0"])
            assert "Trump " in block and "Trick: " in block and "> seat 1 you" in block
        state.apply(seat, action)
    assert all(len(line) <= 80 for line in out.splitlines() if str(records_file) not in line)


# --- the benchmarks' smoke tests ------------------------------------------------------------------------


def test_the_calibration_benchmark_runs_quick(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    calibration = load_script("review_calibration.py")
    out = tmp_path / "calibration.json"
    assert calibration.main(["--quick", "--games", "hokm,gin", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "| game | verdict |" in printed
    data = json.loads(out.read_text())
    assert data["reviewed"] > 0
    for row in data["decisions"]:
        assert row["class"] in ("good", "unclear", "inaccuracy", "mistake", "blunder")


def test_the_accuracy_benchmark_runs_quick(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bench = load_script("review_accuracy.py")
    out = tmp_path / "accuracy.json"
    assert bench.main(["--quick", "--games", "hokm,svara", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "**hokm** (`hokm(max_hands=2)`)" in printed and "| easy (`random`) | 1 |" in printed
    data = json.loads(out.read_text())
    assert [(m["game"], m["level"]) for m in data["matches"]] == [
        (g, level) for g in ("hokm", "svara") for level in ("easy", "normal")
    ]
    assert bench.main(["--summarize", str(out)]) == 0  # the tables again, from the decisions kept
    assert "**svara**" in capsys.readouterr().out


def test_the_default_budget_is_the_documented_one() -> None:
    assert DEFAULT_BUDGET == 200


def test_the_cost_benchmark_runs_quick(capsys: pytest.CaptureFixture[str]) -> None:
    cost = load_script("review_cost.py")
    assert cost.main(["--quick", "--games", "hokm(max_hands=1);gin(players=2,max_hands=1)", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["budget"] == 10
    assert [r["game"] for r in data["rows"]] == ["hokm(max_hands=1)", "gin(players=2,max_hands=1)"]
    assert all(r["decisions"] > 0 and r["cpu_s"] >= 0 for r in data["rows"])
