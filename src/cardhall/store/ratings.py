"""The store's ratings and what a player's page reads: current ratings by game and pool, the
leaderboard, a player's history of ratings, his last matches and his totals. Ratings are written with
a finished table's results (:meth:`cardhall.store.tables.Tables.finish`)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import datetime

from cardhall.store.rows import MatchRow, RatingHistoryRow, RatingRow, SeekerFacts


class Ratings(ABC):
    @abstractmethod
    async def ratings(self, game: str, pool: str, player_ids: Sequence[int]) -> dict[int, RatingRow]:
        """The players' current ratings (absent: never rated in that game and pool)."""

    @abstractmethod
    async def leaderboard(
        self, game: str, pool: str, limit: int = 50, *, accounts_only: bool = False, min_games: int = 0
    ) -> list[RatingRow]:
        """The best rated players of a game and pool (by mu, the displayed rating's order), with their
        names, each with at least ``min_games`` rated matches; only accounts when ``accounts_only``."""

    @abstractmethod
    async def player_ratings(self, player_id: int) -> list[RatingRow]:
        """Every rating of the player (each game and pool he was rated in)."""

    @abstractmethod
    async def rating_history(self, player_id: int, limit: int = 500) -> list[RatingHistoryRow]:
        """The player's ratings after each rated match, oldest first (the last ``limit``)."""

    @abstractmethod
    async def seeker(
        self, player_id: int, game: str, recent_since: datetime, recent_matches: int, leaves_since: datetime
    ) -> SeekerFacts:
        """What Play now needs of ``player_id`` seeking ``game`` (a game's name), in one read: his rating
        in its ``people`` pool, his blocks both ways, the people of his last ``recent_matches`` finished
        matches that finished since ``recent_since``, his early leaves since ``leaves_since``."""

    @abstractmethod
    async def matches(self, player_id: int, limit: int = 20) -> list[MatchRow]:
        """The player's last ``limit`` finished matches, newest first."""

    @abstractmethod
    async def totals(self, player_id: int) -> dict[str, tuple[int, float]]:
        """Per game string: the player's finished matches and the sum of his shares of the wins (none in
        a match a stand-in played for him: its ``win_share`` is 0)."""
