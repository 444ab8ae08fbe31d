"""Scenario tests for every rule of gin (src/cardhall/rulebook/gin.en.md), with stacked decks and scripts."""

from __future__ import annotations

import json
import random

import pytest

import cardhall
from cardhall.cards import RANKS, parse_card, parse_cards
from cardhall.games.gin.rules import GinState, deadwood
from tests.helpers import bounded

KNOCKER = "AS 2S 3S 4H 4D 4C KH KD KC 9D"  # deadwood 9 (the 9D)
OPP_PLAIN = "5C 6C 7C 8H 8S 9H 10S JS QD 2D"  # deadwood 57, nothing to lay off on KNOCKER's melds
OPP_LOW = "5C 6C 7C 8H 9H 10H 8S 9S 10S AD"  # deadwood 1
OPP_LAY = "4S 5S KS 7C 8C 10D JH QC 6H 2D"  # deadwood 72; 4S, then 5S, onto the spade run; KS onto the kings


def stack(nd: str, dl: str, up: str, stock_top: str = "") -> list[int]:
    """A deck dealing ``nd`` to the non-dealer (captain), ``dl`` to the dealer (box), ``up`` face up,
    and ``stock_top`` (top first) on top of the stock."""
    a, b, u, top = parse_cards(nd), parse_cards(dl), parse_card(up), parse_cards(stock_top)
    used = [*a, *b, u, *top]
    assert len(set(used)) == len(used) and len(a) == len(b) == 10
    return (
        [x for pair in zip(a, b, strict=True) for x in pair]
        + [u, *top]
        + [c for c in range(52) if c not in used]
    )


def new(game: str, nd: str, dl: str, up: str, stock_top: str = "", seed: int = 1) -> GinState:
    state = cardhall.load_game(game).new_game(seed=seed, deck=stack(nd, dl, up, stock_top))
    assert isinstance(state, GinState)
    return state


def act(state: GinState, seat: int, label: str) -> None:
    state.apply(seat, state.game.parse_action(label))


def labels(state: GinState, seat: int) -> list[str]:
    return [state.game.action_label(a) for a in state.legal_actions(seat)]


def knock_and_lay_out(state: GinState, seat: int, card: str) -> None:
    """``knock <card>``, then, when the knocker has a choice of layouts (gin.md: any arrangement within
    the knock limit), ``arrange 1``: the least deadwood, as the tests of scoring and lay-offs expect."""
    act(state, seat, f"knock {card}")
    if state.phase == "arrange":
        act(state, seat, "arrange 1")


def both_pass(state: GinState) -> None:
    act(state, state.nondealer, "pass")
    act(state, state.dealer, "pass")


def test_values_and_examples_of_the_rules() -> None:
    assert deadwood(KNOCKER) == 9
    assert deadwood(OPP_PLAIN) == 57
    assert deadwood(OPP_LOW) == 1
    assert deadwood(OPP_LAY) == 72
    assert deadwood("AC 2C 3C") == 0 and deadwood("QC KC AC") == 21  # A low only
    assert deadwood("JC QD KH") == 30 and deadwood("AH") == 1


@pytest.mark.parametrize("players", [2, 3])
def test_knock_scores_the_difference(players: int) -> None:
    s = new(f"gin(players={players})", KNOCKER, OPP_PLAIN, "6D", "2H")
    nd, dl = s.nondealer, s.dealer
    both_pass(s)
    assert s.phase == "discard" and s.current == nd and "2H" in s.observation(nd)["hand"]
    knock_and_lay_out(s, nd, "9D")
    row = s.score_sheet[-1]
    assert row["result"] == "knock" and row["knocker_deadwood"] == 2 and row["opponent_deadwood"] == 57
    assert s.scores[nd] == 55 and s.scores[dl] == 0 and sum(s.scores) == 55
    assert s.hand_index == 1 and s.phase == "upcard"


