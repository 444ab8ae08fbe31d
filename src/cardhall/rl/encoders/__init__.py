"""Encoders from a seat's observation to a fixed-size array, one module per game (the ``encoder``
piece of the game's registration, ``cardhall.rl.encoders.<game>``; its layout tabled in its docstring
and in ``docs/rl.md``)."""

from __future__ import annotations

from cardhall.core import Game
from cardhall.errors import InvalidOptionError
from cardhall.registry import piece
from cardhall.rl.encoders.base import Encoder, Field


def make_encoder(game: Game) -> Encoder:
    """The encoder of ``game`` (a game whose registration names no encoder module is refused by name)."""
    try:
        module = piece(game.name, "encoder")
    except InvalidOptionError:
        raise InvalidOptionError(f"{game}: no RL encoder for the game {game.name!r}") from None
    encoder: Encoder = module.ENCODER(game)
    return encoder


__all__ = ["Encoder", "Field", "make_encoder"]
