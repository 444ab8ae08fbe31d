"""Kierki bots: ``sample_state`` (search determinizations), the rules bot's habits (and its fast
``act_state`` for rollouts), the search bot. Bots read the ints form of the observation."""

from __future__ import annotations

import random

import pytest

import cardhall
from cardhall.bots import make_bot
from cardhall.bots.rules_kierki import KierkiRulesBot
from cardhall.cards import SUIT_MASKS, parse_card, parse_cards
from cardhall.core import State
from cardhall.games.kierki.rules import PASS, Kierki, KierkiState
from cardhall.table import Table
from tests.games.kierki.test_kierki_rules import SEED, start  # the stacked decks of the rules tests
from tests.helpers import playing, steps

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


def act(state: State, label: str) -> None:
    state.apply(state.to_act[0], state.game.parse_action(label))


def random_states(game_string: str, seeds: range, keep: float) -> list[State]:
    game = cardhall.load_game(game_string)
    out = []
    for seed in seeds:
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in steps(f"{game_string} seed {seed}"):
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
            obs = state.observation(seat, ints=True)
            sampled = game.sample_state(obs, rng)
            phases.add(obs["phase"])
            assert sampled.observation(seat, ints=True) == obs
            assert sampled.observation(seat) == state.observation(seat)
            assert sampled.deals_finished == state.deals_finished
            assert sorted(c for z in sampled.zones().values() for c in z) == list(range(52))
        if i % 5 == 0:  # the sampled state plays on to the end
            seat = state.to_act[0] if state.to_act else 0
            sampled = game.sample_state(state.observation(seat, ints=True), rng)
            for _ in playing(sampled):
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
    obs = state.observation(0, ints=True)
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
        sampled = state.game.sample_state(state.observation(1, ints=True), random.Random(seed))
        assert isinstance(sampled, KierkiState)
        assert sampled.hands[2] >> parse_card("7H") & 1  # the one 7 seat 1 cannot see is seat 2's


def test_sampled_state_while_trump_is_named_knows_only_five_cards() -> None:
    game = cardhall.load_game("kierki(first_deal=8)")
    assert isinstance(game, Kierki)
    state = game.new_game(seed=SEED)
    assert isinstance(state, KierkiState) and state.phase == "trump"
    chooser = state.to_act[0]
    obs = state.observation(chooser, ints=True)
    hands = set()
    for seed in range(10):
        sampled = game.sample_state(obs, random.Random(seed))
        assert isinstance(sampled, KierkiState)
        assert sampled.hands[chooser] == state.hands[chooser]
        hands.add(sampled.pending[chooser])
        assert sampled.observation(chooser, ints=True) == obs
    assert len(hands) > 5  # his other eight cards are unknown to him


# --- the rules bot: habits on constructed observations ------------------------------------------------


