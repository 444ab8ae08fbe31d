"""The Game API refuses a seat that is not at the table: ``legal_actions`` and ``observation`` raise
InvalidOptionError naming the seats, rather than answer ``[]`` or (through a negative index) another
seat's view; the unchecked fast path and the seats that are at the table answer as before."""

from __future__ import annotations

import re

import pytest

import cardhall
from cardhall.errors import InvalidOptionError
from cardhall.registry import game_classes

GAMES = sorted(game_classes())


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seat", [9, -1, 100, "0", True, 1.0])
def test_a_seat_not_at_the_table_is_refused(name: str, seat: object) -> None:
    game = cardhall.load_game(name)
    state = game.new_game(seed=1)
    message = rf"^{name}.*: seat must be 0\.\.{game.num_players - 1}, got {re.escape(repr(seat))}$"
    with pytest.raises(InvalidOptionError, match=message):
        state.legal_actions(seat)
    with pytest.raises(InvalidOptionError, match=message):
        state.observation(seat)


def test_legal_actions_9_on_a_three_seat_game() -> None:
    state = cardhall.load_game("hokm").new_game(seed=1)
    assert state.game.num_players == 3
    with pytest.raises(InvalidOptionError, match=r"hokm: seat must be 0\.\.2, got 9"):
        state.legal_actions(9)


@pytest.mark.parametrize("name", GAMES)
def test_every_seat_at_the_table_still_answers(name: str) -> None:
    state = cardhall.load_game(name).new_game(seed=2)
    for seat in range(state.game.num_players):
        legal = state.legal_actions(seat)
        assert legal == state.legal_actions_unchecked(seat)
        assert bool(legal) == (seat in state.to_act)
        assert state.observation(seat)["seat"] == seat
    assert state.observation(None)["seat"] is None
