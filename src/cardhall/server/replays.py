"""A finished match, position by position, for the browser's replay viewer (``GET
/api/tables/{table}/replay``): the browser decides no rules, so the engine replays the record
(:func:`cardhall.records.replay`) and each position comes rendered as data.

Position ``k`` (0 .. the number of actions) is the match after its first ``k`` actions: position 0 is the
first deal, position ``k`` shows the ``k``-th action (its seat, label and meaning), the events of the
rules it caused (their public fields), every seat's hand (all hands open: the match is over) and the
spectator's observation. The first page also says where the tricks and deals are (:func:`replay_marks`),
for stepping by trick and by deal. A response holds at most :data:`MAX_POSITIONS` positions (a long
Hearts or gin match has thousands of actions, and a position late in one is some 12 KB of JSON): the
viewer asks for the page it needs. Each page replays the record from the start up to it (cheap: the 72nd
page of a 3,500-action Hearts match takes about 0.15 s), so the server keeps nothing between requests.
"""

from __future__ import annotations

from typing import Any, Final

from cardhall.cards import format_card
from cardhall.core import EventEntry, Record, State
from cardhall.records import actions, check_record, replay

MAX_POSITIONS: Final = 20


def hand(state: State, seat: int) -> list[str]:
    """The cards ``seat`` holds, in the order its own observation shows them (the engine's zones say
    what they are: a gin advisor's observation shows his captain's hand, not his own)."""
    held = [format_card(c) for c in state.zones().get(f"hand {seat}", [])]
    shown: list[str] = state.observation(seat)["hand"]
    return shown if sorted(shown) == sorted(held) else held


def position(
    state: State,
    step: int,
    seat: int | None,
    label: str | None,
    events: list[EventEntry],
    move: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "step": step,
        "seat": seat,
        "action": label,
        "move": move,
        "events": [public for public, _, _ in events],
        "hands": [hand(state, s) for s in range(state.game.num_players)],
        "observation": state.observation(None),
    }


def replay_page(record: Record, start: int, count: int) -> tuple[int, list[dict[str, Any]]]:
    """The number of actions of ``record`` and its positions ``start .. start + count - 1`` (fewer at
    the end); ``start`` is within 0 .. that number and ``count`` within 1 .. MAX_POSITIONS."""
    game = check_record(record)
    moves = actions(record)
    end = min(start + count, len(moves) + 1)
    state = replay({**record, "actions": [list(m) for m in moves[: max(start - 1, 0)]]}, events=True)
    logged = state.events if state.events is not None else []
    out = [position(state, 0, None, None, list(logged))] if start == 0 else []
    for step in range(max(start, 1), end):
        seat, action = moves[step - 1]
        label = game.action_label(action)
        mark = len(logged)
        state.apply(seat, action)
        out.append(position(state, step, seat, label, logged[mark:], game.action_info(action)))
    return len(moves), out


def replay_marks(record: Record) -> dict[str, list[int]]:
    """Where the match's tricks and deals are, for stepping by trick and by deal: the positions whose
    action completed a trick (``tricks``), began a deal (``deals``: 0 first) and scored one (``scored``)."""
    moves = actions(record)
    state = replay({**record, "actions": []}, events=True)
    logged = state.events if state.events is not None else []
    marks: dict[str, list[int]] = {"tricks": [], "deals": [0], "scored": []}
    for step, (seat, action) in enumerate(moves, 1):
        mark = len(logged)
        state.apply(seat, action)
        kinds = {public["type"] for public, _, _ in logged[mark:]}
        for kind, key in (("trick", "tricks"), ("deal", "deals"), ("deal_scored", "scored")):
            if kind in kinds:
                marks[key].append(step)
    return marks
