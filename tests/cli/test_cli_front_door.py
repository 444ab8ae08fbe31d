"""The command line a newcomer meets after ``make run`` (issue 51): ``make run PORT=... HOST=...``, a busy
port said in one line, ``--version``, ``play --help`` listing the games and levels, ``normal`` opponents by
default, ``cardhall.rl`` without its extra, one seat numbering (from 1) in every command's options and
lines, and every table of the command line within 80 columns (COLUMNS=80, through rich)."""

from __future__ import annotations

import io
import json
import os
import re
import socket
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

import cardhall
from cardhall.cli import main
from cardhall.registry import game_classes
from cardhall.table import Table

ROOT = Path(cardhall.__file__).resolve().parent.parent.parent
SRC = ROOT / "src"


def cells(line: str) -> int:
    """The columns a terminal (xterm, tmux, VTE) gives a line."""
    return sum(
        0
        if unicodedata.category(ch) in ("Mn", "Me", "Cf")
        else 2
        if unicodedata.east_asian_width(ch) in "WF"
        else 1
        for ch in line
    )


def run(argv: list[str], capsys: pytest.CaptureFixture[str], stdin: str = "") -> tuple[int, str, str]:
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(argv)
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, out, err


def _env() -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path}


# --- make run, serve, --version ------------------------------------------------------------------------


@pytest.mark.process
def test_make_run_takes_a_port_and_a_host() -> None:
    def serve_line(*words: str, env: dict[str, str] | None = None) -> str:
        done = subprocess.run(
            ["make", "-n", "run", *words], cwd=ROOT, capture_output=True, text=True, check=True, env=env
        )
        return next(line for line in done.stdout.splitlines() if "cardhall serve" in line).strip()

    assert serve_line("PORT=8123", "HOST=0.0.0.0") == ".venv/bin/cardhall serve --host 0.0.0.0 --port 8123"
    assert serve_line("PORT=8001") == ".venv/bin/cardhall serve --port 8001"
    # A shell's own HOST (some export the machine's name) does not put the server on the network.
    assert serve_line(env={**os.environ, "HOST": "somewhere"}).rstrip() == ".venv/bin/cardhall serve"


HALL = [
    "--workers",
    "2",
    "--redis",
    "redis://127.0.0.1:1/0",
    "--db",
    "postgresql+asyncpg://u:p@127.0.0.1:1/h",
]


@pytest.mark.process
@pytest.mark.parametrize("options", [[], HALL], ids=["one process", "workers"])
def test_serve_on_a_busy_port_says_so_in_one_line(options: list[str], tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "cardhall", "serve", "--port", str(port), *options],
            cwd=tmp_path,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert done.returncode == 2
    assert "serving on" not in done.stdout and "Errno" not in done.stderr
    assert done.stderr == (
        f"cardhall serve: port {port} on 127.0.0.1 is taken (another server is listening there): choose "
        f"another with --port {port + 1} (make run PORT={port + 1})\n"
    )
    assert list(tmp_path.iterdir()) == []  # no database made for a server that never ran


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert re.fullmatch(r"cardhall \d+\.\d+\.\d+\S*\n", capsys.readouterr().out)


# --- play: its help, its opponents, and the rl extra --------------------------------------------------------


