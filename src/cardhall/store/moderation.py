"""The store's moderation: roles (a moderator's), chat mutes, bans and the reports of chat lines."""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime

from cardhall.store.rows import ReportRow


class Moderation(ABC):
    @abstractmethod
    async def add_role(self, player: int, role: str) -> bool:
        """Give ``player`` ``role``; False when he had it."""

    @abstractmethod
    async def remove_role(self, player: int, role: str) -> bool: ...

    @abstractmethod
    async def has_role(self, player: int, role: str) -> bool: ...

    @abstractmethod
    async def mute_chat(self, player: int, until: datetime, reason: str, by: int | None) -> None:
        """``player``'s chat lines are refused until ``until`` (a later mute replaces an earlier one)."""

    @abstractmethod
    async def chat_muted_until(self, player: int) -> datetime | None: ...

    @abstractmethod
    async def ban(self, player: int, reason: str, by: int | None) -> None: ...

    @abstractmethod
    async def unban(self, player: int) -> bool: ...

    @abstractmethod
    async def banned(self, player: int) -> str | None:
        """Why ``player`` is banned; None when he is not."""

    @abstractmethod
    async def add_report(self, report: ReportRow) -> ReportRow: ...

    @abstractmethod
    async def reports(self, limit: int = 100) -> list[ReportRow]:
        """The latest reports, newest first."""
