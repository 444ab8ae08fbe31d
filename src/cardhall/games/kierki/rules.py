"""Kierki: the Polish 12-deal compendium for 4 players — seven negative deals, four trump deals and the
loteryjka (Fan Tan). Each player plays for himself; the match is zero-sum (−2600 against +2600).

Rules: ``rulebook.en.md`` (beside it). Choices this module makes where the rules leave room:

- Seats are numbered in the order of play. Play goes clockwise, so seat ``s + 1`` (mod 4) is the player on
  seat ``s``'s left. The first dealer is drawn from the seed; the deal passes to the left (``dealer + 1``)
  each deal. Cards are dealt one at a time, starting with the player left of the dealer.
- Deals in order: 1 no tricks (−20 per trick), 2 no hearts (−20 per heart), 3 no queens (−60 each),
  4 no kings or jacks (−30 each), 5 no king of hearts (−150), 6 seventh and last trick (−75 each),
  7 robber (every penalty of 1–6 added up per trick, so K♥ costs −20 −30 −150 and the 7th trick −20 −75),
  8–11 trump deals (+25 per trick), 12 loteryjka (+800 first out, +500 second out).
- Negative deals: the player left of the dealer leads; follow suit if able, else any card; no trumps.
  In deals 2, 5 and 7 hearts may not be led unless the leader holds only hearts (a heart may always be
  discarded when void of the suit led). All 13 tricks are played even when every penalty is already taken.
- Trump deals: the dealer gets his first 5 cards (the first 20 cards dealt, one at a time, give each player
  5) and names trump before the other 32 are dealt. While trump is being named every player sees only his
  first 5 cards. ``trump_chooser`` (``dealer`` | ``left_of_dealer``) says who names trump (that player is
  the one who sees only 5 cards); ``trump_leader`` (``dealer`` | ``left_of_dealer``) who leads the first
  trick. Any suit may be named. Follow suit if able, else any card: no duty to trump or overtrump.
- Loteryjka: 13 cards each; ``lottery_starter`` (``dealer`` | ``left_of_dealer``) plays first. A suit is
  opened only with its ``lottery_start_rank`` card (7, or 8 as variant); then the card one rank above the top
  or one below the bottom of that suit's row may be added (up to A, down to 2). A player with a legal card
  must play one (he chooses which); ``pass`` is legal only, and then it is the only action, when he has no
  legal card. Players who are out are skipped. The match ends as soon as the second player is out; the two
  left score 0 for the deal. The lottery can never block: if no suit is open its starter is in some hand.
- Scores: the running totals change at the end of each deal (the observation shows the points of the deal
  in progress, per trick). The highest total wins; players tied for the top all win.
- ``first_deal`` (1–12, default 1) starts the match at a later deal, for practising one contract (and for
  tests, as ``new_game(deck=...)`` stacks the first deal played). Only a match from deal 1 is zero-sum.
- ``last_deal`` (1–12, default 12, at least ``first_deal``) ends the match after that deal: with
  ``first_deal`` it makes a short form of one or a few deals (practice, bot tournaments). The winners are
  then the highest totals over the deals played.
- Events (while a Table listens; ``schema.json`` (beside it)): ``deal`` when a deal starts (``deal``: its
  number in the match, ``deal_number``: which of the 12, ``name``, ``rule``, ``dealer``, ``phase``,
  ``first_to_act``, ``trump_chooser``; ``hand``, each seat's own cards, in deals 8-11 only its first 5);
  ``trump`` when trump is named (``trump``, ``chooser``, ``leader``; ``hand``, each seat's whole hand now
  dealt); ``trick`` when a trick closes (``number``, ``leader``, ``cards``, ``winner``, ``points``, and
  ``items``: the penalties or the +25 it carried, item by item); ``out`` when a player goes out in the
  lottery (``seat``, ``place`` 1 or 2, ``points``); ``deal_scored`` before the next deal (``deal``,
  ``deal_number``, ``name``, ``dealer``, ``points``, ``totals``, ``tricks``, ``trump``,
  ``trump_chooser``, ``out``, and ``breakdown``: per seat every item the deal scores with the count taken
  and its points, adding up to the seat's points). Hands reach their own seat only (null for others).
"""

from __future__ import annotations

import random
from typing import Any, Final, Self

from cardhall.cards import (
    HEARTS,
    JACK,
    KING,
    QUEEN,
    SUIT_MASKS,
    SUIT_NAMES,
    SUITS,
    Card,
    cards_of,
    format_card,
    mask_of,
)
from cardhall.core import Action, Game, Observation, Seat, State, derived_rng, parse_play, play_label
from cardhall.errors import InvalidCardError, InvalidOptionError
from cardhall.games._deal import deal_constrained, shuffle_deck
from cardhall.options import Option

PLAYERS: Final = 4
TRICKS: Final = 13
DEALS: Final = 12
FIRST_FIVE: Final = 5
DECK: Final = list(range(52))

