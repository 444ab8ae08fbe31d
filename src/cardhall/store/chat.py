"""The store's chat: a table's lines, each with its id and time (a report names a line by its id)."""

from __future__ import annotations

from abc import ABC, abstractmethod

from cardhall.store.rows import ChatRow


class Chat(ABC):
    @abstractmethod
    async def add_chat(self, line: ChatRow) -> ChatRow:
        """Store a chat line; returns it with its id and time."""

    @abstractmethod
    async def chat(self, table_id: str, limit: int = 100) -> list[ChatRow]:
        """A table's last ``limit`` chat lines, oldest first."""

    @abstractmethod
    async def chat_line(self, line_id: int) -> ChatRow | None: ...
