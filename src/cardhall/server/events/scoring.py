"""An event's standings from its stored rows, through the pure formats of :mod:`cardhall.events`: the
event, its sign-ups and its tables with their results (and, for duplicate, the finished tables' records
replayed deal by deal) become the core's entrants, table results and hand results.

Choices (the formats' own are :mod:`cardhall.events`' and ``docs/tournaments.md``'s):

- **A pure function of the stored records**: every entrant counts at the core's
  :data:`~cardhall.events.model.BOT_RATING` for the standings (a performance), never at his rating of
  today, which moves: the same rows give the same standings after any restart, today or next year.
  Ratings seat people (:mod:`cardhall.server.events.director`), they never rank them.
- **A hand is a seat**: every table of a duplicate round deals the same cards to the same seats (one
  seed), so the holders of a hand held it from the same position (its lead, its dealer), which is what
  makes their scores comparable in a trick-taking game; the rotation moves the people over the seats
  instead (the director's). ``hand`` of a :class:`~cardhall.events.model.HandResult` is the seat.
- **A deal's score** is the change of the seat's match score over the deal, read by replaying the
  record (each finished table's once: its record never changes).
- **Absent** (a stand-in mostly played his match: the result's ``absent``): the core gives it nothing.
- **Only the event's deals are compared**: a match whose game plays on past its length to break a
  tie (Hokm's ``max_hands``: another hand while two lead together) records a deal the other tables of
  the round did not play; matchpoints are made on the event's ``deals`` only, which every finished
  table played, so each hand is compared with every table's holder of it on the same cards. The
  extra deal still decides that match's result and its ratings, as at any table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardhall.core import Game
from cardhall.errors import InvalidOptionError
from cardhall.events.model import Entrant, HandResult, Standing, TableResult, TableSeat
from cardhall.events.standings import ArenaTally, duplicate_standings
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


def event_deals(event: EventRow) -> int | None:
    """The deals a match of the event plays (None: an event stored without them: every deal counts)."""
    deals = event.options.get("deals")
    return deals if isinstance(deals, int) else None


@dataclass
class Line:
    """A standing as the routes and frames show it: the core's, with the person's name."""

    standing: Standing
    name: str
    guest: bool
    present: bool

    @property
    def player(self) -> int:
        return int(self.standing.player)

    def entry(self) -> dict[str, Any]:
        s = self.standing
        return {
            "player": int(s.player),
            "name": self.name,
            "guest": self.guest,
            "rank": s.rank,
            "points": s.points,
            "matchpoints": s.matchpoints,
            "share": round(s.share, 4),
            "strength": round(s.strength, 4),
            "performance": round(s.performance, 1),
            "tables": s.tables,
            "firsts": s.firsts,
            "streak": s.streak,
            "present": self.present,
        }


def finished(tables: Sequence[EventTable]) -> list[EventTable]:
    """The tables whose match finished with results, in the order they ended."""
    ended = [t for t in tables if _counts(t)]
    return sorted(ended, key=lambda t: (t.table.finished_at is None, t.table.finished_at, t.entry.round))


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


def hand_results(
    tables: Sequence[EventTable], actions: dict[str, list[tuple[int, int]]], deals: int | None = None
) -> list[HandResult]:
    """Every seat's score in every deal of the event's finished tables (``actions``: their records),
    the first ``deals`` only (the event's: a deal a table played beyond them, a game's tie-break hand,
    is no deal of the event's)."""
    out = []
    for t in finished(tables):
        absent = {r.seat for r in t.results if r.absent is not None}
        for deal, scores in enumerate(deal_scores(t, actions[t.table.id])[:deals], 1):
            for seat, score in enumerate(scores):
                row = t.table.seats[seat]
                bot = row.player_id is None
                player = f"bot:{t.table.id}:{seat}" if bot else str(row.player_id)
                out.append(
                    HandResult(player, deal, seat, score, bot, t.table.id, t.entry.round, seat in absent)
                )
    return out


def table_result(t: EventTable, lowest_wins: bool) -> TableResult:
    """A finished arena table's result as the core reads it (a bot's seat: no player)."""
    return TableResult(
        t.table.id,
        tuple(
            TableSeat(
                None if t.table.seats[r.seat].player_id is None else str(r.player_id),
                r.score,
                r.absent is not None,
            )
            for r in sorted(t.results, key=lambda r: r.seat)
        ),
        ended=t.table.finished_at.timestamp() if t.table.finished_at else 0.0,
        index=t.entry.index,
        lowest_wins=lowest_wins,
    )


def _counts(t: EventTable) -> bool:
    return t.table.status == TableStatus.FINISHED and bool(t.results)


class ArenaBoard:
    """An arena's standings as its director keeps them between steps: every table it reads goes
    through :meth:`note` (open ones for the names of their people, finished ones counted once by the
    core's :class:`~cardhall.events.standings.ArenaTally`), and :meth:`lines` are then the standings
    :func:`standings` computes from all the event's rows, without reading or adding them again.
    Built from the store's rows on every director's first step, so a restart computes the same."""

    def __init__(self, event: EventRow) -> None:
        self.lowest_wins = load_game(event.game).lowest_score_wins
        self.tally = ArenaTally()
        self._seated: dict[str, tuple[str, bool]] = {}  # person -> name, guest (from his tables' seats)

    def note(self, t: EventTable) -> bool:
        """Take a table read from the store; whether it was counted now (it finished, first seen so)."""
        for seat in t.table.seats:
            if seat.player_id is not None:
                self._seated.setdefault(str(seat.player_id), (seat.name, seat.guest))
        return _counts(t) and self.tally.add(table_result(t, self.lowest_wins))

    def lines(self, signups: Sequence[SignupRow]) -> list[Line]:
        who = {str(s.player_id): (s.name, s.guest, s.left_at is None) for s in signups}
        for p, (name, guest) in self._seated.items():
            who.setdefault(p, (name, guest, False))
        return _lines(self.tally.standings([Entrant(p) for p in who]), who)


def _entrants(
    signups: Sequence[SignupRow], tables: Sequence[EventTable]
) -> tuple[list[Entrant], dict[str, tuple[str, bool, bool]]]:
    who = {str(s.player_id): (s.name, s.guest, s.left_at is None) for s in signups}
    for t in tables:
        for seat in t.table.seats:
            if seat.player_id is not None and str(seat.player_id) not in who:
                who[str(seat.player_id)] = (seat.name, seat.guest, False)
    return [Entrant(p) for p in who], who


def _lines(standings: list[Standing], who: dict[str, tuple[str, bool, bool]]) -> list[Line]:
    return [Line(s, *who.get(s.player, ("", True, False))) for s in standings]


def standings(
    event: EventRow,
    signups: Sequence[SignupRow],
    tables: Sequence[EventTable],
    actions: dict[str, list[tuple[int, int]]] | None = None,
) -> list[Line]:
    """The event's standings, best first (``actions``: the finished tables' records, for duplicate)."""
    lowest = load_game(event.game).lowest_score_wins
    entrants, who = _entrants(signups, tables)
    if event.kind == "arena":
        board = ArenaBoard(event)
        for t in tables:
            board.note(t)
        return board.lines(signups)
    hands = hand_results(tables, actions or {}, event_deals(event))
    return _lines(duplicate_standings(entrants, hands, lowest_wins=lowest), who)
