"""Scenario tests for Cancellation Hearts and one-deck Hearts (src/cardhall/rulebook/hearts.en.md)."""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter

import pytest

import cardhall
from cardhall.cards import RANKS, parse_cards
from cardhall.core import derived_rng
from cardhall.games._deal import shuffle_deck
from cardhall.games.hearts.rules import (
    MOON_MINUS,
    MOON_PLUS,
    PASS_BASE,
    HeartsState,
    deal_steps,
    points_of,
    shuffle_and_deal,
)
from tests.helpers import bounded, playing

# --- helpers ---------------------------------------------------------------------------------------


def seed_with_dealer(players: int, dealer: int) -> int:
    return next(s for s in range(10_000) if derived_rng(s, "first dealer").randrange(players) == dealer)


def deal(
    game_string: str,
    hands: dict[int, str],
    widow: str = "",
    voids: dict[int, str] | None = None,
    dealer: int | None = None,
) -> HeartsState:
    """A match whose first deal gives each listed seat these cards (faces; a face listed twice means both
    copies) and the widow these; the other cards go round to fill the hands (never into a seat's ``voids``
    suits), the rest to the widow. The dealer is the last seat unless given, so seat 0 leads."""
    game = cardhall.load_game(game_string)
    n = game.num_players
    size = len(game.deck()) // n
    dealer = n - 1 if dealer is None else dealer
    used: Counter[int] = Counter()

    def physical(faces: str) -> list[int]:
        out = []
        for f in parse_cards(faces):
            out.append(f + 52 * used[f])
            used[f] += 1
            assert used[f] <= len(game.deck()) // 52, f"too many copies of {f}"
        return out

    seat_cards = {s: physical(hands.get(s, "")) for s in range(n)}
    widow_cards = physical(widow)
    taken = {c for cs in seat_cards.values() for c in cs} | set(widow_cards)
    voids = voids or {}
    # The other cards go round one at a time to the seats with room, skipping a seat's void suits.
    seat = 0
    for c in [c for c in game.deck() if c not in taken]:
        for k in range(n):
            s = (seat + k) % n
            if len(seat_cards[s]) < size and "CDHS"[(c % 52) // 13] not in voids.get(s, ""):
                seat_cards[s].append(c)
                seat = s + 1
                break
        else:
            widow_cards.append(c)
    assert all(len(cs) == size for cs in seat_cards.values()), "hands of the wrong size"
    deck = [0] * (size * n)
    for s, cs in seat_cards.items():
        for j, c in enumerate(cs):
            deck[j * n + (s - dealer - 1) % n] = c
    deck += widow_cards
    state = game.new_game(seed=seed_with_dealer(n, dealer), deck=deck)
    assert isinstance(state, HeartsState)
    return state


def play(state: HeartsState, *moves: str) -> None:
    """Play ``"seat:card"`` moves in order (checked)."""
    for move in moves:
        seat, label = move.split(":")
        state.apply(int(seat), state.game.parse_action(label))


def legal_labels(state: HeartsState, seat: int) -> set[str]:
    return {state.game.action_label(a) for a in state.legal_actions(seat)}


def finish_hand(state: HeartsState, policy: str = "first") -> None:
    """Play on until the current hand is scored."""
    hand = state.hand_index
    rng = random.Random(3)
    for _ in bounded(lambda: state.hand_index == hand and not state.is_over):
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[0] if policy == "first" else rng.choice(legal))


# --- options and the deal --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "each", "widow"),
    [(6, 17, 2), (7, 14, 6), (8, 13, 0), (9, 11, 5), (10, 10, 4), (11, 9, 5)],
)
def test_two_deck_hand_and_widow_sizes(players: int, each: int, widow: int) -> None:
    state = cardhall.load_game(f"hearts(players={players})").new_game(seed=1)
    assert isinstance(state, HeartsState)
    assert [h.bit_count() for h in state.hands] == [each] * players
    assert state.widow.bit_count() == widow
    assert state.observation(0)["widow_size"] == widow


@pytest.mark.parametrize(
    ("players", "each", "widow"), [(3, 17, 1), (4, 13, 0), (5, 10, 2), (6, 8, 4), (7, 7, 3)]
)
def test_one_deck_hand_and_widow_sizes(players: int, each: int, widow: int) -> None:
    game = cardhall.load_game(f"hearts(decks=1,players={players})")
    assert len(game.deck()) == 52
    state = game.new_game(seed=1)
    assert isinstance(state, HeartsState)
    assert [h.bit_count() for h in state.hands] == [each] * players
    assert state.widow.bit_count() == widow


