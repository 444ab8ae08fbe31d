"""The store's reviews: a finished review of a table's seat (:mod:`cardhall.review`), kept so that it
is computed once."""

from __future__ import annotations

from abc import ABC, abstractmethod

from cardhall.store.rows import ReviewRow


class Reviews(ABC):
    @abstractmethod
    async def save_review(self, review: ReviewRow) -> None:
        """Store a finished review of a seat (replacing an earlier one of that table and seat)."""

    @abstractmethod
    async def stored_review(self, table_id: str, seat: int) -> ReviewRow | None:
        """The stored review of a table's seat, if any."""
