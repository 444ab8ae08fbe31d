"""Svara bots: ``sample_state``, the rules bot's habits, and the search bot on Svara."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardhall
from cardhall.bots import make_bot
from cardhall.bots.rules_svara import SvaraRulesBot, make_sampler, search_candidates
from cardhall.games.svara.rules import JOIN, PASS, SvaraState
from cardhall.sim.simulate import simulate
from tests.games.svara.test_svara_rules import BEST, MID, WORST, act, table
from tests.helpers import playing, random_states

VARIANTS = [
    "svara(players=2,max_deals=3,stack=200)",
    "svara(players=3,max_deals=3,stack=300,svara_fee=half_pot,joker=substitute)",
    "svara(players=3,max_deals=3,stack=100,ante=5,min_blind=2,svara_join=none)",
    "svara(players=6,max_deals=2,stack=100)",
]


# --- sample_state ----------------------------------------------------------------------------------


@pytest.mark.parametrize("game_string", VARIANTS)
def test_sampled_state_has_the_same_observation_and_plays_on(game_string: str) -> None:
    game = cardhall.load_game(game_string)
    rng = random.Random(7)
    states = random_states(game_string, range(12))
    for i, state in enumerate(states):
        for seat in range(game.num_players):
            obs = state.observation(seat, ints=True)
            sampled = game.sample_state(obs, rng)
            assert sampled.observation(seat, ints=True) == obs
            assert sampled.observation(seat) == state.observation(seat)
            assert sorted(c for cards in sampled.zones().values() for c in cards) == sorted(game.deck())
        if i % 5 == 0 and not state.is_over:
            sampled = game.sample_state(state.observation(state.to_act[0], ints=True), rng)
            for _ in playing(sampled):
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
        sampled = game.sample_state(state.observation(seat, ints=True), rng)
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
        game.sample_state(game.new_game(seed=1).observation(None, ints=True), random.Random(0))


# --- the rules bot ---------------------------------------------------------------------------------

THREE = "svara(players=3)"
MID21 = "AS QS 8D"  # worth 21
MID20 = "KS QS 9H"  # worth 20


def choice(state: SvaraState, spec: str = "rules", seed: int = 0) -> str:
    seat = state.to_act[0]
    bot = make_bot(spec, state.game)
    action = bot.act(state.observation(seat, ints=True), state.legal_actions(seat), random.Random(seed))
    assert action in state.legal_actions(seat)
    return state.game.action_label(action)


def test_rules_is_found_by_name() -> None:
    assert isinstance(make_bot("rules", cardhall.load_game("svara")), SvaraRulesBot)


def test_rules_opens_with_a_strong_hand_and_checks_a_weak_one() -> None:
    state = table(THREE, BEST, WORST, MID)
    act(state, "0 look")
    assert choice(state).startswith("bet ")
    state = table(THREE, WORST, BEST, MID)
    act(state, "0 look")
    assert choice(state) == "check"


def test_rules_bet_is_about_half_the_pot() -> None:
    state = table("svara(players=3,ante=10)", BEST, WORST, MID)
    act(state, "0 look")
    assert choice(state) == "bet 10"  # pot 30: half is 15, rounded down to whole antes
    state = table("svara(players=3,ante=10)", WORST, BEST, MID)
    act(state, "0 look", "0 check", "1 bet 100")
    assert choice(state) in ("call", "fold")  # seat 2 holds MID: folds
    act(state, "2 fold")
    assert choice(state) == "fold"  # seat 0 WORST
    state = table("svara(players=3,ante=10)", WORST, MID, BEST)
    act(state, "0 look", "0 check", "1 bet 100")
    assert choice(state) == "raise 110"  # (pot 130 + 100 to call) / 2, in whole antes


def test_rules_calls_on_pot_odds_raises_strong_and_folds_weak() -> None:
    for hand, expected in ((BEST, "raise"), (MID21, "call"), (WORST, "fold"), (MID, "fold")):
        state = table(THREE, "KD QD 9S", hand, "8C 9H 10D")
        act(state, "0 look", "0 bet 50")
        assert choice(state).split()[0] == expected, hand


def test_rules_fears_bettors_the_same_hand_folds_to_more_aggression() -> None:
    bot = SvaraRulesBot(cardhall.load_game(THREE))
    state = table(THREE, "KD QD 9S", MID21, "8C 9H 10D")
    act(state, "0 look", "0 check")
    quiet = bot.chance(state.observation(1, ints=True))
    state = table(THREE, MID21, "KD QD 9S", "8C 9H 10D")
    act(state, "0 look", "0 check", "1 bet 10", "2 raise 10")
    loud = bot.chance(state.observation(0, ints=True))
    assert loud == pytest.approx(quiet**2)  # two opponents in, and two of them bet: four


def test_rules_dealer_checks_behind_but_an_early_seat_opens_lighter() -> None:
    # Seat 0 is first to act (not the dealer): a hand worth 21 opens the betting.
    state = table(THREE, MID20, WORST, MID)
    act(state, "0 look")
    assert choice(state).startswith("bet ")
    # The dealer (seat 2), checked to, keeps the pot with a check.
    state = table(THREE, WORST, MID, MID20)
    act(state, "0 look", "0 check", "1 check")
    assert choice(state) == "check"


def test_rules_bets_blind_sometimes_only_when_it_is_cheap() -> None:
    state = table("svara(players=3,stack=1000)", BEST, WORST, MID)
    picks = [choice(state, seed=s) for s in range(300)]
    blind = sum(p.startswith("blind") for p in picks)
    assert 30 <= blind <= 100 and all(p in ("look", "blind 10") for p in picks)
    expensive = table("svara(players=3,stack=150)", BEST, WORST, MID)
    assert {choice(expensive, seed=s) for s in range(100)} == {"look"}
    act(state, "0 blind 10")
    second = [choice(state, seed=s) for s in range(300)]
    assert sum(p.startswith("blind") for p in second) < blind


def test_rules_after_a_blind_raises_the_minimum_or_folds() -> None:
    state = table(THREE, WORST, BEST, MID)
    act(state, "0 blind 10")
    act(state, "1 look")
    assert choice(state) == "raise 10"  # seat 1 must double the blind
    state = table(THREE, BEST, WORST, MID)
    act(state, "0 blind 10", "1 look")
    assert choice(state) == "fold"


def test_rules_goes_all_in_only_with_the_odds() -> None:
    for hand, expected in ((BEST, "all in"), (WORST, "fold")):
        state = table("svara(players=2,stack=100)", "KD QD 9S", hand)
        act(state, "0 look", "0 all in")
        assert choice(state) == expected


def join_view(fee: int, pot: int, tied: int, stack: int) -> dict[str, Any]:
    state = table(THREE, WORST, BEST, MID)
    obs = state.observation(2, ints=True)
    obs.update(
        phase="svara join",
        svara_fee=fee,
        pot=pot,
        svara_players=list(range(tied)),
        joined=[],
        stacks=[stack, stack, stack],
        svara=1,
    )
    return obs


@pytest.mark.parametrize(
    ("fee", "pot", "tied", "stack", "expected"),
    [
        (50, 100, 2, 500, JOIN),  # share fee: (100 + 50) / 3 = 50, it pays
        (50, 100, 2, 120, PASS),  # more than a third of the stack
        (100, 200, 3, 1000, PASS),  # half-pot fee for three tied: (200 + 100) / 4 < 100
        (34, 100, 3, 1000, PASS),  # share fee for three tied: (100 + 34) / 4 = 33.5 < 34
        (25, 75, 3, 1000, JOIN),  # (75 + 25) / 4 = 25
    ],
)
def test_rules_joins_a_svara_when_it_pays(fee: int, pot: int, tied: int, stack: int, expected: int) -> None:
    bot = SvaraRulesBot(cardhall.load_game(THREE))
    assert bot.act(join_view(fee, pot, tied, stack), [JOIN, PASS], random.Random(0)) == expected


def test_rules_beats_random_by_a_wide_margin() -> None:
    report = simulate("svara(players=3,max_deals=1)", ["rules", "random", "random"], 60, rotate=True)
    rules = report.summary()["by_bot"][0]
    assert rules["bot"] == "rules"
    assert rules["margin"]["low"] > 100


def test_search_plays_a_short_match_to_the_end() -> None:
    game = cardhall.load_game("svara(players=3,max_deals=2,stack=200)")
    bots = [make_bot("search(iterations=2)", game), make_bot("rules", game), make_bot("random", game)]
    state = game.new_game(seed=3)
    rng = random.Random(3)
    for _ in playing(state):
        seat = state.to_act[0]
        action = bots[seat].act(state.observation(seat, ints=True), state.legal_actions(seat), rng)
        state.apply(seat, action)
    assert sum(state.scores) == 3 * 200
    assert bots[0].stats["determinizations"] > 0  # type: ignore[attr-defined]


def test_search_never_reads_the_true_state() -> None:
    game = cardhall.load_game("svara(players=3,max_deals=2)")
    state = table("svara(players=3,max_deals=2)", BEST, WORST, MID)
    act(state, "0 look", "0 bet 20")
    other = state.clone()
    other.hands[0], other.hands[2] = other.hands[2], other.hands[0]
    obs = state.observation(1, ints=True)
    assert other.observation(1, ints=True) == obs and other.observation(1) == state.observation(1)
    picks = [
        make_bot("search(iterations=3)", game).act(
            s.observation(1, ints=True), s.legal_actions(1), random.Random(9)
        )
        for s in (state, other)
    ]
    assert picks[0] == picks[1]


def test_sampled_bettors_hold_stronger_hands_than_silent_players() -> None:
    game = cardhall.load_game(THREE)
    state = table(THREE, MID21, "KD QD 9S", "8C 9H 10D")
    act(state, "0 look", "0 check", "1 bet 50", "2 call")
    obs = state.observation(0, ints=True)
    rng = random.Random(2)
    sample = make_sampler(game)
    samples = [sample(obs, rng) for _ in range(400)]
    bettor = sum(game.values[s.hands[1]] for s in samples) / 400  # type: ignore[attr-defined]
    caller = sum(game.values[s.hands[2]] for s in samples) / 400  # type: ignore[attr-defined]
    state = table(THREE, MID21, "KD QD 9S", "8C 9H 10D")
    act(state, "0 look")
    quiet = [sample(state.observation(0, ints=True), rng) for _ in range(400)]
    silent = sum(game.values[s.hands[1]] for s in quiet) / 400  # type: ignore[attr-defined]
    assert bettor > caller > silent + 1


def test_search_compares_a_short_list_of_bet_sizes() -> None:
    game = cardhall.load_game("svara(players=2,stack=1000)")
    state = game.new_game(seed=4)
    rng = random.Random(4)
    checked = 0
    for _ in playing(state):
        if checked >= 30:
            break
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        short = search_candidates(game, state.observation(seat, ints=True), legal)
        assert short and set(short) <= set(legal) and short == sorted(short)
        assert [a for a in legal if a < 7] == [a for a in short if a < 7]  # every simple action kept
        amounts = [a for a in legal if a >= 7]
        if amounts:
            assert min(amounts) in short and max(amounts) in short
            if len(amounts) > 20:
                assert len(short) < len(legal) // 3
                checked += 1
        state.apply(seat, legal[rng.randrange(len(legal))])
    assert checked
