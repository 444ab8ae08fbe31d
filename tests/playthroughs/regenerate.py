"""Golden playthroughs: one short seeded match per game and main option set, written out as text (as
OpenSpiel's ``integration_tests/playthroughs``), so that any change of what the engine does shows in
review as a diff of these files. ``tests/test_playthroughs.py`` plays each match again and compares.

Regenerate every file after an intended change of the rules (and read the diff)::

    python tests/playthroughs/regenerate.py            # rewrites tests/playthroughs/*.txt
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

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Playthrough:
    name: str  # the file is HERE / f"{name}.txt"
    game: str  # every option named
    seed: int
    prefer: str = ""  # a label prefix the policy takes when it can ("knock")

    @property
    def path(self) -> Path:
        return HERE / f"{self.name}.txt"


PLAYTHROUGHS = [
    Playthrough(
        "hokm-compulsory",
        "hokm(target=500,max_hands=1,bidding=compulsory,must_trump_when_void=false,must_overtrump=false,"
        "overtricks=ignore,kaboot_fail=-100)",
        seed=7,
    ),
    Playthrough(
        "hokm-auction-count-overtrump",
        "hokm(target=500,max_hands=1,bidding=auction,must_trump_when_void=true,must_overtrump=true,"
        "overtricks=count,kaboot_fail=-200)",
        seed=8,
    ),
    Playthrough(
        "kierki-robber-and-trumps",
        "kierki(trump_chooser=dealer,trump_leader=dealer,lottery_start_rank=7,lottery_starter=dealer,"
        "first_deal=7,last_deal=8)",
        seed=3,
    ),
    Playthrough(
        "kierki-lottery-variants",
        "kierki(trump_chooser=left_of_dealer,trump_leader=left_of_dealer,lottery_start_rank=8,"
        "lottery_starter=left_of_dealer,first_deal=11,last_deal=12)",
        seed=4,
    ),
    Playthrough(
        "hearts-cancellation-6",
        "hearts(players=6,decks=2,target=150,max_hands=1,moon_value=26,moon=choice,passing=alternate,"
        "first_lead=no_points,points_on_first_trick=true,queen_breaks_hearts=true,dead_trick_lead=leader,"
        "widow=first_trick)",
        seed=5,
    ),
    Playthrough(
        "hearts-one-deck-4",
        "hearts(players=4,decks=1,target=150,max_hands=1,moon_value=26,moon=choice,passing=alternate,"
        "first_lead=no_points,points_on_first_trick=true,queen_breaks_hearts=true,dead_trick_lead=leader,"
        "widow=first_trick)",
        seed=6,
    ),
    Playthrough(
        "gin-three-hand",
        "gin(players=3,target=100,max_hands=1,allow_same_discard=false,undercut_bonus=10,gin_bonus=25,"
        "team_scoring=captain,game_bonus=0,box_bonus=0,auto_arrange=false)",
        seed=48,
        prefer="knock",
    ),
    Playthrough(
        "gin-two-player",
        "gin(players=2,target=100,max_hands=1,allow_same_discard=false,undercut_bonus=10,gin_bonus=25,"
        "team_scoring=captain,game_bonus=0,box_bonus=0,auto_arrange=false)",
        seed=32,
        prefer="knock",
    ),
    Playthrough(
        "svara-three",
        "svara(players=3,ante=10,stack=100,min_blind=1,max_deals=4,svara_join=anyone,svara_fee=share,"
        "joker=standard,blind_option=false)",
        seed=8,
    ),
]

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
    stale = sorted({p.name for p in HERE.glob("*.txt")} - {s.path.name for s in PLAYTHROUGHS})
    for name in stale:
        if not args.check:
            (HERE / name).unlink()
    verb = "differ" if args.check else "rewritten"
    print(
        f"{len(differ)} of {len(PLAYTHROUGHS)} playthroughs {verb}{': ' if differ else ''}{', '.join(differ)}"
    )
    if stale:
        print(f"{'stale' if args.check else 'removed'}: {', '.join(stale)}")
    return 1 if args.check and (differ or stale) else 0


if __name__ == "__main__":
    sys.exit(main())
