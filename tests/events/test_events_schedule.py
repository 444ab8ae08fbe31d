"""Recurring events (``cardhall.events.schedule``): an RRULE and a lead time give the occurrences to
create now; bad rules and lead times are refused by name."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from cardhall.events import EventInputError
from cardhall.events.schedule import due, next_start, parse_lead, parse_rule

MADE = datetime(2026, 12, 1, 13, 37, 12, tzinfo=UTC)  # when the operator typed the schedule


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 12, day, hour, minute, tzinfo=UTC)


def test_a_daily_rule_at_an_hour_starts_on_the_hour_with_its_lead() -> None:
    rule = parse_rule("FREQ=DAILY;BYHOUR=20", MADE)
    assert next_start(rule, at(7, 21)) == at(8, 20)  # minutes and seconds fixed to 0, not 37:12
    lead = parse_lead("10m")
    assert due(rule, at(7, 19, 49), lead) == []
    assert due(rule, at(7, 19, 50), lead) == [at(7, 20)]
    assert due(rule, at(7, 20), lead) == []  # started: no longer to create


def test_due_lists_every_occurrence_in_the_window_so_creating_is_idempotent() -> None:
    rule = parse_rule("RRULE:FREQ=HOURLY;INTERVAL=6", MADE)
    starts = due(rule, at(2, 0), parse_lead("1d"))
    # every 6 hours from the schedule's hour (13:00 on the 1st): 19, 1, 7, 13, 19, ...
    assert starts == [at(2, 1), at(2, 7), at(2, 13), at(2, 19)]
    assert due(rule, at(2, 0), parse_lead("1d")) == starts


def test_a_rule_that_ends_has_no_next_start() -> None:
    rule = parse_rule("FREQ=WEEKLY;BYDAY=MO;BYHOUR=18;COUNT=2", MADE)
    assert next_start(rule, MADE) == at(7, 18)
    assert next_start(rule, at(14, 19)) is None


def test_other_time_zones_are_read_as_the_same_instant() -> None:
    tehran = timezone(timedelta(hours=3, minutes=30))
    rule = parse_rule("FREQ=DAILY;BYHOUR=20", MADE.astimezone(tehran))
    assert next_start(rule, at(7, 21)) == at(8, 20)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("FREQ=SOMETIMES", "not a recurrence rule 'FREQ=SOMETIMES'"),
        ("", "not one RRULE"),
        ("DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY", "not one RRULE"),
        ("FREQ=DAILY;BYHOUR=25", "not a recurrence rule"),
    ],
)
def test_bad_rules_are_refused_by_name(text: str, why: str) -> None:
    with pytest.raises(EventInputError, match=why):
        parse_rule(text, MADE)


def test_a_start_without_a_time_zone_and_bad_leads_are_refused() -> None:
    with pytest.raises(EventInputError, match="time zone"):
        parse_rule("FREQ=DAILY", datetime(2026, 12, 1))
    for text in ("10", "ten minutes", "5w", "-3m", "1.5h"):
        with pytest.raises(EventInputError, match="not a lead time"):
            parse_lead(text)
    assert parse_lead("90s") == timedelta(seconds=90) and parse_lead(" 2h ") == timedelta(hours=2)
