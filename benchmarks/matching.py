"""Play now, simulated: people arrive as a Poisson process for one pool (Hokm's 3 seats, Kierki's 4,
Hearts' 8), waves of :func:`cardhall.server.matching.match` run every ``--wave`` seconds and at once when
a table's worth is waiting, tables made by it play deals of a fixed length, and their bots' seats are
offered to people at each deal's start. Virtual time: what is measured is the policy (waits, the share of
seats held by people, ratings spread at a table) and the matcher's own CPU per person matched.

    python benchmarks/matching.py                       # every rate and game of benchmarks/matching.md
    python benchmarks/matching.py --rates 1 --games hokm --minutes 5

Prints one row per (game, rate) in Markdown. Ratings are drawn from N(1500, 150) on the shown scale.
"""

from __future__ import annotations

import argparse
import heapq
import random
import time
from dataclasses import dataclass, field

from cardhall.server.matching import BOT_WAIT, OpenTable, Seeker, match
from cardhall.server.matchmaker import WAVE_GAP

GAMES = {  # seats, seconds a deal lasts, deals a match (as played through the page: issue 46's runs)
    "hokm": (3, 50.0, 12),
    "kierki": (4, 75.0, 12),
    "hearts": (8, 110.0, 6),
}
RATES = (0.05, 0.2, 1.0, 10.0, 100.0)


@dataclass
class Table:
    name: str
    seats: int
    people: list[Seeker]
    bots: int
    deals_left: int
    next_deal: float = 0.0
    joining: list[Seeker] = field(default_factory=list)  # took a bot's seat; sit at the next deal


@dataclass
class Result:
    waits: list[float] = field(default_factory=list)
    people_seats: int = 0
    seats: int = 0
    spreads: list[float] = field(default_factory=list)
    cpu: float = 0.0
    matched: int = 0
    never: int = 0  # still waiting at the end, past his bound (an error of the policy if any)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def simulate(game: str, rate: float, minutes: float, wave_every: float, seed: int, mix: bool) -> Result:
    seats, deal_seconds, deals = GAMES[game]
    rng = random.Random(seed)
    end = minutes * 60
    arrivals, t, i = [], 0.0, 0
    while True:
        t += rng.expovariate(rate)
        if t > end:
            break
        r = rng.random()
        choice = "after_wait" if not mix or r < 0.8 else ("now" if r < 0.9 else "people_only")
        arrivals.append(Seeker(f"p{i}", rng.gauss(1500, 150), t, choice))  # type: ignore[arg-type]
        i += 1
    result = Result()
    events: list[tuple[float, int, str, object]] = []  # (time, order, kind, what)
    order = 0
    for a in arrivals:
        events.append((a.since, order, "arrive", a))
        order += 1
    t = wave_every
    while t <= end + BOT_WAIT + 2 * wave_every:
        events.append((t, order, "wave", None))
        order += 1
        t += wave_every
    heapq.heapify(events)
    waiting: dict[str, Seeker] = {}
    tables: dict[str, Table] = {}
    count = 0

    def deal(table: Table, now: float) -> None:
        nonlocal order
        for s in table.joining:
            result.waits.append(now - s.since)
            table.people.append(s)
            table.bots -= 1
        table.joining.clear()
        result.people_seats += len(table.people)
        result.seats += table.seats
        table.deals_left -= 1
        table.next_deal = now + deal_seconds
        heapq.heappush(events, (table.next_deal, order, "deal", table.name))
        order += 1

    def run_wave(now: float) -> None:
        nonlocal count
        offered = [
            OpenTable(tb.name, tuple(tb.people + tb.joining), tb.bots - len(tb.joining), tb.next_deal)
            for tb in tables.values()
            if tb.bots - len(tb.joining) > 0 and tb.deals_left >= 1
        ]
        started = time.perf_counter()
        wave = match(waiting.values(), seats, now, open_tables=offered)
        result.cpu += time.perf_counter() - started
        for made in wave.tables:
            people = [waiting.pop(p) for p in made.players]
            result.matched += len(people)
            result.waits.extend(now - s.since for s in people)
            if len(people) > 1:
                result.spreads.append(max(s.rating for s in people) - min(s.rating for s in people))
            count += 1
            table = Table(f"t{count}", seats, people, made.bots, deals)
            tables[table.name] = table
            deal(table, now)
        for takeover in wave.takeovers:
            result.matched += 1
            tables[takeover.table].joining.append(waiting.pop(takeover.player))

    last_wave, soon = -WAVE_GAP, False
    while events:
        now, _, kind, what = heapq.heappop(events)
        if kind == "arrive":
            assert isinstance(what, Seeker)
            waiting[what.player] = what
            if len(waiting) >= seats or what.choice == "now":
                if now - last_wave >= WAVE_GAP:
                    last_wave = now
                    run_wave(now)
                elif not soon:  # (as the matchmaker's loop: waves at most every WAVE_GAP seconds)
                    soon = True
                    heapq.heappush(events, (last_wave + WAVE_GAP, order, "soon", None))
                    order += 1
        elif kind in ("wave", "soon"):
            soon = soon and kind != "soon"
            last_wave = now
            run_wave(now)
        else:
            table = tables[str(what)]
            if table.deals_left <= 0:
                del tables[table.name]
                for s in table.joining:  # (the match ended first: back to waiting, as he pressed)
                    waiting[s.player] = s
            else:
                deal(table, now)
    last = end + BOT_WAIT + 2 * wave_every
    result.never = sum(1 for s in waiting.values() if s.choice != "people_only" and s.since + BOT_WAIT < last)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated: " + ", ".join(GAMES))
    parser.add_argument(
        "--rates", default=",".join(str(r) for r in RATES), help="people a second, comma-separated"
    )
    parser.add_argument(
        "--minutes", type=float, default=0.0, help="virtual minutes (0: 60 at 0.05/s down to 5)"
    )
    parser.add_argument("--wave", type=float, default=2.0, help="seconds between waves")
    parser.add_argument("--mix", action="store_true", help="10%% with bots now, 10%% people only")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    games = args.games.split(",")
    for g in games:
        if g not in GAMES:
            parser.error(f"--games: {g!r} is none of {', '.join(GAMES)}")
    try:
        rates = [float(r) for r in args.rates.split(",")]
    except ValueError:
        parser.error(f"--rates: {args.rates!r} is not numbers separated by commas")
    if any(r <= 0 for r in rates):
        parser.error("--rates: every rate must be above 0")
    print(
        "| game | people/s | people | wait p50 | p90 | max | seats held by people | spread p50 | p90 | "
        "matcher µs a person | past the bound |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for game in games:
        for rate in rates:
            minutes = args.minutes or max(5.0, min(60.0, 300 / rate / 60 * 2))
            r = simulate(game, rate, minutes, args.wave, args.seed, args.mix)
            share = r.people_seats / r.seats if r.seats else float("nan")
            per = r.cpu / r.matched * 1e6 if r.matched else float("nan")
            waits = f"{pct(r.waits, 0.5):.1f} s | {pct(r.waits, 0.9):.1f} s"
            print(
                f"| {game} | {rate:g} | {len(r.waits)} | {waits} | "
                f"{max(r.waits, default=float('nan')):.1f} s | {share:.1%} | {pct(r.spreads, 0.5):.0f} | "
                f"{pct(r.spreads, 0.9):.0f} | {per:.0f} | {r.never} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
