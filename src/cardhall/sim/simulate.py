"""Many matches with bots: seeds ``seed, seed+1, ...``, optionally over several processes.

Results are per seat: mean final score and win rate with 95% confidence intervals. A shared win (tied
winners) counts as ``1 / number of winners`` for each, so win rates sum to 1.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from cardhall.bots import make_bot
from cardhall.core import Record
from cardhall.registry import load_game
from cardhall.sim.play import play_match
from cardhall.sim.stats import mean_interval, rate_interval


@dataclass
class MatchResult:
    seed: int
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    actions: int
    record: Record | None = None


@dataclass
class SimulationReport:
    game: str
    bots: list[str]
    results: list[MatchResult] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        n = len(self.results)
        seats = []
        for seat, bot in enumerate(self.bots):
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
        }


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


def _play_chunk(game_text: str, bots: list[str], seeds: list[int], keep: bool) -> list[MatchResult]:
    game = load_game(game_text)
    players = [make_bot(b, game) for b in bots]
    out = []
    for seed in seeds:
        state = play_match(game, players, seed)
        out.append(
            MatchResult(
                seed,
                tuple(state.scores),
                tuple(state.winners),
                len(state.history),
                state.record() if keep else None,
            )
        )
    return out


def run_matches(
    game_text: str,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    keep_records: bool = False,
) -> Iterator[MatchResult]:
    """Yield results as matches finish (in seed order within a process's chunk)."""
    names = list(bots)
    seeds = list(range(seed, seed + games))
    if jobs <= 1:
        for s in seeds:
            yield from _play_chunk(game_text, names, [s], keep_records)
        return
    chunk = max(1, min(50, games // (jobs * 4) or 1))
    batches = [seeds[i : i + chunk] for i in range(0, len(seeds), chunk)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(_play_chunk, game_text, names, b, keep_records) for b in batches]
        for fut in futures:
            yield from fut.result()


def simulate(
    game_text: str,
    bots: Sequence[str] | None,
    games: int,
    seed: int = 0,
    jobs: int = 1,
    records_path: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimulationReport:
    names = resolve_bots(game_text, bots)
    report = SimulationReport(str(load_game(game_text)), names)
    sink = open(records_path, "w", encoding="utf-8") if records_path else None  # noqa: SIM115
    try:
        for result in run_matches(game_text, names, games, seed, jobs, sink is not None):
            if sink is not None and result.record is not None:
                sink.write(json.dumps(result.record) + "\n")
                result.record = None
            report.results.append(result)
            if progress is not None:
                progress(1)
    finally:
        if sink is not None:
            sink.close()
    return report