def test_defaults_and_game_string() -> None:
    game = cardhall.load_game("hearts")
    assert game.num_players == 6 and len(game.deck()) == 104
    assert str(cardhall.load_game("hearts(decks=1,players=4)")) == "hearts(players=4,decks=1)"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("hearts(players=5)", "6 to 11"),
        ("hearts(decks=1,players=8)", "3 to 7"),
        ("hearts(players=12)", "at most 11"),
        ("hearts(decks=3)", "allowed values"),
        ("hearts(moon_value=30)", "allowed values"),
        ("hearts(passing=across)", "allowed values"),
        ("hearts(target=0)", "at least 1"),
        ("hearts(moon=maybe)", "allowed values"),
    ],
)
def test_bad_options_are_refused(text: str, why: str) -> None:
    with pytest.raises(cardhall.InvalidOptionError, match=why) as info:
        cardhall.load_game(text)
    assert "hearts" in str(info.value)


def test_deal_is_one_card_at_a_time_from_the_dealers_left_and_rest_is_the_widow() -> None:
    game = cardhall.load_game("hearts(players=7)")
    seed = seed_with_dealer(7, 3)
    state = game.new_game(seed=seed, deck=list(range(104)))
    assert isinstance(state, HeartsState)
    assert state.dealer == 3
    for k in range(7):
        seat = (3 + 1 + k) % 7
        assert sorted(c for c in range(98) if state.hands[seat] >> c & 1) == list(range(k, 98, 7))
    assert state.widow == sum(1 << c for c in range(98, 104))
    # The widow is face down: hidden from every seat, named in no observation.
    for seat in [*range(7), None]:
        assert set(range(98, 104)) <= state.hidden_cards(seat)
    assert state.observation(0)["widow_taker"] is None


def test_labels_are_faces_and_parse() -> None:
    game = cardhall.load_game("hearts")
    assert game.action_label(game.parse_action("play QS")) == "play QS"
    assert game.parse_action("qs") == game.parse_action("play Q♠")
    assert game.action_label(PASS_BASE + 0) == "pass 2C"
    assert game.parse_action("moon minus") == MOON_MINUS
    assert game.parse_action("moon plus") == MOON_PLUS
    for bad in ("pass ZZ", "moon maybe", "play"):
        with pytest.raises(cardhall.InvalidActionError, match="hearts"):
            game.parse_action(bad)


# --- passing -----------------------------------------------------------------------------------------


def test_passing_is_simultaneous_and_goes_left_then_right() -> None:
    state = deal("hearts", {0: "QS QS AH KH 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"})
    assert state.phase == "pass"
    assert state.to_act == (0, 1, 2, 3, 4, 5)
    assert state.observation(0)["pass_direction"] == "left"
    with pytest.raises(cardhall.IllegalActionError, match=r"hearts.*play 2C.*passing"):
        state.apply(0, state.game.parse_action("play 2C"))
    # Both Q♠ are one action, taken twice.
    assert "pass QS" in legal_labels(state, 0)
    play(state, "0:pass QS", "0:pass QS")
    assert "pass QS" not in legal_labels(state, 0)
    play(state, "0:pass AH")
    assert 0 not in state.to_act and state.to_act == (1, 2, 3, 4, 5)
    assert state.legal_actions(0) == []
    obs1 = state.observation(1)
    assert obs1["received_cards"] == [] and "QS" not in obs1["hand"]
    assert state.observation(0)["passing"] == ["AH", "QS", "QS"]
    before_seat1 = state.hands[1]
    for seat in range(1, 6):
        for _ in range(3):
            state.apply(seat, state.legal_actions(seat)[0])
        if seat < 5:
            assert state.hands[1] == before_seat1 & state.hands[1]  # seat 1 received nothing yet
    assert state.phase == "play"
    o0, o1 = state.observation(0), state.observation(1)
    assert o0["passed_to"] == 1 and o0["passed_cards"] == ["AH", "QS", "QS"]
    assert o1["received_from"] == 0 and o1["received_cards"] == ["AH", "QS", "QS"]
    assert o1["hand"].count("QS") == 2 and "AH" in o1["hand"]
    assert o0["received_from"] == 5
    # Seat 0 knows where its cards went: they are not hidden from it, but are from seat 2.
    assert not {49, 101} & state.hidden_cards(0)
    assert {49, 101} <= state.hidden_cards(2)
    finish_hand(state)
    assert state.hand_index == 1 and state.phase == "pass"
    assert state.observation(0)["pass_direction"] == "right"
    assert state.score_sheet[0]["pass_direction"] == "left"
    mine = [state.legal_actions(3)[i] for i in (0, 1, 2)]
    for seat in range(6):
        for i in range(3):
            state.apply(seat, mine[i] if seat == 3 else state.legal_actions(seat)[0])
    assert state.observation(3)["passed_to"] == 2
    assert state.observation(2)["received_from"] == 3
    assert state.observation(2)["received_cards"] == state.observation(3)["passed_cards"]


