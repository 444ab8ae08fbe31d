"""Ratings: each finished match updates the per-game rating of every person at the table with openskill's
Plackett-Luce model (a multiplayer rating system: each seat is ranked by its final score).

Choices:

- A match's places come from the final scores (the lowest first in penalty-point games), equal scores
  sharing a place.
- Matches among people only and matches with a bot at the table count in separate pools (``people`` and
  ``bots``), each with its own leaderboard. A bot takes part in the update as an opponent of the default
  rating (mu 25, sigma 25/3) and is never rated itself: beating bots moves a person's rating as beating
  new players would.
- **A rating a person recognises.** What is shown is :func:`shown`: ``1500 + 48 * (mu - 25)``, rounded
  (openskill's mu 25 is a new player's, so every rating starts at 1500; the model's beta, 25/6 of mu,
  is the difference at which the better player wins a head-to-head match about 76 % of the time, as
  200 Elo points do: 48 points a unit of mu makes it 200 here too). It is marked provisional (``?``)
  until :func:`established` (:data:`BOARD_MIN_GAMES` rated matches). The boards order by it among
  established players; mu and sigma stay in the API. (Before, the boards showed mu - 3 sigma: a bare
  3.3 or -2.8 that nobody could read.)

What counts, so that a rating cannot be farmed (a player who opened a fresh guest for each two-player
Svara match and folded with it climbed from 3.44 to 22.5 in 12 matches, first on the people's board):

- **Each person is rated against the opponents who count for him** (:func:`rate_match`): bots always
  (at the default rating, as above); a person only when he is an account, *established* (at least
  :data:`ESTABLISHED_MATCHES` finished matches among people only before this one) and not met
  :data:`PAIR_LIMIT` times already within :data:`PAIR_WINDOW` (repeated pairings weigh nothing). The
  places are the match's, among those who count. With nobody counting, his rating does not move and
  the match is not one of his rated ``games``. So a fresh guest, or a fresh account, moves nobody's
  rating but his own: a farmer's throwaway opponents give him nothing.
- **Every board lists established ratings only**: at least :data:`BOARD_MIN_GAMES` rated matches,
  in both pools (one match with bots made a person #1 on the Hokm "with bots" board). The people's
  board lists accounts only; guests keep their ratings, which come with them when they make
  themselves an account. The bots' board lists guests too (bots cannot be made up), shown as guests.

No win for the absent (a person who closed his browser after 2 deals of Hokm was shown "won · score
510" and was #1 on the bots' board when the stand-in bot finished the match): nobody gains a rating
point, a win or a board place from decisions a stand-in made.

- **A match played by a stand-in** (:func:`absence`): a person left it (``leave``), or the bot standing
  in for him made more than half of his seat's decisions (his turn timer ran out, or he was away). Each
  stored action says whether a stand-in made it (``actions.stand_in``), so the count survives a
  restart and a table moving to another process.
- **It counts for him as a loss**, as lichess counts leaving: in his own update he is ranked last,
  below every seat whatever the scores; his result's share of the win is 0 (never a win in his
  totals), and his page says why instead of the score (``results.absent``: ``left``, "left; a bot
  finished", or ``away``, "away; a bot played most of it"). The others at the table are rated as
  usual, from the scores (the absent person's seat among them, as the stand-in played it).
- **A person who took a bot's seat during the match** (Play now, at a deal's start) is not rated by it:
  its score is partly the bot's deals, and a score per deal is not every game's. The machine passes his
  seat as a bot's (``None``) in the rating request, so the others are rated as with a bot there; his
  result is stored as usual (his page lists the match).
- **A match abandoned early** is not rated: every person left before the first deal was scored (the
  table is then stopped, :mod:`cardhall.server.host.machine`), or the operator stopped it. A table
  whose people all left before it started is abandoned too, as before.
- The update reads what it needs inside the transaction that stores it (:class:`RatingRequest`), so
  two matches of one person finishing together both count.
- Not done: weighing a match by how it was played (one side folding every deal); the rules above make
  throwaway opponents worthless instead.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from typing import Final

from openskill.models import PlackettLuce

from cardhall.store import RatingRow
from cardhall.store.rows import RatingInputs, RatingRequest

MODEL = PlackettLuce()
ESTABLISHED_MATCHES: Final = 5  # finished matches among people before an account's results move others'
PAIR_LIMIT: Final = 3  # matches of one pair within the window that are rated
PAIR_WINDOW: Final = timedelta(hours=24)
BOARD_MIN_GAMES: Final = 10  # rated matches before a rating is established (shown on a board, no "?")
SHOWN_START: Final = 1500  # the displayed rating of a new player (mu = MODEL.mu)
SHOWN_PER_MU: Final = 48  # displayed points per unit of mu: beta (25/6) is then 200, as in Elo


def shown(mu: float) -> int:
    """The rating a person sees: ``1500 + 48 * (mu - 25)``, rounded (the module's docstring)."""
    return round(SHOWN_START + SHOWN_PER_MU * (mu - MODEL.mu))


def established(games: int) -> bool:
    """Whether a rating of ``games`` rated matches is established (shown on the boards, not provisional)."""
    return games >= BOARD_MIN_GAMES


def absence(left: bool, decisions: int, by_stand_in: int) -> str | None:
    """Why a person's match counts as played by a stand-in (``left``, ``away``), or None: he ``left``
    it, or the stand-in made more than half of his seat's ``decisions`` (``by_stand_in`` of them)."""
    if left:
        return "left"
    if 2 * by_stand_in > decisions:
        return "away"
    return None


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
    last: int | None = None,
) -> list[RatingRow]:
    """New ratings for the people (``players[seat]``; None for a bot) after a match, from their current
    ones (absent: the default). ``last``: the index of a seat ranked below all others whatever its
    score (a person whose match a stand-in played)."""
    teams = []
    for player in players:
        row = current.get(player) if player is not None else None
        teams.append([MODEL.rating() if row is None else MODEL.rating(mu=row.mu, sigma=row.sigma)])
    ranks = places(scores, lowest_wins)
    if last is not None:
        ranks[last] = max(r for i, r in enumerate(ranks) if i != last) + 1
    rated = MODEL.rate(teams, ranks=[float(p) for p in ranks])
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
    absent: Collection[int] = (),
) -> list[RatingRow]:
    """New ratings for the people (``players[seat]``; None for a bot) after a match: each against the
    seats that count for him (:func:`counts_for`), from the ratings ``inputs`` holds; a person in an
    ``absent`` seat (his match played by a stand-in) ranked last in his own update."""
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
            last=field.index(seat) if seat in absent else None,
        )
        out.extend(r for r in rated if r.player_id == person)
    return out


def request(
    game: str,
    players: Sequence[int | None],
    scores: Sequence[int],
    lowest_wins: bool,
    now: datetime,
    absent: Collection[int] = (),
) -> RatingRequest | None:
    """The rating update of a finished match, for the store to do in its transaction (None: no person
    at the table). ``absent``: the seats of people whose match a stand-in played (:func:`absence`)."""
    people = [p for p in players if p is not None]
    if not people:
        return None
    pool = "people" if len(people) == len(players) else "bots"
    seated, final, forfeits = list(players), list(scores), frozenset(absent)
    return RatingRequest(
        game,
        pool,
        people,
        now - PAIR_WINDOW,
        lambda inputs: rate_match(game, pool, seated, final, lowest_wins, inputs, forfeits),
    )
