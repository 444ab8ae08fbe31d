"""Hokm Egbari (compulsory Hokm): 3 players, 30 cards, every player bids, each scores his own contract.

Rules: ``rulebook.en.md`` (beside it). Choices this module makes:

- Seats are numbered in the order of play. Play goes counter-clockwise, so seat ``s + 1`` (mod 3) is the
  player on seat ``s``'s right: it bids and plays after ``s`` and deals the hand after ``s`` has dealt.
- The first dealer is drawn from the seed. The deal is literal: packets of 3, 2, 3, 2 to each player in
  turn, starting on the dealer's right.
- Bidding is one compulsory round from the dealer's right to the dealer: ``bid bas`` (= 2) … ``bid 9``,
  ``bid kaboot`` (= 10). The highest contract names trump; a tie goes to the earlier bidder. With
  ``bidding=auction`` each bid must beat the highest so far, except Bas, which is always allowed.
- ``must_trump_when_void``: a player who cannot follow must trump if he holds a trump.
  ``must_overtrump``: a trump played to a trick that already holds a trump must beat it if the player
  holds one that can; it does not by itself oblige a void player to trump.
- Scoring per player against his own contract: made (tricks >= contract) +10 x contract, failed
  -10 x contract; Kaboot made +200, failed ``kaboot_fail`` (-100). ``overtricks=count`` scores a made
  contract of 2 to 9 as +10 x tricks taken (a 9 that takes all ten tricks: +100) while a made Kaboot
  stays +200, as hokm.md says; ``overtricks=exact`` fails a contract beaten by overtricks.
- The match ends after a hand in which someone has >= ``target``; highest total wins, and an exact tie for
  the top plays another hand. ``max_hands`` (0 = no limit) also ends the match after that many hands,
  with the same tie rule: players who want a fixed-length game ask for it, and random play (which
  drifts below zero) still finishes.
- Events (while a Table listens; cards as text): ``deal`` {``deal`` (1-based hand number), ``dealer``;
  private ``hand`` per seat} as a hand is dealt; ``declarer`` {``seat``, ``contract``} when bidding closes
  (the seat that names trump, and its contract); ``trick`` {``leader``, ``cards``, ``winner``} as a trick
  closes; ``deal_scored`` {``deal``, ``points``, ``totals``, ``declarer``, ``trump``, ``contracts``,
  ``tricks``, ``made``, each per seat where it is a list} when a hand is scored, before the next is dealt.
  Bids and the naming of trump are actions (the Table logs them).
- Observation: the text form and the form bots read (``ints=True``: every card as its int; trump stays
  its suit letter) come from one code path; the schema is ``schema.json`` (beside it).
"""

from __future__ import annotations

import random
from operator import itemgetter
from typing import Any, Final, Self

from cardhall.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    EIGHT,
    HEARTS,
    JACK,
    KING,
    NINE,
    QUEEN,
    SEVEN,
    SPADES,
    SUIT_MASKS,
    SUITS,
    TEN,
    Card,
    cards_of,
    format_card,
    mask_of,
)
from cardhall.core import Action, Game, Observation, Seat, State, derived_rng, parse_play, play_label
from cardhall.errors import InvalidCardError
from cardhall.games._deal import deal_constrained, shuffle_deck
from cardhall.options import Option

PLAYERS: Final = 3
HAND_SIZE: Final = 10
TRICKS: Final = 10
KABOOT: Final = 10
CONTRACTS: Final = tuple(range(2, KABOOT + 1))

DECK: Final = sorted(
    [s * 13 + r for s in (CLUBS, SPADES) for r in (SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE)]
    + [s * 13 + r for s in (HEARTS, DIAMONDS) for r in (EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE)]
)
DECK_MASK: Final = mask_of(DECK)

