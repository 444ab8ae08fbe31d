"""The gin expert policy (bots/gin_expert.py) and its reading of the opponent's hand (bots/gin_infer.py):
the beliefs are a proper distribution over hands the observation allows, a card he took from the pile is
believed part of his melds, the policy reads only the seat's observation and plays both gin variants."""

from __future__ import annotations

import contextlib
import math
import random

import pytest

import cardhall
from cardhall.bots import gin_infer
from cardhall.bots.gin_expert import FEED_KNOCK, FEED_MELD, expert_policy, feed_cost
from cardhall.bots.gin_infer import Beliefs, beliefs, clues, deadwood_regret, kept_higher, likelihood
from cardhall.bots.rules_gin import GinRulesBot
from cardhall.cards import cards_of, mask_of, parse_card, parse_cards
from cardhall.games.gin.melds import deadwood_cards_mask, deadwood_mask
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


def test_loose_cards_kept_over_his_discards_count_beyond_his_draws_since() -> None:
    """He threw the 6 of hearts two turns ago (one stock card drawn since) and the 9 of clubs last
    turn: of his loose king, queen and 8, all three outrank the 6 (one may have come with the draw)
    and two outrank the 9."""
    loose = mask_of(parse_cards("KD QS 8C 2H"))
    assert kept_higher(loose, ((parse_card("6H"), 1), (parse_card("9C"), 0))) == 2 + 2
    assert kept_higher(loose, ((parse_card("KH"), 0),)) == 0  # nothing outranks a king
    assert kept_higher(mask_of(parse_cards("2H 3D")), ((parse_card("6H"), 0),)) == 0


def test_the_deadwood_regret_of_his_last_discard() -> None:
    """Holding 2-3-4 of clubs, 5-6-7 of hearts and loose cards, throwing the king left the least
    deadwood; throwing the 2 of diamonds instead kept 8 more points than he had to."""
    kept = mask_of(parse_cards("2C 3C 4C 5H 6H 7H QS 9D 8S 3S"))
    assert deadwood_regret(kept, deadwood_mask(kept), parse_card("KD"), -1) == 0
    kept_king = kept & ~mask_of(parse_cards("3S")) | mask_of(parse_cards("KD"))
    assert deadwood_regret(kept_king, deadwood_mask(kept_king), parse_card("3S"), -1) == 10 - 3
    # Low loose cards and the king: throwing the 6 of spades kept 4 more than throwing the king, but
    # nothing more than the best he was allowed when the king was the card just taken.
    low = mask_of(parse_cards("2C 3C 4C 5H 6H 7H 2S 3D 4S KD"))
    assert deadwood_regret(low, deadwood_mask(low), parse_card("6S"), -1) == 19 - 15
    assert deadwood_regret(low, deadwood_mask(low), parse_card("6S"), parse_card("KD")) == 0


def _card_loglik(positions: list[tuple[GinState, int]], seed: int) -> float:
    """The mean log-likelihood of his true hand, each hidden card scored by the beliefs' marginal
    (shrunk toward the prior by two hands, as benchmarks/gin_infer_check.py does), minus the prior's."""
    rng = random.Random(seed)
    total = 0.0
    for state, me in positions:
        o = state.observation(me, ints=True)
        b = beliefs(o, rng)
        c = clues(o)
        unknown = ((1 << 52) - 1) & ~c.impossible & ~c.taken
        prior = (c.size - c.taken.bit_count()) / unknown.bit_count()
        true = state.hands[1 - me]
        for card in cards_of(unknown):
            p = (len(b.hands) * b.probability(1 << card) + 2 * prior) / (len(b.hands) + 2)
            held = true >> card & 1
            total += math.log(p if held else 1 - p) - math.log(prior if held else 1 - prior)
    return total / len(positions)


def test_the_true_hand_is_likelier_under_the_beliefs_than_a_uniform_deal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Over positions of rules-against-rules hands, the beliefs give his true hand more likelihood
    than the uniform prior, and more than the first model did (4 short chains, weaker clues)."""
    positions = [(state, me) for state, me, _ in _takes(24)]
    now = _card_loglik(positions, 7)
    for name, value in {
        "CHAINS": 4,
        "THIN": 3,
        "TAKEN_OUTSIDE": 0.1,
        "COULD_KNOCK": 0.1,
        "RULES_REGRET": 1.0,
        "DEADWOOD_REGRET": 0.0,
        "KEPT_HIGHER": 1.0,
        "RECENT_MELDS": 1.0,
    }.items():
        monkeypatch.setattr(gin_infer, name, value)
    before = _card_loglik(positions, 7)
    assert now > 0.3
    assert now > before + 0.3
