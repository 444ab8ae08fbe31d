"""Gin's events at a Table: the deal and its private hands, the knock with the hands spread, the scoring
breakdown, the match-end bonuses, and the advisor's suggestion seen by his team only."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardhall.cards import format_card, parse_card, parse_cards
from cardhall.games.gin.melds import gin_sorted
from cardhall.games.gin.rules import GinState
from cardhall.table import Table
from tests.games import schemas
from tests.helpers import bounded, playing

KNOCKER = "AS 2S 3S 4H 4D 4C KH KD KC 9D"  # deadwood 9 (the 9D)
OPP_PLAIN = "5C 6C 7C 8H 8S 9H 10S JS QD 2D"  # deadwood 57, nothing to lay off
OPP_LOW = "5C 6C 7C 8H 9H 10H 8S 9S 10S AD"  # deadwood 1
OPP_LAY = "4S 5S KS 7C 8C 10D JH QC 6H 2D"  # 4S, then 5S, onto the spade run; KS onto the kings


def knock_and_lay_out(t: Table, seat: int, card: str) -> None:
    """``knock <card>``, then ``arrange 1`` (the least deadwood) when the knocker has a choice of layouts
    (gin.md: any arrangement within the knock limit)."""
    t.apply(seat, f"knock {card}")
    if gin_state(t).phase == "arrange":
        t.apply(seat, "arrange 1")


def stack(nd: str, dl: str, up: str, stock_top: str = "") -> list[int]:
    """A deck dealing ``nd`` to the non-dealer (captain), ``dl`` to the dealer (box), ``up`` face up,
    and ``stock_top`` (top first) on top of the stock."""
    a, b, u, top = parse_cards(nd), parse_cards(dl), parse_card(up), parse_cards(stock_top)
    used = [*a, *b, u, *top]
    return (
        [x for pair in zip(a, b, strict=True) for x in pair]
        + [u, *top]
        + [c for c in range(52) if c not in used]
    )


def table(game: str, nd: str, dl: str, up: str, stock_top: str = "") -> Table:
    return Table(game, seed=1, deck=stack(nd, dl, up, stock_top), audit=True)


def gin_state(t: Table) -> GinState:
    state = t.state
    assert isinstance(state, GinState)
    return state


def both_pass(t: Table) -> None:
    s = gin_state(t)
    t.apply(s.nondealer, "pass")
    t.apply(s.dealer, "pass")


def of_type(t: Table, kind: str, seat: int | None = None) -> list[dict[str, Any]]:
    return [e for e in t.events(seat) if e["type"] == kind]


def labels(cards: str) -> list[str]:
    """Cards as the events write them: by suit, A low."""
    return [format_card(c) for c in gin_sorted(parse_cards(cards))]


def test_the_deal_shows_each_hand_to_its_holder_only() -> None:
    t = table("gin(players=2)", KNOCKER, OPP_PLAIN, "6D")
    s = gin_state(t)
    nd, dl = s.nondealer, s.dealer
    for seat, hand in ((nd, KNOCKER), (dl, OPP_PLAIN), (None, None)):
        (deal,) = of_type(t, "deal", seat)
        assert deal["deal"] == 1 and deal["dealer"] == dl and deal["upcard"] == "6D"
        assert deal["roles"] == {"dealer": dl, "non_dealer": nd} and deal["stock_size"] == 31
        assert deal["hand"] == (None if hand is None else labels(hand))


def test_three_hand_deal_gives_the_advisor_the_team_hand() -> None:
    t = table("gin", KNOCKER, OPP_PLAIN, "6D")
    s = gin_state(t)
    box, captain, advisor = s.dealer, s.nondealer, s.advisor
    deals = {seat: of_type(t, "deal", seat)[0] for seat in (box, captain, advisor, None)}
    assert deals[box]["hand"] == labels(OPP_PLAIN)
    assert deals[captain]["hand"] == deals[advisor]["hand"] == labels(KNOCKER)
    assert deals[None]["hand"] is None
    assert deals[None]["roles"] == {"box": box, "captain": captain, "advisor": advisor}


def test_the_advisors_suggestion_reaches_his_team_only() -> None:
    t = table("gin", KNOCKER, OPP_PLAIN, "6D")
    s = gin_state(t)
    box, captain, advisor = s.dealer, s.nondealer, s.advisor
    t.apply(advisor, "suggest take discard")
    for seat in (captain, advisor):
        last = t.events(seat)[-1]
        assert last["action"] == "suggest take discard" and not last["hidden"]
        assert last["move"] == {"kind": "suggest", "suggestion": {"kind": "take"}}
    for seat in (box, None):
        last = t.events(seat)[-1]
        assert last == {
            "n": t.number,
            "type": "action",
            "seat": advisor,
            "action": "advise",
            "hidden": True,
            "move": None,
        }
    t.apply(captain, "pass")
    t.apply(box, "pass")
    t.apply(advisor, "no suggestion")
    assert t.events(box)[-1]["action"] == "advise" and t.events(captain)[-1]["action"] == "no suggestion"
    # What the suggestion said stays with the team in the observation too.
    assert gin_state(t).observation(box)["suggestion"] is None


def test_a_knock_spreads_both_hands_and_the_score_adds_up() -> None:
    t = table("gin(players=2)", KNOCKER, OPP_LAY, "6D", "2H")
    s = gin_state(t)
    nd, dl = s.nondealer, s.dealer
    both_pass(t)
    knock_and_lay_out(t, nd, "9D")
    for seat in (nd, dl, None):
        (knock,) = of_type(t, "knock", seat)
        assert knock["knocker"] == nd and knock["opponent"] == dl and not knock["gin"]
        assert sorted(map(tuple, knock["melds"])) == [
            ("4C", "4D", "4H"),
            ("AS", "2S", "3S"),
            ("KC", "KD", "KH"),
        ]
        assert knock["deadwood_cards"] == ["2H"] and knock["deadwood"] == 2
        assert knock["opponent_hand"] == labels(OPP_LAY) and knock["opponent_deadwood"] == 72
    t.apply(dl, "lay off 4S")
    t.apply(dl, "lay off 5S")
    t.apply(dl, "done")
    (scored,) = of_type(t, "deal_scored")
    row = s.score_sheet[-1]
    assert scored == {
        "n": scored["n"],
        "type": "deal_scored",
        "deal": 1,
        "dealer": dl,
        "result": "knock",
        "knocker": nd,
        "knocker_deadwood": 2,
        "opponent_deadwood": 63,
        "deadwood_difference": 61,
        "bonus": 0,
        "winner": nd,
        "credited": [nd],
        "points": row["points"],
        "totals": row["totals"],
    }
    assert scored["points"][nd] == scored["deadwood_difference"] + scored["bonus"] == 61
    # Scored before the next hand is dealt; the loser deals it.
    kinds = [e["type"] for e in t.events(None)]
    assert kinds[-2:] == ["deal_scored", "deal"] and of_type(t, "deal")[-1]["dealer"] == dl


@pytest.mark.parametrize(
    ("dl", "stock_top", "result", "difference", "bonus"),
    [
        ("5S 6S KS 7C 8C 10D JH QC 6H 2D", "4S", "gin", 74, 25),
        (OPP_LOW, "2H", "undercut", 1, 10),
    ],
)
def test_gin_and_undercut_breakdowns(
    dl: str, stock_top: str, result: str, difference: int, bonus: int
) -> None:
    t = table("gin(players=2)", KNOCKER, dl, "6D", stock_top)
    s = gin_state(t)
    nd, dealer = s.nondealer, s.dealer
    both_pass(t)
    knock_and_lay_out(t, nd, "9D")
    (knock,) = of_type(t, "knock")
    assert knock["gin"] == (result == "gin")
    (scored,) = of_type(t, "deal_scored")
    winner = nd if result == "gin" else dealer
    assert scored["result"] == result and scored["winner"] == winner and scored["credited"] == [winner]
    assert (scored["deadwood_difference"], scored["bonus"]) == (difference, bonus)
    assert scored["points"][winner] == difference + bonus == s.score_sheet[-1]["points"][winner]


def test_team_scoring_credits_captain_and_advisor() -> None:
    t = table("gin(team_scoring=both)", KNOCKER, OPP_PLAIN, "6D", "2H")
    s = gin_state(t)
    captain, advisor = s.nondealer, s.advisor
    both_pass(t)
    knock_and_lay_out(t, captain, "9D")
    (scored,) = of_type(t, "deal_scored")
    assert scored["winner"] == captain and sorted(scored["credited"]) == sorted([captain, advisor])
    assert scored["points"][captain] == scored["points"][advisor] == 55


def test_a_void_hand_is_scored_before_the_same_dealer_deals_again() -> None:
    t = table("gin(players=2)", KNOCKER, OPP_PLAIN, "6D")
    s = gin_state(t)
    dealer = s.dealer
    both_pass(t)
    for _ in bounded(lambda: s.hand_index == 0):
        seat = s.current
        t.apply(seat, "draw stock" if s.phase == "draw" else s.legal_actions(seat)[0])
    (scored,) = of_type(t, "deal_scored")
    assert scored["result"] == "void" and scored["knocker"] is None and scored["winner"] is None
    assert scored["credited"] == [] and scored["points"] == [0, 0] and scored["deadwood_difference"] == 0
    deals = of_type(t, "deal")
    assert [d["deal"] for d in deals] == [1, 2] and deals[1]["dealer"] == dealer


def test_match_bonuses_come_before_the_end_and_make_the_final_scores() -> None:
    t = table("gin(players=2,target=50,game_bonus=100,box_bonus=25)", KNOCKER, OPP_PLAIN, "6D", "2H")
    s = gin_state(t)
    nd = s.nondealer
    both_pass(t)
    knock_and_lay_out(t, nd, "9D")
    events = t.events(None)
    assert [e["type"] for e in events[-3:]] == ["deal_scored", "match_bonuses", "match_over"]
    bonuses, over = events[-2], events[-1]
    assert bonuses["shutout"] and bonuses["game_bonus"][nd] == 200 and bonuses["box_bonus"][nd] == 25
    assert bonuses["points"] == list(s.bonuses) and bonuses["points"][nd] == 225
    assert bonuses["totals"] == over["scores"] == [55 + 225 if x == nd else 0 for x in range(2)]
    # Without bonuses there is no such event.
    plain = table("gin(players=2,target=50)", KNOCKER, OPP_PLAIN, "6D", "2H")
    both_pass(plain)
    knock_and_lay_out(plain, gin_state(plain).nondealer, "9D")
    assert not of_type(plain, "match_bonuses") and plain.is_over


def test_rules_matches_tell_a_consistent_story() -> None:
    """Across seeded matches of rules bots: every deal is dealt and scored once, the scored points add up
    to the score sheet and the totals, every knock precedes its scoring, and each event fits the schema."""
    for game in ("gin(players=2,max_hands=3)", "gin(max_hands=3,game_bonus=100,box_bonus=25)"):
        for seed in range(3):
            t = Table(game, ["rules"] * (3 if "players=2" not in game else 2), seed=seed)
            t.play()
            s = gin_state(t)
            events = t.events(None)
            scored = [e for e in events if e["type"] == "deal_scored"]
            assert len(scored) == len(s.score_sheet) == s.deals_finished
            for e, row in zip(scored, s.score_sheet, strict=True):
                assert (e["deal"], e["points"], e["totals"], e["result"]) == (
                    row["hand"],
                    row["points"],
                    row["totals"],
                    row["result"],
                )
                assert sum(e["points"]) == (e["deadwood_difference"] + e["bonus"]) * len(e["credited"])
            knocks = [e["deal"] for e in events if e["type"] == "knock"]
            assert knocks == [e["deal"] for e in scored if e["result"] != "void"]
            for seat in [*range(s.game.num_players), None]:
                for e in t.events(seat):
                    assert not schemas.errors("gin", "event", e), e


def test_no_events_are_logged_without_a_listener() -> None:
    state = Table("gin(players=2,max_hands=1)", ["rules", "rules"], seed=2, events=False).play()
    assert state.events is None
    rng = random.Random(0)
    fresh = state.game.new_game(seed=2)
    for _ in playing(fresh):
        seat = rng.choice(fresh.to_act)
        fresh.apply(seat, rng.choice(fresh.legal_actions(seat)))
    assert fresh.events is None
