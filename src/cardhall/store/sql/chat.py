"""The chat of the SQL store (:class:`~cardhall.store.chat.Chat`): lines by ``(table_id, id)``."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC

from sqlalchemy import select

from cardhall.store.chat import Chat
from cardhall.store.rows import ChatRow
from cardhall.store.sql.connection import SqlBase
from cardhall.store.sql.schema import CHAT


class SqlChat(SqlBase, Chat):
    async def add_chat(self, line: ChatRow) -> ChatRow:
        at = line.at.astimezone(UTC)
        values = {
            "table_id": line.table_id,
            "player_id": line.player_id,
            "name": line.name,
            "text": line.text,
            "at": at,
        }
        async with self._writing() as c:
            result = await c.execute(CHAT.insert().values(values))
        (line_id,) = result.inserted_primary_key or (None,)
        assert isinstance(line_id, int)
        return replace(line, id=line_id, at=at)

    async def chat(self, table_id: str, limit: int = 100) -> list[ChatRow]:
        query = select(CHAT).where(CHAT.c.table_id == table_id).order_by(CHAT.c.id.desc()).limit(limit)
        async with self._reading() as c:
            rows = (await c.execute(query)).all()
        return [ChatRow(r.table_id, r.player_id, r.name, r.text, r.id, r.at) for r in reversed(rows)]

    async def chat_line(self, line_id: int) -> ChatRow | None:
        chat = CHAT
        async with self._reading() as c:
            r = (await c.execute(select(chat).where(chat.c.id == line_id))).first()
        return None if r is None else ChatRow(r.table_id, r.player_id, r.name, r.text, r.id, r.at)
