"""A table's own settings (beside its game string) and the bot levels people choose from (the levels
themselves are the bots layer's :data:`cardhall.bots.BOT_LEVELS`).

Settings use the game-string syntax and checks of :mod:`cardhall.options`: an unknown setting or a bad
value is refused with a message naming it, never replaced by a default.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from cardhall.bots import BOT_LEVELS as BOT_LEVELS  # re-exported: the lobby offers them
from cardhall.errors import InvalidOptionError
from cardhall.options import Option, OptionValue, resolve_options

TABLE_SETTINGS: Final = (
    Option(
        "turn_seconds",
        60,
        "seconds a person has for a move before a bot plays it for him (0: no limit)",
        None,
        0,
        3600,
    ),
    Option(
        "away_seconds",
        20,
        "seconds after a person's connection drops before a bot plays for him",
        None,
        0,
        3600,
    ),
    Option("bot_pace_ms", 700, "how long a bot waits before it plays, so people can follow", None, 0, 10_000),
    Option("stand_in", "rules", "the bot that plays for a person who is away", ("random", "rules")),
    Option("hints", False, "a person may ask the search for a move on his turn; the table is not rated"),
)


def gives_hints(settings: Mapping[str, object]) -> bool:
    """Whether a table's people may ask for hints (then its matches are never rated)."""
    return settings.get("hints") is True


def table_settings(raw: Mapping[str, object] | None) -> dict[str, OptionValue]:
    """The settings of a new table: ``raw`` checked, the others at their defaults."""
    if raw is not None and not isinstance(raw, Mapping):
        raise InvalidOptionError(f"table settings must be an object, got {raw!r}")
    return resolve_options("table", TABLE_SETTINGS, dict(raw or {}))


def bot_for_level(level: object) -> str:
    if not isinstance(level, str) or level not in BOT_LEVELS:
        raise InvalidOptionError(f"bot level must be one of {', '.join(BOT_LEVELS)}, got {level!r}")
    return BOT_LEVELS[level]
