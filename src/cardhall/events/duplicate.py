"""Duplicate Swiss: every table of a round plays the same deals with the hands rotated, each person's
result in each deal is compared with everyone who held the same hand of the same deal at the other
tables (matchpoints), and later rounds are seated by the standings.

Choices:

- **The rotation**: at table ``t`` of a round (its index, 0 first) of ``n`` seats, the hand the round's
  deal gives to seat ``s`` is held by the person at seat ``(s + t) mod n`` (:func:`hand_holder`; its
  inverse :func:`held_hand`), so the same cards are held from different seats at different tables.
  The server makes the table deal that way; the scoring only needs to know who held which hand.
- **Matchpoints** (Trickster's duplicate scoring, for every seat of three- to eleven-seat games, not only
  fixed partnerships): in each deal, each holder of a hand scores 1 for every other holder of the same
  hand (at any table of the round) whom he beat, 1/2 for each he tied, 0 for each who beat him;
  higher scores beat lower ones (lower ones in penalty-point games: ``lowest_wins``). Bots are compared
  against (beating a bot that held the same cards earns the point) and are never scored. A person
  whose match a stand-in mostly played (``absent``) gets 0 for those deals, and still counts as the
  stand-in's score for the others. What he could have made (the number of other holders) counts in
  his share either way.
- **Seating**: round 1 by rating (highest first), later rounds by the standings (``rank``, then
  rating), leaders together as Board Game Arena's multiplayer Swiss: tables of ``seats`` cut in that
  order, the remainder at the last table with bots; then, unlike Board Game Arena, a cost for meeting
  again: the seating is a minimum-cost partition (:mod:`cardhall.events.partition`) with a pair's
  cost ``1000 x gap of places in that order + 8,000,000 if they met before`` and the bots counted
  as placed below everyone (so the short table is the last, as far as repeats allow).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from cardhall.events.model import Entrant, EventInputError, HandResult, check_seating
from cardhall.events.partition import REPEAT, partition

PLACE_WEIGHT = 1000  # the cost of one place of the order between two people at one table
BOTS_TOGETHER = -1e15  # a pair of the seating's bots: they all fill the one short table


def hand_holder(table_index: int, seat: int, seats: int) -> int:
    """The seat of the person holding the hand the round's deal gives to ``seat``, at table
    ``table_index`` of the round: ``(seat + table_index) mod seats``."""
    if not 0 <= seat < seats:
        raise EventInputError(f"seat {seat} of a table of {seats} seats")
    return (seat + table_index) % seats


def held_hand(table_index: int, seat: int, seats: int) -> int:
    """The hand (the seat the round's deal gives it to) held by the person at ``seat`` of table
    ``table_index``: the inverse of :func:`hand_holder`."""
    if not 0 <= seat < seats:
        raise EventInputError(f"seat {seat} of a table of {seats} seats")
    return (seat - table_index) % seats


def scored_hands(
    results: Sequence[HandResult], *, lowest_wins: bool = False
) -> list[tuple[HandResult, float, int]]:
    """Each result with the matchpoints it earned and the number of others it was compared with (what
    it could have earned), in the order given (the module's docstring: bots' and absent people's
    results earn 0 but are compared against)."""
    groups: dict[tuple[int, int, int], list[HandResult]] = defaultdict(list)
    for r in results:
        groups[(r.round, r.deal, r.hand)].append(r)
    sign = -1 if lowest_wins else 1
    out = []
    for r in results:
        others = groups[(r.round, r.deal, r.hand)]
        earned = 0.0
        if not (r.is_bot or r.absent):
            mine = sign * r.score
            for o in others:
                if o is r:
                    continue
                theirs = sign * o.score
                earned += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        out.append((r, earned, len(others) - 1))
    return out


def matchpoints(results: Sequence[HandResult], *, lowest_wins: bool = False) -> dict[str, float]:
    """Each person's matchpoints summed over ``results`` (bots have none and are not keys; a person
    with results has a key even at 0)."""
    total: dict[str, float] = {}
    for r, earned, _ in scored_hands(results, lowest_wins=lowest_wins):
        if not r.is_bot:
            total[r.player] = total.get(r.player, 0.0) + earned
    return total


def swiss_order(standings: Sequence[Entrant], round: int) -> list[Entrant]:
    """The people in the round's order: round 1 by rating (highest first), later by ``rank`` then
    rating; ties by player."""
    if round <= 1:
        return sorted(standings, key=lambda e: (-e.rating, e.player))
    return sorted(standings, key=lambda e: (e.rank, -e.rating, e.player))


def swiss_seating(
    standings: Sequence[Entrant], seats: int, met: Mapping[str, frozenset[str]], round: int
) -> list[tuple[str, ...]]:
    """The round's tables (the module's docstring): tuples of players, tables of ``seats`` and at most
    one shorter table (``seats - len`` bots fill it), leaders first. ``met`` maps a person to the people
    he met in earlier rounds (either side's entry counts). Raises :class:`EventInputError` for
    ``seats`` below 2 or a person listed twice."""
    check_seating([e.player for e in standings], seats, "a duplicate table", "entrants")
    if not standings:
        return []
    people = [e.player for e in swiss_order(standings, round)]
    bots = -len(people) % seats
    n = len(people) + bots
    empty: frozenset[str] = frozenset()
    cost = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if j >= len(people):
                c = BOTS_TOGETHER if i >= len(people) else PLACE_WEIGHT * (len(people) - i)
            else:
                a, b = people[i], people[j]
                c = PLACE_WEIGHT * (j - i)
                if b in met.get(a, empty) or a in met.get(b, empty):
                    c += REPEAT
            cost[i][j] = cost[j][i] = c
    tables = partition(cost, seats)
    seated = [tuple(people[i] for i in sorted(t) if i < len(people)) for t in tables]
    return sorted(seated, key=lambda t: people.index(t[0]))
