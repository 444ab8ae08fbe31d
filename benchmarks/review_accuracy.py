"""The review's headline figure (accuracy) measured on the bots: what each level scores, game by game.

    .venv/bin/python benchmarks/review_accuracy.py [--quick] [--matches N] [--budget B] [--json FILE]
        [--games hokm,kierki,...] [--levels easy,normal,hard]
    .venv/bin/python benchmarks/review_accuracy.py --summarize FILE    # the tables again, by today's formula

Matches: seat 0 is the bot of one level (``easy`` is the ``random`` bot, ``normal`` the ``rules`` bot,
``hard`` the search bot, ``search(ms=300)``: :data:`cardhall.bots.BOT_LEVELS`), every other seat the
``normal`` bot (what a person meets at a table). Each match (seeds 0..N-1) is reviewed for seat 0 at the
default budget and review seed 0, as the server and ``cardhall review`` do. Per game and level the table
gives the mean figure over the matches with its 95% interval (over the matches), the lowest and the
highest, and the figure the previous formula (``REVIEW_VERSION`` 2: the mean of the decisions'
``100 * exp(-counted / scale)``) gave the same decisions, for comparison.

What is kept of each decision (``--json``) is what the figure is made of: the expected deal result of the
move played and of the best move, the loss and its standard error, so ``--summarize`` recomputes the
figure by today's :mod:`cardhall.review` without playing or reviewing again.

Games: short forms, so that a handful of matches is minutes (the figure is per decision, so a match of
two deals reads the same as a long one): Hokm of two hands, Kierki's twelve deals, one-deck Hearts with
four players of two deals, two-player gin of two hands, Svara of four deals. ``--quick`` (a smoke
test): one match per game and level at budget 8, levels easy and normal, Kierki's first deal alone and
Svara of two deals.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import cardhall
from cardhall.bots import BOT_LEVELS
from cardhall.review import DEFAULT_BUDGET, match_accuracy, review, thresholds
from cardhall.table import Table

FORMS = {
    "hokm": "hokm(max_hands=2)",
    "kierki": "kierki",
    "hearts": "hearts(decks=1,players=4,max_hands=2)",
    "gin": "gin(players=2,max_hands=2)",
    "svara": "svara(max_deals=4)",
}
QUICK_FORMS = {**FORMS, "kierki": "kierki(first_deal=1,last_deal=1)", "svara": "svara(max_deals=2)"}
LEVELS = ("easy", "normal", "hard")


def slim(d: dict[str, Any]) -> dict[str, Any]:
    """What the figure is made of, of one reviewed decision."""
    return {
        "deal": d["deal"],
        "legal": d["legal"],
        "searched": d["searched"],
        "played": d["played"]["value"],
        "best": d["best"]["value"],
        "worst": min(c["value"] for c in d["candidates"]),
        "spread": d["best"]["value"] - min(c["value"] for c in d["candidates"]),
        "candidates": len(d["candidates"]),
        "loss": d["loss"],
        "loss_se": d["loss_se"],
    }


def run_match(text: str, level: str, seed: int, budget: int) -> dict[str, Any]:
    game = cardhall.load_game(text)
    seats = [level] + ["normal"] * (game.num_players - 1)
    record = Table(game, seats, seed, events=False).play().record()
    start = time.process_time()
    result = review(record, 0, budget=budget, seed=0)
    state = cardhall.replay(record)
    others = [v for s, v in enumerate(state.scores) if s != 0]
    return {
        "game": game.name,
        "form": text,
        "level": level,
        "seed": seed,
        "won": 0 in state.winners,
        "margin": state.scores[0] - sum(others) / len(others),
        "review_cpu_s": time.process_time() - start,
        "figure": result["match"]["accuracy"],
        "decisions": [slim(d) for d in result["decisions"]],
        "record": record,
    }


def old_figure(form: str, decisions: list[dict[str, Any]]) -> float | None:
    """REVIEW_VERSION 2's accuracy: the mean of ``100 * exp(-max(0, loss - 2 se) / scale)``."""
    if not decisions:
        return None
    scale = thresholds(cardhall.load_game(form)).mistake / math.log(2)
    return sum(100 * math.exp(-max(0.0, d["loss"] - 2 * d["loss_se"]) / scale) for d in decisions) / len(
        decisions
    )


