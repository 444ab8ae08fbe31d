"""``cardhall bench``: how fast the engines are, measured the way bots and simulations drive them.

For each game string it measures, on one core:

- **random-playout throughput**: complete matches (seeds 0, 1, 2, ...) played by choosing uniformly among
  ``legal_actions`` with a seeded :class:`random.Random` and taking the action with ``apply_unchecked``
  (the fast path bots and simulations use); games/s and player actions/s over ``seconds`` of CPU time,
  with the loop of :mod:`cardhall.sim.playout` (compiled with the engine when the engine is) and again,
  for half the time, with the same loop run by the interpreter (what a Python caller sees);
- **state size**: the deep size of a state in bytes (everything it references except the shared
  :class:`~cardhall.core.Game` and module-level tables), and the bytes a ``clone`` adds (tracemalloc);
- **per-call cost** in nanoseconds of ``clone``, ``legal_actions``, ``apply`` (checked),
  ``apply_unchecked`` and ``observation``, averaged over states sampled from random play.

Rates use process CPU time (``time.process_time``), so other processes on a shared machine disturb them
less than wall time would; the wall time is reported next to it.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from types import FunctionType, ModuleType
from typing import Any

from rich import box
from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from cardhall.core import Game, State
from cardhall.engine_build import is_compiled
from cardhall.errors import CardhallError, InvalidOptionError
from cardhall.registry import entries, load_game
from cardhall.sim.playout import ProgressHook, python_loop, random_playouts

OPERATIONS = ("clone", "legal_actions", "apply", "apply_unchecked", "observation")
SAMPLE_STATES = 64


@dataclass
class BenchResult:
    game: str
    games: int
    actions: int
    cpu_seconds: float
    wall_seconds: float
    games_per_second: float
    actions_per_second: float
    actions_per_game: float
    # The same loop run by the interpreter: what a caller written in Python gets from the engine.
    python_loop_actions_per_second: float
    state_bytes: int
    clone_bytes: int
    ns_per_call: dict[str, float] = field(default_factory=dict)


# --- random playouts -----------------------------------------------------------------------------


def sample_states(game: Game, count: int, seed: int = 0) -> list[State]:
    """``count`` states (not over) taken at random points of seeded random matches."""
    rng = random.Random(seed)
    states: list[State] = []
    match_seed = seed
    while len(states) < count:
        state = game.new_game(seed=match_seed)
        match_seed += 1
        while not state.is_over and len(states) < count:
            if rng.random() < 0.05:
                states.append(state.clone())
            seat = rng.choice(state.to_act)
            state.apply_unchecked(seat, rng.choice(state.legal_actions(seat)))
    return states


# --- memory --------------------------------------------------------------------------------------


def _shared_ids(game: Game) -> set[int]:
    """Objects a state may reference that are not its own: the game, its module's tables, types."""
    shared: set[int] = set()
    roots: list[object] = [game]
    modules = {sys.modules.get(type(game).__module__)}
    for module in modules:
        if module is not None:
            roots.extend(v for v in vars(module).values() if not isinstance(v, (ModuleType, type)))
    _walk(roots, shared)
    return shared


def _children(obj: object) -> Iterable[object]:
    if isinstance(obj, dict):
        yield from obj.keys()
        yield from obj.values()
    elif isinstance(obj, (list, tuple, set, frozenset)):
        yield from obj
    d = getattr(obj, "__dict__", None)
    if isinstance(d, dict) and not isinstance(obj, (type, ModuleType, FunctionType)):
        yield d
    # A compiled (mypyc) class has neither __dict__ nor __slots__; it lists its fields itself.
    names: Iterable[str] = getattr(type(obj), "__mypyc_attrs__", ()) or getattr(type(obj), "__slots__", ())
    for name in names:
        value = getattr(obj, name, None)
        if value is not None:
            yield value


def _walk(roots: list[object], seen: set[int], skip: set[int] | None = None) -> int:
    total = 0
    stack = list(roots)
    while stack:
        obj = stack.pop()
        key = id(obj)
        if key in seen or (skip is not None and key in skip):
            continue
        if isinstance(obj, (type, ModuleType, FunctionType)):
            continue
        seen.add(key)
        total += sys.getsizeof(obj)
        stack.extend(_children(obj))
    return total


def deep_size(state: State) -> int:
    """Bytes of everything ``state`` references that is its own (not the game or module tables)."""
    return _walk([state], set(), _shared_ids(state.game))


