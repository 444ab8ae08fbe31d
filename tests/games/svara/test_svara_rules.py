"""Scenario tests for every rule of Svara (``src/cardhall/rulebook/svara.en.md``) and every option of the
Svara module.

Helpers stack the first deal with the dealer on the last seat, so seat 0 acts first. Later deals (svaras,
the next deal) come from the seed; where a test needs a particular later deal it searches the seeds for
one and then asserts concrete chip counts.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from itertools import count

import pytest

import cardhall
from cardhall import IllegalActionError, InvalidActionError, InvalidOptionError
from cardhall.cards import parse_cards
from cardhall.core import derived_rng
from cardhall.games.svara.hands import DECK
from cardhall.games.svara.rules import ALL_IN, CALL, CHECK, FOLD, JOIN, PASS, SvaraState
from cardhall.rl.encoders import make_encoder
from tests.helpers import playing, steps

N_SEEDS = 3000


def seeds_with_last_dealer(players: int) -> list[int]:
    return [s for s in range(N_SEEDS) if derived_rng(s, "first dealer").randrange(players) == players - 1]


def table(game_string: str, *hands: str, seed: int | None = None) -> SvaraState:
    """A match whose first deal gives ``hands[i]`` to seat ``i``; the dealer is the last seat."""
    game = cardhall.load_game(game_string)
    n = game.num_players
    assert len(hands) == n
    if seed is None:
        seed = seeds_with_last_dealer(n)[0]
    given = [parse_cards(h) for h in hands]
    used = {c for h in given for c in h}
    deck = [given[i][r] for r in range(3) for i in range(n)] + [c for c in DECK if c not in used]
    state = game.new_game(seed=seed, deck=deck)
    assert isinstance(state, SvaraState) and state.dealer == n - 1
    return state


def act(state: SvaraState, *moves: str) -> None:
    """Moves like ``"0 blind 10"``: the seat that must be to act, then the action text."""
    for move in moves:
        seat, text = move.split(" ", 1)
        assert state.to_act == (int(seat),), f"{move}: to act is {state.to_act}"
        state.apply(int(seat), state.game.parse_action(text))


def labels(state: SvaraState, seat: int) -> list[str]:
    return [state.game.action_label(a) for a in state.legal_actions(seat)]


def value(state: SvaraState, seat: int) -> int:
    return state.game.values[state.hands[seat]]


def find(game_string: str, hands: tuple[str, ...], moves: tuple[str, ...], ok: Callable[[SvaraState], bool]):
    """The first stacked table (over the seeds) that, after ``moves``, satisfies ``ok``."""
    game = cardhall.load_game(game_string)
    for seed in seeds_with_last_dealer(game.num_players):
        state = table(game_string, *hands, seed=seed)
        act(state, *moves)
        if ok(state):
            return state
    raise AssertionError("no seed gives the wanted deal")


BEST, WORST, MID = "AH KH QH", "7D 8H 8S", "9C 9D 10S"  # 31, 8, 10


# --- options, labels -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad",
    [
        "svara(players=1)",
        "svara(players=9)",
        "svara(ante=0)",
        "svara(stack=5)",
        "svara(stack=5001)",
        "svara(min_blind=0)",
        "svara(max_deals=-1)",
        "svara(svara_join=maybe)",
        "svara(svara_fee=third)",
        "svara(joker=wild)",
        "svara(blind_option=maybe)",
    ],
)
def test_bad_options_are_refused(bad: str) -> None:
    with pytest.raises(InvalidOptionError, match="svara"):
        cardhall.load_game(bad)


def test_game_string_and_shape() -> None:
    game = cardhall.load_game("svara(players=3,ante=5,stack=100)")
    assert str(game) == "svara(players=3,ante=5,stack=100)"
    assert game.num_players == 3
    # blind/bet/raise for 1..60 antes (3 players x 100 chips / 5), after the seven simple actions
    assert game.num_distinct_actions == 7 + 3 * 60
    assert cardhall.load_game("svara").num_players == 4


def test_action_labels_and_parsing() -> None:
    game = cardhall.load_game("svara(players=2)")
    for text in ("fold", "check", "call", "all in", "look", "join svara", "pass svara"):
        assert game.action_label(game.parse_action(text)) == text
    assert game.action_label(game.parse_action("blind 20")) == "blind 20"
    assert game.action_label(game.parse_action("Raise 40")) == "raise 40"
    assert game.action_label(game.parse_action("bet 2000")) == "bet 2000"
    assert game.parse_action("all-in") == ALL_IN
    assert game.parse_action("join") == JOIN
    for bad in ("blind 15", "blind 0", "raise 2010", "bet x", "double", "raise"):
        with pytest.raises(InvalidActionError, match="svara"):
            game.parse_action(bad)


# --- ante, deal, blind round ------------------------------------------------------------------------


def test_antes_and_the_deal() -> None:
    state = table("svara(players=3)", BEST, WORST, MID)
    assert state.scores == (990, 990, 990)
    assert state.pot_total == 30
    assert state.hands[0] == sum(1 << c for c in parse_cards(BEST))
    assert state.stock.bit_count() == 32 - 9
    assert state.to_act == (0,) and state.phase == "blind"


def test_blind_round_amounts_and_doubling() -> None:
    state = table("svara(players=3,min_blind=2)", BEST, WORST, MID)
    first = labels(state, 0)
    assert first[:2] == ["all in", "look"]
    assert first[2] == "blind 20" and first[-1] == "blind 980"  # at least 2 antes, chips left behind
    act(state, "0 blind 20")
    assert labels(state, 1)[2] == "blind 40"  # double the previous blind
    with pytest.raises(IllegalActionError, match=r"svara.*blind 30.*at least 40"):
        state.apply(1, state.game.parse_action("blind 30"))
    act(state, "1 blind 50")
    assert labels(state, 2)[2] == "blind 100"
    act(state, "2 look")
    assert state.phase == "open"
    assert state.scores == (970, 940, 990)


def test_nobody_looks_during_the_blind_round() -> None:
    state = table("svara(players=3)", BEST, WORST, MID)
    act(state, "0 blind 10")
    obs = state.observation(0)
    assert obs["hand"] == [] and obs["looked"] is False and obs["hand_value"] is None
    assert set(parse_cards(BEST)) <= state.hidden_cards(0)
    act(state, "1 look")
    obs = state.observation(0)
    assert obs["looked"] is True and sorted(obs["hand"]) == sorted(BEST.split())
    assert obs["hand_value"] == 31
    assert not set(parse_cards(BEST)) & state.hidden_cards(0)
    assert set(parse_cards(BEST)) <= state.hidden_cards(1)


def test_after_blinds_the_next_player_must_double_or_fold() -> None:
    state = table("svara(players=3)", BEST, WORST, MID)
    act(state, "0 blind 10", "1 blind 20", "2 look")
    legal = state.legal_actions(2)
    assert CALL not in legal and CHECK not in legal and FOLD in legal and ALL_IN in legal
    assert labels(state, 2)[2] == "raise 20"  # to 40, double the last blind
    with pytest.raises(IllegalActionError, match=r"svara.*'call'.*raise by at least 20"):
        state.apply(2, CALL)
    act(state, "2 raise 20")
    assert state.current == 40


def test_each_player_bets_blind_once_then_the_blind_bettor_pays_up() -> None:
    state = table("svara(players=2)", BEST, WORST)
    act(state, "0 blind 10", "1 blind 20")
    assert state.phase == "open" and state.to_act == (0,)
    assert CALL in state.legal_actions(0)  # a blind bettor may pay up to the current bet
    act(state, "0 call")  # 20 against 20: the round ends, the last blind bettor has no other turn
    last = state.log[-1]
    assert last["ended"] == "showdown" and last["pot"] == 60
    assert last["shown"] == [
        {"seat": 0, "value": 31, "cards": parse_cards("AH KH QH")},
        {"seat": 1, "value": 8, "cards": parse_cards("7D 8H 8S")},
    ]
    # The showdown stays readable in every seat's deal log after the next deal is dealt.
    assert state.observation(1)["deal_log"][-1]["shown"] == [
        {"seat": 0, "value": 31, "cards": ["AH", "KH", "QH"]},
        {"seat": 1, "value": 8, "cards": ["7D", "8H", "8S"]},
    ]
    assert state.observation(1, ints=True)["deal_log"][-1] == last
    assert last["won"] == [{"seat": 0, "amount": 60}]
    # next deal: the deal passes to the left, antes paid again
    assert state.dealer == 0 and state.scores == (1030 - 10, 970 - 10)


@pytest.mark.parametrize(
    ("players", "moves"),
    [
        (3, ("0 blind 10", "1 blind 20", "2 look", "2 fold", "0 call")),
        (3, ("0 blind 10", "1 blind 20", "2 blind 40", "0 call", "1 call")),
        (4, ("0 blind 10", "1 blind 20", "2 look", "2 fold", "3 fold", "0 call")),
        (4, ("0 blind 10", "1 blind 20", "2 blind 40", "3 look", "3 fold", "0 call", "1 call")),
    ],
)
def test_a_met_blind_ends_the_round_in_a_showdown(players: int, moves: tuple[str, ...]) -> None:
    hands = (BEST, WORST, MID, "8C 9H JD")[:players]
    state = table(f"svara(players={players})", *hands)
    act(state, *moves)
    # Everybody still in has put in the same amount: a showdown, no turn (check or raise) for the
    # last blind bettor.
    last = state.log[-1]
    assert last["ended"] == "showdown" and state.deals_done == 1
    blinds = [int(m.split()[2]) for m in moves if " blind " in m]
    assert last["pot"] == 10 * players + blinds[-1] * len(blinds)
    assert [row["seat"] for row in last["shown"]] == list(range(len(blinds)))
    assert last["won"] == [{"seat": 0, "amount": last["pot"]}]


def test_a_raise_over_the_blinds_gives_the_last_blind_bettor_a_turn() -> None:
    state = table("svara(players=3)", BEST, WORST, MID)
    act(state, "0 blind 10", "1 blind 20", "2 look", "2 raise 20", "0 call")
    assert state.to_act == (1,) and labels(state, 1)[:3] == ["fold", "call", "all in"]
    act(state, "1 call")
    assert state.log[-1]["ended"] == "showdown" and state.log[-1]["pot"] == 30 + 3 * 40


def test_blind_option_gives_the_last_blind_bettor_his_turn() -> None:
    state = table("svara(players=2,blind_option=true)", BEST, WORST)
    act(state, "0 blind 10", "1 blind 20", "0 call")
    assert state.to_act == (1,) and labels(state, 1)[:3] == ["check", "all in", "raise 20"]
    act(state, "1 raise 100")
    assert state.current == 120 and state.to_act == (0,)
    act(state, "0 call")
    assert state.log[-1]["ended"] == "showdown" and state.log[-1]["pot"] == 20 + 2 * 120


def test_an_uncalled_blind_wins_without_showing() -> None:
    state = table("svara(players=3)", BEST, WORST, MID)
    act(state, "0 blind 10", "1 blind 20", "2 look", "2 fold", "0 fold")
    last = state.log[-1]
    assert last["ended"] == "uncontested" and last["shown"] == []
    assert last["won"] == [{"seat": 1, "amount": 60}]
    assert [s - 10 for s in (980, 1030, 990)] == list(state.scores)


def test_the_blind_bettor_must_pay_up_or_fold() -> None:
    state = table("svara(players=3)", WORST, MID, BEST)
    act(state, "0 blind 10", "1 look", "1 raise 10", "2 call")
    assert state.to_act == (0,) and labels(state, 0)[:2] == ["fold", "call"]
    act(state, "0 fold")
    last = state.log[-1]
    assert last["won"] == [{"seat": 2, "amount": 30 + 10 + 20 + 20}]
    assert [s + 10 for s in state.scores] == [990 - 10, 970, 1050]


# --- open round -------------------------------------------------------------------------------------


def test_open_round_bets_raises_and_minimum_raise() -> None:
    state = table("svara(players=3)", WORST, MID, BEST)
    act(state, "0 look")
    assert labels(state, 0)[:3] == ["check", "all in", "bet 10"]
    act(state, "0 bet 30")
    with pytest.raises(IllegalActionError, match="raise 20"):
        state.apply(1, state.game.parse_action("raise 20"))  # below the previous raise of 30
    act(state, "1 raise 30", "2 raise 50")
    assert state.current == 110 and state.min_raise == 50
    with pytest.raises(IllegalActionError):
        state.apply(0, state.game.parse_action("raise 40"))
    act(state, "0 call", "1 call")  # the raisers get another turn; then all have put in the same
    last = state.log[-1]
    assert last["pot"] == 30 + 3 * 110 and last["won"] == [{"seat": 2, "amount": 360}]


def test_folded_cards_are_never_shown_but_contenders_are() -> None:
    state = table("svara(players=3)", BEST, WORST, MID)
    act(state, "0 look", "0 bet 10", "1 fold", "2 call")
    last = state.log[-1]
    assert last["ended"] == "showdown"
    assert [row["seat"] for row in last["shown"]] == [0, 2]
    text = json.dumps(state.observation(None)["deal_log"])
    assert "9C" in text and "AH" in text
    assert "7D" not in text and "8S" not in text  # seat 1 folded: his cards never appear


def test_fold_until_one_is_left_takes_the_pot_unseen() -> None:
    state = table("svara(players=3)", WORST, MID, BEST)
    act(state, "0 look", "0 bet 10", "1 fold", "2 fold")
    assert state.log[-1]["ended"] == "uncontested" and state.log[-1]["won"] == [{"seat": 0, "amount": 40}]


def test_nobody_bets_the_dealer_takes_the_pot() -> None:
    state = table("svara(players=3)", BEST, MID, WORST)
    act(state, "0 look", "0 check", "1 check", "2 check")
    last = state.log[-1]
    assert last["ended"] == "dealer" and last["won"] == [{"seat": 2, "amount": 30}] and last["shown"] == []


# --- all in and side pots ---------------------------------------------------------------------------


def test_side_pots_with_three_all_in_players() -> None:
    hands = (WORST, MID, BEST, "8C 9H JD")
    first = ("0 blind 10", "1 blind 20", "2 look", "2 raise 20", "3 fold", "0 fold", "1 call")

    def ranked(state: SvaraState) -> bool:
        # second deal: the short stack best, then the middle stacks, the deep stack worst
        return value(state, 1) > value(state, 0) > value(state, 3) > value(state, 2)

    state = find("svara(players=4,stack=100)", hands, first, ranked)
    assert state.log[0]["won"] == [{"seat": 2, "amount": 130}]
    assert state.dealer == 0 and state.scores == (70, 40, 170, 80)  # antes of deal 2 paid
    act(state, "1 all in")  # a blind of 40
    act(state, "2 look", "2 raise 40")  # to 80, double the blind
    act(state, "3 all in", "0 all in")  # 80 (a call), 70 (short)
    last = state.log[-1]
    assert last["ended"] == "showdown"
    # contributions with antes: seat 1 50, seat 0 80, seat 3 90, seat 2 90
    # main pot 4 x 50 = 200 (all), side pot 3 x 30 = 90 (0, 2, 3), side pot 2 x 10 = 20 (2, 3)
    assert last["won"] == [{"seat": 0, "amount": 90}, {"seat": 1, "amount": 200}, {"seat": 3, "amount": 20}]
    assert last["stacks"] == [90, 200, 90, 20]


def test_an_all_in_short_call_and_the_excess_returned() -> None:
    def deep_wins(state: SvaraState) -> bool:
        return value(state, 0) > value(state, 1)

    # deal 1: seat 1 loses 10 + 40 chips; deal 2 then seat 1 (40 left) is all in against seat 0
    first = ("0 look", "0 bet 40", "1 call")
    state = find("svara(players=2,stack=100)", (BEST, WORST), first, deep_wins)
    assert state.dealer == 0 and state.scores == (140, 40)
    act(state, "1 look", "1 bet 10", "0 raise 80")  # seat 0 bets 90 in all
    assert labels(state, 1) == ["fold", "all in"]  # cannot call 80 with 30 left
    act(state, "1 all in")
    # seat 1 put in 50 with the ante; seat 0's 50 more than that came back to him
    assert state.log[-1]["won"] == [{"seat": 0, "amount": 100 + 50}] or state.is_over
    assert state.is_over and state.scores == (200, 0) and state.winners == (0,)


def test_a_short_all_in_does_not_lower_the_minimum_raise() -> None:
    # svara.md: "raises (minimum raise = the previous raise, at least one ante)". An all-in that raises
    # by less than that is no raise to measure by: the minimum stays the last full raise.
    state = table("svara(players=3,stack=200)", WORST, BEST, MID)
    act(state, "0 look", "0 bet 130", "1 call", "2 fold")  # seat 1 wins 290
    assert state.scores == (50, 340, 180) and state.dealer == 0  # deal 2, antes paid
    act(state, "1 look", "1 bet 30", "2 call")
    act(state, "0 all in")  # 50: 20 over the bet of 30, short of a full raise
    assert state.to_act == (1,)
    raises = [x for x in labels(state, 1) if x.startswith("raise")]
    assert raises[0] == "raise 30" and "call" in labels(state, 1)
    with pytest.raises(IllegalActionError, match="raise 20"):
        act(state, "1 raise 20")
    act(state, "1 raise 30")  # to 80: a full raise sets the minimum again
    assert next(x for x in labels(state, 2) if x.startswith("raise")) == "raise 30"
    with pytest.raises(IllegalActionError, match="raise 20"):
        act(state, "2 raise 20")


def test_the_carried_svara_pot_goes_to_the_main_pot_a_short_joiner_is_in() -> None:
    # svara.md: the svara is "played for the whole pot" by the tied players; a joiner pays his way in;
    # all-ins make side pots "as in poker". So the carried pot and the fees are in the main pot, which a
    # joiner who is later all in for less still plays for; only the chips over his all-in are a side pot.
    moves = ("0 look", "0 bet 10", "1 call", "2 call", "3 fold", "3 join svara")

    def joiner_best(state: SvaraState) -> bool:
        others = sorted(value(state, s) for s in range(3))
        return value(state, 3) > others[-1] > others[-2]

    state = find("svara(stack=40)", TIE3, moves, joiner_best)
    # 70 tied by seats 0, 1, 2 (20 chips left each); seat 3 paid the fee of 24 and keeps 6.
    assert state.scores == (20, 20, 20, 6) and state.pot_total == 94 and state.svara_round == 1
    act(state, "0 look", "0 bet 10", "1 call", "2 call")
    assert labels(state, 3) == ["fold", "all in"]
    act(state, "3 all in")  # 6 of the 10
    last = state.log[-1]
    assert last["svara"] == 1 and last["ended"] == "showdown" and last["joined"] == [3]
    best = max(range(3), key=lambda s: value(state, s))
    # Main pot: 94 carried + 4 x 6 = 118, seat 3's; side pot 3 x 4 = 12, the best of seats 0-2.
    assert last["won"] == sorted(
        [{"seat": 3, "amount": 118}, {"seat": best, "amount": 12}], key=lambda w: w["seat"]
    )
    stacks = [10, 10, 10, 118]
    stacks[best] += 12
    assert last["stacks"] == stacks and sum(stacks) == 4 * 40


# --- svara ------------------------------------------------------------------------------------------

TIE3 = ("AH KH 8C", "AS KS 9D", "AD KD 8S", "7D 8H 9S")  # 21, 21, 21, 9


@pytest.mark.parametrize(("fee_option", "fee"), [("share", 24), ("half_pot", 35)])
def test_a_svara_with_a_joiner(fee_option: str, fee: int) -> None:
    state = table(f"svara(svara_fee={fee_option})", *TIE3)
    act(state, "0 look", "0 bet 10", "1 call", "2 call", "3 fold")
    assert state.log[-1]["svaras"] == [{"pot": 70, "players": [0, 1, 2]}]
    assert state.phase == "svara join" and state.to_act == (3,)
    assert state.legal_actions(3) == [JOIN, PASS]
    obs = state.observation(3)
    assert obs["svara_fee"] == fee and obs["pot"] == 70 and obs["svara_players"] == [0, 1, 2]
    # the tied hands are shown; the folded hand is not
    assert [row["value"] for row in obs["showdown"]] == [21, 21, 21]
    assert sorted(obs["showdown"][0]["cards"]) == sorted(TIE3[0].split())
    folded = set(parse_cards(TIE3[3]))
    assert folded <= state.hidden_cards(0)
    assert not {"7D", "9S"} & set(json.dumps(state.observation(0)).replace('"', " ").split())
    act(state, "3 join svara")
    assert state.scores == (980, 980, 980, 990 - fee)
    assert state.pot_total == 70 + fee and state.phase == "blind"
    assert state.in_deal == [True] * 4 and state.dealer == 3 and state.svara_round == 1
    assert state.observation(0)["showdown"] == []  # new cards dealt, nothing shown


def test_svara_join_none_and_nobody_pays_again() -> None:
    state = table("svara(svara_join=none)", *TIE3)
    act(state, "0 look", "0 bet 10", "1 call", "2 call", "3 fold")
    assert state.phase == "blind" and state.to_act == (0,)
    assert state.in_deal == [True, True, True, False] and state.hands[3] == 0
    assert state.scores == (980, 980, 980, 990) and state.pot_total == 70


def test_a_svara_is_played_like_a_deal_but_checks_go_to_a_showdown() -> None:
    moves = ("0 look", "0 bet 10", "1 call", "2 call", "3 fold", "3 join svara")

    def clear_winner(state: SvaraState) -> bool:
        values = sorted(value(state, s) for s in range(4))
        return values[-1] > values[-2]

    state = find("svara", TIE3, moves, clear_winner)
    best = max(range(4), key=lambda s: value(state, s))
    act(state, "0 look", "0 check", "1 check", "2 check", "3 check")
    last = state.log[-1]
    assert last["svara"] == 1 and last["ended"] == "showdown"
    assert last["won"] == [{"seat": best, "amount": 94}] and last["joined"] == [3]


def test_a_svara_that_ties_again() -> None:
    game = "svara(players=2,svara_join=none)"
    hands = ("AH KH 8C", "AS KS 9D")
    moves = ("0 look", "0 bet 10", "1 call")

    def ties_then_not(state: SvaraState) -> bool:
        if value(state, 0) != value(state, 1):
            return False
        probe = state.clone()
        act(probe, "0 look", "0 check", "1 check")
        return value(probe, 0) != value(probe, 1)

    state = find(game, hands, moves, ties_then_not)
    assert state.svara_round == 1 and state.pot_total == 40
    act(state, "0 look", "0 check", "1 check")
    assert state.log[-1]["svaras"] == [{"pot": 40, "players": [0, 1]}]
    assert state.svara_round == 2 and state.pot_total == 40 and state.scores == (980, 980)
    winner = 0 if value(state, 0) > value(state, 1) else 1
    act(state, "0 look", "0 check", "1 check")
    assert state.log[-1]["won"] == [{"seat": winner, "amount": 40}]
    assert state.log[-1]["svara"] == 2
    assert state.svara_round == 0 and state.scores == (1020 - 10, 980 - 10)[:: 1 if winner == 0 else -1]


def test_tied_players_without_chips_play_the_svara_all_in() -> None:
    state = table("svara(players=2,stack=100,svara_join=none)", "AH KH 8C", "AS KS 9D")
    act(state, "0 look", "0 all in", "1 all in")
    # a tie with both all in: the svaras have no betting at all and run until one hand is best
    assert state.is_over and sorted(state.scores) == [0, 200]
    winner = state.winners[0]
    assert value(state, winner) > value(state, 1 - winner)
    assert [row["svara"] for row in state.log] == list(range(len(state.log)))
    assert all(row["ended"] == "showdown" for row in state.log) and len(state.log) >= 2
    shown = state.observation(None)["showdown"]
    assert len(shown) == 2 and all(len(row["cards"]) == 3 for row in shown)  # the last showdown stays


def test_joker_substitute_changes_the_showdown() -> None:
    hands = ("7C KH KD", "KS QS JS")  # 31 against 30; in the substitute game 30 against 30
    standard = table("svara(players=2)", *hands)
    act(standard, "0 look", "0 bet 10", "1 call")
    assert standard.log[-1]["won"] == [{"seat": 0, "amount": 40}]
    substitute = table("svara(players=2,joker=substitute)", *hands)
    act(substitute, "0 look", "0 bet 10", "1 call")
    assert substitute.log[-1]["svaras"] == [{"pot": 40, "players": [0, 1]}]


# --- match end ------------------------------------------------------------------------------------


def test_a_player_short_of_the_ante_sits_out_and_the_deal_skips_him() -> None:
    state = table("svara(players=3,stack=25)", BEST, MID, WORST)
    act(state, "0 look", "0 check", "1 check", "2 check")  # dealer 2 takes 30
    assert state.dealer == 0 and state.scores == (5, 5, 35)
    act(state, "1 look", "1 check", "2 check", "0 check")  # dealer 0 takes 30
    assert state.dealer == 2  # seat 1 (5 chips) is skipped
    assert state.in_deal == [True, False, True] and state.hands[1] == 0
    assert state.scores == (25, 5, 25) and state.pot_total == 20
    assert state.to_act == (0,)


def test_the_match_ends_when_one_player_is_left_who_can_pay() -> None:
    state = table("svara(players=3,stack=15)", BEST, MID, WORST)
    act(state, "0 look", "0 check", "1 check", "2 check")
    assert state.is_over and state.scores == (5, 5, 35) and state.winners == (2,)
    assert state.to_act == () and state.legal_actions(2) == []
    with pytest.raises(IllegalActionError, match="over"):
        state.apply(2, CHECK)


def test_max_deals_ends_the_match_ranked_by_stack() -> None:
    state = table("svara(players=3,max_deals=1)", BEST, MID, WORST)
    act(state, "0 look", "0 bet 20", "1 fold", "2 call")
    assert state.is_over and state.winners == (0,) and state.scores == (1040, 990, 970)
    tie = table("svara(players=3,max_deals=1)", BEST, MID, WORST)
    act(tie, "0 look", "0 check", "1 check", "2 check")
    assert tie.is_over and tie.winners == (2,)


def test_max_deals_waits_for_the_svaras() -> None:
    state = table("svara(players=2,max_deals=1,svara_join=none)", "AH KH 8C", "AS KS 9D")
    act(state, "0 look", "0 bet 10", "1 call")
    assert not state.is_over and state.svara_round == 1
    for _ in playing(state):
        act(state, "0 look", "0 check", "1 check")
    assert state.deals_done == 1 and sorted(state.scores) == [980, 1020]


# --- chips --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game_string",
    [
        "svara(players=2,stack=100)",
        "svara(players=5,stack=150,svara_fee=half_pot)",
        "svara(players=8,stack=60)",
    ],
)
def test_chips_are_conserved_in_many_random_games(game_string: str) -> None:
    game = cardhall.load_game(game_string)
    total = game.num_players * int(game.option("stack"))
    svaras = 0
    for seed in range(60):
        state = game.new_game(seed=seed)
        assert isinstance(state, SvaraState)
        rng = random.Random(seed)
        for step in count():
            assert sum(state.scores) + state.pot_total == total, (seed, step)
            assert min(state.scores) >= 0
            if state.is_over:
                break
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        svaras += sum(1 for row in state.log if row["svara"])
    assert svaras > 0


def test_render_lines_for_every_phase() -> None:
    # The RL environments' render (the encoder's describe) tells every phase, to a seat and a spectator.
    game = cardhall.load_game("svara(players=5,stack=100)")
    encoder = make_encoder(game)
    phases = set()
    for seed in range(15):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in steps(f"svara(players=5,stack=100) seed {seed}"):
            for seat in [*range(5), None]:
                lines = encoder.describe(state.observation(seat))
                assert lines and all(isinstance(line, str) for line in lines)
            phases.add(state.observation(0)["phase"])
            if state.is_over:
                break
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert phases == {"blind", "open", "svara join", "over"}


def test_deals_finished_counts_deals_with_their_svaras_once() -> None:
    game = cardhall.load_game("svara(players=3,max_deals=3,stack=100)")
    state = game.new_game(seed=5)
    rng = random.Random(5)
    seen = [state.deals_finished]
    for _ in playing(state):
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        if state.deals_finished != seen[-1]:
            seen.append(state.deals_finished)
            assert state.svara_round == 0  # type: ignore[attr-defined]
    assert seen == [0, 1, 2, 3]
