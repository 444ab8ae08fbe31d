"""Gin Rummy: three-hand gin with a player "in the box" (default), or ordinary two-player gin.

Rules: ``rulebook.en.md`` (beside it). One 52-card deck, A low, J Q K worth 10; melds are sets of 3-4
of a rank and runs of 3+ in a suit. :func:`deadwood` and :func:`best_melds` (from ``melds``) give the
exact minimum deadwood and a best arrangement of any hand. Choices this module makes:

- Seats are numbered in the order of play. With three players the seats draw a card each for roles (K high,
  A low); if any two draws tie, all three draw again. Highest = box, middle = captain, lowest = advisor. The
  draws are shown as ranks only (``role_draw``), so no card text of the draw lingers in observations.
- Only the box and the captain hold cards. The box deals every hand, one card at a time, captain first;
  card 21 of the deck is the up-card, the rest is the stock. With ``players=2`` the first dealer is drawn
  from the seed and the loser of each hand deals the next; after a void hand the same dealer deals again.
- The advisor sees the team hand. Whenever the captain has a decision, ``to_act`` is (captain, advisor)
  until the advisor has either sent one suggestion (``suggest <one of the captain's legal actions>``) or
  declined (``no suggestion``); after that only the captain. A suggestion never changes the game; it is
  shown to captain and advisor only (key ``suggestion``) until the captain acts. The captain may act without
  waiting, which ends the advisor's chance for that decision.
- First turn: the non-dealer may ``take discard`` (the up-card) or ``pass``; then the dealer likewise.
  Whoever takes it discards (or knocks) and the other player continues with a normal turn. If both pass,
  the non-dealer draws the top stock card automatically (it is his only option) and then discards.
- Normal turn: ``draw stock`` or ``take discard``, then ``discard X`` or ``knock X`` (discard X and knock).
  The card just taken from the discard pile may not be discarded or knocked with in that turn unless
  ``allow_same_discard``. Knocking is allowed on any turn, including the first, when the deadwood of the 10
  cards kept is <= 10; a knock with deadwood 0 is gin. Big gin (11 cards) is not part of these rules.
- The knocker arranges his melds ("he discards and spreads his melds"). After ``knock X``, when his ten
  cards can be laid out in more than one distinct way with deadwood <= 10, the hand enters the phase
  ``arrange``: he alone chooses (his advisor may suggest), one action per layout, ``arrange 1`` ..
  ``arrange N`` (ints ``ARRANGE_BASE + i``), in the canonical order of
  :func:`~cardhall.games.gin.melds.arrangements_mask` (least deadwood first, then fewest sets, then by
  the cards). Every layout within the knock limit counts, as the rules say ("any arrangement whose
  deadwood is <= 10, not only the smallest"): three runs or three sets from the same nine cards, a card
  that fits a run or a set, and a card kept out of a meld it could join (a run laid short, three of four
  of a rank), which costs him its value but can stop a lay-off; his scored deadwood is that of the
  layout he chose. Adjacent runs are one run. With one layout there is no step, nor when he can go gin:
  gin is laid as gin (no lay-offs, and it scores more than any other layout of the hand whatever the
  opponent holds: a layout with deadwood d > 0 scores at most the opponent's deadwood - d, gin 25 + it).
  An action int carries no cards, and labels belong to the game, not to a state, so the label is the
  layout's number: the knocker's observation (and his advisor's) lists the layouts in action order
  (``arrangements``), and the front ends print them beside their numbers. A knock offers at most
  ``ARRANGE_CAP`` (40) layouts (the first in canonical order); no hand is known to come near it (every
  hand of ranks A-7 enumerated: at most 33). ``auto_arrange=true`` (for simulations) keeps the engine's
  layout instead: minimum deadwood, among equal layouts the one with fewest sets, then a fixed order (gin
  is always laid out so).
- Once laid, both hands are spread: the opponent's hand is shown too.
- Lay-offs: unless gin, the opponent may ``lay off X`` for each card that extends a knocker's run at either
  end (in its suit, A low, K high) or completes a 3-card set, one card per action, also onto runs already
  extended; ``done`` ends the lay-offs. A card fitting both a run and a set goes onto the run. When no card
  can be laid off (at the start or after a lay-off), the lay-offs end by themselves. The opponent's deadwood
  is the minimum deadwood of the cards he has left.
- Scoring: knocker's deadwood < opponent's: knocker scores the difference. Otherwise (not gin) undercut:
  the opponent scores the difference + ``undercut_bonus``. Gin: ``gin_bonus`` + opponent's deadwood, never
  undercut. With three players the team's points go to the captain (and also to the advisor with
  ``team_scoring=both``; not allowed with two players).
- Void hand: when a plain discard leaves 2 (or fewer) cards in the stock, the hand is void: no score,
  same box/dealer, same roles. A knock on that discard is a knock, not a void hand.
- Rotation: box won: box stays, captain and advisor swap. Team won: captain -> box, advisor -> captain,
  box -> advisor.
- End: the match ends after the hand in which someone reaches ``target``, or after ``max_hands`` hands
  (0 = no limit; void hands count). Winners are the players with the highest total (a tie shares the win).
  Bonuses are then added without changing the winners: ``game_bonus`` to each winner, doubled (shutout) if
  no other player won a hand; ``box_bonus`` to every player for each hand he was credited with.
- Everyone sees the discard pile, who drew from where, which cards were taken from the pile (they stay
  known in that hand until discarded), the knock, the spread hands and lay-offs. The stock order is
  hidden. The score sheet holds numbers only. Each move of the hand (``moves``) carries the card it
  showed (``take discard`` the card taken), so the bots' form (cards and actions as ints) says as much.
- Events (``schema.json`` (beside it)): ``deal`` (``deal``, ``dealer``, ``roles``, ``upcard``,
  ``stock_size``; privately each holder's ``hand``, and the team hand to the advisor); ``knock`` once the
  knocker has laid out his melds (after ``arrange N`` when he had a choice) and the hands are spread
  (``knocker``, ``gin``, his ``melds`` as laid, ``deadwood_cards``, ``deadwood``, the ``opponent``, his
  ``opponent_hand`` now shown and its ``opponent_deadwood``); ``deal_scored`` (``deal``, ``dealer``,
  ``result`` knock/gin/undercut/void, ``knocker``, both deadwoods, ``deadwood_difference`` + ``bonus`` =
  the winner's points, ``winner``, ``credited``, ``points``, ``totals``); ``match_bonuses`` at the end
  when a bonus is not zero (``game_bonus``, ``shutout``, ``hands_won``, ``box_bonus``, ``points``,
  ``totals``). Draws, discards, knocks, arrangements and lay-offs are action events; the advisor's
  ``suggest ...`` / ``no suggestion`` show their label to his team only (everyone else sees ``advise``).
- The observation lays the seat's own hand out the best way (``hand_layout``: melds, deadwood cards,
  deadwood), as a knock would; a front end shows it grouped without knowing what a meld is.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final, Self

from cardhall.cards import RANKS, Card, cards_of, format_card, parse_card
from cardhall.core import Action, Game, Observation, Seat, State, derived_rng
from cardhall.errors import InvalidOptionError
from cardhall.games._deal import deal_constrained
from cardhall.games.gin.melds import (
    ARRANGE_CAP,
    CARD_VALUES,
    KNOCK_LIMIT,
    Arrangement,
    arrangements_mask,
    best_melds,
    best_melds_mask,
    deadwood,
    deadwood_mask,
    gin_rank,
    knock_discards,
    layoff_meld,
    layoff_targets,
    melds_within,
)
from cardhall.options import Option

__all__ = ["Arrangement", "Gin", "GinState", "OpponentHand", "best_melds", "deadwood"]

HAND_SIZE: Final = 10
_FULL: Final = (1 << 52) - 1

# Action ints.
DISCARD_BASE: Final = 0
KNOCK_BASE: Final = 52
LAYOFF_BASE: Final = 104
STOCK: Final = 156
TAKE: Final = 157
PASS: Final = 158
DONE: Final = 159
# The knocker's choice of layout: ARRANGE_BASE + i lays out the i-th of the knock's arrangements
# (``arrange i+1``, in the canonical order of melds.arrangements_mask).
ARRANGE_BASE: Final = 160
SUGGEST_BASE: Final = ARRANGE_BASE + ARRANGE_CAP
NO_SUGGESTION: Final = SUGGEST_BASE + SUGGEST_BASE
ACTIONS_TWO: Final = SUGGEST_BASE
ACTIONS_THREE: Final = NO_SUGGESTION + 1

UPCARD, DRAW, DISCARD, ARRANGE, LAYOFF, OVER = "upcard", "draw", "discard", "arrange", "layoff", "over"

_WORDS: Final = {
    ("draw", "stock"): STOCK,
    ("draw",): STOCK,
    ("stock",): STOCK,
    ("take", "discard"): TAKE,
    ("take",): TAKE,
    ("take", "upcard"): TAKE,
    ("take", "up-card"): TAKE,
    ("pick", "up"): TAKE,
    ("pass",): PASS,
    ("decline",): PASS,
    ("done",): DONE,
    ("no", "layoff"): DONE,
    ("no", "lay-off"): DONE,
}


_LABEL: Final = tuple(format_card(c) for c in range(52))


def _suit_table(names: tuple[Any, ...]) -> tuple[tuple[tuple[Any, ...], ...], ...]:
    """``table[suit][13-bit pattern]``: the names (labels or ints) of that suit pattern's cards in gin
    order (A low)."""
    return tuple(
        tuple(tuple(names[13 * s + r] for r in (12, *range(12)) if p >> r & 1) for p in range(1 << 13))
        for s in range(4)
    )


_MOVE_TEXT: Final = (
    *("discard " + c for c in _LABEL),
    *("knock " + c for c in _LABEL),
    *("lay off " + c for c in _LABEL),
    "draw stock",
    "take discard",
    "pass",
    "done",
    *(f"arrange {i + 1}" for i in range(ARRANGE_CAP)),
)
# How an observation names cards and actions, by form: [0] text (labels), [1] the bots' form (ints):
# cards (by card int), the suit tables of _suit_table, and a player's actions (by action int, below
# SUGGEST_BASE).
_CARD_NAMES: Final[tuple[tuple[Any, ...], ...]] = (_LABEL, tuple(range(52)))
_SUIT_NAMES: Final = (_suit_table(_LABEL), _suit_table(tuple(range(52))))
_ACTION_NAMES: Final[tuple[tuple[Any, ...], ...]] = (_MOVE_TEXT, tuple(range(SUGGEST_BASE)))


def _names(mask: int, suits: tuple[tuple[tuple[Any, ...], ...], ...]) -> list[Any]:
    """The cards of a mask, by suit and in gin order (as ``gin_sorted``), named by ``suits``."""
    return [
        *suits[0][mask & 8191],
        *suits[1][mask >> 13 & 8191],
        *suits[2][mask >> 26 & 8191],
        *suits[3][mask >> 39],
    ]


def _labels(mask: int) -> list[str]:
    """Card labels of a mask, by suit and in gin order (for events)."""
    return _names(mask, _SUIT_NAMES[0])


def _mask(cards: list[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


# _SUIT_CARDS[suit][13-bit pattern]: the card ints of that suit pattern, ascending (discard actions).
def _layout(hand: int, suits: Any) -> dict[str, Any]:
    """A hand laid out the best way (a best arrangement: melds, deadwood cards, deadwood), for the
    observation's ``hand_layout``, with cards named as ``suits`` names them."""
    melds, dead, value = best_melds_mask(hand)
    return {
        "melds": [_names(m, suits) for m in melds],
        "deadwood_cards": _names(dead, suits),
        "deadwood": value,
    }