# Strength of each rank (higher wins), in the trump suit and in the other suits.
TRUMP_RANKING: Final = (SEVEN, EIGHT, QUEEN, KING, TEN, ACE, NINE, JACK)
PLAIN_RANKING: Final = (SEVEN, EIGHT, NINE, JACK, QUEEN, KING, TEN, ACE)
TRUMP_STRENGTH: Final = [0] * 13
PLAIN_STRENGTH: Final = [0] * 13
for _i, _r in enumerate(TRUMP_RANKING):
    TRUMP_STRENGTH[_r] = _i + 1
for _i, _r in enumerate(PLAIN_RANKING):
    PLAIN_STRENGTH[_r] = _i + 1

# Action ints: 0..51 play a card, then the nine contracts, then the four trump suits.
BID_BASE: Final = 52
TRUMP_BASE: Final = BID_BASE + len(CONTRACTS)
NUM_ACTIONS: Final = TRUMP_BASE + 4

PACKETS: Final = (3, 2, 3, 2)

BIDDING, TRUMP, PLAY, OVER = "bidding", "trump", "play", "over"

# --- precomputed tables for the hot paths (random play and search call these millions of times) ---

# Cards of one suit's 8 Hokm ranks (7..A = ranks 5..12) as a byte: SUIT_CARDS[suit][byte] lists them
# ascending, so a hand mask becomes its sorted card list with four lookups and no loop.
_LOW_RANK: Final = SEVEN
SUIT_SHIFT: Final = tuple(13 * s + _LOW_RANK for s in range(4))
SUIT_CARDS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(SUIT_SHIFT[s] + b for b in range(8) if byte >> b & 1) for byte in range(256))
    for s in range(4)
)
CLEAR_BIT: Final = tuple(~(1 << c) for c in range(52))
NEXT_SEAT: Final = tuple((s + 1) % PLAYERS for s in range(PLAYERS))
SEAT_TUPLES: Final = tuple((s,) for s in range(PLAYERS))
# (seat, action) pairs, shared instead of allocated on every action.
PAIRS: Final = tuple(tuple((s, a) for a in range(NUM_ACTIONS)) for s in range(PLAYERS))
# TRICK_KEYS[trump * 4 + led][card]: the card's strength in a trick (trumps above the led suit, the
# other suits -1), so the winner is the highest key.
TRICK_KEYS: Final = tuple(
    tuple(
        100 + TRUMP_STRENGTH[c % 13] if c // 13 == trump else PLAIN_STRENGTH[c % 13] if c // 13 == led else -1
        for c in range(52)
    )
    for trump in range(4)
    for led in range(4)
)
# DEAL_SEATS[dealer][position]: who receives the card at that position of the deck (packets 3-2-3-2);
# DEAL_PICKS[dealer][seat] picks that seat's ten cards out of the deck in one call.
DEAL_SEATS: Final = tuple(
    tuple((dealer + k) % PLAYERS for packet in PACKETS for k in range(1, PLAYERS + 1) for _ in range(packet))
    for dealer in range(PLAYERS)
)
DEAL_PICKS: Final = tuple(
    tuple(
        itemgetter(*(pos for pos, s in enumerate(DEAL_SEATS[dealer]) if s == seat)) for seat in range(PLAYERS)
    )
    for dealer in range(PLAYERS)
)
CARD_BITS: Final = tuple(1 << c for c in range(52))
BID_ACTIONS: Final = tuple(BID_BASE + c - 2 for c in CONTRACTS)
TRUMP_ACTIONS: Final = tuple(TRUMP_BASE + s for s in range(4))


LABELS: Final = tuple(format_card(c) for c in range(52))
CARD_INTS: Final = tuple(range(52))
# How the observation writes a card: NAMES[ints][card] (text, or the int itself).
NAMES: Final[tuple[tuple[str | int, ...], tuple[str | int, ...]]] = (LABELS, CARD_INTS)
# DISPLAY_CARDS[suit][byte]: that suit's cards, high rank first (the order of ``sort_for_display``), so
# a hand is shown suit by suit without sorting; DISPLAY_LABELS the same as text; DISPLAY[ints] either.
DISPLAY_CARDS: Final = tuple(tuple(tuple(reversed(cards)) for cards in SUIT_CARDS[s]) for s in range(4))
DISPLAY_LABELS: Final = tuple(
    tuple(tuple(LABELS[c] for c in cards) for cards in DISPLAY_CARDS[s]) for s in range(4)
)
DISPLAY: Final[tuple[tuple[tuple[tuple[str | int, ...], ...], ...], ...]] = (DISPLAY_LABELS, DISPLAY_CARDS)