def test_passing_cycle_and_none() -> None:
    def directions(game_string: str, hands: int) -> list[str]:
        state = cardhall.load_game(game_string).new_game(seed=4)
        assert isinstance(state, HeartsState)
        seen = []
        for _ in range(hands):
            seen.append(state.observation(None)["pass_direction"])
            if state.phase == "play":
                assert len(state.to_act) == 1  # hold: no passing phase
            finish_hand(state, "random")
        return seen

    assert directions("hearts(decks=1,players=4,passing=cycle,target=1000)", 5) == [
        "left",
        "right",
        "across",
        "hold",
        "left",
    ]
    assert directions("hearts(decks=1,players=5,passing=cycle,target=1000)", 4) == [
        "left",
        "right",
        "hold",
        "left",
    ]
    assert directions("hearts(passing=none,target=1000)", 2) == ["hold", "hold"]
    assert directions("hearts(target=1000)", 3) == ["left", "right", "left"]


def test_across_passes_to_the_opposite_seat() -> None:
    state = cardhall.load_game("hearts(decks=1,players=4,passing=cycle,target=1000)").new_game(seed=4)
    assert isinstance(state, HeartsState)
    finish_hand(state)
    finish_hand(state)
    assert state.observation(None)["pass_direction"] == "across"
    for seat in range(4):
        for _ in range(3):
            state.apply(seat, state.legal_actions(seat)[0])
    assert state.observation(1)["passed_to"] == 3
    assert state.observation(3)["received_cards"] == state.observation(1)["passed_cards"]


# --- leads, following, hearts breaking ---------------------------------------------------------------


def test_first_lead_is_left_of_dealer_and_not_a_heart_or_queen() -> None:
    state = deal("hearts(passing=none)", {1: "QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2C 3D 4S"}, dealer=0)
    assert state.to_act == (1,)
    assert legal_labels(state, 1) == {"play 2C", "play 3D", "play 4S"}
    with pytest.raises(
        cardhall.IllegalActionError, match=r"hearts\(passing=none\): seat 1 may not 'play QS'.*first lead"
    ):
        play(state, "1:QS")


def test_first_leader_holding_only_points_may_lead_anything() -> None:
    state = deal("hearts(passing=none)", {0: "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2H 3H 4H QS"})
    faces = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH", "QS"]
    assert legal_labels(state, 0) == {f"play {c}" for c in faces}


def test_must_follow_suit() -> None:
    state = deal(
        "hearts(passing=none)",
        {
            0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2D 3D 4D 5D",
            1: "2C 5S 6S 7S 8S 9S 10S JS KS AS 2S 3S 4S 2D 3D 4D 5D",
        },
    )
    play(state, "0:5C")
    assert legal_labels(state, 1) == {"play 2C"}
    with pytest.raises(
        cardhall.IllegalActionError, match=r"hearts\(passing=none\): seat 1 may not 'play 5S'.*must follow C"
    ):
        play(state, "1:5S")


def test_hearts_break_and_queen_lead() -> None:
    # Seat 0 leads clubs; seat 1 is void in clubs and discards a heart, which breaks hearts.
    state = deal(
        "hearts(passing=none)",
        {
            0: "AC AC KC KC 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
            1: "QS 2H 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 2S 3S 4S",
        },
    )
    play(state, "0:KC")
    assert not state.broken
    # Seat 0 won with ... nobody else has AC: seats 2..5 hold the rest.
    play(state, "1:2H")
    assert state.broken
    for seat in range(2, 6):
        state.apply(seat, state.legal_actions(seat)[0])
    winner = state.leader
    assert winner >= 0
    # Now any heart may be led.
    state2 = deal(
        "hearts(passing=none)",
        {
            0: "AC AC KC KC 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
            1: "QS 2H 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 2S 3S 4S",
        },
    )
    play(state2, "0:AC", "1:3D")  # no heart played: hearts stay unbroken
    for seat in range(2, 6):
        hand = legal_labels(state2, seat)
        choice = sorted(h for h in hand if not h.endswith("H") and h != "play QS")[0]
        play(state2, f"{seat}:{choice.split()[1]}")
    assert state2.leader == 0 and not state2.broken
    assert legal_labels(state2, 0) == {"play AC", "play KC"}
    with pytest.raises(cardhall.IllegalActionError, match="hearts are not broken"):
        play(state2, "0:2H")


