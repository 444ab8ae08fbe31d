"""Gin in the terminal: each seat's role and hands won, the stock and the discard pile, the advisor's
suggestion, the knocker's layouts to choose from, the knock and its lay-offs, each hand's result."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.markup import escape

from cardhall.terminal.games import Obs, at, signed
from cardhall.terminal.seats import seat_name

if TYPE_CHECKING:
    from cardhall.terminal.narrate import Event, Narrator
    from cardhall.terminal.style import Style


def seat_stats(obs: Obs, seat: int, wide: bool, cards: str, score: str) -> str:
    role = next((r for r, s in (obs.get("roles") or {}).items() if s == seat), "")
    won = at(obs.get("hands_won"), seat, 0)
    return f"{role:<8}{cards}hands won {won}  {score}"


def table_lines(obs: Obs, style: Style, me: int | None) -> list[str]:
    pile = obs.get("discard_pile") or []
    top = style.card(pile[-1]) if pile else "(empty)"
    lines = [
        f"Hand {obs.get('hand_number')}{'  you are the ' + str(obs.get('role')) if me is not None else ''}"
        f"  stock {obs.get('stock_size')}"
        f"  discard pile: {top} ({len(pile)} card{'' if len(pile) == 1 else 's'})  target {obs.get('target')}"
    ]
    if obs.get("suggestion"):
        lines.append(f"Your advisor suggests: {style.label(str(obs['suggestion']))}")
    # The knocker's choice of layout (phase "arrange"): each numbered as its action, "arrange 2".
    for i, layout in enumerate(obs.get("arrangements") or [], 1):
        melds = "  ".join("[" + style.cards(m) + "]" for m in layout["melds"])
        dead = style.cards(layout.get("deadwood_cards") or [])
        lines.append(f"arrange {i}: {melds}  deadwood {dead} = {layout.get('deadwood')}")
    knock = obs.get("knock")
    if knock:
        melds = "  ".join("[" + style.cards(m) + "]" for m in knock.get("melds", []))
        lines.append(f"Knock by {seat_name(knock['seat'])}: {melds}  deadwood {knock.get('deadwood')}")
        if knock.get("layoffs"):
            laid = ", ".join(f"{style.card(x['card'])} ({seat_name(x['seat'])})" for x in knock["layoffs"])
            lines.append("Laid off: " + laid)
    return lines


def deal_scored(nr: Narrator, e: Event) -> list[str]:
    if "result" not in e:
        return nr.points_line(e)
    winner = "nobody" if e.get("winner") is None else nr.who(e["winner"])
    return [
        f"  {escape(str(e['result']))}: deadwood {e.get('knocker_deadwood')} against "
        f"{e.get('opponent_deadwood')}, bonus {e.get('bonus')}; won by {winner}",
        f"  points {nr.per_seat(e['points'], signed)}",
    ]


# The events of this game that every game does not have, told in its own words (narrate.handler_of).


def narrate_knock(nr: Narrator, e: Event) -> list[str]:
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


def narrate_match_bonuses(nr: Narrator, e: Event) -> list[str]:
    return [f"Match bonuses: {nr.per_seat(e['points'], signed)}"]


EVENTS: dict[str, Callable[[Narrator, Event], list[str]]] = {
    "knock": narrate_knock,
    "match_bonuses": narrate_match_bonuses,
}
