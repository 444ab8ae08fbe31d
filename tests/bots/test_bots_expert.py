"""The ``expert`` bot: it reads only its seat's observation, its inference is a proper distribution that
gives an impossible deal nothing, and it plays every game through."""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Iterator

import pytest

import cardhall
from cardhall.bot_tier.jobs import THINK_CAP_MS, nominal_ms, rules_move, think, thinks_elsewhere
from cardhall.bots import BOT_LEVELS, ExpertBot, SearchBot, make_bot, resolve_level
from cardhall.bots.expert import (
    IMPOSSIBLE,
    effective_size,
    likelihood,
    log_likelihood,
    state_policy,
    tempered,
    weigh,
    weighted_clearly_better,
)
from cardhall.bots.rules import rules_bot_class
from cardhall.bots.trick_reading import played_and_voids
from cardhall.cards import SUIT_MASKS
from cardhall.core import Game, Observation, State
from cardhall.sim.simulate import simulate
from cardhall.table import Table
from tests.benchmark_scripts import load_script
from tests.helpers import playing

GAMES = [
    "hokm(max_hands=1)",
    "kierki(first_deal=8,last_deal=8)",
    "hearts(players=8,max_hands=1)",
    "gin(max_hands=1)",
    "svara(players=4,max_deals=1)",
]
REWINDING = [
    "hokm(max_hands=1)",
    "kierki(first_deal=1,last_deal=1)",
    "kierki(first_deal=9,last_deal=9)",
    "hearts(players=8,max_hands=1)",
    "hearts(decks=1,players=4,max_hands=1,first_lead=two_clubs)",
]


def mid_deal(game: Game) -> int:
    """Moves into the first deal that put some plays of the others behind the seat to act (in Hearts
    after every seat's three passes)."""
    if game.name == "svara":
        return 3
    return 5 * game.num_players if game.name == "hearts" else 14


def rules_play(game: Game, seed: int, steps: int) -> State:
    """A match of ``game`` after ``steps`` moves of the rules bots (or at its end)."""
    state = game.new_game(seed=seed)
    bots = [make_bot("rules", game) for _ in range(game.num_players)]
    rng = random.Random(seed)
    for step in playing(state):
        if step >= steps:
            break
        seat = state.to_act[0]
        state.apply(seat, bots[seat].act(state.observation(seat, ints=True), state.legal_actions(seat), rng))
    return state


def policy(game: Game):  # type: ignore[no-untyped-def]
    return state_policy(rules_bot_class(game)(game))


def test_expert_is_a_level_and_a_bot() -> None:
    game = cardhall.load_game("hokm")
    assert list(BOT_LEVELS)[-1] == "expert"
    assert resolve_level("expert") == BOT_LEVELS["expert"]
    bot = make_bot("expert", game)
    assert isinstance(bot, ExpertBot) and bot.ms == 500
    assert make_bot("expert(iterations=3,ess=80)", game).iterations == 3  # with options: the bot
    with pytest.raises(cardhall.InvalidOptionError, match="eps"):
        make_bot("expert(eps=0)", game)


@pytest.mark.parametrize("game_string", GAMES)
def test_a_planted_card_in_another_hand_changes_none_of_its_choices(game_string: str) -> None:
    """The same observation over two different hidden deals (one card of another hand moved to a third
    seat's, or the hidden cards dealt anew): the same choices for the same RNG."""
    game = cardhall.load_game(game_string)
    bot = make_bot("expert(iterations=3)", game)
    checked = 0
    for seed in range(4):
        for steps in (6, 15):
            state = rules_play(game, seed, steps)
            if state.is_over:
                continue
            seat = state.to_act[0]
            obs = state.observation(seat, ints=True)
            other = game.sample_state(obs, random.Random(seed + 50))  # another deal behind the same view
            assert other.observation(seat, ints=True) == obs
            views = [
                (state.observation(s, ints=True), other.observation(s, ints=True))
                for s in range(game.num_players)
            ]
            hidden_differs = any(a != b for s, (a, b) in enumerate(views) if s != seat)
            checked += hidden_differs
            legal = state.legal_actions(seat)
            assert bot.act(obs, legal, random.Random(7)) == bot.act(
                other.observation(seat, ints=True), other.legal_actions(seat), random.Random(7)
            )
    assert checked >= 2