def test_knock_needs_deadwood_at_most_ten() -> None:
    s = new("gin(players=2)", KNOCKER, OPP_PLAIN, "6D", "QH")
    both_pass(s)
    assert "knock 9D" in labels(s, s.nondealer)  # keeps QH: deadwood 10
    assert "knock QH" in labels(s, s.nondealer)  # keeps 9D: deadwood 9
    assert "knock AS" not in labels(s, s.nondealer)
    with pytest.raises(cardhall.IllegalActionError, match=r"gin.*knock AS.*deadwood"):
        knock_and_lay_out(s, s.nondealer, "AS")


def test_a_knock_leaving_eleven_deadwood_is_refused() -> None:
    knocker = "3S 4S 5S 6S KH KD KC 9D AD AC"  # deadwood 11 (9D AD AC)
    assert deadwood(knocker) == 11 and deadwood(knocker.replace("9D", "2H")) == 4
    s = new("gin(players=2)", knocker, OPP_PLAIN, "6D", "2H")
    nd = s.nondealer
    both_pass(s)
    assert "knock 9D" in labels(s, nd)  # keeps AD AC 2H: deadwood 4
    assert "knock 2H" not in labels(s, nd)  # keeps 9D AD AC: deadwood 11, one over the limit
    assert "discard 2H" in labels(s, nd)
    with pytest.raises(cardhall.IllegalActionError, match=r"gin.*knock 2H.*deadwood.*would be 11"):
        knock_and_lay_out(s, nd, "2H")


def test_knock_on_the_first_turn_with_the_upcard() -> None:
    s = new("gin(players=2)", KNOCKER, OPP_PLAIN, "6D")
    act(s, s.nondealer, "take discard")
    knock_and_lay_out(s, s.nondealer, "9D")
    assert s.score_sheet[-1]["knocker_deadwood"] == 6 and s.scores[s.score_sheet[-1]["winner"]] == 51


@pytest.mark.parametrize(("option", "points"), [("", 25 + 57), (",gin_bonus=20", 20 + 57)])
def test_gin(option: str, points: int) -> None:
    s = new(f"gin(players=2{option})", KNOCKER, OPP_PLAIN, "6D", "4S")
    nd = s.nondealer
    both_pass(s)
    knock_and_lay_out(s, nd, "9D")
    row = s.score_sheet[-1]
    assert row["result"] == "gin" and row["knocker_deadwood"] == 0 and s.scores[nd] == points


def test_gin_cannot_be_undercut_and_allows_no_layoffs() -> None:
    opp = "5S 6S KS 7C 8C 10D JH QC 6H 2D"  # KS would complete the kings, 5S extend A-4S
    assert deadwood(opp) == 74
    s = new("gin(players=2)", KNOCKER, opp, "6D", "4S")
    nd = s.nondealer
    both_pass(s)
    knock_and_lay_out(s, nd, "9D")
    assert s.score_sheet[-1]["result"] == "gin" and s.scores[nd] == 25 + 74


@pytest.mark.parametrize(("option", "bonus"), [("", 10), (",undercut_bonus=25", 25)])
def test_undercut(option: str, bonus: int) -> None:
    s = new(f"gin(players=2{option})", KNOCKER, OPP_LOW, "6D", "2H")
    nd, dl = s.nondealer, s.dealer
    both_pass(s)
    knock_and_lay_out(s, nd, "9D")
    row = s.score_sheet[-1]
    assert row["result"] == "undercut" and row["winner"] == dl
    assert s.scores[dl] == 2 - 1 + bonus and s.scores[nd] == 0


def test_equal_deadwood_is_an_undercut() -> None:
    s = new("gin(players=2)", KNOCKER, OPP_LOW.replace("AD", "2D"), "6D", "2H")
    dl = s.dealer
    both_pass(s)
    knock_and_lay_out(s, s.nondealer, "9D")
    assert s.score_sheet[-1]["result"] == "undercut" and s.scores[dl] == 10


