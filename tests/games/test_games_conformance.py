"""The conformance suite (tests/games/conformance.py) on every registered game that has no test file of
its own (``tests/games/<name>/test_<name>_conformance.py``, which adds the game's invariants): one
class per game, on its entry's ``conformance`` game strings. A game written with ``cardhall new-game``
is checked here from its first minute, before anyone writes a test for it."""

from __future__ import annotations

from pathlib import Path

from cardhall.registry import entries
from tests.games.conformance import ConformanceSuite

TESTS = Path(__file__).resolve().parent


def without_own_suite() -> dict[str, list[str]]:
    """The conformance game strings of every registered game that has no conformance test file."""
    return {
        name: list(entry.conformance)
        for name, entry in entries().items()
        if not (TESTS / name / f"test_{name}_conformance.py").exists()
    }


for _name, _strings in without_own_suite().items():
    _cls = type(f"Test{_name.title()}Conformance", (ConformanceSuite,), {"game_strings": _strings})
    globals()[_cls.__name__] = _cls


def test_every_game_runs_the_conformance_suite() -> None:
    # Each registered game here or in its own file, on at least one game string of its own.
    for name, entry in entries().items():
        assert entry.conformance, f"{name} names no conformance game strings"
        assert all(g.split("(")[0] == name for g in entry.conformance), name
