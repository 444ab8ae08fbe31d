"""The gin knocker arranges his melds (issue 17; any arrangement within the knock limit, a card kept out
of a meld included, issue 29): the ``arrange`` phase, its layouts and labels, the ``auto_arrange`` option,
the bots' choice, search's sampling in that phase, and the layouts checked against a brute force."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

import cardhall
from cardhall.bots.rules_gin import GinRulesBot, arrange_choice
from cardhall.cards import cards_of
from cardhall.games.gin.melds import (
    ARRANGE_CAP,
    RANK_MASKS,
    arrangements_mask,
    deadwood_mask,
    to_mask,
)
from cardhall.games.gin.rules import ARRANGE_BASE, NO_SUGGESTION, SUGGEST_BASE, Gin, GinState
from cardhall.table import Table
from tests.games.gin.test_gin_melds import points
from tests.games.gin.test_gin_rules import act, both_pass, labels, new, stack
from tests.helpers import playing

NINE = "3C 4C 5C 3D 4D 5D 3H 4H 5H"  # three runs or three sets
CAPTAIN = NINE + " KS"
# The box: 6C and 2D would extend the clubs and diamonds runs, 3S would complete the threes; the rest fits
# nothing of the captain's.
BOX = "6C 2D 3S 9H 8S 10C JD QC KH 7D"
RUNS = [["3C", "4C", "5C"], ["3D", "4D", "5D"], ["3H", "4H", "5H"]]
SETS = [["3C", "3D", "3H"], ["4C", "4D", "4H"], ["5C", "5D", "5H"]]


def knocked(players: int, options: str = "") -> GinState:
    """The issue's example: the captain (non-dealer) draws QH and knocks with it, keeping CAPTAIN."""
    s = new(f"gin(players={players}{options})", CAPTAIN, BOX, "QS", "QH")
    both_pass(s)
    if players == 3:
        act(s, s.advisor, "no suggestion")
    act(s, s.nondealer, "knock QH")
    return s


@pytest.mark.parametrize("players", [2, 3])
def test_the_knocker_is_offered_three_runs_and_three_sets(players: int) -> None:
    s = knocked(players)
    nd, dl = s.nondealer, s.dealer
    assert s.phase == "arrange" and s.current == nd
    assert labels(s, nd) == ["arrange 1", "arrange 2"]
    o = s.observation(nd)
    assert o["knock"] is None and o["spread_hands"] is None
    assert [a["melds"] for a in o["arrangements"]] == [RUNS, SETS]
    assert [(a["deadwood_cards"], a["deadwood"]) for a in o["arrangements"]] == [(["KS"], 10)] * 2
    # Private to the knocker (and his advisor): nothing is laid yet.
    assert s.observation(dl)["arrangements"] is None and s.observation(None)["arrangements"] is None
    assert s.observation(dl)["knock"] is None and labels(s, dl) == []
    if players == 3:
        assert s.to_act == (nd, s.advisor)
        assert s.observation(s.advisor)["arrangements"] == o["arrangements"]
        assert "suggest arrange 2" in labels(s, s.advisor)


@pytest.mark.parametrize("players", [2, 3])
def test_three_sets_leave_the_box_only_the_fourth_three(players: int) -> None:
    s = knocked(players)
    act(s, s.nondealer, "arrange 2")
    assert s.phase == "layoff" and s.current == s.dealer
    assert labels(s, s.dealer) == ["lay off 3S", "done"]
    knock = s.observation(s.dealer)["knock"]
    assert knock["melds"] == SETS and knock["deadwood"] == 10 and knock["seat"] == s.nondealer
    assert s.observation(s.dealer)["moves"][-1] == {"seat": s.nondealer, "action": "arrange 2", "card": None}


@pytest.mark.parametrize("players", [2, 3])
def test_three_runs_let_the_box_extend_them(players: int) -> None:
    s = knocked(players)
    act(s, s.nondealer, "arrange 1")
    assert labels(s, s.dealer) == ["lay off 6C", "lay off 2D", "done"]
    assert s.observation(None)["knock"]["melds"] == RUNS