def test_queen_breaks_hearts_and_may_be_led_after_the_first_trick() -> None:
    hands = {
        0: "AC AC KC KC QS 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
        1: "QS 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 2S 3S 4S",
    }
    for breaks in (True, False):
        state = deal(
            f"hearts(passing=none,queen_breaks_hearts={str(breaks).lower()})",
            hands,
        )
        assert "play QS" not in legal_labels(state, 0)  # not on the first lead
        play(state, "0:AC", "1:QS")
        for seat in range(2, 6):
            play(state, f"{seat}:{sorted(legal_labels(state, seat) - {'play QS'})[0].split()[1]}")
        assert state.leader == 0
        assert state.broken is breaks
        assert "play QS" in legal_labels(state, 0)


def test_leader_with_only_hearts_may_lead_hearts() -> None:
    state = deal(
        "hearts(decks=1,players=4,passing=none)",
        {
            0: "AC 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
            1: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AH",
            2: "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
        },
    )
    play(state, "0:AC", "1:2C", "2:2D", "3:2S")
    assert state.tricks[0][2] == 0 and not state.broken
    hearts = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert legal_labels(state, 0) == {f"play {r}H" for r in hearts}
    play(state, "0:KH")
    # Leading a heart unbroken tells everyone the leader held nothing else.
    assert state.excluded[0] & (1 << 0) and not state.excluded[0] & (1 << 26)


def test_points_on_first_trick_variant() -> None:
    hands = {
        0: "AC AC KC KC QC 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
        1: "QS 2H 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 2S 3S 4S",
    }
    loose = deal("hearts(passing=none)", hands)
    play(loose, "0:AC")
    assert {"play QS", "play 2H"} <= legal_labels(loose, 1)
    strict = deal("hearts(passing=none,points_on_first_trick=false)", hands)
    play(strict, "0:AC")
    assert "play QS" not in legal_labels(strict, 1) and "play 2H" not in legal_labels(strict, 1)
    assert "play 3D" in legal_labels(strict, 1)


def test_two_clubs_variant_leads_the_lowest_club_held() -> None:
    state = deal(
        "hearts(decks=1,players=4,passing=none,first_lead=two_clubs)",
        {2: "2C 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"},
    )
    assert state.to_act == (2,)
    assert legal_labels(state, 2) == {"play 2C"}
    # Both 2♣ in the widow: the lowest club held leads, first holder from the dealer's left.
    state = deal(
        "hearts(players=7,passing=none,first_lead=two_clubs)",
        {
            3: "3C 4D 4D 5D 5D 6D 6D 7D 7D 8D 8D 9D 9D 10D",
            5: "3C JD JD QD QD KD KD AD AD 2D 2D 3D 3D 4S",
        },
        widow="2C 2C 2S 2S 3S 3S",
    )
    assert state.to_act == (3,)
    assert legal_labels(state, 3) == {"play 3C"}
    play(state, "3:3C")
    # Everybody is known to hold no 2♣; seats 0..2 are known to hold no 3♣.
    assert all(ex & (1 | 1 << 52) == (1 | 1 << 52) for ex in state.excluded)
    assert all(state.excluded[s] & (1 << 1) for s in (0, 1, 2))
    assert not state.excluded[5] & (1 << 1)


# --- cancellation --------------------------------------------------------------------------------------


def test_cancelled_high_pair_lets_a_lower_card_win() -> None:
    state = deal(
        "hearts(passing=none)",
        {
            0: "3C 2C 2C 4C 4C 5C 5C 6C 6C 7C 7C 8C 8C 9C 9C JC JC",
            1: "AC QC KC",
            2: "AC QC KC",
            3: "10C 10C 3C",
        },
        voids={s: "C" for s in range(6)},
    )
    play(state, "0:3C", "1:AC", "2:AC", "3:10C")
    play(state, f"4:{sorted(legal_labels(state, 4))[0].split()[1]}")
    play(state, f"5:{sorted(legal_labels(state, 5))[0].split()[1]}")
    assert state.tricks[0][2] == 3
    assert state.leader == 3 and state.to_act == (3,)
    obs = state.observation(0)
    assert obs["tricks"][0]["winner"] == 3


