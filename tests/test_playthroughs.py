"""The golden playthroughs (each game's folder's ``playthroughs/``, written by
``tests/playthroughs/regenerate.py``): each seeded match, played again by the engine as it is now, must give
its file's text exactly (a changed rule shows as a readable diff: regenerate with ``python
tests/playthroughs/regenerate.py`` when the change is meant, and review it); every game has one, and each
names every option of its game, so a changed default never changes a playthrough."""

from __future__ import annotations

import difflib
import re

import pytest

import cardhall
from cardhall.registry import game_classes
from tests.playthroughs.regenerate import PLAYTHROUGHS, Playthrough, render, stored_files

DIFF_LINES = 80


@pytest.mark.parametrize("spec", PLAYTHROUGHS, ids=[p.name for p in PLAYTHROUGHS])
def test_the_engine_plays_the_playthrough_again(spec: Playthrough) -> None:
    assert spec.path.exists(), f"{spec.path.name} is missing: run python tests/playthroughs/regenerate.py"
    stored = spec.path.read_text(encoding="utf-8")
    now = render(spec)
    if now != stored:
        diff = list(
            difflib.unified_diff(
                stored.splitlines(),
                now.splitlines(),
                f"stored {spec.path.name}",
                "the engine now",
                n=2,
                lineterm="",
            )
        )
        shown = "\n".join(line[:300] for line in diff[:DIFF_LINES])
        more = f"\n... ({len(diff) - DIFF_LINES} more diff lines)" if len(diff) > DIFF_LINES else ""
        pytest.fail(
            f"{spec.name}: the engine no longer plays this match as recorded. If the change is meant, run\n"
            f"    python tests/playthroughs/regenerate.py\nand review the diff of {spec.path.name}.\n"
            f"{shown}{more}",
            pytrace=False,
        )


def test_every_game_has_a_playthrough_and_every_file_a_spec() -> None:
    assert {cardhall.load_game(p.game).name for p in PLAYTHROUGHS} == set(game_classes())
    assert len({p.name for p in PLAYTHROUGHS}) == len(PLAYTHROUGHS)
    assert sorted(stored_files()) == sorted(p.path for p in PLAYTHROUGHS)


@pytest.mark.parametrize("spec", PLAYTHROUGHS, ids=[p.name for p in PLAYTHROUGHS])
def test_a_playthrough_names_every_option_of_its_game(spec: Playthrough) -> None:
    game = cardhall.load_game(spec.game)
    named = re.findall(r"(\w+)=", spec.game)
    assert sorted(named) == sorted(o.name for o in game.option_spec), (
        f"{spec.name}: name every option of {game.name} (a new option or default must not change the file "
        "unseen); then regenerate"
    )
