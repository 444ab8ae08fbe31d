"""``cardhall simulate``: many matches between bots, in processes or on Ray (``--ray``), with the results'
confidence intervals.

Everything is checked before the first match is played, so a mistake costs nothing: ``--jobs`` is
1..4 per core of this machine (matches are CPU-bound, so processes beyond the cores only share them; the
small multiple leaves room for a machine whose cores are shared, and more is refused as a likely typo
that would start that many processes), the seeds ``seed..seed+games-1`` must be valid seeds, and
``--records`` must name a file (not a folder) in a folder that exists and may be written.

The tables count seats from 1, as a person does everywhere (:mod:`cardhall.terminal.seats`); ``--json``
keeps the engine's seats, from 0, as the API does.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cardhall.cli.common import bot_list
from cardhall.core import Game, check_seed
from cardhall.errors import CardhallError
from cardhall.registry import load_game
from cardhall.sim.ray_runner import RayExecutor
from cardhall.sim.simulate import resolve_bots, simulate
from cardhall.terminal.seats import shown


def cmd_simulate(args: argparse.Namespace, console: Console) -> int:
    game = load_game(args.game)
    bots = resolve_bots(str(game), bot_list(args.bots))
    _check_args(args, game)
    if args.games < 1:
        raise CardhallError(f"--games must be at least 1, got {args.games}")
    executor = RayExecutor(args.ray, args.jobs if args.jobs > 1 else None) if args.ray else None
    err = Console(stderr=True)
    with Progress(
        TextColumn(f"{game}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=args.quiet,
    ) as progress:
        total = args.games * (game.num_players if args.rotate else 1)
        task = progress.add_task("simulate", total=total)
        report = simulate(
            str(game),
            bots,
            args.games,
            args.seed,
            args.jobs,
            args.records,
            progress=lambda k: progress.advance(task, k),
            rotate=args.rotate,
            executor=executor,
        )
    summary = report.summary()
    if args.json:
        print(json.dumps(summary))
        return 0
    table = Table(title=f"{summary['games']} matches of {game}", title_justify="left", **TABLE_STYLE)
    for col in ("seat", "bot", "mean score", "wins", "win rate"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for row in summary["seats"]:
        table.add_row(
            str(shown(row["seat"])),
            row["bot"],
            plus_minus(row["mean_score"]),
            f"{row['wins']:g}",
            percent(row["win_rate"]),
        )
    console.print(table)
    if args.rotate:
        _print_by_bot(console, summary)
    else:
        console.print(INTERVALS, markup=False)
    if args.records:
        console.print(f"Records written to {args.records}")
    return 0


# The tables fit 80 columns (issue 51): no vertical rules, the intervals written short.
TABLE_STYLE: dict[str, Any] = {"box": box.SIMPLE_HEAD, "pad_edge": False, "show_edge": False}
INTERVALS = "(± and [low, high]: 95% intervals; a shared win counts as a fraction)"


def max_jobs() -> int:
    """The most worker processes ``--jobs`` takes: 4 per core this process may run on."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        cores = os.cpu_count() or 1
    return 4 * cores


def _check_args(args: argparse.Namespace, game: Game) -> None:
    if not 1 <= args.jobs <= max_jobs():
        raise CardhallError(f"--jobs must be 1..{max_jobs()} (4 per core here), got {args.jobs}")
    last = args.seed + args.games - 1
    try:
        check_seed(game, args.seed)
        check_seed(game, last)
    except CardhallError:
        raise CardhallError(
            f"--seed: the matches use seeds {args.seed}..{last}, which must lie in 0..2**63-1"
        ) from None
    if args.records:
        path = Path(args.records)
        folder = path.parent
        if path.is_dir():
            raise CardhallError(f"--records {args.records}: that is a folder; give a file name in it")
        if not folder.is_dir():
            raise CardhallError(f"--records {args.records}: folder {str(folder)!r} does not exist")
        if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
            raise CardhallError(f"--records {args.records}: not allowed to write there")


def _print_by_bot(console: Console, summary: dict[str, Any]) -> None:
    title = (
        f"per bot: {summary['seeds']} deals x {len(summary['bots'])} rotations "
        "(margin: mean score minus the other bots', paired by deal)"
    )
    table = Table(title=title, title_justify="left", **TABLE_STYLE)
    for col in ("bot", "seats", "mean score", "win rate", "margin"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for row in summary["by_bot"]:
        d = row["margin"]
        table.add_row(
            row["bot"],
            str(row["seats_played"]),
            plus_minus(row["mean_score"]),
            percent(row["win_rate"]),
            "-" if d is None else plus_minus(d, sign=True),
        )
    console.print(table)
    console.print(INTERVALS, markup=False)


def plus_minus(ci: dict[str, float], sign: bool = False) -> str:
    """A mean and its (symmetric, normal) 95% interval: ``-71.7 ± 34.8``."""
    half = (ci["high"] - ci["low"]) / 2
    return f"{ci['value']:{'+' if sign else ''}.1f} ± {half:.1f}"


def percent(ci: dict[str, float]) -> str:
    """A rate and its (Wilson, not symmetric) 95% interval, in percent: ``83.3% [43.6, 97.0]``."""
    return f"{100 * ci['value']:.1f}% [{100 * ci['low']:.1f}, {100 * ci['high']:.1f}]"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    s = sub.add_parser("simulate", help="play many matches with bots and report the results")
    s.add_argument("game", help="game string, e.g. hokm or 'hokm(max_hands=5)'")
    s.add_argument("--games", type=int, required=True, help="number of matches")
    s.add_argument(
        "--bots",
        help="one bot for every seat, or one per seat: random, rules, search(ms=500), "
        "or a level: easy, normal, hard, expert (default random)",
    )
    s.add_argument("--seed", type=int, default=0, help="first seed (matches use seed, seed+1, ...)")
    s.add_argument(
        "--jobs", type=int, default=1, help=f"worker processes, 1..{max_jobs()} (4 per core here; default 1)"
    )
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument("--records", help="write every match's record to this JSONL file (replaced if it exists)")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="play on Ray: a local Ray started for the run (with --jobs CPUs), 'auto', or a cluster's "
        "address; the results and records are those of --jobs 1",
    )
    s.add_argument(
        "--rotate",
        action="store_true",
        help="duplicate deals: play each seed once per rotation of the bots round the table, "
        "and report per bot",
    )