@pytest.mark.parametrize("game_string", [*REWINDING, "gin(max_hands=1)", "svara(players=4,max_deals=1)"])
def test_the_inference_is_a_proper_distribution(game_string: str) -> None:
    game = cardhall.load_game(game_string)
    state = rules_play(game, 3, mid_deal(game))
    seat = state.to_act[0]
    obs = state.observation(seat, ints=True)
    rng = random.Random(1)
    samples = [game.sample_state(obs, rng) for _ in range(12)]
    weights = weigh(game, obs, samples, policy(game), 0.5, rng)
    assert len(weights) == 12 and all(w >= 0 for w in weights)
    assert sum(weights) == pytest.approx(1.0)
    if game_string in REWINDING:
        assert len(set(weights)) > 1  # the others' play tells some deals from others
    else:
        assert weights == [pytest.approx(1 / 12)] * 12  # no rewind: every sample alike


def voids_shown(game_string: str) -> Iterator[tuple[Game, State, int, int]]:
    """Matches of rules bots in which a seat other than the one to act has shown a void: the game,
    the state, that seat and the suit."""
    game = cardhall.load_game(game_string)
    for seed in range(40):
        for steps in range(8, 40):
            state = rules_play(game, seed, steps)
            if state.is_over:
                break
            obs = state.observation(state.to_act[0], ints=True)
            _, voids = played_and_voids(obs["tricks"], obs["trick"], game.num_players)
            for s, suits in enumerate(voids):
                if s != state.to_act[0] and suits:
                    yield game, state, s, (suits & -suits).bit_length() - 1
                    break
    raise AssertionError(f"{game_string}: no more voids shown in 40 seeds")


def void_shown(game_string: str) -> tuple[Game, State, int, int]:
    """The first of :func:`voids_shown`."""
    return next(voids_shown(game_string))


@pytest.mark.parametrize("game_string", REWINDING[:2])
def test_a_deal_that_contradicts_a_void_gets_no_weight(game_string: str) -> None:
    """The sample in which the seat that did not follow holds a card of the suit led (swapped in from a
    third hand) is impossible: its weight is 0 and the possible one gets all of it."""
    game, state, void_seat, suit = void_shown(game_string)
    me = state.to_act[0]
    obs = state.observation(me, ints=True)
    rng = random.Random(2)
    third = next(s for s in range(game.num_players) if s not in (me, void_seat))
    for _ in range(200):
        good = game.sample_state(obs, rng)
        hands: list[int] = good.hands  # type: ignore[attr-defined]
        if hands[third] & SUIT_MASKS[suit] and hands[void_seat]:
            break
    else:
        raise AssertionError("no sample with a card of the void suit in the third hand")
    bad = good.clone()
    bad_hands: list[int] = bad.hands  # type: ignore[attr-defined]
    c = (bad_hands[third] & SUIT_MASKS[suit]).bit_length() - 1
    d = bad_hands[void_seat].bit_length() - 1
    bad_hands[third] ^= (1 << c) | (1 << d)
    bad_hands[void_seat] ^= (1 << c) | (1 << d)
    model = policy(game)
    assert likelihood(game, obs, good, model, 0.5, rng) > 0
    assert likelihood(game, obs, bad, model, 0.5, rng) == 0.0
    assert weigh(game, obs, [bad, good, bad], model, 0.5, rng) == [0.0, 1.0, 0.0]
    with pytest.raises(ValueError, match="contradicts the play"):
        weigh(game, obs, [bad], model, 0.5, rng)