def test_auto_arrange_keeps_the_engines_layout() -> None:
    s = knocked(2, ",auto_arrange=true")
    assert s.phase == "layoff" and s.observation(s.dealer)["knock"]["melds"] == RUNS
    assert labels(s, s.dealer) == ["lay off 6C", "lay off 2D", "done"]
    assert str(s.game) == "gin(players=2,auto_arrange=true)"


def test_a_card_that_fits_a_run_and_a_set() -> None:
    # 4H makes the set 4C 4D 4H (leaving 2H 3H AC = 6) or the run 2H 3H 4H (leaving 4C 4D AC = 9).
    knocker = "2H 3H 4H 4C 4D 9S 10S JS QS AC"
    box = "4S 5H 8S 2C 6D 7D 9C JH KC KD"  # 4S fits the set, 5H the run, 8S the spades either way
    s = new("gin(players=2)", knocker, box, "KH", "QH")
    both_pass(s)
    act(s, s.nondealer, "knock QH")
    arrangements = s.observation(s.nondealer)["arrangements"]
    assert [(a["melds"], a["deadwood"]) for a in arrangements] == [
        ([["4C", "4D", "4H"], ["9S", "10S", "JS", "QS"]], 6),
        ([["2H", "3H", "4H"], ["9S", "10S", "JS", "QS"]], 9),
    ]
    as_set = s.clone()
    act(as_set, s.nondealer, "arrange 1")
    assert labels(as_set, s.dealer) == ["lay off 4S", "lay off 8S", "done"]
    act(s, s.nondealer, "arrange 2")
    assert labels(s, s.dealer) == ["lay off 5H", "lay off 8S", "done"]


# gin.md: "He may choose any arrangement whose deadwood is <= 10, not only the smallest; his deadwood for
# scoring is the deadwood of the arrangement he spreads." The knocker keeps 2H-5H, 8C 8D 8S and AC AD 2C
# (deadwood 4). The box holds 6H 7H, which would go onto a run ending in 5H, and deadwood 25 otherwise.
SHORT_RUN_KNOCKER = "2H 3H 4H 5H 8C 8D 8S AC AD 2C"
SHORT_RUN_BOX = "6H 7H 9S 9D 9C QS QD QC KH 2S"


@pytest.mark.parametrize("players", [2, 3])
def test_the_knocker_may_leave_a_card_out_of_a_meld_to_stop_a_lay_off(players: int) -> None:
    s = new(f"gin(players={players})", SHORT_RUN_KNOCKER, SHORT_RUN_BOX, "JD", "QH")
    nd, dl = s.nondealer, s.dealer
    both_pass(s)
    if players == 3:
        act(s, s.advisor, "no suggestion")
    act(s, nd, "knock QH")
    layouts = s.observation(nd)["arrangements"]
    assert [(a["melds"], a["deadwood_cards"], a["deadwood"]) for a in layouts] == [
        ([["8C", "8D", "8S"], ["2H", "3H", "4H", "5H"]], ["AC", "2C", "AD"], 4),
        ([["8C", "8D", "8S"], ["3H", "4H", "5H"]], ["AC", "2C", "AD", "2H"], 6),
        ([["8C", "8D", "8S"], ["2H", "3H", "4H"]], ["AC", "2C", "AD", "5H"], 9),
    ]
    whole = s.clone()
    act(whole, nd, "arrange 1")  # the least deadwood: the box lays off 6H, then 7H
    assert labels(whole, dl) == ["lay off 6H", "done"]
    act(whole, dl, "lay off 6H")
    act(whole, dl, "lay off 7H")
    row = whole.score_sheet[-1]
    assert (row["result"], row["knocker_deadwood"], row["opponent_deadwood"]) == ("knock", 4, 12)
    assert row["points"][nd] == 12 - 4
    # 5H kept out: nothing can be laid off (the hand is scored at once), and his scored deadwood is the
    # 9 of the layout he spread.
    act(s, nd, "arrange 3")
    row = s.score_sheet[-1]
    assert (row["result"], row["knocker_deadwood"], row["opponent_deadwood"]) == ("knock", 9, 25)
    assert row["points"][nd] == 25 - 9 and s.hand_index == 1
    assert [m["action"] for m in s.observation(dl)["moves"]] == []  # the next hand has begun