def display_hand(mask: int, ints: bool = False) -> list[Any]:
    """A hand grouped by suit (C D H S), high rank first: as text, or (``ints``) as card ints."""
    table = DISPLAY[ints]
    return [
        *table[0][mask >> 5 & 255],
        *table[1][mask >> 18 & 255],
        *table[2][mask >> 31 & 255],
        *table[3][mask >> 44 & 255],
    ]


def hand_cards(mask: int) -> list[int]:
    """The cards of a Hokm hand mask, ascending (the table version of ``cards_of``)."""
    return [
        *SUIT_CARDS[0][mask >> 5 & 255],
        *SUIT_CARDS[1][mask >> 18 & 255],
        *SUIT_CARDS[2][mask >> 31 & 255],
        *SUIT_CARDS[3][mask >> 44 & 255],
    ]


def deck_for_hands(dealer: int, hands: list[list[int]]) -> list[int]:
    """The stacked deck that deals ``hands[seat]`` to each seat when ``dealer`` deals (for tests and
    puzzles: ``game.new_game(seed, deck=deck_for_hands(...))``)."""
    if len(hands) != PLAYERS or any(len(h) != HAND_SIZE for h in hands):
        raise ValueError("hokm: give three hands of ten cards")
    remaining = [list(h) for h in hands]
    deck: list[int] = []
    for packet in PACKETS:
        for k in range(1, PLAYERS + 1):
            seat = (dealer + k) % PLAYERS
            deck += remaining[seat][:packet]
            del remaining[seat][:packet]
    return deck


def contract_name(contract: int) -> str:
    return {2: "bas", KABOOT: "kaboot"}.get(contract, str(contract))


def made_contract(contract: int, tricks: int, overtricks: str) -> bool:
    """Whether ``tricks`` make ``contract`` (with ``overtricks=exact`` only the exact number does)."""
    return tricks == contract if overtricks == "exact" else tricks >= contract


def hand_score(contract: int, tricks: int, overtricks: str, kaboot_fail: int) -> int:
    """One player's score for a hand: his contract against the tricks he took."""
    made = made_contract(contract, tricks, overtricks)
    if contract == KABOOT:
        return 200 if made else kaboot_fail
    if not made:
        return -10 * contract
    return 10 * (tricks if overtricks == "count" else contract)


