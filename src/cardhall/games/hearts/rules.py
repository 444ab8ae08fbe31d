"""Cancellation Hearts (6-11 players, two decks) and ordinary one-deck Hearts with the Black Maria.

Rules: ``rulebook.en.md`` (beside it). One engine plays both: ``decks=2`` (default,
``players`` 6..11) is Cancellation Hearts, ``decks=1`` (``players`` 3..7) is ordinary Hearts, where no two
cards can be identical so nothing is ever cancelled. Choices this module makes:

- Seats are numbered in the order of play, which is clockwise: seat ``s + 1`` is on seat ``s``'s left.
  The first dealer is drawn from the seed; the deal passes to the left (``dealer + 1``) each hand.
- Physical cards are 0..103 with two decks (face = card % 52). Observations and labels show faces only, and
  an action names a face: ``play QS`` plays one of the player's Q♠ (the engine takes the lower-numbered
  copy; the copies are indistinguishable). ``pass QS`` likewise.
- The deal is literal: one card at a time from the dealer's left, as many as go round evenly; the rest
  (two decks: 2/6/0/5/4/5 for 6..11 players; one deck: 1/0/2/4/3 for 3/4/5/6/7 players) form the widow.
  With one deck and four players there is no widow: the usual game.
- The widow stays face down for the whole hand: nobody (not even its taker) sees it; its points count for
  its taker in the hand's score. It goes with the first won trick (so with the set-aside tricks that
  trick collects); if no trick is won in the whole hand it stays uncollected. Variant ``widow=last_trick``:
  the winner of the last won trick takes it.
- Passing is simultaneous: every seat that has not yet chosen its 3 cards is in ``to_act``; a seat chooses
  one card per ``pass <card>`` action (a chosen card leaves its hand at once and cannot be taken back).
  When all seats have chosen, each receives the 3 cards passed to it. ``passing=alternate`` (the rules):
  left on the 1st hand, right on the 2nd, and so on, with no hold hand. Variant ``passing=cycle``: left,
  right, across, hold (odd player counts have no "across": left, right, hold). ``passing=none``: never.
- First lead (``first_lead=no_points``, the rules, also for one deck): the player left of the dealer leads
  any card but a heart or Q♠; if he holds nothing else he may lead any card. The restriction applies to
  the very first lead of the hand only (not to the re-lead after a dead first trick). Variant
  ``first_lead=two_clubs``: the holder of the lowest club in the players' hands leads it (2♣ unless it is in
  the widow; with two holders, the first from the dealer's left).
- Hearts may not be led until a heart or a Q♠ has been played (``queen_breaks_hearts=false``: hearts only),
  unless the leader holds only hearts. Q♠ may be led any time after the first lead. Playing a heart or Q♠
  to a dead (set-aside) trick also breaks hearts.
- ``points_on_first_trick`` (default true, the rules say nothing): a player who cannot follow to the
  first trick may discard hearts or Q♠; with ``false`` he must play a card without points if he has one.
- Cancellation: two identical cards in one trick cancel; the trick goes to the highest uncancelled card of
  the suit led. If none remains the trick is set aside, nobody wins it, and the same player leads again
  (variant ``dead_trick_lead=left``: the player on the last leader's left leads). The winner of the next
  won trick takes the set-aside tricks too; set-aside tricks left at the end of the hand are uncollected.
- Hearts 1 point, Q♠ 13 points each (26 per deck). Shooting the moon: a player who takes every point card
  (all 26 hearts and both Q♠ with two decks; 13 hearts and Q♠ with one) chooses with a real action,
  ``moon minus`` (subtract ``moon_value`` from his own score, scoring nothing else) or ``moon plus`` (every
  other player adds ``moon_value``, he scores 0). Variants ``moon=minus|plus`` make the choice automatic,
  ``moon=none`` scores the points normally. ``moon_value`` 26 (variant 52).
- The match ends after a hand in which someone has reached ``target`` (150); lowest total wins and tied
  lowest totals share the win. ``max_hands`` (0 = no limit) also ends the match after that many hands.
- Observations show the current hand only (its tricks, passes and received cards); earlier hands appear
  only as rows of points on the score sheet.
- Observations name cards as text (``"QS"``), or with ``ints=True`` as face ints (0..51), in the same
  places and order. ``Hearts.sample_state`` rebuilds a state from one seat's observation (ints form);
  ``lowest_score_wins`` tells the generic search to minimise points. ``deals_finished`` is the number
  of hands scored so far.
- Events (while a Table listens; ``schema.json`` (beside it)): ``deal`` (``deal``, ``dealer``,
  ``pass_direction``, ``hand_size``, ``widow_size``; each seat's ``hand`` private); a pass action is
  seen by the passer alone (others see ``"pass"``); ``passes`` when the passes are exchanged (public:
  ``direction`` and who passed how many cards to whom; private: each seat's ``passed_cards`` and
  ``received_cards``); ``trick`` (``number``, ``leader``, ``cards``, ``winner`` or null when set aside,
  the ``cancelled`` faces, its ``points``, the set-aside tricks the winner ``collected`` and their
  ``collected_points``, the ``set_aside`` tricks waiting after it); ``widow`` (who takes it and its
  ``size``, never its cards); ``moon`` (the shooter, and the ``choice`` when the rules make it: null when
  he chooses with an action); ``deal_scored`` before the next deal (``points`` added this hand,
  ``totals``, per seat ``hearts``, ``queens``, ``widow`` and ``taken`` card points, ``uncollected``,
  ``widow_taker``, ``moon``, ``moon_choice``).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Final, Self

from cardhall.cards import (
    HEARTS,
    QUEEN,
    SPADES,
    SUIT_MASKS,
    SUITS,
    Card,
    card,
    cards_of,
    format_card,
    mask_of,
    parse_card,
)
from cardhall.core import Action, Game, Observation, Seat, State, derived_rng, parse_play, play_label
from cardhall.errors import InvalidCardError, InvalidOptionError
from cardhall.games._deal import deal_constrained
from cardhall.options import Option

FACES: Final = 52
PASS_BASE_: Final = 52
FACE_MASK: Final = (1 << FACES) - 1
QS: Final = card(QUEEN, SPADES)


def _both(mask: int) -> int:
    """A mask of faces widened to both decks' physical cards."""
    return mask | (mask << FACES)


