"""The command line: games, play (scripted input), simulate (JSON, records, jobs) and replay."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import cardhall
from cardhall.cli import COMMANDS, main
from cardhall.cli.simulate import max_jobs


def run(argv: list[str], capsys: pytest.CaptureFixture[str], stdin: str = "") -> tuple[int, str, str]:
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(argv)
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_every_game_with_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["games"], capsys)
    assert code == 0
    for name, cls in cardhall.game_classes().items():
        assert name in out
        for opt in cls.option_spec:
            assert opt.name in out


def test_simulate_json_reports_every_seat(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["simulate", "hokm(max_hands=2)", "--games", "6", "--seed", "3", "--json", "--quiet"], capsys
    )
    assert code == 0
    report = json.loads(out)
    assert report["games"] == 6 and report["game"] == "hokm(max_hands=2)"
    assert [s["seat"] for s in report["seats"]] == [0, 1, 2]
    assert sum(s["wins"] for s in report["seats"]) == pytest.approx(6)
    for seat in report["seats"]:
        m = seat["mean_score"]
        assert m["low"] <= m["value"] <= m["high"]


@pytest.mark.process
def test_simulate_is_the_same_with_several_jobs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    base = ["simulate", "hokm(max_hands=1)", "--games", "8", "--json", "--quiet"]
    code1, out1, _ = run([*base, "--records", str(one)], capsys)
    code2, out2, _ = run([*base, "--jobs", "2", "--records", str(two)], capsys)
    assert code1 == code2 == 0
    assert json.loads(out1) == json.loads(out2)
    assert one.read_text() == two.read_text()
    records = [json.loads(line) for line in one.read_text().splitlines()]
    assert len(records) == 8 and all(cardhall.replay(r).is_over for r in records)


def test_bots_are_named_by_level_too(capsys: pytest.CaptureFixture[str]) -> None:
    bots = "easy,normal,random"
    argv = ["simulate", "hokm(max_hands=1)", "--games", "2", "--bots", bots, "--json", "--quiet"]
    code, out, _ = run(argv, capsys)
    assert code == 0
    assert [s["bot"] for s in json.loads(out)["seats"]] == ["easy", "normal", "random"]
    # play seats its bots through the Table, which reads levels too (its screens are not this test's)
    code, _, err = run(["play", "hokm", "--seed", "0", "--bots", "easy,hard"], capsys, stdin="quit\n")
    assert code == 0 and not err
    code, _, err = run(["play", "hokm", "--bots", "hard(ms=5)"], capsys, stdin="quit\n")
    assert code == 2 and "level 'hard' takes no options" in err


def test_replay_reads_records_back(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    run(["simulate", "hokm(max_hands=1)", "--games", "3", "--records", str(path), "--quiet"], capsys)
    code, out, _ = run(["replay", str(path)], capsys)
    assert code == 0
    assert out.count("over") == 3
    lines = path.read_text().splitlines()
    broken = json.loads(lines[0])
    broken["actions"][5][1] = 999
    path.write_text(json.dumps(broken) + "\n")
    code, out, _ = run(["replay", str(path)], capsys)
    assert code == 1 and "record action 5" in out


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["simulate", "hokm(target=-1)", "--games", "1"], "at least 1"),
        (["simulate", "hokm", "--games", "1", "--bots", "genius"], "unknown bot 'genius'"),
        (["simulate", "hokm", "--games", "1", "--bots", "random,random"], "2 bots"),
        (["simulate", "hokm", "--games", "1", "--bots", "rules,,random"], "a bot name is missing"),
        (["play", "nosuchgame"], "unknown game"),
        (["play", "hokm", "--seat", "4"], "--seat 4: hokm has seats 1 to 3"),
        (["play", "hokm", "--seat", "0"], "--seat 0: hokm has seats 1 to 3"),
        (["simulate", "hokm", "--games", "1", "--jobs", "0"], f"--jobs must be 1..{max_jobs()}"),
        (["simulate", "hokm", "--games", "1", "--jobs", "-2"], f"--jobs must be 1..{max_jobs()}"),
        (["simulate", "hokm", "--games", "1", "--jobs", str(max_jobs() + 1)], "--jobs must be 1.."),
        (["simulate", "hokm", "--games", "1", "--seed", "-1"], "seeds -1..-1, which must lie in 0..2**63-1"),
        (["simulate", "hokm", "--games", "2", "--seed", str(2**63 - 1)], "must lie in 0..2**63-1"),
    ],
)
def test_bad_input_is_refused_clearly(
    argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2
    assert fragment in err
    assert err.count("\n") == 1 and not out  # one line, and nothing played


def test_jobs_100_is_refused_here(capsys: pytest.CaptureFixture[str]) -> None:
    if max_jobs() >= 100:
        pytest.skip(f"this machine takes --jobs up to {max_jobs()}")
    code, _, err = run(["simulate", "hokm", "--games", "1", "--jobs", "100"], capsys)
    assert code == 2 and "got 100" in err


@pytest.mark.parametrize(
    ("where", "fragment"),
    [
        ("missing/out.jsonl", "folder '{tmp}/missing' does not exist"),
        (".", "that is a folder; give a file name in it"),
    ],
)
def test_records_that_cannot_be_written_are_refused_before_playing(
    where: str, fragment: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / where
    argv = ["simulate", "hokm(max_hands=1)", "--games", "2", "--quiet", "--records", str(target)]
    code, out, err = run(argv, capsys)
    assert code == 2 and not out
    assert err.count("\n") == 1 and fragment.format(tmp=tmp_path) in err
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_a_file_error_is_one_line_naming_the_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What the checks cannot foresee (a disk full, a file that vanished) still ends in one line.
    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied", str(tmp_path / "x.jsonl"))

    monkeypatch.setattr("cardhall.cli.simulate.simulate", refuse)
    target = tmp_path / "x.jsonl"
    argv = ["simulate", "hokm(max_hands=1)", "--games", "1", "--quiet", "--records", str(target)]
    code, _, err = run(argv, capsys)
    assert code == 2
    assert err == f"cardhall simulate: {target}: Permission denied\n"


def test_play_explains_a_wrong_input_and_asks_again(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["play", "hokm", "--seat", "1", "--seed", "0", "--bots", "random"],
        capsys,
        stdin="99\nbid 11\nplay AS\n1\nquit\n",
    )
    assert code == 0
    assert "99 is not in the list" in out
    assert "cannot read action 'bid 11'" in out
    assert "'play AS' is not legal now: you may not 'play AS' now" in out  # not "seat 0 may not"
    assert "you are seat 1" in out.lower()  # the first seat, counted from 1 as the page counts it
    assert "Your hand:" in out
    assert "Left the table (you were seat 1)" in out


@pytest.mark.slow
def test_play_to_the_end_with_labels_only(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Answer every prompt with the first legal action number until the match ends.
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))  # where the finished match is kept
    code, out, _ = run(
        ["play", "hokm(max_hands=1)", "--seed", "2", "--bots", "random,random"],
        capsys,
        stdin="1\n" * 40,
    )
    assert code == 0
    assert "Match over" in out
    [kept] = tmp_path.iterdir()
    assert f"  cardhall review {kept}\n" in out


def test_play_leaves_cleanly_on_end_of_input(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", "hokm", "--seed", "0"], capsys, stdin="")
    assert code == 0 and "Left the table" in out


def _help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


def test_help_lists_every_command_in_plain_text(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # argparse wraps at the terminal's width: no wrapping here
    top = _help([], capsys)
    listed = re.findall(r"^    ([\w-]+) +(\S.*)$", top, flags=re.M)
    assert [name for name, _ in listed] == list(COMMANDS)  # each on one line, with what it does
    assert "`" not in top
    for name, line in listed:
        text = _help([name], capsys)
        assert text.startswith(f"usage: cardhall {name}")
        assert f"\n\n{line}\n" in text  # its --help starts with the same line
        assert "`" not in text, f"cardhall {name} --help has reStructuredText in it"


@pytest.mark.process
def test_python_dash_m_runs_the_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cardhall", "games"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and "hokm" in done.stdout


@pytest.mark.slow
def test_play_hearts_never_shows_another_seats_pass(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["play", "hearts(decks=1,players=4,max_hands=1)", "--seed", "3", "--bots", "rules"],
        capsys,
        stdin="1\n" * 5 + "quit\n",
    )
    assert code == 0
    passes = [line for line in out.splitlines() if "(rules): pass" in line]
    assert len(passes) == 9  # three bots, three cards each: that they passed, never what
    assert all(line.endswith(": pass") for line in passes)
