"""Hearts for bots: ``deals_finished``, ``Hearts.sample_state``, the rules bot's habits (from the ints form
of the observation, and straight from a state), the search bot and its candidates."""

from __future__ import annotations

import random

import pytest

import cardhall
from cardhall.bots import make_bot
from cardhall.bots.rules_hearts import HeartsRulesBot, pass_choice, pass_order, search_candidates
from cardhall.bots.search import rollout_value
from cardhall.cards import SUIT_MASKS, parse_card
from cardhall.core import State
from cardhall.games.hearts.rules import FACES, PASS_BASE, Hearts, HeartsState
from cardhall.sim.simulate import simulate
from tests.games.hearts.test_hearts_rules import deal, moon_deal, play, run_hand
from tests.helpers import bounded, playing, steps

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
        for i in steps(f"{game_string} seed {seed}"):
            if i % every == 0 or state.is_over:
                out.append(state.clone())
            if state.is_over:
                break
            seat = rng.choice(state.to_act)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    return out


def suit2(suit: int) -> int:
    return SUIT_MASKS[suit] | SUIT_MASKS[suit] << FACES


# --- deals_finished --------------------------------------------------------------------------------


def test_deals_finished_counts_finished_hands() -> None:
    state = cardhall.load_game("hearts(decks=1,players=4,max_hands=3)").new_game(seed=5)
    rng = random.Random(5)
    seen = [state.deals_finished]
    for _ in playing(state):
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
            obs = state.observation(seat, ints=True)
            sampled = game.sample_state(obs, rng)
            assert sampled.observation(seat, ints=True) == obs
            assert sampled.observation(seat) == state.observation(seat)
            assert sorted(c for z in sampled.zones().values() for c in z) == sorted(game.deck())
        if i % 15 == 0:  # the sampled state plays on to the end
            seat = state.to_act[0] if state.to_act else 0
            sampled = game.sample_state(state.observation(seat, ints=True), rng)
            for _ in playing(sampled):
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
        sampled = game.sample_state(state.observation(seat, ints=True), rng)
        assert sampled.observation(seat) == state.observation(seat)
    sampled = game.sample_state(state.observation(1, ints=True), rng)
    play(sampled, "0:moon plus")  # the shooter's choice is still open in the sample
    play(state, "0:moon plus")
    assert state.is_over
    for seat in range(4):
        sampled = game.sample_state(state.observation(seat, ints=True), rng)
        assert sampled.observation(seat) == state.observation(seat)


def test_sample_state_refuses_a_spectators_observation() -> None:
    game = cardhall.load_game("hearts")
    with pytest.raises(ValueError, match="one seat's observation"):
        game.sample_state(game.new_game(seed=1).observation(None, ints=True), random.Random(0))


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
    obs = state.observation(0, ints=True)
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


# --- the rules bot ---------------------------------------------------------------------------------

ONE = "hearts(decks=1,players=4,max_hands=1)"
TWO = "hearts(max_hands=1)"


def observation(
    game_string: str,
    hand: str,
    *,
    phase: str = "play",
    trick: str = "",
    tricks: list[tuple[str, int | None]] | None = None,
    seat: int = 0,
    leader: int = 1,
    trick_points: list[int] | None = None,
    scores: list[int] | None = None,
) -> dict[str, object]:
    """A hand-made observation (the ints form bots read) with the keys the rules bot reads.
    ``trick``/``tricks`` list the cards in order of play, from ``leader`` on (tricks: ``(cards, winner)``,
    each led by seat 1)."""
    n = cardhall.load_game(game_string).num_players

    def plays(cards: str, first: int) -> list[dict[str, object]]:
        return [{"seat": (first + i) % n, "card": parse_card(c)} for i, c in enumerate(cards.split())]

    return {
        "seat": seat,
        "phase": phase,
        "hand": [parse_card(c) for c in hand.split()],
        "hand_sizes": [len(hand.split())] * n,
        "trick": plays(trick, leader),
        "tricks": [{"leader": 1, "cards": plays(c, 1), "winner": w} for c, w in tricks or []],
        "trick_points": trick_points or [0] * n,
        "scores": scores or [0] * n,
    }


