"""Scenario tests for every rule of Kierki (src/cardhall/rulebook/kierki.en.md), on stacked decks and
scripted actions."""

from __future__ import annotations

import io
import random

import pytest

import cardhall
from cardhall.cards import parse_card, parse_cards
from cardhall.core import derived_rng
from cardhall.games.kierki.rules import PASS, TRUMP_BASE, KierkiState, trick_penalty
from cardhall.rl.encoders import make_encoder
from tests.helpers import bounded, playing

# Seed 6 draws seat 3 as the first dealer, so seat 0 (on the dealer's left) leads the negative deals.
SEED = 6
DEALER = 3

# Layout L1. Seat 2 is void in clubs; seat 3 holds no 7 and seat 0 neither a 7 nor an 8.
L1 = {
    0: "2C 3C 4C 5C 2D 3D 4D 2H 3H 2S 3S 4S 5S",
    1: "6C 7C 8C QC 5D 6D 7D 4H 5H 6S 7S 8S 9S",
    2: "8D 9D 10D JD QD 6H 7H 8H 9H KH 10S JS QS",
    3: "9C 10C JC KC AC KD AD 10H JH QH AH KS AS",
}
# Layout L2: every seat holds one whole suit.
L2 = {
    0: "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
    1: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
    2: "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
    3: "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
}
# Layout L3: seat 0 holds the seven top clubs and six low hearts.
L3 = {
    0: "8C 9C 10C JC QC KC AC 2H 3H 4H 5H 6H 7H",
    1: "2C 3C 4C 5C 6C 7C 2D 3D 4D 5D 6D 7D 8D",
    2: "9D 10D JD QD KD AD 2S 3S 4S 5S 6S 7S 8S",
    3: "9S 10S JS QS KS AS 8H 9H 10H JH QH KH AH",
}

NEGATIVE_TOTALS = {1: -260, 2: -260, 3: -240, 4: -240, 5: -150, 6: -150, 7: -1300}


def stack(hands: dict[int, str], dealer: int = DEALER) -> list[int]:
    """A deck that deals ``hands`` (each seat's cards in the order received) one card at a time."""
    deck = [-1] * 52
    for seat, text in hands.items():
        cards = parse_cards(text)
        assert len(cards) == 13
        offset = (seat - dealer - 1) % 4
        for j, c in enumerate(cards):
            deck[4 * j + offset] = c
    assert sorted(deck) == list(range(52))
    return deck


def start(hands: dict[int, str], options: str = "", seed: int = SEED) -> KierkiState:
    game = cardhall.load_game(f"kierki({options})" if options else "kierki")
    dealer = derived_rng(seed, "first dealer").randrange(4)
    state = game.new_game(seed=seed, deck=stack(hands, dealer))
    assert isinstance(state, KierkiState)
    return state


def act(state: KierkiState, seat: int, label: str) -> None:
    state.apply(seat, state.game.parse_action(label))


def trick(state: KierkiState, *plays: str) -> None:
    """Play one trick starting with the seat to act: ``plays`` are card texts in order of play."""
    for card in plays:
        act(state, state.to_act[0], "play " + card)


def play_lowest(state: KierkiState, until_deal_ends: bool = True) -> None:
    deal = state.deal
    for _ in bounded(lambda: not state.is_over and (state.deal == deal or not until_deal_ends)):
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[0])


def labels(state: KierkiState, seat: int) -> list[str]:
    return [state.game.action_label(a) for a in state.legal_actions(seat)]


# --- the deal, the dealer and the order of deals ------------------------------------------------------


def test_deal_is_one_card_at_a_time_from_the_dealers_left() -> None:
    state = start(L1)
    for seat, text in L1.items():
        assert sorted(state.observation(seat)["hand"]) == sorted(text.split())
    assert state.dealer == DEALER
    assert state.to_act == (0,)


