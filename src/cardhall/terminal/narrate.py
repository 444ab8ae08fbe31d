"""What just happened, in words: one or a few lines of markup per event of the person's own stream.

Only the stream of the person's seat is ever narrated (``table.events(seat)``): a hidden action of
another seat (a Hearts pass) arrives as ``pass`` and is told as such. Each game's own events (Hokm's
declarer, Kierki's trump and lottery places, Hearts' exchange and widow, gin's knock, Svara's showdown)
get their own sentence; an event this module does not know is still shown, field by field.
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
        handler = _HANDLERS.get(kind)
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


def _declarer(nr: Narrator, e: Event) -> list[str]:
    who = f"{nr.who(e['seat'])} {nr.verb(e['seat'], 'declare')}"
    return [f"Bidding over: {who}, contract {e['contract']} tricks, and names trump"]


def _trump(nr: Narrator, e: Event) -> list[str]:
    named = f"Trump is {nr.style.suit(e['trump'])}, named by {nr.who(e['chooser'])}"
    lines = [f"{named}; {nr.short(e['leader'])} leads"]
    if e.get("hand"):
        lines.append("Your full hand: " + nr.style.cards(e["hand"], sort=True))
    return lines


def _out(nr: Narrator, e: Event) -> list[str]:
    return [f"{nr.who(e['seat'])} laid every card: place {e['place']}, {e['points']:+d}"]


def _passes(nr: Narrator, e: Event) -> list[str]:
    lines = [f"Cards exchanged ({escape(str(e['direction']))})"]
    mine = [p for p in e["passes"] if p["seat"] == nr.me]
    if mine and e.get("passed_cards"):
        lines.append(f"You passed {nr.style.cards(e['passed_cards'])} to {nr.who(mine[0]['to'])}")
    source = [p for p in e["passes"] if p["to"] == nr.me]
    if source and e.get("received_cards"):
        lines.append(f"You received {nr.style.cards(e['received_cards'])} from {nr.who(source[0]['seat'])}")
    return lines


def _widow(nr: Narrator, e: Event) -> list[str]:
    return [f"{nr.who(e['seat'])} {nr.verb(e['seat'], 'take')} the widow ({e['size']} cards, face down)"]


def _moon(nr: Narrator, e: Event) -> list[str]:
    return [f"{nr.who(e['seat'])} shot the moon: {escape(str(e.get('choice')))}"]


def _knock(nr: Narrator, e: Event) -> list[str]:
    style = nr.style
    melds = "  ".join("[" + style.cards(m) + "]" for m in e["melds"]) or "none"
    word = "goes gin" if e.get("gin") else "knocks"
    lines = [f"{nr.who(e['knocker'])} {word}: melds {melds}"]
    lines.append(f"  deadwood {style.cards(e['deadwood_cards'])} = {e['deadwood']}")
    lines.append(
        f"  {nr.who(e['opponent'])} shows {style.cards(e['opponent_hand'], sort=True)} "
        f"(deadwood {e['opponent_deadwood']})"
    )
    return lines


def _match_bonuses(nr: Narrator, e: Event) -> list[str]:
    return [f"Match bonuses: {nr.per_seat(e['points'], signed)}"]


def _looked(nr: Narrator, e: Event) -> list[str]:
    if not e.get("hand"):
        return ["The blind round is over: every player now sees his cards"]
    return [f"Your cards: {nr.style.cards(e['hand'], sort=True)} (value {e.get('hand_value')})"]


def _showdown(nr: Narrator, e: Event) -> list[str]:
    lines = ["Showdown:"]
    for h in e["hands"]:
        lines.append(f"  {nr.who(h['seat'])}: {nr.style.cards(h['cards'])} (value {h['value']})")
    for pot in e["pots"]:
        if pot.get("winner") is None:
            tied = ", ".join(nr.short(s) for s in pot.get("tied", []))
            lines.append(f"  pot of {pot['amount']}: tied between {tied} (a svara)")
        else:
            lines.append(f"  pot of {pot['amount']} -> {nr.who(pot['winner'])}")
    return lines


def _pot_won(nr: Narrator, e: Event) -> list[str]:
    ended = escape(str(e.get("ended")))
    return [f"{nr.who(e['seat'])} {nr.verb(e['seat'], 'take')} the pot of {e['amount']} ({ended})"]


def _svara(nr: Narrator, e: Event) -> list[str]:
    may = ", ".join(nr.short(s) for s in e.get("may_join", [])) or "nobody"
    players = ", ".join(nr.short(s) for s in e["players"])
    return [f"Svara! a tie between {players} for {e['pot']}; others may join for {e['fee']} ({may})"]


def _svara_deal(nr: Narrator, e: Event) -> list[str]:
    lines = [nr.style.em("--- Svara deal ---") + "  players " + ", ".join(nr.short(s) for s in e["players"])]
    if e.get("hand"):
        lines.append("Your cards: " + nr.style.cards(e["hand"], sort=True))
    return lines


def _busted(nr: Narrator, e: Event) -> list[str]:
    return ["Out of chips: " + ", ".join(nr.who(s) for s in e["players"])]


def _deal_scored(nr: Narrator, e: Event) -> list[str]:
    lines = [nr.style.em(f"Deal {e.get('deal_number', e['deal'])} scored")]
    lines += game_module(nr.game).deal_scored(nr, e)  # the game's own account, seat by seat
    lines.append(f"  totals {nr.per_seat(e['totals'])}")
    return lines


def _match_over(nr: Narrator, e: Event) -> list[str]:
    winners = ", ".join(nr.who(s) for s in e["winners"]) or "nobody"
    return [nr.style.em("Match over.") + f" Winners: {winners}; final scores {nr.per_seat(e['scores'])}"]


_HANDLERS: dict[str, Callable[[Narrator, Event], list[str]]] = {
    "seat": lambda nr, e: [],
    "action": _action,
    "deal": _deal,
    "trick": _trick,
    "declarer": _declarer,
    "trump": _trump,
    "out": _out,
    "passes": _passes,
    "widow": _widow,
    "moon": _moon,
    "knock": _knock,
    "match_bonuses": _match_bonuses,
    "looked": _looked,
    "showdown": _showdown,
    "pot_won": _pot_won,
    "svara": _svara,
    "svara_deal": _svara_deal,
    "busted": _busted,
    "deal_scored": _deal_scored,
    "match_over": _match_over,
}
