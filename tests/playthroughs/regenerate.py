"""Golden playthroughs: one short seeded match per game and main option set, written out as text (as
OpenSpiel's ``integration_tests/playthroughs``), so that any change of what the engine does shows in review
as a diff of these files. Each game names its own in its entry (``playthroughs``), and keeps the files in
its folder (``games/<name>/playthroughs/<spec>.txt``). ``tests/test_playthroughs.py`` plays each match again
and compares.

Regenerate every file after an intended change of the rules (and read the diff)::

    python tests/playthroughs/regenerate.py            # rewrites src/cardhall/games/*/playthroughs/*.txt
    python tests/playthroughs/regenerate.py --check    # says which files differ, writes nothing

A file holds the game string (every option named, so a changed default changes no file), the rules
version and the seed, then, from the deal to the end: before each action the seat to act, its legal
actions and the one taken; after it the seats to act, the scores, and each seat's observation (and a
spectator's) as it changed: the first in full, then only its keys that changed (``key = value``, a
list that only grew as ``key += [new items]``), what changed alike in every view on one line. The
actions are uniformly random (``random.Random`` of the seed), except where a spec prefers some (gin
knocks whenever it can, so its hands end in knocks and lay-offs rather than void). Only the engine is
played: no bot, no Table. The seeds were picked for short matches that show the main rules (gin's
knocker choosing a layout and a lay-off, Svara's blinds, raises and an all-in).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cardhall
from cardhall.registry import entries, folder

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Playthrough:
    name: str  # the file is its game's folder's playthroughs/<name>.txt
    game: str  # every option named
    seed: int
    prefer: str = ""  # a label prefix the policy takes when it can ("knock")
    folder: Path = HERE  # the game's folder's playthroughs/

    @property
    def path(self) -> Path:
        return self.folder / f"{self.name}.txt"


def playthroughs() -> list[Playthrough]:
    """Every registered game's playthroughs (its entry's ``playthroughs``), by game name."""
    return [
        Playthrough(*spec, folder=Path(str(folder(name))) / "playthroughs")
        for name, entry in entries().items()
        for spec in entry.playthroughs
    ]


PLAYTHROUGHS = playthroughs()

# A match still going after this many actions is written up to there, with a line saying so.
MAX_ACTIONS = 2_000


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(", ", ": "))


def _changes(before: dict[str, Any] | None, after: dict[str, Any]) -> dict[str, str]:
    """The keys of ``after`` that changed since ``before`` (all of them when there is no ``before``),
    each as it is written: ``key = value``, or ``key += [new items]`` for a list that only grew."""
    out = {}
    for key in sorted(set(before or {}) | set(after)):
        new = after.get(key, "<absent>")
        if before is None:
            out[key] = f"{key} = {_json(new)}"
            continue
        old = before.get(key, "<absent>")
        if old == new:
            continue
        if isinstance(old, list) and isinstance(new, list) and old and new[: len(old)] == old:
            out[key] = f"{key} += {_json(new[len(old) :])}"
        else:
            out[key] = f"{key} = {_json(new)}"
    return out


def render(spec: Playthrough) -> str:
    """The playthrough's text, from the engine as it is now."""
    game = cardhall.load_game(spec.game)
    state = game.new_game(seed=spec.seed)
    rng = random.Random(spec.seed)
    seats: list[int | None] = [*range(game.num_players), None]
    seen: dict[int | None, dict[str, Any] | None] = dict.fromkeys(seats)
    lines = [
        "# A golden playthrough (tests/test_playthroughs.py): regenerate with",
        "# `python tests/playthroughs/regenerate.py`, never by hand, and review the diff.",
        f"game: {spec.game}",
        f"rules_version: {game.rules_version}",
        f"seed: {spec.seed}",
        "policy: uniformly random legal actions, random.Random(seed)"
        + (f", preferring '{spec.prefer} ...' when legal" if spec.prefer else ""),
    ]

    def after(title: str) -> None:
        lines.append("")
        lines.append(title)
        lines.append(f"to_act: {list(state.to_act)}  scores: {list(state.scores)}")
        changes = {}
        for seat in seats:
            obs = state.observation(seat)
            changes[seat] = _changes(seen[seat], obs)
            seen[seat] = obs
        # What changed alike in every view is written once.
        common = {k: v for k, v in changes[None].items() if all(changes[s].get(k) == v for s in seats)}
        if common:
            lines.append(f"every view: {'; '.join(common.values())}")
        for seat in seats:
            own = [v for k, v in changes[seat].items() if k not in common]
            if own:
                lines.append(f"{'spectator' if seat is None else f'seat {seat}'}: {'; '.join(own)}")

    after("== dealt")
    for step in range(1, MAX_ACTIONS + 1):
        if state.is_over:
            break
        seat = rng.choice(state.to_act)
        legal = state.legal_actions(seat)
        labels = [game.action_label(a) for a in legal]
        preferred = [
            a for a, label in zip(legal, labels, strict=True) if spec.prefer and label.startswith(spec.prefer)
        ]
        action = rng.choice(preferred or legal)
        lines.append("")
        lines.append(f"legal for seat {seat}: {', '.join(labels)}")
        state.apply(seat, action)
        after(f"== {step}: seat {seat} {game.action_label(action)}")
    else:
        lines.append("")
        lines.append(f"(still going after {MAX_ACTIONS} actions)")
    if state.is_over:
        lines.append("")
        lines.append(f"over: scores {list(state.scores)}, winners {list(state.winners)}")
    return "\n".join(lines) + "\n"


def stored_files() -> set[Path]:
    """The playthrough files in every registered game's folder."""
    return {p for name in entries() for p in (Path(str(folder(name))) / "playthroughs").glob("*.txt")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="say which files differ; write nothing")
    args = parser.parse_args(argv)
    differ = []
    for spec in PLAYTHROUGHS:
        text = render(spec)
        old = spec.path.read_text(encoding="utf-8") if spec.path.exists() else None
        if text == old:
            continue
        differ.append(spec.path.name)
        if not args.check:
            spec.path.write_text(text, encoding="utf-8")
    stale = sorted(stored_files() - {s.path for s in PLAYTHROUGHS})
    for path in stale:
        if not args.check:
            path.unlink()
    verb = "differ" if args.check else "rewritten"
    print(
        f"{len(differ)} of {len(PLAYTHROUGHS)} playthroughs {verb}{': ' if differ else ''}{', '.join(differ)}"
    )
    if stale:
        print(f"{'stale' if args.check else 'removed'}: {', '.join(p.name for p in stale)}")
    return 1 if args.check and (differ or stale) else 0


if __name__ == "__main__":
    sys.exit(main())
