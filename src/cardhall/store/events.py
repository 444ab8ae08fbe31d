"""The store's tournaments (issue 50): events, their sign-ups, their tables, the operator's schedules,
and the lease of the process that directs an event.

- **Only what cannot be derived is stored**: an event's row (kind, game string, options, status,
  start, an arena's end or a duplicate event's rounds, who made it, a private event's token, the
  schedule it comes from), who signed up and when he withdrew, and which tables are the event's
  (round, place in the round, the hand rotation). Results come from the tables' own stored results:
  the standings are computed from these rows and those (:mod:`cardhall.server.events`), never stored.
- **A director's lease** is two columns of the event's row (the process's name and until when, on the
  database's clock), taken by a conditional update: at most one process seats and scores an event,
  and another takes it over once the lease lapses.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from cardhall.store.rows import ResultRow, TableRow

EVENT_KINDS = ("arena", "duplicate")
EVENT_STATUSES = ("upcoming", "running", "finished", "cancelled")


@dataclass
class EventRow:
    id: str
    kind: str  # arena, duplicate
    game: str  # the game string
    options: dict[str, Any]  # minutes, deals, level, settings (JSON-ready)
    starts_at: datetime
    status: str = "upcoming"
    ends_at: datetime | None = None  # an arena's end
    rounds: int | None = None  # a duplicate event's rounds
    created_by: int | None = None  # None: the operator's
    token: str | None = None  # a private event's link token; None: public
    schedule: str | None = None  # the operator's schedule it comes from
    created_at: datetime = field(default_factory=lambda: datetime.now().astimezone())


@dataclass
class SignupRow:
    event_id: str
    player_id: int
    joined_at: datetime
    left_at: datetime | None = None
    name: str = ""
    guest: bool = True


@dataclass
class EventTableRow:
    event_id: str
    table_id: str
    round: int
    index: int
    rotation: int = 0


@dataclass
class EventTable:
    """An event's table with its stored row and, once finished, its results."""

    entry: EventTableRow
    table: TableRow
    results: list[ResultRow]


@dataclass
class ScheduleRow:
    id: str
    kind: str
    game: str
    options: dict[str, Any]  # as an event's, plus minutes or rounds
    rrule: str
    lead: int  # seconds before an occurrence that its event is made
    dtstart: datetime
    next_at: datetime | None = None  # the next occurrence not made yet
    cancelled: bool = False


class Events(ABC):
    @abstractmethod
    async def create_event(self, event: EventRow, signup: int | None = None) -> None:
        """Store a new event (and ``signup``, its maker, signed up) in one transaction."""

    @abstractmethod
    async def event(self, event_id: str) -> EventRow | None: ...

    @abstractmethod
    async def events(self, statuses: Sequence[str], limit: int = 50) -> list[EventRow]:
        """Events in any of ``statuses``, the soonest start first."""

    @abstractmethod
    async def events_of(self, player_id: int) -> set[str]:
        """The events ``player_id`` made or signed up to (withdrawn or not)."""

    @abstractmethod
    async def set_event_status(self, event_id: str, status: str, was: Sequence[str]) -> bool:
        """Change the status when it is one of ``was``; whether it changed."""

    @abstractmethod
    async def join_event(self, event_id: str, player_id: int) -> None:
        """Sign up (again: his withdrawal is forgotten, his first sign-up's time kept)."""

    @abstractmethod
    async def leave_event(self, event_id: str, player_id: int) -> bool:
        """Withdraw; False when he was not signed up."""

    @abstractmethod
    async def signups(self, event_id: str) -> list[SignupRow]:
        """Everyone who signed up, withdrawn or not, with his name, by sign-up time."""

    @abstractmethod
    async def add_event_tables(self, rows: Sequence[EventTableRow]) -> None: ...

    @abstractmethod
    async def event_tables(self, event_id: str) -> list[EventTable]:
        """The event's tables (round, then index) with their rows and results."""

    @abstractmethod
    async def event_tables_among(
        self, event_id: str, table_ids: Collection[str], *, ended: bool = False
    ) -> list[EventTable]:
        """Those of ``table_ids`` that are the event's tables (round, then index), with their rows and
        results; ``ended``: only those finished, abandoned or broken. What a director reads between
        two steps: the tables it made, and which of those it saw open have ended since (a finished
        table's results are stored with its status, in one transaction)."""

    @abstractmethod
    async def event_table_count(self, event_id: str) -> int:
        """How many tables the event has (a director that counts others than it knows reads them all)."""

    @abstractmethod
    async def event_of_table(self, table_id: str) -> str | None: ...

    @abstractmethod
    async def claim_event(self, event_id: str, node: str, seconds: float) -> bool:
        """Take or renew the lease of directing the event for ``seconds`` (the database's clock):
        False when another process holds it."""

    @abstractmethod
    async def release_event(self, event_id: str, node: str) -> None: ...

    @abstractmethod
    async def add_schedule(self, schedule: ScheduleRow) -> None: ...

    @abstractmethod
    async def schedules(self) -> list[ScheduleRow]: ...

    @abstractmethod
    async def advance_schedule(self, schedule_id: str, made: datetime, next_at: datetime | None) -> bool:
        """Move a schedule's next occurrence from ``made`` to ``next_at`` (only when it is still
        ``made``: one process makes each occurrence's event); whether it moved."""

    @abstractmethod
    async def cancel_schedule(self, schedule_id: str) -> bool: ...
