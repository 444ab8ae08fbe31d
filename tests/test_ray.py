"""Simulations and tournaments on Ray (``--ray``): the same results and records as ``--jobs 1``, a worker
that dies mid-run (or is killed from outside) retried without counting anything twice, the command line
end to end, the message without Ray. One local Ray with two worker CPUs serves the module; no Ray process
outlives it."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cardhall.cli import main
from cardhall.sim import ray_runner
from cardhall.sim.ray_runner import INSTALL_HINT, RayExecutor
from cardhall.sim.simulate import SimulationReport, simulate

# Ray starts its own processes (and a local cluster).
pytestmark = [pytest.mark.process, pytest.mark.slow]

RAY_PROCESSES = ("raylet", "gcs_server")


def ray_daemons() -> set[int]:
    """Pids of Ray's per-cluster daemons running on this machine."""
    pids = set()
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and (proc / "comm").read_text().strip() in RAY_PROCESSES:
                pids.add(int(proc.name))
        except OSError:
            continue  # gone meanwhile
    return pids


def parent(pid: int) -> int | None:
    try:
        return int((Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def busy_workers() -> list[int]:
    """Pids of Ray workers playing a batch now, only those of a Ray this process started (their parent
    is a raylet whose parent is this process): a test kills nothing of any other Ray on the machine."""
    ours = {pid for pid in ray_daemons() if parent(pid) == os.getpid()}
    pids = []
    for proc in Path("/proc").iterdir():
        try:
            busy = proc.name.isdigit() and (proc / "comm").read_text().strip() == "ray::play_batch"
        except OSError:
            continue
        if busy and parent(int(proc.name)) in ours:
            pids.append(int(proc.name))
    return pids


def wait_gone(pids: set[int], seconds: float = 20) -> set[int]:
    deadline = time.monotonic() + seconds
    while (left := pids & ray_daemons()) and time.monotonic() < deadline:
        time.sleep(0.2)
    return left


@pytest.fixture(scope="module")
def ray() -> Iterator[Any]:
    ray = pytest.importorskip("ray", reason="Ray cannot be imported here: pip install 'cardhall[ray]'")
    before = ray_daemons()
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        logging_level="WARNING",
        runtime_env=RayExecutor().runtime_env(),
    )
    try:
        yield ray
    finally:
        ray.shutdown()
        assert not wait_gone(ray_daemons() - before), "Ray daemons left running after ray.shutdown()"


def run_both(
    tmp_path: Path,
    game: str,
    bots: list[str],
    games: int,
    rotate: bool = False,
    executor: RayExecutor | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[Any, ...]:
    """The same run with ``--jobs 1`` and on Ray: both reports, both records files, Ray's progress."""
    local, remote = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    one = simulate(game, bots, games, seed=11, records_path=str(local), rotate=rotate)
    steps: list[int] = []

    def advance(k: int) -> None:
        steps.append(k)
        if progress is not None:
            progress(k)

    on_ray = simulate(
        game,
        bots,
        games,
        seed=11,
        records_path=str(remote),
        rotate=rotate,
        executor=executor or RayExecutor(),
        progress=advance,
    )
    return one, on_ray, local.read_text(), remote.read_text(), steps


def assert_same(one: SimulationReport, other: SimulationReport) -> None:
    assert other.results == one.results  # every match, in seed order
    assert json.dumps(other.summary()) == json.dumps(one.summary())


def test_a_simulation_matches_jobs_1_results_and_records(ray: Any, tmp_path: Path) -> None:
    executor = RayExecutor()
    one, on_ray, records1, records2, progress = run_both(
        tmp_path, "hokm(max_hands=1)", ["rules", "random", "random"], 80, executor=executor
    )
    assert_same(one, on_ray)
    assert records2 == records1 and len(records1.splitlines()) == 80
    # Progress came as the tasks finished, batch by batch, and counted every match once.
    assert sum(progress) == 80 and len(progress) > 2
    # Both worker processes played.
    assert len(executor.workers) == 2 and sum(executor.workers.values()) == 80, executor.workers


def test_a_tournament_of_search_bots_matches_jobs_1(ray: Any, tmp_path: Path) -> None:
    bots = ["search(iterations=4)", "rules", "random"]
    executor = RayExecutor()
    one, on_ray, records1, records2, _ = run_both(
        tmp_path, "hokm(max_hands=1)", bots, 4, rotate=True, executor=executor
    )
    assert_same(one, on_ray)
    assert len(executor.workers) == 2  # the search matches were spread over both CPUs
    assert records2 == records1
    assert Counter(r.seed for r in on_ray.results) == {11: 3, 12: 3, 13: 3, 14: 3}
    assert [b["seats_played"] for b in on_ray.summary()["by_bot"]] == [12, 12, 12]


def test_a_worker_killed_mid_run_is_retried_and_nothing_counts_twice(ray: Any, tmp_path: Path) -> None:
    marker = tmp_path / "crashed"
    executor = RayExecutor(crash_marker=str(marker))
    one, on_ray, records1, records2, progress = run_both(
        tmp_path, "hearts(decks=1,players=4,max_hands=1)", ["rules"], 40, executor=executor
    )
    assert marker.exists(), "no worker died: the fault was not injected"
    died_playing = int(marker.read_text())  # the first seed of the batch whose worker died
    assert [r.seed for r in on_ray.results].count(died_playing) == 1
    assert_same(one, on_ray)
    assert records2 == records1
    assert sum(progress) == 40 == len(on_ray.results)


def test_a_worker_killed_from_outside_mid_run_changes_nothing(ray: Any, tmp_path: Path) -> None:
    # SIGKILL, from another thread, to a worker busy playing a batch once the run is under way.
    under_way = threading.Event()
    killed: list[int] = []

    def kill_a_busy_worker() -> None:
        under_way.wait(60)
        deadline = time.monotonic() + 60
        while not killed and time.monotonic() < deadline:
            for pid in busy_workers()[:1]:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            time.sleep(0.002)

    killer = threading.Thread(target=kill_a_busy_worker, daemon=True)
    killer.start()
    executor = RayExecutor()
    one, on_ray, records1, records2, progress = run_both(
        tmp_path,
        "hearts(decks=1,players=4,max_hands=1)",
        ["rules"],
        160,
        executor=executor,
        progress=lambda k: under_way.set(),
    )
    killer.join(timeout=60)
    assert killed, "no worker was busy to kill: the run ended first"
    assert_same(one, on_ray)
    assert records2 == records1
    assert sum(progress) == 160 == len(on_ray.results)


def test_workers_running_other_code_stop_the_run(ray: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ray_runner, "code_fingerprint", lambda: "a different checkout")
    with pytest.raises(ValueError, match="other cardhall code"):
        simulate("hokm(max_hands=1)", None, 2, executor=RayExecutor())


def test_the_command_line_starts_its_own_ray_and_stops_it(
    ray: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = "gin(players=2,max_hands=1)"
    local, remote = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    argv = ["simulate", game, "--games", "6", "--seed", "4", "--rotate", "--json", "--quiet"]
    assert main([*argv, "--records", str(local)]) == 0
    expected = json.loads(capsys.readouterr().out)
    before = ray_daemons()
    # A separate process: `--ray` alone starts a local Ray of its own (2 CPUs from --jobs), and must
    # shut it down; its workers must import this checkout's code (PYTHONPATH is inherited).
    done = subprocess.run(
        [sys.executable, "-m", "cardhall", *argv, "--records", str(remote), "--ray", "--jobs", "2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == expected
    assert remote.read_text() == local.read_text()
    assert not wait_gone(ray_daemons() - before), "the command line left its Ray running"


@pytest.fixture
def cluster(ray: Any, tmp_path: Path) -> Iterator[tuple[str, dict[str, str]]]:
    """A second local Ray, started as a cluster is (``ray start --head``), whose workers import a
    cardhall of their own: a decoy that refuses to load. Yields its address and the environment a driver
    needs to join it."""
    decoy = tmp_path / "cluster-site" / "cardhall"
    decoy.mkdir(parents=True)
    (decoy / "__init__.py").write_text('raise ImportError("the cluster\'s own cardhall")\n')
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    # Ray enables token authentication for new clusters unless told not to; this private one is not.
    env = os.environ | {"RAY_AUTH_MODE": "disabled"}
    head_env = env | {"PYTHONPATH": str(decoy.parent)}
    before = ray_daemons()
    log = (tmp_path / "head.log").open("w")
    ray_bin = Path(sys.executable).with_name("ray")
    start = ["start", "--head", "--block", "--num-cpus", "1", "--port", str(port)]
    head = subprocess.Popen(
        [str(ray_bin), *start, "--include-dashboard=false", "--disable-usage-stats"],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=head_env,
        cwd=tmp_path,
    )
    try:
        deadline = time.monotonic() + 60
        while "Ray runtime started" not in (tmp_path / "head.log").read_text():
            assert head.poll() is None and time.monotonic() < deadline, (tmp_path / "head.log").read_text()
            time.sleep(0.3)
        yield f"127.0.0.1:{port}", env
    finally:
        head.terminate()  # --block stops the whole cluster it started
        head.wait(timeout=60)
        log.close()
        assert not wait_gone(ray_daemons() - before), "the cluster's Ray daemons outlived it"


def test_a_cluster_gets_this_checkout_shipped(
    cluster: tuple[str, dict[str, str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    address, env = cluster
    argv = ["simulate", "svara(max_deals=1)", "--games", "10", "--json", "--quiet", "--records"]
    assert main([*argv, str(tmp_path / "local.jsonl")]) == 0
    expected = json.loads(capsys.readouterr().out)
    done = subprocess.run(
        [sys.executable, "-m", "cardhall", *argv, str(tmp_path / "ray.jsonl"), "--ray", address],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == expected
    assert (tmp_path / "ray.jsonl").read_text() == (tmp_path / "local.jsonl").read_text()
    # Shipping nothing, the workers import the cluster's own cardhall, and the run says so.
    unshipped = (
        "import sys; from cardhall.sim import ray_runner; from cardhall.cli import main\n"
        "ray_runner.RayExecutor.runtime_env = lambda self: {}\n"
        f"sys.exit(main(['simulate', 'hokm', '--games', '2', '--quiet', '--ray', '{address}']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", unshipped], capture_output=True, text=True, timeout=120, env=env
    )
    assert done.returncode == 2, done.stderr
    said = " ".join(done.stderr.split())  # as one line, however the terminal wrapped it
    assert "install this cardhall on the cluster" in said and "the cluster's own cardhall" in said


def test_without_ray_the_option_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    records = tmp_path / "kept.jsonl"
    records.write_text("earlier results\n")
    code = main(["simulate", "hokm", "--games", "3", "--ray", "--records", str(records), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.strip() == f"cardhall simulate: {INSTALL_HINT}"
    assert "pip install 'cardhall[ray]'" in err
    assert records.read_text() == "earlier results\n"  # refused before anything was written


def test_jobs_is_refused_with_a_cluster_address(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ray", reason="Ray cannot be imported here: pip install 'cardhall[ray]'")
    code = main(["simulate", "hokm", "--games", "3", "--ray", "auto", "--jobs", "4", "--quiet"])
    assert code == 2
    assert "--jobs sets the CPUs of a local Ray" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("per_match", "left", "cpus", "size"),
    [
        (None, 1000, 2, 1),  # nothing measured yet: one match per task
        (0.001, 10_000, 2, 250),  # target 0.25 s of play
        (0.001, 100, 2, 25),  # but at most a quarter of what is left on 2 CPUs
        (0.001, 1, 2, 1),
        (3.0, 500, 8, 1),  # a search match is a task of its own
    ],
)
def test_batch_size_targets_a_quarter_second_and_an_even_finish(
    per_match: float | None, left: int, cpus: int, size: int
) -> None:
    pytest.importorskip("ray", reason="Ray cannot be imported here: pip install 'cardhall[ray]'")
    assert RayExecutor().batch_size(per_match, left, cpus) == size


def test_without_retries_the_killed_worker_stops_the_run(ray: Any, tmp_path: Path) -> None:
    # The fault the retry test survives is real: with no retry left it ends the run, with a clear error.
    executor = RayExecutor(max_retries=0, crash_marker=str(tmp_path / "crashed"))
    with pytest.raises(ValueError, match="a worker died 1 time"):
        simulate("hokm(max_hands=1)", None, 6, executor=executor)
