"""The conformance suite (tests/games/conformance.py) on Svara for 2 to 8 players with its options, and the
invariants: stacks never negative, chips conserved (stacks plus the pot), contributions never negative."""

from __future__ import annotations

from typing import Any

from cardhall.games.svara.rules import SvaraState
from cardhall.registry import entry
from tests.games.conformance import ConformanceSuite


class TestSvaraConformance(ConformanceSuite):
    past_deal_keys = ("deal_log",)
    game_strings = list(entry("svara").conformance)  # (its entry, in its folder)

    def check_invariants(self, state: Any) -> None:
        assert isinstance(state, SvaraState)
        game = state.game
        assert all(s >= 0 for s in state.scores)
        assert sum(state.scores) + state.pot_total == game.players * game.stack
        assert all(c >= 0 for c in state.contrib) and state.carried >= 0
