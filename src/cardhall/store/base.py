"""What the server asks of its storage (:class:`Store`); :mod:`cardhall.store.sql` keeps it in SQLite
(the embedded default) or PostgreSQL through SQLAlchemy, its schema managed by Alembic migrations.

Durability: when ``append_actions`` or any other writing method returns, what it wrote is committed; the
server broadcasts an action only after that. A store that fails (a full disk, SQLite's write lock held
by another process past the busy timeout, PostgreSQL down) raises :class:`StoreUnavailableError` from
any method; a write whose commit was cut off may still have landed, which the caller can tell with
:meth:`Store.last_action`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence

from cardhall.core import Record
from cardhall.store.rows import ActionRow, ChatRow, PlayerRow, RatingRow, ResultRow, TableRow


class StoreError(RuntimeError):
    """A store that cannot be opened: the message names the URL (without its password) and why."""


class StoreUnavailableError(StoreError):
    """The store failed to read or write: nothing of that call was committed (for a write whose commit
    was cut off: perhaps it was). The message names the store and the reason."""


class FencedError(StoreError):
    """A write for a table this process no longer owns: another process took the table (its fencing
    number in the store is higher than the writer's), and nothing of the write was committed.
    :attr:`tables` are the ids refused."""

    def __init__(self, tables: Sequence[str], message: str) -> None:
        super().__init__(message)
        self.tables = tuple(tables)


class Store(ABC):
    @abstractmethod
    async def close(self) -> None: ...

    async def checkpoint(self) -> None:
        """Housekeeping a long-running server asks for now and then, off the path of any commit
        (SQLite: copy the write-ahead log into the database). Nothing by default."""

    # --- players -------------------------------------------------------------------------------

    @abstractmethod
    async def create_player(self, name: str) -> tuple[PlayerRow, str]:
        """A new guest and his secret token (only its hash is stored)."""

    @abstractmethod
    async def player_by_token(self, token: str) -> PlayerRow | None: ...

    @abstractmethod
    async def players(self, ids: Sequence[int]) -> dict[int, PlayerRow]: ...

    # --- tables --------------------------------------------------------------------------------

    @abstractmethod
    async def save_table(self, table: TableRow) -> None:
        """Insert a table, or update its status, seats, settings and finish time: an update only while
        the stored row holds ``table.fence`` (:class:`FencedError` otherwise)."""

    @abstractmethod
    async def table(self, table_id: str) -> TableRow | None: ...

    @abstractmethod
    async def tables(self, statuses: Sequence[str], limit: int = 100) -> list[TableRow]:
        """Tables in any of ``statuses``, newest first."""

    @abstractmethod
    async def append_actions(
        self, actions: Sequence[ActionRow], fences: Mapping[str, int] | None = None
    ) -> None:
        """Append actions (of one or many tables) in one transaction; with ``fences`` (table id -> the
        writer's fencing number), only if every table's row holds that number, else nothing is
        written and :class:`FencedError` names the tables refused."""

    @abstractmethod
    async def actions(self, table_id: str) -> list[tuple[int, int]]:
        """A table's ``(seat, action)`` pairs in order."""

    @abstractmethod
    async def last_action(self, table_id: str) -> ActionRow | None:
        """A table's last stored action (None before its first)."""

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

    async def record(self, table_id: str) -> Record | None:
        """A table's record (it replays with ``cardhall replay``)."""
        table = await self.table(table_id)
        if table is None:
            return None
        return {
            "game": table.game,
            "rules_version": table.rules_version,
            "seed": table.seed,
            "actions": [[s, a] for s, a in await self.actions(table_id)],
        }

    @abstractmethod
    async def finish(
        self, table: TableRow, results: Sequence[ResultRow], ratings: Sequence[RatingRow]
    ) -> None:
        """In one transaction: the table finished (``table.status``, ``finished_at``), its results, and
        the players' new ratings."""

    # --- chat ----------------------------------------------------------------------------------

    @abstractmethod
    async def add_chat(self, line: ChatRow) -> ChatRow:
        """Store a chat line; returns it with its id and time."""

    @abstractmethod
    async def chat(self, table_id: str, limit: int = 100) -> list[ChatRow]:
        """A table's last ``limit`` chat lines, oldest first."""

    # --- ratings -------------------------------------------------------------------------------

    @abstractmethod
    async def ratings(self, game: str, pool: str, player_ids: Sequence[int]) -> dict[int, RatingRow]:
        """The players' current ratings (absent: never rated in that game and pool)."""

    @abstractmethod
    async def leaderboard(self, game: str, pool: str, limit: int = 50) -> list[RatingRow]:
        """The best rated players of a game and pool (by mu - 3 sigma), with their names."""

    # --- leases (many processes: cardhall.server.cluster.leases) ------------------------------------

    async def claim(self, node: str, seconds: float, limit: int) -> list[TableRow]:
        """Take up to ``limit`` waiting or playing tables whose lease ran out (or that have no owner)
        for ``node``, for ``seconds``: each with its fencing number raised by one, in one
        transaction; the rows as they are now."""
        raise NotImplementedError(f"{type(self).__name__} keeps no leases")

    async def renew(self, node: str, seconds: float) -> set[str]:
        """Extend the lease of every open table ``node`` owns to ``seconds`` from now; their ids (a
        table missing from them is owned by ``node`` no longer)."""
        raise NotImplementedError(f"{type(self).__name__} keeps no leases")

    async def release(self, node: str, table_ids: Sequence[str] | None = None) -> None:
        """End ``node``'s leases (of ``table_ids``, or all): another process may take them at once."""
        raise NotImplementedError(f"{type(self).__name__} keeps no leases")

    async def owner(self, table_id: str) -> str | None:
        """The process whose lease on the open table ``table_id`` runs now (None: none)."""
        raise NotImplementedError(f"{type(self).__name__} keeps no leases")