HEART_FACES: Final = SUIT_MASKS[HEARTS]
POINT_FACES: Final = HEART_FACES | 1 << QS
SUIT2: Final = tuple(_both(m) for m in SUIT_MASKS)
HEARTS2: Final = SUIT2[HEARTS]
QS2: Final = _both(1 << QS)
ALL2: Final = _both(FACE_MASK)
NONPOINTS2: Final = ALL2 & ~(HEARTS2 | QS2)
NONHEARTS2: Final = ALL2 & ~HEARTS2
CLUB_BELOW: Final = tuple(_both((1 << r) - 1) for r in range(13))  # clubs lower than rank r, both decks

# The faces of each 13-bit suit pattern, per suit: legal actions without a bit loop.
_SUIT_FACES: Final = tuple(
    tuple(tuple(13 * suit + r for r in range(13) if bits >> r & 1) for bits in range(1 << 13))
    for suit in range(4)
)
_PASS_FACES: Final = tuple(
    tuple(tuple(PASS_BASE_ + f for f in faces) for faces in table) for table in _SUIT_FACES
)


def faces_of(mask: int) -> list[int]:
    """The faces of a 52-bit face mask, ascending (a fast ``cards_of``)."""
    t = _SUIT_FACES
    return [
        *t[0][mask & 0x1FFF],
        *t[1][mask >> 13 & 0x1FFF],
        *t[2][mask >> 26 & 0x1FFF],
        *t[3][mask >> 39 & 0x1FFF],
    ]


def pass_actions(mask: int) -> list[int]:
    """The pass actions of the faces of a 52-bit face mask, ascending."""
    t = _PASS_FACES
    return [
        *t[0][mask & 0x1FFF],
        *t[1][mask >> 13 & 0x1FFF],
        *t[2][mask >> 26 & 0x1FFF],
        *t[3][mask >> 39 & 0x1FFF],
    ]


# Actions: 0..51 play a face, 52..103 pass a face, then the two moon choices.
PASS_BASE: Final = PASS_BASE_
MOON_MINUS: Final = 104
MOON_PLUS: Final = 105
NUM_ACTIONS: Final = 106

PASS, PLAY, MOON, OVER = "pass", "play", "moon", "over"

