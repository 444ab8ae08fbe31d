"""The store's leases (a hall of many processes: :mod:`cardhall.server.cluster.leases`): one lease per
process (a node), a table owned by the node whose lease runs, taken over by another with its fencing
number raised once the lease ran out. Times are the database's clock, never the processes'."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from cardhall.store.rows import TableRow

# How long a process's lease on a table lasts: a new table's first lease (written by the store with
# its row) and every renewal (:mod:`cardhall.server.cluster.leases` says why this long).
LEASE_SECONDS = 2.0


class Leases(ABC):
    @abstractmethod
    async def expired(self, limit: int) -> list[str]:
        """The ids of up to ``limit`` waiting or playing tables whose owner's lease ran out (or that
        have no owner), oldest first: a read, which takes nothing."""

    @abstractmethod
    async def claim(
        self, node: str, seconds: float, limit: int, prefer: Sequence[str] = ()
    ) -> list[TableRow]:
        """Take up to ``limit`` waiting or playing tables whose owner's lease ran out (or that have no
        owner) for ``node``, each with its fencing number raised by one, and renew ``node``'s lease
        to ``seconds`` from now, in one transaction; the rows as they are now. The tables of
        ``prefer`` are taken first, then the oldest."""

    @abstractmethod
    async def renew(self, node: str, seconds: float) -> set[str]:
        """Extend ``node``'s lease to ``seconds`` from now (made if it has none); the ids of the open
        tables it owns (a table missing from them is owned by ``node`` no longer, or finished)."""

    @abstractmethod
    async def release(self, node: str, table_ids: Sequence[str] | None = None) -> None:
        """Give up ``node``'s tables (``table_ids``, or all, and then its lease too): another process
        may take them at once."""

    @abstractmethod
    async def owner(self, table_id: str) -> str | None:
        """The process that owns the open table ``table_id`` and whose lease runs now (None: none)."""
