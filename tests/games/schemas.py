"""The observation and event schemas (``docs/schema/common.json`` and each game's ``schema.json``), for the
tests: validators per game, and the schema-driven reading of a bot's observation (cards and actions as ints)
back into text.

The validators check against each definition with every ``$ref`` already replaced by what it points to
(:func:`inlined`): the same schema, but validated about 2.5 times faster than through the registry,
whose reference lookups were half the time of the conformance suite's schema checks.
``tests/test_architecture.py`` holds both ways to the same verdicts."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from cardhall.cards import format_card
from cardhall.core import Game
from cardhall.registry import entries, game_file

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "docs" / "schema"
BASE = "https://cardhall.invalid/schema/"
CARD_REF = "common.json#/$defs/card"
ACTION_REF = "common.json#/$defs/action"


@cache
def documents() -> dict[str, dict[str, Any]]:
    """Every schema by file name: the shared ones of ``docs/schema`` (``common.json``) and each registered
    game's (its folder's ``schema.json``) as ``<game>.json``, the name its ``$id`` and references use."""
    found = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(SCHEMA_DIR.glob("*.json"))}
    for name in entries():
        try:
            found[f"{name}.json"] = json.loads(game_file(name, "schema.json"))
        except FileNotFoundError:
            continue  # (the architecture test names the game that has none)
    return found


@cache
def registry() -> Registry:  # type: ignore[type-arg]
    resources = [(BASE + name, Resource.from_contents(doc)) for name, doc in documents().items()]
    return Registry().with_resources(resources)


@cache
def registry_validator(game_name: str, definition: str) -> Draft202012Validator:
    """Validates against ``$defs.<definition>`` of ``<game>.json``, resolving references through the
    registry (the reference for :func:`validator`)."""
    return Draft202012Validator({"$ref": f"{BASE}{game_name}.json#/$defs/{definition}"}, registry=registry())


@cache
def validator(game_name: str, definition: str) -> Draft202012Validator:
    """Validates against ``$defs.<definition>`` (``observation`` or ``event``) of ``<game>.json``."""
    within = f"{game_name}.json"
    return Draft202012Validator(inlined(documents()[within]["$defs"][definition], within))


def inlined(node: Any, within: str, path: tuple[str, ...] = ()) -> Any:
    """``node`` (of the file ``within``) with every ``$ref`` replaced by the schema it points to; a
    ``$ref`` beside other keywords becomes an ``allOf`` beside them, as both apply."""
    if isinstance(node, list):
        return [inlined(v, within, path) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: inlined(v, within, path) for k, v in node.items() if k != "$ref"}
    if "$ref" not in node:
        return out
    canonical = _canonical(node["$ref"], within)
    if canonical in path:
        raise ValueError(f"a schema that refers to itself cannot be inlined: {' -> '.join(path)}")
    target, file = _resolve(node["$ref"], within)
    resolved = inlined(target, file, (*path, canonical))
    return {**out, "allOf": [resolved]} if out else resolved


def errors(game_name: str, definition: str, value: Any) -> list[str]:
    """The schema violations of ``value``, each with where it is."""
    found = validator(game_name, definition).iter_errors(value)
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in found]


def _resolve(ref: str, within: str) -> tuple[dict[str, Any], str]:
    """The schema ``ref`` points to (from the file ``within``), and the file it is in."""
    target, _, pointer = ref.partition("#")
    name = target or within
    node: Any = documents()[name]
    for part in pointer.strip("/").split("/"):
        if part:
            node = node[part]
    return node, name


def _canonical(ref: str, within: str) -> str:
    target, _, pointer = ref.partition("#")
    return f"{target or within}#{pointer}"


def to_text(game: Game, value: Any, schema: dict[str, Any] | None = None, within: str = "") -> Any:
    """``value`` in bot form (cards and actions as ints) turned into text where the schema of the
    game's observation says a card or an action stands."""
    if schema is None:
        within = f"{game.name}.json"
        schema = documents()[within]["$defs"]["observation"]
    if "$ref" in schema:
        canonical = _canonical(schema["$ref"], within)
        if canonical == CARD_REF:
            return format_card(value) if isinstance(value, int) and not isinstance(value, bool) else value
        if canonical == ACTION_REF:
            ok = isinstance(value, int) and not isinstance(value, bool)
            return game.action_label(value) if ok else value
        target, file = _resolve(schema["$ref"], within)
        return to_text(game, value, target, file)
    for key in ("oneOf", "anyOf"):
        if key in schema and value is not None:
            options = [s for s in schema[key] if s.get("type") != "null"]
            if len(options) == 1:
                return to_text(game, value, options[0], within)
            return value
    if isinstance(value, dict):
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        out = {}
        for k, v in value.items():
            sub = props.get(k, extra if isinstance(extra, dict) else {})
            out[k] = to_text(game, v, sub, within)
        return out
    if isinstance(value, list):
        prefix = schema.get("prefixItems", [])
        items = schema.get("items", {})
        rest = items if isinstance(items, dict) else {}
        return [to_text(game, v, prefix[i] if i < len(prefix) else rest, within) for i, v in enumerate(value)]
    return value


def undocumented(schema: Any, where: str = "") -> list[str]:
    """Places in a schema file where an object's property has no description, an object admits keys
    it does not list, or does not require every key it lists (observations and events are complete)."""
    out: list[str] = []
    if isinstance(schema, dict):
        props = schema.get("properties")
        if isinstance(props, dict):
            for name, sub in props.items():
                if not (isinstance(sub, dict) and sub.get("description")):
                    out.append(f"{where}/properties/{name}: no description")
            if schema.get("additionalProperties") is not False:
                out.append(f"{where}: additionalProperties must be false")
            optional = set(props) - set(schema.get("required", []))
            optional -= set(schema.get("x-optional", []))
            if optional:
                out.append(f"{where}: not required: {sorted(optional)} (list deliberate ones in x-optional)")
        for key, sub in schema.items():
            out += undocumented(sub, f"{where}/{key}")
    elif isinstance(schema, list):
        for i, sub in enumerate(schema):
            out += undocumented(sub, f"{where}/{i}")
    return out