def test_layoffs_onto_runs_and_sets_and_declining() -> None:
    s = new("gin(players=2)", KNOCKER, OPP_LAY, "6D", "2H")
    nd, dl = s.nondealer, s.dealer
    both_pass(s)
    knock_and_lay_out(s, nd, "9D")
    assert s.phase == "layoff" and s.to_act == (dl,)
    # 4S extends the spade run (and would complete the fours); KS completes the kings; 5S does not fit yet.
    assert labels(s, dl) == ["lay off 4S", "lay off KS", "done"]
    act(s, dl, "lay off 4S")
    assert labels(s, dl) == ["lay off 5S", "lay off KS", "done"]
    act(s, dl, "lay off 5S")
    knock = s.observation(nd)["knock"]
    assert ["AS", "2S", "3S", "4S", "5S"] in knock["melds"]
    assert [lay["card"] for lay in knock["layoffs"]] == ["4S", "5S"]
    act(s, dl, "done")  # declines to lay off KS
    row = s.score_sheet[-1]
    assert row["opponent_deadwood"] == 63 and s.scores[nd] == 61


def test_an_ace_is_laid_off_below_a_run_from_the_two() -> None:
    knocker = "2S 3S 4S 7H 7D 7C KH KD KC 9D"  # deadwood 9 (the 9D)
    opp = "5C 6C AS 8H 8S 9H 10S JS QD 2D"  # deadwood 69; only AS fits, below 2S 3S 4S
    assert deadwood(knocker) == 9 and deadwood(opp) == 69
    s = new("gin(players=2)", knocker, opp, "6D", "2H")
    nd, dl = s.nondealer, s.dealer
    both_pass(s)
    knock_and_lay_out(s, nd, "9D")
    assert ["2S", "3S", "4S"] in s.observation(dl)["knock"]["melds"]
    assert labels(s, dl) == ["lay off AS", "done"]
    act(s, dl, "lay off AS")  # nothing else fits: the hand is scored
    row = s.score_sheet[-1]
    assert row["result"] == "knock" and row["knocker_deadwood"] == 2 and row["opponent_deadwood"] == 68
    assert s.scores[nd] == 66


def test_layoffs_end_by_themselves_when_nothing_fits() -> None:
    s = new("gin(players=2)", KNOCKER, OPP_LAY, "6D", "2H")
    nd, dl = s.nondealer, s.dealer
    both_pass(s)
    knock_and_lay_out(s, nd, "9D")
    for card in ("KS", "4S", "5S"):
        act(s, dl, f"lay off {card}")
    assert s.score_sheet[-1]["opponent_deadwood"] == 53 and s.scores[nd] == 51
    assert s.hand_index == 1 and s.phase == "upcard"


def test_illegal_layoff_is_refused() -> None:
    s = new("gin(players=2)", KNOCKER, OPP_LAY, "6D", "2H")
    both_pass(s)
    knock_and_lay_out(s, s.nondealer, "9D")
    with pytest.raises(cardhall.IllegalActionError, match=r"gin.*lay off 5S"):
        act(s, s.dealer, "lay off 5S")
    with pytest.raises(cardhall.IllegalActionError, match="gin"):
        act(s, s.nondealer, "done")  # the knocker never lays off


def test_first_upcard_taken_by_the_non_dealer() -> None:
    s = new("gin(players=2)", KNOCKER, OPP_PLAIN, "6D")
    nd, dl = s.nondealer, s.dealer
    assert s.phase == "upcard" and s.to_act == (nd,) and labels(s, nd) == ["take discard", "pass"]
    act(s, nd, "take discard")
    assert "discard 6D" not in labels(s, nd) and len(s.observation(nd)["hand"]) == 11
    act(s, nd, "discard AS")
    assert s.phase == "draw" and s.to_act == (dl,) and labels(s, dl) == ["draw stock", "take discard"]
    assert s.observation(None)["discard_pile"] == ["AS"]


def test_first_upcard_declined_then_taken_by_the_dealer() -> None:
    s = new("gin(players=2)", KNOCKER, OPP_PLAIN, "6D")
    nd, dl = s.nondealer, s.dealer
    act(s, nd, "pass")
    assert s.to_act == (dl,) and labels(s, dl) == ["take discard", "pass"]
    act(s, dl, "take discard")
    assert "discard 6D" not in labels(s, dl)
    act(s, dl, "discard 2D")
    assert s.phase == "draw" and s.to_act == (nd,)
    assert s.observation(nd)["known_cards"][dl] == ["6D"]
    assert s.observation(nd)["upcard_declined_by"] == [nd]


