"""Gin bots: deals_finished, Gin.sample_state, the gin rules bot and the search bot on gin."""

from __future__ import annotations

import random

import cardhall
from cardhall.games.gin import GinState


def test_deals_finished_counts_hands_void_ones_included() -> None:
    game = cardhall.load_game("gin(players=2,max_hands=3)")
    state = game.new_game(seed=1)
    assert isinstance(state, GinState)
    rng = random.Random(1)
    seen = [state.deals_finished]
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        before = state.deals_finished
        state.apply(seat, legal[rng.randrange(len(legal))])
        assert state.deals_finished in (before, before + 1)
        assert state.deals_finished == len(state.score_sheet)
        seen.append(state.deals_finished)
    assert seen[0] == 0 and seen[-1] == 3
