"""Records of matches and :func:`replay`: a record is the game string, the rules version, the seed and
the actions ``[[seat, action], ...]`` (plus ``deck`` when the first deal was stacked), and replays to the
identical state with every action checked again.

It sits above :mod:`cardhall.registry` (a record names its game by game string), so the Game API in
:mod:`cardhall.core` needs no registry.
"""

from __future__ import annotations

from cardhall.core import Game, Record, State
from cardhall.errors import CardhallError, IllegalActionError, InvalidRecordError
from cardhall.registry import load_game


def check_record(record: object) -> Game:
    """The game of a record whose game, rules version and seed are sound (its actions are checked
    when they are replayed)."""
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
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidRecordError(f"{game}: record seed must be an int, got {seed!r}")
    return game


def replay(record: Record, events: bool = False) -> State:
    """The state a record describes, every action checked again (``events``: the state logs its
    events from the first deal on, as a Table's does)."""
    game = check_record(record)
    try:
        state = game.new_game(seed=record["seed"], deck=record.get("deck"), events=events)
    except CardhallError as e:
        raise InvalidRecordError(f"{game}: record cannot start: {e}") from e
    for i, (seat, action) in enumerate(actions(record)):
        try:
            state.apply(seat, action)
        except IllegalActionError as e:
            raise InvalidRecordError(f"{game}: record action {i} {[seat, action]!r} is illegal: {e}") from e
    return state


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