def clone_bytes(state: State, copies: int = 50) -> int:
    """Bytes one ``clone`` allocates, as tracemalloc counts them (what a search pays per copy)."""
    gc.collect()
    was_tracing = tracemalloc.is_tracing()
    if not was_tracing:
        tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = [state.clone() for _ in range(copies)]
        after = tracemalloc.get_traced_memory()[0]
    finally:
        if not was_tracing:
            tracemalloc.stop()
    del kept
    return max(0, (after - before) // copies)


# --- per-call costs ------------------------------------------------------------------------------


def _time_calls(run_batch: Callable[[], tuple[float, int]], budget: float) -> float:
    """Repeat ``run_batch`` (returns timed seconds and calls) for about ``budget`` seconds; ns/call."""
    spent = 0.0
    calls = 0
    wall_end = time.perf_counter() + budget * 4 + 1.0  # give up on a machine too busy to measure
    while spent < budget or calls == 0:
        seconds, n = run_batch()
        spent += seconds
        calls += n
        if time.perf_counter() > wall_end:
            break
    return spent / calls * 1e9 if calls else 0.0


def call_costs(
    states: list[State],
    budget: float,
    seed: int = 0,
    done: Callable[[int], None] | None = None,
) -> dict[str, float]:
    """CPU nanoseconds per call of each operation, over the sampled states (loop overhead included)."""
    clock = time.process_time
    rng = random.Random(seed)
    seats = [st.to_act[0] for st in states]
    moves = [rng.choice(st.legal_actions(seat)) for st, seat in zip(states, seats, strict=True)]
    jobs = list(zip(states, seats, moves, strict=True))

    def clone() -> tuple[float, int]:
        t = clock()
        for st in states:
            st.clone()
        return clock() - t, len(states)

    def legal() -> tuple[float, int]:
        t = clock()
        for st, seat, _ in jobs:
            st.legal_actions(seat)
        return clock() - t, len(jobs)

    def observation() -> tuple[float, int]:
        t = clock()
        for st, seat, _ in jobs:
            st.observation(seat)
        return clock() - t, len(jobs)

    def applying(checked: bool) -> Callable[[], tuple[float, int]]:
        def run() -> tuple[float, int]:
            fresh = [(st.clone(), seat, a) for st, seat, a in jobs]  # not timed
            t = clock()
            if checked:
                for st, seat, a in fresh:
                    st.apply(seat, a)
            else:
                for st, seat, a in fresh:
                    st.apply_unchecked(seat, a)
            return clock() - t, len(fresh)

        return run

    runs: dict[str, Callable[[], tuple[float, int]]] = {
        "clone": clone,
        "legal_actions": legal,
        "apply": applying(True),
        "apply_unchecked": applying(False),
        "observation": observation,
    }
    costs: dict[str, float] = {}
    for k, name in enumerate(OPERATIONS, 1):
        costs[name] = round(_time_calls(runs[name], budget), 1)
        if done is not None:
            done(k)
    return costs


# --- one game ------------------------------------------------------------------------------------


def _scaled(progress: ProgressHook | None, start: float, width: float) -> ProgressHook | None:
    """A progress hook for one stage that fills ``[start, start + width]`` of the whole bar."""
    if progress is None:
        return None
    return lambda fraction: progress(start + width * fraction)


def bench_game(
    game_string: str,
    seconds: float,
    seed: int = 0,
    progress: ProgressHook | None = None,
    rounds: int = 1,
) -> BenchResult:
    """All measurements for one game string; ``progress`` gets the fraction done (0..1).

    The playouts run ``rounds`` times (each loop in turn) and the best round counts: on a shared machine
    other work only ever slows a run down.
    """
    game = load_game(game_string)
    share = 0.6  # of the progress bar: the playout rounds; the rest: the per-call costs
    step = share / (1.5 * rounds)
    throughput = interpreted = None
    for r in range(rounds):
        base = r * 1.5 * step
        run = random_playouts(game, seconds, seed, _scaled(progress, base, step))
        again = python_loop()(game, seconds / 2, seed, _scaled(progress, base + step, step / 2))
        if throughput is None or run.actions_per_second > throughput.actions_per_second:
            throughput = run
        if interpreted is None or again.actions_per_second > interpreted.actions_per_second:
            interpreted = again
    assert throughput is not None and interpreted is not None
    states = sample_states(game, SAMPLE_STATES, seed)
    middle = states[len(states) // 2]
    budget = max(0.02, seconds / 10)
    costs = call_costs(
        states,
        budget,
        seed,
        None if progress is None else (lambda k: progress(share + (1 - share) * k / len(OPERATIONS))),
    )
    games = throughput.games
    return BenchResult(
        game=str(game),
        games=games,
        actions=throughput.actions,
        cpu_seconds=round(throughput.cpu_seconds, 3),
        wall_seconds=round(throughput.wall_seconds, 3),
        games_per_second=round(throughput.games_per_second, 2),
        actions_per_second=round(throughput.actions_per_second, 1),
        actions_per_game=round(throughput.actions / games, 1) if games else 0.0,
        python_loop_actions_per_second=round(interpreted.actions_per_second, 1),
        state_bytes=deep_size(middle),
        clone_bytes=clone_bytes(middle),
        ns_per_call=costs,
    )


def engine() -> str:
    return "compiled" if is_compiled() else "pure Python"


def default_game_strings() -> list[str]:
    out: list[str] = []
    for name, registered in entries().items():
        # The game's own short forms (its registration's ``bench``: fixed, moderate lengths).
        out.extend(registered.bench or (name,))
    return out


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "cpu": cpu,
        "cpus": os.cpu_count(),
    }


# --- command line --------------------------------------------------------------------------------


def add_bench_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    b = subparsers.add_parser("bench", help="measure engine speed: random playouts, state size, call costs")
    b.add_argument("games", nargs="*", metavar="GAME", help="game strings (default: one per game)")
    b.add_argument(
        "--seconds", type=float, default=3.0, help="CPU seconds of random play per game (default 3)"
    )
    b.add_argument("--seed", type=int, default=0, help="first match seed (default 0)")
    b.add_argument(
        "--rounds", type=int, default=1, help="playout rounds per game, the best counts (default 1)"
    )
    b.add_argument("--json", action="store_true", help="print one JSON object")


def cmd_bench(args: argparse.Namespace, console: Console) -> int:
    if not args.seconds > 0:
        raise CardhallError(f"--seconds must be positive, got {args.seconds}")
    if args.rounds < 1:
        raise CardhallError(f"--rounds must be at least 1, got {args.rounds}")
    strings = list(args.games) or default_game_strings()
    for text in strings:  # fail on a bad game string before spending any time
        try:
            load_game(text)
        except InvalidOptionError as e:
            raise CardhallError(f"bench: {e}") from None
    results: list[BenchResult] = []
    err = Console(stderr=True)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.percentage:>3.0f}%"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    ) as progress:
        overall = progress.add_task(f"bench: {len(strings)} game(s)", total=len(strings))
        for text in strings:
            task = progress.add_task(f"  {text}", total=1.0)

            def show(fraction: float, task: TaskID = task) -> None:
                progress.update(task, completed=fraction)

            results.append(bench_game(text, args.seconds, args.seed, progress=show, rounds=args.rounds))
            progress.remove_task(task)
            progress.advance(overall)
    if args.json:
        print(
            json.dumps(
                {
                    "machine": machine(),
                    "engine": engine(),
                    "seconds": args.seconds,
                    "rounds": args.rounds,
                    "results": [asdict(r) for r in results],
                }
            )
        )
        return 0
    info = machine()
    # Two tables of a few columns each, so that they fit 80 columns (issue 51): the throughput and sizes,
    # then the time a call takes.
    style: dict[str, Any] = {
        "box": box.SIMPLE_HEAD,
        "pad_edge": False,
        "show_edge": False,
        "title_justify": "left",
    }
    title = f"Random playouts, one core ({info['cpu']}, Python {info['python']}, {engine()} engine)"
    table = Table(title=title, **style)
    # A long game string folds inside its cell, a header wraps at its spaces; the numbers are never cut.
    table.add_column("game", overflow="fold", min_width=12)
    for col in ("games/s", "actions/s", "Python\nloop", "actions\na game", "state B", "clone B"):
        table.add_column(col, justify="right")
    calls = Table(title="Nanoseconds a call", **style)
    calls.add_column("game", overflow="fold", min_width=12)
    for col in OPERATIONS:
        calls.add_column(col.replace("_", "_\n"), justify="right")
    for r in results:
        table.add_row(
            r.game,
            f"{r.games_per_second:,.1f}" if r.games else "(none finished)",
            f"{r.actions_per_second:,.0f}",
            f"{r.python_loop_actions_per_second:,.0f}",
            f"{r.actions_per_game:,.1f}",
            f"{r.state_bytes:,}",
            f"{r.clone_bytes:,}",
        )
        calls.add_row(r.game, *(f"{r.ns_per_call[op]:,.0f}" for op in OPERATIONS))
    console.print(table)
    console.print("(Python loop: actions/s of the same loop run by the interpreter)", markup=False)
    console.print(calls)
    return 0
