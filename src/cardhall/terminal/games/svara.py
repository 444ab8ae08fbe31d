"""Svara in the terminal: each seat's chips and bet (or out, or folded), the pot, the bet to call and
the minimum raise, a hand face down until looked at, each deal's winnings and payments."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.markup import escape

from cardhall.terminal.games import Obs, at

if TYPE_CHECKING:
    from cardhall.terminal.narrate import Event, Narrator
    from cardhall.terminal.style import Style


def seat_stats(obs: Obs, seat: int, wide: bool, cards: str, score: str) -> str:
    if not at(obs.get("in_deal"), seat, True):
        state = "out"
    elif at(obs.get("folded"), seat, False):
        state = "folded"
    else:
        state = f"bet {at(obs.get('bets'), seat, 0)}"
    return f"chips {at(obs.get('stacks'), seat, 0)}  {state}"


def table_lines(obs: Obs, style: Style, me: int | None) -> list[str]:
    line = (
        f"Deal {obs.get('deal_number')}  pot {obs.get('pot')}  bet to call {obs.get('current_bet')}"
        f"  min raise {obs.get('min_raise')}  ante {obs.get('ante')}"
    )
    if obs.get("svara_fee"):
        line += f"  svara fee {obs['svara_fee']}"
    return [line]


def hand_line(obs: Obs, style: Style, shown: str, new: str) -> str:
    """A hand not looked at is face down; a looked-at one shows its value (``shown``: the shared hand
    line, ``new``: the cards new in it, told after it)."""
    if not obs.get("looked"):
        return "Your hand: (face down: you have not looked)"
    if obs.get("hand_value") is not None:
        shown += f"  (value {obs['hand_value']})"
    return shown + new


def deal_scored(nr: Narrator, e: Event) -> list[str]:
    if "won" not in e:
        return nr.points_line(e)
    return [f"  won {nr.per_seat(e['won'])}", f"  paid {nr.per_seat(e['paid'])}"]


# The events of this game that every game does not have, told in its own words (narrate.handler_of).


def narrate_looked(nr: Narrator, e: Event) -> list[str]:
    if not e.get("hand"):
        return ["The blind round is over: every player now sees his cards"]
    return [f"Your cards: {nr.style.cards(e['hand'], sort=True)} (value {e.get('hand_value')})"]


def narrate_showdown(nr: Narrator, e: Event) -> list[str]:
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


def narrate_pot_won(nr: Narrator, e: Event) -> list[str]:
    ended = escape(str(e.get("ended")))
    return [f"{nr.who(e['seat'])} {nr.verb(e['seat'], 'take')} the pot of {e['amount']} ({ended})"]


def narrate_svara(nr: Narrator, e: Event) -> list[str]:
    may = ", ".join(nr.short(s) for s in e.get("may_join", [])) or "nobody"
    players = ", ".join(nr.short(s) for s in e["players"])
    return [f"Svara! a tie between {players} for {e['pot']}; others may join for {e['fee']} ({may})"]


def narrate_svara_deal(nr: Narrator, e: Event) -> list[str]:
    lines = [nr.style.em("--- Svara deal ---") + "  players " + ", ".join(nr.short(s) for s in e["players"])]
    if e.get("hand"):
        lines.append("Your cards: " + nr.style.cards(e["hand"], sort=True))
    return lines


def narrate_busted(nr: Narrator, e: Event) -> list[str]:
    return ["Out of chips: " + ", ".join(nr.who(s) for s in e["players"])]


EVENTS: dict[str, Callable[[Narrator, Event], list[str]]] = {
    "looked": narrate_looked,
    "showdown": narrate_showdown,
    "pot_won": narrate_pot_won,
    "svara": narrate_svara,
    "svara_deal": narrate_svara_deal,
    "busted": narrate_busted,
}