PLAYER_RANGE: Final = {1: (3, 7), 2: (6, 11)}
LABELS: Final = tuple(format_card(f) for f in range(FACES))
# How an observation names a card: NAMES[0] as text (the labels), NAMES[1] as its face int (bots' form).
NAMES: Final[tuple[tuple[Any, ...], ...]] = (LABELS, tuple(range(FACES)))
BITS: Final = tuple(1 << f for f in range(FACES))
SUIT_OF: Final = tuple(f // 13 for f in range(FACES))
# DISPLAY[form][suit][13-bit pattern]: that suit's faces as NAMES[form] names them, high rank first.
DISPLAY: Final[tuple[tuple[tuple[tuple[Any, ...], ...], ...], ...]] = tuple(
    tuple(tuple(tuple(names[f] for f in reversed(faces)) for faces in table) for table in _SUIT_FACES)
    for names in NAMES
)
BITS2: Final = tuple(1 << c for c in range(2 * FACES))


def deal_steps(cards: int, players: int) -> tuple[tuple[int, int, int, int], ...]:
    """The steps of :func:`shuffle_deck` for a deck of ``cards``, each with the pile its position is
    dealt to (``position % players``, or ``players`` for the widow), for :func:`shuffle_and_deal`."""
    dealt = cards // players * players
    return tuple(
        (i, i + 1, (i + 1).bit_length(), i % players if i < dealt else players)
        for i in reversed(range(1, cards))
    )


def shuffle_and_deal(
    steps: tuple[tuple[int, int, int, int], ...], players: int, rng: random.Random
) -> list[int]:
    """Shuffle ``range(cards)`` as :func:`shuffle_deck` does (the same numbers drawn, the same order) and
    return the physical cards of each pile as masks: pile ``k`` holds the positions ``k, k + players,
    ...`` of the shuffled deck, the last pile the widow. A position is final once the shuffle has passed
    it, so its card goes to its pile at once and the deck is never written back."""
    getrandbits = rng.getrandbits
    deck = list(range(len(steps) + 1))
    masks = [0] * (players + 1)
    bit = BITS2
    for i, size, k, pile in steps:
        j = getrandbits(k)
        while j >= size:
            j = getrandbits(k)
        masks[pile] |= bit[deck[j]]
        deck[j] = deck[i]
    masks[0] |= bit[deck[0]]
    return masks


# For a face led: the shift of its suit in a face mask, and the legal follows of each 13-bit pattern.
LED_SHIFT: Final = tuple(13 * (f // 13) for f in range(FACES))
LED_FACES: Final = tuple(_SUIT_FACES[f // 13] for f in range(FACES))


def display_cards(mask: int, form: int = 0) -> list[Any]:
    """The faces of physical cards (a 104-bit mask) by suit (C D H S), high rank first, a face held twice
    twice; named as ``NAMES[form]`` names them (0: text, 1: face ints)."""
    low = mask & FACE_MASK
    high = mask >> FACES
    t = DISPLAY[form]
    if not high:
        return [
            *t[0][low & 0x1FFF],
            *t[1][low >> 13 & 0x1FFF],
            *t[2][low >> 26 & 0x1FFF],
            *t[3][low >> 39 & 0x1FFF],
        ]
    names = NAMES[form]
    out: list[Any] = []
    for suit in range(4):
        a = low >> 13 * suit & 0x1FFF
        b = high >> 13 * suit & 0x1FFF
        if a & b:
            for f in reversed(_SUIT_FACES[suit][a | b]):
                out.append(names[f])
                if b >> f % 13 & 1 and a >> f % 13 & 1:
                    out.append(names[f])
        else:
            out += t[suit][a | b]
    return out


_MOON_OF: Final = {"minus": MOON_MINUS, "plus": MOON_PLUS}


def points_of(mask: int) -> int:
    """Points of a set of physical cards: 1 per heart, 13 per Q♠."""
    return (mask & HEARTS2).bit_count() + 13 * (mask & QS2).bit_count()


def pass_offsets(passing: str, players: int, hand_index: int) -> int:
    """How many seats along (``+1`` left, ``-1`` right, 0 hold) the cards go on this hand."""
    if passing == "none":
        return 0
    if passing == "alternate":
        return 1 if hand_index % 2 == 0 else -1
    cycle = (1, -1, players // 2, 0) if players % 2 == 0 else (1, -1, 0)
    return cycle[hand_index % len(cycle)]


def direction_name(offset: int, players: int) -> str:
    if offset == 0:
        return "hold"
    if offset == 1:
        return "left"
    if offset == -1:
        return "right"
    return "across"


class Hearts(Game):
    name = "hearts"
    title = "Cancellation Hearts"
    rules_version = "1"
    min_players = 3
    max_players = 11
    lowest_score_wins = True
    shared_observation_lists = ("tricks",)  # (see HeartsState._trick_views)
    option_spec = (
        Option("players", 6, "number of players: 6..11 with two decks, 3..7 with one", None, 3, 11),
        Option("decks", 2, "2: Cancellation Hearts; 1: ordinary Hearts with the Black Maria", (1, 2)),
        Option("target", 150, "a hand ending with someone at or above this ends the match", None, 1),
        Option("max_hands", 0, "end the match after this many hands (0 = no limit)", None, 0),
        Option("moon_value", 26, "points of shooting the moon", (26, 52)),
        Option(
            "moon",
            "choice",
            "choice: the shooter picks minus or plus; minus/plus: always that; none: no moon",
            ("choice", "minus", "plus", "none"),
        ),
        Option(
            "passing",
            "alternate",
            "alternate: left, right, ...; cycle: left, right, across (even players), hold; none",
            ("alternate", "cycle", "none"),
        ),
        Option(
            "first_lead",
            "no_points",
            "no_points: dealer's left leads any card but a heart or QS; two_clubs: lowest club leads",
            ("no_points", "two_clubs"),
        ),
        Option("points_on_first_trick", True, "a player who cannot follow may discard points to trick 1"),
        Option("queen_breaks_hearts", True, "playing QS breaks hearts, as a heart does"),
        Option(
            "dead_trick_lead",
            "leader",
            "who leads after a trick nobody wins: leader (the same player) or left (his left)",
            ("leader", "left"),
        ),
        Option(
            "widow",
            "first_trick",
            "the widow goes with the first won trick or with the last won trick",
            ("first_trick", "last_trick"),
        ),
    )

    players: int
    decks: int
    hand_size: int
    widow_size: int
    total_points: int

    def _configure(self) -> None:
        self.players = int(self.options["players"])
        self.decks = int(self.options["decks"])
        lo, hi = PLAYER_RANGE[self.decks]
        if not lo <= self.players <= hi:
            raise InvalidOptionError(
                f"{self}: bad value {self.players} for option 'players': with decks={self.decks} "
                f"the game takes {lo} to {hi} players"
            )
        cards = FACES * self.decks
        self.hand_size = cards // self.players
        self.widow_size = cards - self.hand_size * self.players
        self.total_points = 26 * self.decks
        self._deck = list(range(cards))
        # Option flags and per-table tables for the hot paths.
        o = self.options
        n = self.players
        self.points_first_trick = bool(o["points_on_first_trick"])
        self.breakers = POINT_FACES if o["queen_breaks_hearts"] else HEART_FACES
        self.widow_first = o["widow"] == "first_trick"
        self.dead_left = o["dead_trick_lead"] == "left"
        self.two_clubs = o["first_lead"] == "two_clubs"
        self.next_seat = tuple((s + 1) % n for s in range(n))
        self.seat_tuples = tuple((s,) for s in range(n))
        self.pairs = tuple(tuple((s, a) for a in range(NUM_ACTIONS)) for s in range(n))
        self.game_string = str(self)
        self.passing = str(o["passing"])
        self.moon = str(o["moon"])
        self.moon_value = int(o["moon_value"])
        self.max_hands = int(o["max_hands"])
        self.target = int(o["target"])
        self.deal_steps = deal_steps(cards, n)

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def deck(self) -> list[Card]:
        return list(self._deck)

    def _blank_state(self, seed: int) -> HeartsState:
        return HeartsState(self, seed)

    def _action_label(self, action: Action) -> str:
        if action < PASS_BASE:
            return play_label(action)
        if action < MOON_MINUS:
            return "pass " + format_card(action - PASS_BASE)
        return "moon minus" if action == MOON_MINUS else "moon plus"

    def _action_info(self, action: Action) -> dict[str, Any]:
        if action < PASS_BASE:
            return {"kind": "play", "card": format_card(action)}
        if action < MOON_MINUS:
            return {"kind": "pass", "card": format_card(action - PASS_BASE)}
        return {"kind": "moon", "choice": "minus" if action == MOON_MINUS else "plus"}

    def _parse_action(self, words: list[str]) -> int | None:
        if words[0] == "moon" and len(words) == 2:
            return {"minus": MOON_MINUS, "plus": MOON_PLUS}.get(words[1])
        if words[0] == "pass" and len(words) == 2:
            try:
                return PASS_BASE + parse_card(words[1])
            except InvalidCardError:
                return None
        try:
            return parse_play(words)
        except InvalidCardError:
            return None

    # --- search: a full state from one seat's observation (bots) ------------------------------

    def sample_state(self, observation: Observation, rng: random.Random) -> HeartsState:
        """A state the observing seat cannot tell from the real one, built from its observation alone (the
        form bots read: cards as face ints).

        The score sheet and the current hand's public history (passes, tricks, the trick on the table)
        are replayed on a deal built to fit them: every seat holds the cards it was seen to play, the
        receiver of the seat's pass holds the passed cards it has not played, the seat's own hand, pass
        and received cards are exact. The cards the seat cannot know (other hands, other seats' chosen
        passes, the widow) are then re-dealt by ``resample`` (voids and passes respected) and future
        deals come from a fresh seed. The history of the sampled state is empty.
        """
        o = observation
        n = self.players
        me = o["seat"]
        if isinstance(me, bool) or not isinstance(me, int) or not 0 <= me < n:
            raise ValueError(f"{self}: sample_state needs one seat's observation, got seat {me!r}")
        over = o["phase"] == OVER
        sheet = [dict(row) for row in o["score_sheet"]]
        totals = list(o["scores"])
        if over:  # rebuild the last hand too, then restore its row
            last = sheet.pop()
            totals = [t - d for t, d in zip(last["totals"], last["deltas"], strict=True)]
        state = HeartsState(self, rng.randrange(2**63))
        state.scores_ = totals
        state.score_sheet = sheet
        state.hand_index = len(sheet)
        state.dealer = int(o["dealer"])
        state.winners_ = ()
        offset = pass_offsets(str(self.options["passing"]), n, state.hand_index)

        plays: list[tuple[int, int]] = [(p["seat"], p["card"]) for t in o["tricks"] for p in t["cards"]]
        plays += [(p["seat"], p["card"]) for p in o["trick"]]
        pool = Counter({f: self.decks for f in range(FACES)})  # faces not yet placed
        final: list[list[int]] = [[] for _ in range(n)]  # each seat's hand after the passes
        for s, f in plays:
            final[s].append(f)
        mine: list[int] = o["hand"]
        chosen: list[int] = o["passing"]
        final[me] += mine
        for s in range(n):
            pool.subtract(final[s])
        pool.subtract(chosen)
        in_pass = o["phase"] == PASS
        to = (me + offset) % n
        my_pass: list[int] = o["passed_cards"]
        unknown = list(o["hand_sizes"])  # cards in each hand the seat cannot name
        if in_pass:
            unknown = [k + c for k, c in zip(unknown, o["passes_chosen"], strict=True)]
        elif offset:
            # The receiver of my pass still holds what it has not played of it.
            need = Counter(my_pass)
            need.subtract(f for s, f in plays if s == to)
            for f, k in need.items():
                for _ in range(k):
                    final[to].append(f)
                    pool[f] -= 1
                    unknown[to] -= 1
        rest = sorted(pool.elements())
        for s in range(n):
            if s != me:
                final[s] += rest[: unknown[s]]
                del rest[: unknown[s]]
        widow = rest
        if in_pass:
            final[me] += chosen
            pre = final
        elif offset:
            # Who passed what: my pass and what I received are known; the others pass any 3 cards of
            # their receiver's hand.
            passed: list[list[int]] = [[] for _ in range(n)]
            for r in range(n):
                giver = (r - offset) % n
                if giver == me:
                    passed[giver] = my_pass
                elif r == me:
                    passed[giver] = list(o["received_cards"])
                else:
                    passed[giver] = final[r][-3:]
            pre = []
            for s in range(n):
                hand = Counter(final[s])
                hand.subtract(passed[(s - offset) % n])
                hand.update(passed[s])
                pre.append(sorted(hand.elements()))
        else:
            pre = final
        # Physical cards: the first copy of a face goes to the first holder.
        copies = [0] * FACES

        def physical(f: int) -> int:
            k = copies[f]
            copies[f] = k + 1
            return f + FACES * k

        piles = [[physical(f) for f in sorted(pre[s])] for s in range(n)]
        deck = [0] * (self.hand_size * n)
        first = state.dealer + 1
        for s in range(n):
            k = (s - first) % n
            deck[k::n] = piles[s]
        deck += [physical(f) for f in widow]
        state._deal(deck)
        if in_pass:
            for f in chosen:
                state._apply(me, PASS_BASE + f)
            for s in range(n):
                if s != me:
                    for f in pre[s][: o["passes_chosen"][s]]:
                        state._apply(s, PASS_BASE + f)
        else:
            if offset:
                for s in range(n):
                    pass_faces = passed[s]
                    for f in pass_faces:
                        state._apply(s, PASS_BASE + f)
            # The first leader is public; with ``first_lead=two_clubs`` so is the card he led.
            if plays:
                state.leader = state.current = plays[0][0]
                if self.options["first_lead"] == "two_clubs":
                    state.forced = plays[0][1]
            for s, f in plays:
                state._apply(s, f)
            if over and state.phase == MOON:
                state._apply(state.current, _MOON_OF[last["moon_choice"]])
        if over:
            state.score_sheet = [dict(row) for row in o["score_sheet"]]
            state.scores_ = list(o["scores"])
            state.winners_ = tuple(o["winners"])
            return state
        sampled = state.resample(me, rng)
        if self.options["first_lead"] == "two_clubs" and o["phase"] == PLAY and not plays:
            # The leader must hold the lowest club of the players' hands: deal again until he does.
            for _ in range(1000):
                sampled._start_play()
                if sampled.leader == o["leader"]:
                    break
                sampled = state.resample(me, rng)
        return sampled

    def deal_replay(
        self, observation: Observation, sampled: State
    ) -> tuple[HeartsState, list[tuple[Seat, Action]]] | None:
        """``sampled`` (a state drawn from ``observation``, as :meth:`sample_state` gives) rewound to the
        first lead of the hand in hand, every seat holding what it held after the passes (its cards now
        and those it was seen to play; the rest of the two decks, or the deck, in the widow), and the
        hand's plays since, for an opponent model to replay (the expert bot's inference); nothing is
        applied. The passes are not replayed (who passed what to whom is not the sample's to say), so
        None while passing, when nothing was played yet, and once the match is over."""
        assert isinstance(sampled, HeartsState)
        o = observation
        plays: list[tuple[int, int]] = [(p["seat"], p["card"]) for t in o["tricks"] for p in t["cards"]]
        plays += [(p["seat"], p["card"]) for p in o["trick"]]
        if o["phase"] not in (PLAY, MOON) or not plays:
            return None
        n = self.players
        state = HeartsState(self, sampled.seed)
        state.scores_ = list(sampled.scores_)
        state.score_sheet = [dict(row) for row in sampled.score_sheet]
        state.hand_index = sampled.hand_index
        state.dealer = sampled.dealer
        final = [[b % FACES for b in range(2 * FACES) if sampled.hands[s] >> b & 1] for s in range(n)]
        for s, f in plays:
            final[s].append(f)
        pool = Counter({f: self.decks for f in range(FACES)})
        for hand in final:
            pool.subtract(hand)
        copies = [0] * FACES

        def physical(f: int) -> int:
            k = copies[f]
            copies[f] = k + 1
            return f + FACES * k

        piles = [[physical(f) for f in sorted(final[s])] for s in range(n)]
        deck = [0] * (self.hand_size * n)
        first = state.dealer + 1
        for s in range(n):
            deck[(s - first) % n :: n] = piles[s]
        deck += [physical(f) for f in sorted(pool.elements())]
        state._deal(deck)
        if state.phase == PASS:
            state._start_play()
        # The first leader is public; with ``first_lead=two_clubs`` so is the card he led.
        state.leader = state.current = plays[0][0]
        state.to_act = (plays[0][0],)
        if self.options["first_lead"] == "two_clubs":
            state.forced = plays[0][1]
        return state, plays


class HeartsState(State):
    """One match. Hands are bitmasks of physical cards; ``trick`` lists ``(seat, face)``.

    ``to_act`` and ``is_over`` are plain attributes kept up to date by every change of turn, so the loops
    of bots and simulations read them without a call.
    """

    ruleset: Hearts
    to_act: tuple[int, ...] = ()
    is_over: bool = False

    def __init__(self, game: Hearts, seed: int) -> None:
        """A blank match, not dealt: :meth:`start` deals it (``clone`` and ``sample_state`` fill the
        state in instead)."""
        super().__init__(game, seed)
        self.ruleset = game
        self.n = game.players
        self.scores_ = [0] * self.n
        self.score_sheet: list[dict[str, Any]] = []
        self.hand_index = 0
        self.dealer = 0
        # The hand's finished tricks as an observation shows them, per form (text, ints), built once
        # each (a table's frames rebuilt every finished trick of the hand for each seat at every
        # action); None until observed (a search's many copies never are) and again at each deal.
        self.trick_views: tuple[list[dict[str, Any]], list[dict[str, Any]]] | None = None

    def start(self, deck: list[int] | None) -> None:
        self.stacked_deck = deck
        self.dealer = derived_rng(self.seed, "first dealer").randrange(self.n)
        self._deal(deck)

    # --- dealing and phases ------------------------------------------------------------------

    def _deal(self, deck: list[int] | None) -> None:
        g = self.ruleset
        n = self.n
        first = self.dealer + 1
        if deck is None:
            piles = shuffle_and_deal(g.deal_steps, n, derived_rng(self.seed, "deal", self.hand_index))
            self.widow = piles.pop()
            k = n - first % n
            self.hands = piles[k:] + piles[:k]  # pile k goes to seat first + k
        else:
            hands = [0] * n
            dealt = g.hand_size * n
            bit = BITS2.__getitem__
            for k in range(n):
                hands[(first + k) % n] = sum(map(bit, deck[k:dealt:n]))
            self.hands = hands
            self.widow = sum(map(bit, deck[dealt:]))
        self.widow_taker = -1
        self.pass_offset = pass_offsets(g.passing, n, self.hand_index)
        self.pass_sel: list[list[int]] = [[] for _ in range(n)]
        self.passed: list[tuple[int, ...]] = [()] * n
        self.trick: list[tuple[int, int]] = []
        self.trick_mask = 0
        # Set by each lead: the suit's shift in a face mask and its table of legal follows.
        self.led_shift = 0
        self.led_faces = _SUIT_FACES[0]
        # Finished tricks: (leader, plays, winner or -1); a finished trick's list is never changed.
        self.tricks: list[tuple[int, list[tuple[int, int]], int]] = []
        self.trick_views = None
        self.set_aside = 0
        self.set_aside_count = 0
        self.taken = [0] * n
        self.uncollected = 0
        self.broken = False
        self.last_winner = -1
        self.forced = -1
        self.moon_seat = -1
        self.hand_points: list[int] = []
        self.uncollected_points = 0
        self.leader = self.current = -1
        if self.events is not None:
            self._emit(
                {
                    "type": "deal",
                    "deal": self.hand_index + 1,
                    "dealer": self.dealer,
                    "pass_direction": direction_name(self.pass_offset, n),
                    "hand_size": g.hand_size,
                    "widow_size": self.widow.bit_count(),
                    "hand": None,
                },
                {s: {"hand": display_cards(self.hands[s])} for s in range(n)},
            )
        if self.pass_offset:
            self.phase = PASS
            self.to_act = tuple(range(n))
        else:
            self._start_play()

    def _start_play(self) -> None:
        self.phase = PLAY
        n = self.n
        leader = (self.dealer + 1) % n
        self.forced = -1
        if self.ruleset.two_clubs:
            for rank in range(13):
                bits = _both(1 << rank)
                holders = [s for s in range(n) if self.hands[(leader + s) % n] & bits]
                if holders:
                    leader = (leader + holders[0]) % n
                    self.forced = rank
                    break
        self.leader = self.current = leader
        self.to_act = (leader,)

    # --- Game API ----------------------------------------------------------------------------

    def legal_actions_unchecked(self, seat: Seat) -> list[Action]:
        phase = self.phase
        if phase == PLAY:
            if seat != self.current:
                return []
            h = self.hands[seat]
            if h >> FACES:
                h = (h | h >> FACES) & FACE_MASK
            if self.trick:  # the common case first: follow suit if possible
                follow = h >> self.led_shift & 0x1FFF
                if follow:
                    return list(self.led_faces[follow])
                if not self.tricks and not self.ruleset.points_first_trick:
                    h = h & ~POINT_FACES or h
            elif not self.tricks:
                if self.forced >= 0:
                    return [self.forced]
                h = h & ~POINT_FACES or h
            elif not self.broken:
                h = h & ~HEART_FACES or h
            t = _SUIT_FACES  # ``faces_of(h)``, inline
            return [
                *t[0][h & 0x1FFF],
                *t[1][h >> 13 & 0x1FFF],
                *t[2][h >> 26 & 0x1FFF],
                *t[3][h >> 39 & 0x1FFF],
            ]
        if phase == PASS:
            if not 0 <= seat < self.n or len(self.pass_sel[seat]) >= 3:
                return []
            h = self.hands[seat]
            return pass_actions((h | h >> FACES) & FACE_MASK)
        if phase == MOON and seat == self.current:
            return [MOON_MINUS, MOON_PLUS]
        return []

    def _why_illegal(self, seat: Seat, action: Action) -> str:
        if self.phase == PASS:
            if action >= PASS_BASE + FACES:
                return " (the players are passing cards)"
            if action < PASS_BASE:
                return " (the players are passing cards: use 'pass <card>')"
            return f" (seat {seat} does not hold {format_card(action - PASS_BASE)})"
        if self.phase == MOON:
            return " (the shooter chooses 'moon minus' or 'moon plus')"
        if action >= PASS_BASE:
            return " (the hand is in its play phase)"
        h = self.hands[seat]
        if not (h | h >> FACES) >> action & 1:
            return f" (seat {seat} does not hold {format_card(action)})"
        if self.trick:
            return f" (must follow {SUITS[self.trick[0][1] // 13]})"
        if not self.tricks:
            if self.forced >= 0:
                return f" (the first lead must be {format_card(self.forced)})"
            return " (the first lead may not be a heart or QS)"
        return " (hearts are not broken)"

    def apply_unchecked(self, seat: Seat, action: Action) -> None:
        phase = self.phase
        if phase != PLAY:
            if phase == PASS:
                # ``_choose_pass``, inline while the seat has cards left to choose.
                face = action - PASS_BASE
                h = self.hands[seat]
                bit = BITS2[face]
                sel = self.pass_sel[seat]
                if h & bit and len(sel) < 2:
                    self.hands[seat] = h & ~bit
                    sel.append(face)
                else:
                    self._choose_pass(seat, face)
            else:
                self._finish_hand(action)
            self.history.append(self.ruleset.pairs[seat][action])
            return
        # ``_play``, inline: this is the hot path of every simulation.
        g = self.ruleset
        h = self.hands[seat]
        bit = BITS[action]
        if not h & bit:
            bit <<= FACES
        self.hands[seat] = h ^ bit
        if not self.broken and g.breakers >> action & 1:
            self.broken = True
        self.trick_mask |= bit
        play = g.pairs[seat][action]
        self.history.append(play)
        trick = self.trick
        if not trick:
            self.led_shift = LED_SHIFT[action]
            self.led_faces = LED_FACES[action]
        trick.append(play)
        if len(trick) < self.n:
            self.current = nxt = g.next_seat[seat]
            self.to_act = g.seat_tuples[nxt]
        else:
            self._close_trick()

    def _apply(self, seat: Seat, action: Action) -> None:
        if self.phase == PLAY:
            self._play(seat, action)
        elif self.phase == PASS:
            self._choose_pass(seat, action - PASS_BASE)
        else:
            self._finish_hand(action)

    def _choose_pass(self, seat: Seat, face: int) -> None:
        # One physical card of ``face`` leaves the seat's hand (the lower copy first).
        h = self.hands[seat]
        bit = BITS2[face]
        if not h & bit:
            bit = BITS2[face + FACES]
            face += FACES
        self.hands[seat] = h & ~bit
        sel = self.pass_sel[seat]
        sel.append(face)
        if len(sel) < 3:
            return
        to_act = self.to_act
        i = to_act.index(seat)
        self.to_act = to_act = to_act[:i] + to_act[i + 1 :]
        if to_act:
            return
        n = self.n
        hands = self.hands
        passed = self.passed
        offset = self.pass_offset
        for s, sel in enumerate(self.pass_sel):
            cards = tuple(sel)
            passed[s] = cards
            r = (s + offset) % n
            for c in cards:
                hands[r] |= BITS2[c]
        self.pass_sel = [[] for _ in range(n)]
        if self.events is not None:
            self._log_passes()
        self._start_play()

    def _play(self, seat: Seat, face: int) -> None:
        g = self.ruleset
        h = self.hands[seat]
        bit = BITS[face]
        if not h & bit:
            bit <<= FACES
        self.hands[seat] = h ^ bit
        if not self.broken and g.breakers >> face & 1:
            self.broken = True
        self.trick_mask |= bit
        trick = self.trick
        if not trick:
            self.led_shift = LED_SHIFT[face]
            self.led_faces = LED_FACES[face]
        trick.append(g.pairs[seat][face])
        if len(trick) < self.n:
            self.current = nxt = g.next_seat[seat]
            self.to_act = g.seat_tuples[nxt]
        else:
            self._close_trick()

    def _close_trick(self) -> None:
        """The trick is complete: it goes to its winner, or is set aside."""
        g = self.ruleset
        if g.decks == 1:  # nothing cancels: the highest card of the suit led wins, nothing is set aside
            trick = self.trick
            mask = self.trick_mask
            top = (mask & SUIT_MASKS[SUIT_OF[trick[0][1]]]).bit_length() - 1
            winner = -1
            for seat, f in trick:
                if f == top:
                    winner = seat
                    break
            if self.events is not None:
                self._log_trick(winner)
            tricks = self.tricks
            tricks.append((self.leader, trick, winner))
            self.taken[winner] |= mask
            if self.widow_taker < 0 and self.widow and g.widow_first:
                self.widow_taker = winner
            self.last_winner = self.leader = self.current = winner
            self.to_act = g.seat_tuples[winner]
            self.trick = []
            self.trick_mask = 0
            if len(tricks) == g.hand_size:
                self._end_hand()
            return
        winner = self._trick_winner()
        if self.events is not None:
            self._log_trick(winner)
        tricks = self.tricks
        tricks.append((self.leader, self.trick, winner))
        if winner >= 0:
            self.taken[winner] |= self.trick_mask | self.set_aside
            if self.set_aside:
                self.set_aside = 0
                self.set_aside_count = 0
            if self.widow_taker < 0 and self.widow and g.widow_first:
                self.widow_taker = winner
            self.last_winner = winner
            self.leader = winner
        else:
            self.set_aside |= self.trick_mask
            self.set_aside_count += 1
            if g.dead_left:
                self.leader = g.next_seat[self.leader]
        self.current = self.leader
        self.to_act = g.seat_tuples[self.leader]
        self.trick = []
        self.trick_mask = 0
        if len(tricks) == g.hand_size:
            self._end_hand()

    @property
    def excluded(self) -> list[int]:
        """Physical cards each seat has shown it cannot hold this hand (voids, a forced or a pointless
        first lead, hearts led unbroken), for ``resample``; derived from the hand's plays."""
        g = self.ruleset
        n = self.n
        excluded = [0] * n
        broken = False
        first = True
        for cards in [t[1] for t in self.tricks] + [self.trick]:
            if not cards:
                break
            led = SUIT_OF[cards[0][1]]
            for k, (seat, face) in enumerate(cards):
                if k:
                    if SUIT_OF[face] != led:
                        excluded[seat] |= SUIT2[led]
                        if first and not g.points_first_trick and POINT_FACES >> face & 1:
                            excluded[seat] |= NONPOINTS2
                elif first:
                    if self.forced >= 0:
                        # Nobody holds a lower club, and nobody before the leader holds this one.
                        for s in range(n):
                            excluded[s] |= CLUB_BELOW[face]
                        s = (self.dealer + 1) % n
                        while s != seat:
                            excluded[s] |= _both(1 << face)
                            s = (s + 1) % n
                    elif POINT_FACES >> face & 1:
                        excluded[seat] |= NONPOINTS2
                elif not broken and SUIT_OF[face] == HEARTS:
                    excluded[seat] |= NONHEARTS2
                if g.breakers >> face & 1:
                    broken = True
            first = False
        return excluded

    def _led_faces(self) -> tuple[int, int]:
        """The faces of the suit led in the trick on the table (a mask), and those played twice
        (which cancel)."""
        suit = SUIT_MASKS[SUIT_OF[self.trick[0][1]]]
        seen = dup = 0
        for _, f in self.trick:
            bit = BITS[f]
            if bit & suit:
                if seen & bit:
                    dup |= bit
                seen |= bit
        return seen, dup

    def _trick_winner(self) -> int:
        """The seat of the highest uncancelled card of the suit led, or -1 when none is left."""
        trick = self.trick
        led = SUIT_OF[trick[0][1]]
        if self.ruleset.decks == 1:  # nothing cancels: the highest card of the suit led
            top = (self.trick_mask & SUIT_MASKS[led]).bit_length() - 1
            for s, f in trick:
                if f == top:
                    return s
        seen, dup = self._led_faces()
        alive = seen & ~dup
        if not alive:
            return -1
        top = alive.bit_length() - 1
        for s, f in trick:
            if f == top:
                return s
        raise AssertionError("unreachable")

    def _end_hand(self) -> None:
        g = self.ruleset
        self.uncollected |= self.set_aside
        self.set_aside = 0
        self.set_aside_count = 0
        if self.widow and not g.widow_first:
            self.widow_taker = self.last_winner
            if self.events is not None and self.widow_taker >= 0:
                self._emit({"type": "widow", "seat": self.widow_taker, "size": self.widow.bit_count()})
        widow_points = points_of(self.widow)
        self.uncollected_points = points_of(self.uncollected)
        if self.widow_taker < 0:
            self.uncollected_points += widow_points
        points = [points_of(t) for t in self.taken]
        if self.widow_taker >= 0:
            points[self.widow_taker] += widow_points
        self.hand_points = points
        moon = g.moon
        shooter = points.index(g.total_points) if g.total_points in points else -1
        if shooter >= 0 and moon != "none":
            self.moon_seat = shooter
            if self.events is not None:
                self._emit({"type": "moon", "seat": shooter, "choice": None if moon == "choice" else moon})
            if moon == "choice":
                self.phase = MOON
                self.current = shooter
                self.to_act = (shooter,)
                return
            self._finish_hand(MOON_MINUS if moon == "minus" else MOON_PLUS)
            return
        self._finish_hand(-1)

    def _finish_hand(self, moon_action: int) -> None:
        g = self.ruleset
        n = self.n
        points = self.hand_points
        value = g.moon_value
        if moon_action == MOON_MINUS:
            deltas = [-value if s == self.moon_seat else 0 for s in range(n)]
        elif moon_action == MOON_PLUS:
            deltas = [0 if s == self.moon_seat else value for s in range(n)]
        else:
            deltas = list(points)
        for s in range(n):
            self.scores_[s] += deltas[s]
        self.score_sheet.append(
            {
                "hand": self.hand_index + 1,
                "dealer": self.dealer,
                "pass_direction": direction_name(self.pass_offset, n),
                "points": list(points),
                "uncollected": self.uncollected_points,
                "widow_taker": None if self.widow_taker < 0 else self.widow_taker,
                "moon": None if self.moon_seat < 0 else self.moon_seat,
                "moon_choice": {MOON_MINUS: "minus", MOON_PLUS: "plus"}.get(moon_action),
                "deltas": deltas,
                "totals": list(self.scores_),
            }
        )
        if self.events is not None:
            self._log_scored(deltas)
        self.hand_index += 1
        limit = g.max_hands
        if max(self.scores_) >= g.target or (limit > 0 and self.hand_index >= limit):
            self.phase = OVER
            self.is_over = True
            self.to_act = ()
            low = min(self.scores_)
            self.winners_ = tuple(s for s in range(n) if self.scores_[s] == low)
            return
        self.dealer = (self.dealer + 1) % n
        self._deal(None)

    # --- events (logged only while a Table listens) ------------------------------------------

    def _log_passes(self) -> None:
        """The passes have been exchanged: who passed how many cards to whom (public); each seat's own
        pass and what it received (private)."""
        n = self.n
        offset = self.pass_offset
        passed = self.passed
        private: dict[int, dict[str, Any]] = {}
        for s in range(n):
            private[s] = {
                "passed_cards": display_cards(mask_of(passed[s])),
                "received_cards": display_cards(mask_of(passed[(s - offset) % n])),
            }
        self._emit(
            {
                "type": "passes",
                "direction": direction_name(offset, n),
                "passes": [{"seat": s, "to": (s + offset) % n, "count": len(passed[s])} for s in range(n)],
                "passed_cards": None,
                "received_cards": None,
            },
            private,
        )

    def _log_trick(self, winner: int) -> None:
        """The trick on the table is complete and goes to ``winner`` (-1: set aside); called before the
        state records it."""
        trick = self.trick
        dup = self._led_faces()[1]
        won = winner >= 0
        self._emit(
            {
                "type": "trick",
                "number": len(self.tricks) + 1,
                "leader": self.leader,
                "cards": [{"seat": s, "card": LABELS[f]} for s, f in trick],
                "winner": winner if won else None,
                "cancelled": display_cards(dup),
                "points": points_of(self.trick_mask),
                "collected": self.set_aside_count if won else 0,
                "collected_points": points_of(self.set_aside) if won else 0,
                "set_aside": 0 if won else self.set_aside_count + 1,
            }
        )
        if won and self.widow_taker < 0 and self.widow and self.ruleset.widow_first:
            self._emit({"type": "widow", "seat": winner, "size": self.widow.bit_count()})

    def _log_scored(self, deltas: list[int]) -> None:
        """The hand is scored (its row is on the score sheet): the points, the totals and how they came."""
        row = self.score_sheet[-1]
        widow_points = points_of(self.widow)
        players = []
        for s, t in enumerate(self.taken):
            hearts = (t & HEARTS2).bit_count()
            queens = (t & QS2).bit_count()
            widow = widow_points if s == self.widow_taker else 0
            players.append(
                {"hearts": hearts, "queens": queens, "widow": widow, "taken": hearts + 13 * queens + widow}
            )
        self._emit(
            {
                "type": "deal_scored",
                "deal": row["hand"],
                "dealer": row["dealer"],
                "points": list(deltas),
                "totals": list(self.scores_),
                "players": players,
                "uncollected": row["uncollected"],
                "widow_taker": row["widow_taker"],
                "moon": row["moon"],
                "moon_choice": row["moon_choice"],
            }
        )

    def action_audience(self, seat: Seat, action: Action) -> tuple[tuple[int, ...], str] | None:
        """A pass is seen by the passer alone; everyone else sees that a card was passed."""
        if PASS_BASE <= action < MOON_MINUS:
            return (seat,), "pass"
        return None

    # --- what a seat sees --------------------------------------------------------------------

    def _known_passed(self, seat: Seat) -> tuple[int, int]:
        """(receiver, physical cards) of the cards ``seat`` passed that the receiver must still hold."""
        if not 0 <= seat < self.n or not self.passed[seat]:
            return -1, 0
        receiver = (seat + self.pass_offset) % self.n
        need = Counter(c % FACES for c in self.passed[seat])
        for _, cards, _ in self.tricks:
            for s, f in cards:
                if s == receiver:
                    need[f] -= 1
        for s, f in self.trick:
            if s == receiver:
                need[f] -= 1
        h = self.hands[receiver]
        known = 0
        for f, k in need.items():
            for c in (f, f + FACES):
                if k > 0 and h >> c & 1:
                    known |= 1 << c
                    k -= 1
        return receiver, known

    def _trick_views(self, form: int) -> list[dict[str, Any]]:
        """The finished tricks of the hand as the observation shows them in ``form``: each trick's entry
        built once (a finished trick never changes) and shared by the observations that follow."""
        tricks = self.tricks
        cached = self.trick_views
        if cached is None:
            cached = self.trick_views = ([], [])
        views = cached[form]
        if len(views) < len(tricks):
            names = NAMES[form]
            for lead, cards, w in tricks[len(views) :]:
                views.append(
                    {
                        "leader": lead,
                        "cards": [{"seat": s, "card": names[f]} for s, f in cards],
                        "winner": None if w < 0 else w,
                    }
                )
        return views

    def _observation(self, seat: Seat | None, ints: bool = False) -> Observation:
        form = 1 if ints else 0
        names = NAMES[form]

        def faces(cards: list[int] | tuple[int, ...]) -> list[Any]:
            return display_cards(mask_of(cards), form) if cards else []

        n = self.n
        me = seat if seat is not None and 0 <= seat < n else -1
        passed_to = received_from = None
        passed_cards: list[Any] = []
        received_cards: list[Any] = []
        if me >= 0 and self.passed[me]:
            passed_to = (me + self.pass_offset) % n
            passed_cards = faces(self.passed[me])
            received_from = (me - self.pass_offset) % n
            received_cards = faces(self.passed[received_from])
        phase = self.phase
        obs: Observation = {
            "game": self.ruleset.game_string,
            "seat": seat,
            "phase": phase,
            "hand_number": self.hand_index + (0 if phase == OVER else 1),
            "dealer": self.dealer,
            "to_act": list(self.to_act),
            "hand": display_cards(self.hands[me], form) if me >= 0 else [],
            "hand_sizes": [h.bit_count() for h in self.hands],
            "widow_size": self.widow.bit_count(),
            "widow_taker": None if self.widow_taker < 0 else self.widow_taker,
            "pass_direction": direction_name(self.pass_offset, n),
            "passing": faces(self.pass_sel[me]) if me >= 0 else [],
            "passes_chosen": [len(sel) for sel in self.pass_sel],
            "passed_to": passed_to,
            "passed_cards": passed_cards,
            "received_from": received_from,
            "received_cards": received_cards,
            "hearts_broken": self.broken,
            "leader": None if self.leader < 0 else self.leader,
            "trick": [{"seat": s, "card": names[f]} for s, f in self.trick],
            "tricks": list(self._trick_views(form)),
            "set_aside_tricks": self.set_aside_count,
            "uncollected": display_cards(self.uncollected, form) if self.uncollected else [],
            "trick_points": [
                (t & HEARTS2).bit_count() + 13 * (t & QS2).bit_count() if t else 0 for t in self.taken
            ],
            "moon": None if self.moon_seat < 0 else self.moon_seat,
            "scores": list(self.scores_),
            "score_sheet": [dict(row) for row in self.score_sheet],
            "target": self.game.options["target"],
            "is_over": self.is_over,
            "winners": list(self.winners_),
        }
        return obs

    def hidden_cards(self, seat: Seat | None) -> set[Card]:
        hidden = self.widow
        for s in range(self.n):
            if s != seat:
                hidden |= self.hands[s] | mask_of(self.pass_sel[s])
        if seat is not None:
            hidden &= ~self._known_passed(seat)[1]
        return set(cards_of(hidden))

    def zones(self) -> dict[str, list[Card]]:
        zones = {f"hand {s}": cards_of(self.hands[s]) for s in range(self.n)}
        zones |= {f"passing {s}": list(self.pass_sel[s]) for s in range(self.n)}
        zones |= {f"taken {s}": cards_of(self.taken[s]) for s in range(self.n)}
        zones["widow"] = cards_of(self.widow)
        zones["trick"] = cards_of(self.trick_mask)
        zones["set aside"] = cards_of(self.set_aside)
        zones["uncollected"] = cards_of(self.uncollected)
        return zones

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.scores_)

    @property
    def deals_finished(self) -> int:
        return self.hand_index

    # --- copies ------------------------------------------------------------------------------

    def clone(self) -> Self:
        # Every field, by name: a compiled state has no __dict__ to copy wholesale.
        new = type(self)(self.ruleset, self.seed)
        self._copy_common(new)
        new.broken = self.broken
        new.current = self.current
        new.dealer = self.dealer
        new.forced = self.forced
        new.hand_index = self.hand_index
        new.hand_points = list(self.hand_points)
        new.hands = list(self.hands)
        new.is_over = self.is_over
        new.last_winner = self.last_winner
        new.leader = self.leader
        new.led_faces = self.led_faces
        new.led_shift = self.led_shift
        new.moon_seat = self.moon_seat
        new.n = self.n
        new.pass_offset = self.pass_offset
        new.pass_sel = [list(sel) for sel in self.pass_sel]
        new.passed = list(self.passed)
        new.phase = self.phase
        new.score_sheet = list(self.score_sheet)
        new.scores_ = list(self.scores_)
        new.set_aside = self.set_aside
        new.set_aside_count = self.set_aside_count
        new.taken = list(self.taken)
        new.to_act = self.to_act
        new.trick = list(self.trick)
        new.trick_mask = self.trick_mask
        new.tricks = list(self.tricks)
        new.uncollected = self.uncollected
        new.uncollected_points = self.uncollected_points
        new.widow = self.widow
        new.widow_taker = self.widow_taker
        return new

    def resample(self, seat: Seat, rng: random.Random) -> Self:
        new = self.clone()
        new.seed = rng.randrange(2**63)
        if self.phase == OVER:
            return new
        receiver, known = self._known_passed(seat)
        # Piles the seat cannot see into: other hands, other seats' chosen passes, the widow.
        pile_cards: list[int] = []
        sizes: list[int] = []
        excluded: list[int] = []
        seen = self.excluded
        others = [s for s in range(self.n) if s != seat]
        for s in others:
            cards = cards_of(self.hands[s] & ~known)
            pile_cards += cards
            sizes.append(len(cards))
            excluded.append(seen[s])
        for s in others:
            pile_cards += self.pass_sel[s]
            sizes.append(len(self.pass_sel[s]))
            excluded.append(0)
        widow = cards_of(self.widow)
        pile_cards += widow
        sizes.append(len(widow))
        excluded.append(0)
        piles = deal_constrained(pile_cards, sizes, excluded, rng)
        k = len(others)
        for i, s in enumerate(others):
            new.hands[s] = mask_of(piles[i]) | (known if s == receiver else 0)
            new.pass_sel[s] = sorted(piles[k + i])
        new.widow = mask_of(piles[-1])
        return new


# --- registration --------------------------------------------------------------------------------