def twins(game: str = "hearts(players=6,passing=none)") -> HeartsState:
    """Seats 0 and 1 hold identical hands (all clubs and AD KD QD JD), so whatever one plays the other can
    cancel; seats 2..5 hold no clubs. Widow: 2H 2H."""
    clubs = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC AD KD QD JD"
    return deal(
        game,
        {
            0: clubs,
            1: clubs,
            2: "2D 3D 4D 5D 6D 7D 8D 9D 10D 2S 3S 4S 5S 6S 7S 8S 9S",
            3: "2D 3D 4D 5D 6D 7D 8D 9D 10D 2S 3S 4S 5S 6S 7S 8S 9S",
            4: "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 10S JS QS KS AS",
            5: "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 10S JS QS KS AS",
        },
        widow="2H 2H",
    )


def discard(state: HeartsState, *cards: str) -> None:
    """Seats 2..5 play these cards in turn."""
    for seat, c in zip(range(2, 6), cards, strict=True):
        play(state, f"{seat}:{c}")


def test_fully_dead_tricks_are_carried_over_twice_and_the_widow_goes_with_them() -> None:
    state = twins()
    play(state, "0:2C", "1:2C")
    discard(state, "2D", "2D", "3H", "3H")
    assert state.tricks[-1][2] == -1
    assert state.set_aside_count == 1 and state.to_act == (0,)  # the same player leads again
    assert state.broken  # hearts played to a dead trick break hearts
    play(state, "0:3C", "1:3C")
    discard(state, "3D", "3D", "QS", "4H")
    assert state.tricks[-1][2] == -1 and state.set_aside_count == 2 and state.to_act == (0,)
    assert state.widow_taker == -1
    obs = state.observation(2)
    assert [t["winner"] for t in obs["tricks"]] == [None, None]
    assert obs["set_aside_tricks"] == 2
    play(state, "0:4C", "1:AC")
    discard(state, "4D", "4D", "5H", "5H")
    assert state.tricks[-1][2] == 1
    assert state.set_aside_count == 0 and state.set_aside == 0
    assert state.taken[1].bit_count() == 18
    assert points_of(state.taken[1]) == 2 + 13 + 1 + 2
    # The first won trick took the widow too (face down: its cards are named nowhere).
    assert state.widow_taker == 1 and state.observation(0)["widow_taker"] == 1
    assert "2H" not in json.dumps(state.observation(1))
    assert state.to_act == (1,)


def test_dead_trick_lead_variant_moves_the_lead_left() -> None:
    state = twins("hearts(players=6,passing=none,dead_trick_lead=left)")
    play(state, "0:2C", "1:2C")
    discard(state, "2D", "2D", "3H", "3H")
    assert state.tricks[-1][2] == -1 and state.to_act == (1,)


def dead_first_trick(discards: str = "none") -> HeartsState:
    """Six players, two decks: seats 0 and 1 hold every club (one copy each) and seat 0 also QS AH KH AD;
    seat 0 leads 2C, seat 1 cancels it with the other 2C and seats 2-5, void in clubs, discard: the first
    trick has no uncancelled club, so it is set aside and seat 0 leads again. Seat 2 discards a heart
    when ``discards`` is "heart", else all four discard cards without points."""
    clubs = " ".join(f"{r}C" for r in RANKS)
    state = deal("hearts(players=6,passing=none)", {0: f"{clubs} QS AH KH AD", 1: f"{clubs} KD QD JD 10D"})
    assert legal_labels(state, 0) == {f"play {r}C" for r in RANKS} | {"play AD"}  # no heart, no QS
    play(state, "0:2C", "1:2C")
    for seat in range(2, 6):
        legal = sorted(legal_labels(state, seat))
        hearts = [x for x in legal if x.endswith("H")]
        plain = [x for x in legal if not x.endswith("H") and x != "play QS"]
        state.apply(
            seat, state.game.parse_action((hearts if seat == 2 and discards == "heart" else plain)[0])
        )
    (trick,) = state.observation(0)["tricks"]
    assert trick["winner"] is None and state.to_act == (0,)
    return state


def test_after_a_dead_first_trick_the_leader_may_lead_the_queen_but_not_unbroken_hearts() -> None:
    # cancellation-hearts.md: the first-trick ban ("any card except a heart or Q♠") is for the first
    # trick; "Q♠ may be led at any time after the first trick"; hearts only once broken (a heart or Q♠
    # played) unless the leader holds only hearts. The dead trick broke nothing.
    state = dead_first_trick()
    assert not state.observation(0)["hearts_broken"]
    assert legal_labels(state, 0) == {f"play {r}C" for r in RANKS[1:]} | {"play QS", "play AD"}
    with pytest.raises(cardhall.IllegalActionError):
        play(state, "0:AH")
    play(state, "0:QS")


