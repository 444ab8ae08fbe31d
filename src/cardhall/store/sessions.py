"""The store's sessions: an account's signed-in browsers, each a secret token (only its hash is
stored) with an expiry, and the password change that ends the others."""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime

from cardhall.store.rows import PlayerRow


class Sessions(ABC):
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
