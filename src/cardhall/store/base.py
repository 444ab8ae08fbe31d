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
from datetime import datetime

from cardhall.core import Record
from cardhall.store.rows import (
    ActionRow,
    ChatRow,
    MatchRow,
    PlayerRow,
    RatingHistoryRow,
    RatingRequest,
    RatingRow,
    ReportRow,
    ResultRow,
    ReviewRow,
    TableRow,
)

# How long a process's lease on a table lasts: a new table's first lease (written by the store with
# its row) and every renewal (:mod:`cardhall.server.cluster.leases` says why this long).
LEASE_SECONDS = 2.0


class StoreError(RuntimeError):
    """A store that cannot be opened: the message names the URL (without its password) and why."""


class StoreUnavailableError(StoreError):
    """The store failed to read or write: nothing of that call was committed (for a write whose commit
    was cut off: perhaps it was). The message names the store and the reason."""


class NameTakenError(ValueError):
    """An account name whose key (:func:`cardhall.server.names.name_key`) another account has."""


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

    def problems(self) -> list[str]:
        """What keeps the store from storing that a read would not show (SQLite: its file deleted or
        replaced under the server); none by default. The readiness route reports them."""
        return []

    # --- players -------------------------------------------------------------------------------

    @abstractmethod
    async def create_player(self, name: str) -> tuple[PlayerRow, str]:
        """A new guest and his secret token (only its hash is stored)."""

    @abstractmethod
    async def player_by_token(self, token: str) -> PlayerRow | None:
        """The player whose token ``token`` is, with his ban (``PlayerRow.banned``); None: nobody's."""

    @abstractmethod
    async def players(self, ids: Sequence[int]) -> dict[int, PlayerRow]: ...

    # --- accounts and sessions -----------------------------------------------------------------

    @abstractmethod
    async def create_account(self, player_id: int, name: str, key: str, password_hash: str) -> bool:
        """Make the guest ``player_id`` an account named ``name`` (unique by ``key``), in one
        transaction: his name, key and password hash set, his guest token replaced by one nobody holds
        (his sessions go on). False when he is an account already; :class:`NameTakenError` when
        another account has the key."""

    @abstractmethod
    async def account(self, key: str) -> tuple[PlayerRow, str] | None:
        """The account whose name has ``key``, with its password hash."""

    @abstractmethod
    async def password_hash(self, player_id: int) -> str | None:
        """An account's password hash (None: a guest)."""

    @abstractmethod
    async def create_session(self, player_id: int, expires_at: datetime) -> str:
        """A new session of the player and its secret token (only its hash is stored)."""

    @abstractmethod
    async def player_by_session(self, token: str, now: datetime) -> PlayerRow | None:
        """The player of the session ``token``, with his ban (``PlayerRow.banned``), unless it expired
        before ``now`` (None then too)."""

    @abstractmethod
    async def end_session(self, token: str) -> None:
        """Forget one session (nothing when there is none)."""

    @abstractmethod
    async def end_sessions(self, player_id: int, keep: str | None = None) -> int:
        """Forget every session of the player but ``keep``'s; how many were forgotten."""

    @abstractmethod
    async def set_password(self, player_id: int, password_hash: str, keep: str | None = None) -> None:
        """In one transaction: the account's new password hash, and every session of his but
        ``keep``'s forgotten."""

    @abstractmethod
    async def sessions(self, player_id: int) -> int:
        """How many sessions the player has (expired ones included until swept)."""

    @abstractmethod
    async def end_oldest_sessions(self, player_id: int, keep: int) -> list[str]:
        """End the player's sessions but the ``keep`` newest; the SHA-256 hex of each token ended (its
        open connections are closed by who asked)."""

    # --- tables --------------------------------------------------------------------------------

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

    async def action_counts(self, table_ids: Sequence[str]) -> dict[str, int]:
        """How many actions each of ``table_ids`` has stored (a table without any: absent). The
        operator's listing of the hall's tables, those of other processes included, reads it."""
        counts = {}
        for table_id in table_ids:
            last = await self.last_action(table_id)
            if last is not None:
                counts[table_id] = last.number
        return counts

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
    async def leaderboard(
        self, game: str, pool: str, limit: int = 50, *, accounts_only: bool = False, min_games: int = 0
    ) -> list[RatingRow]:
        """The best rated players of a game and pool (by mu, the displayed rating's order), with their
        names, each with at least ``min_games`` rated matches; only accounts when ``accounts_only``."""

    # --- a player's page -----------------------------------------------------------------------

    @abstractmethod
    async def player_ratings(self, player_id: int) -> list[RatingRow]:
        """Every rating of the player (each game and pool he was rated in)."""

    @abstractmethod
    async def rating_history(self, player_id: int, limit: int = 500) -> list[RatingHistoryRow]:
        """The player's ratings after each rated match, oldest first (the last ``limit``)."""

    @abstractmethod
    async def matches(self, player_id: int, limit: int = 20) -> list[MatchRow]:
        """The player's last ``limit`` finished matches, newest first."""

    @abstractmethod
    async def totals(self, player_id: int) -> dict[str, tuple[int, float]]:
        """Per game string: the player's finished matches and the sum of his shares of the wins (none in
        a match a stand-in played for him: its ``win_share`` is 0)."""

    # --- reviews -------------------------------------------------------------------------------

    @abstractmethod
    async def save_review(self, review: ReviewRow) -> None:
        """Store a finished review of a seat (replacing an earlier one of that table and seat)."""

    @abstractmethod
    async def stored_review(self, table_id: str, seat: int) -> ReviewRow | None:
        """The stored review of a table's seat, if any."""

    # --- playing with people one knows (cardhall.store.social) ---------------------------------

    # (A private table's invitation is stored with its row, by save_table or save_tables.)

    @abstractmethod
    async def private_tables(self, table_ids: Sequence[str]) -> dict[str, str]:
        """The invitations of those of ``table_ids`` that are private."""

    @abstractmethod
    async def open_private_tables(self) -> dict[str, str]:
        """The invitations of the private tables that are waiting or playing."""

    @abstractmethod
    async def request_friend(self, sender: int, recipient: int) -> str:
        """``requested``, ``accepted``, ``pending``, ``friends`` or ``blocked`` (nothing stored)."""

    @abstractmethod
    async def answer_request(self, sender: int, recipient: int, accept: bool) -> bool: ...

    @abstractmethod
    async def remove_friend(self, a: int, b: int) -> bool: ...

    @abstractmethod
    async def friends(self, player: int) -> list[int]: ...

    @abstractmethod
    async def are_friends(self, a: int, b: int) -> bool: ...

    @abstractmethod
    async def friend_requests(self, player: int) -> tuple[list[int], list[int]]:
        """The senders of the requests ``player`` received, and the recipients of those he sent."""

    @abstractmethod
    async def block(self, blocker: int, blocked: int) -> None: ...

    @abstractmethod
    async def unblock(self, blocker: int, blocked: int) -> bool: ...

    @abstractmethod
    async def blocked_by(self, player: int) -> list[int]: ...

    @abstractmethod
    async def blockers(self, player: int) -> list[int]:
        """The people who block ``player``."""

    @abstractmethod
    async def blocks(self, blocker: int, blocked: int) -> bool: ...

    @abstractmethod
    async def add_role(self, player: int, role: str) -> bool: ...

    @abstractmethod
    async def remove_role(self, player: int, role: str) -> bool: ...

    @abstractmethod
    async def has_role(self, player: int, role: str) -> bool: ...

    @abstractmethod
    async def players_named(self, name: str) -> list[PlayerRow]: ...

    @abstractmethod
    async def mute_chat(self, player: int, until: datetime, reason: str, by: int | None) -> None: ...

    @abstractmethod
    async def chat_muted_until(self, player: int) -> datetime | None: ...

    @abstractmethod
    async def ban(self, player: int, reason: str, by: int | None) -> None: ...

    @abstractmethod
    async def unban(self, player: int) -> bool: ...

    @abstractmethod
    async def banned(self, player: int) -> str | None: ...

    @abstractmethod
    async def chat_line(self, line_id: int) -> ChatRow | None: ...

    @abstractmethod
    async def add_report(self, report: ReportRow) -> ReportRow: ...

    @abstractmethod
    async def reports(self, limit: int = 100) -> list[ReportRow]: ...

    # --- leases (many processes: cardhall.server.cluster.leases) ------------------------------------

    async def expired(self, limit: int) -> list[str]:
        """The ids of up to ``limit`` waiting or playing tables whose owner's lease ran out (or that
        have no owner), oldest first: a read, which takes nothing."""
        raise NotImplementedError(f"{type(self).__name__} keeps no leases")

    async def claim(
        self, node: str, seconds: float, limit: int, prefer: Sequence[str] = ()
    ) -> list[TableRow]:
        """Take up to ``limit`` waiting or playing tables whose owner's lease ran out (or that have no
        owner) for ``node``, each with its fencing number raised by one, and renew ``node``'s lease
        to ``seconds`` from now, in one transaction; the rows as they are now. The tables of
        ``prefer`` are taken first, then the oldest."""
        raise NotImplementedError(f"{type(self).__name__} keeps no leases")

    async def actions_of(self, table_ids: Sequence[str]) -> dict[str, list[ActionRow]]:
        """The stored actions of each of ``table_ids``, in order (tables taken over: restored
        together)."""
        found: dict[str, list[ActionRow]] = {}
        for table_id in table_ids:
            found[table_id] = [
                ActionRow(table_id, n, seat, action)
                for n, (seat, action) in enumerate(await self.actions(table_id), 1)
            ]
        return found

    async def renew(self, node: str, seconds: float) -> set[str]:
        """Extend ``node``'s lease to ``seconds`` from now (made if it has none); the ids of the open
        tables it owns (a table missing from them is owned by ``node`` no longer, or finished)."""
        raise NotImplementedError(f"{type(self).__name__} keeps no leases")

    async def release(self, node: str, table_ids: Sequence[str] | None = None) -> None:
        """Give up ``node``'s tables (``table_ids``, or all, and then its lease too): another process
        may take them at once."""
        raise NotImplementedError(f"{type(self).__name__} keeps no leases")

    async def owner(self, table_id: str) -> str | None:
        """The process that owns the open table ``table_id`` and whose lease runs now (None: none)."""
        raise NotImplementedError(f"{type(self).__name__} keeps no leases")