def test_a_heart_discarded_to_a_dead_first_trick_breaks_hearts_for_the_next_lead() -> None:
    state = dead_first_trick(discards="heart")
    assert state.observation(0)["hearts_broken"]
    assert legal_labels(state, 0) == {f"play {r}C" for r in RANKS[1:]} | {
        "play QS",
        "play AD",
        "play AH",
        "play KH",
    }
    play(state, "0:AH")


def test_every_trick_dead_and_the_last_goes_to_nobody() -> None:
    # Eight players, two decks, no widow: twins in every pair, each pair alone in one suit.
    suit = {c: " ".join(r + c for r in RANKS) for c in "CDHS"}
    hands = {
        0: suit["C"],
        1: suit["C"],
        2: suit["D"],
        3: suit["D"],
        4: suit["H"],
        5: suit["H"],
        6: suit["S"],
        7: suit["S"],
    }
    state = deal("hearts(players=8,passing=none)", hands)
    for r in RANKS:
        play(state, f"0:{r}C", f"1:{r}C")
        for seat in range(2, 8):
            play(state, f"{seat}:{sorted(legal_labels(state, seat))[0].split()[1]}")
        if r != "A":
            assert state.tricks[-1][2] == -1 and state.to_act == (0,)
    assert state.hand_index == 1
    row = state.score_sheet[0]
    assert row["points"] == [0] * 8
    assert row["uncollected"] == 52
    assert row["moon"] is None
    assert state.scores == (0,) * 8


def test_set_aside_pile_and_dead_last_trick_at_the_end_go_to_nobody() -> None:
    suit = {c: " ".join(r + c for r in RANKS) for c in "CDHS"}
    hands = {0: suit["C"], 1: suit["C"], 2: suit["D"], 3: suit["D"], 4: suit["H"], 5: suit["H"]}
    state = deal("hearts(players=8,passing=none,max_hands=1)", hands | {6: suit["S"], 7: suit["S"]})

    def others() -> None:
        for seat in range(2, 8):
            play(state, f"{seat}:{sorted(legal_labels(state, seat))[0].split()[1]}")

    play(state, "0:2C", "1:2C")
    others()
    play(state, "0:3C", "1:3C")
    others()
    play(state, "0:4C", "1:5C")
    others()
    assert state.tricks[-1][2] == 1 and state.taken[1].bit_count() == 24
    play(state, "1:4C")
    others()
    play(state, "0:5C")
    assert state.tricks[-1][2] == 0 and state.taken[0].bit_count() == 8
    for r in RANKS[4:]:
        play(state, f"0:{r}C", f"1:{r}C")
        others()
        assert state.tricks[-1][2] == -1
    assert state.is_over
    dead_cards = [f for _, cards, w in state.tricks[4:] for _, f in cards]
    dead_points = sum(1 for f in dead_cards if f // 13 == 2) + 13 * dead_cards.count(49)
    row = state.score_sheet[0]
    assert row["uncollected"] == dead_points > 0
    assert row["points"][0] == points_of(state.taken[0]) and row["points"][1] == points_of(state.taken[1])
    assert sum(row["points"]) + row["uncollected"] == 52
    assert state.uncollected.bit_count() == 9 * 8
    assert len(state.observation(0)["uncollected"]) == 72


def test_widow_goes_with_the_first_won_trick() -> None:
    state = twins("hearts(players=6,passing=none,max_hands=1)")
    play(state, "0:3C", "1:4C")
    discard(state, "2D", "2D", "3H", "3H")
    assert state.tricks[-1][2] == 1 and state.widow_taker == 1
    finish_hand(state)
    row = state.score_sheet[0]
    assert row["points"][1] == points_of(state.taken[1]) + 2
    assert row["widow_taker"] == 1
    assert sum(row["points"]) + row["uncollected"] == 52


def test_widow_last_trick_variant() -> None:
    late = twins("hearts(players=6,passing=none,widow=last_trick,max_hands=1)")
    play(late, "0:3C", "1:4C")
    discard(late, "2D", "2D", "3H", "3H")
    assert late.widow_taker == -1
    finish_hand(late)
    last = [w for _, _, w in late.tricks if w >= 0][-1]
    assert late.widow_taker == last
    row = late.score_sheet[0]
    assert row["points"][last] == points_of(late.taken[last]) + 2


# --- moon, end of the match ----------------------------------------------------------------------------


def moon_deal(game_string: str) -> HeartsState:
    """One deck, four players: seat 0 holds all 13 hearts and so takes every trick and the Q♠."""
    return deal(game_string, {0: "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"})


def run_hand(state: HeartsState) -> None:
    """Play the current hand out, each seat playing its highest legal card."""
    hand = state.hand_index
    for _ in bounded(lambda: state.phase == "play" and state.hand_index == hand):
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[-1])