class Hokm(Game):
    name = "hokm"
    title = "Hokm Egbari"
    rules_version = "1"
    min_players = PLAYERS
    max_players = PLAYERS
    option_spec = (
        Option("target", 500, "a hand ending with someone at or above this ends the match", None, 1),
        Option("max_hands", 0, "end the match after this many hands (0 = no limit)", None, 0),
        Option(
            "bidding",
            "compulsory",
            "compulsory: any contract; auction: each bid beats the last",
            ("compulsory", "auction"),
        ),
        Option("must_trump_when_void", False, "a player who cannot follow must trump if able"),
        Option("must_overtrump", False, "a trump on a trumped trick must beat it if able"),
        Option(
            "overtricks",
            "ignore",
            "ignore: made = 10 x contract; count: 10 x tricks; exact: overtricks fail",
            ("ignore", "count", "exact"),
        ),
        Option("kaboot_fail", -100, "score of a failed Kaboot", (-100, -10, -200)),
    )

    auction: bool
    game_string: str
    must_trump_when_void: bool
    must_overtrump: bool
    overtricks: str
    kaboot_fail: int
    target: int
    max_hands: int

    def _configure(self) -> None:
        # The options the play loop reads, as plain attributes.
        self.auction = self.options["bidding"] == "auction"
        self.must_trump_when_void = bool(self.options["must_trump_when_void"])
        self.must_overtrump = bool(self.options["must_overtrump"])
        self.overtricks = str(self.options["overtricks"])
        self.kaboot_fail = int(self.options["kaboot_fail"])
        self.target = int(self.options["target"])
        self.max_hands = int(self.options["max_hands"])
        self.game_string = str(self)

    @property
    def num_players(self) -> int:
        return PLAYERS

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def deck(self) -> list[Card]:
        return list(DECK)

    def _blank_state(self, seed: int) -> HokmState:
        return HokmState(self, seed)

    def _action_label(self, action: Action) -> str:
        if action < BID_BASE:
            return play_label(action)
        if action < TRUMP_BASE:
            return "bid " + contract_name(CONTRACTS[action - BID_BASE])
        return "trump " + SUITS[action - TRUMP_BASE]

    def _action_info(self, action: Action) -> dict[str, Any]:
        if action < BID_BASE:
            return {"kind": "play", "card": format_card(action)}
        if action < TRUMP_BASE:
            return {"kind": "bid", "contract": CONTRACTS[action - BID_BASE]}
        return {"kind": "trump", "suit": SUITS[action - TRUMP_BASE]}

    def _parse_action(self, words: list[str]) -> int | None:
        if (words[0] == "bid" and len(words) == 2) or words[0] in ("bas", "pass", "kaboot"):
            word = words[-1]
            value = {"bas": 2, "pass": 2, "kaboot": KABOOT, "cabot": KABOOT}.get(word)
            if value is None and word.isdigit():
                value = int(word)
            return BID_BASE + value - 2 if value in CONTRACTS else None
        if words[0] == "trump" and len(words) == 2:
            suit = words[1].upper()[:1]
            if words[1].upper() in (
                "C",
                "D",
                "H",
                "S",
                "♣",
                "♦",
                "♥",
                "♠",
                "CLUBS",
                "DIAMONDS",
                "HEARTS",
                "SPADES",
            ):
                return TRUMP_BASE + "C♣D♦H♥S♠".index(suit) // 2 if suit in "C♣D♦H♥S♠" else None
            return None
        try:
            card = parse_play(words)
        except InvalidCardError:
            return None
        return card

    def describe(self, observation: Observation) -> list[str]:
        o = observation
        lines = [f"Hand {o['hand_number']}, dealer seat {o['dealer']}, phase: {o['phase']}"]
        if o["bids"]:
            lines.append(
                "Bids: " + ", ".join(f"seat {b['seat']}: {contract_name(b['contract'])}" for b in o["bids"])
            )
        if o["trump"]:
            lines.append(f"Declarer seat {o['declarer']}, trump {o['trump']}")
        if o["phase"] == PLAY:
            lines.append("Tricks taken: " + ", ".join(map(str, o["tricks_won"])))
            if o["tricks"] and not o["trick"]:
                last = o["tricks"][-1]
                shown = " ".join(f"{p['seat']}:{p['card']}" for p in last["cards"])
                lines.append(f"Last trick: {shown} -> seat {last['winner']}")
            lines.append("Trick: " + (" ".join(f"{p['seat']}:{p['card']}" for p in o["trick"]) or "(empty)"))
        return lines

    # --- search: a full state from one seat's observation (bots) ------------------------------

    def sample_state(self, observation: Observation, rng: random.Random) -> HokmState:
        """A state the observing seat cannot tell from the real one, built from its observation alone
        (the form bots read: cards as ints).

        The score sheet and the current hand's public history (bids, trump, tricks, the trick on the
        table) are rebuilt on a deal that gives every seat the cards it was seen to play; the cards the
        seat cannot know are then re-dealt by ``resample`` (voids and trump duties respected) and the
        future deals come from a fresh seed. The history of the sampled state is empty.
        """
        seat = observation["seat"]
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < PLAYERS:
            raise ValueError(f"{self}: sample_state needs one seat's observation, got seat {seat!r}")
        state, actions = self._rebuild(observation, None, rng.randrange(2**63))
        for s, a in actions:
            state.apply_unchecked(s, a)
        state.history = []
        return state.resample(seat, rng)

    def deal_replay(
        self, observation: Observation, sampled: State
    ) -> tuple[HokmState, list[tuple[Seat, Action]]] | None:
        """``sampled`` (a state drawn from ``observation``, as :meth:`sample_state` gives) rewound to the
        start of the hand in hand, every seat holding what it held then (its cards now and those it was
        seen to play), and the public actions of the hand since (bids, trump, plays), for an opponent
        model to replay (the expert bot's inference); nothing is applied."""
        assert isinstance(sampled, HokmState)
        return self._rebuild(observation, [hand_cards(h) for h in sampled.hands], sampled.seed)

    def _rebuild(
        self, o: Observation, held: list[list[int]] | None, seed: int
    ) -> tuple[HokmState, list[tuple[Seat, Action]]]:
        """A state at the start of the observed hand (the score sheet as it was then) whose hands are
        the cards each seat was seen to play this hand plus ``held[seat]`` (None: the observing seat's
        hand, the other seats filled from the unseen cards), and the hand's public actions since."""
        seat = o["seat"]
        state = HokmState(self, seed)
        sheet = [dict(row) for row in o["score_sheet"]]
        totals = list(o["scores"])
        if o["phase"] == OVER:
            # Rebuild the last hand too: replaying its final trick scores it again.
            last = sheet.pop()
            totals = [t - p for t, p in zip(last["totals"], last["points"], strict=True)]
        state.scores_ = totals
        state.score_sheet = sheet
        state.hand_index = len(sheet)
        state.dealer = o["dealer"]
        state.is_over = False
        plays: list[tuple[int, int]] = [(p["seat"], p["card"]) for t in o["tricks"] for p in t["cards"]]
        plays += [(p["seat"], p["card"]) for p in o["trick"]]
        hands: list[list[int]] = [[] for _ in range(PLAYERS)]
        for s, c in plays:
            hands[s].append(c)
        if held is not None:
            for s in range(PLAYERS):
                hands[s] += held[s]
        else:
            hands[seat] += o["hand"]
            known = {c for h in hands for c in h}
            rest = [c for c in DECK if c not in known]
            for s in range(PLAYERS):
                if s != seat:
                    take = HAND_SIZE - len(hands[s])
                    hands[s] += rest[:take]
                    del rest[:take]
        state._deal(deck_for_hands(state.dealer, hands))
        actions = [(bid["seat"], BID_BASE + bid["contract"] - 2) for bid in o["bids"]]
        if o["trump"] is not None:
            actions.append((o["declarer"], TRUMP_BASE + SUITS.index(o["trump"])))
        return state, actions + plays


