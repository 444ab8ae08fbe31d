"""The standings of an event, a pure function of its stored rows: the event, its sign-ups and its
tables with their results (and, for duplicate, the tables' records replayed deal by deal).

Choices (docs/events.md says them to players):

- **Place points** (arena): at a table of n seats the k-th place gets n - k points (3 seats: 2/1/0);
  people who tie share the places they cover, the average rounded down (two first at 3 seats: 1 each).
  While a person is on a streak (his last two tables both firsts, alone or shared), a table's points
  are doubled.
- **Matchpoints** (duplicate): per deal and hand (the seat: every table of a round is dealt the same
  cards seat by seat), each person's score in that deal against everyone's who held the same hand at
  the other tables, 1 per player beaten and ½ per tie; bots are compared against but never scored.
  ``share`` = his matchpoints / the most he could have had.
- **A match a stand-in mostly played** (its result ``absent``) earns its person nothing: 0 points at an
  arena table, 0 matchpoints for its deals (the most he could have had still counts), and it breaks a
  streak.
- **Tie-breaks**: arena by points, then performance; duplicate by share, then ``strength`` (the average
  share of his table-mates who are people), then performance. ``performance`` is a rating on the shown
  scale from his places: 1500 + 800 × (the average of (n - place) / (n - 1) over his tables - ½).
- A bot's results never make a standing; the standings list every person signed up (or seated) in the
  event, withdrawn ones too (``present`` false).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardhall.core import Game
from cardhall.errors import InvalidOptionError
from cardhall.options import OptionValue
from cardhall.registry import load_game
from cardhall.store.events import EventRow, EventTable, SignupRow
from cardhall.store.rows import TableStatus

# The options by which a game is played for a number of deals (each game names its own; none is listed
# here by game): a cap on deals, or the last of a fixed list of deals counted from ``first_deal``.
DEAL_CAPS = ("max_hands", "max_deals")
DEFAULT_DEALS = 2


def deal_option(game: Game, deals: int) -> dict[str, OptionValue]:
    """The options that make a match of ``game`` ``deals`` deals long (InvalidOptionError: it has none)."""
    for name in DEAL_CAPS:
        if name in game.options:
            return {name: deals}
    if "last_deal" in game.options:
        first = game.options.get("first_deal", 1)
        return {"last_deal": int(first) + deals - 1 if isinstance(first, int) else deals}
    raise InvalidOptionError(f"{game.name} has no option for its number of deals: no event plays it")


def place_points(scores: Sequence[int], lowest_wins: bool) -> tuple[list[int], list[int]]:
    """Each seat's place (1 = best; tied seats the best place they share) and points (see the module)."""
    n = len(scores)
    places, points = [], []
    for s in scores:
        better = sum(1 for o in scores if (o < s if lowest_wins else o > s))
        equal = sum(1 for o in scores if o == s)
        covered = range(better + 1, better + equal + 1)
        places.append(better + 1)
        points.append(sum(n - k for k in covered) // equal)
    return places, points


@dataclass
class Standing:
    player: int
    name: str
    guest: bool
    present: bool
    points: int = 0
    matchpoints: float = 0.0
    most: float = 0.0  # the matchpoints he could have had
    share: float = 0.0
    strength: float = 0.0
    performance: float = 1500.0
    tables: int = 0
    streak: int = 0
    rank: int = 0
    places: list[float] = field(default_factory=list)  # (n - place) / (n - 1) per table
    mates: list[int] = field(default_factory=list)

    def entry(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "name": self.name,
            "guest": self.guest,
            "rank": self.rank,
            "points": self.points,
            "matchpoints": self.matchpoints,
            "share": round(self.share, 4),
            "strength": round(self.strength, 4),
            "performance": round(self.performance, 1),
            "tables": self.tables,
            "streak": self.streak,
            "present": self.present,
        }


@dataclass(frozen=True)
class DealResult:
    """One seat's score in one deal of a duplicate round (``player`` None: a bot)."""

    round: int
    deal: int
    hand: int
    table: str
    player: int | None
    name: str
    score: int
    absent: bool


_DEALS_CACHE: dict[str, list[list[int]]] = {}  # a finished table's per-deal scores (records never change)


def deal_scores(table: EventTable, actions: Sequence[tuple[int, int]]) -> list[list[int]]:
    """The finished match's score of each seat in each deal, by replaying its record."""
    cached = _DEALS_CACHE.get(table.table.id)
    if cached is not None:
        return cached
    game = load_game(table.table.game)
    state = game.new_game(seed=table.table.seed)
    done, before, out = state.deals_finished, [0] * game.num_players, []
    for seat, action in actions:
        state.apply(seat, action)
        if state.deals_finished != done:
            done = state.deals_finished
            now = [int(x) for x in state.scores]
            out.append([a - b for a, b in zip(now, before, strict=True)])
            before = now
    if len(_DEALS_CACHE) > 10_000:
        _DEALS_CACHE.clear()
    _DEALS_CACHE[table.table.id] = out
    return out


def _standings(signups: Sequence[SignupRow], tables: Sequence[EventTable]) -> dict[int, Standing]:
    out = {s.player_id: Standing(s.player_id, s.name, s.guest, s.left_at is None) for s in signups}
    for t in tables:
        for seat in t.table.seats:
            if seat.player_id is not None and seat.player_id not in out:
                out[seat.player_id] = Standing(seat.player_id, seat.name, seat.guest, False)
    return out


def finished(tables: Sequence[EventTable]) -> list[EventTable]:
    ended = [t for t in tables if t.table.status == TableStatus.FINISHED and t.results]
    return sorted(ended, key=lambda t: (t.table.finished_at is None, t.table.finished_at, t.entry.round))


def _performance(s: Standing) -> None:
    if s.places:
        s.performance = 1500 + 800 * (sum(s.places) / len(s.places) - 0.5)


def _ranked(items: list[Standing], key: Any) -> list[Standing]:
    items.sort(key=lambda s: (key(s), s.name, s.player))
    for i, s in enumerate(items):
        s.rank = items[i - 1].rank if i and key(items[i - 1]) == key(s) else i + 1
    return items


def arena_standings(
    event: EventRow, signups: Sequence[SignupRow], tables: Sequence[EventTable]
) -> list[Standing]:
    lowest = load_game(event.game).lowest_score_wins
    out = _standings(signups, tables)
    for t in finished(tables):
        results = sorted(t.results, key=lambda r: r.seat)
        n = len(results)
        places, points = place_points([r.score for r in results], lowest)
        for r, place, pts in zip(results, places, points, strict=True):
            if r.player_id is None or r.player_id not in out:
                continue
            s = out[r.player_id]
            s.tables += 1
            if r.absent is not None:
                s.streak = 0
                s.places.append(0.0)
                continue
            s.points += pts * 2 if s.streak >= 2 else pts
            s.streak = s.streak + 1 if place == 1 else 0
            s.places.append((n - place) / (n - 1) if n > 1 else 1.0)
    for s in out.values():
        _performance(s)
    return _ranked(list(out.values()), lambda s: (-s.points, -s.performance))


def duplicate_results(
    tables: Sequence[EventTable], actions: Mapping[str, Sequence[tuple[int, int]]]
) -> list[DealResult]:
    """Every seat's score in every deal of the event's finished tables (``actions``: their records)."""
    out = []
    for t in finished(tables):
        absent = {r.seat for r in t.results if r.absent is not None}
        for deal, scores in enumerate(deal_scores(t, actions[t.table.id]), 1):
            for seat, score in enumerate(scores):
                row = t.table.seats[seat]
                person = row.player_id if row.kind == "person" else None
                name = row.name
                out.append(
                    DealResult(t.entry.round, deal, seat, t.table.id, person, name, score, seat in absent)
                )
    return out


def matchpoints(
    results: Sequence[DealResult], lowest_wins: bool
) -> dict[tuple[str, int, int], tuple[float, int]]:
    """Per (table, deal, hand) of a person: his matchpoints and the most he could have had."""
    groups: dict[tuple[int, int, int], list[DealResult]] = {}
    for r in results:
        groups.setdefault((r.round, r.deal, r.hand), []).append(r)
    out: dict[tuple[str, int, int], tuple[float, int]] = {}
    for group in groups.values():
        for r in group:
            if r.player is None:
                continue
            others = [o for o in group if o.table != r.table]
            mp = 0.0
            if not r.absent:
                for o in others:
                    if o.score == r.score:
                        mp += 0.5
                    elif (r.score < o.score) == lowest_wins:
                        mp += 1.0
            out[(r.table, r.deal, r.hand)] = (mp, len(others))
    return out


def duplicate_standings(
    event: EventRow,
    signups: Sequence[SignupRow],
    tables: Sequence[EventTable],
    actions: Mapping[str, Sequence[tuple[int, int]]],
) -> list[Standing]:
    lowest = load_game(event.game).lowest_score_wins
    out = _standings(signups, tables)
    results = duplicate_results(tables, actions)
    points = matchpoints(results, lowest)
    for r in results:
        if r.player is None or r.player not in out:
            continue
        mp, most = points[(r.table, r.deal, r.hand)]
        out[r.player].matchpoints += mp
        out[r.player].most += most
    for t in finished(tables):
        results_by_seat = sorted(t.results, key=lambda r: r.seat)
        n = len(results_by_seat)
        places, _ = place_points([r.score for r in results_by_seat], lowest)
        people = [r.player_id for r in results_by_seat if r.player_id is not None and r.player_id in out]
        for res, place in zip(results_by_seat, places, strict=True):
            if res.player_id is None or res.player_id not in out:
                continue
            s = out[res.player_id]
            s.tables += 1
            s.places.append(0.0 if res.absent else ((n - place) / (n - 1) if n > 1 else 1.0))
            s.mates.extend(p for p in people if p != res.player_id)
    for s in out.values():
        s.share = s.matchpoints / s.most if s.most else 0.0
        _performance(s)
    for s in out.values():
        mates = [out[m].share for m in s.mates]
        s.strength = sum(mates) / len(mates) if mates else 0.0
    return _ranked(list(out.values()), lambda s: (-s.share, -s.strength, -s.performance))
