"""The store's action log, the seam of its hottest write: every table's actions in order, appended in
batches by the group committer (:mod:`cardhall.server.committer`) and read back by a restart, a
takeover, a replay or a writer asking whether a cut-off commit landed.

Its implementations (:mod:`cardhall.store.sql.sqlite_log` on the standard library's ``sqlite3``,
:mod:`cardhall.store.sql.postgres_log` on asyncpg) are measured in ``benchmarks/store.md``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence

from cardhall.store.rows import ActionRow


class ActionLog(ABC):
    @abstractmethod
    async def append_actions(
        self, actions: Sequence[ActionRow], fences: Mapping[str, int] | None = None
    ) -> None:
        """Append actions (of one or many tables) in one transaction; with ``fences`` (table id -> the
        writer's fencing number), only if every table's row holds that number, else nothing is
        written and :class:`FencedError` names the tables refused."""

    @abstractmethod
    async def actions_of(self, table_ids: Sequence[str]) -> dict[str, list[ActionRow]]:
        """The stored actions of each of ``table_ids``, in order (tables taken over: restored
        together)."""

    async def actions(self, table_id: str) -> list[tuple[int, int]]:
        """A table's ``(seat, action)`` pairs in order."""
        return [(a.seat, a.action) for a in (await self.actions_of([table_id]))[table_id]]

    @abstractmethod
    async def last_action(self, table_id: str) -> ActionRow | None:
        """A table's last stored action (None before its first)."""

    @abstractmethod
    async def action_counts(self, table_ids: Sequence[str]) -> dict[str, int]:
        """How many actions each of ``table_ids`` has stored (a table without any: absent). The
        operator's listing of the hall's tables, those of other processes included, reads it."""

    async def close(self) -> None:
        """Let go of what the log holds of its own (a connection, a thread); a later call opens them
        again. Nothing by default."""