@pytest.mark.parametrize("game_string", REWINDING)
def test_the_true_deal_is_likelier_than_the_average_sample_when_the_others_play_the_model(
    game_string: str,
) -> None:
    """Against rules bots the deal they really held explains their play better than a deal drawn from
    the observation alone: the inference points at the truth."""
    game = cardhall.load_game(game_string)
    ratios = []
    for seed in range(6):
        state = rules_play(game, seed, mid_deal(game) + 2)
        if state.is_over:
            continue
        seat = state.to_act[0]
        obs = state.observation(seat, ints=True)
        rng = random.Random(seed)
        model = policy(game)
        truth = likelihood(game, obs, state, model, 0.5, rng)
        drawn = [likelihood(game, obs, game.sample_state(obs, rng), model, 0.5, rng) for _ in range(30)]
        ratios.append(truth / (sum(drawn) / len(drawn)))
    assert len(ratios) >= 4
    assert sum(r > 1 for r in ratios) >= len(ratios) - 1


def test_the_expert_searches_no_deal_the_play_rules_out() -> None:
    """Every state the expert searches after a void was shown keeps the void (its log-likelihood is
    finite): counted through the sampler it searches with."""
    searched: list[State] = []

    def searches(game: Game, state: State) -> bool:  # (a decision the rules move settles searches nothing)
        me = state.to_act[0]
        return (
            len(
                set(
                    SearchBot(game).candidates(
                        game, state.observation(me, ints=True), state.legal_actions(me)
                    )
                )
            )
            > 1
        )

    game, state, void_seat, suit = next(v for v in voids_shown("hokm(max_hands=1)") if searches(v[0], v[1]))
    me = state.to_act[0]
    obs = state.observation(me, ints=True)
    bot = make_bot("expert(iterations=20)", game)
    assert isinstance(bot, ExpertBot)
    base = bot.sample

    def spy(observation: Observation, rng: random.Random) -> State:
        drawn = base(observation, rng)
        searched.append(drawn)
        return drawn

    bot.sample = spy
    bot.act(obs, state.legal_actions(me), random.Random(3))
    assert len(searched) == bot.inference["draws"] >= 20
    model = policy(game)
    kept = [s for s in searched if log_likelihood(game, obs, s, model, 0.5, random.Random(0)) != IMPOSSIBLE]
    assert bot.inference["weighed"] == 20 and len(kept) >= 20
    assert all(not s.hands[void_seat] & SUIT_MASKS[suit] for s in kept)  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", range(20))
def test_tempered_weights_are_a_distribution_that_keeps_the_effective_size(seed: int) -> None:
    """Weights sum to one, an impossible sample gets none, the likelier never weighs less, and the
    effective sample size is at least the share asked of the possible samples."""
    rng = random.Random(seed)
    n = rng.randrange(2, 60)
    logs = [rng.uniform(-40.0, 0.0) if rng.random() > 0.2 else IMPOSSIBLE for _ in range(n)]
    logs[rng.randrange(n)] = rng.uniform(-40.0, 0.0)  # at least one possible
    possible = sum(x != IMPOSSIBLE for x in logs)
    for ess, mix in ((0.0, 0.0), (0.5, 0.0), (0.8, 0.1), (1.0, 0.0)):
        w = tempered(logs, ess, mix)
        assert sum(w) == pytest.approx(1.0)
        assert all(wi == 0.0 for wi, x in zip(w, logs, strict=True) if x == IMPOSSIBLE)
        assert all(wi > 0.0 for wi, x in zip(w, logs, strict=True) if x != IMPOSSIBLE)
        order = sorted(range(n), key=lambda i: logs[i])
        assert all(w[a] <= w[b] + 1e-12 for a, b in itertools.pairwise(order))
        assert effective_size(w) >= ess * possible * (1 - 1e-3)
    untempered = tempered(logs, 0.0, 0.0)  # ess 0: the likelihoods themselves
    top = max(logs)
    raw = [math.exp(x - top) if x != IMPOSSIBLE else 0.0 for x in logs]
    assert untempered == pytest.approx([r / sum(raw) for r in raw])
    with pytest.raises(ValueError, match="impossible"):
        tempered([IMPOSSIBLE, IMPOSSIBLE], 0.5, 0.0)


