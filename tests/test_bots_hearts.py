"""Hearts for bots: ``deals_finished``, ``Hearts.sample_state``, the rules bot's habits, the search bot."""

from __future__ import annotations

import random

import pytest

import cardhall
from cardhall.cards import SUIT_MASKS, parse_card
from cardhall.core import State
from cardhall.games.hearts import FACES, HeartsState
from tests.test_hearts_rules import deal, moon_deal, play, run_hand

VARIANTS = [
    "hearts(max_hands=2)",
    "hearts(players=7,max_hands=2,passing=cycle)",
    "hearts(players=8,max_hands=2,first_lead=two_clubs,points_on_first_trick=false)",
    "hearts(players=9,max_hands=2,dead_trick_lead=left,widow=last_trick)",
    "hearts(players=11,max_hands=1,passing=none)",
    "hearts(decks=1,players=4,max_hands=3)",
    "hearts(decks=1,players=3,max_hands=2,passing=cycle,first_lead=two_clubs)",
    "hearts(decks=1,players=5,max_hands=2,points_on_first_trick=false)",
]


def random_states(game_string: str, seeds: range, every: int = 1) -> list[State]:
    game = cardhall.load_game(game_string)
    out = []
    for seed in seeds:
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        i = 0
        while True:
            if i % every == 0 or state.is_over:
                out.append(state.clone())
            if state.is_over:
                break
            seat = rng.choice(state.to_act)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            i += 1
    return out


def suit2(suit: int) -> int:
    return SUIT_MASKS[suit] | SUIT_MASKS[suit] << FACES


# --- deals_finished --------------------------------------------------------------------------------


def test_deals_finished_counts_finished_hands() -> None:
    state = cardhall.load_game("hearts(decks=1,players=4,max_hands=3)").new_game(seed=5)
    rng = random.Random(5)
    seen = [state.deals_finished]
    while not state.is_over:
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        if state.deals_finished != seen[-1]:
            seen.append(state.deals_finished)
            assert len(state.score_sheet) == state.deals_finished
    assert seen == [0, 1, 2, 3]


# --- sample_state ----------------------------------------------------------------------------------


@pytest.mark.parametrize("game_string", VARIANTS)
def test_sampled_state_has_the_same_observation_and_plays_on(game_string: str) -> None:
    game = cardhall.load_game(game_string)
    rng = random.Random(11)
    states = random_states(game_string, range(2), every=3)
    for i, state in enumerate(states):
        for seat in range(game.num_players):
            obs = state.observation(seat)
            sampled = game.sample_state(obs, rng)
            assert sampled.observation(seat) == obs
            assert sorted(c for z in sampled.zones().values() for c in z) == sorted(game.deck())
        if i % 15 == 0:  # the sampled state plays on to the end
            seat = state.to_act[0] if state.to_act else 0
            sampled = game.sample_state(state.observation(seat), rng)
            while not sampled.is_over:
                seat = rng.choice(sampled.to_act)
                sampled.apply(seat, rng.choice(sampled.legal_actions(seat)))
            assert sampled.winners


def test_sampled_state_in_the_moon_phase_and_after_the_match() -> None:
    game = cardhall.load_game("hearts(decks=1,players=4,passing=none,max_hands=1)")
    state = moon_deal(str(game))
    run_hand(state)
    assert state.phase == "moon"
    rng = random.Random(2)
    for seat in range(4):
        sampled = game.sample_state(state.observation(seat), rng)
        assert sampled.observation(seat) == state.observation(seat)
    sampled = game.sample_state(state.observation(1), rng)
    play(sampled, "0:moon plus")  # the shooter's choice is still open in the sample
    play(state, "0:moon plus")
    assert state.is_over
    for seat in range(4):
        assert game.sample_state(state.observation(seat), rng).observation(seat) == state.observation(seat)


def test_sample_state_refuses_a_spectators_observation() -> None:
    game = cardhall.load_game("hearts")
    with pytest.raises(ValueError, match="one seat's observation"):
        game.sample_state(game.new_game(seed=1).observation(None), random.Random(0))


def test_sampled_states_deal_hidden_cards_anew_and_respect_voids_and_passes() -> None:
    # Four players, one deck, passing left: seat 0 passes AS KS QS to seat 1; seat 2 passes AH KH QH
    # and keeps ten hearts, so it shows a club void on the first trick.
    game_string = "hearts(decks=1,players=4,max_hands=1)"
    game = cardhall.load_game(game_string)
    state = deal(
        game_string,
        {0: "2C 3C 4C AS KS QS 5D 6D 7D 8D 9D 10D JD", 2: "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"},
    )
    for seat in range(4):
        for action in state.legal_actions(seat)[-3:]:
            state.apply(seat, action)  # each seat passes its three highest cards
    assert state.phase == "play" and state.to_act == (0,)
    play(state, "0:2C")
    for seat in (1, 2):
        state.apply(seat, state.legal_actions(seat)[0])
    assert state.excluded[2] & suit2(0)  # seat 2 showed its club void
    obs = state.observation(0)
    rng = random.Random(4)
    hands1 = set()
    spades = sum(1 << parse_card(c) for c in ("AS", "KS", "QS"))
    for _ in range(40):
        sampled = game.sample_state(obs, rng)
        assert isinstance(sampled, HeartsState)
        assert sampled.hands[0] == state.hands[0]
        assert sampled.hands[1] & spades == spades  # the receiver keeps what seat 0 passed him
        assert not sampled.hands[2] & suit2(0)
        hands1.add(sampled.hands[1])
        assert sampled.seed != state.seed
    assert len(hands1) > 5