def test_moves_show_the_card_each_move_showed_in_both_forms() -> None:
    s = new("gin(players=2)", KNOCKER, OPP_PLAIN, "6D", "QH")
    nd, dl = s.nondealer, s.dealer
    act(s, nd, "take discard")
    act(s, nd, "discard 9D")
    act(s, dl, "draw stock")
    assert s.observation(None)["moves"] == [
        {"seat": nd, "action": "take discard", "card": "6D"},
        {"seat": nd, "action": "discard 9D", "card": "9D"},
        {"seat": dl, "action": "draw stock", "card": None},
    ]
    game = s.game
    ints = s.observation(dl, ints=True)
    assert ints["moves"] == [
        {"seat": nd, "action": game.parse_action("take discard"), "card": parse_card("6D")},
        {"seat": nd, "action": game.parse_action("discard 9D"), "card": parse_card("9D")},
        {"seat": dl, "action": game.parse_action("draw stock"), "card": None},
    ]
    assert ints["discard_pile"] == [parse_card("9D")] and ints["known_cards"][nd] == [parse_card("6D")]
    assert ints["hand"] == sorted(ints["hand"], key=lambda c: (c // 13, (c % 13 + 1) % 13))


def test_first_upcard_declined_by_both() -> None:
    s = new("gin(players=2)", KNOCKER, OPP_PLAIN, "6D", "QH")
    both_pass(s)
    assert s.phase == "discard" and s.current == s.nondealer and len(s.stock) == 30
    assert "QH" in s.observation(s.nondealer)["hand"] and s.observation(None)["discard_pile"] == ["6D"]


def test_card_taken_from_the_pile_may_not_be_discarded() -> None:
    s = new("gin(players=2)", KNOCKER, OPP_PLAIN, "6D", "QH")
    both_pass(s)
    act(s, s.nondealer, "discard QH")
    act(s, s.dealer, "take discard")
    assert s.observation(None)["banned_discard"] == "QH"
    with pytest.raises(cardhall.IllegalActionError, match=r"gin.*discard QH.*just taken"):
        act(s, s.dealer, "discard QH")
    act(s, s.dealer, "discard 2D")


def test_allow_same_discard_variant() -> None:
    s = new("gin(players=2,allow_same_discard=true)", KNOCKER, OPP_PLAIN, "6D")
    act(s, s.nondealer, "take discard")
    assert "discard 6D" in labels(s, s.nondealer)
    act(s, s.nondealer, "discard 6D")
    assert s.observation(None)["discard_pile"] == ["6D"]


def play_to_void(s: GinState) -> None:
    both_pass(s)
    hand = s.hand_index
    for _ in bounded(lambda: s.hand_index == hand):
        seat = s.current
        if s.phase == "draw":
            act(s, seat, "draw stock")
        else:
            act(s, seat, s.game.action_label(s.legal_actions(seat)[0]))  # the lowest discard


@pytest.mark.parametrize("players", [2, 3])
def test_void_hand(players: int) -> None:
    s = new(f"gin(players={players})", KNOCKER, OPP_PLAIN, "6D")
    roles = (s.dealer, s.nondealer, s.advisor)
    discards_before_void = 0
    both_pass(s)
    for _ in bounded(lambda: s.hand_index == 0):
        seat = s.current
        if s.phase == "draw":
            act(s, seat, "draw stock")
        else:
            discards_before_void += 1
            act(s, seat, "discard " + s.game.action_label(s.legal_actions(seat)[0]).split()[1])
    # 31 stock cards, one drawn per turn: the 29th discard leaves 2 in the stock.
    assert discards_before_void == 29
    row = s.score_sheet[-1]
    assert row["result"] == "void" and row["winner"] is None and s.scores == (0,) * players
    assert (s.dealer, s.nondealer, s.advisor) == roles and s.phase == "upcard" and len(s.stock) == 31


def test_max_hands_counts_void_hands_and_ties_share() -> None:
    s = new("gin(players=2,max_hands=1)", KNOCKER, OPP_PLAIN, "6D")
    play_to_void(s)
    assert s.is_over and s.winners == (0, 1) and s.to_act == ()


def test_rotation_when_the_team_wins() -> None:
    s = new("gin", KNOCKER, OPP_PLAIN, "6D", "2H")
    box, captain, advisor = s.dealer, s.nondealer, s.advisor
    both_pass(s)
    knock_and_lay_out(s, captain, "9D")
    assert s.scores[captain] == 55 and s.scores[advisor] == 0 and s.scores[box] == 0
    assert (s.dealer, s.nondealer, s.advisor) == (captain, advisor, box)
    assert s.observation(box)["roles"] == {"box": captain, "captain": advisor, "advisor": box}


def test_rotation_when_the_box_wins() -> None:
    s = new("gin", KNOCKER, OPP_LOW, "6D", "2H")
    box, captain, advisor = s.dealer, s.nondealer, s.advisor
    both_pass(s)
    knock_and_lay_out(s, captain, "9D")
    assert s.scores[box] == 11
    assert (s.dealer, s.nondealer, s.advisor) == (box, advisor, captain)


def test_team_scoring_both() -> None:
    s = new("gin(team_scoring=both)", KNOCKER, OPP_PLAIN, "6D", "2H")
    captain, advisor = s.nondealer, s.advisor
    both_pass(s)
    knock_and_lay_out(s, captain, "9D")
    assert s.scores[captain] == s.scores[advisor] == 55 and s.scores[s.score_sheet[-1]["box"]] == 0


def test_roles_draw() -> None:
    def key(rank: str) -> int:
        return (RANKS.index(rank) + 1) % 13  # K high, A low

    redraws = 0
    for seed in range(60):
        s = cardhall.load_game("gin").new_game(seed=seed)
        assert isinstance(s, GinState)
        rounds = s.observation(None)["role_draw"]
        last = [key(r) for r in rounds[-1]]
        assert len(set(last)) == 3
        assert all(len({key(r) for r in earlier}) < 3 for earlier in rounds[:-1])
        redraws += len(rounds) - 1
        assert last[s.dealer] > last[s.nondealer] > last[s.advisor]
        assert (
            s.hands[s.advisor] == 0
            and s.hands[s.dealer].bit_count() == s.hands[s.nondealer].bit_count() == 10
        )
    assert redraws > 0


@pytest.mark.parametrize("dealer_wins", [True, False])
def test_two_player_loser_deals(dealer_wins: bool) -> None:
    s = new("gin(players=2)", KNOCKER, OPP_LOW if dealer_wins else OPP_PLAIN, "6D", "2H")
    nd, dl = s.nondealer, s.dealer
    both_pass(s)
    knock_and_lay_out(s, nd, "9D")
    assert s.score_sheet[-1]["winner"] == (dl if dealer_wins else nd)
    assert s.dealer == (nd if dealer_wins else dl)


def test_two_player_first_dealer_from_the_seed() -> None:
    game = cardhall.load_game("gin(players=2)")
    dealers = {game.new_game(seed=k).observation(None)["roles"]["dealer"] for k in range(20)}
    assert dealers == {0, 1}


def test_advisor_suggestion_is_visible_to_the_team_and_inert() -> None:
    s = new("gin", KNOCKER, OPP_PLAIN, "6D", "2H")
    box, captain, advisor = s.dealer, s.nondealer, s.advisor
    assert s.to_act == (captain, advisor)
    assert labels(s, advisor) == ["suggest take discard", "suggest pass", "no suggestion"]
    assert s.observation(advisor)["hand"] == s.observation(captain)["hand"]  # he advises on the team hand
    with pytest.raises(cardhall.IllegalActionError, match="gin"):
        act(s, advisor, "suggest draw stock")  # not a legal action of the captain now
    hands, stock, pile = list(s.hands), list(s.stock), list(s.pile)
    act(s, advisor, "suggest take discard")
    assert (s.hands, s.stock, s.pile, s.phase, s.current) == (hands, stock, pile, "upcard", captain)
    assert s.to_act == (captain,) and s.legal_actions(advisor) == []
    assert s.observation(captain)["suggestion"] == "take discard"
    assert s.observation(advisor)["suggestion"] == "take discard"
    assert s.observation(box)["suggestion"] is None and s.observation(None)["suggestion"] is None
    act(s, captain, "pass")  # the captain decides otherwise
    assert s.observation(captain)["suggestion"] is None
    act(s, box, "pass")
    assert s.to_act == (captain, advisor)
    act(s, advisor, "no suggestion")
    assert s.to_act == (captain,) and s.observation(captain)["suggestion"] is None
    knock_and_lay_out(s, captain, "9D")
    assert s.scores[captain] == 55 and s.scores[advisor] == 0


def test_captain_may_act_before_the_advisor() -> None:
    s = new("gin", KNOCKER, OPP_PLAIN, "6D")
    act(s, s.nondealer, "pass")
    assert s.to_act == (s.dealer,) and s.legal_actions(s.advisor) == []


def test_knock_is_shown_to_everyone_and_hands_hidden_before() -> None:
    s = new("gin(players=2)", KNOCKER, OPP_LAY, "6D", "2H")
    nd, dl = s.nondealer, s.dealer
    both_pass(s)
    text = json.dumps(s.observation(dl))
    assert "9D" not in text and "AS" not in text
    assert s.hidden_cards(dl) >= set(parse_cards("AS 9D 2H"))
    knock_and_lay_out(s, nd, "9D")
    for seat in (dl, None):
        knock = s.observation(seat)["knock"]
        assert knock["seat"] == nd and knock["deadwood"] == 2 and knock["deadwood_cards"] == ["2H"]
        assert sorted(map(tuple, knock["melds"])) == sorted(
            [("AS", "2S", "3S"), ("4C", "4D", "4H"), ("KC", "KD", "KH")]
        )
    assert s.hidden_cards(dl) == set(s.stock)


def test_resample_keeps_cards_seen_picked_up() -> None:
    s = new("gin(players=2)", KNOCKER, OPP_PLAIN, "6D")
    nd, dl = s.nondealer, s.dealer
    act(s, nd, "pass")
    act(s, dl, "take discard")
    act(s, dl, "discard 2D")
    rng = random.Random(3)
    others = set()
    for _ in range(20):
        other = s.resample(nd, rng)
        assert other.hands[dl] >> parse_card("6D") & 1
        assert other.observation(nd) == s.observation(nd) and other.hands[nd] == s.hands[nd]
        others.add(other.hands[dl])
    assert len(others) > 1


def test_target_and_bonuses() -> None:
    s = new("gin(players=2,target=50,game_bonus=100,box_bonus=25)", KNOCKER, OPP_PLAIN, "6D", "2H")
    nd = s.nondealer
    both_pass(s)
    knock_and_lay_out(s, nd, "9D")
    assert s.is_over and s.winners == (nd,)
    assert s.bonuses[nd] == 2 * 100 + 25  # shutout doubles the game bonus
    assert s.scores[nd] == 55 + 225 and s.to_act == ()


def test_bad_options() -> None:
    with pytest.raises(cardhall.InvalidOptionError, match=r"gin.*players"):
        cardhall.load_game("gin(players=4)")
    with pytest.raises(cardhall.InvalidOptionError, match=r"gin.*team_scoring.*two-player"):
        cardhall.load_game("gin(players=2,team_scoring=both)")
    with pytest.raises(cardhall.InvalidOptionError, match=r"gin.*undercut_bonus"):
        cardhall.load_game("gin(undercut_bonus=-1)")


def test_action_texts() -> None:
    g = cardhall.load_game("gin")
    assert g.parse_action("suggest knock 9d") == g.parse_action("suggest knock 9D")
    assert g.action_label(g.parse_action("lay off 10h")) == "lay off 10H"
    assert g.parse_action("draw") == g.parse_action("draw stock")
    assert g.parse_action("QS") == g.parse_action("discard QS")
    with pytest.raises(cardhall.InvalidActionError, match="gin"):
        cardhall.load_game("gin(players=2)").parse_action("suggest pass")
