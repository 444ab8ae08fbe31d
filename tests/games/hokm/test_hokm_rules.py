"""Scenario tests for every rule, example and variant of Hokm Egbari (src/cardhall/rulebook/hokm.en.md)."""

from __future__ import annotations

import itertools
import random

import pytest

import cardhall
from cardhall.cards import parse_card, parse_cards
from cardhall.games.hokm.rules import (
    BID_BASE,
    DECK,
    TRUMP_BASE,
    HokmState,
    deck_for_hands,
    hand_score,
)
from tests.helpers import bounded, playing

SEED_DEALER_2 = 0  # with seed 0 the first dealer is seat 2, so seat 0 bids and plays first


def state_with(hands: list[str], options: str = "", seed: int = SEED_DEALER_2) -> HokmState:
    game = cardhall.load_game(f"hokm({options})" if options else "hokm")
    dealer = game.new_game(seed=seed).dealer  # type: ignore[attr-defined]
    deck = deck_for_hands(dealer, [parse_cards(h) for h in hands])
    state = game.new_game(seed=seed, deck=deck)
    assert isinstance(state, HokmState)
    return state


def act(state: cardhall.State, seat: int, text: str) -> None:
    state.apply(seat, state.game.parse_action(text))


def legal_labels(state: cardhall.State, seat: int) -> set[str]:
    return {state.game.action_label(a) for a in state.legal_actions(seat)}


# Seat 0: all seven hearts and A 10 K of spades; seat 1: all clubs, Q J of spades;
# seat 2: all diamonds, 9 8 7 of spades.
SPLIT = [
    "JH 9H AH 10H KH QH 8H AS 10S KS",
    "AC KC QC JC 10C 9C 8C 7C QS JS",
    "AD KD QD JD 10D 9D 8D 9S 8S 7S",
]


def bid_all(state: cardhall.State, bids: list[str]) -> None:
    for text in bids:
        act(state, state.to_act[0], text)


# --- deck and deal -------------------------------------------------------------------------------


