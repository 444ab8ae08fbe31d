"""The random-playout loop that ``cardhall bench`` times: whole matches of uniformly random legal play.

It is part of the compiled engine (see :mod:`cardhall.engine_build`), so in a compiled build the loop
itself costs little next to the engine; :func:`python_loop` loads the same source as plain Python, for
the figure a Python caller (a bot, a notebook) sees.
"""

from __future__ import annotations

import importlib.util
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cardhall.core import Game

ProgressHook = Callable[[float], None]


@dataclass
class Throughput:
    games: int = 0
    actions: int = 0
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.cpu_seconds if self.cpu_seconds > 0 else 0.0

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.cpu_seconds if self.cpu_seconds > 0 else 0.0


def random_playouts(
    game: Game,
    seconds: float,
    seed: int = 0,
    progress: ProgressHook | None = None,
) -> Throughput:
    """Play random matches for ``seconds`` of CPU time; count finished matches and all actions.

    Seat and action are drawn with ``rng.random()`` (one C call) rather than ``rng.choice`` so the
    driver costs as little as possible next to the engine. A match still running when time is up
    counts its actions but not as a game.
    """
    rng = random.Random(seed)
    rnd = rng.random
    clock = time.process_time
    result = Throughput()
    wall0 = time.perf_counter()
    start = clock()
    deadline = start + seconds
    match_seed = seed
    actions = 0
    games = 0
    now = start
    while now < deadline:
        state = game.new_game(seed=match_seed)
        match_seed += 1
        steps = 0
        while not state.is_over:
            to_act = state.to_act
            seat = to_act[0] if len(to_act) == 1 else to_act[int(rnd() * len(to_act))]
            # Direct method calls: compiled, they are native calls (a bound method would box them).
            legal = state.legal_actions_unchecked(seat)
            state.apply_unchecked(seat, legal[int(rnd() * len(legal))])
            steps += 1
            if not steps & 4095 and clock() > deadline:
                break
        actions += steps
        if state.is_over:
            games += 1
        now = clock()
        if progress is not None:
            progress(min(1.0, (now - start) / seconds))
    result.games = games
    result.actions = actions
    result.cpu_seconds = now - start
    result.wall_seconds = time.perf_counter() - wall0
    return result


def python_loop() -> Callable[..., Throughput]:
    """:func:`random_playouts` from this module's source, run by the interpreter even when compiled."""
    source = Path(__file__).with_name("playout.py")
    spec = importlib.util.spec_from_file_location("cardhall.sim._playout_interpreted", source)
    assert spec is not None and spec.loader is not None
    module = sys.modules.get(spec.name)
    if module is None:
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
    run: Callable[..., Throughput] = module.random_playouts
    return run