_SUIT_CARDS: Final = tuple(
    tuple(tuple(13 * s + r for r in range(13) if p >> r & 1) for p in range(1 << 13)) for s in range(4)
)

KNOCKER_TRIES: Final = 5000


def arranging_hand(known: int, pool: list[int], size: int, rng: random.Random) -> int:
    """A hand for a knocker choosing his layout, as someone who cannot see it may picture it: ``known``
    (the cards he was seen taking) plus ``size`` cards of ``pool``, with a choice of layouts (at least
    two, within the knock limit, not gin), built from random melds of the pool and low cards. Not a
    uniform draw among such hands, which are too rare to find by dealing at random; raises ValueError
    when the pool holds none (not in practice: ``KNOCKER_TRIES`` tries)."""
    free = 0
    for c in pool:
        free |= 1 << c
    melds = [m for m in melds_within(free | known) if not m & ~free & ~known]
    low = [c for c in pool if CARD_VALUES[c] <= 4]
    target = known.bit_count() + size
    for _ in range(KNOCKER_TRIES):
        hand = known
        for m in rng.sample(melds, min(len(melds), 4)):
            if not m & hand and (hand | m).bit_count() <= target:
                hand |= m
        fill = [c for c in low if not hand >> c & 1]
        rng.shuffle(fill)
        rest = [c for c in pool if not hand >> c & 1]
        rng.shuffle(rest)
        for c in fill + rest:
            if hand.bit_count() >= target:
                break
            hand |= 1 << c
        if deadwood_mask(hand) > 0 and len(arrangements_mask(hand)) >= 2:
            return hand
    raise ValueError("no hand of the unseen cards gives the knocker a choice of layouts")