def test_no_step_without_a_real_choice() -> None:
    knocker = "AS 2S 3S 4H 4D 4C KH KD KC 9D"
    s = new("gin(players=2)", knocker, "5C 6C 7C 8H 8S 9H 10S JS QD 2D", "6D", "QH")
    both_pass(s)
    act(s, s.nondealer, "knock 9D")  # one layout: QH alone (leaving A-2-3 of spades out too makes 16)
    assert s.score_sheet[-1]["result"] == "knock"
    assert not any(m["action"].startswith("arrange") for m in s.observation(s.nondealer)["moves"])
    # Gin laid out two ways (A-4 of spades with three fours, or A-3 with four): no lay-offs, no step.
    s = new("gin(players=2)", knocker, "5C 6C 7C 8H 8S 9H 10S JS QD 2D", "6D", "4S")
    both_pass(s)
    act(s, s.nondealer, "knock 9D")
    assert len(arrangements_mask(to_mask("AS 2S 3S 4S 4H 4D 4C KH KD KC"))) == 12  # gin among them
    assert s.score_sheet[-1]["result"] == "gin"


def test_an_illegal_arrangement_is_refused_and_changes_nothing() -> None:
    s = knocked(2)
    nd = s.nondealer
    before = (s.observation(nd), s.observation(s.dealer), s.record())
    with pytest.raises(cardhall.IllegalActionError, match=r"arrange 5.*laid out 2 ways"):
        act(s, nd, "arrange 5")
    with pytest.raises(cardhall.IllegalActionError, match=r"discard 3C.*arrange phase"):
        act(s, nd, "discard 3C")
    with pytest.raises(cardhall.IllegalActionError, match=r"seat \d may not act now"):
        act(s, s.dealer, "arrange 1")
    for text in ("arrange 0", f"arrange {ARRANGE_CAP + 1}", "arrange x"):
        with pytest.raises(cardhall.InvalidActionError, match="cannot read action"):
            s.game.parse_action(text)
    assert (s.observation(nd), s.observation(s.dealer), s.record()) == before


def test_labels_round_trip() -> None:
    for game in (Gin(players=2), Gin(players=3)):
        for a in range(game.num_distinct_actions):
            assert game.parse_action(game.action_label(a)) == a
    three = Gin(players=3)
    assert three.num_distinct_actions == NO_SUGGESTION + 1 == 2 * (ARRANGE_BASE + ARRANGE_CAP) + 1
    assert Gin(players=2).num_distinct_actions == SUGGEST_BASE == ARRANGE_BASE + ARRANGE_CAP
    assert three.action_label(ARRANGE_BASE + 2) == "arrange 3"
    assert three.parse_action("Arrangement 3") == ARRANGE_BASE + 2
    assert three.action_label(SUGGEST_BASE + ARRANGE_BASE) == "suggest arrange 1"


@pytest.mark.parametrize("players", [2, 3])
def test_rules_bot_lays_out_the_fewest_lay_offs(players: int) -> None:
    # Equal deadwood: three runs leave 2C 6C 2D 6D 2H 6H to lay off, three sets only 3S 4S 5S: the sets.
    s = knocked(players)
    nd = s.nondealer
    bot = GinRulesBot(s.game)
    legal = s.legal_actions(nd)
    assert bot.act(s.observation(nd, ints=True), legal, random.Random(0)) == ARRANGE_BASE + 1
    assert bot.act_state(s, nd, legal, random.Random(0)) == ARRANGE_BASE + 1
    if players == 3:
        advice = bot.act(s.observation(s.advisor, ints=True), s.legal_actions(s.advisor), random.Random(0))
        assert advice == SUGGEST_BASE + ARRANGE_BASE + 1


