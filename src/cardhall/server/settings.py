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
    Option(
        "chat",
        "everyone",
        "who may talk at the table: everyone there (spectators too), its seated people, or people with "
        "an account (a private table's default: seated)",
        ("everyone", "seated", "accounts"),
    ),
)
# A private table's chat is its seated people's unless its maker says otherwise (issue 47: a person
# blocked made a fresh guest, opened the blocker's private table by its link, watched and talked).
PRIVATE_DEFAULTS: Final = {"chat": "seated"}


def gives_hints(settings: Mapping[str, object]) -> bool:
    """Whether a table's people may ask for hints (then its matches are never rated)."""
    return settings.get("hints") is True


def table_settings(raw: Mapping[str, object] | None, private: bool = False) -> dict[str, OptionValue]:
    """The settings of a new table: ``raw`` checked, the others at their defaults (a ``private``
    table's: :data:`PRIVATE_DEFAULTS` first)."""
    if raw is not None and not isinstance(raw, Mapping):
        raise InvalidOptionError(f"table settings must be an object, got {raw!r}")
    given = {**(PRIVATE_DEFAULTS if private else {}), **dict(raw or {})}
    return resolve_options("table", TABLE_SETTINGS, given)


def who_may_chat(settings: Mapping[str, object]) -> str:
    """``everyone``, ``seated`` or ``accounts`` (a table stored before the setting: everyone)."""
    value = settings.get("chat", "everyone")
    return value if isinstance(value, str) else "everyone"


def bot_for_level(level: object) -> str:
    if not isinstance(level, str) or level not in BOT_LEVELS:
        raise InvalidOptionError(f"bot level must be one of {', '.join(BOT_LEVELS)}, got {level!r}")
    return BOT_LEVELS[level]
