"""cardhall against OpenSpiel and RLCard: random playouts, same machine, same protocol, one run.

    python benchmarks/peers.py [--seconds T] [--rounds N] [--json]

Pairs measured (one deal = one game on every side, since OpenSpiel and RLCard play single deals):

- ``hearts(decks=1,players=4,max_hands=1)`` against OpenSpiel ``hearts``;
- ``gin(players=2,max_hands=1)`` against OpenSpiel ``gin_rummy`` and RLCard ``gin-rummy``.

Protocol, identical for every engine: play complete games back to back for T seconds of process CPU
time on one core, N rounds with the engines in turn, the best round of each engine counting; at each
decision take the engine's legal actions through its public Python API and pick one uniformly with
``random.Random.random()``; count finished games and player actions (OpenSpiel's chance nodes, the deal,
are sampled the same way, uniformly, and count as time but not as actions; RLCard deals inside
``reset``). Every engine is driven from a Python loop: cardhall and OpenSpiel through ``legal_actions``
and ``apply_unchecked`` / ``apply_action``, RLCard through its env (``reset`` / ``step`` / ``is_over``),
which is how Python bots use them. cardhall runs compiled when ``make setup`` could build it (the
header says which).

A game or peer that is not installed is reported as "not available"; the peers come with the ``bench``
extra (``pip install 'cardhall[bench]'``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

OURS_HEARTS = "hearts(decks=1,players=4,max_hands=1)"
OURS_GIN = "gin(players=2,max_hands=1)"

# (left, right, minimum ratio of games/s the issue asks for)
TARGETS = (
    (OURS_HEARTS, "openspiel:hearts", 1.5),
    (OURS_GIN, "openspiel:gin_rummy", 2.0),
    (OURS_GIN, "rlcard:gin-rummy", 10.0),
)


@dataclass
class Measure:
    engine: str
    available: bool
    games: int = 0
    actions: int = 0
    cpu_seconds: float = 0.0
    note: str = ""

    @property
    def games_per_second(self) -> float:
        return self.games / self.cpu_seconds if self.cpu_seconds else 0.0

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.cpu_seconds if self.cpu_seconds else 0.0

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["games_per_second"] = round(self.games_per_second, 2)
        d["actions_per_second"] = round(self.actions_per_second, 1)
        return d


PlayOne = Callable[[Callable[[], float]], int]  # plays one game with the given random(), returns actions


def timed(engine: str, seconds: float, play_one: PlayOne, seed: int = 0) -> Measure:
    """Games back to back for ``seconds`` of CPU time (a game running at the deadline finishes)."""
    rnd = random.Random(seed).random
    clock = time.process_time
    start = clock()
    deadline = start + seconds
    games = actions = 0
    now = start
    while now < deadline or games == 0:
        actions += play_one(rnd)
        games += 1
        now = clock()
    return Measure(engine, True, games, actions, now - start)


# --- cardhall ------------------------------------------------------------------------------------


def cardhall_engine(game_string: str) -> PlayOne | str:
    try:
        import cardhall
    except ImportError as e:
        return f"cardhall not importable: {e}"
    try:
        game = cardhall.load_game(game_string)
    except ValueError as e:
        return f"not available ({e})"
    seeds = iter(range(1 << 62))

    def play_one(rnd: Callable[[], float]) -> int:
        state = game.new_game(seed=next(seeds))
        legal_actions = state.legal_actions
        apply = state.apply_unchecked
        n = 0
        while not state.is_over:
            to_act = state.to_act
            seat = to_act[0] if len(to_act) == 1 else to_act[int(rnd() * len(to_act))]
            legal = legal_actions(seat)
            apply(seat, legal[int(rnd() * len(legal))])
            n += 1
        return n

    return play_one


# --- OpenSpiel -----------------------------------------------------------------------------------


def openspiel_engine(name: str) -> PlayOne | str:
    try:
        import pyspiel
    except ImportError:
        return "not available (pip install open-spiel)"
    game = pyspiel.load_game(name)

    def play_one(rnd: Callable[[], float]) -> int:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                # Every chance node of hearts and gin_rummy (dealing, drawing, the pass direction)
                # is uniform, so a uniform pick samples it exactly.
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rnd() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rnd() * len(legal))])
                n += 1
        return n

    return play_one


# --- RLCard --------------------------------------------------------------------------------------


def rlcard_engine(name: str) -> PlayOne | str:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import rlcard
    except ImportError:
        return "not available (pip install rlcard)"
    env = rlcard.make(name, config={"seed": 0})

    def play_one(rnd: Callable[[], float]) -> int:
        state, _ = env.reset()
        n = 0
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[int(rnd() * len(legal))])
            n += 1
        return n

    return play_one


ENGINES: dict[str, Callable[[], PlayOne | str]] = {
    OURS_HEARTS: lambda: cardhall_engine(OURS_HEARTS),
    "openspiel:hearts": lambda: openspiel_engine("hearts"),
    OURS_GIN: lambda: cardhall_engine(OURS_GIN),
    "openspiel:gin_rummy": lambda: openspiel_engine("gin_rummy"),
    "rlcard:gin-rummy": lambda: rlcard_engine("gin-rummy"),
}


def measure_all(
    seconds: float, log: Callable[[str], None] | None = None, rounds: int = 1
) -> dict[str, Measure]:
    """Each engine for ``seconds``, ``rounds`` times in turn (A B C, A B C, ...); the best round counts.

    On a shared machine other work only ever slows a run down, so the best of interleaved rounds is the
    figure least disturbed by it, for every engine alike.
    """
    players: dict[str, PlayOne] = {}
    out: dict[str, Measure] = {}
    for engine, make in ENGINES.items():
        try:
            play_one = make()
        except Exception as e:  # a peer that fails to load is reported, not fatal
            play_one = f"not available ({type(e).__name__}: {e})"
        if isinstance(play_one, str):
            out[engine] = Measure(engine, False, note=play_one)
        else:
            players[engine] = play_one
    for round_no in range(1, rounds + 1):
        for engine, play_one in players.items():
            if log:
                log(f"round {round_no}/{rounds}: measuring {engine} for {seconds:g} s ...")
            try:
                measure = timed(engine, seconds, play_one, seed=round_no)
            except Exception as e:
                out[engine] = Measure(engine, False, note=f"failed: {type(e).__name__}: {e}")
                continue
            best = out.get(engine)
            if best is None or (best.available and measure.games_per_second > best.games_per_second):
                out[engine] = measure
    return {engine: out[engine] for engine in ENGINES}


def ratios(results: dict[str, Measure]) -> list[dict[str, Any]]:
    rows = []
    for left, right, target in TARGETS:
        a, b = results[left], results[right]
        ratio = (
            a.games_per_second / b.games_per_second
            if a.available and b.available and b.games_per_second
            else None
        )
        rows.append(
            {
                "ours": left,
                "peer": right,
                "ratio": None if ratio is None else round(ratio, 2),
                "target": target,
                "meets_target": None if ratio is None else ratio >= target,
            }
        )
    return rows


def machine() -> dict[str, Any]:
    cpu = platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), cpu)
    except OSError:
        pass
    return {"python": platform.python_version(), "cpu": cpu, "cpus": os.cpu_count()}


def cardhall_build() -> str:
    try:
        import cardhall.core  # noqa: F401 - is_compiled looks at the loaded module
        from cardhall.engine_build import is_compiled
    except ImportError:
        return "not importable"
    return "compiled" if is_compiled() else "pure Python"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per engine (default 5)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds, best counts (default 3)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if not args.seconds > 0:
        parser.error("--seconds must be positive")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    results = measure_all(args.seconds, log=lambda m: print(m, file=sys.stderr), rounds=args.rounds)
    rows = ratios(results)
    if args.json:
        print(
            json.dumps(
                {
                    "machine": machine(),
                    "seconds": args.seconds,
                    "rounds": args.rounds,
                    "cardhall_engine": cardhall_build(),
                    "results": [m.as_dict() for m in results.values()],
                    "ratios": rows,
                }
            )
        )
        return 0
    info = machine()
    print(
        f"Random playouts, one core, best of {args.rounds} x {args.seconds:g} CPU s "
        f"({info['cpu']}, Python {info['python']}, cardhall engine {cardhall_build()})"
    )
    print(f"{'engine':42} {'games/s':>10} {'actions/s':>11} {'actions/game':>13}")
    for m in results.values():
        if not m.available:
            print(f"{m.engine:42} {m.note}")
            continue
        per_game = m.actions / m.games if m.games else 0
        print(f"{m.engine:42} {m.games_per_second:10.1f} {m.actions_per_second:11.0f} {per_game:13.1f}")
    print()
    for row in rows:
        if row["ratio"] is None:
            print(f"{row['ours']} vs {row['peer']}: not available")
            continue
        verdict = "meets" if row["meets_target"] else "misses"
        print(
            f"{row['ours']} vs {row['peer']}: {row['ratio']:.2f}x games/s "
            f"({verdict} the target {row['target']:g}x)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
