"""Svara in the terminal: each seat's chips and bet (or out, or folded), the pot, the bet to call and
the minimum raise, a hand face down until looked at, each deal's winnings and payments."""

from __future__ import annotations

from typing import TYPE_CHECKING

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
