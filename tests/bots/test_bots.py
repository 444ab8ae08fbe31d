"""Bots: the protocol, ``make_bot``, Hokm's ``sample_state``, the Hokm rules bot, the search bot and the
decisions' weights for the bot tier."""

from __future__ import annotations

import random
import time
import types

import pytest

import cardhall
from cardhall.bots import BOT_LEVELS, BOTS, RandomBot, SearchBot, make_bot, resolve_level
from cardhall.bots.rules import (
    NEUTRAL_WEIGHT,
    decision_weight,
    decision_weights,
    rules_bot_class,
    rules_games,
)
from cardhall.bots.rules_hokm import HokmRulesBot
from cardhall.cards import SUIT_MASKS, cards_of, parse_card, parse_cards
from cardhall.core import Game, State
from cardhall.games.hokm.rules import HokmState, deck_for_hands
from cardhall.sim.simulate import simulate
from cardhall.table import Table, run_bot_job
from tests.helpers import bot_label, playing, random_states

VARIANTS = [
    "hokm(max_hands=2)",
    "hokm(max_hands=2,bidding=auction,overtricks=count)",
    "hokm(max_hands=2,must_trump_when_void=true,must_overtrump=true,overtricks=exact)",
]

# With seed 0 the first dealer is seat 2, so seat 0 bids and leads first.
DEAL = [
    "JH 9H AH 8H KS QS AC KC QC JC",
    "10H KH 10C 9C 8C 7C 9S 8S JS AD",
    "QH AS 10S 7S KD QD JD 10D 9D 8D",
]


def state_with(hands: list[str], options: str = "") -> HokmState:
    game = cardhall.load_game(f"hokm({options})" if options else "hokm")
    dealer = game.new_game(seed=0).dealer  # type: ignore[attr-defined]
    state = game.new_game(seed=0, deck=deck_for_hands(dealer, [parse_cards(h) for h in hands]))
    assert isinstance(state, HokmState)
    return state


def act(state: State, text: str) -> None:
    state.apply(state.to_act[0], state.game.parse_action(text))


def declared(options: str = "") -> HokmState:
    """DEAL with seat 0 declaring 5 in hearts, seats 1 and 2 bidding Bas; seat 0 to lead."""
    state = state_with(DEAL, options)
    for text in ("bid 5", "bid bas", "bid bas", "trump H"):
        act(state, text)
    return state


# --- make_bot --------------------------------------------------------------------------------------


def test_bots_by_name() -> None:
    game = cardhall.load_game("hokm")
    assert {"random", "rules", "search", "expert"} <= set(BOTS)
    assert make_bot("rules", game).name == "rules"
    assert make_bot("search(ms=500)", game).name == "search"
    assert cardhall.make_bot("search(iterations=3,rollout=random)", "hokm").name == "search"
    assert rules_bot_class(game) is HokmRulesBot


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("genius", "unknown bot 'genius'"),
        ("search(ms=0)", "ms"),
        ("search(rollout=smart)", "smart"),
        ("search(depth=3)", "depth"),
        ("rules(ms=3)", "ms"),
    ],
)
def test_bad_bot_strings_are_refused(spec: str, fragment: str) -> None:
    with pytest.raises(cardhall.InvalidOptionError, match=fragment):
        make_bot(spec, cardhall.load_game("hokm"))


@pytest.mark.parametrize("game_string", ["hokm", "kierki", "hearts", "gin", "svara"])
def test_bots_by_level(game_string: str) -> None:
    game = cardhall.load_game(game_string)
    assert list(BOT_LEVELS) == ["easy", "normal", "hard", "expert"]  # easiest first: the lobby's order
    easy, normal, hard = (make_bot(level, game) for level in ("easy", "normal", "Hard"))
    assert isinstance(easy, RandomBot)
    assert type(normal) is rules_bot_class(game)
    assert isinstance(hard, SearchBot) and hard.ms == 300
    assert resolve_level("hard") == "search(ms=300)"
    assert resolve_level("search(ms=50)") == "search(ms=50)"


