"""A finished table in the SQL store (:meth:`~cardhall.store.tables.Tables.finish`): its row, its results
and its players' new ratings with their history, in one transaction; the ratings computed, when asked,
from what this same transaction reads. Ratings are upserted in key order (no deadlock between two
finishing tables on PostgreSQL)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from datetime import UTC, datetime

from sqlalchemy import and_, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from cardhall.store.rows import RatingInputs, RatingRequest, RatingRow, ResultRow, TableRow
from cardhall.store.sql.ratings import RATING, rating_row
from cardhall.store.sql.schema import PLAYERS, RATING_HISTORY, RATINGS, RESULTS, TABLES
from cardhall.store.sql.tables import SqlTables


class SqlFinishing(SqlTables):
    async def finish(
        self,
        table: TableRow,
        results: Sequence[ResultRow],
        ratings: Sequence[RatingRow] = (),
        *,
        rating: RatingRequest | None = None,
    ) -> None:
        result_rows = [asdict(r) for r in results]
        async with self._writing() as c:
            if rating is not None:
                ratings = rating.compute(await self._rating_inputs(c, rating))
            await self._save_fenced(c, table)
            if result_rows:
                await c.execute(RESULTS.insert(), result_rows)
            if ratings:
                ordered = sorted(ratings, key=lambda r: (r.player_id, r.game, r.pool))
                rating_rows = [
                    {
                        "player_id": r.player_id,
                        "game": r.game,
                        "pool": r.pool,
                        "mu": r.mu,
                        "sigma": r.sigma,
                        "games": r.games,
                    }
                    for r in ordered
                ]
                keys = ("player_id", "game", "pool")
                await c.execute(self.dialect.upsert(RATINGS, keys, ("mu", "sigma", "games")), rating_rows)
                at = table.finished_at or datetime.now(UTC)
                history = [
                    {
                        "player_id": r.player_id,
                        "table_id": table.id,
                        "game": r.game,
                        "pool": r.pool,
                        "mu": r.mu,
                        "sigma": r.sigma,
                        "at": at,
                    }
                    for r in ordered
                ]
                await c.execute(RATING_HISTORY.insert(), history)

    async def _rating_inputs(self, c: AsyncConnection, request: RatingRequest) -> RatingInputs:
        """What a rating update reads, in the transaction that stores it. On PostgreSQL the players'
        rows are locked first (in id order: no deadlock between two matches), so a second match of
        one of them waits here until the first is committed, and then reads its ratings; SQLite's
        writers take turns already (one lock for the whole store)."""
        ids = sorted(set(request.players))
        if not ids:
            return RatingInputs({}, {}, set(), {})
        lock = (
            select(PLAYERS.c.id, PLAYERS.c.password_hash).where(PLAYERS.c.id.in_(ids)).order_by(PLAYERS.c.id)
        )
        if self.dialect.locks_rows:
            lock = lock.with_for_update()
        accounts = {r.id for r in await c.execute(lock) if r.password_hash is not None}
        current_query = (
            select(*RATING)
            .join(PLAYERS, PLAYERS.c.id == RATINGS.c.player_id)
            .where(
                RATINGS.c.game == request.game, RATINGS.c.pool == request.pool, RATINGS.c.player_id.in_(ids)
            )
        )
        current = {r.player_id: rating_row(r) for r in await c.execute(current_query)}
        # Finished matches among people only: a table none of whose results has a bot's seat.
        with_bot = select(RESULTS.c.table_id).where(RESULTS.c.player_id.is_(None))
        people_tables = select(TABLES.c.id).where(TABLES.c.status == "finished", TABLES.c.id.not_in(with_bot))
        played_query = (
            select(RESULTS.c.player_id, func.count())
            .where(RESULTS.c.player_id.in_(ids), RESULTS.c.table_id.in_(people_tables))
            .group_by(RESULTS.c.player_id)
        )
        played = {r[0]: int(r[1]) for r in await c.execute(played_query)}
        mine, theirs = RESULTS.alias("mine"), RESULTS.alias("theirs")
        together = and_(mine.c.table_id == theirs.c.table_id, mine.c.player_id < theirs.c.player_id)
        pairs_query = (
            select(mine.c.player_id, theirs.c.player_id, func.count())
            .select_from(mine.join(theirs, together).join(TABLES, TABLES.c.id == mine.c.table_id))
            .where(
                mine.c.player_id.in_(ids),
                theirs.c.player_id.in_(ids),
                TABLES.c.status == "finished",
                TABLES.c.finished_at >= request.since,
            )
            .group_by(mine.c.player_id, theirs.c.player_id)
        )
        pairs = {(r[0], r[1]): int(r[2]) for r in await c.execute(pairs_query)}
        return RatingInputs(current, played, accounts, pairs)

    async def results(self, table_id: str) -> list[ResultRow]:
        """A finished table's results, by seat (not part of :class:`Store`: nothing in the server asks
        for them yet)."""
        query = select(RESULTS).where(RESULTS.c.table_id == table_id).order_by(RESULTS.c.seat)
        async with self._reading() as c:
            return [
                ResultRow(r.table_id, r.seat, r.player_id, r.score, r.win_share, r.absent)
                for r in await c.execute(query)
            ]