# Action ints: 0..51 play a card, 52..55 name trump (C D H S), 56 pass (loteryjka only).
TRUMP_BASE: Final = 52
PASS: Final = 56
NUM_ACTIONS: Final = 57

TRUMP, PLAY, LOTTERY, OVER = "trump", "play", "lottery", "over"

HEART_MASK: Final = SUIT_MASKS[HEARTS]
ALL_BUT_HEARTS: Final = ((1 << 52) - 1) & ~HEART_MASK
QUEEN_MASK: Final = mask_of(s * 13 + QUEEN for s in range(4))
KING_JACK_MASK: Final = mask_of(s * 13 + r for s in range(4) for r in (KING, JACK))
KING_OF_HEARTS: Final = HEARTS * 13 + KING
KING_OF_HEARTS_BIT: Final = 1 << KING_OF_HEARTS

# (name, penalty rule) of each deal, deal numbers 1..12.
DEAL_INFO: Final = (
    ("no tricks", "-20 per trick"),
    ("no hearts", "-20 per heart; hearts may not be led unless only hearts are held"),
    ("no queens", "-60 per queen"),
    ("no kings or jacks", "-30 per king or jack"),
    ("no king of hearts", "-150 for the king of hearts; hearts may not be led unless only hearts are held"),
    ("7th and last trick", "-75 each for the 7th and the 13th trick"),
    (
        "robber",
        "all penalties of deals 1-6 added up per trick; hearts may not be led unless only hearts are held",
    ),
    ("trumps 1", "+25 per trick; trump named after seeing 5 cards"),
    ("trumps 2", "+25 per trick; trump named after seeing 5 cards"),
    ("trumps 3", "+25 per trick; trump named after seeing 5 cards"),
    ("trumps 4", "+25 per trick; trump named after seeing 5 cards"),
    ("lottery", "+800 for the first player out, +500 for the second; the match ends then"),
)
TRUMP_DEALS: Final = range(8, 12)
LOTTERY_DEAL: Final = 12
HEART_BAN_DEALS: Final = frozenset((2, 5, 7))
TRICK_POINTS: Final = 25
LOTTERY_PRIZES: Final = (800, 500)


# The cards of each 13-bit suit pattern, per suit: ``_cards(mask)`` lists a hand without a bit loop.
_SUIT_CARDS: Final = tuple(
    tuple(tuple(suit * 13 + r for r in range(13) if pattern >> r & 1) for pattern in range(1 << 13))
    for suit in range(4)
)
_LOW13: Final = (1 << 13) - 1
_CLUBS, _DIAMONDS, _HEARTS, _SPADES = _SUIT_CARDS


LABELS: Final = tuple(format_card(c) for c in DECK)
# The ints form of the observation writes each card as itself: IDENT stands where LABELS would.
IDENT: Final = tuple(DECK)
CARD_BITS: Final = tuple(1 << c for c in DECK)
CLEAR_BIT: Final = tuple(~(1 << c) for c in DECK)
NEXT_SEAT: Final = tuple((s + 1) % PLAYERS for s in range(PLAYERS))
SEAT_TUPLES: Final = tuple((s,) for s in range(PLAYERS))
PAIRS: Final = tuple(tuple((s, a) for a in range(NUM_ACTIONS)) for s in range(PLAYERS))
TRUMP_ACTIONS: Final = (TRUMP_BASE, TRUMP_BASE + 1, TRUMP_BASE + 2, TRUMP_BASE + 3)
PASS_ONLY: Final = (PASS,)
# DEAL_PICKS[dealer][seat] picks that seat's 13 cards out of the deck (one card at a time from the
# dealer's left).
DEAL_PICKS: Final = tuple(
    tuple((seat - dealer - 1) % PLAYERS for seat in range(PLAYERS)) for dealer in range(PLAYERS)
)


def display(mask: int, labels: tuple[Any, ...]) -> list[Any]:
    """A hand grouped by suit (C D H S), high rank first (the order of ``sort_for_display``), each card
    as ``labels[card]`` (LABELS: text; IDENT: ints)."""
    label = labels.__getitem__
    return [
        *map(label, reversed(_CLUBS[mask & _LOW13])),
        *map(label, reversed(_DIAMONDS[mask >> 13 & _LOW13])),
        *map(label, reversed(_HEARTS[mask >> 26 & _LOW13])),
        *map(label, reversed(_SPADES[mask >> 39 & _LOW13])),
    ]


def display_labels(mask: int) -> list[str]:
    """A hand as text, grouped by suit (C D H S), high rank first."""
    return display(mask, LABELS)


def _cards(mask: int) -> list[int]:
    """The cards of a bitmask, ascending (a fast :func:`cards_of` for 52-card hands)."""
    return [
        *_CLUBS[mask & _LOW13],
        *_DIAMONDS[mask >> 13 & _LOW13],
        *_HEARTS[mask >> 26 & _LOW13],
        *_SPADES[mask >> 39 & _LOW13],
    ]


