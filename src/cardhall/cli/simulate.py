"""``cardhall simulate``: many matches between bots, in processes, with the results' confidence intervals."""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cardhall.cli.common import bot_list
from cardhall.errors import CardhallError
from cardhall.registry import load_game
from cardhall.sim.ray_runner import RayExecutor
from cardhall.sim.simulate import resolve_bots, simulate


def cmd_simulate(args: argparse.Namespace, console: Console) -> int:
    game = load_game(args.game)
    bots = resolve_bots(str(game), bot_list(args.bots))
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
    table = Table(title=f"{summary['games']} matches of {game}", title_justify="left")
    for col in ("seat", "bot", "mean score (95% CI)", "wins", "win rate (95% CI)"):
        table.add_column(col)
    for row in summary["seats"]:
        m, w = row["mean_score"], row["win_rate"]
        table.add_row(
            str(row["seat"]),
            row["bot"],
            f"{m['value']:.1f} [{m['low']:.1f}, {m['high']:.1f}]",
            f"{row['wins']:g}",
            f"{w['value']:.3f} [{w['low']:.3f}, {w['high']:.3f}]",
        )
    console.print(table)
    if args.rotate:
        _print_by_bot(console, summary)
    if args.records:
        console.print(f"Records written to {args.records}")
    return 0


def _print_by_bot(console: Console, summary: dict[str, Any]) -> None:
    title = (
        f"per bot: {summary['seeds']} deals x {len(summary['bots'])} rotations "
        "(margin: mean score minus the other bots', paired by deal)"
    )
    table = Table(title=title, title_justify="left")
    for col in ("bot", "seats", "mean score (95% CI)", "win rate (95% CI)", "margin (95% CI)"):
        table.add_column(col)
    for row in summary["by_bot"]:
        m, w, d = row["mean_score"], row["win_rate"], row["margin"]
        table.add_row(
            row["bot"],
            str(row["seats_played"]),
            f"{m['value']:.1f} [{m['low']:.1f}, {m['high']:.1f}]",
            f"{w['value']:.3f} [{w['low']:.3f}, {w['high']:.3f}]",
            "-" if d is None else f"{d['value']:+.1f} [{d['low']:+.1f}, {d['high']:+.1f}]",
        )
    console.print(table)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    s = sub.add_parser("simulate", help="play many matches with bots and report the results")
    s.add_argument("game")
    s.add_argument("--games", type=int, required=True, help="number of matches")
    s.add_argument("--bots", help="one bot for every seat, or one per seat")
    s.add_argument("--seed", type=int, default=0, help="first seed (matches use seed, seed+1, ...)")
    s.add_argument("--jobs", type=int, default=1, help="worker processes")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument("--records", help="write every match's record to this JSONL file")
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
