"""Gin's observation as bits, for the gin RL encoder: :func:`card_bits` and its :class:`BitLayout`.

The encoder (:mod:`cardhall.rl.encoders.gin`) could build its array from ``observation(seat,
ints=True)`` alone, as every other encoder does, and does so in ``encode``; but an RL step is mostly
that observation's cost. So ``encode_state`` asks this module instead, which reads the same facts
straight from the :class:`~cardhall.games.gin.GinState` into one long int at a fraction of the cost
(about 1.7 µs), and a test requires the same array both ways at every step of seeded matches.

It is RL code, so it lives with the encoders, not with the rules; but it is compiled with the engine
(:data:`cardhall.engine_build.ENGINE_DRIVERS`, standard library only), so its reads of the state's
fields and helpers are native calls, as fast as when it was a method of the state.
"""

from __future__ import annotations

from typing import Final

from cardhall.games.gin.melds import deadwood_mask, is_set
from cardhall.games.gin.rules import ARRANGE, OVER, GinState

# Each byte with its bits in reverse order (for card_bits).
_BITS_REVERSED: Final = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))


class BitLayout:
    """Where :func:`card_bits` puts each fact: the position of its first bit. Cards take 52
    bits (bit ``c``: card ``c``); per-seat cards 52 per seat and a seat (or a seat's flag) one bit per
    seat, both counted from the observing seat; the phase and the role are one-hot over ``phases`` and
    ``roles`` with one more bit, *other*, after them. ``arrangements`` holds up to ``layouts`` of the
    knocker's layouts, 104 bits each (its deadwood cards, then its cards in sets); ``suggested`` is,
    per action int, the bits the advisor's suggestion of that action sets (empty: none shown)."""

    def __init__(
        self,
        *,
        size: int,
        phase: int,
        phases: tuple[str, ...],
        role: int,
        roles: tuple[str, ...],
        hand: int,
        pile: int,
        top: int,
        banned: int,
        known: int,
        shown: int,
        spread: int,
        melds: int,
        arrangements: int,
        layouts: int,
        to_act: int,
        current: int,
        dealer: int,
        knocker: int,
        declined: int,
        suggested: list[int],
    ) -> None:
        self.size = size
        self.phase = phase
        self.phases = phases
        self.role = role
        self.roles = roles
        self.hand = hand
        self.pile = pile
        self.top = top
        self.banned = banned
        self.known = known
        self.shown = shown
        self.spread = spread
        self.melds = melds
        self.arrangements = arrangements
        self.layouts = layouts
        self.to_act = to_act
        self.current = current
        self.dealer = dealer
        self.knocker = knocker
        self.declined = declined
        self.suggested = suggested
        self.seats = min(to_act, current, dealer, knocker, declined)  # the lowest of the seat fields


def card_bits(state: GinState, seat: object, at: BitLayout) -> tuple[bytes, list[float]]:
    """What ``observation(seat, ints=True)`` tells that an encoder reads, as one bit string and a few
    numbers, with nothing built per move: the same facts at a fraction of the cost, for
    ``cardhall.rl``'s gin encoder (its tests require the same array from both, at every step of
    seeded matches). ``at`` says where each fact's bits go (see :class:`BitLayout`).

    The bytes (``at.size`` bits rounded up; bit ``i`` in byte ``i // 8``, the most significant bit
    first, the order numpy's ``unpackbits`` reads fastest) hold every 0/1 fact; the numbers are,
    per seat counted from ``seat``, cards held / 11, score / target, hands won / 10, then the
    stock size / 31, whether the advisor has spoken, the knocker's deadwood / 10 and his
    opponent's / 100 (numbers clipped to 1)."""
    if type(seat) is not int or not 0 <= seat < state.n:
        raise state._bad_seat(seat)
    n = state.n
    rel = [(s - seat) % n for s in range(n)]
    holder = state._holder(seat)
    phases = at.phases
    roles = at.roles
    phase = state.phase
    role = state._role(seat)
    bits = 1 << at.phase + (phases.index(phase) if phase in phases else len(phases))
    bits |= 1 << at.role + (roles.index(role) if role in roles else len(roles))
    # The seat flags go into a small int first, counted from the lowest of their fields, and join
    # the long one once: each operation on the long int copies all of it.
    base = at.seats
    seats = 1 << at.dealer - base + rel[state.dealer]
    if holder is not None:
        bits |= state.hands[holder] << at.hand
    pile = 0
    for c in state.pile:
        pile |= 1 << c
    bits |= pile << at.pile
    if state.pile:
        bits |= 1 << at.top + state.pile[-1]
    if state.banned >= 0:
        bits |= 1 << at.banned + state.banned
    shown = state.shown_by
    declined = state.passed_upcard
    for s in range(n):
        bits |= state.known[s] << at.known + 52 * rel[s] | shown[s] << at.shown + 52 * rel[s]
        if declined >> s & 1:
            seats |= 1 << at.declined - base + rel[s]
    if state.spread:
        for s in range(n):
            bits |= state.hands[s] << at.spread + 52 * rel[s]
    for s in state.to_act:
        seats |= 1 << at.to_act - base + rel[s]
    if phase != OVER:
        seats |= 1 << at.current - base + rel[state.current]
    laid = state.knocker >= 0 and phase != ARRANGE  # nothing is laid while he arranges
    deadwood = opponent = 0.0
    if laid:
        melds = 0
        for m in state.melds:
            melds |= m
        bits |= melds << at.melds
        seats |= 1 << at.knocker - base + rel[state.knocker]
        deadwood = min(state.knock_value / 10, 1.0)
        opponent = min(deadwood_mask(state.hands[state._other(state.knocker)]) / 100, 1.0)
    # The knocker's layouts to choose from, as his side sees them: deadwood cards, cards in sets.
    if phase == ARRANGE and state._sees(seat, state.knocker):
        start = at.arrangements
        for choice, dead, _ in state.arrangements[: at.layouts]:
            in_sets = 0
            for m in choice:
                if is_set(m):
                    in_sets |= m
            bits |= dead << start | in_sets << start + 52
            start += 104
    suggestion = state._shown_suggestion(seat)
    if suggestion >= 0 and at.suggested:
        bits |= at.suggested[suggestion]
    bits |= seats << base
    target = int(state.game.options["target"])
    numbers = [0.0] * (3 * n + 4)
    for s in range(n):
        r = rel[s]
        numbers[r] = min(state.hands[s].bit_count() / 11, 1.0)
        numbers[n + r] = min(state.scores_[s] / target, 1.0)
        numbers[2 * n + r] = min(state.hands_won[s] / 10, 1.0)
    numbers[3 * n] = min(len(state.stock) / 31, 1.0)
    numbers[3 * n + 1] = 1.0 if state.advised else 0.0
    numbers[3 * n + 2] = deadwood
    numbers[3 * n + 3] = opponent
    return bits.to_bytes((at.size + 7) // 8, "little").translate(_BITS_REVERSED), numbers
