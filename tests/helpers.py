"""Helpers shared by the bot tests: states of seeded random play, and a bot's choice as a label."""

from __future__ import annotations

import random

import cardhall
from cardhall.bots import make_bot
from cardhall.core import State


def random_states(game_string: str, seeds: range) -> list[State]:
    """Every state (as a copy) of one seeded random match per seed, the final one included."""
    game = cardhall.load_game(game_string)
    out = []
    for seed in seeds:
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while True:
            out.append(state.clone())
            if state.is_over:
                break
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    return out


def bot_label(state: State, spec: str = "rules", seed: int = 0) -> str:
    """The label of the action the bot ``spec`` chooses for the first seat to act (checked legal)."""
    seat = state.to_act[0]
    bot = make_bot(spec, state.game)
    action = bot.act(state.observation(seat, ints=True), state.legal_actions(seat), random.Random(seed))
    assert action in state.legal_actions(seat)
    return state.game.action_label(action)
