"""The operator's recurring events: iCalendar recurrence rules (RFC 5545 RRULE, read by python-dateutil's
``rrulestr``), in UTC. Kept out of :mod:`cardhall.server.events.scoring` and the rules engine: the
server's extra has dateutil, the games do not."""

from __future__ import annotations

from datetime import UTC, datetime

from dateutil.rrule import rrulestr

from cardhall.server.protocol import ProtocolError


def next_occurrence(rule: str, dtstart: datetime, after: datetime) -> datetime | None:
    """The first occurrence of ``rule`` (from ``dtstart``) strictly after ``after``; None when it has
    ended. ``bad_event`` when the rule does not parse."""
    try:
        parsed = rrulestr(rule, dtstart=dtstart.astimezone(UTC))
        found = parsed.after(after.astimezone(UTC))
    except (ValueError, TypeError) as e:
        raise ProtocolError("bad_event", f"rrule {rule!r} does not parse: {e}") from None
    return None if found is None else found.astimezone(UTC)
