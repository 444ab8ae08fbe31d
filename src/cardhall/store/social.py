"""The store's part for playing with people one knows (issue 25, part B): private tables and their
invitations, friend requests and friendships, blocks, roles, chat mutes, bans and reports, as tables of
their own (nothing of ``players`` changes), made by migration ``0004_social``.

:class:`SocialSql` is mixed into :class:`~cardhall.store.sql.SqlStore`; its methods are the abstract
ones of :class:`~cardhall.store.base.Store`'s social section.

Choices:

- **A friendship is one row** ``(low_id, high_id)`` with ``low_id < high_id`` (checked by the
  database), so two people are friends once whoever asked; a request is ``(sender, recipient)``.
- **Every change of a relation is one transaction** that looks at what is there first: a request to a
  person who already asked you accepts his request, a request across a block in either direction
  changes nothing, a block ends the friendship and every request between the two.
- **Invitations** are stored as they are (not hashed, unlike players' tokens): an invitation opens one
  table only, every person seated there may copy the link again, and the server must give it back to
  them; comparing it is done in constant time (:mod:`cardhall.server.social`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sqlalchemy import (
    CheckConstraint,
    Column,
    ForeignKey,
    Index,
    Integer,
    PrimaryKeyConstraint,
    Table,
    Text,
    and_,
    delete,
    or_,
    select,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from cardhall.store.rows import ROLES, ChatRow, PlayerRow, ReportRow

if TYPE_CHECKING:
    from sqlalchemy import MetaData


def social_tables(metadata: MetaData, utc: type) -> dict[str, Table]:
    """The social tables on the store's ``metadata`` (``utc``: its time column type)."""

    def player(name: str, nullable: bool = False) -> Column[int]:
        return Column(name, Integer, ForeignKey("players.id"), nullable=nullable)

    return {
        "private": Table(
            "private_tables",
            metadata,
            Column("table_id", Text, ForeignKey("tables.id"), primary_key=True),
            Column("invitation", Text, nullable=False),
            Column("created_at", utc, nullable=False),
        ),
        "requests": Table(
            "friend_requests",
            metadata,
            player("sender_id"),
            player("recipient_id"),
            Column("created_at", utc, nullable=False),
            PrimaryKeyConstraint("sender_id", "recipient_id"),
            Index(None, "recipient_id"),
        ),
        "friends": Table(
            "friendships",
            metadata,
            player("low_id"),
            player("high_id"),
            Column("since", utc, nullable=False),
            PrimaryKeyConstraint("low_id", "high_id"),
            CheckConstraint("low_id < high_id", name="ordered"),
            Index(None, "high_id"),
        ),
        "blocks": Table(
            "blocks",
            metadata,
            player("blocker_id"),
            player("blocked_id"),
            Column("created_at", utc, nullable=False),
            PrimaryKeyConstraint("blocker_id", "blocked_id"),
            Index(None, "blocked_id"),
        ),
        "roles": Table(
            "roles",
            metadata,
            player("player_id"),
            Column("role", Text, nullable=False),
            Column("granted_at", utc, nullable=False),
            PrimaryKeyConstraint("player_id", "role"),
            CheckConstraint(f"role IN ({', '.join(repr(r) for r in ROLES)})", name="role"),
        ),
        "mutes": Table(
            "chat_mutes",
            metadata,
            player("player_id"),
            Column("until", utc, nullable=False),
            Column("reason", Text, nullable=False),
            player("by_id", nullable=True),
            PrimaryKeyConstraint("player_id"),
        ),
        "bans": Table(
            "bans",
            metadata,
            player("player_id"),
            Column("reason", Text, nullable=False),
            Column("at", utc, nullable=False),
            player("by_id", nullable=True),
            PrimaryKeyConstraint("player_id"),
        ),
        "reports": Table(
            "reports",
            metadata,
            Column("id", Integer, primary_key=True),
            player("reporter_id"),
            Column("line_id", Integer, ForeignKey("chat.id"), nullable=False),
            Column("table_id", Text, ForeignKey("tables.id"), nullable=False),
            player("sender_id", nullable=True),
            Column("sender_name", Text, nullable=False),
            Column("text", Text, nullable=False),
            Column("reason", Text, nullable=False),
            Column("at", utc, nullable=False),
            Index(None, "at"),
        ),
    }


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


