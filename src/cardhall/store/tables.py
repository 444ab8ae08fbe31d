"""The store's tables: their rows (status, seats, settings, fencing number), a private table's
invitation stored with its row, the restart's read of the open tables, and a finished table's results
and ratings written in one transaction, and the people who left a match in its first deal (Play now's
leavers). Their actions are :mod:`cardhall.store.action_log`'s."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from datetime import datetime

from cardhall.store.rows import ActionRow, RatingRequest, RatingRow, ResultRow, TableRow


class Tables(ABC):
    @abstractmethod
    async def save_table(self, table: TableRow, invitation: str | None = None) -> None:
        """Insert a table, or update its status, seats, settings and finish time: an update only while
        the stored row holds ``table.fence`` (:class:`FencedError` otherwise). ``invitation``: a new
        private table's (:meth:`private_tables`), stored in the same transaction as its row, so that
        no table is ever stored without the invitation that keeps it private (a restore would bring it
        back open to all); storing it again with the same row changes nothing."""

    async def save_tables(
        self, tables: Sequence[TableRow], invitations: Mapping[str, str] | None = None
    ) -> None:
        """:meth:`save_table` for several tables (the group committer's seat changes), ``invitations``
        (table id -> invitation) those of the new private tables among them; a store that can does it
        in one transaction, all or none, and raises :class:`FencedError` naming every table whose
        fence is stale (then nothing is written). This default saves them one by one (each table with
        its invitation)."""
        for table in tables:
            await self.save_table(table, (invitations or {}).get(table.id))

    @abstractmethod
    async def table(self, table_id: str) -> TableRow | None: ...

    @abstractmethod
    async def tables(self, statuses: Sequence[str], limit: int = 100) -> list[TableRow]:
        """Tables in any of ``statuses``, newest first."""

    @abstractmethod
    async def private_tables(self, table_ids: Sequence[str]) -> dict[str, str]:
        """The invitations of those of ``table_ids`` that are private."""

    @abstractmethod
    async def open_private_tables(self) -> dict[str, str]:
        """The invitations of the private tables that are waiting or playing."""

    @abstractmethod
    async def unfinished(self) -> list[tuple[TableRow, list[ActionRow]]]:
        """Every waiting or playing table with its actions in order (a restart brings them back). A row
        that cannot even be read is marked broken, logged and left out."""

    @abstractmethod
    async def mark_broken(self, table_id: str, problem: str) -> None:
        """Keep a table that cannot be brought back as ``broken``, with the reason."""

    @abstractmethod
    async def probe(self, table_id: str) -> None:
        """A write transaction that changes nothing (it rewrites the table's row as it is): it
        succeeds only when the store takes writes."""

    @abstractmethod
    async def finish(
        self,
        table: TableRow,
        results: Sequence[ResultRow],
        ratings: Sequence[RatingRow] = (),
        *,
        rating: RatingRequest | None = None,
    ) -> None:
        """In one transaction: the table finished (``table.status``, ``finished_at``), its results, and
        the players' new ratings: ``ratings`` as given, or those ``rating`` computes from what it reads
        in this same transaction (the players' rows locked first, in id order, so two matches of one
        person finishing together never both read his old rating), each with a history entry."""

    @abstractmethod
    async def note_early_leave(self, player_id: int, table_id: str, at: datetime) -> None:
        """``player_id`` left the match of ``table_id`` (or a stand-in took his seat, his connection
        away) during its first deal, at ``at``; noted once per table (again: nothing changes)."""

    @abstractmethod
    async def early_leaves(self, player_id: int, since: datetime) -> int:
        """How many tables ``player_id`` left during their first deal since ``since``."""
