"""Every example of the README runs as pasted: each Python block, and each command of the shell blocks.

The shell commands run in a fresh folder, in the README's order (``replay out.jsonl`` reads what the
``simulate ... --records out.jsonl`` before it wrote), as ``python -m cardhall``. A command that would take
long runs with smaller numbers (``SMALLER``: the exact text replaced, so an edit of the README's numbers is
noticed); ``cardhall serve`` runs until it answers on a free port and is then stopped; the few commands
that cannot run in a test are skipped with the reason (``CANNOT_RUN``). A command the README gains is
run as pasted, or classified here.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
TEXT = README.read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", TEXT, flags=re.S)
COMMANDS = [
    line.split("  #")[0].strip()
    for block in re.findall(r"```sh\n(.*?)```", TEXT, flags=re.S)
    for line in block.splitlines()
    if line.strip() and not line.lstrip().startswith("#")
]

# README command -> (text in it, what replaces it in the test): the same command, quicker.
SMALLER: dict[str, list[tuple[str, str]]] = {
    "cardhall simulate 'hokm(max_hands=5)' --games 1000 --jobs 2 --json --records out.jsonl": [
        ("--games 1000", "--games 12")
    ],
    "cardhall simulate 'hokm(max_hands=1)' --bots 'search(ms=200),rules,rules' --rotate --games 100": [
        ("search(ms=200)", "search(ms=10)"),
        ("--games 100", "--games 1"),
    ],
    "cardhall bench 'hokm(max_hands=5)' --seconds 2 --json": [("--seconds 2", "--seconds 0.2")],
    "cardhall simulate 'hokm(max_hands=5)' --games 100000 --records out.jsonl --ray": [
        ("--games 100000", "--games 12")
    ],
}
CANNOT_RUN = {
    "make run": "starts the server and runs until stopped (what it runs, cardhall serve, is tested here)",
    "make test": "runs ruff, mypy and this very test suite",
    "cardhall simulate 'hokm(max_hands=1)' --bots 'search(iterations=200),rules,rules' --rotate --games 5000 "
    "--ray auto": "joins a running Ray cluster (tests/test_ray.py starts one with `ray start`, plays on it)",
    "cardhall serve --db postgresql+asyncpg://user:password@host/cardhall": (
        "needs a PostgreSQL server at 'host' (tests/test_store.py runs the store on a real PostgreSQL)"
    ),
    "cardhall bots --redis redis://host:6379/0": (
        "needs a Redis server at 'host' (tests/test_bot_tier_redis.py runs cardhall bots on a real Redis)"
    ),
    "cardhall serve --workers 4 --db postgresql+asyncpg://user:password@host/cardhall --redis "
    "redis://host:6379/0": "needs PostgreSQL and Redis at 'host' (tests/test_cluster.py runs --workers)",
    "cardhall serve --host 0.0.0.0 --db postgresql+asyncpg://user:password@host/cardhall --redis "
    "redis://host:6379/0": "needs PostgreSQL and Redis at 'host' (tests/test_cluster.py runs a hall)",
}
# What a command's stdin holds: play asks for moves, and leaves at 'quit'.
STDIN = {"play": "quit\n"}


def test_the_readme_has_examples() -> None:
    assert len(BLOCKS) >= 3
    assert len(COMMANDS) >= 8
    assert all(c.startswith(("cardhall ", "make ")) for c in COMMANDS), COMMANDS
    assert set(SMALLER) | set(CANNOT_RUN) <= set(COMMANDS), "a command named here left the README"


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_a_readme_example_runs(number: int) -> None:
    exec(compile(BLOCKS[number], f"README.md example {number + 1}", "exec"), {})


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("readme")


def _env() -> dict[str, str]:
    # The commands run in another folder: a relative PYTHONPATH (PYTHONPATH=src) must still find the code.
    env = dict(os.environ)
    if env.get("PYTHONPATH"):
        paths = env["PYTHONPATH"].split(os.pathsep)
        env["PYTHONPATH"] = os.pathsep.join(str(Path(p).resolve()) for p in paths)
    return env


def _argv(command: str) -> list[str]:
    for old, new in SMALLER.get(command, []):
        assert old in command
        command = command.replace(old, new)
    words = shlex.split(command)
    assert words[0] == "cardhall"
    return [sys.executable, "-m", "cardhall", *words[1:]]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _serve(argv: list[str], cwd: Path) -> None:
    """Start ``cardhall serve`` on a free port (never the README's 8000: it may be taken), wait until
    it answers, stop it."""
    port = _free_port()
    if "--port" in argv:
        argv[argv.index("--port") + 1] = str(port)
    else:
        argv += ["--port", str(port)]
    process = subprocess.Popen(argv, cwd=cwd, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=5) as response:
                    assert response.status == 200 and b"hokm" in response.read()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    output = process.stdout.read().decode() if process.stdout else ""
                    raise AssertionError(f"{shlex.join(argv)} did not start:\n{output}") from None
                time.sleep(0.2)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout:
            process.stdout.close()


@pytest.mark.process
@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS)
def test_a_readme_command_runs(command: str, workdir: Path) -> None:
    if command in CANNOT_RUN:
        pytest.skip(f"{command}: {CANNOT_RUN[command]}")
    assert command.startswith("cardhall "), f"{command!r}: run it here, or say in CANNOT_RUN why not"
    argv = _argv(command)
    if argv[3] == "serve":
        _serve(argv, workdir)
        return
    if argv[3] in ("replay", "review") and not (workdir / argv[4]).exists():  # run alone (-k): make its input
        writer = next(c for c in COMMANDS if f"--records {argv[4]}" in c)
        subprocess.run(_argv(writer), cwd=workdir, env=_env(), check=True, capture_output=True)
    done = subprocess.run(
        argv,
        cwd=workdir,
        env=_env(),
        input=STDIN.get(argv[3], ""),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, f"{shlex.join(argv)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    assert done.stdout.strip(), f"{shlex.join(argv)} printed nothing"
    if "--json" in argv:
        json.loads(done.stdout)