def test_play_help_lists_the_games_and_the_bot_levels(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = capsys.readouterr().out
    for name, cls in game_classes().items():
        assert re.search(rf"^  {name} +{re.escape(cls.title)}$", text, flags=re.M), name
    for level, bot in (("easy", "random"), ("normal", "rules"), ("hard", "search"), ("expert", "expert")):
        assert re.search(rf"^  {level} +the {re.escape(bot)}", text, flags=re.M), level
    assert "default normal" in text
    assert all(cells(line) <= 80 for line in text.splitlines())


def test_the_terminal_games_opponents_are_the_browsers_normal_bots(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(["play", "hokm", "--seed", "0"], capsys, stdin="quit\n")
    assert code == 0
    assert "you are seat 1; bots: seat 2 normal, seat 3 normal" in out


@pytest.mark.process
def test_importing_cardhall_rl_without_its_extra_names_the_extra() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import sys; sys.modules['numpy'] = None; import cardhall.rl"],
        env=_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ModuleNotFoundError: cardhall.rl needs its extra: pip install 'cardhall[rl]'")
    assert "numpy is not installed" in last


# --- one seat numbering, from 1 ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("seats") / "r.jsonl"
    table = Table("hokm(max_hands=1)", ["rules", "random", "rules"], seed=3, events=False).play()
    path.write_text(json.dumps(table.record()) + "\n", encoding="utf-8")
    return path


def test_seats_are_counted_from_1_in_every_command(records: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads(records.read_text())
    state = cardhall.replay(record)
    # replay: each action's seat, and the winners
    code, out, _ = run(["replay", str(records), "--verbose"], capsys)
    assert code == 0
    seat, action = record["actions"][0]
    assert out.splitlines()[0] == f"  seat {seat + 1}: {state.game.action_label(action)}"
    assert "seat 0" not in out
    winners = [w + 1 for w in state.winners]
    assert f"winners seat {winners[0]}" in out if len(winners) == 1 else "winners seats" in out
    # simulate: the table's seat column (its --json keeps the API's seats, from 0)
    code, out, _ = run(["simulate", "hokm(max_hands=1)", "--games", "1", "--quiet"], capsys)
    assert [line.split()[0] for line in out.splitlines()[3:6]] == ["1", "2", "3"]
    code, out, _ = run(["simulate", "hokm(max_hands=1)", "--games", "1", "--quiet", "--json"], capsys)
    assert [s["seat"] for s in json.loads(out)["seats"]] == [0, 1, 2]
    # review: --seat 2 is the second seat (engine seat 1, the random bot's here), named as such
    code, out, _ = run(["review", str(records), "--seat", "2", "--budget", "2", "--quiet"], capsys)
    assert code == 0 and out.startswith("Reviewing the play of seat 2: hokm(max_hands=1), seed 3, ")
    code, out, _ = run(["review", str(records), "--seat", "2", "--budget", "2", "--json"], capsys)
    assert json.loads(out)["seat"] == 1  # the JSON is the API's: from 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["review", "{file}", "--seat", "0"], "--seat 0: hokm(max_hands=1) has seats 1 to 3"),
        (["review", "{file}", "--seat", "4"], "--seat 4: hokm(max_hands=1) has seats 1 to 3"),
        (["play", "hokm", "--seat", "4"], "--seat 4: hokm has seats 1 to 3"),
    ],
)
def test_a_seat_not_at_the_table_is_refused_naming_the_seats(
    argv: list[str], message: str, records: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run([a.format(file=records) for a in argv], capsys)
    assert code == 2 and not out
    assert message in err and len(err.strip().splitlines()) == 1


# --- 80 columns ---------------------------------------------------------------------------------------------

ELLIPSIS = "…"


def narrow(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    code, out, err = run(argv, capsys)
    assert code == 0, err
    wide = [line for line in out.splitlines() if cells(line) > 80]
    assert not wide, f"{argv}: lines wider than 80 columns:\n" + "\n".join(wide)
    assert ELLIPSIS not in out, f"{argv}: a header or a number was cut:\n{out}"
    return out


def test_every_table_of_the_command_line_fits_80_columns(
    records: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")  # through rich, as a terminal of 80 columns sets it
    bots = "search(iterations=2),rules,random"
    out = narrow(capsys, ["simulate", "hokm(max_hands=1)", "--games", "2", "--bots", bots, "--quiet"])
    assert "search(iterations=2)" in out
    out = narrow(
        capsys, ["simulate", "hokm(max_hands=1)", "--games", "1", "--bots", bots, "--rotate", "--quiet"]
    )
    assert "margin" in out and "win rate" in out
    monkeypatch.chdir(records.parent)  # (a file name is never broken: a short one here)
    out = narrow(capsys, ["review", records.name, "--seat", "2", "--budget", "3", "--quiet"])
    for header in ("deal", "decisions", "good", "unclear", "accuracy", "left", "result"):
        assert re.search(rf"\b{header}\b", out), header
    # Every number of the per-deal table is whole (no "201…" for 201.9).
    rows = re.findall(
        r"^ ?1 +\d+ +\d+ +\d+ +\d+ +\d+ +\d+ +(\d+\.\d)% +(\d+\.\d) +([+-]\d+\.\d)$", out, flags=re.M
    )
    assert rows, out
    out = narrow(capsys, ["bench", "hokm(max_hands=1)", "--seconds", "0.05", "--rounds", "1"])
    assert "games/s" in out and "unchecked" in out
