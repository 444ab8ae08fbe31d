"""Kierki in the terminal: tricks and this deal's points per seat, the deal's name and rule, the
lottery's layout, each deal's penalties and prizes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.markup import escape

from cardhall.terminal.games import Obs, at, trick_line

if TYPE_CHECKING:
    from cardhall.terminal.narrate import Event, Narrator
    from cardhall.terminal.style import Style


def seat_stats(obs: Obs, seat: int, wide: bool, cards: str, score: str) -> str:
    if obs.get("phase") == "lottery":
        return f"{cards}{score}"
    points = at(obs.get("deal_points"), seat, 0)
    return f"{cards}tricks {at(obs.get('tricks_won'), seat, 0)}  this deal {points:+d}  {score}"


def table_lines(obs: Obs, style: Style, me: int | None) -> list[str]:
    name, rule = escape(str(obs.get("deal_name"))), escape(str(obs.get("deal_rule")))
    lines = [f"Deal {obs.get('deal_number')}: {name} ({rule})"]
    if obs.get("trump"):
        lines[0] += f"  trump {style.suit(obs['trump'])}"
    if obs.get("phase") == "lottery":
        suits = "CDHS"
        rows = []
        for k, row in enumerate(obs.get("layout") or []):
            if row:
                rows.append(f"{style.suit(suits[k])} {style.card(row['low'])}..{style.card(row['high'])}")
        lines.append("Layout: " + ("  ".join(rows) or "(empty)"))
    else:
        lines.append(trick_line(obs, style, me))
    return lines


def deal_scored(nr: Narrator, e: Event) -> list[str]:
    if "breakdown" not in e:
        return nr.points_line(e)
    lines = []
    for s, items in enumerate(e["breakdown"]):
        detail = ", ".join(f"{i['item']} x{i['count']} {i['points']:+d}" for i in items if i["count"])
        lines.append(f"  {nr.short(s)}: {e['points'][s]:+d}" + (f" ({detail})" if detail else ""))
    return lines


# The events of this game that every game does not have, told in its own words (narrate.handler_of).


def narrate_trump(nr: Narrator, e: Event) -> list[str]:
    named = f"Trump is {nr.style.suit(e['trump'])}, named by {nr.who(e['chooser'])}"
    lines = [f"{named}; {nr.short(e['leader'])} leads"]
    if e.get("hand"):
        lines.append("Your full hand: " + nr.style.cards(e["hand"], sort=True))
    return lines


def narrate_out(nr: Narrator, e: Event) -> list[str]:
    return [f"{nr.who(e['seat'])} laid every card: place {e['place']}, {e['points']:+d}"]


EVENTS: dict[str, Callable[[Narrator, Event], list[str]]] = {
    "trump": narrate_trump,
    "out": narrate_out,
}