def test_deals_follow_in_order_and_the_dealer_passes_left() -> None:
    game = cardhall.load_game("kierki")
    state = game.new_game(seed=11)
    first_dealer = state.dealer
    rng = random.Random(3)
    leaders: dict[int, tuple[int, int]] = {}
    for _ in playing(state):
        if state.tricks == [] and state.trick == [] and state.phase == "play":
            leaders[state.deal] = (state.dealer, state.leader)
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    sheet = state.score_sheet
    assert [row["deal"] for row in sheet] == list(range(1, 13))
    assert [row["name"] for row in sheet] == [
        "no tricks",
        "no hearts",
        "no queens",
        "no kings or jacks",
        "no king of hearts",
        "7th and last trick",
        "robber",
        "trumps 1",
        "trumps 2",
        "trumps 3",
        "trumps 4",
        "lottery",
    ]
    assert [row["dealer"] for row in sheet] == [(first_dealer + i) % 4 for i in range(12)]
    # Negative deals: the player left of the dealer leads; trump deals: the dealer leads.
    assert sorted(leaders) == list(range(1, 12))
    for deal, (dealer, leader) in leaders.items():
        assert leader == ((dealer + 1) % 4 if deal <= 7 else dealer), deal


# --- negative deals ---------------------------------------------------------------------------------

# Trick 1 on L1: seat 0 leads 2C, seat 1 QC, seat 2 (void in clubs) discards KH, seat 3 KC wins it.
# It holds one trick, one heart, one queen, two kings and the king of hearts.
FIRST_TRICK_POINTS = {1: -20, 2: -20, 3: -60, 4: -60, 5: -150, 6: 0, 7: -310}


@pytest.mark.parametrize("deal", sorted(FIRST_TRICK_POINTS))
def test_penalty_of_one_trick_in_every_negative_deal(deal: int) -> None:
    state = start(L1, f"first_deal={deal}")
    assert state.phase == "play" and state.deal == deal and state.to_act == (0,)
    assert "2H" not in labels(state, 0) if deal in (2, 5, 7) else "play 2H" in labels(state, 0)
    trick(state, "2C", "QC", "KH", "KC")
    obs = state.observation(0)
    assert obs["tricks"][0]["winner"] == 3
    assert obs["tricks"][0]["points"] == FIRST_TRICK_POINTS[deal]
    assert obs["deal_points"] == [0, 0, 0, FIRST_TRICK_POINTS[deal]]
    assert obs["tricks_won"] == [0, 0, 0, 1]
    assert state.to_act == (3,)  # the winner leads


def test_follow_suit_if_able_otherwise_any_card() -> None:
    state = start(L1)
    act(state, 0, "play 2C")
    assert labels(state, 1) == ["play 6C", "play 7C", "play 8C", "play QC"]
    with pytest.raises(cardhall.IllegalActionError, match=r"kierki.*play 5D.*must follow clubs"):
        act(state, 1, "play 5D")
    act(state, 1, "play 6C")
    assert len(labels(state, 2)) == 13  # void in clubs: any card


def test_only_the_highest_card_of_the_suit_led_wins() -> None:
    state = start(L1)
    trick(state, "5C", "6C", "QD", "9C")  # QD is off-suit and cannot win
    assert state.tricks[0][2] == 3


@pytest.mark.parametrize("deal", [2, 5, 7])
def test_hearts_may_not_be_led_while_other_suits_are_held(deal: int) -> None:
    state = start(L1, f"first_deal={deal}")
    assert not any(lbl.endswith("H") for lbl in labels(state, 0))
    with pytest.raises(cardhall.IllegalActionError, match=r"kierki.*play 2H.*hearts may not be led"):
        act(state, 0, "play 2H")
    # A void player may still discard a heart on another suit.
    act(state, 0, "play 2C")
    act(state, 1, "play 6C")
    assert "play KH" in labels(state, 2)


@pytest.mark.parametrize("deal", [1, 3, 4, 6])
def test_hearts_may_be_led_in_the_other_negative_deals(deal: int) -> None:
    state = start(L1, f"first_deal={deal}")
    act(state, 0, "play 2H")
    assert state.trick == [(0, parse_card("2H"))]


