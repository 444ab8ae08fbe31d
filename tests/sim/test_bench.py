"""The bench command, the peer benchmark script, and Hokm's fast paths (which must not change the game).

No test asserts a timing: only that the numbers are there, positive and well-formed.
"""

from __future__ import annotations

import argparse
import json
import random
import warnings
from pathlib import Path
from types import ModuleType

import pytest
from rich.console import Console

import cardhall
from cardhall.cards import cards_of, mask_of
from cardhall.errors import CardhallError
from cardhall.games._deal import shuffle_deck
from cardhall.games.hokm.rules import DECK, hand_cards
from cardhall.sim.bench import (
    OPERATIONS,
    add_bench_parser,
    clone_bytes,
    cmd_bench,
    deep_size,
    default_game_strings,
    random_playouts,
    sample_states,
)
from tests.benchmark_scripts import load_script
from tests.games.conformance import fingerprint
from tests.helpers import playing

ROOT = Path(__file__).resolve().parents[2]


def bench_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_bench_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(["bench", *argv])


def run_bench(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = cmd_bench(bench_args(*argv), Console(highlight=False, width=250))
    return code, capsys.readouterr().out


def test_bench_json_reports_positive_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_bench(capsys, "hokm(max_hands=1)", "--seconds", "0.2", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["seconds"] == 0.2 and report["machine"]["python"]
    (result,) = report["results"]
    assert result["game"] == "hokm(max_hands=1)"
    assert result["games"] >= 1 and result["actions"] > result["games"]
    for key in ("games_per_second", "actions_per_second", "actions_per_game", "state_bytes", "clone_bytes"):
        assert result[key] > 0, key
    assert set(result["ns_per_call"]) == set(OPERATIONS)
    assert all(v > 0 for v in result["ns_per_call"].values())
    # A Hokm hand is 3 bids, a trump and 30 plays.
    assert result["actions"] % 34 == 0 or result["actions_per_game"] == 34


def test_bench_rounds_and_the_python_loop_figure(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_bench(capsys, "kierki(last_deal=1)", "--seconds", "0.1", "--rounds", "2", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["rounds"] == 2 and report["engine"] in ("compiled", "pure Python")
    (result,) = report["results"]
    assert result["python_loop_actions_per_second"] > 0 and result["actions_per_second"] > 0


def test_bench_table_names_each_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_bench(
        capsys, "hokm(max_hands=1)", "hokm(max_hands=1,bidding=auction)", "--seconds", "0.05"
    )
    assert code == 0
    assert "hokm(max_hands=1)" in out and "bidding=auction" in out and "games/s" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["nosuchgame", "--seconds", "0.1"], "unknown game 'nosuchgame'"),
        (["hokm(bidding=shout)", "--seconds", "0.1"], "shout"),
        (["hokm", "--seconds", "0"], "--seconds must be positive"),
        (["hokm", "--rounds", "0"], "--rounds must be at least 1"),
    ],
)
def test_bench_refuses_bad_input(argv: list[str], message: str) -> None:
    with pytest.raises(CardhallError, match=message):
        cmd_bench(bench_args(*argv), Console())


def test_bench_through_the_cli_when_wired(capsys: pytest.CaptureFixture[str]) -> None:
    from cardhall import cli

    if "bench" not in cli.COMMANDS:
        pytest.skip("cardhall bench is not wired into cli.py yet")
    code = cli.main(["bench", "hokm(max_hands=1)", "--seconds", "0.05", "--json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["results"][0]["games"] >= 1


def test_default_game_strings_load() -> None:
    strings = default_game_strings()
    assert "hokm(max_hands=5)" in strings
    for text in strings:
        cardhall.load_game(text)


def test_playouts_and_sizes() -> None:
    game = cardhall.load_game("hokm(max_hands=2)")
    result = random_playouts(game, 0.05)
    assert result.games >= 1 and result.actions >= 68 * result.games
    states = sample_states(game, 5)
    assert len(states) == 5 and not any(s.is_over for s in states)
    assert deep_size(states[0]) > 500
    assert clone_bytes(states[0]) > 0


# --- Hokm's fast paths give the same game ------------------------------------------------------------


def test_hokm_shuffle_draws_what_random_shuffle_draws() -> None:
    for seed in range(200):
        ours, theirs = list(DECK), list(DECK)
        shuffle_deck(ours, random.Random(seed))
        random.Random(seed).shuffle(theirs)
        assert ours == theirs


def test_hokm_hand_cards_is_cards_of() -> None:
    rng = random.Random(3)
    for _ in range(500):
        mask = mask_of(rng.sample(DECK, rng.randrange(len(DECK) + 1)))
        assert hand_cards(mask) == cards_of(mask)


@pytest.mark.parametrize(
    "game_string",
    ["hokm(max_hands=2)", "hokm(max_hands=2,must_trump_when_void=true,must_overtrump=true,bidding=auction)"],
)
def test_hokm_unchecked_and_checked_play_agree(game_string: str) -> None:
    game = cardhall.load_game(game_string)
    for seed in range(3):
        fast, slow = game.new_game(seed=seed), game.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in playing(fast):
            seat = fast.to_act[0]
            legal = fast.legal_actions(seat)
            assert legal == slow.legal_actions(seat)
            action = rng.choice(legal)
            fast.apply_unchecked(seat, action)
            slow.apply(seat, action)
        assert fingerprint(fast) == fingerprint(slow)
        assert fingerprint(cardhall.replay(fast.record())) == fingerprint(fast)


# --- the peer benchmark script ---------------------------------------------------------------------


def load_peers(script: str = "peers.py") -> ModuleType:
    return load_script(script)


@pytest.mark.slow
def test_peers_script_runs(capsys: pytest.CaptureFixture[str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the peers' own deprecation warnings are not ours
        pytest.importorskip("pyspiel")
        pytest.importorskip("rlcard")
        peers = load_peers()
        assert peers.main(["--seconds", "0.2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    engines = {r["engine"]: r for r in report["results"]}
    for peer in ("openspiel:hearts", "openspiel:gin_rummy", "rlcard:gin-rummy"):
        assert engines[peer]["available"], engines[peer]["note"]
        assert engines[peer]["games"] >= 1 and engines[peer]["games_per_second"] > 0
    assert len(report["ratios"]) == 3
    for row in report["ratios"]:
        ours = engines[row["ours"]]
        assert (row["ratio"] is None) == (not ours["available"])
        if row["ratio"] is not None:
            assert row["ratio"] > 0


def test_peers_script_reports_a_missing_game() -> None:
    peers = load_peers()
    assert peers.cardhall_engine("nosuchgame(players=2)").startswith("not available")
    missing = peers.Measure("x", False, note="not available")
    rows = peers.ratios(
        {
            peers.OURS_HEARTS: missing,
            "openspiel:hearts": peers.Measure("openspiel:hearts", True, 10, 600, 1.0),
            peers.OURS_GIN: peers.Measure(peers.OURS_GIN, True, 20, 2000, 1.0),
            "openspiel:gin_rummy": peers.Measure("openspiel:gin_rummy", True, 5, 500, 1.0),
            "rlcard:gin-rummy": peers.Measure("rlcard:gin-rummy", True, 1, 100, 1.0),
        }
    )
    assert rows[0]["ratio"] is None
    assert rows[1]["ratio"] == 4.0 and rows[1]["meets_target"]
    assert rows[2]["ratio"] == 20.0 and rows[2]["meets_target"]


def test_search_speed_script_counts_the_search(capsys: pytest.CaptureFixture[str]) -> None:
    speed = load_peers("search_speed.py")
    m = speed.measure("hokm(max_hands=1)", ms=5, decisions=3)
    assert m["decisions"] == 3
    assert (
        m["determinizations_per_second"] > 0 and m["rollouts_per_second"] >= m["determinizations_per_second"]
    )
    assert m["rollout_actions_per_second"] > m["rollouts_per_second"]


def test_gin_decisions_script_values_overrides_with_the_true_cards() -> None:
    """The rules bot never overrides itself (every hand sums to exactly zero); the random bot overrides
    nearly every decision and, valued on the true cards, loses by it."""
    decisions = load_peers("gin_decisions.py")
    same = decisions.run("rules", range(2), shuffles=2, search_all=False)
    assert same["hands"] == 4
    assert all(row["overrides"] == 0 for row in same["by_kind"].values())
    assert same["summed_gain_per_hand"]["mean"] == 0
    worse = decisions.run("random", range(3), shuffles=4, search_all=False)
    overrides = sum(row["overrides"] for row in worse["by_kind"].values())
    assert overrides > sum(row["decisions"] for row in worse["by_kind"].values()) / 2
    assert worse["summed_gain_per_hand"]["high"] < 0


def test_gin_decisions_script_can_search_every_decision_again() -> None:
    decisions = load_peers("gin_decisions.py")
    game = cardhall.load_game("gin(players=2,max_hands=1)")
    bot = cardhall.make_bot("search(iterations=2)", game)
    decisions.search_everything(bot)
    state = game.new_game(seed=1)
    seat = state.to_act[0]
    legal = state.legal_actions(seat)  # take the up-card or pass: searched again
    assert bot.candidates(game, state.observation(seat, ints=True), legal) == legal  # type: ignore[attr-defined]