def test_a_level_takes_no_options_and_unknown_names_list_the_levels() -> None:
    game = cardhall.load_game("hokm")
    with pytest.raises(cardhall.InvalidOptionError, match=r"level 'hard' takes no options \(it is search"):
        make_bot("hard(ms=100)", game)
    with pytest.raises(cardhall.InvalidOptionError, match="levels: easy, normal, hard, expert"):
        make_bot("genius", game)


def test_a_table_and_a_simulation_seat_bots_by_level() -> None:
    table = Table("hokm(max_hands=1)", ["easy", "normal", "hard"], seed=4)
    assert [o.bot for o in table.seats] == ["easy", "normal", "hard"]
    job = table.bot_job(table.to_act[0])
    table.apply_bot(job, run_bot_job(job))  # a worker makes the bot from the level too
    report = simulate("hokm(max_hands=1)", ["easy", "normal", "easy"], 2, jobs=1)
    assert report.summary()["bots"] == ["easy", "normal", "easy"]


def test_rules_refuses_a_game_without_a_rules_bot() -> None:
    fake = types.SimpleNamespace(name="nosuchgame")
    with pytest.raises(cardhall.InvalidOptionError, match="no player for nosuchgame"):
        make_bot("rules", fake)  # type: ignore[arg-type]
    with pytest.raises(cardhall.InvalidOptionError, match="no player for nosuchgame"):
        make_bot("search(rollout=rules)", fake)  # type: ignore[arg-type]


def test_sample_state_default_names_the_game() -> None:
    game = cardhall.load_game("hokm")
    obs = game.new_game(seed=1).observation(0, ints=True)
    with pytest.raises(NotImplementedError, match="hokm"):
        Game.sample_state(game, obs, random.Random(0))


# --- sample_state ----------------------------------------------------------------------------------


@pytest.mark.parametrize("game_string", VARIANTS)
def test_sampled_state_has_the_same_observation_and_plays_on(game_string: str) -> None:
    game = cardhall.load_game(game_string)
    rng = random.Random(11)
    states = random_states(game_string, range(4))
    for i, state in enumerate(states):
        for seat in range(3):
            obs = state.observation(seat, ints=True)
            sampled = game.sample_state(obs, rng)
            assert sampled.observation(seat, ints=True) == obs
            assert sorted(c for z in sampled.zones().values() for c in z) == sorted(game.deck())
        if i % 9 == 0:  # the sampled state plays on to the end
            sampled = game.sample_state(
                state.observation(state.to_act[0] if state.to_act else 0, ints=True), rng
            )
            for _ in playing(sampled):
                seat = sampled.to_act[0]
                sampled.apply(seat, rng.choice(sampled.legal_actions(seat)))
            assert sampled.winners


def test_sampled_state_deals_hidden_cards_anew_and_respects_voids() -> None:
    game = cardhall.load_game("hokm")
    state = declared()
    for text in ("play AC", "play 7C", "play QH"):  # seat 2 shows a club void (and ruffs)
        act(state, text)
    obs = state.observation(0, ints=True)
    rng = random.Random(3)
    others = set()
    for _ in range(40):
        sampled = game.sample_state(obs, rng)
        assert isinstance(sampled, HokmState)
        assert sampled.hands[0] == state.hands[0]
        assert not sampled.hands[2] & SUIT_MASKS[0]  # no club for the seat void in clubs
        others.add(sampled.hands[1])
        assert sampled.seed != state.seed
    assert len(others) > 5


# --- the rules bot for Hokm --------------------------------------------------------------------------


def test_rules_names_the_long_suit_with_honours_as_trump() -> None:
    state = state_with(DEAL)
    for text in ("bid 5", "bid bas", "bid bas"):
        act(state, text)
    assert bot_label(state) == "trump H"


def test_rules_draws_trumps_with_the_master_trump() -> None:
    assert bot_label(declared()) == "play JH"