@pytest.mark.parametrize("deal", [2, 5, 7])
def test_a_player_holding_only_hearts_may_lead_them(deal: int) -> None:
    state = start(L2, f"first_deal={deal}")
    assert len(labels(state, 0)) == 13
    act(state, 0, "play AH")


@pytest.mark.parametrize(
    ("deal", "expected"),
    [(1, -260), (2, -260), (3, -240), (4, -240), (5, -150), (6, -150), (7, -1300)],
)
def test_whole_deal_when_one_player_takes_every_trick(deal: int, expected: int) -> None:
    # L2: seat 0 leads hearts all deal long and nobody else can follow.
    state = start(L2, f"first_deal={deal}")
    play_lowest(state)
    row = state.score_sheet[-1]
    assert row["deal"] == deal
    assert row["points"] == [expected, 0, 0, 0]
    assert row["tricks"] == [13, 0, 0, 0]
    assert state.scores == (expected, 0, 0, 0)
    assert state.deal == deal + 1 and state.dealer == (DEALER + 1) % 4


def test_seventh_and_last_trick_cost_75_each() -> None:
    state = start(L3, "first_deal=6")
    for _ in range(12):
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[0])
        for _ in bounded(lambda: state.trick):
            seat = state.to_act[0]
            state.apply(seat, state.legal_actions(seat)[0])
    points = [t[3] for t in state.tricks]
    assert points == [0] * 6 + [-75] + [0] * 5
    play_lowest(state)
    row = state.score_sheet[-1]
    assert row["points"] == [-150, 0, 0, 0]


def test_robber_adds_every_penalty_per_trick() -> None:
    assert trick_penalty(7, 7, 0) == -20 - 75
    assert trick_penalty(7, 13, 0) == -20 - 75
    assert trick_penalty(7, 1, 0) == -20
    kh_qh_jc_2c = sum(1 << c for c in parse_cards("KH QH JC 2C"))
    assert trick_penalty(7, 2, kh_qh_jc_2c) == -20 - 2 * 20 - 60 - 2 * 30 - 150
    assert trick_penalty(5, 2, kh_qh_jc_2c) == -150
    assert trick_penalty(4, 2, kh_qh_jc_2c) == -60
    assert trick_penalty(3, 2, kh_qh_jc_2c) == -60
    assert trick_penalty(2, 2, kh_qh_jc_2c) == -40


# --- trump deals ------------------------------------------------------------------------------------


def test_dealer_names_trump_seeing_only_his_first_five_cards() -> None:
    state = start(L1, "first_deal=8")
    assert state.phase == "trump" and state.to_act == (3,)
    obs = state.observation(3)
    assert sorted(obs["hand"]) == sorted(["9C", "10C", "JC", "KC", "AC"])
    assert obs["hand_sizes"] == [5, 5, 5, 5]
    assert obs["deal_number"] == 8 and obs["trump"] is None
    assert sorted(state.observation(0)["hand"]) == sorted(["2C", "3C", "4C", "5C", "2D"])
    hidden = state.hidden_cards(3)
    assert len(hidden) == 47 and parse_card("AS") in hidden
    assert labels(state, 3) == ["trump C", "trump D", "trump H", "trump S"]
    assert state.legal_actions(0) == []
    with pytest.raises(cardhall.IllegalActionError, match="kierki"):
        act(state, 3, "play AC")
    act(state, 3, "trump H")
    obs = state.observation(3)
    assert sorted(obs["hand"]) == sorted(L1[3].split())
    assert obs["trump"] == "H" and obs["trump_chooser"] == 3
    assert state.to_act == (3,)  # the dealer leads


