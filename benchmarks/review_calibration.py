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
import itertools
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
from cardhall.games.gin.rules import GinState
from cardhall.review import DEFAULT_BUDGET, review, thresholds, verdict

CLASSES = ("good", "unclear", "inaccuracy", "mistake", "blunder")


# Matches per game form, as a multiple of --matches: Svara's and gin's decisions are cheap to review and
# their measurements noisy (Svara's pots, gin's few flagged decisions per hand), so they get more.
WEIGHT = {"hokm": 1, "kierki": 1, "hearts": 1, "gin": 2, "svara": 3}


def forms(game: str, matches: int) -> list[tuple[str, int]]:
    """(game string, seed) of each match of one game's calibration set."""
    matches *= WEIGHT[game]
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
        # Gin's stock order is hidden from every player: each repeat deals it anew (the same order for
        # both branches), so the measurement averages over what nobody could know, not over the hands.
        order = None
        if isinstance(before, GinState):
            order = list(before.stock)
            random.Random(f"{tag}:stock:{r}").shuffle(order)
        for action in (best, played):
            state = before.clone()
            if order is not None:
                assert isinstance(state, GinState)
                state.stock = list(order)
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


def mistake_unit(game: str) -> float:
    """The game's mistake threshold (its default form's: Svara's is in antes)."""
    return thresholds(cardhall.load_game(game)).mistake


def stats(members: list[dict[str, Any]], unit: float | None) -> dict[str, Any]:
    """Mean predicted and measured losses of some decisions, each loss divided by its game's mistake
    threshold when ``unit`` is None (to pool games), else by ``unit`` (1: points)."""

    def scaled(m: dict[str, Any], key: str) -> float:
        return float(m[key]) / (unit if unit is not None else mistake_unit(m["form"]))

    pred = mean_ci([scaled(m, "predicted") for m in members])
    same = mean_ci([scaled(m, "same_bots") for m in members])
    rules = mean_ci([scaled(m, "rules_bots") for m in members])
    return {
        "n": len(members),
        "predicted": pred[0],
        "same_bots": same[0],
        "same_bots_ci": same[1],
        "rules_bots": rules[0],
        "rules_bots_ci": rules[1],
    }


def summarize(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per game and verdict class (in points), and per class over every game (in mistake thresholds)."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[(row["game"], row["class"])].append(row)
        groups[("all", row["class"])].append(row)
    order = {g: i for i, g in enumerate(["hokm", "kierki", "hearts", "gin", "svara", "all"])}
    out = []
    for (game, cls), members in sorted(
        groups.items(), key=lambda kv: (order[kv[0][0]], CLASSES.index(kv[0][1]))
    ):
        unit = None if game == "all" else 1.0
        out.append(
            {
                "game": game,
                "class": cls,
                **stats(members, unit),
                "mistake_threshold": None if game == "all" else mistake_unit(game),
            }
        )
    return out


# Bins of the predicted loss, in mistake thresholds, for the table of every decision measured.
BINS = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0, math.inf)


