"""The project's own rules texts of every game, in English and Bengali, and a one-sentence hint per phase.

``rules_text(game, lang)`` is the rules of a game as Markdown; ``phase_hint(game, phase, lang)`` says in one
sentence what is decided in a phase (the observation's ``phase``); ``deal_hint(game, deal_name, lang)`` gives
the rule of one of Kierki's named deals (the observation's ``deal_name``). ``game`` is a game name or a whole
game string (``hearts(players=8)``: its name part counts). Unknown games, languages, phases and deal names
raise :class:`~cardhall.errors.InvalidOptionError` naming the input and the choices.

``option_text(owner, lang)`` names and explains every option of a game (``owner`` a game name) or every
table setting (``owner`` "table") in a language: per option its ``title``, its ``help`` and, for options
whose values are words, ``values`` (value -> its words); the lobby's controls are built from them
(``GET /api/games``). Unlike the rules texts these are interface texts: Bengali ones write numbers in
Bengali digits, as the rest of the browser's interface does, and name option values by their words
(the values themselves, ``auction``, are what a game string carries).

The texts of a game are files of its folder (``games/<game>/``): ``rulebook.<lang>.md``,
``hints.<lang>.json`` and ``options.<lang>.json``; the table's settings' words, which belong to no game,
are ``options.<lang>.json`` beside this module. They are
written in the project's own words from the rules of record, and where the engine made a rule choice (each
game module's docstring) they follow the engine. Each text ends with a section naming every option of the
game and the rule it changes.

The Markdown is a small subset, so that the terminal and the browser render it without a library. A text is
blocks separated by one blank line, and each block is one of:

- a heading: one line starting ``#``, ``##`` or ``###`` and a space;
- a paragraph: one line of text (never wrapped);
- a list: one or more lines, each starting ``- `` (one line per item).

Inside a line only ``**bold**`` is marked up; nothing else (no links, code, tables or numbered lists).

Bengali texts are faithful translations of the English ones: the same blocks in the same order (headings
of the same levels, paragraphs, lists of as many items) and the same numbers in each block. Decision: numbers
are written with Latin digits in Bengali too, as in our users' own Bengali rules documents; the digits a
player reads on a card (10♥), on the scores and types in options (target=500) are then the same everywhere,
and a rank and a number of points never look different in one sentence. Card names, ranks and option names
and values stay in Latin letters, since people type them; card names are written as a person writes them,
rank then suit symbol (Q♠, 10♥).

Option names and values are written in bold, by their code (``**max_deals**``, ``**svara_join**:
**anyone**``), which is what the command line shows and what a game string carries; the browser's rules page
puts in their place the words the lobby's create form uses (``option_text``: the option's title, its values'
words) in the page's language (issue 46, D13: no code word on a Bengali page). So that it can tell them from
the game's own terms, the texts keep to this: in the Options section (the last section) each item starts
with its option in bold and then names only that option's values (or another option) in bold, each value
followed by a colon and what it does (``**none**: only the tied players play it``), so the sentence reads
the same with the value's words in its place; elsewhere an option is named in bold only by a name with an
underscore (``**max_deals**``), never a plain word that is also a term of the game (**widow**).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from cardhall.errors import InvalidOptionError
from cardhall.registry import game_classes, game_file

LANGUAGES = ("en", "bn")


def game_name(game: str) -> str:
    """The registered game a game name or game string names (``"hearts(players=8)"`` -> ``"hearts"``)."""
    name = str(game).split("(", 1)[0].strip()
    games = game_classes()
    if name not in games:
        raise InvalidOptionError(f"unknown game {name!r} (games: {', '.join(games)})")
    return name


def _language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise InvalidOptionError(f"unknown language {lang!r} (languages: {', '.join(LANGUAGES)})")
    return lang


@cache
def _read(filename: str) -> str:
    return resources.files(__name__).joinpath(filename).read_text(encoding="utf-8")


@cache
def _game_json(name: str, filename: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(game_file(name, filename))
    return data


def option_text(owner: str, lang: str = "en") -> dict[str, dict[str, Any]]:
    """Every option of ``owner`` (a game name, or "table" for the table settings) in ``lang``: name ->
    ``{"title", "help"}`` and, for options whose values are words, ``"values"`` (value -> words)."""
    lang = _language(lang)
    if owner == "table":
        table: dict[str, dict[str, Any]] = json.loads(_read(f"options.{lang}.json"))["table"]
        return table
    return _game_json(game_name(owner), f"options.{lang}.json")


def rules_text(game: str, lang: str = "en") -> str:
    """The rules of ``game`` in ``lang`` as Markdown (the subset in the module docstring)."""
    return _rules(game_name(game), _language(lang))


@cache
def _rules(name: str, lang: str) -> str:
    return game_file(name, f"rulebook.{lang}.md")


def phase_hint(game: str, phase: str, lang: str = "en") -> str:
    """One short sentence saying what is being decided in ``phase`` of ``game``."""
    return _hint(game, "phases", "phase", phase, lang)


def deal_hint(game: str, deal_name: str, lang: str = "en") -> str:
    """One short sentence with the rule of a named deal (Kierki's ``deal_name``: "no tricks" ...)."""
    return _hint(game, "deals", "deal", deal_name, lang)


def _hint(game: str, kind: str, noun: str, key: str, lang: str) -> str:
    name = game_name(game)
    try:
        hints = _game_json(name, f"hints.{_language(lang)}.json")
    except FileNotFoundError:
        hints = {}
    table: dict[str, str] = hints.get(kind, {})
    if not table:
        raise InvalidOptionError(f"{name} has no named {noun}s")
    if key not in table:
        raise InvalidOptionError(f"{name}: unknown {noun} {key!r} ({noun}s: {', '.join(table)})")
    return table[key]
