"""What every encoder shares: a layout of named slices, and the ways a slice is filled.

An encoder turns one seat's observation in the bots' form (``State.observation(seat, ints=True)``,
documented in the game's ``schema.json``) into a flat ``float32`` array of fixed size, every value in
``[-1, 1]``. It reads the observation and nothing else, so it cannot carry what the seat may not know.

Conventions shared by every game's encoder:

- **Seats are relative**: position ``i`` of a per-seat slice is the seat ``i`` places after the observing
  seat in the order of play (``i = 0``: the seat itself), so one policy can sit in any seat.
- **Cards** are 52 positions, ``suit * 13 + rank`` (clubs, diamonds, hearts, spades; ranks 2..A), one per
  face; with two decks a face held twice counts 1 and once 0.5 (each copy adds ``1 / decks``).
- **Enums** (a phase, a role) are one-hot with one extra last position, *other*, for a value this encoder
  does not know (a phase a newer version of the rules adds), so a new phase never breaks an encoder.
- **A seat** (the dealer, the leader) is one-hot over the relative seats; all zeros when there is none.
- **Numbers** are divided by a scale named in the encoder's table and clipped to ``[-1, 1]``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from cardhall.core import Game, Observation, State
from cardhall.errors import InvalidOptionError

Array = npt.NDArray[np.float32]
SUITS = "CDHS"


@dataclass(frozen=True)
class Field:
    """One named slice of the array."""

    name: str
    start: int
    size: int
    meaning: str

    @property
    def stop(self) -> int:
        return self.start + self.size


class Encoder(ABC):
    """Base of the per-game encoders: a subclass declares its fields in :meth:`_define` (in order) and
    fills them in :meth:`_fill`.

    For speed, ``_fill`` mostly collects positions rather than writing them one by one: ``cards``
    (positions of cards, each copy counting ``1 / copies``) and ``flags`` (positions set to 1, for
    one-hots and seat flags); numbers go straight into ``out``. :meth:`encode` writes the positions in
    one go and clips the array to ``[-1, 1]``.
    """

    copies = 1  # physical copies of each face (Hearts with two decks: 2)

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players = game.num_players
        self.fields: list[Field] = []
        self.size = 0
        self._define()
        self._by_name = {f.name: f for f in self.fields}

    # --- declaring -------------------------------------------------------------------------------

    @abstractmethod
    def _define(self) -> None:
        """Declare the fields, in order, with :meth:`_add` and its shorthands."""

    @abstractmethod
    def _fill(self, out: Array, cards: list[int], flags: list[int], obs: Observation, me: int) -> None:
        """Encode the observation of seat ``me``: positions of cards into ``cards``, positions set to 1
        into ``flags``, numbers into ``out`` (zeros on entry)."""

    def _add(self, name: str, size: int, meaning: str) -> Field:
        field = Field(name, self.size, size, meaning)
        self.fields.append(field)
        self.size += size
        return field

    def _cards(self, name: str, meaning: str) -> Field:
        return self._add(name, 52, meaning + " (52 faces)")

    def _seat_cards(self, name: str, meaning: str) -> Field:
        return self._add(name, 52 * self.players, meaning + " (52 faces per relative seat)")

    def _seat(self, name: str, meaning: str) -> Field:
        return self._add(name, self.players, meaning + " (one-hot relative seat; zeros: none)")

    def _per_seat(self, name: str, meaning: str) -> Field:
        return self._add(name, self.players, meaning + " (per relative seat)")

    def _enum(self, name: str, values: Sequence[str], meaning: str) -> Field:
        shown = ", ".join(values)
        return self._add(name, len(values) + 1, f"{meaning} (one-hot: {shown}, other)")

    # --- encoding --------------------------------------------------------------------------------

    def encode(self, obs: Observation) -> Array:
        """The array for one seat's observation (the bots' form, ``ints=True``)."""
        me = obs.get("seat")
        if not isinstance(me, int) or isinstance(me, bool):
            raise InvalidOptionError(f"{self.game}: an encoder reads a seat's observation, not a spectator's")
        out = np.zeros(self.size, dtype=np.float32)
        cards: list[int] = []
        flags: list[int] = []
        self._fill(out, cards, flags, obs, me)
        # Numbers first: the ones written below are in range already. ``out.clip`` and ``np.fromiter``
        # rather than ``np.clip`` and indexing by the list: each saves a microsecond or two a call.
        out.clip(-1.0, 1.0, out=out)
        if self.copies == 1:
            cards += flags  # a card counted twice in one slice (shown by two moves) reads 1
        elif cards:
            np.add.at(out, np.fromiter(cards, np.intp, len(cards)), 1.0 / self.copies)
            cards = flags
        else:
            cards = flags
        if cards:
            out[np.fromiter(cards, np.intp, len(cards))] = 1.0
        return out

    def encode_state(self, state: State, seat: int) -> Array:
        """The array for ``seat`` in ``state``: :meth:`encode` of its observation, unless a game's encoder
        has a faster way to the same array (the environments call this)."""
        return self.encode(state.observation(seat, ints=True))

    def field(self, name: str) -> Field:
        return self._by_name[name]

    # --- display ---------------------------------------------------------------------------------

    def describe(self, observation: Observation) -> list[str]:
        """Lines telling a person what an observation (text form) shows: the environments' ``render``
        (the RL front end's one display path; the terminal and the browser have their own). A game's
        encoder may tell its table better; this default lists the keys that are not the seat's own."""
        skip = {"game", "seat", "hand", "scores", "to_act", "legal_actions"}
        return [f"{k}: {v}" for k, v in observation.items() if k not in skip]

    def rel(self, seat: int, me: int) -> int:
        """The relative position of ``seat`` seen from ``me``."""
        return (seat - me) % self.players

    @staticmethod
    def put_cards(dst: list[int], field: Field, cards: Iterable[int]) -> None:
        start = field.start
        dst.extend([start + card % 52 for card in cards])

    def put_seat_cards(self, dst: list[int], field: Field, seat: int, me: int, cards: Iterable[int]) -> None:
        start = field.start + 52 * ((seat - me) % self.players)
        dst.extend([start + card % 52 for card in cards])

    def put_plays(self, dst: list[int], field: Field, plays: Iterable[dict[str, Any]], me: int) -> None:
        """Cards played (``{"seat", "card"}`` items, a card of None skipped), each at its player's
        relative seat."""
        start, n = field.start, self.players
        at = [start + 52 * ((seat - me) % n) for seat in range(n)]
        dst += [at[p["seat"]] + c % 52 for p in plays if (c := p["card"]) is not None]

    def put_seat(self, flags: list[int], field: Field, seat: int | None, me: int) -> None:
        if seat is not None:
            flags.append(field.start + (seat - me) % self.players)

    def put_seats(self, flags: list[int], field: Field, seats: Iterable[int], me: int) -> None:
        start, n = field.start, self.players
        flags.extend([start + (seat - me) % n for seat in seats])

    def put_per_seat(self, out: Array, field: Field, values: Sequence[Any], me: int, scale: float) -> None:
        """``values`` indexed by absolute seat (numbers or booleans), written by relative seat."""
        # One scalar write per seat: quicker than numpy converting a short list into a slice.
        at = field.start - me
        n = self.players
        for seat, value in enumerate(values):
            out[at + seat if seat >= me else at + seat + n] = value / scale

    @staticmethod
    def put_enum(flags: list[int], field: Field, values: Sequence[str], value: object) -> None:
        flags.append(field.start + (values.index(value) if value in values else len(values)))

    @staticmethod
    def put_value(out: Array, field: Field, value: float, scale: float = 1.0, offset: int = 0) -> None:
        out[field.start + offset] = value / scale

    @staticmethod
    def put_suit(flags: list[int], field: Field, suit: str | None) -> None:
        if suit is not None:
            flags.append(field.start + SUITS.index(suit))

    # --- documenting -----------------------------------------------------------------------------

    def table(self) -> str:
        """The layout as a Markdown table (what ``python -m cardhall.rl GAME`` prints)."""
        rows = [
            f"Encoder for `{self.game}`: {self.size} values, float32 in [-1, 1].",
            "",
            "| slice | field | meaning |",
            "|---|---|---|",
        ]
        rows += [f"| {f.start}:{f.stop} | `{f.name}` | {f.meaning} |" for f in self.fields]
        return "\n".join(rows)
