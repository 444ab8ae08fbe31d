"""The ratings of the SQL store and what a player's page reads (:class:`~cardhall.store.ratings.Ratings`):
a rating comes with its player's name and whether he is a guest (one join). Ratings are written by a
finished table's transaction (:mod:`cardhall.store.sql.finishing`)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Double, Integer, Row, Text, bindparam, cast, func, literal_column, select, union_all

from cardhall.store.ratings import Ratings
from cardhall.store.rows import MatchRow, RatingHistoryRow, RatingRow, SeatRow, SeekerFacts
from cardhall.store.sql.connection import SqlBase
from cardhall.store.sql.schema import EARLY_LEAVES, PLAYERS, RATING_HISTORY, RATINGS, RESULTS, SOCIAL, TABLES

RATING = (*RATINGS.c, PLAYERS.c.name, PLAYERS.c.password_hash)  # (what rating_row reads)


def rating_row(row: Row[Any]) -> RatingRow:
    guest = row.password_hash is None
    return RatingRow(row.player_id, row.game, row.pool, row.mu, row.sigma, row.games, row.name, guest)


@functools.cache
def seeker_query(recent_matches: int) -> Any:
    """What :meth:`SqlRatings.seeker` reads, by kind, with its values bound at each call (built once: a
    statement made at each call cost SQLAlchemy its cache key again). The recent matches are read
    through ``results`` by player."""
    blocks = SOCIAL["blocks"]
    player = bindparam("player", type_=Integer)

    def tagged(kind: str, value: Any) -> Any:
        return select(literal_column(f"'{kind}'").label("kind"), cast(value, Double).label("value"))

    recent = (
        select(RESULTS.c.table_id)
        .join(TABLES, TABLES.c.id == RESULTS.c.table_id)
        .where(
            RESULTS.c.player_id == player,
            TABLES.c.status == "finished",
            TABLES.c.finished_at >= bindparam("recent_since", type_=TABLES.c.finished_at.type),
        )
        .order_by(TABLES.c.finished_at.desc(), TABLES.c.id.desc())
        .limit(recent_matches)
    )
    return union_all(
        tagged("mu", RATINGS.c.mu).where(
            RATINGS.c.player_id == player,
            RATINGS.c.game == bindparam("game", type_=Text),
            RATINGS.c.pool == "people",
        ),
        tagged("blocks", blocks.c.blocked_id).where(blocks.c.blocker_id == player),
        tagged("blocker", blocks.c.blocker_id).where(blocks.c.blocked_id == player),
        tagged("recent", RESULTS.c.player_id).where(
            RESULTS.c.table_id.in_(recent), RESULTS.c.player_id != player
        ),
        tagged("leaves", func.count())
        .select_from(EARLY_LEAVES)
        .where(
            EARLY_LEAVES.c.player_id == player,
            EARLY_LEAVES.c.at >= bindparam("leaves_since", type_=EARLY_LEAVES.c.at.type),
        ),
    )


class SqlRatings(SqlBase, Ratings):
    async def ratings(self, game: str, pool: str, player_ids: Sequence[int]) -> dict[int, RatingRow]:
        if not player_ids:
            return {}
        query = (
            select(*RATING)
            .join(PLAYERS, PLAYERS.c.id == RATINGS.c.player_id)
            .where(RATINGS.c.game == game, RATINGS.c.pool == pool, RATINGS.c.player_id.in_(set(player_ids)))
        )
        async with self._reading() as c:
            return {r.player_id: rating_row(r) for r in await c.execute(query)}

    async def leaderboard(
        self, game: str, pool: str, limit: int = 50, *, accounts_only: bool = False, min_games: int = 0
    ) -> list[RatingRow]:
        query = (
            select(*RATING)
            .join(PLAYERS, PLAYERS.c.id == RATINGS.c.player_id)
            .where(RATINGS.c.game == game, RATINGS.c.pool == pool, RATINGS.c.games >= min_games)
            .order_by(RATINGS.c.mu.desc(), RATINGS.c.player_id)
            .limit(limit)
        )
        if accounts_only:
            query = query.where(PLAYERS.c.password_hash.is_not(None))
        async with self._reading() as c:
            return [rating_row(r) for r in await c.execute(query)]

    async def player_ratings(self, player_id: int) -> list[RatingRow]:
        query = (
            select(*RATING)
            .join(PLAYERS, PLAYERS.c.id == RATINGS.c.player_id)
            .where(RATINGS.c.player_id == player_id)
            .order_by(RATINGS.c.game, RATINGS.c.pool)
        )
        async with self._reading() as c:
            return [rating_row(r) for r in await c.execute(query)]

    async def rating_history(self, player_id: int, limit: int = 500) -> list[RatingHistoryRow]:
        query = (
            select(RATING_HISTORY)
            .where(RATING_HISTORY.c.player_id == player_id)
            .order_by(RATING_HISTORY.c.id.desc())
            .limit(limit)
        )
        async with self._reading() as c:
            rows = (await c.execute(query)).all()
        return [RatingHistoryRow(r.table_id, r.game, r.pool, r.mu, r.sigma, r.at) for r in reversed(rows)]

    async def seeker(
        self, player_id: int, game: str, recent_since: datetime, recent_matches: int, leaves_since: datetime
    ) -> SeekerFacts:
        """One statement, each part tagged by its kind (a seek's five reads were five round trips:
        benchmarks/matching.md), built once (:func:`seeker_query`)."""
        query = seeker_query(recent_matches)
        values = {
            "player": player_id,
            "game": game,
            "recent_since": recent_since,
            "leaves_since": leaves_since,
        }
        async with self._reading() as c:
            rows = (await c.execute(query, values)).all()
        found: dict[str, list[float]] = {"mu": [], "blocks": [], "blocker": [], "recent": [], "leaves": []}
        for kind, value in rows:
            found[kind].append(value)
        return SeekerFacts(
            mu=found["mu"][0] if found["mu"] else None,
            blocks=frozenset(int(v) for v in found["blocks"]),
            blockers=frozenset(int(v) for v in found["blocker"]),
            recent=frozenset(int(v) for v in found["recent"] if v is not None),
            leaves=int(found["leaves"][0]) if found["leaves"] else 0,
        )

    async def matches(self, player_id: int, limit: int = 20) -> list[MatchRow]:
        query = (
            select(TABLES.c.id, TABLES.c.game, TABLES.c.finished_at, TABLES.c.seats, RESULTS)
            .join(TABLES, TABLES.c.id == RESULTS.c.table_id)
            .where(RESULTS.c.player_id == player_id, TABLES.c.status == "finished")
            .order_by(TABLES.c.finished_at.desc(), TABLES.c.id.desc())
            .limit(limit)
        )
        async with self._reading() as c:
            rows = (await c.execute(query)).all()
        return [
            MatchRow(
                r.id,
                r.game,
                r.finished_at,
                r.seat,
                r.score,
                r.win_share,
                [SeatRow(**s) for s in r.seats],
                r.absent,
            )
            for r in rows
        ]

    async def totals(self, player_id: int) -> dict[str, tuple[int, float]]:
        query = (
            select(TABLES.c.game, func.count(), func.sum(RESULTS.c.win_share))
            .join(TABLES, TABLES.c.id == RESULTS.c.table_id)
            .where(RESULTS.c.player_id == player_id, TABLES.c.status == "finished")
            .group_by(TABLES.c.game)
        )
        async with self._reading() as c:
            return {r[0]: (int(r[1]), float(r[2] or 0.0)) for r in await c.execute(query)}