class HokmState(State):
    """One match of Hokm. Hands are bitmasks; ``trick`` lists ``(seat, card)`` of the current trick.

    ``to_act`` and ``is_over`` are plain attributes kept up to date by every change of turn, so the
    loops of bots and simulations read them without a call.
    """

    ruleset: Hokm
    to_act: tuple[int, ...] = ()
    is_over: bool = False

    def __init__(self, game: Hokm, seed: int) -> None:
        """A blank state; :meth:`start` deals the first hand (``clone`` fills it in instead)."""
        super().__init__(game, seed)
        self.ruleset = game

    def start(self, deck: list[int] | None) -> None:
        self.stacked_deck = deck
        self.scores_ = [0] * PLAYERS
        self.score_sheet: list[dict[str, Any]] = []
        self.hand_index = 0
        self.dealer = derived_rng(self.seed, "first dealer").randrange(PLAYERS)
        self.is_over = False
        self._deal(deck)

    # --- dealing and phases ------------------------------------------------------------------

    def _deal(self, deck: list[int] | None) -> None:
        if deck is None:
            deck = list(DECK)
            shuffle_deck(deck, derived_rng(self.seed, "deal", self.hand_index))
        bit = CARD_BITS.__getitem__
        hands = [sum(map(bit, pick(deck))) for pick in DEAL_PICKS[self.dealer]]
        self.hands = hands
        self.dealt = list(hands)
        self.phase = BIDDING
        self.current = NEXT_SEAT[self.dealer]
        self.to_act = SEAT_TUPLES[self.current]
        self.bids: list[tuple[int, int]] = []
        self.declarer = -1
        self.trump = -1
        self.leader = -1
        self.trick: list[tuple[int, int]] = []
        self.tricks: list[tuple[int, tuple[tuple[int, int], ...], int]] = []
        self.tricks_won = [0] * PLAYERS
        # Cards each seat has shown it cannot hold (voids, and the trump duties of the variants).
        self.excluded = [0] * PLAYERS
        if self.events is not None:
            self._emit(
                {"type": "deal", "deal": self.hand_index + 1, "dealer": self.dealer},
                {s: {"hand": display_hand(hands[s])} for s in range(PLAYERS)},
            )

    # --- Game API ----------------------------------------------------------------------------

    def legal_actions_unchecked(self, seat: Seat) -> list[Action]:
        if seat != self.current:  # -1 once the match is over
            return []
        if self.phase == PLAY:
            trick = self.trick
            if not trick:
                return hand_cards(self.hands[seat])
            led = trick[0][1] // 13
            follow = self.hands[seat] & SUIT_MASKS[led]
            if follow and not (led == self.trump and self.ruleset.must_overtrump):
                return list(SUIT_CARDS[led][follow >> SUIT_SHIFT[led] & 255])
            return hand_cards(self._playable(seat))
        if self.phase == BIDDING:
            if self.ruleset.auction and self.bids:
                top = max(c for _, c in self.bids)
                return [BID_BASE] + [BID_BASE + c - 2 for c in CONTRACTS if c > top]
            return list(BID_ACTIONS)
        return list(TRUMP_ACTIONS)

    def _playable(self, seat: Seat) -> int:
        hand = self.hands[seat]
        trick = self.trick
        if not trick:
            return hand
        led = trick[0][1] // 13
        game = self.ruleset
        follow = hand & SUIT_MASKS[led]
        if follow:
            if game.must_overtrump and led == self.trump:
                return self._overtrump_filter(follow)
            return follow
        trumps = hand & SUIT_MASKS[self.trump]
        if not trumps:
            return hand
        if game.must_trump_when_void:
            hand = trumps
        if game.must_overtrump:
            hand = (hand & ~trumps) | self._overtrump_filter(trumps)
        return hand

    def _overtrump_filter(self, trumps: int) -> int:
        """Of these trumps, the ones a player may play under ``must_overtrump``."""
        best = self._best_trump_strength()
        if best == 0:
            return trumps
        higher = 0
        for c in cards_of(trumps):
            if TRUMP_STRENGTH[c % 13] > best:
                higher |= 1 << c
        return higher or trumps

    def _best_trump_strength(self) -> int:
        trump = self.trump
        return max((TRUMP_STRENGTH[c % 13] for _, c in self.trick if c // 13 == trump), default=0)

    def _why_illegal(self, seat: Seat, action: Action) -> str:
        if self.phase == PLAY and action < BID_BASE:
            if not self.hands[seat] >> action & 1:
                return f" (seat {seat} does not hold {format_card(action)})"
            if self.trick and self.hands[seat] & SUIT_MASKS[self.trick[0][1] // 13]:
                return f" (must follow {SUITS[self.trick[0][1] // 13]})"
        if self.phase != PLAY and action < BID_BASE:
            return f" (the hand is in its {self.phase} phase)"
        return ""

    def apply_unchecked(self, seat: Seat, action: Action) -> None:
        self._apply(seat, action)
        self.history.append(PAIRS[seat][action])

    def _apply(self, seat: Seat, action: Action) -> None:
        if self.phase != PLAY:
            self._bid_or_trump(seat, action)
            return
        # Playing a card: the hot path, kept inline.
        trick = self.trick
        if trick and (action // 13 != trick[0][1] // 13 or self.ruleset.must_overtrump):
            self._note_exclusions(seat, action)
        self.hands[seat] &= CLEAR_BIT[action]
        trick.append(PAIRS[seat][action])
        if len(trick) < PLAYERS:
            self.current = nxt = NEXT_SEAT[seat]
            self.to_act = SEAT_TUPLES[nxt]
            return
        winner = self._trick_winner()
        tricks = self.tricks
        tricks.append((self.leader, tuple(trick), winner))
        self.tricks_won[winner] += 1
        if self.events is not None:
            self._emit(
                {
                    "type": "trick",
                    "leader": self.leader,
                    "cards": [{"seat": s, "card": LABELS[c]} for s, c in trick],
                    "winner": winner,
                }
            )
        self.trick = []
        self.leader = self.current = winner
        self.to_act = SEAT_TUPLES[winner]
        if len(tricks) == TRICKS:
            self._score_hand()

    def _bid_or_trump(self, seat: Seat, action: Action) -> None:
        if self.phase == BIDDING:
            self.bids.append((seat, CONTRACTS[action - BID_BASE]))
            if len(self.bids) == PLAYERS:
                top = max(c for _, c in self.bids)
                self.declarer = next(s for s, c in self.bids if c == top)
                self.phase = TRUMP
                self.current = self.declarer
                if self.events is not None:
                    self._emit({"type": "declarer", "seat": self.declarer, "contract": top})
            else:
                self.current = NEXT_SEAT[seat]
        else:
            self.trump = action - TRUMP_BASE
            self.phase = PLAY
            self.leader = self.current = self.declarer
        self.to_act = SEAT_TUPLES[self.current]

    def _trick_winner(self) -> int:
        trick = self.trick
        keys = TRICK_KEYS[self.trump * 4 + trick[0][1] // 13]
        best_seat, best_key = -1, -1
        for seat, c in trick:
            key = keys[c]
            if key > best_key:
                best_seat, best_key = seat, key
        return best_seat

    def _note_exclusions(self, seat: Seat, card: int) -> None:
        """Record what this play (to a trick already led) proves the seat does not hold (for
        ``resample``)."""
        led = self.trick[0][1] // 13
        suit = card // 13
        trump = self.trump
        game = self.ruleset
        if suit != led:
            self.excluded[seat] |= SUIT_MASKS[led]
            if game.must_trump_when_void and suit != trump:
                self.excluded[seat] |= SUIT_MASKS[trump]
        if game.must_overtrump and suit == trump:
            best = self._best_trump_strength()
            if best and TRUMP_STRENGTH[card % 13] < best:
                higher = [c for c in DECK if c // 13 == trump and TRUMP_STRENGTH[c % 13] > best]
                self.excluded[seat] |= mask_of(higher)

    def _score_hand(self) -> None:
        rules = self.ruleset
        overtricks = rules.overtricks
        contracts = [0] * PLAYERS
        for s, c in self.bids:
            contracts[s] = c
        deltas = [
            hand_score(contracts[s], self.tricks_won[s], overtricks, rules.kaboot_fail)
            for s in range(PLAYERS)
        ]
        for s in range(PLAYERS):
            self.scores_[s] += deltas[s]
        if self.events is not None:
            self._emit(
                {
                    "type": "deal_scored",
                    "deal": self.hand_index + 1,
                    "points": list(deltas),
                    "totals": list(self.scores_),
                    "declarer": self.declarer,
                    "trump": SUITS[self.trump],
                    "contracts": list(contracts),
                    "tricks": list(self.tricks_won),
                    "made": [
                        made_contract(contracts[s], self.tricks_won[s], overtricks) for s in range(PLAYERS)
                    ],
                }
            )
        self.score_sheet.append(
            {
                "hand": self.hand_index + 1,
                "dealer": self.dealer,
                "declarer": self.declarer,
                "trump": SUITS[self.trump],
                "contracts": contracts,
                "tricks": list(self.tricks_won),
                "points": deltas,
                "totals": list(self.scores_),
            }
        )
        self.hand_index += 1
        top = max(self.scores_)
        leaders = [s for s in range(PLAYERS) if self.scores_[s] == top]
        limit = rules.max_hands
        ends = top >= rules.target or (limit > 0 and self.hand_index >= limit)
        if ends and len(leaders) == 1:
            self.phase = OVER
            self.is_over = True
            self.current = -1
            self.to_act = ()
            self.winners_ = (leaders[0],)
            return
        self.dealer = (self.dealer + 1) % PLAYERS
        self._deal(None)

    # --- what a seat sees --------------------------------------------------------------------

    def _observation(self, seat: Seat | None, ints: bool = False) -> Observation:
        names = NAMES[ints]

        def plays(cards: tuple[tuple[int, int], ...] | list[tuple[int, int]]) -> list[Any]:
            return [{"seat": s, "card": names[c]} for s, c in cards]

        obs: Observation = {
            "game": self.ruleset.game_string,
            "seat": seat,
            "phase": self.phase,
            "hand_number": self.hand_index + (0 if self.phase == OVER else 1),
            "dealer": self.dealer,
            "to_act": list(self.to_act),
            "hand": (display_hand(self.hands[seat], ints) if seat is not None else []),
            "hand_sizes": [h.bit_count() for h in self.hands],
            "bids": [{"seat": s, "contract": c} for s, c in self.bids],
            "declarer": None if self.declarer < 0 else self.declarer,
            "trump": None if self.trump < 0 else SUITS[self.trump],
            "leader": None if self.leader < 0 else self.leader,
            "trick": plays(self.trick),
            "tricks": [
                {"leader": lead, "cards": plays(cards), "winner": w} for lead, cards, w in self.tricks
            ],
            "tricks_won": list(self.tricks_won),
            "scores": list(self.scores_),
            "score_sheet": [dict(row) for row in self.score_sheet],
            "target": self.game.options["target"],
            "is_over": self.is_over,
            "winners": list(self.winners_),
        }
        return obs

    def hidden_cards(self, seat: Seat | None) -> set[Card]:
        hidden = 0
        for s in range(PLAYERS):
            if s != seat:
                hidden |= self.hands[s]
        return set(cards_of(hidden))

    def zones(self) -> dict[str, list[Card]]:
        zones = {f"hand {s}": cards_of(self.hands[s]) for s in range(PLAYERS)}
        zones["trick"] = [c for _, c in self.trick]
        zones["taken"] = [c for _, cards, _ in self.tricks for _, c in cards]
        return zones

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.scores_)

    @property
    def deals_finished(self) -> int:
        return self.hand_index

    # --- copies ------------------------------------------------------------------------------

    def clone(self) -> Self:
        # Shallow copy, then fresh copies of the lists that change in place. Their items (ints,
        # tuples, finished score-sheet rows) are never mutated, so they are shared.
        new = type(self)(self.ruleset, self.seed)
        self._copy_common(new)
        new.scores_ = self.scores_[:]
        new.score_sheet = self.score_sheet[:]
        new.hand_index = self.hand_index
        new.dealer = self.dealer
        new.is_over = self.is_over
        new.hands = self.hands[:]
        new.dealt = self.dealt
        new.phase = self.phase
        new.current = self.current
        new.to_act = self.to_act
        new.bids = self.bids[:]
        new.declarer = self.declarer
        new.trump = self.trump
        new.leader = self.leader
        new.trick = self.trick[:]
        new.tricks = self.tricks[:]
        new.tricks_won = self.tricks_won[:]
        new.excluded = self.excluded[:]
        return new

    def resample(self, seat: Seat, rng: random.Random) -> Self:
        new = self.clone()
        others = [s for s in range(PLAYERS) if s != seat]
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
