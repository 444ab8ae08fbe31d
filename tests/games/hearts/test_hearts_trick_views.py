"""Hearts builds each finished trick's entry of an observation once and shares it with the observations
that follow (cardhall.games.hearts.rules, ``_trick_views``): what every observation shows must stay what a
state observed for the first time shows, through every trick, every new hand and every copy, in both
forms, in one-deck and two-deck Hearts."""

from __future__ import annotations

import random

import pytest

from cardhall.registry import load_game
from cardhall.table import Table


@pytest.mark.parametrize("game", ["hearts(decks=1,players=4)", "hearts"])
def test_each_observation_shows_what_a_fresh_copy_of_the_state_shows(game: str) -> None:
    table = Table(load_game(game), seed=11)
    rng = random.Random(5)
    state = table.state
    players = table.game.num_players
    hands_seen = set()
    for step in range(2_000):
        if state.is_over:
            break
        hands_seen.add(state.observation(None)["hand_number"])
        seat = step % players
        for ints in (False, True):
            seen = state.observation(seat, ints=ints)
            assert seen == state.clone().observation(seat, ints=ints)  # (a copy builds its own)
            seen["tricks"].append("scribbled")  # (the list is the caller's: the next one is new)
        mover = state.to_act[0]
        table.apply(mover, rng.choice(table.legal_actions(mover)))
    assert len(hands_seen) >= 2  # (the entries of one hand never show in the next)