def test_trump_wins_and_there_is_no_duty_to_trump() -> None:
    state = start(L1, "first_deal=8")
    act(state, 3, "trump H")
    act(state, 3, "play 9C")
    act(state, 0, "play 2C")
    act(state, 1, "play 6C")
    # Seat 2 is void in clubs and holds hearts (trump), but may discard anything.
    assert len(labels(state, 2)) == 13
    act(state, 2, "play 6H")
    assert state.tricks[-1][2] == 2
    assert state.observation(0)["deal_points"] == [0, 0, 25, 0]
    # Seat 2 leads a spade; seat 3 trumps with a heart? No: he holds spades and must follow.
    act(state, 2, "play 10S")
    act(state, 3, "play KS")
    act(state, 0, "play 2S")
    act(state, 1, "play 6S")
    assert state.tricks[-1][2] == 3
    # Seat 3 leads AD; seat 0 follows, seat 1 follows, seat 2 follows: highest diamond wins.
    trick(state, "AD", "2D", "5D", "8D")
    assert state.tricks[-1][2] == 3
    assert state.tricks_won == [0, 0, 1, 2]


def test_highest_trump_wins_a_trick_with_several_trumps() -> None:
    state = start(L2, "first_deal=8")
    act(state, 3, "trump C")
    # Dealer (seat 3, spades only) leads; seat 1 (clubs) trumps; the others cannot follow.
    trick(state, "AS", "2H", "2C", "AD")
    assert state.tricks[-1][2] == 1


def test_trump_deal_scores_25_per_trick() -> None:
    state = start(L2, "first_deal=8")
    act(state, 3, "trump S")
    play_lowest(state)
    row = state.score_sheet[-1]
    assert row["points"] == [0, 0, 0, 325] and row["trump"] == "S" and row["trump_chooser"] == 3
    assert state.phase == "trump" and state.dealer == 0 and state.to_act == (0,)


def test_trump_chooser_and_leader_left_of_dealer() -> None:
    state = start(L1, "first_deal=8,trump_chooser=left_of_dealer")
    assert state.to_act == (0,)
    assert sorted(state.observation(0)["hand"]) == sorted(["2C", "3C", "4C", "5C", "2D"])
    act(state, 0, "trump D")
    assert state.to_act == (3,)  # the dealer still leads
    state = start(L1, "first_deal=8,trump_leader=left_of_dealer")
    assert state.to_act == (3,)
    act(state, 3, "trump D")
    assert state.to_act == (0,)
    state = start(L1, "first_deal=8,trump_chooser=left_of_dealer,trump_leader=left_of_dealer")
    act(state, 0, "trump S")
    assert state.to_act == (0,) and state.observation(1)["trump_chooser"] == 0


# --- the lottery ------------------------------------------------------------------------------------


def test_lottery_a_player_without_a_legal_card_must_pass() -> None:
    state = start(L1, "first_deal=12")
    assert state.phase == "lottery" and state.to_act == (3,)  # the dealer plays first
    assert labels(state, 3) == ["pass"]
    act(state, 3, "pass")
    assert labels(state, 0) == ["pass"]
    act(state, 0, "pass")
    obs = state.observation(2)
    assert obs["lottery_plays"] == [{"seat": 3, "card": None}, {"seat": 0, "card": None}]


def test_lottery_a_player_with_a_legal_card_may_not_pass() -> None:
    state = start(L1, "first_deal=12")
    act(state, 3, "pass")
    act(state, 0, "pass")
    assert labels(state, 1) == ["play 7C", "play 7D", "play 7S"]
    with pytest.raises(cardhall.IllegalActionError, match=r"kierki.*'pass'.*only when he has no card"):
        act(state, 1, "pass")
    with pytest.raises(cardhall.IllegalActionError, match=r"kierki.*play 8C.*does not fit"):
        act(state, 1, "play 8C")


def test_lottery_rows_build_up_and_down_from_the_seven() -> None:
    state = start(L1, "first_deal=12")
    act(state, 3, "pass")
    act(state, 0, "pass")
    act(state, 1, "play 7C")
    assert labels(state, 2) == ["play 7H"]  # void in clubs, only the 7 of hearts fits
    act(state, 2, "play 7H")
    assert labels(state, 3) == ["pass"]
    act(state, 3, "pass")
    act(state, 0, "pass")
    assert labels(state, 1) == ["play 6C", "play 8C", "play 7D", "play 7S"]
    act(state, 1, "play 6C")
    assert labels(state, 2) == ["play 6H", "play 8H"]
    act(state, 2, "play 8H")
    act(state, 3, "pass")
    assert labels(state, 0) == ["play 5C"]
    act(state, 0, "play 5C")
    obs = state.observation(0)
    assert obs["layout"] == [{"low": "5C", "high": "7C"}, None, {"low": "7H", "high": "8H"}, None]
    assert labels(state, 1) == ["play 8C", "play 7D", "play 7S"]