def trick_penalty(deal: int, trick_number: int, cards: int) -> int:
    """The points (<= 0) of a trick in a negative deal: ``trick_number`` 1..13, ``cards`` a bitmask."""
    if deal == 7:
        return (
            -20
            - 20 * (cards & HEART_MASK).bit_count()
            - 60 * (cards & QUEEN_MASK).bit_count()
            - 30 * (cards & KING_JACK_MASK).bit_count()
            - (150 if cards & KING_OF_HEARTS_BIT else 0)
            - (75 if trick_number in (7, TRICKS) else 0)
        )
    if deal == 1:
        return -20
    if deal == 2:
        return -20 * (cards & HEART_MASK).bit_count()
    if deal == 3:
        return -60 * (cards & QUEEN_MASK).bit_count()
    if deal == 4:
        return -30 * (cards & KING_JACK_MASK).bit_count()
    if deal == 5:
        return -150 if cards & KING_OF_HEARTS_BIT else 0
    if deal == 6:
        return -75 if trick_number in (7, TRICKS) else 0
    return 0


# What each deal scores, item by item: (item, points for one) per deal 1..12 (index 0 unused). The
# ``deal_scored`` breakdown counts every item of the deal for every seat; a ``trick`` event names the
# items its cards carried.
_NEGATIVE_ITEMS: Final = (
    ("tricks", -20),
    ("hearts", -20),
    ("queens", -60),
    ("kings_and_jacks", -30),
    ("king_of_hearts", -150),
    ("seventh_trick", -75),
    ("last_trick", -75),
)
DEAL_ITEMS: Final = (
    (),
    _NEGATIVE_ITEMS[0:1],
    _NEGATIVE_ITEMS[1:2],
    _NEGATIVE_ITEMS[2:3],
    _NEGATIVE_ITEMS[3:4],
    _NEGATIVE_ITEMS[4:5],
    _NEGATIVE_ITEMS[5:7],
    _NEGATIVE_ITEMS,
    (("tricks", TRICK_POINTS),),
    (("tricks", TRICK_POINTS),),
    (("tricks", TRICK_POINTS),),
    (("tricks", TRICK_POINTS),),
    (("first_out", LOTTERY_PRIZES[0]), ("second_out", LOTTERY_PRIZES[1])),
)


def item_count(item: str, trick_number: int, cards: int) -> int:
    """How many of ``item`` a trick holds: ``trick_number`` 1..13, ``cards`` a bitmask."""
    if item == "tricks":
        return 1
    if item == "hearts":
        return (cards & HEART_MASK).bit_count()
    if item == "queens":
        return (cards & QUEEN_MASK).bit_count()
    if item == "kings_and_jacks":
        return (cards & KING_JACK_MASK).bit_count()
    if item == "king_of_hearts":
        return 1 if cards & KING_OF_HEARTS_BIT else 0
    if item == "seventh_trick":
        return 1 if trick_number == 7 else 0
    if item == "last_trick":
        return 1 if trick_number == TRICKS else 0
    return 0


def trick_items(deal: int, trick_number: int, cards: int) -> list[dict[str, Any]]:
    """The items a trick of deals 1-11 carries (those it holds at least one of), with their points."""
    out = []
    for item, each in DEAL_ITEMS[deal]:
        n = item_count(item, trick_number, cards)
        if n:
            out.append({"item": item, "count": n, "points": n * each})
    return out


_SUIT_WORDS: Final = {
    **{s.lower(): i for i, s in enumerate(SUITS)},
    **{n: i for i, n in enumerate(SUIT_NAMES)},
    **{n[:-1]: i for i, n in enumerate(SUIT_NAMES)},
    "♣": 0,
    "♦": 1,
    "♥": 2,
    "♠": 3,
}