def test_rules_bot_weighs_deadwood_against_lay_offs() -> None:
    # 2H 3H 4H 4C 4D with AC: the run (deadwood 4C 4D AC = 9) leaves AH 5H to lay off (value 6), the
    # set (deadwood 2H 3H AC = 6) leaves 4S; the spade run 9-Q is in both. The set wins on deadwood.
    layouts = [
        ([to_mask("4C 4D 4H"), to_mask("9S 10S JS QS")], 6),
        ([to_mask("2H 3H 4H"), to_mask("9S 10S JS QS")], 9),
    ]
    hand = to_mask("2H 3H 4H 4C 4D 9S 10S JS QS AC")
    assert arrange_choice(layouts, hand, 0) == 0
    assert arrange_choice(layouts[::-1], hand, 0) == 1
    # Three points less deadwood are worth more than the chance of AD or 5D being laid off...
    run_a = [to_mask("2D 3D 4D")]  # lays off AD or 5D
    set_a = [to_mask("4C 4D 4H")]  # lays off 4S
    assert arrange_choice([(run_a, 5), (set_a, 8)], 0, 0) == 0
    # ...but not more than a likely lay-off of high cards: Q-K of a run against a set with nothing left.
    run_b = [to_mask("10S JS QS")]  # 9S or KS
    set_b = [to_mask("QC QD QH QS")]  # nothing
    assert arrange_choice([(run_b, 4), (set_b, 8)], 0, 0) == 1


@pytest.mark.parametrize("players", [2, 3])
def test_search_samples_and_resamples_the_arrange_phase(players: int) -> None:
    s = knocked(players)
    game = s.game
    rng = random.Random(3)
    for seat in range(players):
        o = s.observation(seat, ints=True)
        for _ in range(5):
            for other in (game.sample_state(o, rng), s.resample(seat, rng)):
                assert isinstance(other, GinState)
                assert other.observation(seat, ints=True) == o
                assert other.phase == "arrange" and other.knocker == s.nondealer
                layouts = other.arrangements
                assert len(layouts) >= 2 and all(0 < value <= 10 for _, _, value in layouts)
                other.apply(other.nondealer, ARRANGE_BASE + len(layouts) - 1)
                for _ in playing(other):
                    if other.hand_index:
                        break
                    who = other.to_act[0]
                    other.apply(who, other.legal_actions(who)[-1])
                assert other.hand_index == 1
    # The search bot plays the arrange decision (the rules bot's choice: nothing to search).
    bot = cardhall.make_bot("search(iterations=4)", game)
    nd = s.nondealer
    assert bot.act(s.observation(nd, ints=True), s.legal_actions(nd), rng) == ARRANGE_BASE + 1


def test_a_table_shows_the_knock_once_laid_out() -> None:
    t = Table("gin(players=2)", seed=1, deck=stack(CAPTAIN, BOX, "QS", "QH"), audit=True)
    s = t.state
    assert isinstance(s, GinState)
    nd, dl = s.nondealer, s.dealer
    t.apply(nd, "pass")
    t.apply(dl, "pass")
    t.apply(nd, "knock QH")
    assert not [e for e in t.events(dl) if e["type"] == "knock"]
    t.apply(nd, "arrange 2")
    actions = [e["action"] for e in t.events(dl) if e["type"] == "action"]
    assert actions[-2:] == ["knock QH", "arrange 2"]
    (knock,) = [e for e in t.events(dl) if e["type"] == "knock"]
    assert knock["melds"] == SETS and knock["deadwood_cards"] == ["KS"] and not knock["gin"]


def test_rules_matches_meet_the_arrange_phase() -> None:
    """Bots play it through: some knocks offer a choice, every match ends."""
    arranged = 0
    for players in (2, 3):
        for seed in range(12):
            t = Table(f"gin(players={players},max_hands=3)", ["rules"] * players, seed=seed, events=False)
            state = t.play()
            assert state.is_over
            arranged += sum(1 for _, a in state.history if ARRANGE_BASE <= a < SUGGEST_BASE)
    assert arranged > 0


# --- the layouts themselves ----------------------------------------------------------------------


def _card(suit: int, rank: int) -> int:
    """The card of a suit at a gin rank (A = 0 ... K = 12)."""
    return 13 * suit + (rank - 1) % 13


def _all_melds(hand: int) -> list[int]:
    """Every meld within ``hand``: each 3- or 4-card set, each run of 3+."""
    melds = []
    for r in range(13):
        same = cards_of(hand & RANK_MASKS[r])
        for k in (3, 4):
            melds += [sum(1 << c for c in combo) for combo in combinations(same, k)]
    for suit in range(4):
        for lo in range(13):
            for hi in range(lo + 2, 13):
                run = sum(1 << _card(suit, r) for r in range(lo, hi + 1))
                if hand & run == run:
                    melds.append(run)
    return melds


