"""What just happened, in words: one or a few lines of markup per event of the person's own stream.

Only the stream of the person's seat is ever narrated (``table.events(seat)``): a hidden action of
another seat (a Hearts pass) arrives as ``pass`` and is told as such. The events every game has (seats,
actions, deals, tricks, scored deals, the match's end) are told here; each game's own events (a
declarer, a knock, a showdown) by its terminal part (``cardhall.terminal.games.<name>``: ``EVENTS``, the
event's type -> its sentences); an event nobody knows is still shown, field by field.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.markup import escape

from cardhall.terminal.games import game_module, signed
from cardhall.terminal.seats import seat_name
from cardhall.terminal.style import Style

Event = dict[str, Any]


@dataclass(frozen=True)
class Narrator:
    """Narrates events for the person in seat ``me`` (None: a spectator, as in the replay viewer)."""

    game: str
    names: Sequence[str]
    me: int | None
    style: Style

    def who(self, seat: int) -> str:
        if seat == self.me:
            return "you"
        name = self.names[seat] if seat < len(self.names) else ""
        return f"{seat_name(seat)} ({escape(name)})" if name else seat_name(seat)

    def verb(self, seat: int, verb: str) -> str:
        """``verb`` agreeing with the seat: "you take", "seat 2 (rules) takes"."""
        return verb if seat == self.me else verb + "s"

    def short(self, seat: int) -> str:
        return "you" if seat == self.me else seat_name(seat)

    def per_seat(self, values: Sequence[Any], fmt: Callable[[Any], str] = str) -> str:
        return ", ".join(f"{self.short(s)} {fmt(v)}" for s, v in enumerate(values))

    def points_line(self, event: Event) -> list[str]:
        """A deal's points per seat: what a game's ``deal_scored`` tells of an event it has no words for."""
        return [f"  points {self.per_seat(event['points'], signed)}"]

    def lines(self, event: Event) -> list[str]:
        kind = event["type"]
        handler = handler_of(self.game, kind)
        if handler is not None:
            return handler(self, event)
        fields = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("n", "type"))
        return [escape(f"{kind.replace('_', ' ')}: {fields}")]


def _action(nr: Narrator, e: Event) -> list[str]:
    if e["seat"] == nr.me:
        return []  # the person knows what he did
    verb = escape(e["action"]) if e.get("hidden") else nr.style.label(e["action"])
    return [f"{nr.who(e['seat'])}: {verb}"]


def _deal(nr: Narrator, e: Event) -> list[str]:
    head = f"Deal {e.get('deal_number', e['deal'])}"  # Kierki's deals keep their numbers in a practice match
    if "name" in e:  # Kierki's deals have names
        head += f": {escape(e['name'])} ({escape(e.get('rule', ''))})"
    parts = [f"dealer {nr.short(e['dealer'])}"]
    if e.get("pass_direction"):
        parts.append(f"pass {escape(str(e['pass_direction']))}")
    if e.get("widow_size"):
        parts.append(f"widow {e['widow_size']} cards")
    roles = e.get("roles")
    if roles:
        parts.append(", ".join(f"{r} {nr.short(s)}" for r, s in roles.items()))
    if e.get("upcard"):
        parts.append(f"upcard {nr.style.card(e['upcard'])}")
    if "ante" in e:
        parts.append(f"ante {e['ante']}, pot {e.get('pot')}")
    lines = [nr.style.em(f"--- {head} ---") + "  " + "; ".join(parts)]
    if e.get("hand"):
        lines.append("Your cards: " + nr.style.cards(e["hand"], sort=True))
    return lines


def _trick(nr: Narrator, e: Event) -> list[str]:
    plays = "  ".join(f"{nr.short(p['seat'])} {nr.style.card(p['card'])}" for p in e["cards"])
    number = f" {e['number']}" if "number" in e else ""
    winner = e.get("winner")
    taken = "set aside (no winner)" if winner is None else f"{nr.who(winner)} {nr.verb(winner, 'take')} it"
    line = f"Trick{number}: {plays} -> {taken}"
    extra = []
    if e.get("cancelled"):
        extra.append("cancelled " + nr.style.cards(e["cancelled"]))
    if e.get("points"):
        extra.append(f"points {e['points']}")
    if e.get("collected"):
        extra.append(f"collects {e['collected']} set-aside tricks ({e.get('collected_points', 0)} points)")
    return [line + (" (" + "; ".join(extra) + ")" if extra else "")]


def _deal_scored(nr: Narrator, e: Event) -> list[str]:
    lines = [nr.style.em(f"Deal {e.get('deal_number', e['deal'])} scored")]
    lines += game_module(nr.game).deal_scored(nr, e)  # the game's own account, seat by seat
    lines.append(f"  totals {nr.per_seat(e['totals'])}")
    return lines


def _match_over(nr: Narrator, e: Event) -> list[str]:
    winners = ", ".join(nr.who(s) for s in e["winners"]) or "nobody"
    return [nr.style.em("Match over.") + f" Winners: {winners}; final scores {nr.per_seat(e['scores'])}"]


def handler_of(game: str, kind: str) -> Callable[[Narrator, Event], list[str]] | None:
    """Who tells an event of ``kind``: the events every game has are told here, a game's own by its
    terminal part (its ``EVENTS``); None for an event nobody knows."""
    own: dict[str, Callable[[Narrator, Event], list[str]]] = getattr(game_module(game), "EVENTS", {})
    return _HANDLERS.get(kind) or own.get(kind)


# The events of every game (a game's own are in its terminal part's EVENTS).
_HANDLERS: dict[str, Callable[[Narrator, Event], list[str]]] = {
    "seat": lambda nr, e: [],
    "action": _action,
    "deal": _deal,
    "trick": _trick,
    "deal_scored": _deal_scored,
    "match_over": _match_over,
}
