"""The store's players (guests and accounts): who a guest's token or an account's name is, and an
account made from a guest. Sessions (an account's signed-in browsers) are :mod:`cardhall.store.sessions`'s."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from cardhall.store.rows import PlayerRow


class Players(ABC):
    @abstractmethod
    async def create_player(self, name: str) -> tuple[PlayerRow, str]:
        """A new guest and his secret token (only its hash is stored)."""

    @abstractmethod
    async def player_by_token(self, token: str) -> PlayerRow | None:
        """The player whose token ``token`` is, with his ban (``PlayerRow.banned``); None: nobody's."""

    @abstractmethod
    async def players(self, ids: Sequence[int]) -> dict[int, PlayerRow]: ...

    @abstractmethod
    async def players_named(self, name: str) -> list[PlayerRow]:
        """Every player called ``name`` (names are not unique), oldest first."""

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
