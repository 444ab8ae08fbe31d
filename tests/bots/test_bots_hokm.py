"""Hokm bots on the form of the observation bots read (cards as ints): the rules bot's bids, its
``act_state`` (the same choice read from the state), its tables, and ``sample_state`` on that form."""

from __future__ import annotations

import random

import pytest

import cardhall
from cardhall.bots import make_bot
from cardhall.bots.rules_hokm import (
    ABOVE,
    BEATERS,
    KEYS,
    HokmRulesBot,
    best_trump,
    defender_estimate,
    display_order,
    key,
    rank_in_suit,
)
from cardhall.cards import SUIT_MASKS, parse_cards
from cardhall.games.hokm.rules import BID_BASE, DECK, TRUMP_BASE, HokmState, deck_for_hands
from tests.helpers import playing, random_states

VARIANTS = [
    "hokm(max_hands=2)",
    "hokm(max_hands=2,bidding=auction,overtricks=count)",
    "hokm(max_hands=2,must_trump_when_void=true,must_overtrump=true,overtricks=exact)",
    "hokm(max_hands=2,must_overtrump=true)",
]
STRONG = "JH 9H AH 10H KH QH 8H AS 10S KS"


def bidding_observation(hand: str, bids: list[dict[str, int]]) -> dict[str, object]:
    return {"phase": "bidding", "hand": parse_cards(hand), "bids": bids}


def test_rules_bids_high_with_a_long_trump_suit_with_honours() -> None:
    bot = make_bot("rules", cardhall.load_game("hokm"))
    obs = bidding_observation(STRONG, [])
    bid = bot.act(obs, list(range(BID_BASE, TRUMP_BASE)), random.Random(0)) - BID_BASE + 2
    assert bid >= 7


def test_rules_bids_bas_with_a_weak_hand() -> None:
    bot = make_bot("rules", cardhall.load_game("hokm"))
    obs = bidding_observation("8H 8D 7C 8C 7S 8S QD QH KD KH", [])
    assert bot.act(obs, list(range(BID_BASE, TRUMP_BASE)), random.Random(0)) == BID_BASE


def test_rules_auction_bids_the_best_legal_value_or_bas() -> None:
    bot = make_bot("rules", cardhall.load_game("hokm(bidding=auction)"))
    obs = bidding_observation(STRONG, [{"seat": 1, "contract": 9}])
    assert bot.act(obs, [BID_BASE, BID_BASE + 8], random.Random(0)) == BID_BASE


def test_cached_hand_values_are_the_estimates_in_the_observations_order() -> None:
    bot = make_bot("rules", cardhall.load_game("hokm"))
    assert isinstance(bot, HokmRulesBot)
    rng = random.Random(4)
    for _ in range(50):
        hand = rng.sample(DECK, 10)
        mask = sum(1 << c for c in hand)
        cards = display_order(mask)
        assert sorted(cards) == sorted(hand)
        values = bot._hand_values(mask)
        assert bot._hand_values(mask) is values  # cached
        assert max(range(4), key=lambda t: (values[t], t)) == best_trump(cards)[0]
        assert sum(sorted(values)[:3]) / 3 == defender_estimate(cards)


def test_tables_agree_with_the_card_order() -> None:
    for trump in range(4):
        for led in range(4):
            keys = KEYS[trump * 4 + led]
            for c in DECK:
                assert keys[c] == key(c, trump, led)
                above = [u for u in DECK if key(u, trump, led) > key(c, trump, led)]
                assert ABOVE[trump * 4 + led][c] == sum(1 << u for u in above)
        for c in DECK:
            same = [u for u in DECK if u // 13 == c // 13 and rank_in_suit(u, trump) > rank_in_suit(c, trump)]
            assert BEATERS[trump][c] == sum(1 << u for u in same)
            assert not BEATERS[trump][c] & ~SUIT_MASKS[c // 13]


@pytest.mark.parametrize("game_string", VARIANTS)
def test_act_state_makes_the_same_choice_as_act(game_string: str) -> None:
    """Random play and rules play: at every decision, ``act_state`` on the state equals ``act`` on the
    seat's observation in the bots' form."""
    game = cardhall.load_game(game_string)
    bot = make_bot("rules", game)
    assert isinstance(bot, HokmRulesBot)
    checked = 0
    for seed in range(4):
        state = game.new_game(seed=seed)
        assert isinstance(state, HokmState)
        rng = random.Random(seed)
        for _ in playing(state):
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            choice = bot.act(state.observation(seat, ints=True), legal, rng)
            assert choice in legal
            assert bot.act_state(state, seat, legal, rng) == choice
            checked += len(legal) > 1
            state.apply(seat, choice if seed % 2 else rng.choice(legal))
    assert checked > 100


def test_act_state_reads_nothing_the_seat_cannot_see() -> None:
    """Other hands dealt differently (same observation): the same choice."""
    game = cardhall.load_game("hokm(max_hands=1)")
    bot = make_bot("rules", game)
    assert isinstance(bot, HokmRulesBot)
    rng = random.Random(2)
    for state in random_states("hokm(max_hands=1)", range(3)):
        if state.is_over:
            continue
        assert isinstance(state, HokmState)
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        other = state.resample(seat, rng)
        assert bot.act_state(other, seat, legal, rng) == bot.act_state(state, seat, legal, rng)


@pytest.mark.parametrize("game_string", VARIANTS[:3])
def test_sampled_state_keeps_the_bots_observation(game_string: str) -> None:
    game = cardhall.load_game(game_string)
    rng = random.Random(11)
    for state in random_states(game_string, range(2))[::3]:
        for seat in range(3):
            obs = state.observation(seat, ints=True)
            sampled = game.sample_state(obs, rng)
            assert sampled.observation(seat, ints=True) == obs
            assert sampled.observation(seat) == state.observation(seat)


def test_the_ints_form_names_the_same_cards_as_the_text() -> None:
    game = cardhall.load_game("hokm")
    dealer = game.new_game(seed=0).dealer  # type: ignore[attr-defined]
    hands = [
        parse_cards(h) for h in (STRONG, "AC KC QC JC 10C 9C 8C 7C QS JS", "AD KD QD JD 10D 9D 8D 9S 8S 7S")
    ]
    state = game.new_game(seed=0, deck=deck_for_hands(dealer, hands))
    for label in ("bid 5", "bid bas", "bid bas", "trump H", "play AS", "play QS"):
        state.apply(state.to_act[0], game.parse_action(label))
    text, ints = state.observation(2), state.observation(2, ints=True)
    assert ints["hand"] == parse_cards(" ".join(text["hand"]))
    assert ints["trick"] == [
        {"seat": 0, "card": parse_cards("AS")[0]},
        {"seat": 1, "card": parse_cards("QS")[0]},
    ]
    assert ints["trump"] == text["trump"] == "H"
    assert {k: v for k, v in ints.items() if k not in ("hand", "trick")} == {
        k: v for k, v in text.items() if k not in ("hand", "trick")
    }
