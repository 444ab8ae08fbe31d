"""Many matches with bots: seeds ``seed, seed+1, ...``, optionally over several processes or a cluster.

Results are per seat: mean final score and win rate with 95% confidence intervals. A shared win (tied
winners) counts as ``1 / number of winners`` for each, so win rates sum to 1.

Tournaments (``rotate=True``): duplicate deals with the seats rotated. Every seed is played once per
rotation of the bot list round the table (rotation ``r`` puts ``bots[(seat - r) % n]`` in ``seat``), so
each bot string holds every seat on the same deals. Results are then also aggregated per BOT (over every
seat it held): mean score and win rate per seat held (95% CI), and its **margin**: per seed, its mean
score minus the mean score of the other bots' seats, averaged over the rotations, with a 95% CI over the
seeds (a paired, duplicate comparison: the luck of the deal cancels out).

Where the matches are played is an :class:`Executor`: :class:`Processes` (this process, or ``--jobs``
local processes) or a Ray cluster (:mod:`cardhall.sim.ray_runner`). An executor only plays batches of
(seed, seating) tasks and hands each batch back as it finishes, in any order; :func:`run_matches` folds
them back into task order in one place, so results and records are the same whoever played them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, Protocol

from cardhall.bots import make_bot
from cardhall.core import Record
from cardhall.registry import load_game
from cardhall.sim.stats import mean_interval, rate_interval
from cardhall.table import Table


@dataclass
class MatchResult:
    seed: int
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    actions: int
    record: Record | None = None
    seats: tuple[str, ...] = ()  # the bot string in each seat of this match
    # The record already as its JSON line (no newline), when a worker wrote it (``record`` is then None):
    # the process collecting a cluster's results only has to copy text to the file.
    record_line: str | None = None

    def take_record_line(self) -> str | None:
        """The record as a JSON line, dropped from the result (the file now holds it)."""
        line = self.record_line if self.record is None else json.dumps(self.record)
        self.record = self.record_line = None
        return line


@dataclass
class SimulationReport:
    game: str
    bots: list[str]
    results: list[MatchResult] = field(default_factory=list)
    rotate: bool = False

    def summary(self) -> dict[str, Any]:
        n = len(self.results)
        seats = []
        for seat, bot in enumerate(self.bots):
            if self.rotate:
                bot = "rotated"
            scores = [r.scores[seat] for r in self.results]
            wins = sum(1 / len(r.winners) for r in self.results if seat in r.winners)
            seats.append(
                {
                    "seat": seat,
                    "bot": bot,
                    "mean_score": mean_interval(scores).as_dict(),
                    "wins": wins,
                    "win_rate": rate_interval(wins, n).as_dict(),
                }
            )
        return {
            "game": self.game,
            "games": n,
            "bots": self.bots,
            "actions": sum(r.actions for r in self.results),
            "seats": seats,
            "rotate": self.rotate,
            "seeds": len({r.seed for r in self.results}),
            "by_bot": self.by_bot(),
        }

    def by_bot(self) -> list[dict[str, Any]]:
        """Per bot string, over every seat it held: mean score, win rate and paired margin."""
        out = []
        for bot in dict.fromkeys(self.bots):
            scores: list[float] = []
            wins = 0.0
            per_seed: dict[int, list[float]] = {}
            for r in self.results:
                seats = r.seats or tuple(self.bots)
                mine = [s for s, b in enumerate(seats) if b == bot]
                rest = [s for s, b in enumerate(seats) if b != bot]
                scores += [r.scores[s] for s in mine]
                wins += sum(1 / len(r.winners) for s in mine if s in r.winners)
                if mine and rest:
                    margin = sum(r.scores[s] for s in mine) / len(mine) - sum(
                        r.scores[s] for s in rest
                    ) / len(rest)
                    per_seed.setdefault(r.seed, []).append(margin)
            margins = [sum(v) / len(v) for v in per_seed.values()]
            out.append(
                {
                    "bot": bot,
                    "seats_played": len(scores),
                    "mean_score": mean_interval(scores).as_dict(),
                    "wins": wins,
                    "win_rate": rate_interval(wins, len(scores)).as_dict(),
                    "margin": mean_interval(margins).as_dict() if margins else None,
                }
            )
        return out


def resolve_bots(game_text: str, bots: Sequence[str] | None) -> list[str]:
    """One bot string per seat: a single name fills every seat."""
    game = load_game(game_text)
    names = list(bots or ["random"])
    if len(names) == 1:
        names = names * game.num_players
    if len(names) != game.num_players:
        raise ValueError(f"{game}: {len(names)} bots given for {game.num_players} seats")
    for name in names:
        make_bot(name, game)  # refuse a bad bot string before any match starts
    return names


def rotated(bots: Sequence[str], rotation: int) -> tuple[str, ...]:
    """The bot list moved ``rotation`` seats round the table: seat ``s`` gets ``bots[(s - r) % n]``."""
    n = len(bots)
    return tuple(bots[(s - rotation) % n] for s in range(n))


Task = tuple[int, tuple[str, ...]]  # (seed, the bot string in each seat)
Batches = Generator[tuple[int, list[MatchResult]], None, None]


def play_chunk(game_text: str, tasks: Sequence[Task], keep: bool) -> list[MatchResult]:
    """Play the tasks in order: each match depends only on its game, seed and seating."""
    game = load_game(game_text)
    out = []
    for seed, names in tasks:
        state = Table(game, names, seed, events=False).play()
        out.append(
            MatchResult(
                seed,
                tuple(state.scores),
                tuple(state.winners),
                len(state.history),
                state.record() if keep else None,
                names,
            )
        )
    return out


class Executor(Protocol):
    """Where matches are played."""

    def run(self, game_text: str, tasks: Sequence[Task], keep_records: bool) -> Batches:
        """Play every task once; yield ``(index of the batch's first task, its results)`` per batch as
        batches finish, in any order, the batches covering the tasks exactly once."""
        ...


@dataclass
class Processes:
    """This process (``jobs`` 1), or a pool of ``jobs`` local worker processes."""

    jobs: int = 1

    def run(self, game_text: str, tasks: Sequence[Task], keep_records: bool) -> Batches:
        if self.jobs <= 1:
            for i, task in enumerate(tasks):
                yield i, play_chunk(game_text, [task], keep_records)
            return
        chunk = max(1, min(50, len(tasks) // (self.jobs * 4) or 1))
        with ProcessPoolExecutor(max_workers=self.jobs) as pool:
            futures = {
                pool.submit(play_chunk, game_text, tasks[i : i + chunk], keep_records): i
                for i in range(0, len(tasks), chunk)
            }
            for future in as_completed(futures):
                yield futures[future], future.result()


def run_matches(
    game_text: str,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    keep_records: bool = False,
    rotate: bool = False,
    executor: Executor | None = None,
    finished: Callable[[int], None] | None = None,
) -> Iterator[MatchResult]:
    """Yield results in order of (seed, rotation), whatever order the executor (``Processes(jobs)`` by
    default) finishes its batches in; ``finished(k)`` is called as each batch of ``k`` matches finishes."""
    names = list(bots)
    rotations = range(len(names)) if rotate else range(1)
    tasks = [(s, rotated(names, r)) for s in range(seed, seed + games) for r in rotations]
    batches = (executor or Processes(jobs)).run(game_text, tasks, keep_records)
    waiting: dict[int, list[MatchResult]] = {}  # finished batches by first task, until their turn
    done = 0  # tasks yielded so far, in order
    try:
        for start, results in batches:
            if start < done or start in waiting or start + len(results) > len(tasks):
                raise RuntimeError(f"{game_text}: a batch of tasks from {start} came back twice")
            waiting[start] = results
            if finished is not None:
                finished(len(results))
            while done in waiting:
                batch = waiting.pop(done)
                done += len(batch)
                yield from batch
    finally:
        batches.close()  # stop the executor's workers if the caller stops early
    if done != len(tasks) or waiting:
        raise RuntimeError(f"{game_text}: {len(tasks) - done} of {len(tasks)} tasks never came back")


def simulate(
    game_text: str,
    bots: Sequence[str] | None,
    games: int,
    seed: int = 0,
    jobs: int = 1,
    records_path: str | None = None,
    progress: Callable[[int], None] | None = None,
    rotate: bool = False,
    executor: Executor | None = None,
) -> SimulationReport:
    """Play ``games`` seeds (times the number of seats with ``rotate``) and collect the results; on
    ``executor`` when given (``jobs`` is then unused), else in ``jobs`` local processes. ``progress(k)``
    is called as each batch of ``k`` matches finishes."""
    names = resolve_bots(game_text, bots)
    report = SimulationReport(str(load_game(game_text)), names, rotate=rotate)
    sink = open(records_path, "w", encoding="utf-8") if records_path else None  # noqa: SIM115
    try:
        matches = run_matches(
            game_text, names, games, seed, jobs, sink is not None, rotate, executor, finished=progress
        )
        for result in matches:
            if sink is not None and (line := result.take_record_line()) is not None:
                sink.write(line + "\n")
            report.results.append(result)
    finally:
        if sink is not None:
            sink.close()
    return report
