"""Two halls' edges compared under the same conditions: ``load.py`` levels run in turn, round after
round, each on a PostgreSQL and a Redis started afresh (``hall_services``' throwaway servers), and
how often each level held its p99 under the limit.

    .venv/bin/python benchmarks/edge.py --level 1:6000 --level 2:9600 [--rounds 6] [--limit-ms 100]
        [--workload b] [--warmup 20] [--seconds 30] [--json]

Why rounds, not one run a level: on this shared 2-core machine one level's p99 ranges from half the
limit to twice it from run to run (``benchmarks/load.md``), and the machine's speed drifts over
an hour by about a tenth (the CPU a person action costs the same code). Runs of the levels in turn
share that drift, so their counts of runs held compare the levels; a level's single run does not.
A level is ``N:PEOPLE`` (N server processes, each run's servers on the same PostgreSQL and Redis).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.postgres import postgres_server
from tests.redis_server import redis_server

import load  # run as a script: benchmarks/ is on the path (and the spawned generators')


def parse_level(text: str) -> tuple[int, int]:
    servers, _, people = text.partition(":")
    if not (servers.isdigit() and people.isdigit() and int(servers) > 0 and int(people) > 0):
        raise argparse.ArgumentTypeError(f"a level is N:PEOPLE (2:9600), not {text!r}")
    return int(servers), int(people)


def one_run(
    servers: int,
    people: int,
    workload: str,
    warmup: float,
    seconds: float,
    generator_tick: float = load.GENERATOR_TICK,
) -> dict[str, Any]:
    """One level's run on services of its own, started for it and stopped after."""
    with postgres_server() as pg, redis_server() as redis:
        # (run_level makes a fresh database of its own on the server this URL names)
        server = pg.url("postgres")
        return load.run_level(
            people,
            workload,
            warmup,
            seconds,
            1,
            server,
            servers=servers,
            redis=redis.url,
            generator_tick=generator_tick,
        )


def summary(
    levels: list[tuple[int, int]], runs: list[dict[str, Any]], limit_ms: float
) -> list[dict[str, Any]]:
    rows = []
    for servers, people in levels:
        mine = [r for r in runs if (r["servers"], r["players"]) == (servers, people)]
        p99s = [r["p99_ms"] for r in mine]
        rows.append(
            {
                "servers": servers,
                "players": people,
                "runs": len(mine),
                "held": sum(p < limit_ms for p in p99s),
                "p99_ms": p99s,
                "median_p99_ms": statistics.median(p99s),
                "median_server_cpu_ms_per_action": statistics.median(
                    r["server_cpu_ms_per_action"] for r in mine
                ),
                "median_generators_cpu_pct": statistics.median(r["clients_cpu_pct"] for r in mine),
            }
        )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", type=parse_level, action="append", required=True, help="N:PEOPLE")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--limit-ms", type=float, default=100.0, help="a run holds when its p99 is under")
    parser.add_argument("--workload", choices=("a", "b"), default="b")
    parser.add_argument("--warmup", type=float, default=20)
    parser.add_argument("--seconds", type=float, default=30)
    load.add_generator_tick(parser)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    load.raise_open_files()
    runs = []
    for round_ in range(1, args.rounds + 1):
        for servers, people in args.level:
            began = time.strftime("%H:%M:%S")
            row = one_run(servers, people, args.workload, args.warmup, args.seconds, args.generator_tick)
            runs.append(row)
            print(
                f"round {round_} {began}  N = {servers}  {people:>6} people  p99 {row['p99_ms']:>7} ms"
                f"  p50 {row['p50_ms']:>6} ms  {row['person_actions_per_s']:>7} actions/s"
                f"  servers {row['server_cpu_ms_per_action']} ms an action"
                f"  generators {row['clients_cpu_pct']}%  steal {row['steal_pct']}%",
                file=sys.stderr,
                flush=True,
            )
    rows = summary(args.level, runs, args.limit_ms)
    if args.json:
        print(json.dumps({"levels": rows, "runs": runs}, indent=2))
    else:
        for r in rows:
            print(
                f"N = {r['servers']}  {r['players']:>6} people: held {r['held']} of {r['runs']}"
                f" (p99 {', '.join(str(p) for p in r['p99_ms'])} ms)"
                f"  servers {r['median_server_cpu_ms_per_action']} ms an action (median)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