def observe(
    deal: int,
    hand: str,
    trick: str = "",
    seat: int = 0,
    trump: str | None = None,
    tricks: int = 0,
) -> tuple[dict[str, object], list[int]]:
    """A minimal observation (ints form) for ``seat``: ``trick`` is ``"1:KS 2:QS"`` (seat:card in order
    of play); ``tricks`` earlier tricks of spades nobody here holds are put in front. Returns it and
    the legal cards."""
    cards = parse_cards(hand)
    plays = [(int(p.split(":")[0]), p.split(":")[1]) for p in trick.split()]
    spare = [c for c in parse_cards("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2D 3D 4D 5D 6D 7D 8D 9D 10D")]
    spare = [c for c in spare if c not in cards and c not in parse_cards(" ".join(c for _, c in plays))]
    done = []
    for t in range(tricks):
        four = spare[4 * t : 4 * t + 4]
        done.append({"leader": 0, "cards": [{"seat": s, "card": c} for s, c in enumerate(four)]})
    obs: dict[str, object] = {
        "seat": seat,
        "phase": "play",
        "deal_number": deal,
        "hand": cards,
        "trick": [{"seat": s, "card": parse_card(c)} for s, c in plays],
        "tricks": done,
        "trump": trump,
    }
    legal = sorted(cards)
    if plays:
        led = parse_card(plays[0][1]) // 13
        legal = [c for c in legal if c // 13 == led] or legal
    return obs, legal


def choice(obs: dict[str, object], legal: list[int], game: str = "kierki") -> str:
    game_ = cardhall.load_game(game)
    bot = make_bot("rules", game_)
    return game_.action_label(bot.act(obs, legal, random.Random(0))).removeprefix("play ")


@pytest.mark.parametrize(
    ("deal", "hand", "trick", "expected"),
    [
        (3, "QS 3S 9H 2D", "1:KS", "QS"),  # the queen slips under the king
        (1, "9C JC AC 5D", "0:10C 1:2C", "9C"),  # duck with the highest card that loses
        (3, "QC KC 9C 2D", "0:5C 1:6C 2:2H", "KC"),  # last and must win: highest harmless card
        (1, "9C KC 2D", "0:5C", "9C"),  # must win, not last: lowest (someone may go over)
        (5, "KH AS 2H 3D", "0:5C", "KH"),  # void: dump the king of hearts
        (2, "AS 10H 2H 3D", "0:5C", "10H"),  # void: dump the highest heart
        (3, "QD AS 2H", "0:5C", "QD"),  # void: dump a queen
        (4, "QD JD AS 2H", "0:5C", "JD"),  # void: dump a jack before a bigger harmless card
        (1, "AS 2H 9D", "0:5C", "AS"),  # void, nothing dangerous: dump the highest card
        (7, "QS AD KH 2H", "0:5C", "KH"),  # robber: the king of hearts is the most dangerous
        (1, "2C AC 3D KD", "", "2C"),  # lead the card nobody can duck under
        (3, "QC 9C 2H", "", "2H"),  # no queens: never lead the queen; the lowest card
    ],
)
def test_rules_negative_deals(deal: int, hand: str, trick: str, expected: str) -> None:
    obs, legal = observe(deal, hand, trick, seat=len(trick.split()))
    assert choice(obs, legal) == expected


def test_rules_seventh_and_last_trick_sheds_high_cards_on_free_tricks_only() -> None:
    obs, legal = observe(6, "2C KC 3H", "3:5C", tricks=2)
    assert choice(obs, legal) == "KC"  # the 3rd trick costs nothing: get rid of the king
    obs, legal = observe(6, "2C KC 3H", "3:5C", tricks=6)
    assert choice(obs, legal) == "2C"  # the 7th trick costs 75: duck


def test_rules_names_the_longest_suit_of_the_first_five_as_trump() -> None:
    game = cardhall.load_game("kierki")
    bot = make_bot("rules", game)
    legal = list(range(52, 56))
    obs = {"phase": "trump", "hand": parse_cards("2H 5H 9H AS KD")}
    assert game.action_label(bot.act(obs, legal, random.Random(0))) == "trump H"
    obs = {"phase": "trump", "hand": parse_cards("AS KS 2H 3H 9D")}
    assert game.action_label(bot.act(obs, legal, random.Random(0))) == "trump S"  # honours break the tie


@pytest.mark.parametrize(
    ("hand", "trick", "seat", "expected"),
    [
        ("AH 5H 2C 3D", "", 0, "AH"),  # draw trumps with the master trump
        ("AC 5C 2H 3D", "", 0, "AC"),  # no master trump: cash a side ace
        ("JC AC 3D 2H", "1:10C 2:2C 3:5C", 0, "JC"),  # last: win as cheaply as possible
        ("2H 9H 3D", "1:AC", 2, "2H"),  # void: ruff low
        ("2C 9C KS", "1:AC", 2, "2C"),  # cannot win: the lowest card
        ("9C AC 2D", "1:5C", 2, "AC"),  # not last: win with a card nobody beats
    ],
)
def test_rules_trump_deals(hand: str, trick: str, seat: int, expected: str) -> None:
    obs, legal = observe(8, hand, trick, seat=seat, trump="H")
    assert choice(obs, legal) == expected


def lottery(hand: str, layout: dict[int, tuple[str, str]]) -> str:
    game = cardhall.load_game("kierki")
    cards = parse_cards(hand)
    rows: list[dict[str, int] | None] = [None] * 4
    open_ = {s * 13 + 5 for s in range(4) if s not in layout}
    for s, (low, high) in layout.items():
        lo, hi = parse_card(low), parse_card(high)
        rows[s] = {"low": lo, "high": hi}
        open_ |= {c for c in (lo - 1, hi + 1) if c // 13 == s}
    legal = sorted(c for c in cards if c in open_) or [PASS]
    obs = {"phase": "lottery", "hand": cards, "layout": rows}
    action = make_bot("rules", game).act(obs, legal, random.Random(0))
    return game.action_label(action)


def test_rules_lottery_opens_the_way_to_its_own_cards() -> None:
    assert lottery("8C 9C 10C 7D 2S", {0: ("7C", "7C")}) == "play 8C"  # its own chain, nothing given
    assert lottery("7D 8D 9D 7S 2C", {}) == "play 7D"  # the seven of its long suit
    assert lottery("6C 7S 8S 2H", {0: ("7C", "7C")}) == "play 7S"  # 6C would open clubs for nobody


def test_rules_lottery_holds_back_a_blocking_card() -> None:
    # 8C only opens 9C for the others; 6D leads to its own 4D and 2D.
    assert lottery("8C 6D 4D 2D", {0: ("7C", "7C"), 1: ("7D", "7D")}) == "play 6D"


def test_rules_beats_random_in_the_negative_deals() -> None:
    margins = []
    for seed in range(6):
        for seat in range(4):  # the rules bot in every seat in turn, on the same deals
            bots = ["random"] * 4
            bots[seat] = "rules"
            scores = Table("kierki(first_deal=1,last_deal=7)", bots, seed, events=False).play().scores
            margins.append(scores[seat] - (sum(scores) - scores[seat]) / 3)
    assert sum(margins) / len(margins) > 200


def test_act_state_chooses_what_act_chooses_on_the_observation() -> None:
    """The rollouts' fast path reads the state; it must make the choice ``act`` makes on the seat's
    observation, in every phase, on real and on sampled states."""
    bot = KierkiRulesBot(cardhall.load_game("kierki"))
    rng = random.Random(4)
    checked = 0
    for game_string in VARIANTS:
        game = cardhall.load_game(game_string)
        for state in random_states(game_string, range(2), 0.3):
            if state.is_over:
                continue
            seat = state.to_act[0]
            for st in (state, game.sample_state(state.observation(seat, ints=True), rng)):
                assert isinstance(st, KierkiState)
                legal = st.legal_actions(seat)
                want = bot.act(st.observation(seat, ints=True), legal, random.Random(1))
                assert bot.act_state(st, seat, legal, random.Random(1)) == want
                checked += 1
    assert checked > 300


# --- the search bot ------------------------------------------------------------------------------------


def test_search_never_reads_the_true_state() -> None:
    """Other seats' hidden cards dealt differently, same observation, same seed: same decision."""
    game = cardhall.load_game("kierki(first_deal=3,last_deal=3)")
    bot = make_bot("search(iterations=2)", game)
    checked = 0
    for state in random_states("kierki(first_deal=3,last_deal=3)", range(2), 0.1)[:8]:
        if state.is_over or len(state.legal_actions(state.to_act[0])) < 2:
            continue
        seat = state.to_act[0]
        other = state.resample(seat, random.Random(99))
        obs, obs2 = state.observation(seat, ints=True), other.observation(seat, ints=True)
        assert obs == obs2
        a = bot.act(obs, state.legal_actions(seat), random.Random(5))
        b = bot.act(obs2, other.legal_actions(seat), random.Random(5))
        assert a == b
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("game_string", ["kierki(first_deal=5,last_deal=5)", "kierki(first_deal=12)"])
def test_search_plays_a_short_match_to_the_end(game_string: str) -> None:
    table = Table(game_string, ["search(iterations=2)", "rules", "random", "rules"], 0, events=False)
    assert table.play().winners
