"""Hokm Egbari (compulsory Hokm): 3 players, 30 cards, every player bids, each scores his own contract.

Rules of record: ``shared/rules/hokm.md``. Choices this module makes:

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
  contract as +10 x tricks taken; ``overtricks=exact`` fails a contract beaten by overtricks.
- The match ends after a hand in which someone has >= ``target``; highest total wins, and an exact tie for
  the top plays another hand. ``max_hands`` (0 = no limit) also ends the match after that many hands,
  with the same tie rule: players who want a fixed-length game ask for it, and random play (which
  drifts below zero) still finishes.
"""

from __future__ import annotations

import random
from typing import Any, Self

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
    cards_of,
    format_card,
    mask_of,
    sort_for_display,
)
from cardhall.core import Game, Observation, State, derived_rng, parse_play, play_label
from cardhall.errors import InvalidCardError
from cardhall.games._deal import deal_constrained
from cardhall.options import Option

PLAYERS = 3
HAND_SIZE = 10
TRICKS = 10
KABOOT = 10
CONTRACTS = tuple(range(2, KABOOT + 1))

DECK = sorted(
    [s * 13 + r for s in (CLUBS, SPADES) for r in (SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE)]
    + [s * 13 + r for s in (HEARTS, DIAMONDS) for r in (EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE)]
)
DECK_MASK = mask_of(DECK)

# Strength of each rank (higher wins), in the trump suit and in the other suits.
TRUMP_RANKING = (SEVEN, EIGHT, QUEEN, KING, TEN, ACE, NINE, JACK)
PLAIN_RANKING = (SEVEN, EIGHT, NINE, JACK, QUEEN, KING, TEN, ACE)
TRUMP_STRENGTH = [0] * 13
PLAIN_STRENGTH = [0] * 13
for _i, _r in enumerate(TRUMP_RANKING):
    TRUMP_STRENGTH[_r] = _i + 1
for _i, _r in enumerate(PLAIN_RANKING):
    PLAIN_STRENGTH[_r] = _i + 1

# Action ints: 0..51 play a card, then the nine contracts, then the four trump suits.
BID_BASE = 52
TRUMP_BASE = BID_BASE + len(CONTRACTS)
NUM_ACTIONS = TRUMP_BASE + 4

PACKETS = (3, 2, 3, 2)

BIDDING, TRUMP, PLAY, OVER = "bidding", "trump", "play", "over"


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


def hand_score(contract: int, tricks: int, overtricks: str, kaboot_fail: int) -> int:
    """One player's score for a hand: his contract against the tricks he took."""
    made = tricks == contract if overtricks == "exact" else tricks >= contract
    if contract == KABOOT:
        return 200 if made else kaboot_fail
    if not made:
        return -10 * contract
    return 10 * (tricks if overtricks == "count" else contract)


class Hokm(Game):
    name = "hokm"
    title = "Hokm Egbari"
    rules_version = "1"
    min_players = max_players = PLAYERS
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

    @property
    def num_players(self) -> int:
        return PLAYERS

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def deck(self) -> list[int]:
        return list(DECK)

    def _new_state(self, seed: int, deck: list[int] | None) -> HokmState:
        return HokmState(self, seed, deck)

    def _action_label(self, action: int) -> str:
        if action < BID_BASE:
            return play_label(action)
        if action < TRUMP_BASE:
            return "bid " + contract_name(CONTRACTS[action - BID_BASE])
        return "trump " + SUITS[action - TRUMP_BASE]

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
                "Bids: " + ", ".join(f"seat {b['seat']} {contract_name(b['contract'])}" for b in o["bids"])
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
        """A state the observing seat cannot tell from the real one, built from its observation alone.

        The score sheet and the current hand's public history (bids, trump, tricks, the trick on the
        table) are rebuilt on a deal that gives every seat the cards it was seen to play; the cards the
        seat cannot know are then re-dealt by ``resample`` (voids and trump duties respected) and the
        future deals come from a fresh seed. The history of the sampled state is empty.
        """
        from cardhall.cards import parse_card

        o = observation
        seat = o["seat"]
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < PLAYERS:
            raise ValueError(f"{self}: sample_state needs one seat's observation, got seat {seat!r}")
        state = HokmState(self, rng.randrange(2**63), None)
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
        plays = [(p["seat"], parse_card(p["card"])) for t in o["tricks"] for p in t["cards"]]
        plays += [(p["seat"], parse_card(p["card"])) for p in o["trick"]]
        hands: list[list[int]] = [[] for _ in range(PLAYERS)]
        for s, c in plays:
            hands[s].append(c)
        hands[seat] += [parse_card(c) for c in o["hand"]]
        known = {c for h in hands for c in h}
        rest = [c for c in DECK if c not in known]
        for s in range(PLAYERS):
            if s != seat:
                take = HAND_SIZE - len(hands[s])
                hands[s] += rest[:take]
                del rest[:take]
        state._deal(deck_for_hands(state.dealer, hands))
        for bid in o["bids"]:
            state.apply_unchecked(bid["seat"], BID_BASE + bid["contract"] - 2)
        if o["trump"] is not None:
            state.apply_unchecked(o["declarer"], TRUMP_BASE + SUITS.index(o["trump"]))
        for s, c in plays:
            state.apply_unchecked(s, c)
        state.history = []
        return state.resample(seat, rng)