def test_shooting_the_moon_is_the_shooters_choice() -> None:
    state = moon_deal("hearts(decks=1,players=4,passing=none)")
    run_hand(state)
    assert state.phase == "moon" and state.to_act == (0,)
    assert state.legal_actions(0) == [MOON_MINUS, MOON_PLUS]
    assert state.legal_actions(1) == []
    with pytest.raises(cardhall.IllegalActionError, match="moon minus"):
        state.apply(0, 0)
    minus, plus = state.clone(), state.clone()
    play(minus, "0:moon minus")
    assert minus.scores == (-26, 0, 0, 0)
    assert minus.score_sheet[0]["moon"] == 0 and minus.score_sheet[0]["moon_choice"] == "minus"
    assert minus.score_sheet[0]["points"] == [26, 0, 0, 0]
    play(plus, "0:moon plus")
    assert plus.scores == (0, 26, 26, 26)


def test_moon_value_52_and_automatic_variants() -> None:
    state = moon_deal("hearts(decks=1,players=4,passing=none,moon_value=52)")
    run_hand(state)
    play(state, "0:moon minus")
    assert state.scores == (-52, 0, 0, 0)
    auto = moon_deal("hearts(decks=1,players=4,passing=none,moon=plus)")
    run_hand(auto)
    assert auto.scores == (0, 26, 26, 26) and auto.phase == "play"
    auto = moon_deal("hearts(decks=1,players=4,passing=none,moon=minus)")
    run_hand(auto)
    assert auto.scores == (-26, 0, 0, 0)
    none = moon_deal("hearts(decks=1,players=4,passing=none,moon=none)")
    run_hand(none)
    assert none.scores == (26, 0, 0, 0)


def test_match_ends_at_target_lowest_wins_and_ties_share() -> None:
    state = moon_deal("hearts(decks=1,players=4,passing=none,moon=plus,target=26)")
    run_hand(state)
    assert state.is_over and state.winners == (0,) and state.to_act == ()
    tie = moon_deal("hearts(decks=1,players=4,passing=none,moon=none,target=26)")
    run_hand(tie)
    assert tie.is_over and tie.winners == (1, 2, 3)
    assert tie.observation(None)["winners"] == [1, 2, 3]
    on = moon_deal("hearts(decks=1,players=4,passing=none,moon=none,target=27)")
    run_hand(on)
    assert not on.is_over


def test_max_hands_ends_the_match() -> None:
    state = cardhall.load_game("hearts(max_hands=3)").new_game(seed=2)
    assert isinstance(state, HeartsState)
    rng = random.Random(2)
    for _ in playing(state):
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert len(state.score_sheet) <= 3
    if max(state.scores) < 150:
        assert len(state.score_sheet) == 3


# --- invariants over many random hands -----------------------------------------------------------------


def test_points_collected_plus_uncollected_is_52_over_many_random_hands() -> None:
    dead = hands = 0
    for players in range(6, 12):
        for seed in range(6):
            state = cardhall.load_game(f"hearts(players={players},max_hands=4)").new_game(seed=seed)
            assert isinstance(state, HeartsState)
            rng = random.Random(seed)
            for _ in playing(state):
                seat = rng.choice(state.to_act)
                before = len(state.tricks)
                state.apply(seat, rng.choice(state.legal_actions(seat)))
                if len(state.tricks) == before + 1 and state.tricks[-1][2] < 0:
                    dead += 1
            for row in state.score_sheet:
                hands += 1
                if row["moon"] is None:
                    assert sum(row["points"]) + row["uncollected"] == 52
                    assert row["deltas"] == row["points"]
    assert hands == 6 * 6 * 4
    assert dead > 0  # random two-deck play does produce dead tricks (rarely)


