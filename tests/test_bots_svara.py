"""Svara bots: ``sample_state``, the rules bot's habits, and the search bot on Svara."""

from __future__ import annotations

import random

import pytest

import cardhall
from cardhall.core import State
from cardhall.games.svara import SvaraState

VARIANTS = [
    "svara(players=2,max_deals=3,stack=200)",
    "svara(players=3,max_deals=3,stack=300,svara_fee=half_pot,joker=substitute)",
    "svara(players=3,max_deals=3,stack=100,ante=5,min_blind=2,svara_join=none)",
    "svara(players=6,max_deals=2,stack=100)",
]


def random_states(game_string: str, seeds: range) -> list[State]:
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


# --- sample_state ----------------------------------------------------------------------------------


@pytest.mark.parametrize("game_string", VARIANTS)
def test_sampled_state_has_the_same_observation_and_plays_on(game_string: str) -> None:
    game = cardhall.load_game(game_string)
    rng = random.Random(7)
    states = random_states(game_string, range(12))
    for i, state in enumerate(states):
        for seat in range(game.num_players):
            obs = state.observation(seat)
            sampled = game.sample_state(obs, rng)
            assert sampled.observation(seat) == obs
            assert sorted(c for cards in sampled.zones().values() for c in cards) == sorted(game.deck())
        if i % 5 == 0 and not state.is_over:
            sampled = game.sample_state(state.observation(state.to_act[0]), rng)
            while not sampled.is_over:
                seat = sampled.to_act[0]
                sampled.apply(seat, rng.choice(sampled.legal_actions(seat)))
            assert sum(sampled.scores) == game.num_players * game.option("stack")


def test_sampled_state_deals_hidden_cards_anew_but_keeps_what_the_seat_saw() -> None:
    game = cardhall.load_game("svara(players=4,max_deals=5)")
    states = [s for s in random_states(str(game), range(30)) if isinstance(s, SvaraState)]
    rng = random.Random(1)
    differs = 0
    checked_showdown = False
    for state in states:
        if state.is_over:
            continue
        seat = state.to_act[0]
        sampled = game.sample_state(state.observation(seat), rng)
        assert isinstance(sampled, SvaraState)
        if state.looked and state.hands[seat]:
            assert sampled.hands[seat] == state.hands[seat]
        for s, _ in state.shown:
            assert sampled.hands[s] == state.hands[s]
            checked_showdown = True
        others = [s for s in range(4) if s != seat and state.hands[s] and s not in dict(state.shown)]
        differs += any(sampled.hands[s] != state.hands[s] for s in others)
        assert sampled.seed != state.seed
        assert sampled.history == []
    assert checked_showdown
    assert differs > len(states) // 2


def test_sample_state_refuses_a_spectator_view() -> None:
    game = cardhall.load_game("svara")
    with pytest.raises(ValueError, match="one seat"):
        game.sample_state(game.new_game(seed=1).observation(None), random.Random(0))
