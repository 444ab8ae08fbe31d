"""What every encoder shares: a layout of named slices, and the ways a slice is filled.

An encoder turns one seat's observation in the bots' form (``State.observation(seat, ints=True)``,
documented in ``docs/schema/<game>.json``) into a flat ``float32`` array of fixed size, every value in
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

from cardhall.core import Game, Observation
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
    fills them in :meth:`_fill`."""

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
    def _fill(self, out: Array, obs: Observation, me: int) -> None:
        """Write the observation of seat ``me`` into ``out`` (zeros on entry)."""

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
        self._fill(out, obs, me)
        # A card counted twice in one slice (shown by two moves of a seat) still reads as 1.
        np.clip(out, -1.0, 1.0, out=out)
        return out

    def field(self, name: str) -> Field:
        return self._by_name[name]

    def rel(self, seat: int, me: int) -> int:
        """The relative position of ``seat`` seen from ``me``."""
        return (seat - me) % self.players

    def put_cards(self, out: Array, field: Field, cards: Iterable[int], weight: float = 1.0) -> None:
        start = field.start
        for card in cards:
            out[start + card % 52] += weight

    def put_seat_cards(
        self, out: Array, field: Field, seat: int, me: int, cards: Iterable[int], weight: float = 1.0
    ) -> None:
        start = field.start + 52 * self.rel(seat, me)
        for card in cards:
            out[start + card % 52] += weight

    def put_seat(self, out: Array, field: Field, seat: int | None, me: int) -> None:
        if seat is not None:
            out[field.start + self.rel(seat, me)] = 1.0

    def put_seats(self, out: Array, field: Field, seats: Iterable[int], me: int) -> None:
        for seat in seats:
            out[field.start + self.rel(seat, me)] = 1.0

    def put_per_seat(self, out: Array, field: Field, values: Sequence[Any], me: int, scale: float) -> None:
        """``values`` indexed by absolute seat (numbers or booleans), written by relative seat."""
        n = self.players
        for seat, value in enumerate(values):
            out[field.start + (seat - me) % n] = _clip(float(value) / scale)

    def put_enum(self, out: Array, field: Field, values: Sequence[str], value: object) -> None:
        index = values.index(value) if value in values else len(values)
        out[field.start + index] = 1.0

    def put_value(self, out: Array, field: Field, value: float, scale: float = 1.0, offset: int = 0) -> None:
        out[field.start + offset] = _clip(value / scale)

    def put_suit(self, out: Array, field: Field, suit: str | None) -> None:
        if suit is not None:
            out[field.start + SUITS.index(suit)] = 1.0

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


def _clip(value: float) -> float:
    return -1.0 if value < -1.0 else 1.0 if value > 1.0 else value
