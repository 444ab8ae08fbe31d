"""Hearts in the terminal: points taken per seat, the pass and its direction, hearts broken, the widow,
each deal's hearts, queens, widow and moon."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.markup import escape

from cardhall.terminal.games import Obs, at, trick_line

if TYPE_CHECKING:
    from cardhall.terminal.narrate import Event, Narrator
    from cardhall.terminal.style import Style


def seat_stats(obs: Obs, seat: int, wide: bool, cards: str, score: str) -> str:
    points = at(obs.get("trick_points"), seat, 0)
    return f"{cards}{'points' if wide else 'pts'} {points}  {score}"


def table_lines(obs: Obs, style: Style, me: int | None) -> list[str]:
    first = f"Hand {obs.get('hand_number')}  pass {escape(str(obs.get('pass_direction')))}"
    if obs.get("phase") == "pass" and me is not None:
        chosen = at(obs.get("passes_chosen"), me, 0)
        first += f"  (you have chosen {chosen}: {style.cards(obs.get('passing') or [])})"
    first += f"  hearts {'broken' if obs.get('hearts_broken') else 'not broken'}"
    first += f"  widow {obs.get('widow_size')}  target {obs.get('target')}"
    return [first, trick_line(obs, style, me)]


def deal_scored(nr: Narrator, e: Event) -> list[str]:
    if "players" not in e:
        return nr.points_line(e)
    lines = [
        f"  {nr.short(s)}: hearts {p['hearts']}, queens {p['queens']}, widow {p['widow']}"
        f" -> {e['points'][s]:+d}"
        for s, p in enumerate(e["players"])
    ]
    if e.get("moon") is not None:
        lines.append(f"  moon: {nr.who(e['moon'])} ({escape(str(e.get('moon_choice')))})")
    return lines


# The events of this game that every game does not have, told in its own words (narrate.handler_of).


def narrate_passes(nr: Narrator, e: Event) -> list[str]:
    lines = [f"Cards exchanged ({escape(str(e['direction']))})"]
    mine = [p for p in e["passes"] if p["seat"] == nr.me]
    if mine and e.get("passed_cards"):
        lines.append(f"You passed {nr.style.cards(e['passed_cards'])} to {nr.who(mine[0]['to'])}")
    source = [p for p in e["passes"] if p["to"] == nr.me]
    if source and e.get("received_cards"):
        lines.append(f"You received {nr.style.cards(e['received_cards'])} from {nr.who(source[0]['seat'])}")
    return lines


def narrate_widow(nr: Narrator, e: Event) -> list[str]:
    return [f"{nr.who(e['seat'])} {nr.verb(e['seat'], 'take')} the widow ({e['size']} cards, face down)"]


def narrate_moon(nr: Narrator, e: Event) -> list[str]:
    return [f"{nr.who(e['seat'])} shot the moon: {escape(str(e.get('choice')))}"]


EVENTS: dict[str, Callable[[Narrator, Event], list[str]]] = {
    "passes": narrate_passes,
    "widow": narrate_widow,
    "moon": narrate_moon,
}
