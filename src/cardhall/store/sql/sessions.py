"""The sessions of the SQL store (:class:`~cardhall.store.sessions.Sessions`): a session's token is
kept as its SHA-256 hex, as a guest's (:mod:`cardhall.store.sql.players`)."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select

from cardhall.store.rows import PlayerRow
from cardhall.store.sessions import Sessions
from cardhall.store.sql.connection import SqlBase
from cardhall.store.sql.players import PLAYER_AND_BAN, player_row, token_hash
from cardhall.store.sql.schema import PLAYERS, SESSIONS


class SqlSessions(SqlBase, Sessions):
    async def create_session(self, player_id: int, expires_at: datetime) -> str:
        token = secrets.token_urlsafe(32)
        values = {
            "token_hash": token_hash(token),
            "player_id": player_id,
            "created_at": datetime.now(UTC),
            "expires_at": expires_at,
        }
        async with self._writing() as c:
            await c.execute(SESSIONS.insert().values(values))
        return token

    async def player_by_session(self, token: str, now: datetime) -> PlayerRow | None:
        query = PLAYER_AND_BAN.join(SESSIONS, SESSIONS.c.player_id == PLAYERS.c.id).where(
            SESSIONS.c.token_hash == token_hash(token), SESSIONS.c.expires_at > now
        )
        async with self._reading() as c:
            row = (await c.execute(query)).first()
        return None if row is None else player_row(row, row.banned)

    async def end_session(self, token: str) -> None:
        async with self._writing() as c:
            await c.execute(SESSIONS.delete().where(SESSIONS.c.token_hash == token_hash(token)))

    def _others(self, player_id: int, keep: str | None) -> Any:
        query = SESSIONS.delete().where(SESSIONS.c.player_id == player_id)
        return query if keep is None else query.where(SESSIONS.c.token_hash != token_hash(keep))

    async def end_sessions(self, player_id: int, keep: str | None = None) -> int:
        async with self._writing() as c:
            result = await c.execute(self._others(player_id, keep))
        return int(result.rowcount)

    async def set_password(self, player_id: int, password_hash: str, keep: str | None = None) -> None:
        async with self._writing() as c:
            await c.execute(
                PLAYERS.update().where(PLAYERS.c.id == player_id).values(password_hash=password_hash)
            )
            await c.execute(self._others(player_id, keep))

    async def sessions(self, player_id: int) -> int:
        query = select(func.count()).select_from(SESSIONS).where(SESSIONS.c.player_id == player_id)
        async with self._reading() as c:
            return int((await c.execute(query)).scalar() or 0)

    async def end_oldest_sessions(self, player_id: int, keep: int) -> list[str]:
        newest = (
            select(SESSIONS.c.token_hash)
            .where(SESSIONS.c.player_id == player_id)
            .order_by(SESSIONS.c.created_at.desc(), SESSIONS.c.token_hash)
            .limit(keep)
        )
        query = (
            SESSIONS.delete()
            .where(SESSIONS.c.player_id == player_id, SESSIONS.c.token_hash.not_in(newest.scalar_subquery()))
            .returning(SESSIONS.c.token_hash)
        )
        async with self._writing() as c:
            return list((await c.execute(query)).scalars())
