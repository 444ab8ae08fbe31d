"""The conformance suite (tests/games/conformance.py) on Cancellation Hearts (6 to 11 players) and one-deck
Hearts with their options, and the invariants: every point card in the hand's zones, hand sizes in play,
a hand's points plus the uncollected ones adding up, the lowest total winning."""

from __future__ import annotations

import cardhall
from cardhall.core import State
from cardhall.games.hearts.rules import HeartsState, points_of
from cardhall.registry import entry
from tests.games.conformance import ConformanceSuite


class TestHeartsConformance(ConformanceSuite):
    game_strings = list(entry("hearts").conformance)  # (its entry, in its folder)

    def check_invariants(self, state: State) -> None:
        assert isinstance(state, HeartsState)
        game = state.game
        # Points of the hand in play: every point card is somewhere in this hand's zones.
        zones = state.zones()
        total = sum(points_of(1 << c) for cards in zones.values() for c in cards)
        assert total == game.total_points
        if state.phase == "play":
            sizes = [h.bit_count() for h in state.hands]
            played = {s for s, _ in state.trick}
            base = game.hand_size - len(state.tricks)
            assert all(sizes[s] == base - (s in played) for s in range(game.players))
        for row in state.score_sheet:
            if row["moon"] is None:
                assert sum(row["points"]) + row["uncollected"] == game.total_points
                assert row["deltas"] == row["points"]
        if state.is_over:
            low = min(state.scores)
            assert state.winners == tuple(s for s, v in enumerate(state.scores) if v == low)
            assert cardhall.load_game(str(game)) == game
