"""Save files of ``cardhall play --save`` / ``--resume``: the match's record plus who sat where.

Decisions: a save file is one JSON object on one line, the record (``game``, ``rules_version``,
``seed``, ``actions``) with two more keys: ``seat`` (the person's seat) and ``bots`` (each seat's bot
string, null for the person). It is rewritten after every action by writing a new file beside it and
renaming it over the old one, so a crash leaves the old or the new file, never half of one; the file is
also a valid records file for ``cardhall replay``. A resumed match replays the record exactly; the bots'
random draws after it start afresh from the seed (a search bot's thinking is not part of the record).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardhall.core import Record
from cardhall.errors import InvalidRecordError
from cardhall.records import check_record

EXTRA_KEYS = ("seat", "bots")


@dataclass(frozen=True)
class Saved:
    record: Record
    seat: int
    bots: list[str | None]


def write(path: Path, record: Record, seat: int, bots: list[str | None]) -> None:
    data: dict[str, Any] = {**record, "seat": seat, "bots": bots}
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def read_text(path: Path) -> str:
    """A record or save file's text; a folder, a missing or unreadable file is a one-line error."""
    if path.is_dir():
        raise InvalidRecordError(f"{path} is a folder, not a record file")
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InvalidRecordError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise InvalidRecordError(f"{path}: cannot read it ({e})") from None


def read_json(path: Path) -> Any:
    """The first JSON value of a file (a record file has one per line); one-line errors only."""
    text = read_text(path)
    line = next((ln for ln in text.splitlines() if ln.strip()), "")
    if not line:
        raise InvalidRecordError(f"{path} is empty")
    try:
        return json.loads(line)
    except json.JSONDecodeError as e:
        raise InvalidRecordError(f"{path}: not JSON ({e})") from None


def record_of(data: Any) -> Record:
    """The record in a save file's or record file's object (the save file's own keys removed)."""
    if not isinstance(data, dict):
        raise InvalidRecordError(f"a record must be a JSON object, got {type(data).__name__}")
    record = {k: v for k, v in data.items() if k not in EXTRA_KEYS}
    check_record(record)
    return record


def read(path: Path) -> Saved:
    data = read_json(path)
    record = record_of(data)
    game = check_record(record)
    n = game.num_players
    seat, bots = data.get("seat"), data.get("bots")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise InvalidRecordError(
            f"{path}: not a save file of 'cardhall play' (its 'seat' must be 0..{n - 1})"
        )
    if not (isinstance(bots, list) and len(bots) == n and all(b is None or isinstance(b, str) for b in bots)):
        raise InvalidRecordError(
            f"{path}: not a save file of 'cardhall play' (it needs 'bots', one per seat)"
        )
    if bots[seat] is not None or any(b is None for s, b in enumerate(bots) if s != seat):
        raise InvalidRecordError(f"{path}: 'bots' must name a bot for every seat but the person's")
    return Saved(record, seat, bots)