class SocialSql:
    """The social methods of the SQL store (see the module); mixed into ``SqlStore``."""

    social: dict[str, Table]
    sqlite: bool  # (else PostgreSQL)
    players_table: Table
    tables_table: Table
    chat_table: Table

    if TYPE_CHECKING:

        def _writing(self) -> AbstractAsyncContextManager[AsyncConnection]: ...

        def _reading(self) -> AbstractAsyncContextManager[AsyncConnection]: ...

    # --- private tables ------------------------------------------------------------------------

    async def _save_invitations(self, c: AsyncConnection, invitations: Mapping[str, str]) -> None:
        """New private tables' invitations (table id -> invitation), in the transaction of ``c``: the
        one that stores their rows (``SqlStore.save_table``), so that no table is stored without its
        invitation. One already there is left as it is: a write tried again after the answer of its
        commit was lost finds it (a table's invitation never changes)."""
        if not invitations:
            return
        private = self.social["private"]
        insert = sqlite.insert(private) if self.sqlite else postgresql.insert(private)
        now = datetime.now(UTC)
        await c.execute(
            insert.on_conflict_do_nothing(index_elements=["table_id"]),
            [{"table_id": t, "invitation": i, "created_at": now} for t, i in sorted(invitations.items())],
        )

    async def private_tables(self, table_ids: Sequence[str]) -> dict[str, str]:
        if not table_ids:
            return {}
        private = self.social["private"]
        query = select(private.c.table_id, private.c.invitation).where(private.c.table_id.in_(set(table_ids)))
        async with self._reading() as c:
            return {r.table_id: r.invitation for r in await c.execute(query)}

    async def open_private_tables(self) -> dict[str, str]:
        """The invitations of the private tables that are waiting or playing (a restart's)."""
        private, tables = self.social["private"], self.tables_table
        query = (
            select(private.c.table_id, private.c.invitation)
            .join(tables, tables.c.id == private.c.table_id)
            .where(tables.c.status.in_(("waiting", "playing")))
        )
        async with self._reading() as c:
            return {r.table_id: r.invitation for r in await c.execute(query)}

    # --- friends -------------------------------------------------------------------------------

    async def _friends(self, c: AsyncConnection, a: int, b: int) -> bool:
        friends = self.social["friends"]
        low, high = _pair(a, b)
        query = select(friends.c.low_id).where(friends.c.low_id == low, friends.c.high_id == high)
        return (await c.execute(query)).first() is not None

    async def _request_exists(self, c: AsyncConnection, sender: int, recipient: int) -> bool:
        requests = self.social["requests"]
        query = select(requests.c.sender_id).where(
            requests.c.sender_id == sender, requests.c.recipient_id == recipient
        )
        return (await c.execute(query)).first() is not None

    async def _befriend(self, c: AsyncConnection, a: int, b: int) -> None:
        requests = self.social["requests"]
        await c.execute(
            delete(requests).where(
                or_(
                    and_(requests.c.sender_id == a, requests.c.recipient_id == b),
                    and_(requests.c.sender_id == b, requests.c.recipient_id == a),
                )
            )
        )
        low, high = _pair(a, b)
        await c.execute(
            self.social["friends"].insert().values(low_id=low, high_id=high, since=datetime.now(UTC))
        )

    async def _blocks(self, c: AsyncConnection, blocker: int, blocked: int) -> bool:
        blocks = self.social["blocks"]
        query = select(blocks.c.blocker_id).where(
            blocks.c.blocker_id == blocker, blocks.c.blocked_id == blocked
        )
        return (await c.execute(query)).first() is not None

    async def request_friend(self, sender: int, recipient: int) -> str:
        """``sender`` asks ``recipient`` to be friends: ``requested`` (stored), ``accepted`` (he had
        asked first: they are friends now), ``pending`` (asked already), ``friends`` (they are), or
        ``blocked`` (the sender blocks the recipient: nothing stored). A request to someone who blocks
        the sender is stored as any other and answered ``requested`` (he is never told of the block,
        not even by his own list of requests sent); the recipient never sees it
        (:meth:`friend_requests`)."""
        async with self._writing() as c:
            if await self._blocks(c, sender, recipient):
                return "blocked"
            if await self._blocks(c, recipient, sender):
                if not await self._request_exists(c, sender, recipient):
                    await c.execute(
                        self.social["requests"]
                        .insert()
                        .values(sender_id=sender, recipient_id=recipient, created_at=datetime.now(UTC))
                    )
                return "requested"
            if await self._friends(c, sender, recipient):
                return "friends"
            if await self._request_exists(c, recipient, sender):
                await self._befriend(c, sender, recipient)
                return "accepted"
            if await self._request_exists(c, sender, recipient):
                return "pending"
            await c.execute(
                self.social["requests"]
                .insert()
                .values(sender_id=sender, recipient_id=recipient, created_at=datetime.now(UTC))
            )
            return "requested"

    async def answer_request(self, sender: int, recipient: int, accept: bool) -> bool:
        """``recipient`` accepts (or refuses) ``sender``'s request; False when there is none."""
        requests = self.social["requests"]
        async with self._writing() as c:
            if not await self._request_exists(c, sender, recipient):
                return False
            if accept:
                await self._befriend(c, sender, recipient)
            else:
                await c.execute(
                    delete(requests).where(
                        requests.c.sender_id == sender, requests.c.recipient_id == recipient
                    )
                )
            return True

    async def _unfriend(self, c: AsyncConnection, a: int, b: int) -> bool:
        requests, friends = self.social["requests"], self.social["friends"]
        low, high = _pair(a, b)
        gone = await c.execute(delete(friends).where(friends.c.low_id == low, friends.c.high_id == high))
        asked = await c.execute(
            delete(requests).where(
                or_(
                    and_(requests.c.sender_id == a, requests.c.recipient_id == b),
                    and_(requests.c.sender_id == b, requests.c.recipient_id == a),
                )
            )
        )
        return bool(gone.rowcount or asked.rowcount)

    async def remove_friend(self, a: int, b: int) -> bool:
        """End the friendship of ``a`` and ``b``, or any request between them; False when none was."""
        async with self._writing() as c:
            return await self._unfriend(c, a, b)

    async def friends(self, player: int) -> list[int]:
        friends = self.social["friends"]
        query = select(friends.c.low_id, friends.c.high_id).where(
            or_(friends.c.low_id == player, friends.c.high_id == player)
        )
        async with self._reading() as c:
            rows = (await c.execute(query)).all()
        return sorted(r.high_id if r.low_id == player else r.low_id for r in rows)

    async def are_friends(self, a: int, b: int) -> bool:
        async with self._reading() as c:
            return await self._friends(c, a, b)

    async def friend_requests(self, player: int) -> tuple[list[int], list[int]]:
        """The requests ``player`` received (their senders, but those he blocks) and sent (their
        recipients), oldest first."""
        requests, blocks = self.social["requests"], self.social["blocks"]
        query = (
            select(requests.c.sender_id, requests.c.recipient_id)
            .where(or_(requests.c.sender_id == player, requests.c.recipient_id == player))
            .order_by(requests.c.created_at)
        )
        blocked = select(blocks.c.blocked_id).where(blocks.c.blocker_id == player)
        async with self._reading() as c:
            rows = (await c.execute(query)).all()
            hidden = set((await c.execute(blocked)).scalars())
        incoming = [r.sender_id for r in rows if r.recipient_id == player and r.sender_id not in hidden]
        outgoing = [r.recipient_id for r in rows if r.sender_id == player]
        return incoming, outgoing

    # --- blocks --------------------------------------------------------------------------------

    async def block(self, blocker: int, blocked: int) -> None:
        """``blocker`` blocks ``blocked``: their friendship and every request between them end."""
        blocks = self.social["blocks"]
        async with self._writing() as c:
            await self._unfriend(c, blocker, blocked)
            found = select(blocks.c.blocker_id).where(
                blocks.c.blocker_id == blocker, blocks.c.blocked_id == blocked
            )
            if (await c.execute(found)).first() is None:
                await c.execute(
                    blocks.insert().values(
                        blocker_id=blocker, blocked_id=blocked, created_at=datetime.now(UTC)
                    )
                )

    async def unblock(self, blocker: int, blocked: int) -> bool:
        blocks = self.social["blocks"]
        async with self._writing() as c:
            result = await c.execute(
                delete(blocks).where(blocks.c.blocker_id == blocker, blocks.c.blocked_id == blocked)
            )
        return bool(result.rowcount)

    async def blocked_by(self, player: int) -> list[int]:
        """The people ``player`` blocks."""
        blocks = self.social["blocks"]
        query = select(blocks.c.blocked_id).where(blocks.c.blocker_id == player).order_by(blocks.c.created_at)
        async with self._reading() as c:
            return [r.blocked_id for r in await c.execute(query)]

    async def blockers(self, player: int) -> list[int]:
        """The people who block ``player``."""
        blocks = self.social["blocks"]
        query = select(blocks.c.blocker_id).where(blocks.c.blocked_id == player)
        async with self._reading() as c:
            return [r.blocker_id for r in await c.execute(query)]

    async def blocks(self, blocker: int, blocked: int) -> bool:
        """Whether ``blocker`` blocks ``blocked``."""
        blocks = self.social["blocks"]
        query = select(blocks.c.blocker_id).where(
            blocks.c.blocker_id == blocker, blocks.c.blocked_id == blocked
        )
        async with self._reading() as c:
            return (await c.execute(query)).first() is not None

    # --- roles and sanctions ---------------------------------------------------------------------

    async def add_role(self, player: int, role: str) -> bool:
        """Give ``player`` ``role``; False when he had it."""
        roles = self.social["roles"]
        async with self._writing() as c:
            found = select(roles.c.role).where(roles.c.player_id == player, roles.c.role == role)
            if (await c.execute(found)).first() is not None:
                return False
            await c.execute(roles.insert().values(player_id=player, role=role, granted_at=datetime.now(UTC)))
            return True

    async def remove_role(self, player: int, role: str) -> bool:
        roles = self.social["roles"]
        async with self._writing() as c:
            result = await c.execute(delete(roles).where(roles.c.player_id == player, roles.c.role == role))
        return bool(result.rowcount)

    async def has_role(self, player: int, role: str) -> bool:
        roles = self.social["roles"]
        query = select(roles.c.role).where(roles.c.player_id == player, roles.c.role == role)
        async with self._reading() as c:
            return (await c.execute(query)).first() is not None

    async def players_named(self, name: str) -> list[PlayerRow]:
        """Every player called ``name`` (names are not unique), oldest first."""
        players = self.players_table
        query = select(players.c.id, players.c.name).where(players.c.name == name).order_by(players.c.id)
        async with self._reading() as c:
            return [PlayerRow(r.id, r.name) for r in await c.execute(query)]

    async def mute_chat(self, player: int, until: datetime, reason: str, by: int | None) -> None:
        """``player``'s chat lines are refused until ``until`` (a later mute replaces an earlier one)."""
        mutes = self.social["mutes"]
        async with self._writing() as c:
            await c.execute(delete(mutes).where(mutes.c.player_id == player))
            await c.execute(mutes.insert().values(player_id=player, until=until, reason=reason, by_id=by))

    async def chat_muted_until(self, player: int) -> datetime | None:
        mutes = self.social["mutes"]
        query = select(mutes.c.until).where(mutes.c.player_id == player)
        async with self._reading() as c:
            row = (await c.execute(query)).first()
        return None if row is None else row.until

    async def ban(self, player: int, reason: str, by: int | None) -> None:
        bans = self.social["bans"]
        async with self._writing() as c:
            await c.execute(delete(bans).where(bans.c.player_id == player))
            await c.execute(
                bans.insert().values(player_id=player, reason=reason, at=datetime.now(UTC), by_id=by)
            )

    async def unban(self, player: int) -> bool:
        bans = self.social["bans"]
        async with self._writing() as c:
            result = await c.execute(delete(bans).where(bans.c.player_id == player))
        return bool(result.rowcount)

    async def banned(self, player: int) -> str | None:
        """Why ``player`` is banned; None when he is not."""
        bans = self.social["bans"]
        async with self._reading() as c:
            row = (await c.execute(select(bans.c.reason).where(bans.c.player_id == player))).first()
        return None if row is None else str(row.reason)

    # --- reports -------------------------------------------------------------------------------

    async def chat_line(self, line_id: int) -> ChatRow | None:
        chat = self.chat_table
        async with self._reading() as c:
            r = (await c.execute(select(chat).where(chat.c.id == line_id))).first()
        return None if r is None else ChatRow(r.table_id, r.player_id, r.name, r.text, r.id, r.at)

    async def add_report(self, report: ReportRow) -> ReportRow:
        reports = self.social["reports"]
        at = report.at.astimezone(UTC)
        values = {
            "reporter_id": report.reporter_id,
            "line_id": report.line_id,
            "table_id": report.table_id,
            "sender_id": report.sender_id,
            "sender_name": report.sender_name,
            "text": report.text,
            "reason": report.reason,
            "at": at,
        }
        async with self._writing() as c:
            result = await c.execute(reports.insert().values(values))
        (report_id,) = result.inserted_primary_key or (None,)
        assert isinstance(report_id, int)
        report.id, report.at = report_id, at
        return report

    async def reports(self, limit: int = 100) -> list[ReportRow]:
        """The latest reports, newest first."""
        reports = self.social["reports"]
        query = select(reports).order_by(reports.c.id.desc()).limit(limit)
        async with self._reading() as c:
            return [
                ReportRow(
                    r.reporter_id,
                    r.line_id,
                    r.table_id,
                    r.sender_id,
                    r.sender_name,
                    r.text,
                    r.reason,
                    r.id,
                    r.at,
                )
                for r in await c.execute(query)
            ]
