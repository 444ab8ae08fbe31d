"""Recurring events: an iCalendar RRULE (RFC 5545, through ``python-dateutil``'s rrule) and a lead time;
what occurrences to create now, so that each is listed, and open to sign-ups, ``lead`` before it starts.

Choices:

- This is the one module of ``cardhall.events`` outside the standard library: ``python-dateutil`` (in
  the ``server`` extra) parses and expands the rule. ``cardhall.events`` does not import it, so the
  formats load without it; only the server's schedules do (the rules engine stays standard-library only).
- Times are aware datetimes in UTC. A rule's start (``dtstart``) is when the schedule was made (its
  first occurrence is the rule's first at or after it); ``BYHOUR`` and friends are UTC hours.
- A rule whose seconds or minutes are not fixed by ``BYSECOND``/``BYMINUTE`` takes them from
  ``dtstart``; :func:`parse_rule` fixes both to 0 when the text leaves them out, so "FREQ=DAILY;BYHOUR=20"
  means 20:00:00, not 20:mm:ss of the moment the operator typed it.
- Creating is idempotent on the server's side: :func:`due` lists every occurrence in the window each
  time it is called; the server makes those it has not made (keyed by the schedule and the start).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from dateutil.rrule import rrule, rrulestr

from cardhall.events.model import EventInputError

MAX_DUE = 100  # occurrences listed by one call at most (a rule every minute with a lead of a day)
LEAD_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rule(text: str, dtstart: datetime) -> rrule:
    """The recurrence of an RRULE text (``FREQ=DAILY;BYHOUR=20``, with or without ``RRULE:``) from
    ``dtstart`` (aware). Raises :class:`EventInputError` naming the text and the reason."""
    if dtstart.tzinfo is None:
        raise EventInputError(f"a schedule's start must carry its time zone: {dtstart.isoformat()}")
    body = text.strip().removeprefix("RRULE:")
    if not body or "\n" in body or "DTSTART" in body.upper():
        raise EventInputError(f"not one RRULE (DTSTART is the schedule's creation): {text!r}")
    upper = body.upper()
    parts = [body]
    if "BYMINUTE=" not in upper and "FREQ=MINUTELY" not in upper and "FREQ=SECONDLY" not in upper:
        parts.append("BYMINUTE=0")
    if "BYSECOND=" not in upper and "FREQ=SECONDLY" not in upper:
        parts.append("BYSECOND=0")
    try:
        rule = rrulestr(";".join(parts), dtstart=dtstart.astimezone(UTC))
    except (ValueError, TypeError) as e:
        raise EventInputError(f"not a recurrence rule {text!r}: {e}") from e
    if not isinstance(rule, rrule):
        raise EventInputError(f"not one recurrence rule: {text!r}")
    return rule


def parse_lead(text: str) -> timedelta:
    """A lead time as the admin command writes it: ``90s``, ``10m``, ``2h``, ``1d`` (a whole number and
    a unit). Raises :class:`EventInputError` otherwise."""
    match = re.fullmatch(r"\s*(\d+)\s*([smhd])\s*", text)
    if not match:
        raise EventInputError(f"not a lead time {text!r}: a whole number and s, m, h or d (10m)")
    return timedelta(seconds=int(match.group(1)) * LEAD_UNITS[match.group(2)])


def due(rule: rrule, now: datetime, lead: timedelta) -> list[datetime]:
    """The occurrences to have created by ``now``: those starting after ``now`` and no later than
    ``now + lead`` (at most :data:`MAX_DUE`), in order."""
    out: list[datetime] = []
    for start in rule.xafter(now, count=MAX_DUE, inc=False):
        if start > now + lead:
            break
        out.append(start)
    return out


def next_start(rule: rrule, now: datetime) -> datetime | None:
    """The first occurrence after ``now``, or None when the rule has ended (``COUNT``, ``UNTIL``)."""
    start = rule.after(now, inc=False)
    return start if isinstance(start, datetime) else None