def choose(game_string: str, obs: dict[str, object], legal: list[str]) -> str:
    game = cardhall.load_game(game_string)
    bot = make_bot("rules", game)
    action = bot.act(obs, sorted(game.parse_action(a) for a in legal), random.Random(0))
    return game.action_label(action)


def labels(prefix: str, cards: str) -> list[str]:
    return [f"{prefix} {c}" for c in cards.split()]


def test_rules_passes_an_unguarded_queen_and_high_spades_then_high_hearts() -> None:
    hand = "QS AS 3S 2C 5C 9D 4D 3H AH 7C 8C 2D 6D"
    obs = observation(ONE, hand, phase="pass")
    assert choose(ONE, obs, labels("pass", hand)) == "pass QS"
    hand = "AS KS 3S 2C 5C 9D 4D 3H AH 7C 8C 2D 6D"
    assert choose(ONE, observation(ONE, hand, phase="pass"), labels("pass", hand)) == "pass AS"
    hand = "QS 2S 3S 4S 5S 9D 4D 3H AH 7C 8C 2D 6D"  # the queen is guarded: keep her, pass A♥
    assert choose(ONE, observation(ONE, hand, phase="pass"), labels("pass", hand)) == "pass AH"


def test_rules_ducks_with_the_highest_card_that_loses() -> None:
    hand = "2D 8D JD AD 5C"
    obs = observation(ONE, hand, trick="10D 3D", leader=2, seat=0)
    assert choose(ONE, obs, labels("play", "2D 8D JD AD")) == "play 8D"


def test_rules_drops_the_queen_under_a_higher_spade() -> None:
    hand = "2S QS 5C"
    obs = observation(ONE, hand, trick="KS", leader=3, seat=0)
    assert choose(ONE, obs, labels("play", "2S QS")) == "play QS"


def test_rules_discards_the_queen_then_high_spades_then_hearts_when_void() -> None:
    hand = "QS AS 9H 2H 5C"
    obs = observation(ONE, hand, trick="4D", leader=3, seat=0)
    assert choose(ONE, obs, labels("play", hand)) == "play QS"
    hand = "AS 9H 2H 5C"
    assert choose(ONE, observation(ONE, hand, trick="4D", leader=3), labels("play", hand)) == "play AS"
    hand = "3S 9H 2H 5C"
    assert choose(ONE, observation(ONE, hand, trick="4D", leader=3), labels("play", hand)) == "play 9H"


def test_rules_cancels_the_winning_card_with_its_duplicate() -> None:
    # Two decks: seat 5 led A♥; seat 0 holds the other A♥ and plays it: both cancel, and its K♥ is kept.
    hand = "AH KH 2C 3C"
    obs = observation(TWO, hand, trick="AH 4H", leader=4, seat=0)
    assert choose(TWO, obs, labels("play", "AH KH")) == "play AH"


def test_rules_last_to_play_wins_with_its_highest_card_but_keeps_the_queen() -> None:
    hand = "QS KS 5C"
    obs = observation(ONE, hand, trick="2S 3S 4S", leader=1, seat=0)
    assert choose(ONE, obs, labels("play", "QS KS")) == "play KS"
    hand = "9C KC 5D"
    obs = observation(ONE, hand, trick="2C 3C 4C", leader=1, seat=0)
    assert choose(ONE, obs, labels("play", "9C KC")) == "play KC"


def test_rules_second_hand_with_points_in_the_trick_wins_low() -> None:
    hand = "9H KH 5D"
    obs = observation(ONE, hand, trick="2H", leader=3, seat=0)  # two players still to come
    assert choose(ONE, obs, labels("play", "9H KH")) == "play 9H"


def test_rules_leads_low_and_never_a_high_spade_while_the_queen_is_out() -> None:
    hand = "AS 9D 3C KH"
    obs = observation(ONE, hand, tricks=[("2C 5C 6C 7C", 0)], leader=0)
    assert choose(ONE, obs, labels("play", "AS 9D 3C")) == "play 3C"
    # No high spade: it leads a spade to smoke out the queen.
    hand = "4S 5D 6C"
    obs = observation(ONE, hand, tricks=[("2C 5C 7C 8C", 0)], leader=0)
    assert choose(ONE, obs, labels("play", hand)) == "play 4S"