def test_rules_ducks_low_and_wins_cheaply_when_last() -> None:
    state = declared()
    act(state, "play KS")
    assert bot_label(state) == "play 8S"  # seat 1 cannot beat KS: lowest spade, keeps JS
    act(state, "play 8S")
    assert bot_label(state) == "play 10S"  # seat 2, last: 10S wins as well as AS, cheaper


def test_rules_trumps_when_void() -> None:
    state = declared()
    act(state, "play AC")
    act(state, "play 7C")
    assert bot_label(state) == "play QH"


def test_rules_discards_a_low_side_card_when_it_cannot_win() -> None:
    state = declared()
    act(state, "play JH")  # seat 1 must follow hearts, seat 2 then plays its only heart
    act(state, "play KH")
    act(state, "play QH")
    act(state, "play 9H")  # seat 0 leads again; seats 1, 2 hold one and no heart
    act(state, "play 10H")
    assert bot_label(state) == "play 7S"  # void, cannot win: the lowest side card, not a master


def test_rules_ducks_with_the_highest_loser_once_exact_contract_is_made() -> None:
    state = declared("overtricks=exact")
    state.tricks_won[1] = 2  # seat 1's Bas is made; more tricks would fail it
    act(state, "play AC")
    assert bot_label(state) == "play 10C"  # sheds its highest club under the ace


def test_rules_beats_random_by_a_wide_margin() -> None:
    report = simulate("hokm(max_hands=1)", ["rules", "random", "random"], 60, rotate=True)
    rules = report.summary()["by_bot"][0]
    assert rules["bot"] == "rules"
    assert rules["margin"]["low"] > 30
    assert rules["win_rate"]["low"] > 0.5


# --- the search bot ----------------------------------------------------------------------------------


def test_search_never_reads_the_true_state() -> None:
    """Other seats' hidden cards dealt differently, same observation, same seed: same decision."""
    game = cardhall.load_game("hokm(max_hands=1)")
    bot = make_bot("search(iterations=4,rollout=rules)", game)
    checked = 0
    for state in random_states("hokm(max_hands=1)", range(3))[::7]:
        if state.is_over:
            continue
        seat = state.to_act[0]
        other = state.resample(seat, random.Random(99))
        hidden = [s for s in range(3) if s != seat]
        if state.phase != "over" and any(state.hands[s] != other.hands[s] for s in hidden):  # type: ignore[attr-defined]
            checked += 1
        obs, obs2 = state.observation(seat, ints=True), other.observation(seat, ints=True)
        assert obs == obs2
        a = bot.act(obs, state.legal_actions(seat), random.Random(5))
        b = bot.act(obs2, other.legal_actions(seat), random.Random(5))
        assert a == b
    assert checked >= 5


def test_search_with_iterations_is_deterministic() -> None:
    state = declared()
    act(state, "play KS")
    act(state, "play 8S")
    labels = {bot_label(state, "search(iterations=8)", seed=4) for _ in range(3)}
    assert len(labels) == 1


def test_search_takes_the_trick_it_needs() -> None:
    state = declared()
    act(state, "play KS")
    act(state, "play 8S")
    assert bot_label(state, "search(iterations=20,rollout=random)") in ("play AS", "play 10S")
    assert bot_label(state, "search(iterations=10,rollout=rules)") in ("play AS", "play 10S")


def test_search_keeps_its_time_budget_and_counts_its_work() -> None:
    game = cardhall.load_game("hokm")
    state = declared()
    bot = make_bot("search(ms=100)", game)
    start = time.perf_counter()
    action = bot.act(state.observation(0, ints=True), state.legal_actions(0), random.Random(0))
    assert time.perf_counter() - start < 0.6
    assert action in state.legal_actions(0)
    stats = bot.stats  # type: ignore[attr-defined]
    assert stats["decisions"] == 1 and stats["determinizations"] >= 1
    assert stats["rollouts"] == stats["determinizations"] * len(state.legal_actions(0))


