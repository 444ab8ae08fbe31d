"""What the routes and frames of tournaments read and write: the request bodies, their checks, and the
JSON of an event's summary and of its tables (``docs/protocol.md``, "Tournaments").

Choices:

- **A match at an event table is short**: the event's ``deals`` (default 2: a few minutes a match at
  the default paces, 5-10 with people thinking) set the game's length option (Hokm's, Hearts' and
  gin's ``max_hands``, Kierki's ``last_deal`` counted from its ``first_deal``, Svara's ``max_deals``),
  written into the event's game string: every table of the event plays that string.
- **Limits**: an arena of 1 to 180 minutes, 1 to 12 rounds or deals, a start within 7 days; the length
  options given with the game string are replaced by ``deals``.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

from cardhall.errors import CardhallError
from cardhall.registry import load_game
from cardhall.server import bounds
from cardhall.server.events.scoring import DEFAULT_DEALS, deal_option
from cardhall.server.protocol import ProtocolError
from cardhall.server.settings import bot_for_level, table_settings
from cardhall.store.events import EVENT_KINDS, EventRow, EventTable

DEFAULT_MINUTES = 30.0
DEFAULT_ROUNDS = 3
MAX_MINUTES = 180.0
MAX_ROUNDS = 12
MAX_DEALS = 12
MAX_START = 7 * 24 * 3600
LATE_JOINING = 0.8  # an arena takes sign-ups until this share of its time


class NewEvent(msgspec.Struct, forbid_unknown_fields=True):
    kind: str
    game: str
    minutes: float | None = None
    rounds: int | None = None
    deals: int | None = None
    starts_in: float = 60
    level: str = "normal"
    settings: dict[str, Any] = {}


class AdminEvent(NewEvent, forbid_unknown_fields=True):
    """A person's event's fields, and the operator's schedule."""

    rrule: str | None = None
    lead: int = 600


class EventToken(msgspec.Struct, forbid_unknown_fields=True):
    token: str | None = None


def _bad(message: str) -> ProtocolError:
    return ProtocolError("bad_event", message)


def checked(data: NewEvent | AdminEvent, starts_at: datetime | None = None) -> EventRow:
    """A new event's row from a request (id, times and options set; ``created_by`` and ``token`` left
    to the caller); ``bad_event``, ``bad_request`` or ``bad_game`` naming what is wrong."""
    if data.kind not in EVENT_KINDS:
        raise _bad(f"kind must be one of {', '.join(EVENT_KINDS)}, got {data.kind!r}")
    arena = data.kind == "arena"
    if arena and data.rounds is not None:
        raise _bad("rounds are a duplicate event's: an arena lasts minutes")
    if not arena and data.minutes is not None:
        raise _bad("minutes are an arena's: a duplicate event lasts rounds")
    minutes = DEFAULT_MINUTES if data.minutes is None else data.minutes
    if arena and not 0.05 <= minutes <= MAX_MINUTES:  # (down to 3 s: the tests' events)
        raise _bad(f"minutes must be within 0.05..{MAX_MINUTES:g}, got {minutes:g}")
    rounds = DEFAULT_ROUNDS if data.rounds is None else data.rounds
    if not arena and not 1 <= rounds <= MAX_ROUNDS:
        raise _bad(f"rounds must be within 1..{MAX_ROUNDS}, got {rounds}")
    if not 0 <= data.starts_in <= MAX_START:
        raise _bad(f"starts_in must be within 0..{MAX_START} seconds, got {data.starts_in:g}")
    try:
        bot_for_level(data.level)
    except CardhallError as e:
        raise ProtocolError("bad_request", str(e)) from None
    try:
        game = load_game(data.game)
        deals = DEFAULT_DEALS if data.deals is None else data.deals
        if not 1 <= deals <= MAX_DEALS:
            raise _bad(f"deals must be within 1..{MAX_DEALS}, got {deals}")
        game = type(game)(**{**game.options, **deal_option(game, deals)})
        bounds.check(game)
        settings = table_settings(data.settings)
        if game.num_players < 2:
            raise _bad(f"{game} is played alone: nobody to meet")
    except CardhallError as e:
        raise ProtocolError("bad_game", str(e)) from None
    start = starts_at or datetime.now(UTC) + timedelta(seconds=data.starts_in)
    return EventRow(
        id=secrets.token_urlsafe(6),
        kind=data.kind,
        game=str(game),
        options={"deals": deals, "level": data.level, "settings": dict(settings), "minutes": minutes},
        starts_at=start,
        ends_at=start + timedelta(minutes=minutes) if arena else None,
        rounds=None if arena else rounds,
    )


def iso(at: datetime | None) -> str | None:
    return None if at is None else at.astimezone(UTC).isoformat().replace("+00:00", "Z")


def summary(
    event: EventRow,
    players: int,
    joined: bool,
    by: dict[str, Any] | None,
    round_now: int | None,
) -> dict[str, Any]:
    return {
        "id": event.id,
        "kind": event.kind,
        "game": event.game,
        "status": event.status,
        "starts_at": iso(event.starts_at),
        "ends_at": iso(event.ends_at),
        "rounds": event.rounds,
        "round": round_now,
        "deals": event.options.get("deals"),
        "level": event.options.get("level", "normal"),
        "settings": event.options.get("settings", {}),
        "private": event.token is not None,
        "by": by,
        "players": players,
        "joined": joined,
        "schedule": event.schedule,
    }


def table_entry(t: EventTable) -> dict[str, Any]:
    return {
        "table": t.table.id,
        "round": t.entry.round,
        "index": t.entry.index,
        "status": str(t.table.status),
        "seats": [
            {"seat": s.seat, "name": s.name, "player": s.player_id, "bot": s.kind == "bot"}
            for s in t.table.seats
        ],
        "finished_at": iso(t.table.finished_at),
    }


def current_round(event: EventRow, tables: Collection[EventTable]) -> int | None:
    if event.kind != "duplicate" or not tables:
        return None
    return max(t.entry.round for t in tables)