def figure(form: str, decisions: list[dict[str, Any]]) -> float | None:
    """Today's figure of a match's decisions (:func:`cardhall.review.match_accuracy`)."""
    spread = [{**d, "spread": d.get("spread", d["best"] - d["worst"])} for d in decisions]
    return match_accuracy(cardhall.load_game(form), spread)


def mean_ci(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, math.nan
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, 1.96 * sd / math.sqrt(n)


def summarize(matches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for m in matches:
        groups[(m["game"], m["level"])].append(m)
    order = list(FORMS)
    rows = []
    for (game, level), members in sorted(
        groups.items(), key=lambda kv: (order.index(kv[0][0]), LEVELS.index(kv[0][1]))
    ):
        figures = [f for m in members if (f := figure(m["form"], m["decisions"])) is not None]
        olds = [f for m in members if (f := old_figure(m["form"], m["decisions"])) is not None]
        mean, ci = mean_ci(figures)
        rows.append(
            {
                "game": game,
                "level": level,
                "bot": BOT_LEVELS[level],
                "matches": len(members),
                "decisions": sum(len(m["decisions"]) for m in members),
                "won": sum(m["won"] for m in members),
                "figure": mean,
                "figure_ci": ci,
                "lowest": min(figures),
                "highest": max(figures),
                "old": sum(olds) / len(olds),
            }
        )
    return rows


def markdown(rows: list[dict[str, Any]], forms_of: dict[str, str]) -> str:
    out = []
    for game in dict.fromkeys(r["game"] for r in rows):
        out += [
            f"**{game}** (`{forms_of[game]}`)",
            "",
            "| seat 0 | matches | decisions | won | accuracy (95% CI) | lowest | highest | before (v2) |",
            "|---|--:|--:|--:|--:|--:|--:|--:|",
        ]
        for r in (r for r in rows if r["game"] == game):
            ci = "" if math.isnan(r["figure_ci"]) else f" ± {r['figure_ci']:.1f}"
            out.append(
                f"| {r['level']} (`{r['bot']}`) | {r['matches']} | {r['decisions']} | {r['won']} | "
                f"**{r['figure']:.1f}**{ci} | {r['lowest']:.1f} | {r['highest']:.1f} | {r['old']:.1f} |"
            )
        out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="one match per game and level at budget 8")
    p.add_argument("--matches", type=int, default=5, help="matches per game and level (default 5)")
    p.add_argument("--budget", type=int, default=None, help=f"review budget (default {DEFAULT_BUDGET})")
    p.add_argument("--games", default=",".join(FORMS), help="games to measure")
    p.add_argument("--levels", default=",".join(LEVELS), help="levels of seat 0 to measure")
    p.add_argument("--json", help="write every match's decisions and the summary to this JSON file")
    p.add_argument("--summarize", help="summarize the matches of an earlier --json file (no new matches)")
    args = p.parse_args(argv)
    if args.summarize:
        data = json.loads(Path(args.summarize).read_text())
        forms_of = {m["game"]: m["form"] for m in data["matches"]}
        print(markdown(summarize(data["matches"]), forms_of))
        return 0
    matches_each = 1 if args.quick else args.matches
    budget = args.budget or (8 if args.quick else DEFAULT_BUDGET)
    levels = "easy,normal" if args.quick and args.levels == ",".join(LEVELS) else args.levels
    matches: list[dict[str, Any]] = []
    started = time.perf_counter()
    for game in args.games.split(","):
        for level in levels.split(","):
            for seed in range(matches_each):
                text = QUICK_FORMS[game] if args.quick else FORMS[game]
                matches.append(run_match(text, level, seed, budget))
            print(
                f"{game} {level}: {time.perf_counter() - started:.0f} s so far", file=sys.stderr, flush=True
            )
            if args.json:  # kept as it goes: a long run interrupted keeps what it measured
                Path(args.json).write_text(json.dumps({"budget": budget, "matches": matches}) + "\n")
    rows = summarize(matches)
    print(markdown(rows, {m["game"]: m["form"] for m in matches}))
    cpu = sum(m["review_cpu_s"] for m in matches)
    print(
        f"{len(matches)} matches, budget {budget}; {cpu:.0f} CPU s reviewing, "
        f"{time.perf_counter() - started:.0f} s in all"
    )
    if args.json:
        Path(args.json).write_text(json.dumps({"budget": budget, "summary": rows, "matches": matches}) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
