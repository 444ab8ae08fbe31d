"""The connections at a table: which seat each is joined to (None: watching), the last event number
each was sent, how many connections each seat has, and how many people watch.

For a connection that takes deltas (its ``deltas``: ``hello`` asked for them), it also keeps the
observation that connection was sent in its previous frame of the table: its next ``update`` carries
only what changed since (:mod:`cardhall.server.host.frames`). One reference per connection, to the
observation its seat's connections share.

This is the one part of a table that holds live connection objects (as keys: the machine that keeps
it never sends; its frames, built by :mod:`cardhall.server.host.frames`, are sent by the actor).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

from cardhall.server.protocol import ServerFrame
from cardhall.store import PlayerRow, SeatKind, SeatRow


class Listener(Protocol):
    """A connection, as a table sees it."""

    player: PlayerRow | None

    def send(self, frame: ServerFrame) -> None: ...


class Audience:
    def __init__(self, seats: int) -> None:
        self.seats: dict[Listener, int | None] = {}  # connection -> its seat (None: a spectator)
        self.seen: dict[Listener, int] = {}  # the last event number each connection was sent
        # The observation each connection that takes deltas was sent in its previous frame (None: none).
        self.shown: dict[Listener, dict[str, Any] | None] = {}
        self.connected = [0] * seats  # connections joined to each seat
        self.watching = 0  # connections watching (each frame counts the people among them)

    def __len__(self) -> int:
        return len(self.seats)

    def __contains__(self, listener: object) -> bool:
        return listener in self.seats

    def __iter__(self) -> Iterator[tuple[Listener, int | None]]:
        return iter(list(self.seats.items()))

    def seat_of(self, listener: Listener) -> int | None:
        return self.seats.get(listener)

    def attach(self, listener: Listener, seat: int | None) -> bool:
        """Join ``listener`` to ``seat`` (None: watch); whether a seat gained its first connection."""
        old = self.seats.get(listener, -1)
        if old == seat:
            return False
        if old is None:
            self.watching -= 1
        elif old >= 0:
            self.connected[old] -= 1
        self.seats[listener] = seat
        if seat is None:
            self.watching += 1
            return False
        self.connected[seat] += 1
        return self.connected[seat] == 1

    def detach(self, listener: Listener) -> int | None:
        """Forget ``listener``; the seat it was joined to (None: it watched, or was not here)."""
        if listener not in self.seats:
            return None
        seat = self.seats.pop(listener)
        self.seen.pop(listener, None)
        self.shown.pop(listener, None)
        if seat is None:
            self.watching -= 1
        else:
            self.connected[seat] -= 1
        return seat

    def shown_to(self, listener: Listener, observation: dict[str, Any] | None) -> None:
        """``listener`` was sent ``observation`` whole (or brought up to it): kept as the base of its
        next ``update``, if it takes deltas."""
        if getattr(listener, "deltas", False):
            self.shown[listener] = observation

    def spectators(self, rows: list[SeatRow]) -> int:
        """How many people watch: players with a connection watching who hold no seat here (a player's
        several tabs count once)."""
        if not self.watching:
            return 0
        seated = {s.player_id for s in rows if s.kind == SeatKind.PERSON}
        watching = {
            listener.player.id
            for listener, seat in self.seats.items()
            if seat is None and listener.player is not None
        }
        return len(watching - seated)

    def send_all(self, frame: ServerFrame) -> None:
        for listener in list(self.seats):
            listener.send(frame)
