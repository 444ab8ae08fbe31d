"""Hokm in the terminal: each seat's contract and tricks, the trump and the declarer, each contract's
result."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from cardhall.terminal.games import Obs, at, trick_line
from cardhall.terminal.seats import seat_name

if TYPE_CHECKING:
    from cardhall.terminal.narrate import Event, Narrator
    from cardhall.terminal.style import Style


def seat_stats(obs: Obs, seat: int, wide: bool, cards: str, score: str) -> str:
    bid = next((b["contract"] for b in obs.get("bids", []) if b["seat"] == seat), None)
    tricks = at(obs.get("tricks_won"), seat, 0)
    return f"{cards}bid {'-' if bid is None else bid}  tricks {tricks}  {score}"


def table_lines(obs: Obs, style: Style, me: int | None) -> list[str]:
    trump = style.suit(obs["trump"]) if obs.get("trump") else "not named yet"
    declarer = obs.get("declarer")
    contract = next((b["contract"] for b in obs.get("bids", []) if b["seat"] == declarer), None)
    who = "-" if declarer is None else f"{seat_name(declarer)} (contract {contract})"
    return [f"Trump {trump}   declarer {who}   target {obs.get('target')}", trick_line(obs, style, me)]


def deal_scored(nr: Narrator, e: Event) -> list[str]:
    if "contracts" not in e:
        return nr.points_line(e)
    return [
        f"  {nr.short(s)}: contract {c}, took {t}: {'made' if m else 'FAILED'} {e['points'][s]:+d}"
        for s, (c, t, m) in enumerate(zip(e["contracts"], e["tricks"], e["made"], strict=True))
    ]


# The events of this game that every game does not have, told in its own words (narrate.handler_of).


def narrate_declarer(nr: Narrator, e: Event) -> list[str]:
    who = f"{nr.who(e['seat'])} {nr.verb(e['seat'], 'declare')}"
    return [f"Bidding over: {who}, contract {e['contract']} tricks, and names trump"]


EVENTS: dict[str, Callable[[Narrator, Event], list[str]]] = {
    "declarer": narrate_declarer,
}