def test_rules_avoids_a_suit_in_which_an_opponent_is_void() -> None:
    # Seat 2 showed a diamond void on the first trick; seat 0 leads a club rather than its lower diamond.
    hand = "3D 4C 9H"
    obs = observation(ONE, hand, tricks=[("5D 6D 2S 7D", 0)], leader=0)
    assert choose(ONE, obs, labels("play", "3D 4C")) == "play 4C"


def test_rules_stops_a_moon_by_taking_a_trick_with_points() -> None:
    # Seat 1 holds all 20 points taken; it leads a heart: seat 0 takes the trick rather than ducking.
    hand = "3H QH 5D"
    obs = observation(ONE, hand, trick="10H 2H 4H", leader=1, seat=0, trick_points=[0, 20, 0, 0])
    assert choose(ONE, obs, labels("play", "3H QH")) == "play QH"
    obs = observation(ONE, hand, trick="10H 2H 4H", leader=1, seat=0)
    assert choose(ONE, obs, labels("play", "3H QH")) == "play 3H"


def test_rules_moon_choice_plus_when_it_leaves_the_shooter_lowest() -> None:
    moon = ["moon minus", "moon plus"]
    ahead = observation(ONE, "", phase="moon", scores=[40, 50, 60, 70])
    assert choose(ONE, ahead, moon) == "moon plus"
    behind = observation(ONE, "", phase="moon", scores=[90, 50, 60, 70])
    assert choose(ONE, behind, moon) == "moon minus"


def test_rules_beats_random_by_a_wide_margin() -> None:
    for game_string, players in ((ONE, 4), (TWO, 6)):
        bots = ["rules"] + ["random"] * (players - 1)
        report = simulate(game_string, bots, 10, rotate=True)
        rules = report.summary()["by_bot"][0]
        assert rules["bot"] == "rules"
        assert rules["margin"]["high"] < -3  # lower is better in Hearts


# --- the search bot --------------------------------------------------------------------------------


@pytest.mark.parametrize("game_string", [ONE, "hearts(players=6,max_hands=1)"])
def test_search_plays_a_short_match_to_the_end(game_string: str) -> None:
    game = cardhall.load_game(game_string)
    bots = [make_bot("search(iterations=2)", game)] + [make_bot("rules", game)] * (game.num_players - 1)
    state = game.new_game(seed=3)
    rng = random.Random(3)
    for _ in playing(state):
        seat = state.to_act[0]
        state.apply(seat, bots[seat].act(state.observation(seat, ints=True), state.legal_actions(seat), rng))
    assert state.winners
    assert bots[0].stats["determinizations"] > 0  # type: ignore[attr-defined]


def test_search_never_reads_the_true_state() -> None:
    # Same observation, hidden cards dealt differently, same seed: the same decision.
    game = cardhall.load_game(ONE)
    state = game.new_game(seed=8)
    rng = random.Random(8)
    for _ in bounded(lambda: state.phase != "play" or len(state.tricks) < 2):
        seat = rng.choice(state.to_act)
        state.apply(
            seat,
            make_bot("rules", game).act(state.observation(seat, ints=True), state.legal_actions(seat), rng),
        )
    seat = state.to_act[0]
    other = state.resample(seat, random.Random(1))
    assert other.observation(seat) == state.observation(seat)
    assert [other.hands[s] for s in range(4)] != [state.hands[s] for s in range(4)]
    picks = []
    for st in (state, other):
        bot = make_bot("search(iterations=3)", game)
        picks.append(bot.act(st.observation(seat, ints=True), st.legal_actions(seat), random.Random(5)))
    assert picks[0] == picks[1]


def test_search_values_rollouts_by_fewest_points() -> None:
    # In Hearts the lowest total wins: a rollout where the seat took fewer points than the others is good.
    game = cardhall.load_game(ONE)
    assert game.lowest_score_wins
    state = game.new_game(seed=4)
    state.scores_ = [3, 0, 7, 1]  # type: ignore[attr-defined]
    assert rollout_value(state, 1) > rollout_value(state, 0) > rollout_value(state, 2)
    sampled = game.sample_state(state.observation(0, ints=True), random.Random(0))
    assert sampled.scores == (3, 0, 7, 1)
    hokm = cardhall.load_game("hokm").new_game(seed=1)
    hokm.scores_ = [30, 0, 0]  # type: ignore[attr-defined]
    assert rollout_value(hokm, 0) > 0


