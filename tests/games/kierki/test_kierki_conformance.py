"""The conformance suite (tests/games/conformance.py) on Kierki, its variants and short forms, and the
invariants: the score sheet's deals in order and adding up, negative deals negative, trump deals and the
lottery positive, a whole match zero-sum (-2600 against +2600)."""

from __future__ import annotations

from cardhall.core import State
from cardhall.games.kierki.rules import KierkiState
from cardhall.registry import entry
from tests.games.conformance import ConformanceSuite


class TestKierkiConformance(ConformanceSuite):
    game_strings = list(entry("kierki").conformance)  # (its entry, in its folder)
    quick_game_string = "kierki(first_deal=3,last_deal=4)"  # the shortest matches

    def check_invariants(self, state: State) -> None:
        assert isinstance(state, KierkiState)
        sheet = state.score_sheet
        assert [row["deal"] for row in sheet] == list(
            range(state.game.options["first_deal"], state.game.options["first_deal"] + len(sheet))
        )
        totals = [sum(row["points"][s] for row in sheet) for s in range(4)]
        assert totals == list(state.scores)
        for row in sheet:
            if row["deal"] <= 7:
                assert all(p <= 0 for p in row["points"])
            else:
                assert all(p >= 0 for p in row["points"])
        if state.is_over and state.game.options["first_deal"] == 1 and state.game.options["last_deal"] == 12:
            assert sum(state.scores) == 0
            assert sum(sum(row["points"]) for row in sheet[:7]) == -2600
            assert sum(sum(row["points"]) for row in sheet[7:]) == 2600
