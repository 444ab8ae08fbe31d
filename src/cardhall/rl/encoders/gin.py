"""The gin encoder (three-hand gin in the box, or two-player gin): one seat's observation as a
fixed-size array (n = players, 3 or 2, relative to the observing seat; conventions in
:mod:`cardhall.rl.encoders.base`).

| field | size | meaning |
|---|---|---|
| `phase` | 7 | upcard, draw, discard, arrange, layoff, over, other (a phase added later is other) |
| `role` | 6 | box, captain, advisor, dealer, non-dealer, other |
| `hand` | 52 | this seat's cards (the advisor's: the team hand) |
| `discard_pile` | 52 | every card in the discard pile |
| `top_discard` | 52 | the card on top of the discard pile |
| `banned_discard` | 52 | the card just taken, which may not be discarded this turn |
| `known_cards` | 52 n | per relative seat, the cards everyone saw it take from the pile and still held |
| `shown` | 52 n | per relative seat, every card its moves showed this hand (taken, discarded, ...) |
| `spread_hands` | 52 n | once someone knocked: each relative seat's cards, face up |
| `knock_melds` | 52 | the knocker's melds (with the cards laid off on them) |
| `arrangements` | 104 x 6 | while the knocker picks a layout, to his side: per layout, deadwood, set cards |
| `to_act` | n | the seats to act |
| `current` | n | whose move it is (not the advisor) |
| `dealer` | n | the dealer (the box with three players) |
| `knocker` | n | who knocked this hand |
| `declined_upcard` | n | who passed on the up-card this hand |
| `hand_sizes` | n | cards held / 11 |
| `scores` | n | running totals / target |
| `hands_won` | n | hands won / 10 |
| `numbers` | 4 | stock size / 31, advisor has spoken (0/1), knocker's deadwood / 10, his opponent's / 100 |
| `suggestion` | 67 (3 players) | the captain's action the advisor suggested (seen by his team only) |

The suggestion is 9 values of its kind, one-hot (discard, knock, lay off, draw stock, take discard, pass,
done, arrange, other), then its card (52; zeros for an action without a card), then the layout it names
(6, one-hot, for ``arrange N``). It is read from the action's label (``game.action_label``: a kind, then
maybe a card or a layout's number), so the layout does not depend on how many actions the game has; a
kind of action added later is *other*.

The knocker may be offered up to 16 layouts (the game's cap), but no hand has shown more than 5 (the
game's own search), so the array holds the first ``LAYOUTS`` = 6: a seventh would read as zeros.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from cardhall.cards import parse_card
from cardhall.core import Observation, State
from cardhall.errors import InvalidCardError, InvalidOptionError
from cardhall.games.gin.melds import deadwood
from cardhall.games.gin.rules import GinState
from cardhall.rl.encoders.base import Array, Encoder
from cardhall.rl.encoders.gin_bits import BitLayout, card_bits

PHASES = ("upcard", "draw", "discard", "arrange", "layoff", "over")
ROLES = ("box", "captain", "advisor", "dealer", "non-dealer")
SUGGESTED = ("discard", "knock", "lay off", "draw stock", "take discard", "pass", "done", "arrange")
LAYOUTS = 6  # the knocker's layouts the array shows (more than 5 never seen)


class GinEncoder(Encoder):
    def _define(self) -> None:
        self.phase = self._enum("phase", PHASES, "the phase")
        self.role = self._enum("role", ROLES, "this seat's role in the hand")
        self.hand = self._cards("hand", "this seat's cards (the advisor's: the team hand)")
        self.pile = self._cards("discard_pile", "every card in the discard pile")
        self.top = self._cards("top_discard", "the card on top of the discard pile")
        self.banned = self._cards("banned_discard", "the card just taken, which may not be discarded now")
        self.known = self._seat_cards("known_cards", "cards each seat was seen to take and still holds")
        self.shown = self._seat_cards("shown", "every card each seat's moves showed this hand")
        self.spread = self._seat_cards("spread_hands", "once someone knocked: each seat's cards")
        self.melds = self._cards("knock_melds", "the knocker's melds, with the cards laid off on them")
        self.layouts = self._add(
            "arrangements",
            104 * LAYOUTS,
            f"while the knocker chooses his layout, seen by his side: per layout (the first {LAYOUTS}, "
            "`arrange 1` ..), its deadwood cards (52 faces), then its cards in sets (52 faces)",
        )
        self.to_act = self._per_seat("to_act", "the seats to act")
        self.current = self._seat("current", "whose move it is (not the advisor)")
        self.dealer = self._seat("dealer", "the dealer (the box with three players)")
        self.knocker = self._seat("knocker", "who knocked this hand")
        self.declined = self._per_seat("declined_upcard", "who passed on the up-card this hand")
        self.hand_sizes = self._per_seat("hand_sizes", "cards held / 11")
        self.scores = self._per_seat("scores", "running totals / target")
        self.hands_won = self._per_seat("hands_won", "hands won / 10")
        self.numbers = self._add(
            "numbers",
            4,
            "stock size / 31, advisor has spoken (0/1), knocker's deadwood / 10, "
            "knocker's opponent's deadwood / 100",
        )
        self.suggestion = None
        if self.players == 3:
            self.suggestion = self._add(
                "suggestion",
                len(SUGGESTED) + 1 + 52 + LAYOUTS,
                "the captain's action the advisor suggested: its kind (one-hot: "
                + ", ".join(SUGGESTED)
                + f", other), then its card (52 faces), then the layout it names (one-hot, {LAYOUTS})",
            )

    def _fill(self, out: Array, cards: list[int], flags: list[int], obs: Observation, me: int) -> None:
        self.put_enum(flags, self.phase, PHASES, obs["phase"])
        self.put_enum(flags, self.role, ROLES, obs["role"])
        self.put_cards(cards, self.hand, obs["hand"])
        pile = obs["discard_pile"]
        self.put_cards(cards, self.pile, pile)
        self.put_cards(cards, self.top, pile[-1:])
        if obs["banned_discard"] is not None:
            self.put_cards(cards, self.banned, (obs["banned_discard"],))
        for seat, held in enumerate(obs["known_cards"]):
            self.put_seat_cards(cards, self.known, seat, me, held)
        self.put_plays(cards, self.shown, obs["moves"], me)  # a move without a card shows none
        if obs["spread_hands"] is not None:
            for seat, held in enumerate(obs["spread_hands"]):
                self.put_seat_cards(cards, self.spread, seat, me, held)
        self.put_seats(flags, self.to_act, obs["to_act"], me)
        self.put_seat(flags, self.current, obs["current"], me)
        roles = obs["roles"]
        self.put_seat(flags, self.dealer, roles.get("box", roles.get("dealer")), me)
        knock = obs["knock"]
        if knock is not None:
            for meld in knock["melds"]:
                self.put_cards(cards, self.melds, meld)
            self.put_seat(flags, self.knocker, knock["seat"], me)
            self.put_value(out, self.numbers, knock["deadwood"], 10, 2)
            self.put_value(out, self.numbers, knock["opponent_deadwood"], 100, 3)
        start = self.layouts.start
        for i, layout in enumerate((obs.get("arrangements") or [])[:LAYOUTS]):
            cards += [start + 104 * i + c for c in layout["deadwood_cards"]]
            for meld in layout["melds"]:
                if len({c % 13 for c in meld}) == 1:  # a set: every card of one rank
                    cards += [start + 104 * i + 52 + c for c in meld]
        self.put_seats(flags, self.declined, obs["upcard_declined_by"], me)
        self.put_per_seat(out, self.hand_sizes, obs["hand_sizes"], me, 11)
        self.put_per_seat(out, self.scores, obs["scores"], me, obs["target"])
        self.put_per_seat(out, self.hands_won, obs["hands_won"], me, 10)
        self.put_value(out, self.numbers, obs["stock_size"], 31)
        self.put_value(out, self.numbers, float(obs["advised"]), 1, 1)
        suggestion = obs["suggestion"]
        if self.suggestion is not None and suggestion is not None:
            flags += self._suggested[suggestion]

    def encode_state(self, state: State, seat: int) -> Array:
        """The same array as :meth:`encode` of the seat's observation, built from
        :func:`~cardhall.rl.encoders.gin_bits.card_bits` of the state (the observation's facts as one
        bit string, nothing built per move of the hand, and a few numbers): the bits unpacked at once,
        the numbers written as one slice. Several times faster, since nothing is built or read per move
        of the hand."""
        if not isinstance(state, GinState):
            raise InvalidOptionError(f"{self.game}: the gin encoder encodes gin states, not {state!r}")
        packed, numbers = card_bits(state, seat, self._layout)
        bits = np.unpackbits(np.frombuffer(packed, np.uint8), count=self.size)
        out = bits.astype(np.float32)
        out[self._numbers] = numbers
        return out

    @cached_property
    def _numbers(self) -> slice:
        """Where ``card_bits``'s numbers go: ``hand_sizes`` to ``numbers``, side by side (see _layout)."""
        return slice(self.hand_sizes.start, self.numbers.stop)

    @cached_property
    def _layout(self) -> BitLayout:
        """Where this encoder's fields are, for :func:`~cardhall.rl.encoders.gin_bits.card_bits`.
        Its numbers come as one slice, from ``hand_sizes`` to ``numbers``, so those fields must stay
        side by side in this order."""
        assert self.scores.start == self.hand_sizes.stop and self.hands_won.start == self.scores.stop
        assert self.numbers.start == self.hands_won.stop
        suggested = []
        if self.suggestion is not None:
            suggested = [sum(1 << p for p in positions) for positions in self._suggested]
        return BitLayout(
            size=self.size,
            phase=self.phase.start,
            phases=PHASES,
            role=self.role.start,
            roles=ROLES,
            hand=self.hand.start,
            pile=self.pile.start,
            top=self.top.start,
            banned=self.banned.start,
            known=self.known.start,
            shown=self.shown.start,
            spread=self.spread.start,
            melds=self.melds.start,
            arrangements=self.layouts.start,
            layouts=LAYOUTS,
            to_act=self.to_act.start,
            current=self.current.start,
            dealer=self.dealer.start,
            knocker=self.knocker.start,
            declined=self.declined.start,
            suggested=suggested,
        )

    @cached_property
    def _suggested(self) -> list[list[int]]:
        """Per action int, the positions its suggestion sets: its kind (an index in SUGGESTED, or
        other), its card if it names one, the layout if it names one."""
        assert self.suggestion is not None
        start = self.suggestion.start
        out = []
        for action in range(self.game.num_distinct_actions):
            words = self.game.action_label(action).split()
            positions = []
            if words[-1].isdigit():  # "arrange N": the N-th layout
                layout = int(words.pop()) - 1
                if layout < LAYOUTS:
                    positions.append(start + len(SUGGESTED) + 1 + 52 + layout)
            else:
                try:
                    positions.append(start + len(SUGGESTED) + 1 + parse_card(words[-1]))
                    words = words[:-1]
                except InvalidCardError:
                    pass
            kind = " ".join(words)
            positions.append(start + (SUGGESTED.index(kind) if kind in SUGGESTED else len(SUGGESTED)))
            out.append(positions)
        return out

    # --- display ---------------------------------------------------------------------------------

    def describe(self, observation: Observation) -> list[str]:
        """The table in a few lines, for ``render``."""
        o = observation
        lines = [f"Hand {o['hand_number']}, phase {o['phase']}, roles {o['roles']}"]
        lines.append(
            f"Stock: {o['stock_size']} cards; discard pile (top last): {' '.join(o['discard_pile'])}"
        )
        if o.get("banned_discard"):
            lines.append(f"You may not discard {o['banned_discard']} this turn")
        if o.get("suggestion"):
            lines.append(f"Advisor suggests: {o['suggestion']}")
        knock = o.get("knock")
        if knock:
            melds = "  ".join(" ".join(m) for m in knock["melds"])
            lines.append(
                f"Seat {knock['seat']} {'went gin' if knock['gin'] else 'knocked'}: {melds}"
                f" | deadwood {' '.join(knock['deadwood_cards']) or '-'} = {knock['deadwood']}"
            )
        for i, arrangement in enumerate(o.get("arrangements") or (), 1):
            melds = "  ".join(" ".join(m) for m in arrangement["melds"])
            dead = " ".join(arrangement["deadwood_cards"]) or "-"
            lines.append(f"arrange {i}: {melds} | deadwood {dead} = {arrangement['deadwood']}")
        if o["seat"] is not None and o["hand"]:
            lines.append(f"Your deadwood: {deadwood(o['hand'])}")
        return lines


ENCODER = GinEncoder
