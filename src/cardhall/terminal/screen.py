"""The compact table a person sees before each choice, built from his observation alone.

Every game gets the same frame, small enough for an 80x24 terminal with the menu below it: one
header line, the seats (one a line, or two a line above four seats: who sits there, what is public
about him, his score), one or two lines of what lies on the table (trump, contract, the trick, the pot, the
discard pile), and the person's hand in the display order. The game-specific parts read only keys of
the observation (``docs/schema/<game>.json``); nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.markup import escape

from cardhall.terminal.style import Style

Obs = dict[str, Any]
WIDTH = 80


def _at(values: Any, seat: int, default: Any = None) -> Any:
    return values[seat] if isinstance(values, list) and seat < len(values) else default


def _seat_stats(game: str, obs: Obs, seat: int, wide: bool) -> str:
    sizes = _at(obs.get("hand_sizes"), seat)
    cards = "" if sizes is None else (f"{sizes} cards  " if wide else f"{sizes} cards ")
    score = f"score {_at(obs.get('scores'), seat, 0)}" if wide else f"sc {_at(obs.get('scores'), seat, 0)}"
    if game == "hokm":
        bid = next((b["contract"] for b in obs.get("bids", []) if b["seat"] == seat), None)
        tricks = _at(obs.get("tricks_won"), seat, 0)
        return f"{cards}bid {'-' if bid is None else bid}  tricks {tricks}  {score}"
    if game == "kierki" and obs.get("phase") == "lottery":
        return f"{cards}{score}"
    if game == "kierki":
        points = _at(obs.get("deal_points"), seat, 0)
        return f"{cards}tricks {_at(obs.get('tricks_won'), seat, 0)}  this deal {points:+d}  {score}"
    if game == "hearts":
        points = _at(obs.get("trick_points"), seat, 0)
        return f"{cards}{'points' if wide else 'pts'} {points}  {score}"
    if game == "gin":
        role = next((r for r, s in (obs.get("roles") or {}).items() if s == seat), "")
        won = _at(obs.get("hands_won"), seat, 0)
        return f"{role:<8}{cards}hands won {won}  {score}"
    if game == "svara":
        if not _at(obs.get("in_deal"), seat, True):
            state = "out"
        elif _at(obs.get("folded"), seat, False):
            state = "folded"
        else:
            state = f"bet {_at(obs.get('bets'), seat, 0)}"
        return f"chips {_at(obs.get('stacks'), seat, 0)}  {state}"
    return f"{cards}{score}"


def seat_lines(game: str, obs: Obs, names: Sequence[str], me: int | None, style: Style) -> list[str]:
    """One seat a line for up to four seats, two a line above that: ``>`` marks a seat to act, ``D``
    the dealer."""
    to_act = set(obs.get("to_act") or [])
    wide = len(names) <= 4
    cell = WIDTH if wide else WIDTH // 2
    cells = []
    for seat, name in enumerate(names):
        mark = ">" if seat in to_act else ("D" if obs.get("dealer") == seat else " ")
        size = 8 if wide else 6
        who = "you" if seat == me else name[:size]
        text = f"{mark} seat {seat} {who:<{size}} {_seat_stats(game, obs, seat, wide)}"[: cell - 1]
        cells.append(style.em(text.ljust(cell)) if seat == me else escape(text.ljust(cell)))
    per_line = 1 if wide else 2
    return ["".join(cells[k : k + per_line]).rstrip() for k in range(0, len(cells), per_line)]


def _trick(obs: Obs, style: Style, me: int | None) -> str:
    plays = obs.get("trick") or []
    shown = "  ".join(
        ("you" if p["seat"] == me else str(p["seat"])) + " " + style.card(p["card"]) for p in plays
    )
    return "Trick: " + (shown or "(empty)")


def _hokm(obs: Obs, style: Style, me: int | None) -> list[str]:
    trump = style.suit(obs["trump"]) if obs.get("trump") else "not named yet"
    declarer = obs.get("declarer")
    contract = next((b["contract"] for b in obs.get("bids", []) if b["seat"] == declarer), None)
    who = "-" if declarer is None else f"seat {declarer} (contract {contract})"
    return [f"Trump {trump}   declarer {who}   target {obs.get('target')}", _trick(obs, style, me)]


def _kierki(obs: Obs, style: Style, me: int | None) -> list[str]:
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
        lines.append(_trick(obs, style, me))
    return lines


def _hearts(obs: Obs, style: Style, me: int | None) -> list[str]:
    first = f"Hand {obs.get('hand_number')}  pass {escape(str(obs.get('pass_direction')))}"
    if obs.get("phase") == "pass" and me is not None:
        chosen = _at(obs.get("passes_chosen"), me, 0)
        first += f"  (you have chosen {chosen}: {style.cards(obs.get('passing') or [])})"
    first += f"  hearts {'broken' if obs.get('hearts_broken') else 'not broken'}"
    first += f"  widow {obs.get('widow_size')}  target {obs.get('target')}"
    return [first, _trick(obs, style, me)]


def _gin(obs: Obs, style: Style, me: int | None) -> list[str]:
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
        lines.append(f"Knock by seat {knock['seat']}: {melds}  deadwood {knock.get('deadwood')}")
        if knock.get("layoffs"):
            laid = ", ".join(f"{style.card(x['card'])} (seat {x['seat']})" for x in knock["layoffs"])
            lines.append("Laid off: " + laid)
    return lines


def _svara(obs: Obs, style: Style, me: int | None) -> list[str]:
    line = (
        f"Deal {obs.get('deal_number')}  pot {obs.get('pot')}  bet to call {obs.get('current_bet')}"
        f"  min raise {obs.get('min_raise')}  ante {obs.get('ante')}"
    )
    if obs.get("svara_fee"):
        line += f"  svara fee {obs['svara_fee']}"
    return [line]


_GAME_LINES: dict[str, Callable[[Obs, Style, int | None], list[str]]] = {
    "hokm": _hokm,
    "kierki": _kierki,
    "hearts": _hearts,
    "gin": _gin,
    "svara": _svara,
}


def table_lines(game: str, obs: Obs, style: Style, me: int | None) -> list[str]:
    """What lies on the table (trump, contract, the trick, the pot, the discard pile)."""
    lines = _GAME_LINES.get(game)
    return [] if lines is None else lines(obs, style, me)


def hand_line(game: str, obs: Obs, style: Style, new: Sequence[str] = ()) -> str:
    """The hand in the display order; ``new``: cards that came into it since the last screen (a draw,
    a pass received), named after it."""
    hand = obs.get("hand") or []
    if game == "svara" and not obs.get("looked"):
        return "Your hand: (face down: you have not looked)"
    text = "Your hand: " + style.cards(hand, sort=True)
    if game == "svara" and obs.get("hand_value") is not None:
        text += f"  (value {obs['hand_value']})"
    if new:
        text += f"  (new: {style.cards(list(new), sort=True)})"
    return text


def screen(
    game: str, obs: Obs, names: Sequence[str], me: int | None, style: Style, new: Sequence[str] = ()
) -> list[str]:
    """The table as ``me`` sees it (without the menu): markup lines, each at most 80 columns wide."""
    lines = seat_lines(game, obs, names, me, style)
    lines += table_lines(game, obs, style, me)
    if me is not None:
        lines.append(hand_line(game, obs, style, new))
    return lines
