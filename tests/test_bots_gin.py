"""Gin bots: deals_finished, Gin.sample_state, the gin rules bot and the search bot on gin."""

from __future__ import annotations

import random

import pytest

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


VARIANTS = [
    "gin(players=2,max_hands=2)",
    "gin(max_hands=2)",
    "gin(max_hands=2,allow_same_discard=true,team_scoring=both)",
]


def random_states(game_string: str, seeds: range, every: int = 3) -> list[GinState]:
    """States along random matches (one in ``every``, and every state in the lay-off phase)."""
    game = cardhall.load_game(game_string)
    out: list[GinState] = []
    for seed in seeds:
        state = game.new_game(seed=seed)
        assert isinstance(state, GinState)
        rng = random.Random(seed)
        step = 0
        while True:
            if step % every == 0 or state.phase in ("layoff", "over"):
                out.append(state.clone())
            if state.is_over:
                break
            seat = state.to_act[rng.randrange(len(state.to_act))]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
            step += 1
    return out


def play_out(state: GinState, rng: random.Random) -> None:
    while not state.is_over:
        seat = state.to_act[rng.randrange(len(state.to_act))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("game_string", VARIANTS)
def test_sample_state_keeps_the_observation_of_every_seat(game_string: str) -> None:
    game = cardhall.load_game(game_string)
    rng = random.Random(7)
    states = random_states(game_string, range(6))
    phases = {s.phase for s in states}
    assert {"upcard", "draw", "discard", "over"} <= phases
    for i, state in enumerate(states):
        for seat in range(game.num_players):
            obs = state.observation(seat)
            sampled = game.sample_state(obs, rng)
            assert isinstance(sampled, GinState)
            assert sampled.observation(seat) == obs
            cards = [c for zone in sampled.zones().values() for c in zone]
            assert sorted(cards) == sorted(set(cards)) == list(range(52))
            assert sampled.history == [] and sampled.seed != state.seed
            if i % 10 == seat:
                play_out(sampled, random.Random(i))
                assert sampled.winners


def test_sample_state_in_the_lay_off_phase() -> None:
    states = [
        s for s in random_states("gin(players=2,max_hands=3)", range(40), every=50) if s.phase == "layoff"
    ]
    assert states
    game = states[0].game
    for state in states:
        seat = state.current
        obs = state.observation(seat)
        sampled = game.sample_state(obs, random.Random(0))
        assert sampled.observation(seat) == obs
        assert sampled.legal_actions(seat) == state.legal_actions(seat)
        play_out(sampled, random.Random(1))


def test_sample_state_keeps_cards_seen_taken_and_deals_the_rest_at_random() -> None:
    game = cardhall.load_game("gin(players=2)")
    state = game.new_game(seed=3)
    assert isinstance(state, GinState)
    up = state.pile[-1]
    taker = state.current
    state.apply(taker, game.parse_action("take discard"))
    other = 1 - taker
    obs = state.observation(other)
    opponent_hands = set()
    stocks = set()
    for k in range(20):
        sampled = game.sample_state(obs, random.Random(k))
        assert sampled.hands[taker] >> up & 1  # everyone saw it taken
        assert sampled.hands[other] == state.hands[other]
        assert sampled.hands[taker].bit_count() == 11 and len(sampled.stock) == 31
        opponent_hands.add(sampled.hands[taker])
        stocks.add(tuple(sampled.stock))
    assert len(opponent_hands) == 20 and len(stocks) == 20


def test_sample_state_for_the_advisor_keeps_the_team_hand_and_the_suggestion() -> None:
    game = cardhall.load_game("gin")
    state = game.new_game(seed=5)
    assert isinstance(state, GinState)
    captain, advisor = state.nondealer, state.advisor
    state.apply(advisor, game.parse_action("suggest take discard"))
    obs = state.observation(advisor)
    sampled = game.sample_state(obs, random.Random(0))
    assert sampled.hands[captain] == state.hands[captain]
    assert sampled.suggestion == state.suggestion and sampled.advised
    assert sampled.observation(advisor) == obs
    assert sampled.observation(captain) == state.observation(captain)