class HokmState(State):
    game: Hokm

    def __init__(self, game: Hokm, seed: int, deck: list[int] | None) -> None:
        self.game = game
        self.seed = seed
        self.stacked_deck = deck
        self.history = []
        self.scores_ = [0] * PLAYERS
        self.score_sheet: list[dict[str, Any]] = []
        self.hand_index = 0
        self.dealer = derived_rng(seed, "first dealer").randrange(PLAYERS)
        self.winners_: tuple[int, ...] = ()
        self._deal(deck)

    # --- dealing and phases ------------------------------------------------------------------

    def _deal(self, deck: list[int] | None) -> None:
        if deck is None:
            deck = list(DECK)
            derived_rng(self.seed, "deal", self.hand_index).shuffle(deck)
        hands = [0] * PLAYERS
        pos = 0
        for packet in PACKETS:
            for k in range(1, PLAYERS + 1):
                seat = (self.dealer + k) % PLAYERS
                for c in deck[pos : pos + packet]:
                    hands[seat] |= 1 << c
                pos += packet
        self.hands = hands
        self.dealt = list(hands)
        self.phase = BIDDING
        self.current = (self.dealer + 1) % PLAYERS
        self.bids: list[tuple[int, int]] = []
        self.declarer = -1
        self.trump = -1
        self.leader = -1
        self.trick: list[tuple[int, int]] = []
        self.tricks: list[tuple[int, tuple[tuple[int, int], ...], int]] = []
        self.tricks_won = [0] * PLAYERS
        # Cards each seat has shown it cannot hold (voids, and the trump duties of the variants).
        self.excluded = [0] * PLAYERS

    # --- Game API ----------------------------------------------------------------------------

    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.phase == OVER else (self.current,)

    def legal_actions(self, seat: int) -> list[int]:
        if self.phase == OVER or seat != self.current:
            return []
        if self.phase == PLAY:
            return cards_of(self._playable(seat))
        if self.phase == BIDDING:
            if self.game.options["bidding"] == "auction" and self.bids:
                top = max(c for _, c in self.bids)
                return [BID_BASE] + [BID_BASE + c - 2 for c in CONTRACTS if c > top]
            return [BID_BASE + c - 2 for c in CONTRACTS]
        return [TRUMP_BASE + s for s in range(4)]

    def _playable(self, seat: int) -> int:
        hand = self.hands[seat]
        if not self.trick:
            return hand
        led = self.trick[0][1] // 13
        trump = self.trump
        opts = self.game.options
        follow = hand & SUIT_MASKS[led]
        if follow:
            if led == trump and opts["must_overtrump"]:
                return self._overtrump_filter(follow)
            return follow
        trumps = hand & SUIT_MASKS[trump]
        if not trumps:
            return hand
        if opts["must_trump_when_void"]:
            hand = trumps
        if opts["must_overtrump"]:
            allowed_trumps = self._overtrump_filter(trumps)
            hand = (hand & ~trumps) | allowed_trumps
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

    def _why_illegal(self, seat: int, action: int) -> str:
        if self.phase == PLAY and action < BID_BASE:
            if not self.hands[seat] >> action & 1:
                return f" (seat {seat} does not hold {format_card(action)})"
            if self.trick and self.hands[seat] & SUIT_MASKS[self.trick[0][1] // 13]:
                return f" (must follow {SUITS[self.trick[0][1] // 13]})"
        if self.phase != PLAY and action < BID_BASE:
            return f" (the hand is in its {self.phase} phase)"
        return ""

    def _apply(self, seat: int, action: int) -> None:
        if self.phase == PLAY:
            self._play(seat, action)
        elif self.phase == BIDDING:
            self.bids.append((seat, CONTRACTS[action - BID_BASE]))
            if len(self.bids) == PLAYERS:
                top = max(c for _, c in self.bids)
                self.declarer = next(s for s, c in self.bids if c == top)
                self.phase = TRUMP
                self.current = self.declarer
            else:
                self.current = (seat + 1) % PLAYERS
        else:
            self.trump = action - TRUMP_BASE
            self.phase = PLAY
            self.leader = self.current = self.declarer

    def _play(self, seat: int, card: int) -> None:
        self._note_exclusions(seat, card)
        self.hands[seat] &= ~(1 << card)
        self.trick.append((seat, card))
        if len(self.trick) < PLAYERS:
            self.current = (seat + 1) % PLAYERS
            return
        winner = self._trick_winner()
        self.tricks.append((self.leader, tuple(self.trick), winner))
        self.tricks_won[winner] += 1
        self.trick = []
        self.leader = self.current = winner
        if len(self.tricks) == TRICKS:
            self._score_hand()

    def _trick_winner(self) -> int:
        trump = self.trump
        led = self.trick[0][1] // 13
        best_seat, best_key = -1, -1
        for seat, c in self.trick:
            suit = c // 13
            if suit == trump:
                key = 100 + TRUMP_STRENGTH[c % 13]
            elif suit == led:
                key = PLAIN_STRENGTH[c % 13]
            else:
                continue
            if key > best_key:
                best_seat, best_key = seat, key
        return best_seat

    def _note_exclusions(self, seat: int, card: int) -> None:
        """Record what this play proves the seat does not hold (for ``resample``)."""
        if not self.trick:
            return
        led = self.trick[0][1] // 13
        suit = card // 13
        trump = self.trump
        opts = self.game.options
        if suit != led:
            self.excluded[seat] |= SUIT_MASKS[led]
            if opts["must_trump_when_void"] and suit != trump:
                self.excluded[seat] |= SUIT_MASKS[trump]
        if opts["must_overtrump"] and suit == trump:
            best = self._best_trump_strength()
            if best and TRUMP_STRENGTH[card % 13] < best:
                higher = [c for c in DECK if c // 13 == trump and TRUMP_STRENGTH[c % 13] > best]
                self.excluded[seat] |= mask_of(higher)

    def _score_hand(self) -> None:
        opts = self.game.options
        contracts = [0] * PLAYERS
        for s, c in self.bids:
            contracts[s] = c
        deltas = [
            hand_score(contracts[s], self.tricks_won[s], str(opts["overtricks"]), int(opts["kaboot_fail"]))
            for s in range(PLAYERS)
        ]
        for s in range(PLAYERS):
            self.scores_[s] += deltas[s]
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
        limit = int(opts["max_hands"])
        ends = top >= int(opts["target"]) or (limit > 0 and self.hand_index >= limit)
        if ends and len(leaders) == 1:
            self.phase = OVER
            self.winners_ = (leaders[0],)
            self.last_hand = self._hand_summary()
            return
        self.dealer = (self.dealer + 1) % PLAYERS
        self._deal(None)

    def _hand_summary(self) -> dict[str, Any]:
        return {"bids": list(self.bids), "tricks": list(self.tricks)}

    # --- what a seat sees --------------------------------------------------------------------

    def observation(self, seat: int | None) -> Observation:
        def plays(cards: tuple[tuple[int, int], ...] | list[tuple[int, int]]) -> list[Any]:
            return [{"seat": s, "card": format_card(c)} for s, c in cards]

        obs: Observation = {
            "game": str(self.game),
            "seat": seat,
            "phase": self.phase,
            "hand_number": self.hand_index + (0 if self.phase == OVER else 1),
            "dealer": self.dealer,
            "to_act": list(self.to_act),
            "hand": (
                [format_card(c) for c in sort_for_display(cards_of(self.hands[seat]))]
                if seat is not None
                else []
            ),
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

    def hidden_cards(self, seat: int | None) -> set[int]:
        hidden = 0
        for s in range(PLAYERS):
            if s != seat:
                hidden |= self.hands[s]
        return set(cards_of(hidden))

    def zones(self) -> dict[str, list[int]]:
        zones = {f"hand {s}": cards_of(self.hands[s]) for s in range(PLAYERS)}
        zones["trick"] = [c for _, c in self.trick]
        zones["taken"] = [c for _, cards, _ in self.tricks for _, c in cards]
        return zones

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.scores_)

    @property
    def winners(self) -> tuple[int, ...]:
        return self.winners_

    # --- copies ------------------------------------------------------------------------------

    def clone(self) -> Self:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.history = list(self.history)
        new.scores_ = list(self.scores_)
        new.score_sheet = list(self.score_sheet)
        new.hands = list(self.hands)
        new.bids = list(self.bids)
        new.trick = list(self.trick)
        new.tricks = list(self.tricks)
        new.tricks_won = list(self.tricks_won)
        new.excluded = list(self.excluded)
        return new

    def resample(self, seat: int, rng: random.Random) -> Self:
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
