"""The store's part for playing with people one knows (issue 25, part B): friend requests, friendships
and blocks. (A private table's invitation is stored with its row: :mod:`cardhall.store.tables`.)

- **A friendship is one relation** whoever asked; a request is ``(sender, recipient)``.
- **Every change of a relation is one transaction** that looks at what is there first: a request to a
  person who already asked you accepts his request, a request across a block in either direction
  changes nothing visible, a block ends the friendship and every request between the two.
"""

from __future__ import annotations

from abc import ABC, abstractmethod


class Social(ABC):
    @abstractmethod
    async def request_friend(self, sender: int, recipient: int) -> str:
        """``requested``, ``accepted``, ``pending``, ``friends`` or ``blocked`` (nothing stored)."""

    @abstractmethod
    async def answer_request(self, sender: int, recipient: int, accept: bool) -> bool:
        """``recipient`` accepts (or refuses) ``sender``'s request; False when there is none."""

    @abstractmethod
    async def remove_friend(self, a: int, b: int) -> bool:
        """End the friendship of ``a`` and ``b``, or any request between them; False when none was."""

    @abstractmethod
    async def friends(self, player: int) -> list[int]: ...

    @abstractmethod
    async def are_friends(self, a: int, b: int) -> bool: ...

    @abstractmethod
    async def friend_requests(self, player: int) -> tuple[list[int], list[int]]:
        """The senders of the requests ``player`` received, and the recipients of those he sent."""

    @abstractmethod
    async def block(self, blocker: int, blocked: int) -> None:
        """``blocker`` blocks ``blocked``: their friendship and every request between them end."""

    @abstractmethod
    async def unblock(self, blocker: int, blocked: int) -> bool: ...

    @abstractmethod
    async def blocked_by(self, player: int) -> list[int]:
        """The people ``player`` blocks."""

    @abstractmethod
    async def blockers(self, player: int) -> list[int]:
        """The people who block ``player``."""

    @abstractmethod
    async def blocks(self, blocker: int, blocked: int) -> bool:
        """Whether ``blocker`` blocks ``blocked``."""
