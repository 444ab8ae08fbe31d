"""Records: a sound one replays (as a state and as a Table); anything wrong with one is an
InvalidRecordError naming it, from every entry point that reads records, never another exception."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import cardhall
from cardhall.cli import main
from cardhall.errors import InvalidRecordError
from cardhall.table import Table


def _record() -> dict[str, Any]:
    state = cardhall.load_game("hokm").new_game(seed=1)
    for _ in range(5):
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[0])
    return state.record()


GOOD = _record()
DECK = cardhall.load_game("hokm").deck()

# (what is wrong, the record, a fragment of the message)
BAD: list[tuple[str, object, str]] = [
    ("a JSON list", [1, 2], "must be a JSON object, got list"),
    ("a string", "hokm", "must be a JSON object, got str"),
    ("no seed", {k: v for k, v in GOOD.items() if k != "seed"}, "lacks seed"),
    ("a string seed", {**GOOD, "seed": "7"}, "seed must be an int"),
    ("a float seed", {**GOOD, "seed": 1.5}, "seed must be an int"),
    ("a bool seed", {**GOOD, "seed": True}, "seed must be an int"),
    ("a null seed", {**GOOD, "seed": None}, "seed must be an int"),
    ("a negative seed", {**GOOD, "seed": -1}, "seed must be an int in 0..2**63-1"),
    ("a huge seed", {**GOOD, "seed": 2**70}, "seed must be an int in 0..2**63-1"),
    ("a game that is a number", {**GOOD, "game": 5}, "cannot be loaded"),
    ("an unknown game", {**GOOD, "game": "poker"}, "cannot be loaded"),
    ("another rules version", {**GOOD, "rules_version": "0"}, "rules version"),
    ("actions that are a string", {**GOOD, "actions": "ab"}, "actions must be a list"),
    ("actions that are an object", {**GOOD, "actions": {"a": 1}}, "actions must be a list"),
    ("a single int action", {**GOOD, "actions": [[0]]}, "is not [seat, action]"),
    ("a seat off the table", {**GOOD, "actions": [[9, 1]]}, "record action 0 [9, 1] is illegal"),
    ("a negative seat", {**GOOD, "actions": [[-1, 0]]}, "record action 0 [-1, 0] is illegal"),
    ("a huge action", {**GOOD, "actions": [[1, 10**30]]}, "is illegal"),
    ("a deck that is a string", {**GOOD, "deck": "abc"}, "deck must be a list of card ints"),
    ("a deck that is a number", {**GOOD, "deck": 5}, "deck must be a list of card ints"),
    ("a deck of texts", {**GOOD, "deck": ["x"] * 30}, "deck must be a list of card ints"),
    ("a deck of bools", {**GOOD, "deck": [True] * 30}, "deck must be a list of card ints"),
    ("a deck of nested lists", {**GOOD, "deck": [[1]] * 30}, "deck must be a list of card ints"),
    ("a deck too short", {**GOOD, "deck": DECK[:3]}, "record deck: hokm: a stacked deck"),
    ("a deck with a card twice", {**GOOD, "deck": [*DECK[:-1], DECK[0]]}, "record deck"),
]
READERS: dict[str, Callable[[Any], object]] = {"replay": cardhall.replay, "Table": Table.from_record}


def test_a_sound_record_replays_both_ways() -> None:
    assert cardhall.replay(GOOD).record() == GOOD
    assert Table.from_record(GOOD).record() == GOOD
    stacked = {**GOOD, "deck": DECK[::-1], "actions": []}
    assert cardhall.replay(stacked).record() == stacked


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize(("what", "record", "fragment"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_record_is_an_invalid_record_error(
    reader: str, what: str, record: object, fragment: str
) -> None:
    with pytest.raises(InvalidRecordError) as caught:
        READERS[reader](record)
    message = str(caught.value)
    assert fragment in message
    assert "\n" not in message


def test_replay_of_a_file_reports_each_bad_line_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [json.dumps(GOOD), "[1, 2]", json.dumps({**GOOD, "seed": "7"}), "{not json"]
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = main(["replay", str(path)])
    out, err = capsys.readouterr()
    assert code == 1
    assert "Traceback" not in out + err
    assert "line 1: hokm seed 1: 5 actions" in out
    assert "line 2: cannot replay: a record must be a JSON object, got list" in out
    assert "line 3: cannot replay: hokm: record seed must be an int in 0..2**63-1, got '7'" in out
    assert "line 4: cannot replay" in out
