"""Simulations past one machine: Ray's per-task cost, a match's cost per game, throughput on 1 and 2
workers, a tournament of search bots, and the scaling a cluster of N machines would give.

    .venv/bin/python benchmarks/scale.py [--seconds T] [--rounds N] [--matches M] [--seeds S] [--json]

1. **A match's cost** per game (whole matches at the default options with rules bots, and with random
   bots where they finish; one short search match), in this process on one core (CPU time), and the
   batch the Ray executor would give it (``RayExecutor.batch_size``: about 0.25 s of play per task).
2. **Ray's per-task cost** with empty tasks on a local Ray of 2 CPUs: one task at a time (the round
   trip), and a stream kept ``2 x CPUs`` deep with ``ray.wait`` as the executor does (tasks/s, and
   the driver's CPU per task).
3. **Throughput**: the same ``M`` matches with ``--jobs 1`` (this process), ``--jobs 2`` (local
   processes), and on a local Ray of 1 and of 2 CPUs (the executor's adaptive batches), ``--rounds``
   rounds interleaved, best round of each (a shared machine only ever slows a run down); a Ray's
   start-up and its workers' first imports are outside the timing (one warm-up run each) and
   reported on their own. On Ray the workers also report their CPU time and how long they were
   busy: on a shared machine wall-clock rates move with the neighbours' load, CPU per match much less.
4. **Task size**: the share of a CPU left to play for a task of a given length, from Ray's per-task
   cost: ``task / (task + overhead)``; the executor's 0.25 s target is chosen from it.
5. **A search tournament** (``--rotate``, ``S`` seeds, search bots with a fixed number of determinizations so
   the results can be compared): ``--jobs 1`` against a local Ray of 2 CPUs, each task one match on one
   CPU; the two reports must be equal.
6. **Projection** to N machines of this machine's size: each CPU at the workers' CPU cost per match less
   the per-task cost, up to the CPUs one driver can feed at its CPU per task (see ``benchmarks/scale.md``).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import pickle
import platform
import tempfile
import time
from typing import Any

import ray

from cardhall.engine_build import is_compiled
from cardhall.registry import load_game
from cardhall.sim.ray_runner import RayExecutor, play_batch
from cardhall.sim.simulate import Executor, Processes, play_chunk, simulate

# Whole matches at the default options; random bots get a hand limit where they would never finish
# (random play in Hokm loses points without end, and random gin rarely knocks).
COSTS = (
    ("hokm(max_hands=5)", "random"),
    ("hokm", "rules"),
    ("kierki", "random"),
    ("kierki", "rules"),
    ("hearts", "random"),
    ("hearts", "rules"),
    ("gin(max_hands=5)", "random"),
    ("gin", "rules"),
    ("svara", "random"),
    ("svara", "rules"),
    ("hokm(max_hands=1)", "search(ms=20),rules,rules"),
)
WORKLOAD = ("hokm", "rules")  # the throughput runs: whole Hokm matches to 500 between rules bots
# The search tournament: one deal of Hokm, a search bot of fixed effort against rules bots, every seating.
TOURNAMENT = ("hokm(max_hands=1)", ["search(iterations=30)", "rules", "rules"])
TASK_MS = (0.1, 1.0, 10.0, 100.0, 250.0, 1000.0)  # task lengths for the overhead table


def match_cost(game: str, bots: str, seconds: float) -> tuple[dict[str, Any], float, int]:
    """CPU seconds per match, playing seeds 0, 1, ... in this process for about ``seconds``."""
    names = bots.split(",") if "," in bots else [bots] * load_game(game).num_players
    play_chunk(game, [(10_000, tuple(names))], False)  # imports and tables, outside the timing
    began, played, actions = time.process_time(), 0, 0
    while time.process_time() - began < seconds or played < 2:
        actions += play_chunk(game, [(played, tuple(names))], False)[0].actions
        played += 1
    per_match = (time.process_time() - began) / played
    batch = RayExecutor().batch_size(per_match, 1_000_000, 1)
    return {"game": game, "bots": bots, "matches": played, "actions": actions / played}, per_match, batch


def start_ray(cpus: int) -> float:
    began = time.perf_counter()
    ray.init(
        address="local",
        num_cpus=cpus,
        include_dashboard=False,
        logging_level=logging.WARNING,
        runtime_env=RayExecutor().runtime_env(),  # the workers import this checkout, as with --ray
    )
    return time.perf_counter() - began


def empty() -> None:
    return None


def task_overhead(seconds: float) -> dict[str, float]:
    """Empty tasks on the Ray this process has joined: round trip, and a stream as the executor runs."""
    remote = ray.remote(num_cpus=1)(empty)
    cpus = int(ray.cluster_resources()["CPU"])
    ray.get([remote.remote() for _ in range(4 * cpus)])  # workers up and warm
    began, trips = time.perf_counter(), 0
    while time.perf_counter() - began < seconds / 2:
        ray.get(remote.remote())
        trips += 1
    round_trip = (time.perf_counter() - began) / trips
    began, cpu, done = time.perf_counter(), time.process_time(), 0
    in_flight = [remote.remote() for _ in range(2 * cpus)]
    while time.perf_counter() - began < seconds / 2:
        [ref], in_flight = ray.wait(in_flight, num_returns=1)
        ray.get(ref)
        done += 1
        in_flight.append(remote.remote())
    wall, cpu = time.perf_counter() - began, time.process_time() - cpu
    ray.get(in_flight)
    return {
        "round_trip_ms": round_trip * 1e3,
        "stream_tasks_per_s": done / wall,
        "cpu_ms_per_task": wall * cpus / done * 1e3,  # the cluster's CPU time per task
        "driver_cpu_ms_per_task": cpu / done * 1e3,
    }


def throughput(executor: Executor, matches: int) -> dict[str, float]:
    """The workload on ``executor``: matches/s (wall) and the driver's CPU ms per match; on Ray also the
    workers' CPU ms per match, the share of the run's CPUs x wall time they spent playing (``busy``),
    and the share of that playing time they had a CPU for (``on_cpu``: below 1 when other processes
    of a shared machine took it)."""
    game, bots = WORKLOAD
    began, cpu = time.perf_counter(), time.process_time()
    report = simulate(game, [bots], matches, seed=0, executor=executor)
    wall, cpu = time.perf_counter() - began, time.process_time() - cpu
    assert len(report.results) == matches
    row = {"per_s": matches / wall, "driver_cpu_ms": cpu / matches * 1e3}
    if isinstance(executor, RayExecutor):
        cpus = int(ray.cluster_resources()["CPU"])
        row |= {
            "worker_cpu_ms": executor.cpu_seconds / matches * 1e3,
            "busy": executor.busy_seconds / (wall * cpus),
            "on_cpu": executor.cpu_seconds / executor.busy_seconds,
        }
    return row


def records_cost(seconds: float) -> dict[str, float]:
    """The driver's CPU per match of the workload with ``--records``: taking a batch's results in
    (unpickling, as ``ray.get`` does) and writing each record as a JSON line (``simulate``'s code), for
    records encoded in the driver (``dict``: a dict per record arrives) and in the workers (``line``:
    a Ray worker's batch, as ``--ray`` does)."""
    game, bots = WORKLOAD
    tasks = [(s, (bots,) * 3) for s in range(30)]
    batches = {"dict": play_chunk(game, tasks, True), "line": play_batch(game, tasks, True)[0]}
    out = {
        "bytes_per_record": sum(len(r.take_record_line() or "") + 1 for r in play_chunk(game, tasks, True))
        / 30
    }
    for name, results in batches.items():
        sent = pickle.dumps(results)
        began, matches = time.process_time(), 0
        with tempfile.TemporaryFile("w") as sink:
            while time.process_time() - began < seconds / 2:
                for result in pickle.loads(sent):
                    sink.write(f"{result.take_record_line()}\n")
                matches += len(results)
        out[f"driver_cpu_ms_per_match_{name}"] = (time.process_time() - began) / matches * 1e3
    return out


def tournament(seeds: int) -> dict[str, Any]:
    """The search tournament with ``--jobs 1`` and on a local Ray of 2 CPUs: wall seconds of each, and
    whether the two reports are equal (they must be)."""
    game, bots = TOURNAMENT
    began = time.perf_counter()
    one = simulate(game, bots, seeds, seed=0, rotate=True)
    local = time.perf_counter() - began
    start_ray(2)
    try:
        executor = RayExecutor()
        simulate(game, ["rules"], 4, seed=0, executor=executor)  # the workers start and import cardhall
        began = time.perf_counter()
        on_ray = simulate(game, bots, seeds, seed=0, rotate=True, executor=executor)
        remote = time.perf_counter() - began
    finally:
        ray.shutdown()
    return {
        "game": game,
        "bots": bots,
        "matches": len(one.results),
        "jobs_1_s": local,
        "ray_2_s": remote,
        "workers": len(executor.workers),
        "worker_cpu_s": executor.cpu_seconds,
        "busy": executor.busy_seconds / (remote * 2),
        "equal": on_ray.results == one.results and on_ray.summary() == one.summary(),
    }


def measure(seconds: float, rounds: int, matches: int, seeds: int) -> dict[str, Any]:
    load_game("hokm")  # loads the engine, so is_compiled can tell
    out: dict[str, Any] = {
        "compiled": is_compiled(),
        "machine": f"{os.cpu_count()} CPUs, {platform.processor() or platform.machine()}",
        "python": platform.python_version(),
        "ray": ray.__version__,
        "load_before": os.getloadavg()[0],
        "costs": [],
        "throughput": {},
    }
    for game, bots in COSTS:
        row, per_match, batch = match_cost(game, bots, seconds)
        out["costs"].append(row | {"ms_per_match": per_match * 1e3, "batch": batch})
    best: dict[str, dict[str, float]] = {}  # per run, its round of most matches/s
    rates: dict[str, list[float]] = {}  # per run, every round's matches/s
    startups: list[float] = []

    def keep(name: str, row: dict[str, float]) -> None:
        rates.setdefault(name, []).append(row["per_s"])
        if row["per_s"] > best.get(name, {"per_s": 0.0})["per_s"]:
            best[name] = row

    for _ in range(rounds):
        for name, jobs in (("jobs 1", 1), ("jobs 2", 2)):
            keep(name, throughput(Processes(jobs), matches))
        for cpus in (1, 2):
            startups.append(start_ray(cpus))
            try:
                throughput(RayExecutor(), 4 * cpus)  # the workers start and import cardhall
                if cpus == 2 and "overhead" not in out:
                    out["overhead"] = task_overhead(seconds)
                keep(f"ray {cpus}", throughput(RayExecutor(), matches))
            finally:
                ray.shutdown()
    out["throughput"] = {"matches": matches, "best": best, "rounds": rates}
    out["ray_start_s"] = min(startups)
    overhead = out["overhead"]["cpu_ms_per_task"]
    out["efficiency"] = {str(ms): ms / (ms + overhead) for ms in TASK_MS}
    out["records"] = records_cost(seconds)
    out["tournament"] = tournament(seeds)
    out["load_after"] = os.getloadavg()[0]
    return out


def projection(result: dict[str, Any], machines: int, cores: int = 2, records: bool = False) -> float:
    """Matches/s of the workload on ``machines`` machines of ``cores`` CPUs, each CPU playing at the Ray
    workers' measured CPU cost per match, less Ray's per-task cost on tasks of ``target_seconds``; as
    many CPUs as one driver can feed (its CPU per task) with tasks of that length; with ``records``, no
    more matches/s than the driver can write."""
    target_ms = RayExecutor().target_seconds * 1e3
    overhead = result["overhead"]
    worker_ms = min(result["throughput"]["best"][r]["worker_cpu_ms"] for r in ("ray 1", "ray 2"))
    per_cpu = 1e3 / worker_ms * target_ms / (target_ms + overhead["cpu_ms_per_task"])
    cpus_one_driver_feeds = target_ms / overhead["driver_cpu_ms_per_task"]
    rate = min(machines * cores, cpus_one_driver_feeds) * per_cpu
    if records:
        rate = min(rate, 1e3 / result["records"]["driver_cpu_ms_per_match_line"])
    return float(rate)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per cost measurement (default 3)")
    parser.add_argument("--rounds", type=int, default=2, help="interleaved throughput rounds (default 2)")
    parser.add_argument("--matches", type=int, default=400, help="matches per throughput run (default 400)")
    parser.add_argument("--seeds", type=int, default=10, help="seeds of the search tournament (default 10)")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    result = measure(args.seconds, args.rounds, args.matches, args.seeds)
    machines = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
    result["projection"] = {n: projection(result, n) for n in machines}
    result["projection_records"] = {n: projection(result, n, records=True) for n in machines}
    if args.json:
        print(json.dumps(result))
    else:
        render(result)
    return 0


def render(result: dict[str, Any]) -> None:
    """The result as the text and tables of ``benchmarks/scale.md``."""
    print(
        f"engine: {'compiled' if result['compiled'] else 'pure Python'}; {result['machine']}; "
        f"Python {result['python']}; Ray {result['ray']}; "
        f"load average {result['load_before']:.1f} before, {result['load_after']:.1f} after"
    )
    print(
        "\n| game | bots | actions/match | ms/match (CPU) | batch (matches/task) |\n|---|---|---:|---:|---:|"
    )
    for r in result["costs"]:
        print(
            f"| `{r['game']}` | {r['bots']} | {r['actions']:.0f} | {r['ms_per_match']:.2f} | {r['batch']} |"
        )
    o = result["overhead"]
    print(
        f"\nRay: start {result['ray_start_s']:.1f} s; empty task round trip {o['round_trip_ms']:.2f} ms; "
        f"stream {o['stream_tasks_per_s']:,.0f} tasks/s on 2 CPUs = {o['cpu_ms_per_task']:.2f} CPU ms "
        f"per task; driver {o['driver_cpu_ms_per_task']:.2f} CPU ms per task"
    )
    t = result["throughput"]
    game, bots = WORKLOAD
    print(
        f"\n{t['matches']} matches of `{game}`, {bots} bots, best of {len(t['rounds']['jobs 1'])} rounds:\n"
    )
    print(
        "| run | matches/s | vs jobs 1 | every round | driver CPU ms/match | workers busy | "
        "workers on a CPU | worker CPU ms/match |\n|---|---:|---:|---|---:|---:|---:|---:|"
    )
    one = t["best"]["jobs 1"]["per_s"]
    for name, row in t["best"].items():
        rounds = ", ".join(f"{r:.0f}" for r in t["rounds"][name])
        ray_cols = (
            f"{row['busy']:.0%} | {row['on_cpu']:.0%} | {row['worker_cpu_ms']:.2f}"
            if "busy" in row
            else "| |"
        )
        print(
            f"| {name} | {row['per_s']:.1f} | {row['per_s'] / one:.2f}x | {rounds} | "
            f"{row['driver_cpu_ms']:.2f} | {ray_cols} |"
        )
    print("\n| task length | share of the CPU playing |\n|---:|---:|")
    for ms, share in result["efficiency"].items():
        print(f"| {float(ms):g} ms | {share:.1%} |")
    s = result["tournament"]
    print(
        f"\nsearch tournament `{s['game']}` {', '.join(s['bots'])} --rotate: {s['matches']} matches, "
        f"--jobs 1 {s['jobs_1_s']:.1f} s, Ray 2 CPUs {s['ray_2_s']:.1f} s "
        f"({s['jobs_1_s'] / s['ray_2_s']:.2f}x) on {s['workers']} workers, busy {s['busy']:.0%} of the time, "
        f"{s['worker_cpu_s']:.1f} s of worker CPU; reports equal: {s['equal']}"
    )
    r = result["records"]
    print(
        f"\n--records: {r['bytes_per_record']:,.0f} bytes per match; the driver takes a match's record in "
        f"and writes it in {r['driver_cpu_ms_per_match_line']:.3f} CPU ms (encoded by the worker; "
        f"{r['driver_cpu_ms_per_match_dict']:.3f} ms when the driver encodes it)"
    )
    print("\n| machines (2 CPUs each) | projected matches/s | with --records |\n|---:|---:|---:|")
    for n, rate in result["projection"].items():
        print(f"| {n} | {rate:,.0f} | {result['projection_records'][n]:,.0f} |")


if __name__ == "__main__":
    raise SystemExit(main())
