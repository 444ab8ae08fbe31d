"""Game strings with options: ``name`` or ``name(key=value, ...)``.

The same syntax names bots (``search(ms=500)``). Every option is declared with its default and the values
it accepts; an unknown option or a bad value raises :class:`InvalidOptionError` naming the game, the input
and the reason. Nothing is ever silently replaced by a default.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cardhall.errors import InvalidOptionError

OptionValue = int | str | bool

_SPEC_RE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_\-]*)\s*(?:\((.*)\))?\s*$", re.S)
_KEY_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class Option:
    """One option of a game (or bot): its default and the values it accepts."""

    name: str
    default: OptionValue
    help: str
    choices: tuple[OptionValue, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def describe(self) -> str:
        if self.choices is not None:
            allowed = "|".join(format_value(c) for c in self.choices)
        elif isinstance(self.default, bool):
            allowed = "true|false"
        elif isinstance(self.default, int):
            lo = "" if self.minimum is None else str(self.minimum)
            hi = "" if self.maximum is None else str(self.maximum)
            allowed = f"int {lo}..{hi}" if (lo or hi) else "int"
        else:
            allowed = "text"
        return allowed

    def convert(self, owner: str, value: object) -> OptionValue:
        """Check (and convert from text) a value for this option."""
        kind = type(self.default)
        converted: OptionValue
        if isinstance(value, str):
            text = value.strip()
            if kind is bool:
                lowered = text.lower()
                if lowered not in ("true", "false", "1", "0", "yes", "no"):
                    raise self._error(owner, value, "expected true or false")
                converted = lowered in ("true", "1", "yes")
            elif kind is int:
                try:
                    converted = int(text)
                except ValueError:
                    raise self._error(owner, value, "expected a whole number") from None
            else:
                converted = text
        elif isinstance(value, bool):
            if kind is not bool:
                raise self._error(owner, value, f"expected {self.describe()}")
            converted = value
        elif isinstance(value, int):
            if kind is not int:
                raise self._error(owner, value, f"expected {self.describe()}")
            converted = value
        else:
            raise self._error(owner, value, f"expected {self.describe()}")
        if self.choices is not None and converted not in self.choices:
            raise self._error(owner, value, f"allowed values are {self.describe()}")
        if isinstance(converted, int) and not isinstance(converted, bool):
            if self.minimum is not None and converted < self.minimum:
                raise self._error(owner, value, f"must be at least {self.minimum}")
            if self.maximum is not None and converted > self.maximum:
                raise self._error(owner, value, f"must be at most {self.maximum}")
        return converted

    def _error(self, owner: str, value: object, why: str) -> InvalidOptionError:
        return InvalidOptionError(f"{owner}: bad value {value!r} for option {self.name!r}: {why}")


def format_value(value: OptionValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse_spec(text: str, what: str = "game") -> tuple[str, dict[str, str]]:
    """Split ``"name(a=1,b=x)"`` into ``("name", {"a": "1", "b": "x"})``; values stay text."""
    if not isinstance(text, str):
        raise InvalidOptionError(f"{what} string must be text, got {text!r}")
    match = _SPEC_RE.match(text)
    if not match:
        raise InvalidOptionError(f"cannot read {what} string {text!r}: expected name or name(key=value, ...)")
    name, body = match.group(1).lower(), match.group(2)
    raw: dict[str, str] = {}
    if body is not None and body.strip():
        for part in body.split(","):
            if "=" not in part:
                raise InvalidOptionError(
                    f"{name}: cannot read option {part.strip()!r} in {text!r}: expected key=value"
                )
            key, value = (s.strip() for s in part.split("=", 1))
            if not _KEY_RE.match(key):
                raise InvalidOptionError(f"{name}: bad option name {key!r} in {text!r}")
            if key in raw:
                raise InvalidOptionError(f"{name}: option {key!r} given twice in {text!r}")
            raw[key] = value
    return name, raw


def resolve_options(
    owner: str, spec: Sequence[Option], given: Mapping[str, object]
) -> dict[str, OptionValue]:
    """All options of ``spec``, with ``given`` values checked and defaults for the rest."""
    by_name = {o.name: o for o in spec}
    for key in given:
        if key not in by_name:
            known = ", ".join(by_name) or "none"
            raise InvalidOptionError(f"{owner}: unknown option {key!r} (options: {known})")
    return {o.name: o.convert(owner, given[o.name]) if o.name in given else o.default for o in spec}


def format_spec(name: str, spec: Sequence[Option], values: Mapping[str, OptionValue]) -> str:
    """The canonical string: the name, then the options that differ from their defaults."""
    changed = [f"{o.name}={format_value(values[o.name])}" for o in spec if values[o.name] != o.default]
    return f"{name}({','.join(changed)})" if changed else name
