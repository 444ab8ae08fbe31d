"""Is the review calibrated? Decisions it flags must cost, on the real cards, about the loss it predicted.

    .venv/bin/python benchmarks/review_calibration.py [--quick] [--matches N] [--budget B] [--json FILE]
        [--plot FILE] [--games hokm,kierki,...]

Matches: seat 0 is a "noisy rules" player (the rules bot's move, or with probability ``--noise``, 0.25, a
uniform legal move: a player who errs, so every verdict class gets examples), the other seats the rules
bot. Each match is reviewed for seat 0 by :func:`cardhall.review.review` at the default budget, from seat
0's observations only. Then, for every decision where the review's best move is not the move played,
the **true** state before the decision (the record replayed up to it: the real hidden cards) is played
on twice, once with the move played and once with the best move, to the end of the deal, by

- *the same bots* that played the match (seat 0 still noisy), and
- *rules bots* in every seat (the continuation the review's values assume),

``--repeats`` (4) times each, the two branches of a repeat on the same bot seeds (paired). The measured
loss of a decision is the mean over the repeats of the deal value (the seat's points minus the others'
mean, from the review) after the best move minus after the move played. Per game and verdict class the
table gives the mean predicted loss and the mean measured loss with a 95% interval over the decisions;
calibrated means the two agree. A decision whose best move is the move played has loss 0 both ways and
is only counted.

Games: short forms, so a match is a deal or two (each game's thresholds are the full game's): Hokm of
two hands, Kierki one deal per match (each of the 12 in turn, by seed), Hearts with one deck and four
players and with two decks and six, two-player and three-hand gin of one hand, Svara of three deals.
``--quick`` (a smoke test): one match per game form at budget 40, no plot.

The plot (``--plot``, needs pygame, part of the ``bench`` extra): predicted against measured loss per
game and verdict class, both in units of the game's mistake threshold, with the 95% intervals.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import cardhall
from cardhall.bots import make_bot
from cardhall.bots.base import Bot
from cardhall.bots.search import rollout_value
from cardhall.core import Game, Observation, Record, State
from cardhall.review import DEFAULT_BUDGET, review, thresholds, verdict

CLASSES = ("good", "unclear", "inaccuracy", "mistake", "blunder")


def forms(game: str, matches: int) -> list[tuple[str, int]]:
    """(game string, seed) of each match of one game's calibration set."""
    if game == "kierki":  # one deal per match, every deal of the twelve in turn
        return [(f"kierki(first_deal={s % 12 + 1},last_deal={s % 12 + 1})", s) for s in range(matches)]
    strings = {
        "hokm": ["hokm(max_hands=2)"],
        "hearts": ["hearts(decks=1,players=4,max_hands=1)", "hearts(max_hands=1)"],
        "gin": ["gin(players=2,max_hands=1)", "gin(max_hands=1)"],
        "svara": ["svara(max_deals=3)"],
    }[game]
    # Two-deck Hearts costs about three times one-deck Hearts per decision: a third of the matches.
    out: list[tuple[str, int]] = []
    for i, text in enumerate(strings):
        share = matches if i == 0 or game != "hearts" else max(1, matches // 3)
        out += [(text, s) for s in range(share)]
    return out


class Noisy:
    """The rules bot, except that with probability ``noise`` it plays a uniform legal move."""

    name = "noisy"

    def __init__(self, game: Game, noise: float) -> None:
        self.rules = make_bot("rules", game)
        self.noise = noise

    def act(self, observation: Observation, legal_actions: list[int], rng: random.Random) -> int:
        if rng.random() < self.noise:
            return legal_actions[rng.randrange(len(legal_actions))]
        return self.rules.act(observation, legal_actions, rng)


def play_on(state: State, bots: list[Bot], rngs: list[random.Random], stop: int | None) -> None:
    """Play ``state`` on with ``bots`` until the deal ``stop`` ends (None: the match)."""
    while not state.is_over and (stop is None or state.deals_finished == stop):
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            action = legal[0]
        else:
            action = bots[seat].act(state.observation(seat, ints=True), legal, rngs[seat])
        state.apply_unchecked(seat, action)


def play_match(text: str, seed: int, noise: float) -> Record:
    game = cardhall.load_game(text)
    bots: list[Bot] = [Noisy(game, noise)] + [make_bot("rules", game) for _ in range(game.num_players - 1)]
    rngs = [random.Random(f"calibration:{text}:{seed}:{s}") for s in range(game.num_players)]
    state = game.new_game(seed=seed)
    play_on(state, bots, rngs, None)
    return state.record()


def states_before(record: Record, indices: set[int]) -> dict[int, State]:
    """The true state before each given action of the record."""
    state = cardhall.replay({**record, "actions": []})
    out = {}
    for i, (seat, action) in enumerate(record["actions"]):
        if i in indices:
            out[i] = state.clone()
        state.apply(seat, action)
    return out


def measured_loss(before: State, played: int, best: int, bots: list[Bot], tag: str, repeats: int) -> float:
    """Mean over paired repeats of the deal value after ``best`` minus after ``played`` (seat 0)."""
    stop = before.deals_finished
    total = 0.0
    for r in range(repeats):
        values = []
        for action in (best, played):
            state = before.clone()
            state.apply_unchecked(0, action)
            rngs = [random.Random(f"{tag}:{r}:{s}") for s in range(len(bots))]
            play_on(state, bots, rngs, stop)
            values.append(rollout_value(state, 0))
        total += values[0] - values[1]
    return total / repeats


def calibrate_match(
    text: str, seed: int, budget: int, noise: float, repeats: int
) -> tuple[list[dict[str, Any]], int, float]:
    """The measured decisions of one match, the number whose best move was the move played, and the
    review's CPU seconds."""
    record = play_match(text, seed, noise)
    start = time.process_time()
    result = review(record, 0, budget=budget, seed=seed)
    seconds = time.process_time() - start
    game = cardhall.load_game(text)
    same: list[Bot] = [Noisy(game, noise)] + [make_bot("rules", game) for _ in range(game.num_players - 1)]
    rules: list[Bot] = [make_bot("rules", game) for _ in range(game.num_players)]
    flagged = [d for d in result["decisions"] if d["best"]["action"] != d["played"]["action"]]
    before = states_before(record, {d["index"] for d in flagged})
    out = []
    for d in flagged:
        state = before[d["index"]]
        played, best = d["played"]["action"], d["best"]["action"]
        tag = f"measure:{text}:{seed}:{d['index']}"
        out.append(
            {
                "game": game.name,
                "form": text,
                "seed": seed,
                "index": d["index"],
                "class": d["verdict"] or "unclear",
                "predicted": d["loss"],
                "se": d["loss_se"],
                "same_bots": measured_loss(state, played, best, same, tag, repeats),
                "rules_bots": measured_loss(state, played, best, rules, tag, repeats),
            }
        )
    return out, len(result["decisions"]) - len(flagged), seconds


def mean_ci(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% normal interval."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, math.nan
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, 1.96 * sd / math.sqrt(n)


def summarize(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[(row["game"], row["class"])].append(row)
        if row["class"] in ("mistake", "blunder", "inaccuracy"):
            groups[("all", row["class"])].append(row)
    order = {g: i for i, g in enumerate(["hokm", "kierki", "hearts", "gin", "svara", "all"])}
    out = []
    for (game, cls), members in sorted(
        groups.items(), key=lambda kv: (order[kv[0][0]], CLASSES.index(kv[0][1]))
    ):
        pred = mean_ci([m["predicted"] for m in members])
        same = mean_ci([m["same_bots"] for m in members])
        rules = mean_ci([m["rules_bots"] for m in members])
        out.append(
            {
                "game": game,
                "class": cls,
                "n": len(members),
                "predicted": pred[0],
                "same_bots": same[0],
                "same_bots_ci": same[1],
                "rules_bots": rules[0],
                "rules_bots_ci": rules[1],
                "mistake_threshold": None if game == "all" else thresholds(cardhall.load_game(game)).mistake,
            }
        )
    return out


def cell(row: dict[str, Any], key: str) -> str:
    """A mean with its 95% half-width (none for a single decision)."""
    ci = row[key + "_ci"]
    return f"{row[key]:.1f}" + ("" if math.isnan(ci) else f" ± {ci:.1f}")


def markdown(summary: list[dict[str, Any]]) -> str:
    head = "| game | verdict | decisions | predicted loss | measured, same bots (95% CI) |"
    lines = [head + " measured, rules bots (95% CI) |", "|---|---|--:|--:|--:|--:|"]
    for s in summary:
        lines.append(
            f"| {s['game']} | {s['class']} | {s['n']} | {s['predicted']:.1f} | {cell(s, 'same_bots')} | "
            f"{cell(s, 'rules_bots')} |"
        )
    return "\n".join(lines)


def plot(summary: list[dict[str, Any]], path: Path) -> None:
    """Predicted against measured loss (same bots) per game and verdict class, in mistake thresholds."""
    import os

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    pygame.font.init()
    w, h, margin = 900, 700, 80
    surface = pygame.Surface((w, h))
    surface.fill((255, 255, 255))
    font = pygame.font.Font(None, 22)
    small = pygame.font.Font(None, 18)
    points = [s for s in summary if s["game"] != "all" and s["class"] in ("inaccuracy", "mistake", "blunder")]
    top = max(
        [
            4.0,
            *(
                max(s["predicted"], s["same_bots"] + (s["same_bots_ci"] or 0)) / s["mistake_threshold"]
                for s in points
                if not math.isnan(s["same_bots_ci"] or 0)
            ),
        ]
    )
    top = math.ceil(top)

    def xy(x: float, y: float) -> tuple[int, int]:
        return (int(margin + x / top * (w - 2 * margin)), int(h - margin - y / top * (h - 2 * margin)))

    black, grey = (0, 0, 0), (200, 200, 200)
    pygame.draw.line(surface, black, xy(0, 0), xy(top, 0), 2)
    pygame.draw.line(surface, black, xy(0, 0), xy(0, top), 2)
    pygame.draw.line(surface, grey, xy(0, 0), xy(top, top), 2)
    for t in range(top + 1):
        pygame.draw.line(surface, black, xy(t, 0), (xy(t, 0)[0], xy(t, 0)[1] + 6), 1)
        pygame.draw.line(surface, black, xy(0, t), (xy(0, t)[0] - 6, xy(0, t)[1]), 1)
        label = small.render(str(t), True, black)
        surface.blit(label, (xy(t, 0)[0] - 4, xy(t, 0)[1] + 10))
        surface.blit(label, (xy(0, t)[0] - 22, xy(0, t)[1] - 6))
    surface.blit(font.render("predicted loss (in mistake thresholds)", True, black), (w // 2 - 150, h - 35))
    ylabel = pygame.transform.rotate(
        font.render("measured loss, same bots (in mistake thresholds)", True, black), 90
    )
    surface.blit(ylabel, (12, h // 2 - ylabel.get_height() // 2))
    title = "Review calibration: predicted vs measured loss per game and verdict (95% CI)"
    surface.blit(font.render(title, True, black), (margin, 20))
    colours = {
        "hokm": (31, 119, 180),
        "kierki": (214, 39, 40),
        "hearts": (44, 160, 44),
        "gin": (148, 103, 189),
        "svara": (255, 127, 14),
    }
    shapes = {"inaccuracy": 5, "mistake": 7, "blunder": 9}
    for s in points:
        k = s["mistake_threshold"]
        x, y = s["predicted"] / k, s["same_bots"] / k
        ci = s["same_bots_ci"] / k if not math.isnan(s["same_bots_ci"]) else 0.0
        c = colours[s["game"]]
        pygame.draw.line(surface, c, xy(x, max(0.0, y - ci)), xy(x, min(top, y + ci)), 2)
        pygame.draw.circle(surface, c, xy(x, y), shapes[s["class"]])
    ly = 60
    for game, c in colours.items():
        pygame.draw.circle(surface, c, (margin + 20, ly + 8), 6)
        surface.blit(font.render(game, True, black), (margin + 32, ly))
        ly += 22
    for cls, r in shapes.items():
        pygame.draw.circle(surface, black, (margin + 20, ly + 8), r, 1)
        surface.blit(font.render(cls, True, black), (margin + 36, ly))
        ly += 24
    surface.blit(small.render("grey: measured = predicted", True, black), (margin + 12, ly + 4))
    pygame.image.save(surface, str(path))


def resummarize(path: Path, plot_to: str | None) -> int:
    """The table (and plot) of an earlier run's decisions, each classed again by today's thresholds."""
    data = json.loads(path.read_text())
    rows = data["decisions"]
    for row in rows:
        limits = thresholds(cardhall.load_game(row["form"]))
        row["class"] = verdict(row["predicted"], row["se"], limits) or "unclear"
    summary = summarize(rows)
    print(markdown(summary))
    if plot_to:
        plot(summary, Path(plot_to))
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="one match per game form at budget 40 (a smoke test)")
    p.add_argument("--matches", type=int, default=24, help="matches per game form (default 24)")
    p.add_argument("--budget", type=int, default=None, help=f"review budget (default {DEFAULT_BUDGET})")
    p.add_argument("--noise", type=float, default=0.25, help="seat 0's chance of a uniform move (0.25)")
    p.add_argument("--repeats", type=int, default=4, help="paired continuations per measured decision (4)")
    p.add_argument("--games", default="hokm,kierki,hearts,gin,svara", help="games to calibrate")
    p.add_argument("--json", help="write the decisions and the summary to this JSON file")
    p.add_argument("--plot", help="write the plot to this PNG file (needs pygame)")
    p.add_argument("--summarize", help="summarize the decisions of an earlier --json file (no new matches)")
    args = p.parse_args(argv)
    if args.summarize:
        return resummarize(Path(args.summarize), args.plot)
    matches = 1 if args.quick else args.matches
    budget = args.budget or (40 if args.quick else DEFAULT_BUDGET)
    rows: list[dict[str, Any]] = []
    counts = {"matched_best": 0, "reviewed": 0, "review_seconds": 0.0}
    started = time.perf_counter()
    for game in args.games.split(","):
        for text, seed in forms(game, matches):
            measured, agreed, seconds = calibrate_match(text, seed, budget, args.noise, args.repeats)
            rows += measured
            counts["matched_best"] += agreed
            counts["reviewed"] += agreed + len(measured)
            counts["review_seconds"] += seconds
        print(
            f"{game}: {sum(r['game'] == game for r in rows)} decisions measured, "
            f"{time.perf_counter() - started:.0f} s so far",
            file=sys.stderr,
        )
    summary = summarize(rows)
    print(markdown(summary))
    print(
        f"\n{counts['reviewed']} decisions reviewed at budget {budget}, {counts['matched_best']} of them "
        f"with the best move played; {counts['review_seconds']:.0f} CPU s reviewing, "
        f"{time.perf_counter() - started:.0f} s in all"
    )
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {"budget": budget, "noise": args.noise, **counts, "summary": summary, "decisions": rows},
                indent=1,
            )
            + "\n"
        )
    if args.plot:
        plot(summary, Path(args.plot))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
