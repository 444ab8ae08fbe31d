"""The server's pieces of tournaments that need no server: a match's length from ``deals`` (each game's
own option), a round's seed, and the arena's seating of a big pool in slices."""

from __future__ import annotations

import pytest

from cardhall.events.arena import Free
from cardhall.registry import game_classes, load_game
from cardhall.server.events.director import ARENA_MIN_WAIT, ARENA_SLICE, arena_slices, round_seed
from cardhall.server.events.scoring import deal_option


@pytest.mark.parametrize("name", sorted(game_classes()))
def test_every_game_is_made_deals_long_by_its_own_option(name: str) -> None:
    game = load_game(name)
    options = deal_option(game, 3)
    short = type(game)(**{**game.options, **options})
    assert short != game  # (an option the game has, set to something else than its default)
    if "last_deal" in options:
        assert short.options["last_deal"] - short.options["first_deal"] + 1 == 3
    else:
        assert list(options.values()) == [3]


def test_a_rounds_seed_is_the_same_for_its_tables_and_differs_by_round_and_event() -> None:
    assert round_seed("ev1", 1) == round_seed("ev1", 1)
    seeds = {round_seed(e, r) for e in ("ev1", "ev2") for r in (1, 2, 3)}
    assert len(seeds) == 6 and all(0 <= s < 2**63 for s in seeds)


@pytest.mark.parametrize("count", [7, ARENA_SLICE, ARENA_SLICE + 1, 301, 1000])
def test_a_big_free_pool_is_seated_in_slices_nobody_twice_one_short_table_at_most(count: int) -> None:
    free = [Free(str(i), 1500.0 + i % 97, i + 1, 0.0) for i in range(count)]
    tables = arena_slices(free, 3, ARENA_MIN_WAIT)  # (everyone waited long enough: nobody left over)
    seated = [p for t in tables for p in t]
    assert sorted(seated, key=int) == [f.player for f in free]
    assert sum(1 for t in tables if len(t) != 3) <= 1
    if count > ARENA_SLICE:  # (slices by rank: a table's people are never far apart in rank)
        assert max(max(int(p) for p in t) - min(int(p) for p in t) for t in tables) < 2 * ARENA_SLICE
