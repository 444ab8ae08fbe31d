"""Ratings: each finished match updates the per-game rating of every person at the table with openskill's
Plackett-Luce model (a multiplayer rating system: each seat is ranked by its final score).

Choices:

- A match's places come from the final scores (the lowest first in penalty-point games), equal scores
  sharing a place.
- Matches among people only and matches with a bot at the table count in separate pools (``people`` and
  ``bots``), each with its own leaderboard. A bot takes part in the update as an opponent of the default
  rating (mu 25, sigma 25/3) and is never rated itself: beating bots moves a person's rating as beating
  new players would.
- A person who left during the match keeps his seat's result (a bot played it out for him).
- The leaderboard orders by mu - 3 sigma (openskill's ordinal): a rating that is high and sure.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from cardhall.store import RatingRow

MODEL = PlackettLuce()


def places(scores: Sequence[int], lowest_wins: bool) -> list[int]:
    """Each seat's place (1 = best), equal scores sharing one."""
    order = sorted(set(scores), reverse=not lowest_wins)
    return [order.index(s) + 1 for s in scores]


def update(
    game: str,
    pool: str,
    players: Sequence[int | None],
    scores: Sequence[int],
    lowest_wins: bool,
    current: dict[int, RatingRow],
) -> list[RatingRow]:
    """New ratings for the people (``players[seat]``; None for a bot) after a match, from their current
    ones (absent: the default)."""
    teams = []
    for player in players:
        row = current.get(player) if player is not None else None
        teams.append([MODEL.rating() if row is None else MODEL.rating(mu=row.mu, sigma=row.sigma)])
    rated = MODEL.rate(teams, ranks=[float(p) for p in places(scores, lowest_wins)])
    out = []
    for player, team in zip(players, rated, strict=True):
        if player is None:
            continue
        before = current.get(player)
        games = 1 if before is None else before.games + 1
        out.append(RatingRow(player, game, pool, team[0].mu, team[0].sigma, games))
    return out