def _merged(melds: list[int]) -> frozenset[int]:
    """The layout with adjacent runs of a suit as one run."""
    sets = [m for m in melds if any(m & RANK_MASKS[r] == m for r in range(13))]
    run_cards = 0
    for m in melds:
        if m not in sets:
            run_cards |= m
    pieces: list[int] = []
    for suit in range(4):
        block: list[int] = []
        for r in [*range(13), 99]:
            if r < 13 and run_cards >> _card(suit, r) & 1:
                block.append(r)
            elif block:
                pieces.append(sum(1 << _card(suit, x) for x in block))
                block = []
    return frozenset([*sets, *pieces])


def brute_layouts(hand: int) -> set[frozenset[int]]:
    """Every set of disjoint melds with deadwood <= 10 (adjacent runs merged): any arrangement within
    the knock limit, as gin.md allows."""
    melds = _all_melds(hand)
    found: dict[frozenset[int], int] = {}

    def grow(start: int, used: int, chosen: list[int]) -> None:
        dead = hand & ~used
        if sum(points(c) for c in cards_of(dead)) <= 10:
            found[_merged(chosen)] = dead
        for i in range(start, len(melds)):
            if not melds[i] & used:
                grow(i + 1, used | melds[i], [*chosen, melds[i]])

    grow(0, 0, [])
    return set(found)


def near_knock_hands(rng: random.Random, count: int) -> list[int]:
    """Random ten-card hands within the knock limit, built from random melds and low cards."""
    hands: list[int] = []
    while len(hands) < count:
        hand = 0
        for _ in range(rng.choice((2, 3, 3))):
            if rng.random() < 0.5:
                rank = rng.randrange(13)
                m = sum(1 << c for c in rng.sample(cards_of(RANK_MASKS[rank]), rng.choice((3, 3, 4))))
            else:
                suit, lo, n = rng.randrange(4), rng.randrange(11), rng.choice((3, 3, 4, 5))
                m = sum(1 << (13 * suit + (r - 1) % 13) for r in range(lo, min(lo + n, 13)))
            hand |= m
        low = [c for c in range(52) if points(c) <= 4 and not hand >> c & 1]
        while hand.bit_count() < 10:
            hand |= 1 << rng.choice(low if rng.random() < 0.8 else range(52))
        if hand.bit_count() == 10 and deadwood_mask(hand) <= 10:
            hands.append(hand)
    return hands


WORST = [  # the hands with the most layouts found (every hand of ranks A-7, and a search over all)
    "2C 3C AC 2D 3D AD 2H AH 2S AS",
    "2C 3C 2D 3D AD 2H 3H AH 2S 3S",
]


def test_layouts_match_a_brute_force_enumeration() -> None:
    rng = random.Random(17)
    hands = [to_mask(h) for h in WORST] + [to_mask(CAPTAIN), to_mask("2H 3H 4H 4C 4D 9S 10S JS QS AC")]
    hands += near_knock_hands(rng, 150)
    most = 0  # the most layouts a knock offers (gin is laid as gin, with no choice)
    for hand in hands:
        layouts = arrangements_mask(hand)
        got = [frozenset(melds) for melds, _, _ in layouts]
        assert len(set(got)) == len(got)
        assert set(got) == brute_layouts(hand)
        values = [value for _, _, value in layouts]
        assert values == sorted(values) and values[0] == deadwood_mask(hand)
        for melds, dead, value in layouts:
            used = 0
            for m in melds:
                assert not m & used
                used |= m
            assert used | dead == hand and not used & dead
            assert value == sum(points(c) for c in cards_of(dead)) <= 10
        if values[0]:
            most = max(most, len(layouts))
    assert 33 <= most <= ARRANGE_CAP  # the worst hands known reach 33, under the cap


def test_worst_hands_have_33_layouts() -> None:
    assert [len(arrangements_mask(to_mask(h))) for h in WORST] == [33] * len(WORST)