def test_lottery_first_out_800_second_out_500_and_the_match_ends() -> None:
    # L2 with seat 3 as dealer: seat 3 (spades) plays first, so goes out first, then seat 0.
    hands = {0: L2[1], 1: L2[2], 2: L2[3], 3: L2[0]}
    state = start(hands, "first_deal=12")
    play_lowest(state)
    assert state.is_over and state.to_act == ()
    row = state.score_sheet[-1]
    assert row["out"] == [3, 0]
    assert row["points"] == [500, 0, 0, 800]
    assert state.scores == (500, 0, 0, 800)
    assert state.winners == (3,)
    assert state.observation(None)["hand_sizes"] == [0, 1, 1, 0]  # the rest is not played


def test_lottery_start_rank_8() -> None:
    state = start(L1, "first_deal=12,lottery_start_rank=8")
    act(state, 3, "pass")
    act(state, 0, "pass")
    assert labels(state, 1) == ["play 8C", "play 8S"]
    act(state, 1, "play 8C")
    assert labels(state, 2) == ["play 8D", "play 8H"]
    act(state, 2, "play 8D")
    assert labels(state, 3) == ["play 9C"]
    act(state, 3, "play 9C")
    assert labels(state, 0) == ["pass"]
    act(state, 0, "pass")
    assert labels(state, 1) == ["play 7C", "play 7D", "play 8S"]


def test_lottery_starter_left_of_dealer() -> None:
    state = start(L1, "first_deal=12,lottery_starter=left_of_dealer")
    assert state.to_act == (0,) and labels(state, 0) == ["pass"]


def test_players_who_are_out_are_skipped() -> None:
    skipped = 0
    for seed in range(40):
        state = cardhall.load_game("kierki(first_deal=12)").new_game(seed=seed)
        assert isinstance(state, KierkiState)
        rng = random.Random(seed)
        for _ in playing(state):
            seat = state.to_act[0]
            assert seat not in state.out and state.hands[seat]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            if state.out and not state.is_over and state.out[0] == (seat + 1) % 4:
                assert state.to_act == ((seat + 2) % 4,)
                skipped += 1
        assert len(state.out) == 2
    assert skipped > 0


# --- resample keeps what the history proves ----------------------------------------------------------


def test_resample_respects_lottery_passes() -> None:
    state = start(L1, "first_deal=12")
    act(state, 3, "pass")
    act(state, 0, "pass")
    rng = random.Random(1)
    for _ in range(20):
        other = state.resample(1, rng)
        # Seats 3 and 0 passed with every 7 open, so the one 7 seat 1 cannot see is seat 2's.
        assert other.hands[2] >> parse_card("7H") & 1
        assert other.observation(1) == state.observation(1)


def test_resample_respects_shown_voids() -> None:
    state = start(L1, "first_deal=3")
    trick(state, "2C", "QC", "KH", "KC")
    rng = random.Random(2)
    clubs = sum(1 << c for c in parse_cards("9C 10C JC AC 3C 4C 5C 6C 7C 8C"))
    for _ in range(20):
        assert not state.resample(0, rng).hands[2] & clubs


