"""Play one match to the end with a bot in every seat.

Each bot gets its own RNG derived from the match seed and its seat, so a match played with the same seed
and the same bots is the same match, whoever runs it and in whichever process.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cardhall.bots.base import Bot
from cardhall.core import Game, State, derived_rng

OnAction = Callable[[State, int, int], None]


def play_match(
    game: Game,
    bots: Sequence[Bot],
    seed: int,
    on_action: OnAction | None = None,
    max_actions: int = 10_000_000,
) -> State:
    """Play a match with ``bots[seat]`` in each seat; return the finished state."""
    if len(bots) != game.num_players:
        raise ValueError(f"{game}: {len(bots)} bots for {game.num_players} seats")
    state = game.new_game(seed=seed)
    rngs = [derived_rng(seed, "bot", seat) for seat in range(game.num_players)]
    for _ in range(max_actions):
        if state.is_over:
            return state
        # Simultaneous choices: each seat to act chooses in turn on its own observation.
        for seat in state.to_act:
            legal = state.legal_actions(seat)
            if not legal:
                continue
            action = bots[seat].act(state.observation(seat), legal, rngs[seat])
            state.apply(seat, action)
            if on_action is not None:
                on_action(state, seat, action)
            break
    raise RuntimeError(f"{game}: match seed={seed} did not end within {max_actions} actions")
