"""The reviews of the SQL store (:class:`~cardhall.store.reviews.Reviews`): one per table and seat,
replaced by a later one."""

from __future__ import annotations

from dataclasses import asdict
from datetime import UTC

from sqlalchemy import select

from cardhall.store.reviews import Reviews
from cardhall.store.rows import ReviewRow
from cardhall.store.sql.connection import SqlBase
from cardhall.store.sql.schema import REVIEWS


class SqlReviews(SqlBase, Reviews):
    async def save_review(self, review: ReviewRow) -> None:
        values = asdict(review) | {"created_at": review.created_at.astimezone(UTC)}
        keys = ("table_id", "seat")
        async with self._writing() as c:
            await c.execute(
                self.dialect.upsert(REVIEWS, keys, ("budget", "seed", "review", "created_at")), values
            )

    async def stored_review(self, table_id: str, seat: int) -> ReviewRow | None:
        query = select(REVIEWS).where(REVIEWS.c.table_id == table_id, REVIEWS.c.seat == seat)
        async with self._reading() as c:
            r = (await c.execute(query)).first()
        if r is None:
            return None
        return ReviewRow(r.table_id, r.seat, r.budget, r.seed, r.review, r.created_at)