def binned(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every decision measured, pooled over the games, by its predicted loss in mistake thresholds."""
    out = []
    for low, high in itertools.pairwise(BINS):
        members = [r for r in rows if low <= r["predicted"] / mistake_unit(r["form"]) < high]
        if members:
            out.append({"low": low, "high": high, **stats(members, None)})
    return out


def cell(row: dict[str, Any], key: str, digits: int = 1) -> str:
    """A mean with its 95% half-width (none for a single decision)."""
    ci = row[key + "_ci"]
    return f"{row[key]:.{digits}f}" + ("" if math.isnan(ci) else f" ± {ci:.{digits}f}")


def markdown(summary: list[dict[str, Any]], bins: list[dict[str, Any]]) -> str:
    head = "| game | verdict | decisions | predicted loss | measured, same bots (95% CI) |"
    lines = [head + " measured, rules bots (95% CI) |", "|---|---|--:|--:|--:|--:|"]
    for s in summary:
        digits = 2 if s["game"] == "all" else 1
        lines.append(
            f"| {s['game']} | {s['class']} | {s['n']} | {s['predicted']:.{digits}f} | "
            f"{cell(s, 'same_bots', digits)} | {cell(s, 'rules_bots', digits)} |"
        )
    lines += ["", "(rows `all`: every game, each loss in its game's mistake thresholds)", ""]
    lines += [
        "| predicted loss (mistake thresholds) | decisions | mean predicted | measured, same bots |"
        " measured, rules bots |",
        "|---|--:|--:|--:|--:|",
    ]
    for b in bins:
        span = f"{b['low']:g} and more" if math.isinf(b["high"]) else f"{b['low']:g} to {b['high']:g}"
        lines.append(
            f"| {span} | {b['n']} | {b['predicted']:.2f} | {cell(b, 'same_bots', 2)} | "
            f"{cell(b, 'rules_bots', 2)} |"
        )
    return "\n".join(lines)


def plot(summary: list[dict[str, Any]], path: Path) -> None:
    """Predicted against measured loss per game and flagged verdict class, in mistake thresholds, on a
    scale ``log2(1 + x)`` (even at 0, steady for the large losses): same bots filled, rules bots hollow."""
    import os

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    pygame.font.init()
    w, h, margin = 900, 720, 90
    legend = 250  # a column right of the axes for the legend
    surface = pygame.Surface((w + legend, h))
    surface.fill((255, 255, 255))
    font = pygame.font.Font(None, 24)
    small = pygame.font.Font(None, 20)
    black, grey = (0, 0, 0), (190, 190, 190)
    ticks = [0, 0.5, 1, 2, 4, 8, 16]
    top = math.log2(1 + 24)

    def f(v: float) -> float:
        return math.copysign(math.log2(1 + abs(v)), v)

    def xy(x: float, y: float) -> tuple[int, int]:
        fx, fy = max(0.0, min(top, f(x))), max(0.0, min(top, f(y)))
        return (int(margin + fx / top * (w - 2 * margin)), int(h - margin - fy / top * (h - 2 * margin)))

    pygame.draw.line(surface, black, xy(0, 0), xy(24, 0), 2)
    pygame.draw.line(surface, black, xy(0, 0), xy(0, 24), 2)
    steps = [i / 20 * 24 for i in range(0, 401)]
    pygame.draw.lines(surface, grey, False, [xy(v, v) for v in steps], 2)
    for t in ticks:
        (x0, y0), (x1, y1) = xy(t, 0), xy(0, t)
        pygame.draw.line(surface, black, (x0, y0), (x0, y0 + 6), 1)
        pygame.draw.line(surface, black, (x1, y1), (x1 - 6, y1), 1)
        label = small.render(f"{t:g}", True, black)
        surface.blit(label, (x0 - label.get_width() // 2, y0 + 10))
        surface.blit(label, (x1 - 12 - label.get_width(), y1 - 7))
    xlabel = font.render("predicted loss (mistake thresholds of the game)", True, black)
    surface.blit(xlabel, (w // 2 - xlabel.get_width() // 2, h - 45))
    ylabel = pygame.transform.rotate(font.render("measured loss (mistake thresholds)", True, black), 90)
    surface.blit(ylabel, (15, h // 2 - ylabel.get_height() // 2))
    title = "cardhall review: predicted against measured loss, per game and verdict (95% intervals)"
    surface.blit(font.render(title, True, black), (margin - 40, 22))
    colours = {
        "hokm": (31, 119, 180),
        "kierki": (214, 39, 40),
        "hearts": (44, 160, 44),
        "gin": (148, 103, 189),
        "svara": (255, 127, 14),
    }
    sizes = {"inaccuracy": 5, "mistake": 7, "blunder": 10}
    for s in summary:
        if s["game"] == "all" or s["class"] not in sizes:
            continue
        unit, c, r = s["mistake_threshold"], colours[s["game"]], sizes[s["class"]]
        for key, dx, filled in (("same_bots", -4, True), ("rules_bots", 4, False)):
            x, y = s["predicted"] / unit, s[key] / unit
            ci = 0.0 if math.isnan(s[key + "_ci"]) else s[key + "_ci"] / unit
            px, py = xy(x, y)
            lo, hi = xy(x, y - ci)[1], xy(x, y + ci)[1]
            pygame.draw.line(surface, c, (px + dx, lo), (px + dx, hi), 2)
            pygame.draw.circle(surface, c, (px + dx, py), r, 0 if filled else 2)
    lx, ly = w - margin + 30, margin
    for game, c in colours.items():
        pygame.draw.circle(surface, c, (lx + 20, ly + 8), 7)
        surface.blit(font.render(game, True, black), (lx + 34, ly))
        ly += 24
    for cls, r in sizes.items():
        pygame.draw.circle(surface, black, (lx + 20, ly + 8), r, 1)
        surface.blit(font.render(cls, True, black), (lx + 36, ly))
        ly += 26
    for text in (
        "filled: the same bots finish the deal",
        "hollow: rules bots finish it",
        "grey: measured = predicted",
    ):
        surface.blit(small.render(text, True, black), (lx + 12, ly + 2))
        ly += 20
    pygame.image.save(surface, str(path))


def resummarize(path: Path, plot_to: str | None) -> int:
    """The table (and plot) of an earlier run's decisions, each classed again by today's thresholds."""
    data = json.loads(path.read_text())
    rows = data["decisions"]
    for row in rows:
        limits = thresholds(cardhall.load_game(row["form"]))
        row["class"] = verdict(row["predicted"], row["se"], limits) or "unclear"
    summary = summarize(rows)
    print(markdown(summary, binned(rows)))
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
    bins = binned(rows)
    print(markdown(summary, bins))
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