def test_the_weighted_choice_follows_the_likely_deals() -> None:
    """Action 1 is better in the likely deal, action 0 in two unlikely ones: the plain mean picks 0, the
    weighed one 1; the override of the anchor needs the weighted paired advantage to clear its error."""
    game = cardhall.load_game("hokm(max_hands=1)")
    bot = make_bot("expert(iterations=3)", game)
    assert isinstance(bot, ExpertBot)
    values = [[0.0, 10.0], [12.0, 0.0], [12.0, 0.0]]
    weights = tempered([0.0, -5.0, -5.0], 0.0, 0.0)
    assert bot.choose_weighted(values, [1 / 3] * 3, [7, 9], -1) == 7
    assert bot.choose_weighted(values, weights, [7, 9], -1) == 9
    many = [[0.0, 10.0 + i % 3] for i in range(30)]
    assert weighted_clearly_better(many, [1 / 30] * 30, 1, 0)
    assert not weighted_clearly_better(many, [1.0] + [0.0] * 29, 1, 0)  # one deal: no error to clear
    assert bot.choose_weighted(many, [1.0] + [0.0] * 29, [7, 9], 7) == 7


@pytest.mark.parametrize("game_string", GAMES)
def test_expert_plays_every_game_through(game_string: str) -> None:
    game = cardhall.load_game(game_string)
    bots = ["expert(iterations=2,ess=30)", "random"] + ["rules"] * (game.num_players - 2)
    report = simulate(game_string, bots, 2, seed=11)
    assert len(report.results) == 2 and all(r.winners for r in report.results)


def test_expert_thinks_in_the_bot_tier_as_hard_does() -> None:
    assert thinks_elsewhere("expert") and thinks_elsewhere("expert(iterations=4)")
    assert nominal_ms("expert") == 500 and nominal_ms("expert(ms=5000)") == THINK_CAP_MS
    table = Table("hokm(max_hands=1)", ["expert"] * 3, seed=3)
    seat = table.bots_to_act()[0]
    job = table.bot_job(seat)
    assert len(job.legal_actions) > 2
    searched = think(job, 40)
    assert searched.fallback is None and searched.budget_ms == 40 and searched.determinizations > 0
    assert searched.result.action in job.legal_actions
    late = think(job, 300, deadline=time.time() - 1)
    assert late.fallback == "no_time" and late.result.action == rules_move(job).action


@pytest.mark.parametrize("players", [2, 3, 4, 8])
def test_the_benchmark_seats_each_bot_in_every_seat_of_a_deal(players: int) -> None:
    seatings = load_script("bots_expert.py").seatings("x", "y", players)
    assert len(seatings) == (2 if players % 2 == 0 else players)
    for seat in range(players):
        assert {plays[seat] for plays in seatings} == {"x", "y"}
    # Each play pits both bots, as many seats each as the table allows (4 against 4 at eight seats).
    assert all({"x", "y"} <= set(plays) for plays in seatings)
    if players % 2 == 0:
        assert all(plays.count("x") == players // 2 for plays in seatings)


def test_the_oracle_values_a_bot_against_itself_at_nothing() -> None:
    """The benchmark's oracle gives each bot the same dice: a bot against itself differs nowhere."""
    bots = ["search(iterations=2)", "search(iterations=2)", "expert(iterations=2)"]
    rows = load_script("bots_expert.py").oracle("hokm", bots, 6, 2)
    assert len(rows) == 3
    assert rows[1].endswith("| 6 | 0 | +0.000 [+0.000, +0.000] |")
    assert "| expert(iterations=2) | search(iterations=2) | 6 |" in rows[2]