def test_deck_has_thirty_cards_without_red_sevens() -> None:
    assert len(DECK) == 30 == len(set(DECK))
    by_suit = {s: sorted(c % 13 for c in DECK if c // 13 == s) for s in range(4)}
    assert len(by_suit[0]) == len(by_suit[3]) == 8
    assert len(by_suit[1]) == len(by_suit[2]) == 7
    assert parse_card("7H") not in DECK and parse_card("7D") not in DECK
    assert parse_card("7C") in DECK and parse_card("7S") in DECK
    assert min(c % 13 for c in DECK) == parse_card("7C") % 13  # nothing below 7


def test_deal_is_3_2_3_2_counter_clockwise_from_the_dealers_right() -> None:
    game = cardhall.load_game("hokm")
    state = game.new_game(seed=SEED_DEALER_2, deck=DECK)
    assert isinstance(state, HokmState)
    dealer = state.dealer
    right, far = (dealer + 1) % 3, (dealer + 2) % 3
    d = DECK
    expected = {
        right: d[0:3] + d[9:11] + d[15:18] + d[24:26],
        far: d[3:6] + d[11:13] + d[18:21] + d[26:28],
        dealer: d[6:9] + d[13:15] + d[21:24] + d[28:30],
    }
    for seat, cards in expected.items():
        assert _cards(state.dealt[seat]) == sorted(cards)


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def test_every_hand_deals_ten_cards_each_and_the_deal_passes_right() -> None:
    game = cardhall.load_game("hokm(max_hands=4)")
    state = game.new_game(seed=3)
    assert isinstance(state, HokmState)
    rng = random.Random(3)
    dealers = [state.dealer]
    for _ in playing(state):
        if state.phase == "bidding" and not state.bids:
            assert all(h.bit_count() == 10 for h in state.hands)
            if state.dealer != dealers[-1]:
                dealers.append(state.dealer)
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert all((b - a) % 3 == 1 for a, b in itertools.pairwise(dealers))
    assert len(dealers) == 4


def test_first_dealer_comes_from_the_seed() -> None:
    game = cardhall.load_game("hokm")
    dealers = {game.new_game(seed=s).dealer for s in range(30)}  # type: ignore[attr-defined]
    assert dealers == {0, 1, 2}
    assert game.new_game(seed=11).dealer == game.new_game(seed=11).dealer  # type: ignore[attr-defined]


# --- bidding -------------------------------------------------------------------------------------


def test_bidding_is_compulsory_one_round_from_the_dealers_right() -> None:
    state = state_with(SPLIT)
    assert state.dealer == 2
    assert state.to_act == (0,)
    assert legal_labels(state, 0) == {"bid bas", *(f"bid {n}" for n in range(3, 10)), "bid kaboot"}
    assert "pass" not in " ".join(legal_labels(state, 0)).replace("bas", "")
    act(state, 0, "bid 5")
    assert state.to_act == (1,)
    act(state, 1, "bid 3")  # lower than before: allowed in the compulsory game
    assert state.to_act == (2,)
    act(state, 2, "bid 7")
    assert state.phase == "trump" and state.declarer == 2 and state.to_act == (2,)
    obs = state.observation(1)
    assert [b["contract"] for b in obs["bids"]] == [5, 3, 7]


def test_tied_highest_contract_goes_to_the_earlier_bidder() -> None:
    state = state_with(SPLIT)
    bid_all(state, ["bid 4", "bid 6", "bid 6"])
    assert state.declarer == 1


def test_all_bas_makes_the_first_bidder_declarer() -> None:
    state = state_with(SPLIT)
    bid_all(state, ["bas", "bid bas", "bid 2"])
    assert state.declarer == 0


def test_auction_bids_must_rise_but_bas_is_always_allowed() -> None:
    state = state_with(SPLIT, "bidding=auction")
    act(state, 0, "bid 5")
    assert legal_labels(state, 1) == {"bid bas", "bid 6", "bid 7", "bid 8", "bid 9", "bid kaboot"}
    with pytest.raises(cardhall.IllegalActionError, match="bid 4"):
        act(state, 1, "bid 4")
    act(state, 1, "bid kaboot")
    assert legal_labels(state, 2) == {"bid bas"}
    act(state, 2, "bid bas")
    assert state.declarer == 1


# --- trump and play ------------------------------------------------------------------------------


def test_declarer_names_trump_then_leads() -> None:
    state = state_with(SPLIT)
    bid_all(state, ["bid kaboot", "bas", "bas"])
    assert legal_labels(state, 0) == {"trump C", "trump D", "trump H", "trump S"}
    act(state, 0, "trump H")
    assert state.phase == "play" and state.to_act == (0,) and state.leader == 0
    assert state.observation(2)["trump"] == "H"


def test_follow_suit_and_plain_order_a_10_k() -> None:
    state = state_with(SPLIT)
    bid_all(state, ["bid kaboot", "bas", "bas"])
    act(state, 0, "trump H")
    act(state, 0, "play AS")
    assert legal_labels(state, 1) == {"play QS", "play JS"}
    with pytest.raises(cardhall.IllegalActionError, match=r"hokm.*AC.*must follow S"):
        act(state, 1, "play AC")
    act(state, 1, "play QS")
    assert legal_labels(state, 2) == {"play 9S", "play 8S", "play 7S"}
    act(state, 2, "play 7S")
    assert state.tricks[-1][2] == 0
    act(state, 0, "play 10S")
    act(state, 1, "play JS")
    act(state, 2, "play 9S")
    assert state.tricks[-1][2] == 0  # 10 beats J and 9 in a plain suit
    act(state, 0, "play KS")
    act(state, 1, "play 7C")  # void in spades: any card
    act(state, 2, "play 8S")
    assert state.tricks[-1][2] == 0 and state.to_act == (0,)


def test_void_player_may_trump_or_discard_and_trump_wins() -> None:
    state = state_with(SPLIT)
    bid_all(state, ["bas", "bid 9", "bas"])
    act(state, 1, "trump S")
    act(state, 1, "play AC")
    # Seat 2 holds no club: everything is legal, trumping optional.
    assert len(state.legal_actions(2)) == 10
    act(state, 2, "play AD")
    assert len(state.legal_actions(0)) == 10
    act(state, 0, "play 8H")
    assert state.tricks[-1][2] == 1  # no trump: A of the suit led wins
    act(state, 1, "play KC")
    act(state, 2, "play 7S")  # trumps
    act(state, 0, "play AS")  # overtrumps (A beats 7 in trumps)
    assert state.tricks[-1][2] == 0
    assert state.to_act == (0,)  # the winner leads


# The rank orders of the rules of record (hokm.md, "Rank order"), highest first, written here rather
# than read from the engine's tables, so a wrong table fails these tests.
TRUMP_ORDER = ["J", "9", "A", "10", "K", "Q", "8", "7"]
PLAIN_ORDER = ["A", "10", "K", "Q", "J", "9", "8", "7"]
SUIT_CARDS = {
    "C": [f"{r}C" for r in PLAIN_ORDER],
    "S": [f"{r}S" for r in PLAIN_ORDER],
    "H": [f"{r}H" for r in PLAIN_ORDER[:-1]],  # no red sevens
    "D": [f"{r}D" for r in PLAIN_ORDER[:-1]],
}


def deal_around(fixed: dict[int, list[str]], voids: dict[int, str]) -> list[str]:
    """Three hands of ten: each seat's ``fixed`` cards, the rest of the deck dealt round to the seats
    with room, never into a seat's ``voids`` suits."""
    hands = {s: list(fixed.get(s, [])) for s in range(3)}
    taken = {c for cards in hands.values() for c in cards}
    seat = 0
    for card in [c for suit in "CSHD" for c in SUIT_CARDS[suit] if c not in taken]:
        for k in range(3):
            s = (seat + k) % 3
            if len(hands[s]) < 10 and card[-1] not in voids.get(s, ""):
                hands[s].append(card)
                seat = s + 1
                break
        else:
            raise AssertionError(f"no seat can take {card}")
    return [" ".join(hands[s]) for s in range(3)]


def play_one_trick(hands: list[str], trump: str, cards: list[str]) -> int:
    """Seat 0 bids highest and names ``trump``; seats 0, 1, 2 play ``cards`` to the first trick (each
    play checked legal); the winner, as the observation tells it (and he leads next)."""
    state = state_with(hands)
    bid_all(state, ["bid 5", "bas", "bas"])
    act(state, 0, f"trump {trump}")
    for seat, card in enumerate(cards):
        act(state, seat, f"play {card}")
    (trick,) = state.observation(1)["tricks"]
    assert [c["card"] for c in trick["cards"]] == cards
    assert state.to_act == (trick["winner"],)
    return int(trick["winner"])


@pytest.mark.parametrize(("higher", "lower"), list(itertools.combinations(TRUMP_ORDER, 2)))
def test_trump_order_j_9_a_10_k_q_8_7(higher: str, lower: str) -> None:
    # Spades are trump; seat 0 leads a club, and seats 1 and 2, void in clubs, both trump.
    high, low = f"{higher}S", f"{lower}S"
    for second, third, winner in ((low, high, 2), (high, low, 1)):
        hands = deal_around({0: ["AC"], 1: [second], 2: [third]}, {1: "C", 2: "C"})
        assert play_one_trick(hands, "S", ["AC", second, third]) == winner, f"{high} must beat {low}"
    # A trump led: the higher trump wins whoever plays it.
    for first, second, winner in ((low, high, 1), (high, low, 0)):
        hands = deal_around({0: [first], 1: [second]}, {2: "S"})
        third = next(c for c in hands[2].split() if c[-1] == "D")
        assert play_one_trick(hands, "S", [first, second, third]) == winner, f"{high} must beat {low}"


@pytest.mark.parametrize(("higher", "lower"), list(itertools.combinations(PLAIN_ORDER, 2)))
def test_plain_order_a_10_k_q_j_9_8_7(higher: str, lower: str) -> None:
    # Hearts are trump; clubs are led and followed, seat 2 (void in clubs and hearts) discards a spade.
    high, low = f"{higher}C", f"{lower}C"
    for first, second, winner in ((low, high, 1), (high, low, 0)):
        hands = deal_around({0: [first], 1: [second]}, {2: "CH"})
        third = next(c for c in hands[2].split() if c[-1] == "S")
        assert play_one_trick(hands, "H", [first, second, third]) == winner, f"{high} must beat {low}"


def test_any_trump_beats_the_best_card_of_the_suit_led() -> None:
    # The 7 of trumps (the lowest) takes the ace of the suit led.
    hands = deal_around({0: ["AC"], 1: ["7S"], 2: ["KC"]}, {1: "C"})
    assert play_one_trick(hands, "S", ["AC", "7S", "KC"]) == 1
    # A card of a third suit never wins, however high: AD discarded to a club lead loses to the 8.
    hands = deal_around({0: ["7C"], 1: ["AD"], 2: ["8C"]}, {1: "CS"})
    assert play_one_trick(hands, "S", ["7C", "AD", "8C"]) == 2


TRUMP_SPLIT = [
    "JH 8H AC KC QC JC 10C 9C 8C 7C",
    "9H AH AD KD QD JD 10D 9D 8D AS",
    "10H KH QH KS QS JS 10S 9S 8S 7S",
]


def test_must_trump_when_void() -> None:
    state = state_with(TRUMP_SPLIT, "must_trump_when_void=true")
    bid_all(state, ["bas", "bid 3", "bas"])
    act(state, 1, "trump H")
    act(state, 1, "play AS")
    act(state, 2, "play 7S")
    assert legal_labels(state, 0) == {"play JH", "play 8H"}  # void in spades, holds trumps
    plain = state_with(TRUMP_SPLIT)
    bid_all(plain, ["bas", "bid 3", "bas"])
    act(plain, 1, "trump H")
    act(plain, 1, "play AS")
    act(plain, 2, "play 7S")
    assert len(plain.legal_actions(0)) == 10


def test_must_overtrump() -> None:
    state = state_with(TRUMP_SPLIT, "must_overtrump=true")
    bid_all(state, ["bas", "bid 3", "bas"])
    act(state, 1, "trump H")
    act(state, 1, "play AD")
    act(state, 2, "play KS")
    act(state, 0, "play 8C")
    act(state, 1, "play AS")  # seat 1 won with AD and leads spades
    act(state, 2, "play QS")
    # Seat 0 is void in spades: he may discard, but a trump must beat... there is no trump yet.
    assert legal_labels(state, 0) >= {"play JH", "play 8H", "play AC"}
    act(state, 0, "play 8H")
    assert state.tricks[-1][2] == 0
    act(state, 0, "play KC")
    # Seat 1 is void in clubs and holds 9H and AH.
    act(state, 1, "play AH")
    # Seat 2 holds 10H and KH: neither beats AH, so any trump may be played (and any card).
    assert {"play 10H", "play KH"} <= legal_labels(state, 2)
    act(state, 2, "play JS")
    assert state.tricks[-1][2] == 1
    # Seat 1 leads 9H: seat 2 follows trumps with 10H/KH/QH (none can beat 9), seat 0 must beat with JH.
    act(state, 1, "play 9H")
    assert legal_labels(state, 2) == {"play 10H", "play KH", "play QH"}
    act(state, 2, "play QH")
    assert legal_labels(state, 0) == {"play JH"}


# Trump H. Seat 0: JH KH 10H; seat 1: QH 9H; seat 2: AH 8H (trump order J 9 A 10 K Q 8).
OVERTRUMP_CHOICE = [
    "JH KH 10H AC KC QC JC 10C 9C 8C",
    "QH 9H 7C AD KD QD JD 10D 9D 8D",
    "AH 8H AS KS QS JS 10S 9S 8S 7S",
]


def test_must_overtrump_when_trump_is_led_only_a_higher_trump_may_follow() -> None:
    state = state_with(OVERTRUMP_CHOICE, "must_overtrump=true")
    bid_all(state, ["bas", "bid 3", "bas"])
    act(state, 1, "trump H")
    act(state, 1, "play QH")
    # Seat 2 holds AH (beats QH) and 8H (does not): only AH.
    assert legal_labels(state, 2) == {"play AH"}
    with pytest.raises(cardhall.IllegalActionError, match=r"hokm.*8H"):
        act(state, 2, "play 8H")
    act(state, 2, "play AH")
    # Seat 0 must beat the best trump on the trick (AH), not just the led QH: JH, not KH or 10H.
    assert legal_labels(state, 0) == {"play JH"}
    act(state, 0, "play JH")
    assert state.tricks[-1][2] == 0
    # Without the option any trump follows.
    plain = state_with(OVERTRUMP_CHOICE)
    bid_all(plain, ["bas", "bid 3", "bas"])
    act(plain, 1, "trump H")
    act(plain, 1, "play QH")
    assert legal_labels(plain, 2) == {"play AH", "play 8H"}
    act(plain, 2, "play AH")
    assert legal_labels(plain, 0) == {"play JH", "play KH", "play 10H"}


# --- scoring -------------------------------------------------------------------------------------


def test_worked_example_from_the_rules() -> None:
    # A = 5 (declarer), B = Bas, C = 3; tricks 6, 1, 3 -> +50, -20, +30.
    assert [hand_score(c, t, "ignore", -100) for c, t in [(5, 6), (2, 1), (3, 3)]] == [50, -20, 30]


@pytest.mark.parametrize(
    ("contract", "tricks", "overtricks", "kaboot_fail", "points"),
    [
        (2, 2, "ignore", -100, 20),
        (9, 8, "ignore", -100, -90),
        (10, 10, "ignore", -100, 200),
        (10, 9, "ignore", -100, -100),
        (10, 9, "ignore", -10, -10),
        (10, 9, "ignore", -200, -200),
        (4, 7, "count", -100, 70),
        (4, 3, "count", -100, -40),
        (4, 7, "exact", -100, -40),
        (4, 4, "exact", -100, 40),
        (10, 10, "count", -100, 200),
    ],
)
def test_hand_score_table(contract: int, tricks: int, overtricks: str, kaboot_fail: int, points: int) -> None:
    assert hand_score(contract, tricks, overtricks, kaboot_fail) == points


def play_hand(state: HokmState, rng: random.Random) -> None:
    start = state.hand_index
    for _ in bounded(lambda: state.hand_index == start and not state.is_over):
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize("options", ["", "overtricks=count,kaboot_fail=-200", "overtricks=exact"])
def test_each_player_scores_against_his_own_contract(options: str) -> None:
    game = cardhall.load_game(f"hokm({options},max_hands=30)" if options else "hokm(max_hands=30)")
    state = game.new_game(seed=21)
    assert isinstance(state, HokmState)
    rng = random.Random(21)
    for _ in playing(state):
        play_hand(state, rng)
    for row in state.score_sheet:
        assert sum(row["tricks"]) == 10
        for c, t, p in zip(row["contracts"], row["tricks"], row["points"], strict=True):
            assert p == hand_score(c, t, game.options["overtricks"], game.options["kaboot_fail"])  # type: ignore[arg-type]
            if not options:
                assert p in (10 * c, -10 * c, 200, -100)
    totals = [sum(row["points"][s] for row in state.score_sheet) for s in range(3)]
    assert totals == list(state.scores)


def test_kaboot_scored_in_a_real_hand() -> None:
    # Seat 0 holds every trump and the top spades: with hearts trump he takes all ten tricks.
    state = state_with(SPLIT)
    bid_all(state, ["bid kaboot", "bas", "bid 3"])
    act(state, 0, "trump H")
    rng = random.Random(0)
    for lead in ["AS", "10S", "KS", "JH", "9H", "AH", "10H", "KH", "QH", "8H"]:
        act(state, 0, f"play {lead}")
        for seat in (1, 2):
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert state.score_sheet[0]["tricks"] == [10, 0, 0]
    assert state.score_sheet[0]["points"] == [200, -20, -30]
    assert state.scores == (200, -20, -30)


@pytest.mark.parametrize(
    ("bids", "points"),
    [
        # hokm.md: overtricks=count, "a made contract of 2 ... 9 scores +10 x tricks taken; Kaboot stays +200"
        (["bid kaboot", "bas", "bid 3"], [200, -20, -30]),
        (["bid 9", "bas", "bid 3"], [100, -20, -30]),
        (["bid 5", "bid 4", "bas"], [100, -40, -20]),
    ],
)
def test_overtricks_count_scores_tricks_taken_but_kaboot_stays_200(
    bids: list[str], points: list[int]
) -> None:
    # Seat 0 holds every heart and the top spades: with hearts trump he takes all ten tricks.
    state = state_with(SPLIT, "overtricks=count")
    bid_all(state, bids)
    act(state, 0, "trump H")
    rng = random.Random(0)
    for lead in ["AS", "10S", "KS", "JH", "9H", "AH", "10H", "KH", "QH", "8H"]:
        act(state, 0, f"play {lead}")
        for seat in (1, 2):
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert state.score_sheet[0]["tricks"] == [10, 0, 0]
    assert state.score_sheet[0]["points"] == points


# --- end of the match ----------------------------------------------------------------------------


def _first_hand_deltas(options: str, seed: int) -> list[int]:
    state = cardhall.load_game(f"hokm({options})").new_game(seed=seed)
    assert isinstance(state, HokmState)
    play_hand(state, random.Random(seed))
    return list(state.score_sheet[0]["points"])


def test_match_ends_after_a_hand_reaching_the_target_and_highest_wins() -> None:
    deltas = _first_hand_deltas("target=500", 4)
    state = cardhall.load_game("hokm").new_game(seed=4)
    assert isinstance(state, HokmState)
    best = max(range(3), key=lambda s: deltas[s])
    state.scores_ = [0, 0, 0]
    state.scores_[best] = 500 - deltas[best]
    others = [s for s in range(3) if s != best]
    state.scores_[others[0]] = 490 - deltas[others[0]]  # also near the target but behind
    play_hand(state, random.Random(4))
    assert state.is_over
    assert state.winners == (best,)
    assert state.to_act == ()


def test_tie_for_the_top_plays_another_hand() -> None:
    deltas = _first_hand_deltas("target=500", 6)
    state = cardhall.load_game("hokm").new_game(seed=6)
    assert isinstance(state, HokmState)
    state.scores_ = [600 - deltas[0], 600 - deltas[1], -deltas[2]]
    play_hand(state, random.Random(6))
    assert state.scores[:2] == (600, 600)
    assert not state.is_over and state.hand_index == 1
    assert state.phase == "bidding"


def test_nobody_at_target_plays_on_and_max_hands_ends() -> None:
    state = cardhall.load_game("hokm(max_hands=2)").new_game(seed=8)
    assert isinstance(state, HokmState)
    rng = random.Random(8)
    play_hand(state, rng)
    assert not state.is_over or len(set(state.scores)) < 3
    for _ in playing(state):
        play_hand(state, rng)
    top = max(state.scores)
    assert state.winners == tuple(s for s in range(3) if state.scores[s] == top)
    assert len(state.winners) == 1


# --- API details ---------------------------------------------------------------------------------


def test_action_labels_and_spellings() -> None:
    game = cardhall.load_game("hokm")
    assert game.action_label(BID_BASE) == "bid bas"
    assert game.parse_action("bid 2") == game.parse_action("bas") == BID_BASE
    assert game.parse_action("bid kaboot") == game.parse_action("bid 10") == BID_BASE + 8
    assert game.parse_action("trump ♥") == game.parse_action("trump hearts") == TRUMP_BASE + 2
    assert game.parse_action("play 10H") == game.parse_action("TH") == parse_card("10H")
    for bad in ("bid 11", "bid 1", "trump X", "play 1Z", "dance"):
        with pytest.raises(cardhall.InvalidActionError, match="hokm"):
            game.parse_action(bad)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("hokm(target=0)", "at least 1"),
        ("hokm(bidding=open)", "compulsory|auction"),
        ("hokm(kaboot_fail=-50)", "-100"),
        ("hokm(must_overtrump=maybe)", "true or false"),
        ("hokm(players=4)", "unknown option 'players'"),
        ("hokm(target=1,target=2)", "given twice"),
        ("hokm(target)", "key=value"),
        ("hokum", "unknown game"),
    ],
)
def test_bad_options_are_refused(text: str, fragment: str) -> None:
    with pytest.raises(cardhall.InvalidOptionError, match=fragment):
        cardhall.load_game(text)


