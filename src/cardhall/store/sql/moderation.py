"""Moderation in the SQL store (:class:`~cardhall.store.moderation.Moderation`): roles, chat mutes and
bans (one row a player: a later one replaces it) and reports, which keep the reported line as it was."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import delete, select

from cardhall.store.moderation import Moderation
from cardhall.store.rows import ReportRow
from cardhall.store.sql.connection import SqlBase
from cardhall.store.sql.schema import SOCIAL


class SqlModeration(SqlBase, Moderation):
    async def add_role(self, player: int, role: str) -> bool:
        """Give ``player`` ``role``; False when he had it."""
        roles = SOCIAL["roles"]
        async with self._writing() as c:
            found = select(roles.c.role).where(roles.c.player_id == player, roles.c.role == role)
            if (await c.execute(found)).first() is not None:
                return False
            await c.execute(roles.insert().values(player_id=player, role=role, granted_at=datetime.now(UTC)))
            return True

    async def remove_role(self, player: int, role: str) -> bool:
        roles = SOCIAL["roles"]
        async with self._writing() as c:
            result = await c.execute(delete(roles).where(roles.c.player_id == player, roles.c.role == role))
        return bool(result.rowcount)

    async def has_role(self, player: int, role: str) -> bool:
        roles = SOCIAL["roles"]
        query = select(roles.c.role).where(roles.c.player_id == player, roles.c.role == role)
        async with self._reading() as c:
            return (await c.execute(query)).first() is not None

    async def mute_chat(self, player: int, until: datetime, reason: str, by: int | None) -> None:
        """``player``'s chat lines are refused until ``until`` (a later mute replaces an earlier one)."""
        mutes = SOCIAL["mutes"]
        async with self._writing() as c:
            await c.execute(delete(mutes).where(mutes.c.player_id == player))
            await c.execute(mutes.insert().values(player_id=player, until=until, reason=reason, by_id=by))

    async def chat_muted_until(self, player: int) -> datetime | None:
        mutes = SOCIAL["mutes"]
        query = select(mutes.c.until).where(mutes.c.player_id == player)
        async with self._reading() as c:
            row = (await c.execute(query)).first()
        return None if row is None else row.until

    async def ban(self, player: int, reason: str, by: int | None) -> None:
        bans = SOCIAL["bans"]
        async with self._writing() as c:
            await c.execute(delete(bans).where(bans.c.player_id == player))
            await c.execute(
                bans.insert().values(player_id=player, reason=reason, at=datetime.now(UTC), by_id=by)
            )

    async def unban(self, player: int) -> bool:
        bans = SOCIAL["bans"]
        async with self._writing() as c:
            result = await c.execute(delete(bans).where(bans.c.player_id == player))
        return bool(result.rowcount)

    async def banned(self, player: int) -> str | None:
        """Why ``player`` is banned; None when he is not."""
        bans = SOCIAL["bans"]
        async with self._reading() as c:
            row = (await c.execute(select(bans.c.reason).where(bans.c.player_id == player))).first()
        return None if row is None else str(row.reason)

    async def add_report(self, report: ReportRow) -> ReportRow:
        reports = SOCIAL["reports"]
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
        reports = SOCIAL["reports"]
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
