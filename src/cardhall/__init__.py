"""cardhall: five traditional card games behind one Game API.

>>> import cardhall
>>> game = cardhall.load_game("hokm(target=300)")
>>> state = game.new_game(seed=7)
>>> seat = state.to_act[0]
>>> state.apply(seat, state.legal_actions(seat)[0])
"""

# ruff: noqa: E402 - the guard must run before the first compiled module is imported
from cardhall.engine_build import check_compiled

check_compiled()  # before any compiled module loads: refuse a build older than its source

from cardhall.cards import format_card, parse_card
from cardhall.core import Game, Observation, Record, State
from cardhall.errors import (
    CardhallError,
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    InvalidOptionError,
    InvalidRecordError,
)
from cardhall.records import replay
from cardhall.registry import game_classes, load_game

__all__ = [
    "CardhallError",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidCardError",
    "InvalidOptionError",
    "InvalidRecordError",
    "Observation",
    "Record",
    "State",
    "format_card",
    "game_classes",
    "load_game",
    "make_bot",
    "parse_card",
    "replay",
]


def make_bot(spec: str, game: Game | str):  # type: ignore[no-untyped-def]
    """The bot a bot string names (``random``, ``rules``, ``search(ms=500)``) for ``game``."""
    from cardhall.bots import make_bot as _make_bot

    return _make_bot(spec, load_game(game))
