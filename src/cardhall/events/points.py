"""Points per place at an arena table, and the streak that doubles them.

Choices:

- **Per place**: at a table of ``n`` seats, place ``k`` (1 = best) earns ``n - k`` points: 3 seats
  2/1/0, 4 seats 3/2/1/0 (Board Game Arena's per-place points, with the step of lichess's win 2 /
  draw 1 / loss 0 at two seats). Bots' seats take places like anyone's: beating a bot is beating a
  seat.
- **Ties share**: seats on one place share the points of the places they cover, the average rounded
  down (two first of three: (2 + 1) // 2 = 1 each, the third 0), so a tie never earns more in all
  than the places it covers.
- **The streak** (lichess's arena): after two tables in a row won alone (first, nobody beside him), a
  person's next tables earn double until one is not won alone; that table is still doubled (it was
  played on the streak) and ends it. A shared first, and a table a stand-in mostly played (which earns
  nothing), break the streak as any other place does.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardhall.events.model import EventInputError

STREAK_LENGTH = 2  # tables won alone in a row before points double
STREAK_FACTOR = 2


def places(scores: Sequence[float], lowest_wins: bool = False) -> list[int]:
    """Each seat's place from the match's final scores, 1 = best, ties sharing the better place and
    the next place skipped (competition ranking: 10, 10, 5 -> 1, 1, 3)."""
    sign = 1 if lowest_wins else -1
    return [1 + sum(1 for other in scores if sign * other < sign * s) for s in scores]


def place_points(places: Sequence[int], seats: int) -> list[int]:
    """Each seat's points for its place (``places[i]`` of seat i, 1 = best; equal places tie, whether
    ranked 1, 1, 3 or 1, 1, 2): place k of ``seats`` earns ``seats - k``, tied seats share the places
    they cover, the average rounded down. Raises :class:`EventInputError` when ``places`` is not one per
    seat or a place is below 1."""
    if len(places) != seats:
        raise EventInputError(f"{len(places)} places for a table of {seats} seats")
    if any(p < 1 for p in places):
        raise EventInputError(f"places start at 1: {list(places)}")
    order = sorted(set(places))
    points = {}
    covered = 0  # places taken by the better groups
    for place in order:
        group = sum(1 for p in places if p == place)
        earned = sum(seats - k for k in range(covered + 1, covered + group + 1))
        points[place] = earned // group
        covered += group
    return [points[p] for p in places]


def won_alone(places: Sequence[int], seat: int) -> bool:
    """Whether ``seat`` is first at its table with nobody on its place."""
    return places[seat] == 1 and sum(1 for p in places if p == 1) == 1


def streak_bonus(history: Sequence[bool]) -> int:
    """The factor of a person's next table's points, from his tables so far in the order they ended
    (True: won alone and counted; False: anything else): 2 when the last two were won alone, else 1."""
    last = history[-STREAK_LENGTH:]
    return STREAK_FACTOR if len(last) == STREAK_LENGTH and all(last) else 1


def streak_points(results: Sequence[tuple[int, bool]]) -> list[int]:
    """A person's points table by table, from ``(place points, won alone)`` in the order his tables
    ended, with the streak's doubling applied (:func:`streak_bonus` of the tables before each)."""
    out = []
    history: list[bool] = []
    for points, first in results:
        out.append(points * streak_bonus(history))
        history.append(first)
    return out