def test_search_ducks_a_trick_with_the_queen() -> None:
    game_string = "hearts(decks=1,players=4,passing=none,max_hands=1)"
    state = deal(game_string, {0: "AC 3C", 1: "5C", 2: "QS", 3: "4C"}, voids={2: "C"}, dealer=0)
    play(state, "1:5C", "2:QS", "3:4C")
    assert bot_choice(state, "search(iterations=6)") in ("play 2C", "play 3C")  # not the A♣


def bot_choice(state: State, spec: str) -> str:
    seat = state.to_act[0]
    bot = make_bot(spec, state.game)
    action = bot.act(state.observation(seat, ints=True), state.legal_actions(seat), random.Random(0))
    return state.game.action_label(action)


def test_search_candidates_keep_the_dangerous_passes_and_one_of_equivalent_cards() -> None:
    game = cardhall.load_game(ONE)
    hand = "QS AS 3S 2C 5C 9D 4D 3H AH 7C 8C 2D 6D"
    obs = observation(ONE, hand, phase="pass")
    legal = [game.parse_action(a) for a in labels("pass", hand)]
    shown = {game.action_label(a) for a in search_candidates(game, obs, legal)}
    assert {"pass QS", "pass AS", "pass AH"} <= shown and len(shown) == 5
    # 7C and 9C with the 8C played are the same card; 5C is not (the 6C is still out).
    hand = "5C 7C 9C 2H"
    obs = observation(ONE, hand, trick="8C 2C", leader=2, seat=0)
    legal = [game.parse_action(a) for a in labels("play", "5C 7C 9C")]
    assert [game.action_label(a) for a in search_candidates(game, obs, legal)] == ["play 5C", "play 7C"]
    # With two decks a face whose twin is still out is never merged.
    obs = observation(TWO, hand, trick="8C 2C", leader=4, seat=0)
    assert len(search_candidates(cardhall.load_game(TWO), obs, legal)) == 3
    # The search bot finds them in the rules module; the game holds no search knowledge.
    assert not hasattr(game, "search_candidates") and not hasattr(game, "pass_order")
    assert make_bot("search", game).candidates is search_candidates  # type: ignore[attr-defined]


# --- the rules bot from a state (rollouts) ------------------------------------------------------------


@pytest.mark.parametrize("game_string", VARIANTS)
def test_act_state_chooses_what_act_chooses_on_the_observation(game_string: str) -> None:
    # Every decision of rules-bot matches: the choice read from the state equals the choice read from
    # the seat's observation (ints form).
    game = cardhall.load_game(game_string)
    bot = make_bot("rules", game)
    assert isinstance(bot, HeartsRulesBot)
    rng = random.Random(0)
    decisions = 0
    for seed in range(3):
        state = game.new_game(seed=seed)
        assert isinstance(state, HeartsState)
        for _ in playing(state):
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            choice = bot.act(state.observation(seat, ints=True), legal, rng)
            assert bot.act_state(state, seat, legal, rng) == choice, (seed, len(state.history))
            decisions += 1
            # Now and then a random move, to reach the positions the rules bot avoids.
            state.apply(seat, choice if rng.random() < 0.8 else rng.choice(legal))
    assert decisions > 100


def test_pass_choice_is_the_first_of_pass_order() -> None:
    game = cardhall.load_game(TWO)
    assert isinstance(game, Hearts)
    rng = random.Random(7)
    for _ in range(300):
        cards = rng.sample(range(104), rng.randrange(3, 18))
        hand = [c % FACES for c in cards]
        mask = sum(1 << c for c in cards)
        lo, hi = mask & (1 << FACES) - 1, mask >> FACES
        legal = sorted({PASS_BASE + f for f in hand})
        assert pass_choice(lo | hi, lo & hi, legal) == pass_order(hand, legal)[0]
