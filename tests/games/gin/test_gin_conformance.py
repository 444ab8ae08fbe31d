"""The conformance suite (tests/games/conformance.py) on three-hand and two-player gin with their options, and
gin's invariants: hand sizes by phase, a laid knock within the limit, one scorer per hand that is not void."""

from __future__ import annotations

from cardhall.core import State
from cardhall.games.gin.melds import deadwood_mask
from cardhall.games.gin.rules import GinState
from cardhall.registry import entry
from tests.games.conformance import ConformanceSuite


class TestGinConformance(ConformanceSuite):
    game_strings = list(entry("gin").conformance)  # (its entry, in its folder)
    quick_game_string = "gin(players=2,max_hands=2)"  # the shortest matches

    def check_invariants(self, state: State) -> None:
        assert isinstance(state, GinState)
        sizes = [h.bit_count() for h in state.hands]
        if state.advisor >= 0:
            assert sizes[state.advisor] == 0
        if state.phase in ("upcard", "draw"):
            assert sizes[state.dealer] == sizes[state.nondealer] == 10
        elif state.phase == "discard":
            assert sizes[state.current] == 11
            assert sizes[state._other(state.current)] == 10
        elif state.phase == "layoff":
            assert sizes[state.knocker] == 10
            assert state.knock_value == deadwood_mask(state.hands[state.knocker]) <= 10
        for row in state.score_sheet:
            scorers = [s for s, p in enumerate(row["points"]) if p]
            if row["result"] == "void":
                assert scorers == [] and row["winner"] is None
            else:
                # Exactly one player scores (the captain and advisor alike with team_scoring=both).
                assert set(scorers) <= {row["winner"], row.get("advisor")} and row["winner"] is not None
                if len(scorers) == 2:
                    assert "both" in str(state.game) and set(scorers) == {row["captain"], row["advisor"]}
        assert sum(state.hands_won) >= sum(1 for r in state.score_sheet if r["result"] != "void")