# What a search bot's opponent model gives Gin.sample_state: the opponent's whole hand (a mask), from
# the state being built (everything public and the observing seat's own hand filled in), the
# opponent's seat, the cards the observing seat has not seen, how many of them he holds, and the RNG.
OpponentHand = Callable[["GinState", int, list[int], int, random.Random], int]


class Gin(Game):
    name = "gin"
    title = "Gin Rummy (three-hand in the box, or two-player)"
    # 2: the knocker chooses how to lay out his melds (issue 17); 3: he may lay out any arrangement within
    # the knock limit, a card kept out of a meld it could join included (gin.md; issue 29)
    rules_version = "3"
    min_players = 2
    max_players = 3
    option_spec = (
        Option("players", 3, "3: box, captain and advisor; 2: ordinary gin", (2, 3)),
        Option("target", 100, "the first player to reach this total wins", None, 1),
        Option(
            "max_hands", 0, "end the match after this many hands, void ones included (0 = no limit)", None, 0
        ),
        Option("allow_same_discard", False, "the card just taken from the pile may be discarded at once"),
        Option("undercut_bonus", 10, "bonus for undercutting the knocker (modern rules: 25)", None, 0),
        Option("gin_bonus", 25, "bonus for going gin (some rules: 20)", None, 0),
        Option(
            "team_scoring",
            "captain",
            "captain: the team's points go to the captain; both: to captain and advisor",
            ("captain", "both"),
        ),
        Option("game_bonus", 0, "bonus to the match winner, doubled on a shutout (e.g. 100)", None, 0),
        Option("box_bonus", 0, "bonus per hand won, added at the end (e.g. 25)", None, 0),
        Option(
            "auto_arrange",
            False,
            "the engine lays out the knocker's melds (its best arrangement) instead of asking him",
        ),
    )

    def _configure(self) -> None:
        self.players = int(self.options["players"])
        self.game_string = str(self)
        self.auto_arrange = bool(self.options["auto_arrange"])
        if self.players == 2 and self.options["team_scoring"] != "captain":
            raise InvalidOptionError(
                f"{self}: bad value {self.options['team_scoring']!r} for option 'team_scoring': "
                "two-player gin has no team (use players=3)"
            )

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def num_distinct_actions(self) -> int:
        return ACTIONS_THREE if self.players == 3 else ACTIONS_TWO

    def deck(self) -> list[Card]:
        return list(range(52))

    def _blank_state(self, seed: int) -> GinState:
        return GinState(self, seed)

    def _action_label(self, action: Action) -> str:
        if action < KNOCK_BASE:
            return "discard " + format_card(action)
        if action < LAYOFF_BASE:
            return "knock " + format_card(action - KNOCK_BASE)
        if action < STOCK:
            return "lay off " + format_card(action - LAYOFF_BASE)
        if action < ARRANGE_BASE:
            return {STOCK: "draw stock", TAKE: "take discard", PASS: "pass", DONE: "done"}[action]
        if action < SUGGEST_BASE:
            return f"arrange {action - ARRANGE_BASE + 1}"
        if action < NO_SUGGESTION:
            return "suggest " + self._action_label(action - SUGGEST_BASE)
        return "no suggestion"

    def _action_info(self, action: Action) -> dict[str, Any]:
        if action < KNOCK_BASE:
            return {"kind": "discard", "card": format_card(action)}
        if action < LAYOFF_BASE:
            return {"kind": "knock", "card": format_card(action - KNOCK_BASE)}
        if action < STOCK:
            return {"kind": "lay_off", "card": format_card(action - LAYOFF_BASE)}
        if action < ARRANGE_BASE:
            return {"kind": {STOCK: "draw", TAKE: "take", PASS: "pass", DONE: "done"}[action]}
        if action < SUGGEST_BASE:
            return {"kind": "arrange", "layout": action - ARRANGE_BASE + 1}
        if action < NO_SUGGESTION:
            return {"kind": "suggest", "suggestion": self._action_info(action - SUGGEST_BASE)}
        return {"kind": "no_suggestion"}

    def _parse_action(self, words: list[str]) -> int | None:
        if words[0] == "suggest":
            if self.players != 3 or len(words) < 2:
                return None
            inner = self._parse_action(words[1:])
            return None if inner is None else SUGGEST_BASE + inner
        if words in (["no", "suggestion"], ["no", "advice"]):
            return NO_SUGGESTION if self.players == 3 else None
        fixed = _WORDS.get(tuple(words))
        if fixed is not None:
            return fixed
        if len(words) == 2 and words[0] == "discard":
            return DISCARD_BASE + parse_card(words[1])
        if len(words) == 2 and words[0] in ("knock", "gin"):
            return KNOCK_BASE + parse_card(words[1])
        if len(words) == 3 and words[:2] == ["lay", "off"]:
            return LAYOFF_BASE + parse_card(words[2])
        if len(words) == 2 and words[0] == "layoff":
            return LAYOFF_BASE + parse_card(words[1])
        if len(words) == 2 and words[0] in ("arrange", "arrangement") and words[1].isdigit():
            i = int(words[1])
            return ARRANGE_BASE + i - 1 if 1 <= i <= ARRANGE_CAP else None
        if len(words) == 1:
            return DISCARD_BASE + parse_card(words[0])
        return None

    # --- search ----------------------------------------------------------------------------------

    def sample_state(
        self, observation: Observation, rng: random.Random, opponent_hand: OpponentHand | None = None
    ) -> GinState:
        """A state the observing seat cannot tell from the real one, built from its observation alone
        (the bots' form, ``ints=True``).

        The score sheet, roles, discard pile, the hand's move log, the knock and the lay-offs are copied;
        the seat's own (or, for the advisor, the team's) hand is kept; the other hand keeps the cards
        everyone saw it take from the pile, and its other cards and the stock (in random order) are dealt
        from the cards the seat has not seen. Future deals come from a fresh seed; the history is empty.

        The opponent's hidden cards are dealt uniformly at random, or, with ``opponent_hand`` (a search
        bot's opponent model, see :data:`OpponentHand`), his hand is the one it chooses; the stock gets
        the rest in random order. Draws from ``rng``: the new seed, then the opponent model's draws (or
        the uniform deal), then the stock's order. While the opponent arranges his melds after a knock
        (phase ``arrange``), his hand must give him that choice: it comes from :func:`arranging_hand`
        instead."""
        o = observation
        seat = o["seat"]
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"{self}: sample_state needs one seat's observation, got seat {seat!r}")
        new = GinState(self, rng.randrange(2**63))
        n = self.players
        new.n = n
        new.allow_same = bool(self.options["allow_same_discard"])
        new.scores_ = list(o["scores"])
        new.hands_won = list(o["hands_won"])
        new.bonuses = list(o["bonuses"])
        new.score_sheet = [dict(row) for row in o["score_sheet"]]
        new.hand_index = len(new.score_sheet)
        new.winners_ = tuple(o["winners"])
        new.role_draw = tuple(tuple(r) for r in o["role_draw"])
        roles = o["roles"]
        if n == 3:
            new.dealer, new.nondealer, new.advisor = roles["box"], roles["captain"], roles["advisor"]
        else:
            new.dealer, new.nondealer, new.advisor = roles["dealer"], roles["non_dealer"], -1
        phase = o["phase"]
        new.phase = phase
        new.current = -1 if o["current"] is None else o["current"]
        new.pile = list(o["discard_pile"])
        new.known = [_mask(k) for k in o["known_cards"]]
        new._clear_log()
        for m in o["moves"]:
            c = m["card"]
            new._log(m["seat"], m["action"], -1 if c is None else c)
        new.upcard_stage = 1 if phase == UPCARD and new.passed_upcard else 0
        banned = o["banned_discard"]
        new.banned = -1 if banned is None else banned
        new.advised = bool(o["advised"])
        suggestion = o["suggestion"]
        new.suggestion = -1 if suggestion is None else suggestion
        knock = o["knock"]
        new.laid_off = []
        new.arrangements = []
        if knock is None:
            # While the knocker arranges his melds nothing is laid yet: he is the player to move.
            new.knocker = new.current if phase == ARRANGE else -1
            new.melds, new.knock_dead, new.knock_value = [], 0, 0
            new.targets = 0
        else:
            new.knocker = knock["seat"]
            new.melds = [_mask(m) for m in knock["melds"]]
            new.knock_dead = _mask(knock["deadwood_cards"])
            new.knock_value = knock["deadwood"]
            new.laid_off = [(x["card"], x["meld"]) for x in knock["layoffs"]]
            new.targets = layoff_targets(new.melds) if phase == LAYOFF else 0
        spread = o["spread_hands"]
        new.spread = spread is not None
        if spread is not None:
            new.hands = [_mask(h) for h in spread]
            seen = 0
            for h in new.hands:
                seen |= h
            for c in new.pile:
                seen |= 1 << c
            for m in new.melds:
                seen |= m
            rest = [c for c in range(52) if not seen >> c & 1]
            rng.shuffle(rest)
            new.stock = rest
            return new
        holder = new.nondealer if seat == new.advisor else seat
        opp = new.dealer if holder == new.nondealer else new.nondealer
        hands = [0] * n
        hands[holder] = _mask(o["hand"])
        new.hands = hands
        new.stock = []
        taken = new.known[opp]
        seen = hands[holder] | taken
        for c in new.pile:
            seen |= 1 << c
        unseen = [c for c in range(52) if not seen >> c & 1]
        size = o["hand_sizes"][opp] - taken.bit_count()
        if phase == ARRANGE and opp == new.knocker:
            # He knocked and has a choice of layouts: his hand must allow it (no opponent model here).
            hand = arranging_hand(taken, unseen, size, rng)
            stock = [c for c in unseen if not hand >> c & 1]
            stock = deal_constrained(stock, [len(stock)], [0], rng)[0]  # in random order
        elif opponent_hand is None:
            dealt = deal_constrained(unseen, [size, len(unseen) - size], [0, 0], rng)
            hand = taken | _mask(dealt[0])
            stock = dealt[1]
        else:
            hand = opponent_hand(new, opp, unseen, size, rng)
            if hand & seen != taken or (hand & ~seen & _FULL).bit_count() != size or hand >> 52:
                raise ValueError(f"{self}: the opponent model dealt a hand inconsistent with the observation")
            stock = [c for c in unseen if not hand >> c & 1]
            stock = deal_constrained(stock, [len(stock)], [0], rng)[0]  # in random order
        hands[opp] = hand
        new.stock = stock
        if phase == ARRANGE:
            new.arrangements = new._arrangements(hands[new.knocker])
        return new


