"""``cardhall new-game NAME --like hokm`` (:mod:`cardhall.cli.new_game`): the copy is written into a
temporary directory named in ``CARDHALL_GAMES`` (so this tree is never touched, as in a fresh clone with no
shared file edited), and then, in processes that find it there, it passes the conformance suite and its
golden playthroughs, plays from the command line, and plays a server's quick play to the end."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cardhall.cli import main
from cardhall.cli.new_game import new_game
from cardhall.errors import InvalidOptionError
from cardhall.registry import folder

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def duel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory of games holding ``duel``, a copy of hokm."""
    into = tmp_path_factory.mktemp("games")
    assert main(["new-game", "duel", "--like", "hokm", "--into", str(into)]) == 0
    return into


def run(into: Path, *argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CARDHALL_GAMES": str(into)}
    return subprocess.run(
        [sys.executable, *argv], cwd=ROOT, env=env, input=stdin, capture_output=True, text=True, timeout=600
    )


def test_the_copy_is_the_models_folder_under_the_new_name(duel: Path) -> None:
    copy, model = duel / "duel", Path(str(folder("hokm")))
    names = {p.relative_to(model).as_posix().replace("hokm", "duel") for p in model.rglob("*") if p.is_file()}
    names = {n for n in names if "__pycache__" not in n and not n.endswith((".so", ".pyc"))}
    assert {p.relative_to(copy).as_posix() for p in copy.rglob("*") if p.is_file()} == names
    init = (copy / "__init__.py").read_text("utf-8")
    assert "from cardhall.games.duel.rules import" in init and '"duel(max_hands=2)"' in init
    assert 'rules_bot="cardhall.bots.rules_hokm"' in init  # the model's pieces, until it has its own
    rules = (copy / "rules.py").read_text("utf-8")
    assert 'name = "duel"' in rules and 'name = "hokm"' not in rules
    assert "export const duel = " in (copy / "web.js").read_text("utf-8")
    assert '"game.duel.title": "Duel"' in (copy / "i18n.en.json").read_text("utf-8")
    assert "schema/duel.json" in (copy / "schema.json").read_text("utf-8")


def test_a_name_taken_or_not_a_name_is_refused(duel: Path) -> None:
    for name in ("hokm", "Duel", "x", "class", "two words"):
        with pytest.raises(InvalidOptionError):
            new_game(name, "hokm", duel)
    with pytest.raises(InvalidOptionError, match="exists"):
        new_game("duel", "hokm", duel)
    with pytest.raises(InvalidOptionError, match="unknown game"):
        new_game("trio", "chess", duel)


def test_the_copy_passes_the_conformance_suite_and_its_playthroughs(duel: Path) -> None:
    tests = ["tests/games/test_games_conformance.py", "tests/test_playthroughs.py"]
    done = run(duel, "-m", "pytest", "-p", "no:cacheprovider", "-m", "not slow", "-k", "duel", *tests)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert " passed" in done.stdout  # (and some ran: none selected is exit status 5)


def test_the_copy_plays_from_the_command_line(duel: Path) -> None:
    argv = ["-m", "cardhall", "play", "duel(max_hands=1)", "--seed", "2", "--bots", "random,random"]
    done = run(duel, *argv, "--delay", "0", stdin="1\n" * 40)
    assert done.returncode == 0 and "Match over" in done.stdout, done.stdout[-2000:] + done.stderr[-2000:]
    assert "duel" in run(duel, "-m", "cardhall", "games").stdout


def test_the_copy_plays_a_servers_quick_play(duel: Path) -> None:
    script = textwrap.dedent(
        """
        from tests.server_helpers import FAST, auth, new_player, play_to_the_end, server, session

        with server() as client:
            assert "duel" in [g["name"] for g in client.get("/api/games").json()["games"]]
            assert client.get("/static/games/duel.js").status_code == 200
            assert "game.duel.title" in client.get("/static/i18n/en.json").json()
            token = new_player(client)
            body = {"game": "duel(max_hands=1)", "settings": FAST}
            started = client.post("/api/quickplay", json=body, headers=auth(token))
            assert started.status_code == 201, started.json()
            table = started.json()["table"]
            with session(client, token) as s:
                s.send(type="join", table=table)
                last = play_to_the_end(s, table, s.until("table"))
            assert last["events"][-1]["type"] == "match_over"
        print("played")
        """
    )
    done = run(duel, "-c", script)
    assert done.returncode == 0 and "played" in done.stdout, done.stdout[-2000:] + done.stderr[-3000:]