class Kierki(Game):
    name = "kierki"
    title = "Kierki"
    rules_version = "1"
    min_players = PLAYERS
    max_players = PLAYERS
    option_spec = (
        Option(
            "trump_chooser",
            "dealer",
            "who names trump in deals 8-11, after seeing his first 5 cards",
            ("dealer", "left_of_dealer"),
        ),
        Option(
            "trump_leader",
            "dealer",
            "who leads the first trick of deals 8-11",
            ("dealer", "left_of_dealer"),
        ),
        Option("lottery_start_rank", 7, "the rank that opens a suit in the lottery", (7, 8)),
        Option(
            "lottery_starter",
            "dealer",
            "who plays first in the lottery",
            ("dealer", "left_of_dealer"),
        ),
        Option(
            "first_deal",
            1,
            "start the match at this deal (practice; only a match from deal 1 is zero-sum)",
            None,
            1,
            DEALS,
        ),
        Option(
            "last_deal",
            DEALS,
            "end the match after this deal (practice and short bot tournaments)",
            None,
            1,
            DEALS,
        ),
    )

    def _configure(self) -> None:
        o = self.options
        self.chooser_offset = 0 if o["trump_chooser"] == "dealer" else 1
        self.leader_offset = 0 if o["trump_leader"] == "dealer" else 1
        self.starter_offset = 0 if o["lottery_starter"] == "dealer" else 1
        # Rank index (0 = 2) of the card that opens a suit.
        self.start_rank = int(o["lottery_start_rank"]) - 2
        self.game_string = str(self)
        self.last_deal = int(o["last_deal"])
        if self.last_deal < int(o["first_deal"]):
            raise InvalidOptionError(
                f"{self}: last_deal={self.last_deal} comes before first_deal={o['first_deal']}"
            )

    @property
    def num_players(self) -> int:
        return PLAYERS

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def deck(self) -> list[Card]:
        return list(DECK)

    def _blank_state(self, seed: int) -> KierkiState:
        return KierkiState(self, seed)

    def _action_label(self, action: Action) -> str:
        if action < TRUMP_BASE:
            return play_label(action)
        if action < PASS:
            return "trump " + SUITS[action - TRUMP_BASE]
        return "pass"

    def _action_info(self, action: Action) -> dict[str, Any]:
        if action < TRUMP_BASE:
            return {"kind": "play", "card": format_card(action)}
        if action < PASS:
            return {"kind": "trump", "suit": SUITS[action - TRUMP_BASE]}
        return {"kind": "pass"}

    def _parse_action(self, words: list[str]) -> int | None:
        if words == ["pass"]:
            return PASS
        if words[0] == "trump" and len(words) == 2:
            suit = _SUIT_WORDS.get(words[1])
            return None if suit is None else TRUMP_BASE + suit
        try:
            return parse_play(words)
        except InvalidCardError:
            return None

    # --- search: a full state from one seat's observation (bots) ------------------------------

    def sample_state(self, observation: Observation, rng: random.Random) -> KierkiState:
        """A state the observing seat cannot tell from the real one, built from its observation alone
        (the ints form).

        The score sheet and the current deal's public history (trump, tricks, the trick on the table,
        the lottery plays and passes) are replayed on a deal that gives every seat the cards it was seen
        to play; ``resample`` then re-deals the cards the seat cannot know (shown voids, a heart lead
        under the ban and lottery passes respected; while trump is named, everything but the seat's own
        first five) and future deals come from a fresh seed. The history of the sampled state is empty.
        """
        seat = observation["seat"]
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < PLAYERS:
            raise ValueError(f"{self}: sample_state needs one seat's observation, got seat {seat!r}")
        state, actions = self._rebuild(observation, None, rng.randrange(2**63))
        for s, a in actions:
            state._apply(s, a)
        return state.resample(seat, rng)

    def deal_replay(
        self, observation: Observation, sampled: State
    ) -> tuple[KierkiState, list[tuple[Seat, Action]]] | None:
        """``sampled`` (a state drawn from ``observation``, as :meth:`sample_state` gives) rewound to the
        start of the deal in hand, every seat holding what it held then (its cards now, those still to
        be dealt while trump is named, and those it was seen to play), and the public actions of the
        deal since (trump, plays, lottery passes), for an opponent model to replay (the expert bot's
        inference); nothing is applied."""
        assert isinstance(sampled, KierkiState)
        held = [cards_of(sampled.hands[s]) + cards_of(sampled.pending[s]) for s in range(PLAYERS)]
        return self._rebuild(observation, held, sampled.seed)

    def _rebuild(
        self, o: Observation, held: list[list[int]] | None, seed: int
    ) -> tuple[KierkiState, list[tuple[Seat, Action]]]:
        """A state at the start of the observed deal (the score sheet as it was then) whose hands are
        ``held[seat]`` plus the cards each seat was seen to play this deal (None: the observing seat's
        hand, the other seats filled from the unseen cards), and the deal's public actions since."""
        seat = o["seat"]
        sheet = [dict(row) for row in o["score_sheet"]]
        totals = list(o["scores"])
        if o["phase"] == OVER:
            # Rebuild the last deal too: replaying its last play scores it again.
            last = sheet.pop()
            totals = [t - p for t, p in zip(last["totals"], last["points"], strict=True)]
        state = KierkiState(self, seed)
        state.scores_ = totals
        state.score_sheet = sheet
        state.deals_done = len(sheet)
        state.deal = o["deal_number"]
        state.dealer = o["dealer"]
        state.winners_ = ()
        hands: list[list[int]] = [[] for _ in range(PLAYERS)]
        plays: list[tuple[int, int]] = []
        if state.deal == LOTTERY_DEAL:
            for p in o["lottery_plays"]:
                action = PASS if p["card"] is None else p["card"]
                plays.append((p["seat"], action))
                if action != PASS:
                    hands[p["seat"]].append(action)
        else:
            for t in o["tricks"]:
                plays += [(p["seat"], p["card"]) for p in t["cards"]]
            plays += [(p["seat"], p["card"]) for p in o["trick"]]
            for s, c in plays:
                hands[s].append(c)
        if held is not None:
            # What is held now goes first: while trump is named the first five are in hand.
            hands = [[*held[s], *hands[s]] for s in range(PLAYERS)]
        else:
            # While trump is named only the first five cards are in hand: they go first in the deal.
            hands[seat] = [*o["hand"], *hands[seat]]
            known = 0
            for h in hands:
                for c in h:
                    known |= 1 << c
            rest = [c for c in DECK if not known >> c & 1]
            for s in range(PLAYERS):
                take = TRICKS - len(hands[s])
                hands[s] += rest[:take]
                del rest[:take]
        deck = [0] * len(DECK)
        for s in range(PLAYERS):
            offset = (s - state.dealer - 1) % PLAYERS
            for j, c in enumerate(hands[s]):
                deck[PLAYERS * j + offset] = c
        state._start_deal(deck)
        actions: list[tuple[int, int]] = []
        if o["trump"] is not None:
            actions.append((o["trump_chooser"], TRUMP_BASE + SUITS.index(o["trump"])))
        return state, actions + plays


