"""Records of matches and :func:`replay`: a record is the game string, the rules version, the seed and
the actions ``[[seat, action], ...]`` (plus ``deck`` when the first deal was stacked), and replays to the
identical state with every action checked again.

Whatever is wrong with a record (not a JSON object, a missing key, a seed that is not an int in range, a
stacked deck that is not the game's cards, an action that is not a pair of ints or is illegal) is an
:class:`InvalidRecordError` naming it, from every entry point that reads records (:func:`replay`,
``Table.from_record``, the command line), never another exception.

It sits above :mod:`cardhall.registry` (a record names its game by game string), so the Game API in
:mod:`cardhall.core` needs no registry.
"""

from __future__ import annotations

from collections.abc import Callable

from cardhall.core import Game, Record, State, check_seed
from cardhall.errors import CardhallError, InvalidRecordError
from cardhall.registry import load_game


def check_record(record: object) -> Game:
    """The game of a record whose game, rules version, seed and stacked deck (if any) are sound (its
    actions are checked when they are replayed)."""
    if not isinstance(record, dict):
        raise InvalidRecordError(f"a record must be a JSON object, got {type(record).__name__}")
    missing = [k for k in ("game", "rules_version", "seed", "actions") if k not in record]
    if missing:
        raise InvalidRecordError(f"record lacks {', '.join(missing)}")
    try:
        game = load_game(record["game"])
    except CardhallError as e:
        raise InvalidRecordError(f"record names a game that cannot be loaded: {e}") from e
    if str(record["rules_version"]) != game.rules_version:
        raise InvalidRecordError(
            f"{game}: record has rules version {record['rules_version']!r}, "
            f"this engine plays version {game.rules_version!r}"
        )
    seed = record["seed"]
    try:  # None is refused too: check_seed would draw a fresh seed, and a record names its own
        check_seed(game, seed if seed is not None else -1)
    except CardhallError:
        raise InvalidRecordError(f"{game}: record seed must be an int in 0..2**63-1, got {seed!r}") from None
    deck = record.get("deck")
    if deck is not None:
        if not isinstance(deck, list) or not all(type(c) is int for c in deck):
            raise InvalidRecordError(f"{game}: record deck must be a list of card ints, got {deck!r}")
        try:  # the game's own check of a stacked deck (rare: tests and puzzles), by dealing it
            game.new_game(seed=seed, deck=deck)
        except CardhallError as e:
            raise InvalidRecordError(f"record deck: {e}") from e
    return game


def replay(record: Record, events: bool = False) -> State:
    """The state a record describes, every action checked again (``events``: the state logs its
    events from the first deal on, as a Table's does)."""
    game = check_record(record)
    state = game.new_game(seed=record["seed"], deck=record.get("deck"), events=events)
    apply_actions(record, state.apply)
    return state


def apply_actions(record: Record, apply: Callable[[int, int], object]) -> None:
    """Take a record's actions in order with ``apply`` (a state's or a Table's: checked); one that is
    refused is reported as the record's fault."""
    for i, (seat, action) in enumerate(actions(record)):
        try:
            apply(seat, action)
        except CardhallError as e:
            raise InvalidRecordError(f"record action {i} {[seat, action]!r} is illegal: {e}") from e


def actions(record: Record) -> list[tuple[int, int]]:
    """The ``(seat, action)`` pairs of a record, checked to be pairs of ints."""
    raw = record["actions"]
    if not isinstance(raw, list):
        raise InvalidRecordError(f"{record.get('game')}: record actions must be a list")
    out = []
    for i, pair in enumerate(raw):
        if not (
            isinstance(pair, (list, tuple))
            and len(pair) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in pair)
        ):
            game = record.get("game")
            raise InvalidRecordError(f"{game}: record action {i} is not [seat, action]: {pair!r}")
        out.append((pair[0], pair[1]))
    return out
