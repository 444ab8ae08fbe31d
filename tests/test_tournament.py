"""Tournaments: duplicate deals with seats rotated, per-bot results, the ``--rotate`` command line."""

from __future__ import annotations

import io
import json
import sys
from collections import Counter

import pytest

from cardhall.cli import main
from cardhall.sim.simulate import rotated, simulate

BOTS = ["rules", "random", "random"]


def test_rotation_moves_the_bots_round_the_table() -> None:
    assert rotated(["a", "b", "c"], 0) == ("a", "b", "c")
    assert rotated(["a", "b", "c"], 1) == ("c", "a", "b")
    assert rotated(["a", "b", "c"], 2) == ("b", "c", "a")


def test_every_seed_is_played_once_per_rotation() -> None:
    report = simulate("hokm(max_hands=1)", BOTS, 4, seed=10, rotate=True)
    assert len(report.results) == 12
    assert Counter(r.seed for r in report.results) == {10: 3, 11: 3, 12: 3, 13: 3}
    for seed in range(10, 14):
        tables = [r.seats for r in report.results if r.seed == seed]
        assert sorted(t.index("rules") for t in tables) == [0, 1, 2]  # rules holds every seat once


def test_duplicate_deals_are_the_same_deals() -> None:
    report = simulate("hokm(max_hands=1)", ["random"] * 3, 2, seed=5, rotate=True)
    by_seed: dict[int, list[float]] = {}
    for r in report.results:
        by_seed.setdefault(r.seed, []).append(r.actions)
    # Same bots in every seat and same per-seat RNGs: the rotations replay the same match exactly.
    assert all(len(set(v)) == 1 for v in by_seed.values())


def test_per_bot_results_aggregate_every_seat_held() -> None:
    report = simulate("hokm(max_hands=1)", BOTS, 6, rotate=True)
    summary = report.summary()
    assert summary["games"] == 18 and summary["seeds"] == 6 and summary["rotate"]
    assert [s["bot"] for s in summary["seats"]] == ["rotated"] * 3
    rules, rand = summary["by_bot"]
    assert (rules["bot"], rules["seats_played"]) == ("rules", 18)
    assert (rand["bot"], rand["seats_played"]) == ("random", 36)
    assert rules["wins"] + rand["wins"] == pytest.approx(18)
    assert rules["win_rate"]["value"] == pytest.approx(rules["wins"] / 18)
    scores = [r.scores[r.seats.index("rules")] for r in report.results]
    assert rules["mean_score"]["value"] == pytest.approx(sum(scores) / 18)
    assert rules["margin"]["value"] == pytest.approx(-rand["margin"]["value"])
    assert rules["margin"]["value"] > 0


def test_without_rotation_the_seat_table_is_as_before() -> None:
    summary = simulate("hokm(max_hands=1)", BOTS, 3).summary()
    assert summary["games"] == 3 and not summary["rotate"]
    assert [s["bot"] for s in summary["seats"]] == BOTS
    assert summary["by_bot"][0]["seats_played"] == 3


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    old = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        code = main(argv)
    finally:
        sys.stdin = old
    return code, capsys.readouterr().out


@pytest.mark.process
def test_cli_rotate_reports_per_bot(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["simulate", "hokm(max_hands=1)", "--games", "4", "--bots", "rules,random,random", "--rotate"]
    code, out = run([*base, "--json", "--quiet"], capsys)
    assert code == 0
    report = json.loads(out)
    assert report["games"] == 12 and [b["bot"] for b in report["by_bot"]] == ["rules", "random"]
    code2, out2 = run([*base, "--json", "--quiet", "--jobs", "2"], capsys)
    assert code2 == 0 and json.loads(out2) == report
    code3, text = run([*base, "--quiet"], capsys)
    assert code3 == 0
    assert "per bot" in text and "margin" in text and "rotated" in text
