"""The players of the SQL store (:class:`~cardhall.store.players.Players`): guests and accounts.

A player's token is ``secrets.token_urlsafe(32)``; only its SHA-256 hex is stored (unique index), and a
token is looked up by its hash. A credential's player comes with his ban, if any, in the same query
(a hello and every signed request ask both).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Row, select
from sqlalchemy.exc import IntegrityError

from cardhall.store.errors import NameTakenError
from cardhall.store.players import Players
from cardhall.store.rows import PlayerRow
from cardhall.store.sql.connection import SqlBase
from cardhall.store.sql.schema import PLAYERS, SOCIAL

_PLAYER = (PLAYERS.c.id, PLAYERS.c.name, PLAYERS.c.password_hash)
_BANS = SOCIAL["bans"]
PLAYER_AND_BAN = select(*_PLAYER, _BANS.c.reason.label("banned")).outerjoin(
    _BANS, _BANS.c.player_id == PLAYERS.c.id
)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def player_row(row: Row[*tuple[Any, ...]], banned: str | None = None) -> PlayerRow:
    return PlayerRow(row.id, row.name, row.password_hash is None, banned)


class SqlPlayers(SqlBase, Players):
    async def create_player(self, name: str) -> tuple[PlayerRow, str]:
        token = secrets.token_urlsafe(32)
        async with self._writing() as c:
            result = await c.execute(
                PLAYERS.insert().values(name=name, token_hash=token_hash(token), created_at=datetime.now(UTC))
            )
        (player_id,) = result.inserted_primary_key or (None,)
        assert isinstance(player_id, int)
        return PlayerRow(player_id, name), token

    async def player_by_token(self, token: str) -> PlayerRow | None:
        query = PLAYER_AND_BAN.where(PLAYERS.c.token_hash == token_hash(token))
        async with self._reading() as c:
            row = (await c.execute(query)).first()
        return None if row is None else player_row(row, row.banned)

    async def players(self, ids: Sequence[int]) -> dict[int, PlayerRow]:
        if not ids:
            return {}
        query = select(*_PLAYER).where(PLAYERS.c.id.in_(set(ids)))
        async with self._reading() as c:
            rows = (await c.execute(query)).all()
        return {r.id: player_row(r) for r in rows}

    async def create_account(self, player_id: int, name: str, key: str, password_hash: str) -> bool:
        values = {
            "name": name,
            "name_key": key,
            "password_hash": password_hash,
            # The guest's token dies: from now on a password guards him, and the token a browser kept
            # would be a second, weaker key.
            "token_hash": token_hash(secrets.token_urlsafe(32)),
        }
        query = (
            PLAYERS.update()
            .where(PLAYERS.c.id == player_id, PLAYERS.c.password_hash.is_(None))
            .values(values)
        )
        try:
            async with self._writing() as c:
                result = await c.execute(query)
        except IntegrityError as e:
            raise NameTakenError(f"another account has the name {name!r} (or one that looks like it)") from e
        return bool(result.rowcount)

    async def account(self, key: str) -> tuple[PlayerRow, str] | None:
        query = select(*_PLAYER).where(PLAYERS.c.name_key == key)
        async with self._reading() as c:
            row = (await c.execute(query)).first()
        if row is None or row.password_hash is None:
            return None
        return player_row(row), row.password_hash

    async def password_hash(self, player_id: int) -> str | None:
        query = select(PLAYERS.c.password_hash).where(PLAYERS.c.id == player_id)
        async with self._reading() as c:
            found: str | None = (await c.execute(query)).scalar()
        return found

    async def players_named(self, name: str) -> list[PlayerRow]:
        query = select(PLAYERS.c.id, PLAYERS.c.name).where(PLAYERS.c.name == name).order_by(PLAYERS.c.id)
        async with self._reading() as c:
            return [PlayerRow(r.id, r.name) for r in await c.execute(query)]
