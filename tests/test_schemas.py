"""The tests' schema validators (``tests/games/schemas.py``): the inlined schemas they check against give the
same verdicts as the schema files read through the registry, on real observations and events of every
game and on broken copies of them."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from cardhall.registry import game_classes
from cardhall.table import Table
from tests.games import schemas
from tests.helpers import playing

GAMES = {
    "hokm": "hokm(max_hands=1)",
    "kierki": "kierki(first_deal=7,last_deal=8)",
    "hearts": "hearts(players=6,max_hands=1)",
    "gin": "gin(max_hands=1)",
    "svara": "svara(players=3,max_deals=2,stack=100)",
}


def test_every_game_is_sampled() -> None:
    assert set(GAMES) == set(game_classes())


def samples(game_string: str) -> tuple[list[Any], list[Any]]:
    """Observations (every seat and a spectator, every twelfth action and at the end) and every event
    of a random match."""
    table = Table(game_string, seed=4)
    state = table.state
    seats: list[int | None] = [*range(state.game.num_players), None]
    rng = random.Random(4)
    observations: list[Any] = []
    for step in playing(table):
        if step % 12 == 0:
            observations += [state.observation(s) for s in seats]
        seat = rng.choice(state.to_act)
        table.apply(seat, rng.choice(state.legal_actions(seat)))
    observations += [state.observation(s) for s in seats]
    return observations, [e for s in seats for e in table.events(s)]


def broken(value: dict[str, Any]) -> list[dict[str, Any]]:
    """Copies of ``value`` that a complete schema must refuse: a key missing, a key unknown, a card or
    number replaced by something of another kind."""
    out = [copy.deepcopy(value) for _ in range(3)]
    out[0].pop(sorted(value)[0])
    out[1]["no_such_key"] = 1
    key = next((k for k in sorted(value) if isinstance(value[k], int | str | list)), None)
    if key is not None:
        out[2][key] = {"not": "this"}
    return out


@pytest.mark.parametrize("game", sorted(GAMES))
def test_inlined_schemas_give_the_registrys_verdicts(game: str) -> None:
    observations, events = samples(GAMES[game])
    for definition, values in (("observation", observations), ("event", events[::3])):
        fast, reference = schemas.validator(game, definition), schemas.registry_validator(game, definition)
        assert "$ref" not in json.dumps(fast.schema)
        for value in values:
            assert fast.is_valid(value) and reference.is_valid(value), value
        for value in values[:: max(1, len(values) // 15)]:
            for bad in broken(value):
                assert not fast.is_valid(bad) and not reference.is_valid(bad), bad
                assert sorted(e.message for e in fast.iter_errors(bad)) == sorted(
                    e.message for e in reference.iter_errors(bad)
                )