class GinState(State):
    ruleset: Gin

    def __init__(self, game: Gin, seed: int) -> None:
        """A blank match, not dealt: :meth:`start` draws the roles and deals (``clone`` and
        ``sample_state`` fill the state in instead)."""
        super().__init__(game, seed)
        self.ruleset = game
        n = game.players
        self.n = n
        opts = game.options
        self.allow_same = bool(opts["allow_same_discard"])
        self.scores_ = [0] * n
        self.hands_won = [0] * n
        self.bonuses = [0] * n
        self.score_sheet: list[dict[str, Any]] = []
        self.hand_index = 0
        self.role_draw: tuple[tuple[str, ...], ...] = ()
        self.dealer = self.nondealer = self.advisor = -1

    def start(self, deck: list[int] | None) -> None:
        self.stacked_deck = deck
        if self.n == 3:
            self.dealer, self.nondealer, self.advisor = self._draw_roles()
        else:
            self.dealer = derived_rng(self.seed, "first dealer").randrange(2)
            self.nondealer = 1 - self.dealer
            self.advisor = -1
        self._deal(deck)

    def _draw_roles(self) -> tuple[int, int, int]:
        rng = derived_rng(self.seed, "roles")
        rounds = []
        while True:
            drawn = rng.sample(range(52), 3)
            rounds.append(tuple(RANKS[c % 13] for c in drawn))
            keys = [gin_rank(c) for c in drawn]
            if len(set(keys)) == 3:
                break
        self.role_draw = tuple(rounds)
        box, captain, advisor = sorted(range(3), key=lambda s: -keys[s])
        return box, captain, advisor

    # --- dealing ---------------------------------------------------------------------------------

    def _deal(self, deck: list[int] | None) -> None:
        if deck is None:
            deck = list(range(52))
            derived_rng(self.seed, "deal", self.hand_index).shuffle(deck)
        hands = [0] * self.n
        for i in range(2 * HAND_SIZE):
            hands[self.nondealer if i % 2 == 0 else self.dealer] |= 1 << deck[i]
        self.hands = hands
        self.pile = [deck[2 * HAND_SIZE]]
        self.stock = deck[2 * HAND_SIZE + 1 :][::-1]  # top of the stock is the last element
        self.known = [0] * self.n
        self.phase = UPCARD
        self.current = self.nondealer
        self.upcard_stage = 0
        self.banned = -1
        self._clear_log()
        self.advised = False
        self.suggestion = -1
        self.knocker = -1
        # The knock's layouts to choose from while the phase is ARRANGE: (melds, deadwood cards, value).
        self.arrangements: list[tuple[list[int], int, int]] = []
        self.melds: list[int] = []
        self.knock_dead = 0
        self.knock_value = 0
        self.laid_off: list[tuple[int, int]] = []
        self.targets = 0
        self.spread = False
        if self.events is not None:
            self._emit_deal()

    def _emit_deal(self) -> None:
        """The ``deal`` event: who deals, the roles and the up-card; each seat's hand to that seat (the
        team hand to the advisor)."""
        roles: dict[str, int]
        if self.advisor >= 0:
            roles = {"box": self.dealer, "captain": self.nondealer, "advisor": self.advisor}
        else:
            roles = {"dealer": self.dealer, "non_dealer": self.nondealer}
        public = {
            "type": "deal",
            "deal": self.hand_index + 1,
            "dealer": self.dealer,
            "roles": roles,
            "upcard": _LABEL[self.pile[-1]],
            "stock_size": len(self.stock),
            "hand": None,
        }
        private = {s: {"hand": _labels(self.hands[s])} for s in (self.dealer, self.nondealer)}
        if self.advisor >= 0:
            private[self.advisor] = {"hand": _labels(self.hands[self.nondealer])}
        self._emit(public, private)

    def _other(self, seat: Seat) -> int:
        return self.dealer if seat == self.nondealer else self.nondealer

    def _clear_log(self) -> None:
        self.log: list[tuple[int, int, int]] = []  # the hand's moves: (seat, action, card shown or -1)
        # What the log tells, kept as it grows so that a reader never goes through the log again (the
        # RL encoder's card_bits, cardhall.rl.encoders.gin_bits): per seat the cards its moves showed,
        # and the seats (bit s: seat s) that passed on the up-card.
        self.shown_by = [0] * self.n
        self.passed_upcard = 0

    def _log(self, seat: Seat, action: Action, card: int) -> None:
        self.log.append((seat, action, card))
        if card >= 0:
            self.shown_by[seat] |= 1 << card
        if action == PASS:
            self.passed_upcard |= 1 << seat

    # --- Game API --------------------------------------------------------------------------------

    @property
    def to_act(self) -> tuple[Seat, ...]:
        if self.phase == OVER:
            return ()
        if self.advisor >= 0 and self.current == self.nondealer and not self.advised:
            return (self.current, self.advisor)
        return (self.current,)

    def legal_actions_unchecked(self, seat: Seat) -> list[Action]:
        if self.phase == OVER:
            return []
        if seat == self.current:
            return self._own_actions()
        if seat == self.advisor and self.current == self.nondealer and not self.advised:
            return [SUGGEST_BASE + a for a in self._own_actions()] + [NO_SUGGESTION]
        return []

    def _own_actions(self) -> list[int]:
        phase = self.phase
        if phase == DISCARD:
            hand = self.hands[self.current]
            allowed = hand & ~(1 << self.banned) if self.banned >= 0 else hand
            actions = [
                *_SUIT_CARDS[0][allowed & 8191],
                *_SUIT_CARDS[1][allowed >> 13 & 8191],
                *_SUIT_CARDS[2][allowed >> 26 & 8191],
                *_SUIT_CARDS[3][allowed >> 39],
            ]
            knocks = knock_discards(hand) & allowed
            if knocks:
                actions += [KNOCK_BASE + c for c in cards_of(knocks)]
            return actions
        if phase == DRAW:
            return [STOCK, TAKE]
        if phase == UPCARD:
            return [TAKE, PASS]
        if phase == ARRANGE:
            return list(range(ARRANGE_BASE, ARRANGE_BASE + len(self.arrangements)))
        fits = self.hands[self.current] & self.targets
        return [LAYOFF_BASE + c for c in cards_of(fits)] + [DONE]

    def action_audience(self, seat: Seat, action: Action) -> tuple[tuple[int, ...], str] | None:
        """The advisor's ``suggest ...`` and ``no suggestion`` reach his team (captain and advisor) only;
        everyone else sees that he advised."""
        if action >= SUGGEST_BASE:
            return (self.nondealer, self.advisor), "advise"
        return None

    def _why_illegal(self, seat: Seat, action: Action) -> str:
        if action >= SUGGEST_BASE:
            if seat != self.advisor:
                return " (only the advisor makes suggestions)"
            return " (a suggestion must name one of the captain's legal actions, once per decision)"
        if seat == self.advisor:
            return " (the advisor holds no cards; he may only suggest)"
        if self.phase == ARRANGE and action >= ARRANGE_BASE:
            n = len(self.arrangements)
            return f" (this knock can be laid out {n} ways: arrange 1 to arrange {n})"
        if action >= STOCK or self.phase in (UPCARD, DRAW, ARRANGE, LAYOFF):
            return f" (the hand is in its {self.phase} phase)"
        card = action % 52 if action < LAYOFF_BASE else action - LAYOFF_BASE
        if self.phase != DISCARD and action < LAYOFF_BASE:
            return f" (the hand is in its {self.phase} phase)"
        if not self.hands[seat] >> card & 1:
            return f" (seat {seat} does not hold {format_card(card)})"
        if card == self.banned:
            return f" ({format_card(card)} was just taken from the discard pile and may not be discarded now)"
        if action >= KNOCK_BASE:
            left = deadwood_mask(self.hands[seat] & ~(1 << card))
            return f" (deadwood after that discard would be {left}, more than {KNOCK_LIMIT})"
        return ""

    def _apply(self, seat: Seat, action: Action) -> None:
        if action >= SUGGEST_BASE:
            self.advised = True
            self.suggestion = -1 if action == NO_SUGGESTION else action - SUGGEST_BASE
            return
        self.advised = False
        self.suggestion = -1
        phase = self.phase
        if phase == DISCARD:
            if action < KNOCK_BASE:
                self._discard(seat, action)
            else:
                self._knock(seat, action - KNOCK_BASE)
        elif phase == DRAW:
            if action == STOCK:
                self._draw_stock(seat)
            else:
                self._take(seat)
        elif phase == UPCARD:
            if action == TAKE:
                self._take(seat)
            elif self.upcard_stage == 0:
                self._log(seat, PASS, -1)
                self.upcard_stage = 1
                self.current = self.dealer
            else:
                self._log(seat, PASS, -1)
                self._draw_stock(self.nondealer)
        elif phase == ARRANGE:
            self._log(seat, action, -1)
            melds, dead, value = self.arrangements[action - ARRANGE_BASE]
            self.arrangements = []
            self._lay_out(seat, melds, dead, value)
        elif action == DONE:
            self._log(seat, DONE, -1)
            self._score_knock()
        else:
            self._lay_off(seat, action - LAYOFF_BASE)

    # --- moves -----------------------------------------------------------------------------------

    def _take(self, seat: Seat) -> None:
        c = self.pile.pop()
        bit = 1 << c
        self.hands[seat] |= bit
        self.known[seat] |= bit
        self.banned = -1 if self.allow_same else c
        self.phase = DISCARD
        self._log(seat, TAKE, c)

    def _draw_stock(self, seat: Seat) -> None:
        c = self.stock.pop()
        self.hands[seat] |= 1 << c
        self.banned = -1
        self.current = seat
        self.phase = DISCARD
        self._log(seat, STOCK, -1)

    def _remove(self, seat: Seat, c: int) -> None:
        bit = 1 << c
        self.hands[seat] &= ~bit
        self.known[seat] &= ~bit

    def _discard(self, seat: Seat, c: int) -> None:
        self._remove(seat, c)
        self.pile.append(c)
        self.banned = -1
        self._log(seat, DISCARD_BASE + c, c)
        if len(self.stock) <= 2:
            self._finish_hand("void", -1, -1, 0, 0, 0)
            return
        self.current = self._other(seat)
        self.phase = DRAW

    def _knock(self, seat: Seat, c: int) -> None:
        self._remove(seat, c)
        self.pile.append(c)
        self.banned = -1
        self._log(seat, KNOCK_BASE + c, c)
        self.knocker = seat
        hand = self.hands[seat]
        # Gin takes no lay-offs, so how it is laid out changes nothing: no step (the engine's layout).
        if self.ruleset.auto_arrange or deadwood_mask(hand) == 0:
            melds, dead, value = best_melds_mask(hand)
            self._lay_out(seat, melds, dead, value)
            return
        choices = self._arrangements(hand)
        if len(choices) == 1:  # no real choice: no step
            melds, dead, value = choices[0]
            self._lay_out(seat, melds, dead, value)
            return
        self.arrangements = choices
        self.phase = ARRANGE
        self.current = seat

    @staticmethod
    def _arrangements(hand: int) -> list[tuple[list[int], int, int]]:
        """The layouts a knocker holding ``hand`` may choose from (at most ARRANGE_CAP, in canonical
        order)."""
        return arrangements_mask(hand)[:ARRANGE_CAP]

    def _lay_out(self, seat: Seat, melds: list[int], dead: int, value: int) -> None:
        """The knocker lays out his melds: the hands are spread, then lay-offs (or the score, on gin)."""
        melds = list(melds)
        self.melds = melds
        self.knock_dead = dead
        self.knock_value = value
        self.spread = True
        if self.events is not None:
            other = self._other(seat)
            self._emit(
                {
                    "type": "knock",
                    "deal": self.hand_index + 1,
                    "knocker": seat,
                    "gin": value == 0,
                    "melds": [_labels(m) for m in melds],
                    "deadwood_cards": _labels(dead),
                    "deadwood": value,
                    "opponent": other,
                    "opponent_hand": _labels(self.hands[other]),
                    "opponent_deadwood": deadwood_mask(self.hands[other]),
                }
            )
        if value == 0:
            self._score_knock()
            return
        self.phase = LAYOFF
        self.current = self._other(seat)
        self.targets = layoff_targets(melds)
        if not self.hands[self.current] & self.targets:
            self._score_knock()

    def _lay_off(self, seat: Seat, c: int) -> None:
        self._remove(seat, c)
        i = layoff_meld(self.melds, c)
        self.melds[i] |= 1 << c
        self.laid_off.append((c, i))
        self._log(seat, LAYOFF_BASE + c, c)
        self.targets = layoff_targets(self.melds)
        if not self.hands[seat] & self.targets:
            self._score_knock()

    # --- scoring ---------------------------------------------------------------------------------

    def _score_knock(self) -> None:
        opts = self.game.options
        k = self.knocker
        o = self._other(k)
        kd = self.knock_value
        od = deadwood_mask(self.hands[o])
        if kd == 0:
            self._finish_hand("gin", k, k, int(opts["gin_bonus"]) + od, kd, od)
        elif kd < od:
            self._finish_hand("knock", k, k, od - kd, kd, od)
        else:
            self._finish_hand("undercut", k, o, kd - od + int(opts["undercut_bonus"]), kd, od)

    def _finish_hand(self, result: str, knocker: int, winner: int, points: int, kd: int, od: int) -> None:
        opts = self.game.options
        deltas = [0] * self.n
        credited: list[int] = []
        if winner >= 0:
            credited.append(winner)
            if winner == self.nondealer and self.advisor >= 0 and opts["team_scoring"] == "both":
                credited.append(self.advisor)
            for s in credited:
                deltas[s] = points
                self.scores_[s] += points
                self.hands_won[s] += 1
        row: dict[str, Any] = {
            "hand": self.hand_index + 1,
            "dealer": self.dealer,
            "result": result,
            "knocker": None if knocker < 0 else knocker,
            "knocker_deadwood": None if knocker < 0 else kd,
            "opponent_deadwood": None if knocker < 0 else od,
            "winner": None if winner < 0 else winner,
            "points": deltas,
            "totals": list(self.scores_),
        }
        if self.advisor >= 0:
            row["box"], row["captain"], row["advisor"] = self.dealer, self.nondealer, self.advisor
        self.score_sheet.append(row)
        if self.events is not None:
            self._emit(
                {
                    "type": "deal_scored",
                    "deal": self.hand_index + 1,
                    "dealer": self.dealer,
                    "result": result,
                    "knocker": row["knocker"],
                    "knocker_deadwood": row["knocker_deadwood"],
                    "opponent_deadwood": row["opponent_deadwood"],
                    "deadwood_difference": 0 if knocker < 0 else abs(od - kd),
                    "bonus": 0 if knocker < 0 else points - abs(od - kd),
                    "winner": row["winner"],
                    "credited": credited,
                    "points": deltas,
                    "totals": list(self.scores_),
                }
            )
        self.hand_index += 1
        limit = int(opts["max_hands"])
        if max(self.scores_) >= int(opts["target"]) or (limit > 0 and self.hand_index >= limit):
            self._end()
            return
        if winner >= 0:
            if self.advisor >= 0:
                if winner == self.dealer:
                    self.nondealer, self.advisor = self.advisor, self.nondealer
                else:
                    self.dealer, self.nondealer, self.advisor = self.nondealer, self.advisor, self.dealer
            else:
                self.dealer, self.nondealer = self._other(winner), winner
        self._deal(None)

    def _end(self) -> None:
        opts = self.game.options
        self.phase = OVER
        self.current = -1
        top = max(self.scores_)
        self.winners_ = tuple(s for s in range(self.n) if self.scores_[s] == top)
        others = [s for s in range(self.n) if s not in self.winners_]
        game_bonus = int(opts["game_bonus"])
        shutout = bool(others) and all(self.hands_won[s] == 0 for s in others)
        if shutout:
            game_bonus *= 2
        for s in range(self.n):
            bonus = int(opts["box_bonus"]) * self.hands_won[s]
            if s in self.winners_:
                bonus += game_bonus
            self.bonuses[s] = bonus
            self.scores_[s] += bonus
        if self.events is not None and any(self.bonuses):
            box_bonus = int(opts["box_bonus"])
            self._emit(
                {
                    "type": "match_bonuses",
                    "game_bonus": [game_bonus if s in self.winners_ else 0 for s in range(self.n)],
                    "shutout": shutout,
                    "hands_won": list(self.hands_won),
                    "box_bonus": [box_bonus * self.hands_won[s] for s in range(self.n)],
                    "points": list(self.bonuses),
                    "totals": list(self.scores_),
                }
            )

    # --- what a seat sees ------------------------------------------------------------------------

    def _sees(self, seat: Seat | None, holder: int) -> bool:
        return seat is not None and (seat == holder or (seat == self.advisor and holder == self.nondealer))

    def _holder(self, seat: Seat | None) -> int | None:
        """Whose hand ``seat`` sees as its own (the advisor: his captain's)."""
        return self.nondealer if seat == self.advisor else seat

    def _shown_suggestion(self, seat: Seat | None) -> int:
        """The advisor's suggestion if ``seat`` is on his team, else -1."""
        team = self.advisor >= 0 and seat is not None and (seat == self.nondealer or seat == self.advisor)
        return self.suggestion if team else -1

    def _role(self, seat: Seat | None) -> str | None:
        if seat is None:
            return None
        if self.advisor >= 0:
            return ("box", "captain", "advisor")[(self.dealer, self.nondealer, self.advisor).index(seat)]
        return "dealer" if seat == self.dealer else "non-dealer"

    def _observation(self, seat: Seat | None, ints: bool = False) -> Observation:
        form = 1 if ints else 0
        cards = _CARD_NAMES[form]
        suits = _SUIT_NAMES[form]
        actions = _ACTION_NAMES[form]
        advisor = self.advisor
        holder = self._holder(seat)
        suggestion = self._shown_suggestion(seat)
        over = self.phase == OVER
        knock: dict[str, Any] | None = None
        if self.knocker >= 0 and self.phase != ARRANGE:  # nothing is laid while he arranges
            other = self._other(self.knocker)
            knock = {
                "seat": self.knocker,
                "melds": [_names(m, suits) for m in self.melds],
                "deadwood_cards": _names(self.knock_dead, suits),
                "deadwood": self.knock_value,
                "gin": self.knock_value == 0,
                "layoffs": [{"seat": other, "card": cards[c], "meld": i} for c, i in self.laid_off],
                "opponent_deadwood": deadwood_mask(self.hands[other]),
            }
        roles: dict[str, int | None]
        if advisor >= 0:
            roles = {"box": self.dealer, "captain": self.nondealer, "advisor": advisor}
        else:
            roles = {"dealer": self.dealer, "non_dealer": self.nondealer}
        role = self._role(seat)
        opts = self.game.options
        obs: Observation = {
            "game": self.ruleset.game_string,
            "seat": seat,
            "role": role,
            "players": self.n,
            "phase": self.phase,
            "to_act": list(self.to_act),
            "current": None if over else self.current,
            "hand": [] if holder is None else _names(self.hands[holder], suits),
            "roles": roles,
            "role_draw": [list(r) for r in self.role_draw],
            "hand_number": self.hand_index + (0 if over else 1),
            "stock_size": len(self.stock),
            "discard_pile": [cards[c] for c in self.pile],
            "hand_sizes": [h.bit_count() for h in self.hands],
            "known_cards": [_names(k, suits) for k in self.known],
            "banned_discard": cards[self.banned] if self.banned >= 0 else None,
            "upcard_declined_by": [s for s, a, _ in self.log if a == PASS],
            "moves": [
                {"seat": s, "action": actions[a], "card": None if c < 0 else cards[c]} for s, a, c in self.log
            ],
            "advised": self.advised,
            "suggestion": actions[suggestion] if suggestion >= 0 else None,
            "knock": knock,
            "hand_layout": None
            if holder is None or not self.hands[holder]
            else _layout(self.hands[holder], suits),
            "arrangements": (
                [
                    {
                        "melds": [_names(m, suits) for m in melds],
                        "deadwood_cards": _names(dead, suits),
                        "deadwood": value,
                    }
                    for melds, dead, value in self.arrangements
                ]
                if self.phase == ARRANGE and self._sees(seat, self.knocker)
                else None
            ),
            "spread_hands": [_names(h, suits) for h in self.hands] if self.spread else None,
            "scores": list(self.scores_),
            "hands_won": list(self.hands_won),
            "bonuses": list(self.bonuses),
            "score_sheet": [dict(row) for row in self.score_sheet],
            "target": opts["target"],
            "max_hands": opts["max_hands"],
            "is_over": over,
            "winners": list(self.winners_),
        }
        return obs

    def hidden_cards(self, seat: Seat | None) -> set[Card]:
        hidden = 0
        for c in self.stock:
            hidden |= 1 << c
        if not self.spread:
            for s in (self.dealer, self.nondealer):
                if not self._sees(seat, s):
                    hidden |= self.hands[s] & ~self.known[s]
        return set(cards_of(hidden))

    def zones(self) -> dict[str, list[Card]]:
        zones = {f"hand {s}": cards_of(self.hands[s]) for s in range(self.n)}
        zones["stock"] = list(self.stock)
        zones["discard pile"] = list(self.pile)
        zones["laid off"] = [c for c, _ in self.laid_off]
        return zones

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.scores_)

    @property
    def deals_finished(self) -> int:
        """Hands finished so far, void hands included."""
        return self.hand_index

    # --- copies ----------------------------------------------------------------------------------

    def clone(self) -> Self:
        # Every field, by name: a compiled state has no __dict__ to copy wholesale.
        new = type(self)(self.ruleset, self.seed)
        self._copy_common(new)
        new.advised = self.advised
        new.advisor = self.advisor
        new.arrangements = list(self.arrangements)
        new.allow_same = self.allow_same
        new.banned = self.banned
        new.bonuses = list(self.bonuses)
        new.current = self.current
        new.dealer = self.dealer
        new.hand_index = self.hand_index
        new.hands = list(self.hands)
        new.hands_won = list(self.hands_won)
        new.knock_dead = self.knock_dead
        new.knock_value = self.knock_value
        new.knocker = self.knocker
        new.known = list(self.known)
        new.laid_off = list(self.laid_off)
        new.log = list(self.log)
        new.shown_by = list(self.shown_by)
        new.passed_upcard = self.passed_upcard
        new.melds = list(self.melds)
        new.n = self.n
        new.nondealer = self.nondealer
        new.phase = self.phase
        new.pile = list(self.pile)
        new.role_draw = self.role_draw
        new.score_sheet = list(self.score_sheet)
        new.scores_ = list(self.scores_)
        new.spread = self.spread
        new.stock = list(self.stock)
        new.suggestion = self.suggestion
        new.targets = self.targets
        new.upcard_stage = self.upcard_stage
        return new

    def resample(self, seat: Seat, rng: random.Random) -> Self:
        new = self.clone()
        holders = [] if self.spread else [s for s in (self.dealer, self.nondealer) if not self._sees(seat, s)]
        unknown = [self.hands[s] & ~self.known[s] for s in holders]
        cards = [c for m in unknown for c in cards_of(m)] + list(self.stock)
        dealt_to = holders
        arranging = self.phase == ARRANGE and self.knocker in holders
        if arranging:
            # A knocker choosing his layout holds a hand with such a choice (see arranging_hand).
            k = self.knocker
            hidden = self.hands[k] & ~self.known[k]
            new.hands[k] = arranging_hand(self.known[k], cards, hidden.bit_count(), rng)
            cards = [c for c in cards if not new.hands[k] >> c & 1]
            unknown = [m for s, m in zip(holders, unknown, strict=True) if s != k]
            dealt_to = [s for s in holders if s != k]
        sizes = [m.bit_count() for m in unknown] + [len(self.stock)]
        piles = deal_constrained(cards, sizes, [0] * len(sizes), rng)
        for s, pile in zip(dealt_to, piles, strict=False):
            mask = self.known[s]
            for c in pile:
                mask |= 1 << c
            new.hands[s] = mask
        new.stock = piles[-1]
        team = self.nondealer
        if (
            team in holders
            and 0 <= new.suggestion < STOCK
            and not new.hands[team] >> (new.suggestion % 52) & 1
        ):
            new.suggestion = -1  # the re-dealt team hand no longer holds the suggested card
        if arranging:
            new.arrangements = self._arrangements(new.hands[self.knocker])
            if new.suggestion - ARRANGE_BASE >= len(new.arrangements):
                new.suggestion = -1  # the re-dealt hand has fewer layouts than the one suggested
        new.seed = rng.randrange(2**63)
        return new


# --- registration --------------------------------------------------------------------------------