class KierkiState(State):
    """One match of Kierki. Hands are bitmasks; ``trick`` lists ``(seat, card)`` of the current trick.

    ``to_act`` and ``is_over`` are plain attributes kept up to date by every change of turn, so the
    loops of bots and simulations read them without a call.
    """

    ruleset: Kierki
    to_act: tuple[int, ...] = ()
    is_over: bool = False

    def __init__(self, game: Kierki, seed: int) -> None:
        """A blank match at its first deal, not dealt: :meth:`start` deals it (``clone`` and
        ``sample_state`` fill the state in instead)."""
        super().__init__(game, seed)
        self.ruleset = game
        self.scores_ = [0] * PLAYERS
        self.score_sheet: list[dict[str, Any]] = []
        self.deal = int(game.options["first_deal"])
        self.dealer = 0
        self.deals_done = 0

    def start(self, deck: list[int] | None) -> None:
        self.stacked_deck = deck
        self.dealer = derived_rng(self.seed, "first dealer").randrange(PLAYERS)
        self._start_deal(deck)

    # --- dealing --------------------------------------------------------------------------------

    def _start_deal(self, deck: list[int] | None) -> None:
        if deck is None:
            deck = list(DECK)
            shuffle_deck(deck, derived_rng(self.seed, "deal", self.deal))
        dealer = self.dealer
        bit = CARD_BITS.__getitem__
        hands = [sum(map(bit, deck[offset::PLAYERS])) for offset in DEAL_PICKS[dealer]]
        self.hands = hands
        self.pending = [0] * PLAYERS  # cards not yet dealt (trump deals, while trump is named)
        self.trick: list[tuple[int, int]] = []
        self.tricks: list[tuple[int, tuple[tuple[int, int], ...], int, int]] = []
        self.tricks_won = [0] * PLAYERS
        self.deal_points = [0] * PLAYERS
        self.excluded = [0] * PLAYERS  # cards each seat has shown it cannot hold (for resample)
        self.trump = -1
        self.chooser = -1
        self.trick_mask = 0
        # Lottery: lowest and highest rank laid per suit (-1 when the suit is not open).
        self.low = [-1] * 4
        self.high = [-1] * 4
        self.lottery_open = 0
        self.lottery_log: list[tuple[int, int]] = []
        self.out: list[int] = []
        self.heart_ban = self.deal in HEART_BAN_DEALS
        self.best_seat = self.best_key = -1  # the card winning the trick so far
        if self.deal in TRUMP_DEALS:
            first = [0] * PLAYERS
            for i, c in enumerate(deck[: FIRST_FIVE * PLAYERS]):
                first[(dealer + 1 + i) % PLAYERS] |= 1 << c
            self.pending = [hands[s] & ~first[s] for s in range(PLAYERS)]
            self.hands = first
            self.phase = TRUMP
            self.chooser = self.current = (dealer + self.ruleset.chooser_offset) % PLAYERS
        elif self.deal == LOTTERY_DEAL:
            self.phase = LOTTERY
            start = self.ruleset.start_rank
            self.lottery_open = mask_of(s * 13 + start for s in range(4))
            self.current = (dealer + self.ruleset.starter_offset) % PLAYERS
        else:
            self.phase = PLAY
            self.current = (dealer + 1) % PLAYERS
        self.leader = self.current if self.phase == PLAY else -1
        self.to_act = SEAT_TUPLES[self.current]
        self.led = -1  # the suit led to the current trick
        if self.events is not None:
            name, rule = DEAL_INFO[self.deal - 1]
            self._emit(
                {
                    "type": "deal",
                    "deal": self.deals_done + 1,
                    "deal_number": self.deal,
                    "name": name,
                    "rule": rule,
                    "dealer": dealer,
                    "phase": self.phase,
                    "first_to_act": self.current,
                    "trump_chooser": None if self.chooser < 0 else self.chooser,
                    "hand": None,
                },
                {s: {"hand": display_labels(self.hands[s])} for s in range(PLAYERS)},
            )

    # --- who acts and what they may do ------------------------------------------------------------

    def legal_actions_unchecked(self, seat: Seat) -> list[Action]:
        if seat != self.current:  # -1 once the match is over
            return []
        phase = self.phase
        if phase == PLAY:
            hand = self.hands[seat]
            led = self.led
            if led >= 0:
                follow = hand >> (13 * led) & _LOW13
                if follow:
                    return list(_SUIT_CARDS[led][follow])
                return _cards(hand)
            if self.heart_ban:
                return _cards(hand & ~HEART_MASK or hand)
            return _cards(hand)
        if phase == LOTTERY:
            playable = self.hands[seat] & self.lottery_open
            return _cards(playable) if playable else list(PASS_ONLY)
        return list(TRUMP_ACTIONS)

    def _playable(self, seat: Seat) -> int:
        hand = self.hands[seat]
        if self.trick:
            follow = hand & SUIT_MASKS[self.led]
            return follow or hand
        if self.heart_ban:
            return hand & ~HEART_MASK or hand
        return hand

    def _why_illegal(self, seat: Seat, action: Action) -> str:
        if action < TRUMP_BASE:
            if self.phase == TRUMP:
                return " (trump must be named first)"
            if not self.hands[seat] >> action & 1:
                return f" (seat {seat} does not hold {format_card(action)})"
            if self.phase == LOTTERY:
                return f" ({format_card(action)} does not fit the layout)"
            if self.trick:
                return f" (must follow {SUIT_NAMES[self.trick[0][1] // 13]})"
            return " (hearts may not be led while other suits are held)"
        if action < PASS:
            return " (trump is named only by the chooser before play in deals 8-11)"
        if self.phase == LOTTERY:
            return " (a player may pass only when he has no card to lay)"
        return " (passing exists only in the lottery)"

    def apply_unchecked(self, seat: Seat, action: Action) -> None:
        if self.phase == PLAY:  # the common case, without the dispatch of _apply
            self._play(seat, action)
        else:
            self._apply(seat, action)
        self.history.append(PAIRS[seat][action])

    def _apply(self, seat: Seat, action: Action) -> None:
        if self.phase == PLAY:
            self._play(seat, action)
        elif self.phase == LOTTERY:
            self._lay(seat, action)
        else:
            self.trump = action - TRUMP_BASE
            for s in range(PLAYERS):
                self.hands[s] |= self.pending[s]
            self.pending = [0] * PLAYERS
            self.phase = PLAY
            self.leader = self.current = (self.dealer + self.ruleset.leader_offset) % PLAYERS
            self.to_act = SEAT_TUPLES[self.current]
            if self.events is not None:
                self._emit(
                    {
                        "type": "trump",
                        "trump": SUITS[self.trump],
                        "chooser": seat,
                        "leader": self.leader,
                        "hand": None,
                    },
                    {s: {"hand": display_labels(self.hands[s])} for s in range(PLAYERS)},
                )

    def _play(self, seat: Seat, card: int) -> None:
        trick = self.trick
        suit = card // 13
        if trick:
            led = self.led
            if suit == self.trump:
                if 100 + card > self.best_key:
                    self.best_seat, self.best_key = seat, 100 + card
            elif suit == led and card > self.best_key:
                self.best_seat, self.best_key = seat, card
            if suit != led:
                self.excluded[seat] |= SUIT_MASKS[led]
        else:
            self.led = suit
            if suit == HEARTS and self.heart_ban:
                self.excluded[seat] |= ALL_BUT_HEARTS  # he held only hearts
            self.best_seat, self.best_key = seat, (100 + card if suit == self.trump else card)
        self.hands[seat] &= CLEAR_BIT[card]
        trick.append(PAIRS[seat][card])
        self.trick_mask |= CARD_BITS[card]
        if len(trick) < PLAYERS:
            self.current = nxt = NEXT_SEAT[seat]
            self.to_act = SEAT_TUPLES[nxt]
            return
        winner = self.best_seat
        number = len(self.tricks) + 1
        points = trick_penalty(self.deal, number, self.trick_mask) if self.deal < 8 else TRICK_POINTS
        self.tricks.append((self.leader, tuple(trick), winner, points))
        if self.events is not None:
            self._emit(
                {
                    "type": "trick",
                    "number": number,
                    "leader": self.leader,
                    "cards": [{"seat": s, "card": LABELS[c]} for s, c in trick],
                    "winner": winner,
                    "points": points,
                    "items": trick_items(self.deal, number, self.trick_mask),
                }
            )
        self.tricks_won[winner] += 1
        self.deal_points[winner] += points
        self.trick = []
        self.trick_mask = 0
        self.led = -1
        self.leader = self.current = winner
        self.to_act = SEAT_TUPLES[winner]
        if number == TRICKS:
            self._end_deal()

    def _lay(self, seat: Seat, action: Action) -> None:
        self.lottery_log.append((seat, action))
        if action == PASS:
            self.excluded[seat] |= self.lottery_open
        else:
            suit, rank = divmod(action, 13)
            self.hands[seat] &= ~(1 << action)
            base = suit * 13
            if self.low[suit] < 0:
                self.low[suit] = self.high[suit] = rank
            elif rank < self.low[suit]:
                self.low[suit] = rank
            else:
                self.high[suit] = rank
            self.lottery_open &= ~SUIT_MASKS[suit]
            if self.low[suit] > 0:
                self.lottery_open |= 1 << (base + self.low[suit] - 1)
            if self.high[suit] < 12:
                self.lottery_open |= 1 << (base + self.high[suit] + 1)
            if not self.hands[seat]:
                self.deal_points[seat] = LOTTERY_PRIZES[len(self.out)]
                self.out.append(seat)
                if self.events is not None:
                    self._emit(
                        {
                            "type": "out",
                            "seat": seat,
                            "place": len(self.out),
                            "points": self.deal_points[seat],
                        }
                    )
                if len(self.out) == len(LOTTERY_PRIZES):
                    self._end_deal()
                    return
        nxt = NEXT_SEAT[seat]
        while not self.hands[nxt]:
            nxt = NEXT_SEAT[nxt]
        self.current = nxt
        self.to_act = SEAT_TUPLES[nxt]

    def _end_deal(self) -> None:
        for s in range(PLAYERS):
            self.scores_[s] += self.deal_points[s]
        row: dict[str, Any] = {
            "deal": self.deal,
            "name": DEAL_INFO[self.deal - 1][0],
            "dealer": self.dealer,
            "points": list(self.deal_points),
            "totals": list(self.scores_),
        }
        if self.deal in TRUMP_DEALS:
            row["trump"] = SUITS[self.trump]
            row["trump_chooser"] = self.chooser
        if self.deal == LOTTERY_DEAL:
            row["out"] = list(self.out)
        else:
            row["tricks"] = list(self.tricks_won)
        self.score_sheet.append(row)
        self.deals_done += 1
        if self.events is not None:
            self._emit(
                {
                    "type": "deal_scored",
                    "deal": self.deals_done,
                    "deal_number": self.deal,
                    "name": row["name"],
                    "dealer": self.dealer,
                    "points": list(self.deal_points),
                    "totals": list(self.scores_),
                    "tricks": None if self.deal == LOTTERY_DEAL else list(self.tricks_won),
                    "trump": None if self.trump < 0 else SUITS[self.trump],
                    "trump_chooser": None if self.chooser < 0 else self.chooser,
                    "out": list(self.out) if self.deal == LOTTERY_DEAL else None,
                    "breakdown": self._breakdown(),
                }
            )
        if self.deal >= self.ruleset.last_deal:
            self.phase = OVER
            self.is_over = True
            self.current = -1
            self.to_act = ()
            top = max(self.scores_)
            self.winners_ = tuple(s for s in range(PLAYERS) if self.scores_[s] == top)
            return
        self.deal += 1
        self.dealer = (self.dealer + 1) % PLAYERS
        self._start_deal(None)

    def _breakdown(self) -> list[list[dict[str, Any]]]:
        """Per seat, every item the deal scores: how many the seat took (or, in the lottery, whether it
        went out first or second) and the points they made."""
        items = DEAL_ITEMS[self.deal]
        counts = [[0] * len(items) for _ in range(PLAYERS)]
        if self.deal == LOTTERY_DEAL:
            for place, s in enumerate(self.out):
                counts[s][place] = 1
        else:
            for number, (_, plays, winner, _) in enumerate(self.tricks, 1):
                mask = 0
                for _, c in plays:
                    mask |= CARD_BITS[c]
                row = counts[winner]
                for i, (item, _) in enumerate(items):
                    row[i] += item_count(item, number, mask)
        return [
            [
                {"item": item, "count": n, "points": n * each}
                for (item, each), n in zip(items, counts[s], strict=True)
            ]
            for s in range(PLAYERS)
        ]

    # --- what a seat sees -----------------------------------------------------------------------

    def _observation(self, seat: Seat | None, ints: bool = False) -> Observation:
        labels = IDENT if ints else LABELS
        low, high = self.low, self.high
        deal_name, deal_rule = DEAL_INFO[self.deal - 1]
        obs: Observation = {
            "game": self.ruleset.game_string,
            "seat": seat,
            "phase": self.phase,
            "deal_number": self.deal,
            "deal_name": deal_name,
            "deal_rule": deal_rule,
            "dealer": self.dealer,
            "to_act": list(self.to_act),
            "hand": display(self.hands[seat], labels) if seat is not None else [],
            "hand_sizes": [h.bit_count() for h in self.hands],
            "trump": None if self.trump < 0 else SUITS[self.trump],
            "trump_chooser": None if self.chooser < 0 else self.chooser,
            "leader": None if self.leader < 0 else self.leader,
            "trick": [{"seat": s, "card": labels[c]} for s, c in self.trick],
            "tricks": [
                {
                    "leader": lead,
                    "cards": [{"seat": s, "card": labels[c]} for s, c in cards],
                    "winner": w,
                    "points": p,
                }
                for lead, cards, w, p in self.tricks
            ],
            "tricks_won": self.tricks_won[:],
            "deal_points": self.deal_points[:],
            "layout": [
                None if low[s] < 0 else {"low": labels[s * 13 + low[s]], "high": labels[s * 13 + high[s]]}
                for s in range(4)
            ],
            "lottery_plays": [
                {"seat": s, "card": None if a == PASS else labels[a]} for s, a in self.lottery_log
            ],
            "out": self.out[:],
            "scores": self.scores_[:],
            "score_sheet": [row.copy() for row in self.score_sheet],
            "is_over": self.is_over,
            "winners": list(self.winners_),
        }
        return obs

    def hidden_cards(self, seat: Seat | None) -> set[Card]:
        hidden = 0
        for s in range(PLAYERS):
            hidden |= self.pending[s]
            if s != seat:
                hidden |= self.hands[s]
        return set(cards_of(hidden))

    def zones(self) -> dict[str, list[Card]]:
        zones = {f"hand {s}": cards_of(self.hands[s]) for s in range(PLAYERS)}
        zones["undealt"] = [c for s in range(PLAYERS) for c in cards_of(self.pending[s])]
        zones["trick"] = [c for _, c in self.trick]
        zones["taken"] = [c for _, cards, _, _ in self.tricks for _, c in cards]
        zones["layout"] = [
            s * 13 + r for s in range(4) if self.low[s] >= 0 for r in range(self.low[s], self.high[s] + 1)
        ]
        return zones

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.scores_)

    @property
    def deals_finished(self) -> int:
        return self.deals_done

    # --- copies ---------------------------------------------------------------------------------

    def clone(self) -> Self:
        # Every field, by name: a compiled state has no __dict__ to copy wholesale.
        new = type(self)(self.ruleset, self.seed)
        self._copy_common(new)
        new.scores_ = list(self.scores_)
        new.score_sheet = list(self.score_sheet)
        new.deal = self.deal
        new.dealer = self.dealer
        new.deals_done = self.deals_done
        new.is_over = self.is_over
        new.to_act = self.to_act
        new.hands = list(self.hands)
        new.pending = list(self.pending)
        new.trick = list(self.trick)
        new.tricks = list(self.tricks)
        new.tricks_won = list(self.tricks_won)
        new.deal_points = list(self.deal_points)
        new.excluded = list(self.excluded)
        new.trump = self.trump
        new.chooser = self.chooser
        new.trick_mask = self.trick_mask
        new.low = list(self.low)
        new.high = list(self.high)
        new.lottery_open = self.lottery_open
        new.lottery_log = list(self.lottery_log)
        new.out = list(self.out)
        new.heart_ban = self.heart_ban
        new.best_seat = self.best_seat
        new.best_key = self.best_key
        new.phase = self.phase
        new.current = self.current
        new.leader = self.leader
        new.led = self.led
        return new

    def resample(self, seat: Seat, rng: random.Random) -> Self:
        new = self.clone()
        others = [s for s in range(PLAYERS) if s != seat]
        if self.phase == TRUMP:
            # Only the seat's first 5 cards are known: everyone else's 5 and all 32 undealt are not.
            unknown = [c for s in others for c in cards_of(self.hands[s])]
            unknown += [c for s in range(PLAYERS) for c in cards_of(self.pending[s])]
            sizes = [self.hands[s].bit_count() for s in others]
            sizes += [self.pending[s].bit_count() for s in range(PLAYERS)]
            piles = deal_constrained(unknown, sizes, [0] * len(sizes), rng)
            for s, pile in zip(others, piles, strict=False):
                new.hands[s] = mask_of(pile)
            for s in range(PLAYERS):
                new.pending[s] = mask_of(piles[len(others) + s])
        elif self.phase != OVER:
            unknown = [c for s in others for c in cards_of(self.hands[s])]
            piles = deal_constrained(
                unknown,
                [self.hands[s].bit_count() for s in others],
                [self.excluded[s] for s in others],
                rng,
            )
            for s, pile in zip(others, piles, strict=True):
                new.hands[s] = mask_of(pile)
        new.seed = rng.randrange(2**63)
        return new


# --- registration --------------------------------------------------------------------------------
