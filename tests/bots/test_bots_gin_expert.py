"""The gin expert policy (bots/gin_expert.py) and its reading of the opponent's hand (bots/gin_infer.py):
the beliefs are a proper distribution over hands the observation allows, a card he took from the pile is
believed part of his melds, the policy reads only the seat's observation and plays both gin variants."""

from __future__ import annotations

import contextlib
import random

import pytest

import cardhall
from cardhall.bots import gin_infer
from cardhall.bots.gin_expert import FEED_KNOCK, FEED_MELD, expert_policy, feed_cost
from cardhall.bots.gin_infer import Beliefs, beliefs, clues, likelihood
from cardhall.bots.rules_gin import GinRulesBot
from cardhall.cards import cards_of, mask_of, parse_card, parse_cards
from cardhall.games.gin.melds import deadwood_cards_mask
from cardhall.games.gin.rules import KNOCK_BASE, GinState


def _state_after_take(seed: int) -> tuple[GinState, int, int]:
    """A two-player hand played by rules bots up to a discard decision of one seat right after the
    other took a card from the pile and discarded, that card still in his hand: (state, me, taken)."""
    game = cardhall.load_game("gin(players=2,max_hands=1)")
    state = game.new_game(seed=seed)
    assert isinstance(state, GinState)
    bot = GinRulesBot(game)
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        opp = 1 - seat
        if state.log and state.known[opp] and state.log[-1][0] == opp and state.log[-1][1] < KNOCK_BASE:
            return state, seat, cards_of(state.known[opp])[0]
        action = legal[0] if len(legal) == 1 else bot.act_state(state, seat, legal, rng)
        state.apply(seat, action)
    raise LookupError


def _takes(count: int) -> list[tuple[GinState, int, int]]:
    found = []
    seed = 0
    while len(found) < count:
        with contextlib.suppress(LookupError):
            found.append(_state_after_take(seed))
        seed += 1
    return found


def test_beliefs_are_a_proper_distribution_over_allowed_hands() -> None:
    for state, me, _ in _takes(4):
        o = state.observation(me, ints=True)
        b = beliefs(o, random.Random(3))
        assert sum(b.weights) == pytest.approx(1.0)
        assert all(w > 0 for w in b.weights)
        c = clues(o)
        for hand in b.hands:
            assert likelihood(c, hand) > 0
            assert hand & state.known[1 - me] == state.known[1 - me]  # his taken cards, every time
            assert not hand & state.hands[me]


def test_an_impossible_hand_gets_no_weight() -> None:
    state, me, taken = _takes(1)[0]
    o = state.observation(me, ints=True)
    c = clues(o)
    true = state.hands[1 - me]
    assert likelihood(c, true) > 0
    mine = cards_of(state.hands[me])[0]
    lacking_taken = true & ~(1 << taken)
    others = [x for x in range(52) if not (true | state.hands[me]) >> x & 1 and x not in state.pile]
    assert likelihood(c, lacking_taken | 1 << others[0]) == 0  # lacks a card he was seen taking
    assert likelihood(c, (true & ~(1 << cards_of(true & ~(1 << taken))[0])) | 1 << mine) == 0  # my card
    pile_card = state.pile[0]
    assert likelihood(c, (true & ~(1 << cards_of(true & ~(1 << taken))[0])) | 1 << pile_card) == 0
    assert likelihood(c, true | 1 << others[0]) == 0  # eleven cards


def test_a_card_he_took_is_believed_part_of_his_melds(monkeypatch: pytest.MonkeyPatch) -> None:
    cases = _takes(12)

    def melded_share() -> float:
        total = 0.0
        for state, me, taken in cases:
            b = beliefs(state.observation(me, ints=True), random.Random(5))
            total += sum(
                w for h, w in zip(b.hands, b.weights, strict=True) if not deadwood_cards_mask(h) >> taken & 1
            )
        return total / len(cases)

    with_clue = melded_share()
    monkeypatch.setattr(gin_infer, "TAKEN_OUTSIDE", 1.0)
    without = melded_share()
    assert with_clue > 0.7
    assert with_clue > without + 0.1


def test_a_card_that_lets_him_knock_costs_the_most_to_throw() -> None:
    """feed_cost over a belief of one hand: a card that lets him knock at once costs FEED_KNOCK, one
    that only melds FEED_MELD, one that fits nothing 0."""
    # Runs 2-4 of clubs and 5-7 of hearts; kings of clubs and diamonds, queen and jack of spades: 40.
    hand = mask_of(parse_cards("2C 3C 4C 5H 6H 7H KC KD QS JS"))
    b = Beliefs([hand], [1.0])
    assert feed_cost(parse_card("8D"), b) == 0.0
    assert feed_cost(parse_card("8H"), b) == FEED_MELD  # 5-8 of hearts, deadwood still 30 after a discard
    assert feed_cost(parse_card("KH"), b) == FEED_KNOCK  # three kings: he throws a picture card, deadwood 10


@pytest.mark.parametrize("spec", ["gin(players=2,max_hands=2)", "gin(max_hands=2)"])
def test_the_policy_plays_whole_matches_on_observations_only(spec: str) -> None:
    game = cardhall.load_game(spec)
    for seed in range(3):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            for seat in state.to_act:
                legal = state.legal_actions(seat)
                action = expert_policy(game, state.observation(seat, ints=True), legal, rng)
                assert action in legal
                state.apply(seat, action)
                break


def test_a_planted_card_in_his_hand_changes_no_choice() -> None:
    """Two deals that look the same to the seat (its hand, the pile, every move) but differ in the
    opponent's hidden cards: the same choices for the same RNG."""
    state, me, _ = _takes(1)[0]
    other = state.resample(me, random.Random(11))
    assert other.hands[1 - me] != state.hands[1 - me]
    for s in (state, other):
        assert s.observation(me, ints=True) == state.observation(me, ints=True)
    legal = state.legal_actions(me)
    choices = [
        expert_policy(s.game, s.observation(me, ints=True), legal, random.Random(2)) for s in (state, other)
    ]
    assert choices[0] == choices[1]
    assert choices[0] in legal


def test_the_rules_module_offers_the_policy_as_its_expert_hook() -> None:
    from cardhall.bots import rules_gin

    state, me, _ = _takes(1)[0]
    legal = state.legal_actions(me)
    o = state.observation(me, ints=True)
    hook = rules_gin.expert_policy(state.game, o, legal, random.Random(4))
    assert hook == expert_policy(state.game, o, legal, random.Random(4))


def test_the_openspiel_benchmark_mirrors_the_hand_and_scores_it() -> None:
    """benchmarks/gin_openspiel.py: the card mapping is one to one with OpenSpiel's names; hands against
    OpenSpiel's bot play through with the mirror agreeing (no mismatch), and a random player loses."""
    pyspiel = pytest.importorskip("pyspiel")
    from tests.benchmark_scripts import load_script

    bench = load_script("gin_openspiel.py")
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    assert sorted(bench.to_os(c) for c in range(52)) == list(range(52))
    for text in ("AS", "10H", "KC", "2D"):
        label = utils.card_string(bench.to_os(parse_card(text)))
        assert label == text.replace("10", "T")[:-1] + text[-1].lower()
    report = bench.run(["random"], 6, 0)
    row = report["bots"]["random"]
    assert row["mismatches"] == 0 and row["margin_per_hand"]["n"] == 6
    assert row["margin_per_hand"]["mean"] < 0