def test_search_plays_whole_matches_legally() -> None:
    report = simulate("hokm(max_hands=1)", ["search(iterations=2)", "rules", "random"], 2)
    assert len(report.results) == 2
    assert all(r.winners for r in report.results)


def test_a_forced_move_needs_no_search() -> None:
    game = cardhall.load_game("hokm")
    bot = make_bot("search(iterations=1000)", game)
    assert bot.act({"seat": 0}, [parse_card("AS")], random.Random(0)) == parse_card("AS")
    assert cards_of(1 << 3) == [3]


def test_clearly_better_needs_a_paired_advantage_beyond_the_noise() -> None:
    from cardhall.bots.search import clearly_better

    steady = [[1.0 + k % 3, 0.0 + k % 3] for k in range(10)]  # always one better
    assert clearly_better(steady, 0, 1)
    noisy = [[10.0, 0.0], [-10.0, 0.0], [10.0, 0.0], [-9.0, 0.0]]  # better on average, within noise
    assert not clearly_better(noisy, 0, 1)
    assert not clearly_better([[5.0, 0.0]], 0, 1)  # one determinization proves nothing
    modest = [[1.0, 0.0], [0.0, 0.0], [2.0, 0.0], [-0.5, 0.0], [1.0, 0.0]]
    assert clearly_better(modest, 0, 1, z=1.0) and not clearly_better(modest, 0, 1, z=2.0)
    assert make_bot("search(z=20)", cardhall.load_game("hokm")).z == 2.0  # type: ignore[attr-defined]


def test_anchored_search_keeps_the_rules_move_when_nothing_separates_the_actions() -> None:
    # A gin advisor's suggestion never changes the game: every suggestion has the same value, so the
    # anchored search suggests what the rules player would, and plain PIMC the lowest action.
    game = cardhall.load_game("gin(max_hands=1)")
    state = game.new_game(seed=3)
    rng = random.Random(3)
    checked = 0
    for _ in playing(state):
        if checked == 3:
            break
        if len(state.to_act) == 2:
            advisor = state.to_act[1]
            obs, legal = state.observation(advisor, ints=True), state.legal_actions(advisor)
            rules_pick = make_bot("rules", game).act(obs, legal, random.Random(1))
            anchored = make_bot("search(iterations=3)", game).act(obs, legal, random.Random(1))
            plain_bot = make_bot("search(iterations=3,anchor=none)", game)
            plain = plain_bot.act(obs, legal, random.Random(1))
            assert anchored == rules_pick
            assert plain == min(plain_bot.candidates(game, obs, legal))  # type: ignore[attr-defined]
            checked += 1
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
    assert checked


# --- the decisions' weights (for the bot tier's scheduler) ------------------------------------------


@pytest.mark.parametrize("game_string", rules_games())
def test_every_kind_of_decision_a_game_makes_has_a_weight(game_string: str) -> None:
    weights = decision_weights(game_string)
    assert weights and all(isinstance(w, int) and w >= NEUTRAL_WEIGHT for w in weights.values())
    made = set()
    for seed in range(2):  # (matches of the rules bots: they end, and reach every kind of decision)
        table = Table(game_string, ["rules"] * Table(game_string).game.num_players, seed=seed)
        for _ in playing(table):
            seat = table.bots_to_act()[0]
            observation = table.bot_job(seat).observation
            made.add(observation["phase"])
            assert decision_weight(game_string, observation) == weights.get(observation["phase"])
            table.play_bot(seat)
    missing = made - set(weights)
    assert not missing, f"{game_string}: no weight for the decisions of phase(s) {sorted(missing)}"


def test_hokm_weighs_its_contract_above_its_cards_and_any_form_of_the_game_the_same() -> None:
    weights = decision_weights("hokm")
    assert weights["bidding"] > weights["play"] and weights["trump"] > weights["play"]
    assert decision_weights("hokm(max_hands=1)") == weights
    # A phase the module does not know weighs neutral (the test above requires every real one).
    assert decision_weight("hokm", {"phase": "elsewhere"}) == NEUTRAL_WEIGHT
