"""Encoders from a seat's observation to a fixed-size array, one module per game
(``cardhall.rl.encoders.<game>``, its layout tabled in its docstring and in ``docs/rl.md``)."""

from __future__ import annotations

import importlib

from cardhall.core import Game
from cardhall.errors import InvalidOptionError
from cardhall.rl.encoders.base import Encoder, Field


def make_encoder(game: Game) -> Encoder:
    """The encoder of ``game`` (a game without an encoder module is refused by name)."""
    try:
        module = importlib.import_module(f"cardhall.rl.encoders.{game.name}")
    except ModuleNotFoundError:
        raise InvalidOptionError(f"{game}: no RL encoder for the game {game.name!r}") from None
    encoder: Encoder = module.ENCODER(game)
    return encoder


__all__ = ["Encoder", "Field", "make_encoder"]
