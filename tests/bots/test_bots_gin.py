"""Gin bots: deals_finished, Gin.sample_state, the gin rules bot, its opponent model and the search bot
on gin. Bots read the ints form of the observation."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardhall
from cardhall.bots import make_bot
from cardhall.bots.rules_gin import (
    GinRulesBot,
    make_sampler,
    misfits,
    refused_by,
    search_candidates,
)
from cardhall.cards import parse_card, parse_cards
from cardhall.games.gin.melds import deadwood_mask
from cardhall.games.gin.rules import KNOCK_BASE, LAYOFF_BASE, NO_SUGGESTION, PASS, STOCK, TAKE, GinState
from cardhall.sim.simulate import simulate
from cardhall.table import Table
from tests.helpers import playing, steps


def test_deals_finished_counts_hands_void_ones_included() -> None:
    game = cardhall.load_game("gin(players=2,max_hands=3)")
    state = game.new_game(seed=1)
    assert isinstance(state, GinState)
    rng = random.Random(1)
    seen = [state.deals_finished]
    for _ in playing(state):
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
        for step in steps(f"{game_string} seed {seed}"):
            if step % every == 0 or state.phase in ("layoff", "over"):
                out.append(state.clone())
            if state.is_over:
                break
            seat = state.to_act[rng.randrange(len(state.to_act))]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
    return out


def play_out(state: GinState, rng: random.Random) -> None:
    for _ in playing(state):
        seat = state.to_act[rng.randrange(len(state.to_act))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])


def sampler(game: cardhall.Game, kind: str) -> Any:
    """``Gin.sample_state`` alone (the opponent's hidden cards dealt uniformly) or a search bot's
    sampler (the opponent model of the rules module)."""
    return game.sample_state if kind == "uniform" else make_sampler(game)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["uniform", "model"])
@pytest.mark.parametrize("game_string", VARIANTS)
def test_sample_state_keeps_the_observation_of_every_seat(game_string: str, kind: str) -> None:
    game = cardhall.load_game(game_string)
    sample = sampler(game, kind)
    rng = random.Random(7)
    states = random_states(game_string, range(6))
    phases = {s.phase for s in states}
    assert {"upcard", "draw", "discard", "over"} <= phases
    for i, state in enumerate(states):
        for seat in range(game.num_players):
            obs = state.observation(seat, ints=True)
            sampled = sample(obs, rng)
            assert isinstance(sampled, GinState)
            assert sampled.observation(seat, ints=True) == obs
            assert sampled.observation(seat) == state.observation(seat)
            cards = [c for zone in sampled.zones().values() for c in zone]
            assert sorted(cards) == sorted(set(cards)) == list(range(52))
            assert sampled.history == [] and sampled.seed != state.seed
            if i % 10 == seat:
                play_out(sampled, random.Random(i))
                assert sampled.winners


@pytest.mark.parametrize("kind", ["uniform", "model"])
def test_sample_state_in_the_lay_off_phase(kind: str) -> None:
    states = [
        s for s in random_states("gin(players=2,max_hands=3)", range(40), every=50) if s.phase == "layoff"
    ]
    assert states
    game = states[0].game
    sample = sampler(game, kind)
    for state in states:
        seat = state.current
        obs = state.observation(seat, ints=True)
        sampled = sample(obs, random.Random(0))
        assert sampled.observation(seat, ints=True) == obs
        assert sampled.legal_actions(seat) == state.legal_actions(seat)
        play_out(sampled, random.Random(1))


@pytest.mark.parametrize("kind", ["uniform", "model"])
def test_sample_state_keeps_cards_seen_taken_and_deals_the_rest_at_random(kind: str) -> None:
    game = cardhall.load_game("gin(players=2)")
    sample = sampler(game, kind)
    state = game.new_game(seed=3)
    assert isinstance(state, GinState)
    up = state.pile[-1]
    taker = state.current
    state.apply(taker, game.parse_action("take discard"))
    other = 1 - taker
    obs = state.observation(other, ints=True)
    opponent_hands = set()
    stocks = set()
    for k in range(20):
        sampled = sample(obs, random.Random(k))
        assert sampled.hands[taker] >> up & 1  # everyone saw it taken
        assert sampled.hands[other] == state.hands[other]
        assert sampled.hands[taker].bit_count() == 11 and len(sampled.stock) == 31
        opponent_hands.add(sampled.hands[taker])
        stocks.add(tuple(sampled.stock))
    # The model's hands come by weight from one pool per observation, so a few may repeat.
    assert len(opponent_hands) >= (20 if kind == "uniform" else 15) and len(stocks) == 20


@pytest.mark.parametrize("kind", ["uniform", "model"])
def test_sample_state_for_the_advisor_keeps_the_team_hand_and_the_suggestion(kind: str) -> None:
    game = cardhall.load_game("gin")
    state = game.new_game(seed=5)
    assert isinstance(state, GinState)
    captain, advisor = state.nondealer, state.advisor
    state.apply(advisor, game.parse_action("suggest take discard"))
    obs = state.observation(advisor, ints=True)
    sampled = sampler(game, kind)(obs, random.Random(0))
    assert sampled.hands[captain] == state.hands[captain]
    assert sampled.suggestion == state.suggestion and sampled.advised
    assert sampled.observation(advisor, ints=True) == obs
    assert sampled.observation(captain, ints=True) == state.observation(captain, ints=True)


# --- the rules bot -------------------------------------------------------------------------------

KNOCKER = "AS 2S 3S 4H 4D 4C KH KD KC 9D"  # deadwood 9 (the 9D)
OPP_PLAIN = "5C 6C 7C 8H 8S 9H 10S JS QD 2D"
OPP = "5C 6C 7C 9S 10H JS QD KD 2D 6H"  # no meld; fits none of the hands below


def stack(nd: str, dl: str, up: str, stock_top: str = "") -> list[int]:
    """A deck dealing ``nd`` to the non-dealer (captain), ``dl`` to the dealer (box), ``up`` face up,
    and ``stock_top`` (top first) on top of the stock."""
    a, b, u, top = parse_cards(nd), parse_cards(dl), parse_card(up), parse_cards(stock_top)
    used = [*a, *b, u, *top]
    assert len(set(used)) == len(used) and len(a) == len(b) == 10
    rest = [c for c in range(52) if c not in used]
    return [x for pair in zip(a, b, strict=True) for x in pair] + [u, *top] + rest


def new(nd: str, dl: str, up: str, stock_top: str = "", game: str = "gin(players=2)") -> GinState:
    state = cardhall.load_game(game).new_game(seed=1, deck=stack(nd, dl, up, stock_top))
    assert isinstance(state, GinState)
    return state


def act(state: GinState, seat: int, label: str) -> None:
    state.apply(seat, state.game.parse_action(label))


def choice(state: GinState, seat: int | None = None, obs: dict[str, Any] | None = None) -> str:
    seat = state.current if seat is None else seat
    legal = state.legal_actions(seat)
    bot = make_bot("rules", state.game)
    action = bot.act(state.observation(seat, ints=True) if obs is None else obs, legal, random.Random(0))
    assert action in legal
    return state.game.action_label(action)


def test_rules_bot_is_found_by_name() -> None:
    for gs in ("gin", "gin(players=2)"):
        game = cardhall.load_game(gs)
        assert isinstance(make_bot("rules", game), GinRulesBot)


def test_takes_the_up_card_only_when_it_melds() -> None:
    hand = "7H 8H 2C 5D 9C JC QS KS 3D AC"
    assert choice(new(hand, OPP, "9H")) == "take discard"  # 7H 8H 9H
    assert choice(new(hand, OPP, "KH")) == "pass"  # high and alone
    assert choice(new(hand, OPP, "6S")) == "pass"  # low, but no meld and no knock


def test_takes_a_discard_that_lets_it_knock_at_once() -> None:
    # The 2H melds with nothing, but taking it and throwing the QH leaves deadwood 4+3+2 = 9.
    state = new("AS 2S 3S 5D 6D 7D 8D 4H 3C QH", OPP, "2H")
    assert choice(state) == "take discard"
    act(state, state.nondealer, "take discard")
    assert choice(state) == "knock QH"


def test_draw_phase_takes_a_set_card_and_otherwise_draws() -> None:
    state = new("7H 7D 2C 5D 8S JC QS KS 3D AC", OPP, "KH", "2H")
    act(state, state.nondealer, "pass")
    act(state, state.dealer, "pass")
    act(state, state.nondealer, "discard KS")
    assert state.phase == "draw" and state.current == state.dealer
    assert choice(state) == "draw stock"  # KS is no use to 5C 6C 7C 9S 10H JS QD KD 2D 6H
    obs = state.observation(state.dealer, ints=True)
    obs["discard_pile"][-1] = parse_card("8C")  # 5C 6C 7C 8C
    assert choice(state, obs=obs) == "take discard"
    obs["discard_pile"][-1] = parse_card("4C")  # 4C 5C 6C 7C
    assert choice(state, obs=obs) == "take discard"


def test_discards_the_highest_unmatched_card_keeping_pairs_and_safe_cards() -> None:
    state = new("AS 2S 3S 2C 4D KC JD JH 8C 9H", OPP, "KH", "3H")
    act(state, state.nondealer, "pass")
    act(state, state.dealer, "pass")
    # Deadwood 2C 4D KC JD JH 8C 9H 3H: KC is the highest card with no prospects (the Js are a pair).
    assert choice(state) == "discard KC"


def test_never_feeds_a_meld_the_opponent_was_seen_taking() -> None:
    state = new("AS 2S 3S 2C 4D 10S QC JD JH 9H", OPP, "KH", "3H")
    act(state, state.nondealer, "pass")
    act(state, state.dealer, "pass")
    obs = state.observation(state.nondealer, ints=True)
    opp = state.dealer
    assert choice(state, obs=obs) in ("discard QC", "discard 10S")
    # The opponent holds 8S 9S (seen taken from the pile): the 10S would make him a run.
    obs["known_cards"][opp] = parse_cards("8S 9S")
    assert choice(state, obs=obs) == "discard QC"
    # He holds QH and QD: the QC would make him a set.
    obs["known_cards"][opp] = parse_cards("QH QD")
    assert choice(state, obs=obs) == "discard 10S"


def test_knocks_early_holds_late_and_always_goes_gin() -> None:
    state = new(KNOCKER, OPP_PLAIN, "6D", "8C")
    act(state, state.nondealer, "pass")
    act(state, state.dealer, "pass")
    # Deadwood after throwing 9D: 8 (the 8C); early in the hand it knocks.
    assert choice(state) == "knock 9D"
    obs = state.observation(state.nondealer, ints=True)
    obs["stock_size"] = 5  # late: 8 is too much, it plays on toward gin
    assert choice(state, obs=obs) == "discard 9D"
    gin = new(KNOCKER, OPP_PLAIN, "6D", "4S")
    act(gin, gin.nondealer, "pass")
    act(gin, gin.dealer, "pass")
    obs = gin.observation(gin.nondealer, ints=True)
    obs["stock_size"] = 3
    assert choice(gin, obs=obs) == "knock 9D"  # gin: AS-4S, 4H 4D 4C... deadwood 0


def test_lays_off_what_lowers_its_deadwood_and_keeps_its_own_melds() -> None:
    state = new(KNOCKER, "4S 5S 6S KS 7C 8C 10D JH QC 2D", "6D", "2H")
    nd, dl = state.nondealer, state.dealer
    act(state, nd, "pass")
    act(state, dl, "pass")
    act(state, nd, "knock 9D")
    act(state, nd, "arrange 1")  # the least deadwood (he could also keep AS 2S 3S out of a run)
    assert state.phase == "layoff" and state.current == dl
    assert choice(state) == "lay off KS"
    act(state, dl, "lay off KS")
    assert "lay off 4S" in [state.game.action_label(a) for a in state.legal_actions(dl)]
    assert choice(state) == "done"  # the 4S belongs to its own run 4S 5S 6S


def test_advisor_suggests_what_the_bot_would_play_as_captain() -> None:
    state = new("7H 8H 2C 5D 9C JC QS KS 3D AC", OPP, "9H", game="gin")
    captain, advisor = state.nondealer, state.advisor
    assert set(state.to_act) == {captain, advisor}
    assert choice(state, advisor) == "suggest take discard"
    assert choice(state, captain) == "take discard"
    act(state, captain, "take discard")
    assert choice(state, advisor) == "suggest " + choice(state, captain)


def test_decision_depends_on_the_observation_only() -> None:
    hand = "AS 2S 3S 2C 4D KC JD JH 8C 9H"
    a = new(hand, OPP, "KH", "3H")
    b = new(hand, "5H 6H 7H 8D 9D 10D QS QH 5S 4C", "KH", "3H")
    for s in (a, b):
        act(s, s.nondealer, "pass")
        act(s, s.dealer, "pass")
    assert a.observation(a.nondealer, ints=True) == b.observation(b.nondealer, ints=True)
    assert a.hands[a.dealer] != b.hands[b.dealer]
    for spec in ("rules", "search(iterations=3)"):
        picks = set()
        for s in (a, b):
            bot = make_bot(spec, s.game)
            picks.add(
                bot.act(s.observation(s.nondealer, ints=True), s.legal_actions(s.nondealer), random.Random(4))
            )
        assert len(picks) == 1


@pytest.mark.parametrize("game_string", ["gin(players=2,max_hands=1)", "gin(max_hands=1)"])
def test_search_bot_plays_a_short_match(game_string: str) -> None:
    game = cardhall.load_game(game_string)
    bots = ["search(iterations=2)"] + ["rules"] * (game.num_players - 1)
    state = Table(game, bots, seed=3, events=False).play()
    assert state.is_over and state.deals_finished == 1


def test_rules_beats_random_clearly() -> None:
    report = simulate("gin(players=2,max_hands=1)", ["rules", "random"], 30, rotate=True)
    rules = report.summary()["by_bot"][0]
    assert rules["bot"] == "rules"
    assert rules["margin"]["low"] > 15


def test_the_opponent_model_deals_him_a_plausible_hand() -> None:
    """After some turns the opponent the model samples holds less deadwood than a uniform deal of the
    same cards (``Gin.sample_state`` alone), and fewer of the cards he threw away or passed on would
    meld with it."""
    game = cardhall.load_game("gin(players=2,max_hands=1)")
    rules = make_bot("rules", game)
    rng = random.Random(0)
    for seed in range(50):
        state = game.new_game(seed=seed)
        assert isinstance(state, GinState)
        for _ in playing(state):
            if len(state.stock) <= 22 and state.phase == "draw":
                break
            seat = state.to_act[0]
            state.apply(seat, rules.act(state.observation(seat, ints=True), state.legal_actions(seat), rng))
        if not state.is_over:
            break
    assert not state.is_over
    me = state.current
    opp = 1 - me
    obs = state.observation(me, ints=True)
    model = make_sampler(game)
    sampled = [model(obs, random.Random(k)).hands[opp] for k in range(40)]
    uniform = [game.sample_state(obs, random.Random(k)).hands[opp] for k in range(40)]
    refused = refused_by(state.log, state.pile, opp)
    assert refused
    assert sum(map(deadwood_mask, sampled)) < sum(map(deadwood_mask, uniform)) - 200
    assert sum(misfits(h, refused) for h in sampled) < sum(misfits(h, refused) for h in uniform)


def refusals(log: list[tuple[int, int, int]], pile: list[int]) -> dict[int, int]:
    """Per seat, the cards it discarded or passed on this hand, by replaying the discard pile (the
    reference for ``refused_by``)."""
    pile = list(pile)
    for _, a, c in reversed(log):  # back to the pile as dealt: the up-card alone
        if a < LAYOFF_BASE:
            pile.pop()
        elif a == TAKE:
            pile.append(c)
    refused: dict[int, int] = {}
    for s, a, c in log:
        if a < LAYOFF_BASE:
            pile.append(c)
            refused[s] = refused.get(s, 0) | 1 << c
        elif a == TAKE:
            pile.pop()
        elif a in (PASS, STOCK) and pile:
            refused[s] = refused.get(s, 0) | 1 << pile[-1]
    return refused


# The three-hand variants take most of the time (many states, a longer hand): the quick run keeps one.
@pytest.mark.parametrize(
    "game_string", [VARIANTS[0], *(pytest.param(v, marks=pytest.mark.slow) for v in VARIANTS[1:])]
)
def test_rules_bot_reads_the_state_as_it_reads_the_observation(game_string: str) -> None:
    """``act_state`` (fast rollouts) chooses what ``act`` chooses on the seat's observation, and
    ``refused_by`` reads the same refusals from the log as a replay of the discard pile does."""
    game = cardhall.load_game(game_string)
    bot = GinRulesBot(game)
    checked = 0
    for state in random_states(game_string, range(40), every=1):
        for s in range(game.num_players):
            assert refused_by(state.log, state.pile, s) == refusals(state.log, state.pile).get(s, 0)
        for seat in state.to_act:
            legal = state.legal_actions(seat)
            want = bot.act(state.observation(seat, ints=True), legal, random.Random(1))
            assert bot.act_state(state, seat, legal, random.Random(1)) == want
            checked += 1
    assert checked > 500


def rules_play_states(game_string: str, seeds: range) -> list[GinState]:
    """Every state along matches of rules bots (they reach knockable hands, random play rarely does)."""
    game = cardhall.load_game(game_string)
    bot = GinRulesBot(game)
    out: list[GinState] = []
    for seed in seeds:
        state = game.new_game(seed=seed)
        assert isinstance(state, GinState)
        for _ in playing(state):
            out.append(state.clone())
            seat = state.to_act[0]
            state.apply(
                seat, bot.act(state.observation(seat, ints=True), state.legal_actions(seat), random.Random(0))
            )
    return out


@pytest.mark.parametrize("game_string", VARIANTS)
def test_search_only_searches_knock_decisions_and_lay_offs(game_string: str) -> None:
    """A plain discard, take-or-draw and an advisor's suggestion get one candidate, the rules bot's
    choice, played without sampling a single state; a discard with a knock legal is searched among
    the rules bot's best discards and the best knock."""
    game = cardhall.load_game(game_string)
    rules = GinRulesBot(game)
    narrowed = searched = 0
    for state in rules_play_states(game_string, range(6)):
        for seat in state.to_act:
            legal = state.legal_actions(seat)
            if len(legal) < 2:
                continue
            obs = state.observation(seat, ints=True)
            short = search_candidates(game, obs, legal)
            bot = make_bot("search(iterations=3)", game)
            played = bot.act(obs, legal, random.Random(2))
            if legal[0] >= STOCK or legal[-1] == NO_SUGGESTION or legal[-1] < KNOCK_BASE:
                assert short == [rules.act(obs, legal, random.Random(2))]
                assert played == short[0]
                assert bot.stats["determinizations"] == 0
                narrowed += 1
            elif legal[-1] < LAYOFF_BASE:
                assert any(a >= KNOCK_BASE for a in short) and len(short) == 4
                assert set(short) <= set(legal)
                assert bot.stats["determinizations"] == 3
                searched += 1
    assert narrowed > 50 and searched > 2


def test_sampled_opponent_deadwood_is_his_real_deadwood_on_average() -> None:
    """The search values a knock by the opponent's deadwood, so the hands the opponent model samples
    must carry about the deadwood he really holds (see benchmarks/bots-gin.md for the weights tried)."""
    game = cardhall.load_game("gin(players=2,max_hands=1)")
    model = make_sampler(game)
    gaps = []
    for i, state in enumerate(rules_play_states("gin(players=2,max_hands=1)", range(40))):
        if i % 5 or state.phase not in ("draw", "discard"):
            continue
        me = state.to_act[0]
        opp = 1 - me
        obs = state.observation(me, ints=True)
        rng = random.Random(i)
        sampled = [model(obs, rng).hands[opp] for _ in range(4)]
        gaps.append(sum(map(deadwood_mask, sampled)) / 4 - deadwood_mask(state.hands[opp]))
    assert len(gaps) > 80
    assert abs(sum(gaps) / len(gaps)) < 1.5
