"""``rules``: one sensible rule-based player per game, chosen by the game's name.

A game's rule-based player lives in the module its registration names as its ``rules_bot`` piece
(:class:`cardhall.games.GameEntry`; ``cardhall.bots.rules_<game name>`` for every game here), named there
by a module attribute ``RULES_BOT``; the registry finds it by the game's name, so a new game's bot needs
no edit here. A game without one is refused with a clear error.

The same module holds what the search bot knows of the game, both optional:

- ``search_candidates(game, observation, legal) -> list[int]``: the legal actions worth comparing (a
  short, representative list where many are near-equal; one action: play it without searching);
  default: every legal action.
- ``make_sampler(game) -> Callable[[Observation, Random], State]``: how one search bot draws the states
  it searches from an observation (an opponent model; it may keep what it learns of one observation for
  the next draws); default: ``game.sample_state``.

and, required, ``review_thresholds(game) -> tuple[float, float, float]``: what a decision's loss means
in the game's points, for :mod:`cardhall.review` (the inaccuracy, mistake and blunder thresholds).

How much a search pays at each kind of decision (the observation's ``phase``) is the game's data, its
entry's ``decision_weights`` (:class:`cardhall.games.GameEntry`), for the bot tier's scheduler
(:mod:`cardhall.bot_tier.schedule`): under load it grants the heavier decisions their full think first
and cuts the lighter ones to the rules move first. Only the order matters; :data:`NEUTRAL_WEIGHT` where
nothing measured says one kind of decision gains more from a search than another. Read through
:func:`decision_weight`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import ModuleType

from cardhall.bots.base import NEUTRAL_WEIGHT as NEUTRAL_WEIGHT  # (re-exported: the weights are read here)
from cardhall.bots.base import BaseBot
from cardhall.core import Game
from cardhall.errors import InvalidOptionError
from cardhall.options import parse_spec
from cardhall.registry import entries, piece

RULES_MODULES: dict[str, ModuleType] = {}


def _discover() -> dict[str, ModuleType]:
    if not RULES_MODULES:
        for name in entries():
            try:
                RULES_MODULES[name] = piece(name, "rules_bot")
            except InvalidOptionError:
                continue  # refused by name when asked for (the architecture test requires one)
    return RULES_MODULES


def rules_games() -> list[str]:
    """The games that have a rules player, by name."""
    return sorted(_discover())


class RulesBot(BaseBot):
    """Stands for the game's own rules bot in ``BOTS``; :func:`rules_bot_class` picks it."""

    name = "rules"


def rules_module(game: Game) -> ModuleType:
    """The module of ``game``'s rules player (and of its search knowledge)."""
    module = _discover().get(game.name)
    if module is None:
        have = ", ".join(rules_games()) or "none"
        raise InvalidOptionError(f"bot 'rules' has no player for {game.name} yet (rules bots for: {have})")
    return module


def rules_bot_class(game: Game) -> type[BaseBot]:
    cls: type[BaseBot] = rules_module(game).RULES_BOT
    return cls


def decision_weights(game: Game | str) -> Mapping[str, int]:
    """The game's weight for each kind of decision (its entry's ``decision_weights``, by phase); empty
    where it names none (every decision then weighs :data:`NEUTRAL_WEIGHT`)."""
    return _weights(game if isinstance(game, str) else game.name)


@functools.lru_cache(maxsize=256)  # (the bot tier asks at every search move, of a few game strings)
def _weights(game: str) -> Mapping[str, int]:
    name = parse_spec(game, "game")[0]
    return entries()[name].decision_weights if name in entries() else {}


def decision_weight(game: Game | str, observation: Mapping[str, object]) -> int:
    """How much a search pays at this decision (a game string or game, and the deciding seat's
    observation): its phase's weight, :data:`NEUTRAL_WEIGHT` for a phase or game the rules module
    the game gives none (the tests require one for every phase a decision is made in)."""
    phase = observation.get("phase")
    weights = decision_weights(game)
    return weights.get(phase, NEUTRAL_WEIGHT) if isinstance(phase, str) else NEUTRAL_WEIGHT