def test_game_string_keeps_only_changed_options() -> None:
    game = cardhall.load_game("hokm( target = 300 , bidding=auction, overtricks=ignore)")
    assert str(game) == "hokm(target=300,bidding=auction)"
    assert cardhall.load_game("hokm(target=500)") == cardhall.load_game("hokm")


def test_observation_shows_the_history_of_the_hand() -> None:
    state = state_with(SPLIT)
    bid_all(state, ["bid kaboot", "bas", "bid 3"])
    act(state, 0, "trump H")
    act(state, 0, "play AS")
    act(state, 1, "play JS")
    act(state, 2, "play 9S")
    act(state, 0, "play KS")
    obs = state.observation(1)
    assert obs["hand"][:2] == ["AC", "KC"]  # sorted by suit, high first
    assert obs["tricks"] == [
        {
            "leader": 0,
            "cards": [{"seat": 0, "card": "AS"}, {"seat": 1, "card": "JS"}, {"seat": 2, "card": "9S"}],
            "winner": 0,
        }
    ]
    assert obs["trick"] == [{"seat": 0, "card": "KS"}]
    assert obs["tricks_won"] == [1, 0, 0]
    assert obs["hand_sizes"] == [8, 9, 9]
    assert obs["bids"][0] == {"seat": 0, "contract": 10}
    assert state.observation(None)["hand"] == []


def test_resample_respects_shown_voids() -> None:
    state = state_with(SPLIT)
    bid_all(state, ["bas", "bid 9", "bas"])
    act(state, 1, "trump S")
    act(state, 1, "play AC")
    act(state, 2, "play AD")  # seat 2 shows a club void
    act(state, 0, "play 8H")  # seat 0 too
    rng = random.Random(1)
    for _ in range(50):
        other = state.resample(1, rng)
        clubs = sum(1 for c in range(52) if c // 13 == 0 and other.hands[2] >> c & 1)
        clubs += sum(1 for c in range(52) if c // 13 == 0 and other.hands[0] >> c & 1)
        assert clubs == 0
        assert other.hands[1] == state.hands[1]
