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

What counts, so that a rating cannot be farmed (a player who opened a fresh guest for each two-player
Svara match and folded with it climbed from 3.44 to 22.5 in 12 matches, first on the people's board):

- **Each person is rated against the opponents who count for him** (:func:`rate_match`): bots always
  (at the default rating, as above); a person only when he is an account, *established* (at least
  :data:`ESTABLISHED_MATCHES` finished matches among people only before this one) and not met
  :data:`PAIR_LIMIT` times already within :data:`PAIR_WINDOW` (repeated pairings weigh nothing). The
  places are the match's, among those who count. With nobody counting, his rating does not move and
  the match is not one of his rated ``games``. So a fresh guest, or a fresh account, moves nobody's
  rating but his own: a farmer's throwaway opponents give him nothing.
- **The people's board lists accounts only**, with at least :data:`BOARD_MIN_GAMES` rated matches (a
  provisional rating is not shown there); guests keep their ratings, which come with them when they
  make themselves an account. The bots' board lists everyone (bots cannot be made up).
- **An abandoned match** (every person left before it started, or stopped) is not rated; a person who
  left during a match keeps his seat's result (above).
- The update reads what it needs inside the transaction that stores it (:class:`RatingRequest`), so
  two matches of one person finishing together both count.
- Not done: weighing a match by how it was played (one side folding every deal); the rules above make
  throwaway opponents worthless instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Final

from openskill.models import PlackettLuce

from cardhall.store import RatingRow
from cardhall.store.rows import RatingInputs, RatingRequest

MODEL = PlackettLuce()
ESTABLISHED_MATCHES: Final = 5  # finished matches among people before an account's results move others'
PAIR_LIMIT: Final = 3  # matches of one pair within the window that are rated
PAIR_WINDOW: Final = timedelta(hours=24)
BOARD_MIN_GAMES: Final = 10  # rated matches before an account shows on the people's board


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


def counts_for(person: int, opponent: int | None, inputs: RatingInputs) -> bool:
    """Whether ``opponent`` (None: a bot) counts in ``person``'s update (the module's docstring)."""
    if opponent is None:
        return True
    if opponent not in inputs.accounts or inputs.played.get(opponent, 0) < ESTABLISHED_MATCHES:
        return False
    pair = (min(person, opponent), max(person, opponent))
    return inputs.pairs.get(pair, 0) < PAIR_LIMIT


def rate_match(
    game: str,
    pool: str,
    players: Sequence[int | None],
    scores: Sequence[int],
    lowest_wins: bool,
    inputs: RatingInputs,
) -> list[RatingRow]:
    """New ratings for the people (``players[seat]``; None for a bot) after a match: each against the
    seats that count for him (:func:`counts_for`), from the ratings ``inputs`` holds."""
    out: list[RatingRow] = []
    for seat, person in enumerate(players):
        if person is None:
            continue
        field = [s for s, other in enumerate(players) if s == seat or counts_for(person, other, inputs)]
        if len(field) < 2:
            continue  # nobody counts: the rating stays, the match is not one of his rated ones
        rated = update(
            game,
            pool,
            [players[s] for s in field],
            [scores[s] for s in field],
            lowest_wins,
            inputs.current,
        )
        out.extend(r for r in rated if r.player_id == person)
    return out


def request(
    game: str,
    players: Sequence[int | None],
    scores: Sequence[int],
    lowest_wins: bool,
    now: datetime,
) -> RatingRequest | None:
    """The rating update of a finished match, for the store to do in its transaction (None: no person
    at the table)."""
    people = [p for p in players if p is not None]
    if not people:
        return None
    pool = "people" if len(people) == len(players) else "bots"
    seated, final = list(players), list(scores)
    return RatingRequest(
        game,
        pool,
        people,
        now - PAIR_WINDOW,
        lambda inputs: rate_match(game, pool, seated, final, lowest_wins, inputs),
    )
