"""Kierki bots: ``sample_state`` (search determinizations), the rules bot's habits, the search bot."""

from __future__ import annotations

import random

import pytest

import cardhall
from cardhall.bots import make_bot
from cardhall.cards import SUIT_MASKS, parse_card, parse_cards
from cardhall.core import State, derived_rng
from cardhall.games.kierki import Kierki, KierkiState

# Seed 6 draws seat 3 as the first dealer, so seat 0 (on the dealer's left) leads the negative deals.
SEED = 6
DEALER = 3

# Seat 2 is void in clubs; seat 3 holds no 7 and seat 0 neither a 7 nor an 8.
L1 = {
    0: "2C 3C 4C 5C 2D 3D 4D 2H 3H 2S 3S 4S 5S",
    1: "6C 7C 8C QC 5D 6D 7D 4H 5H 6S 7S 8S 9S",
    2: "8D 9D 10D JD QD 6H 7H 8H 9H KH 10S JS QS",
    3: "9C 10C JC KC AC KD AD 10H JH QH AH KS AS",
}

VARIANTS = [
    "kierki",
    "kierki(trump_chooser=left_of_dealer,trump_leader=left_of_dealer,lottery_start_rank=8)",
    "kierki(first_deal=8,lottery_starter=left_of_dealer)",
]


def stack(hands: dict[int, str], dealer: int = DEALER) -> list[int]:
    """A deck that deals ``hands`` (each seat's cards in the order received) one card at a time."""
    deck = [-1] * 52
    for seat, text in hands.items():
        for j, c in enumerate(parse_cards(text)):
            deck[4 * j + (seat - dealer - 1) % 4] = c
    assert sorted(deck) == list(range(52))
    return deck


def start(hands: dict[int, str], options: str = "", seed: int = SEED) -> KierkiState:
    game = cardhall.load_game(f"kierki({options})" if options else "kierki")
    dealer = derived_rng(seed, "first dealer").randrange(4)
    state = game.new_game(seed=seed, deck=stack(hands, dealer))
    assert isinstance(state, KierkiState)
    return state


def act(state: State, label: str) -> None:
    state.apply(state.to_act[0], state.game.parse_action(label))


def bot_label(state: State, spec: str = "rules", seed: int = 0) -> str:
    seat = state.to_act[0]
    bot = make_bot(spec, state.game)
    action = bot.act(state.observation(seat), state.legal_actions(seat), random.Random(seed))
    assert action in state.legal_actions(seat)
    return state.game.action_label(action)


def random_states(game_string: str, seeds: range, keep: float) -> list[State]:
    game = cardhall.load_game(game_string)
    out = []
    for seed in seeds:
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while True:
            if state.is_over or state.phase == "trump" or rng.random() < keep:  # type: ignore[attr-defined]
                out.append(state.clone())
            if state.is_over:
                break
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    return out


# --- deals_finished and sample_state -------------------------------------------------------------------


def test_deals_finished_counts_the_score_sheet() -> None:
    for state in random_states("kierki", range(2), 0.05):
        assert isinstance(state, KierkiState)
        assert state.deals_finished == len(state.score_sheet)


@pytest.mark.parametrize("game_string", VARIANTS)
def test_sampled_state_has_the_same_observation_and_plays_on(game_string: str) -> None:
    game = cardhall.load_game(game_string)
    rng = random.Random(11)
    phases = set()
    for i, state in enumerate(random_states(game_string, range(3), 0.08)):
        for seat in range(4):
            obs = state.observation(seat)
            sampled = game.sample_state(obs, rng)
            phases.add(obs["phase"])
            assert sampled.observation(seat) == obs
            assert sampled.deals_finished == state.deals_finished
            assert sorted(c for z in sampled.zones().values() for c in z) == list(range(52))
        if i % 5 == 0:  # the sampled state plays on to the end
            seat = state.to_act[0] if state.to_act else 0
            sampled = game.sample_state(state.observation(seat), rng)
            while not sampled.is_over:
                s = sampled.to_act[0]
                sampled.apply(s, rng.choice(sampled.legal_actions(s)))
            assert sampled.winners
    assert {"trump", "play", "lottery", "over"} <= phases


def test_sampled_state_respects_voids_and_deals_hidden_cards_anew() -> None:
    state = start(L1, "first_deal=3")
    act(state, "play 2C")
    act(state, "play QC")
    act(state, "play KH")  # seat 2 shows a club void
    game = state.game
    obs = state.observation(0)
    others = set()
    for seed in range(30):
        sampled = game.sample_state(obs, random.Random(seed))
        assert isinstance(sampled, KierkiState)
        assert sampled.hands[0] == state.hands[0]
        assert not sampled.hands[2] & SUIT_MASKS[0]
        assert sampled.seed != state.seed
        others.add(sampled.hands[1])
    assert len(others) > 5


def test_sampled_state_respects_lottery_passes() -> None:
    state = start(L1, "first_deal=12")
    act(state, "pass")  # seat 3 (the dealer) and seat 0 pass with every 7 open
    act(state, "pass")
    for seed in range(20):
        sampled = state.game.sample_state(state.observation(1), random.Random(seed))
        assert isinstance(sampled, KierkiState)
        assert sampled.hands[2] >> parse_card("7H") & 1  # the one 7 seat 1 cannot see is seat 2's


def test_sampled_state_while_trump_is_named_knows_only_five_cards() -> None:
    game = cardhall.load_game("kierki(first_deal=8)")
    assert isinstance(game, Kierki)
    state = game.new_game(seed=SEED)
    assert isinstance(state, KierkiState) and state.phase == "trump"
    chooser = state.to_act[0]
    obs = state.observation(chooser)
    hands = set()
    for seed in range(10):
        sampled = game.sample_state(obs, random.Random(seed))
        assert isinstance(sampled, KierkiState)
        assert sampled.hands[chooser] == state.hands[chooser]
        hands.add(sampled.pending[chooser])
        assert sampled.observation(chooser) == obs
    assert len(hands) > 5  # his other eight cards are unknown to him