def test_resample_respects_a_heart_lead_under_the_ban() -> None:
    state = start(L2, "first_deal=2")
    act(state, 0, "play AH")
    rng = random.Random(3)
    for _ in range(20):
        other = state.resample(1, rng)
        assert other.hands[0] and all(c // 13 == 2 for c in range(52) if other.hands[0] >> c & 1)


# --- the match ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(30))
def test_zero_sum_over_random_matches(seed: int) -> None:
    game = cardhall.load_game(
        "kierki" if seed % 2 else "kierki(trump_chooser=left_of_dealer,lottery_start_rank=8)"
    )
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    for _ in playing(state):
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert isinstance(state, KierkiState)
    sheet = state.score_sheet
    assert sum(state.scores) == 0
    for row in sheet[:7]:
        assert sum(row["points"]) == NEGATIVE_TOTALS[row["deal"]]
        assert sum(row["tricks"]) == 13
    for row in sheet[7:11]:
        assert sum(row["points"]) == 325
    assert sorted(sheet[11]["points"]) == [0, 0, 500, 800]
    assert sum(sum(r["points"]) for r in sheet[:7]) == -2600
    assert sum(sum(r["points"]) for r in sheet[7:]) == 2600
    top = max(state.scores)
    assert state.winners == tuple(s for s in range(4) if state.scores[s] == top)


def test_observation_shows_the_deal_and_its_rule() -> None:
    state = start(L1, "first_deal=2")
    obs = state.observation(1)
    assert obs["deal_number"] == 2 and obs["deal_name"] == "no hearts"
    assert "-20 per heart" in obs["deal_rule"] and "may not be led" in obs["deal_rule"]
    assert obs["seat"] == 1 and obs["game"] == "kierki(first_deal=2)"
    assert obs["layout"] == [None] * 4 and obs["score_sheet"] == []
    lines = make_encoder(state.game).describe(obs)  # the RL environments' render
    assert any("Deal 2 of 12: no hearts" in line for line in lines)
    play_lowest(state)
    obs = state.observation(1)
    assert obs["score_sheet"][0]["deal"] == 2 and obs["deal_name"] == "no queens"


def test_labels_and_spellings() -> None:
    game = cardhall.load_game("kierki")
    assert game.parse_action("play QS") == parse_card("QS")
    assert game.parse_action("10h") == parse_card("10H")
    assert game.parse_action("trump H") == TRUMP_BASE + 2
    assert game.parse_action("trump hearts") == TRUMP_BASE + 2
    assert game.parse_action("trump ♠") == TRUMP_BASE + 3
    assert game.parse_action("pass") == PASS
    assert game.action_label(PASS) == "pass"
    with pytest.raises(cardhall.InvalidActionError, match="kierki"):
        game.parse_action("trump X")


def test_last_deal_ends_a_short_match() -> None:
    state = start(L1, "first_deal=3,last_deal=4")
    play_lowest(state)
    assert not state.is_over and state.deal == 4
    play_lowest(state)
    assert state.is_over and [row["deal"] for row in state.score_sheet] == [3, 4]
    assert sum(state.scores) == -240 - 240
    assert state.winners == tuple(s for s in range(4) if state.scores[s] == max(state.scores))
    one = cardhall.load_game("kierki(first_deal=12,last_deal=12)").new_game(seed=1)
    rng = random.Random(1)
    for _ in playing(one):
        seat = one.to_act[0]
        one.apply(seat, rng.choice(one.legal_actions(seat)))
    assert sorted(one.scores) == [0, 0, 500, 800]


@pytest.mark.parametrize(
    "bad",
    [
        "kierki(lottery_start_rank=6)",
        "kierki(trump_chooser=right_of_dealer)",
        "kierki(trump_leader=me)",
        "kierki(lottery_starter=3)",
        "kierki(first_deal=13)",
        "kierki(first_deal=0)",
        "kierki(last_deal=13)",
        "kierki(first_deal=5,last_deal=4)",
        "kierki(players=5)",
    ],
)
def test_bad_options_are_refused(bad: str) -> None:
    with pytest.raises(cardhall.InvalidOptionError, match="kierki"):
        cardhall.load_game(bad)


def test_cli_simulate_and_play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from cardhall.cli import main

    assert main(["simulate", "kierki", "--games", "2", "--json"]) == 0
    assert '"games": 2' in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 800))
    assert main(["play", "kierki", "--seat", "1", "--bots", "random", "--seed", "3", "--delay", "0"]) == 0
    out = capsys.readouterr().out
    assert "Deal 12: lottery" in out and "Match over" in out