def test_resample_keeps_passed_cards_with_the_receiver_and_known_voids() -> None:
    state = twins("hearts(players=6)")  # passing left this hand
    play(state, "0:pass AD", "0:pass KD", "0:pass QD")
    for seat in range(1, 6):
        for _ in range(3):
            state.apply(seat, state.legal_actions(seat)[-1])
    assert state.phase == "play"
    rng = random.Random(0)
    passed = {c % 52 for c in state.passed[0]}
    for _ in range(30):
        other = state.resample(0, rng)
        held = {c % 52 for c in range(104) if other.hands[1] >> c & 1}
        assert passed <= held
        assert other.observation(0) == state.observation(0)
    # A seat that failed to follow is never dealt that suit again.
    leader = state.to_act[0]
    state.apply(leader, state.legal_actions(leader)[0])
    led = state.trick[0][1] // 13
    for _ in bounded(lambda: state.trick):
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[-1])
    voids = [s for _, cards, _ in state.tricks for s, f in cards if f // 13 != led]
    for _ in range(20):
        other = state.resample(leader, rng)
        for s in voids:
            if s != leader:
                assert not other.hands[s] & ((0x1FFF << 13 * led) | (0x1FFF << (13 * led + 52)))


def test_two_deck_moon_takes_all_52_points_and_the_widow() -> None:
    # Seat 0 holds 17 clubs (all the high ones) and leads every trick; seat 1 holds the other 9 clubs
    # and plays them high first, so no club of seat 0 is ever cancelled; the widow holds two hearts.
    for value, minus in ((26, -26), (52, -52)):
        state = deal(
            f"hearts(passing=none,moon_value={value})",
            {
                0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC AC KC QC JC",
                1: "2C 3C 4C 5C 6C 7C 8C 9C 10C",
            },
            widow="2H 2H",
            voids={s: "C" for s in range(6)},
        )
        run_hand(state)
        assert state.phase == "moon" and state.to_act == (0,)
        assert all(w == 0 for _, _, w in state.tricks) and state.widow_taker == 0
        plus = state.clone()
        play(state, "0:moon minus")
        assert state.scores == (minus, 0, 0, 0, 0, 0)
        assert state.score_sheet[0]["points"] == [52, 0, 0, 0, 0, 0]
        play(plus, "0:moon plus")
        assert plus.scores == (0,) + (value,) * 5


# --- the engine's speed work must not change a single match ----------------------------------------

FINGERPRINT_GAMES = (
    ("hearts(decks=1,players=4,max_hands=1)", 200),
    ("hearts(decks=1,players=4)", 20),
    ("hearts(decks=1,players=5,first_lead=two_clubs,passing=cycle,max_hands=3)", 40),
    ("hearts(decks=1,players=3,points_on_first_trick=false,moon=minus,max_hands=3)", 40),
    ("hearts(players=6,max_hands=2)", 40),
    ("hearts(players=7,dead_trick_lead=left,widow=last_trick,queen_breaks_hearts=false,max_hands=2)", 30),
)
# The digest the engine gave before its hot paths were optimised (deals, histories, scores, voids,
# observations, resample and sample_state of 370 seeded random matches).
FINGERPRINT = "b2c6d368fb96caab0f0df27811c1b37867f99b5261159070e0a43f5c00be374a"


def test_seeded_random_matches_are_unchanged() -> None:
    h = hashlib.sha256()
    for game_string, count in FINGERPRINT_GAMES:
        game = cardhall.load_game(game_string)
        for seed in range(count):
            rng = random.Random(seed)
            state = game.new_game(seed=seed)
            assert isinstance(state, HeartsState)
            for step in playing(state):
                seat = rng.choice(state.to_act)
                legal = state.legal_actions(seat)
                if seed % 2:
                    state.apply(seat, rng.choice(legal))
                else:
                    state.apply_unchecked(seat, rng.choice(legal))
                steps = step + 1
                if steps % 17 == 0:
                    h.update(repr((state.to_act, state.excluded)).encode())
                    if seed % 5 == 0 and not state.is_over:
                        other = state.resample(seat, random.Random(steps))
                        h.update(repr((other.hands, other.pass_sel, other.widow, other.seed)).encode())
                if steps % 23 == 0 and seed % 3 == 0 and not state.is_over:
                    sampled = game.sample_state(state.observation(seat, ints=True), random.Random(steps))
                    assert isinstance(sampled, HeartsState)
                    h.update(
                        repr((sampled.hands, sampled.pass_sel, sampled.widow, sampled.excluded)).encode()
                    )
                if steps % 29 == 0:
                    h.update(json.dumps(state.observation(steps % game.num_players), sort_keys=True).encode())
            h.update(repr((game_string, seed, state.history, state.scores, state.winners)).encode())
            h.update(json.dumps(state.observation(None), sort_keys=True).encode())
    assert h.hexdigest() == FINGERPRINT


@pytest.mark.parametrize("cards,players", [(52, n) for n in range(3, 8)] + [(104, n) for n in range(6, 12)])
def test_shuffle_and_deal_matches_shuffling_then_dealing(cards: int, players: int) -> None:
    steps = deal_steps(cards, players)
    dealt = cards // players * players
    for seed in range(200):
        deck = list(range(cards))
        shuffle_deck(deck, random.Random(seed))
        piles = [sum(1 << c for c in deck[k:dealt:players]) for k in range(players)]
        piles.append(sum(1 << c for c in deck[dealt:]))
        assert shuffle_and_deal(steps, players, random.Random(seed)) == piles
