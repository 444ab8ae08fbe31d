"""Every example of the README and of the documentation site (``docs/**/*.md``) runs as pasted: each
Python block, and each command of the shell blocks.

The shell commands run in a fresh folder, in the order of the README and then of the docs' pages
(``replay out.jsonl`` reads what the ``simulate ... --records out.jsonl`` before it wrote), as
``python -m cardhall``: ``.venv/bin/cardhall`` (the README's form, which works in a fresh shell of the
clone) and ``cardhall`` (the docs', after ``. .venv/bin/activate``) alike. A command that would take
long runs with smaller numbers (``SMALLER``: the exact text replaced, so an edit of the numbers is
noticed); ``cardhall serve`` runs until it answers on a free port and is then stopped; the few commands
that cannot run in a test are skipped with the reason (``CANNOT_RUN``), and so are the Python blocks that
are fragments of a file (``FRAGMENTS``). A command the docs gain is run as pasted, or classified here.
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

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
# The README first, then the site's pages in a fixed order: the order the shell commands run in.
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]
TEXTS = {page: page.read_text(encoding="utf-8") for page in PAGES}
TEXT = TEXTS[README]
PYTHON = re.compile(r"```python\n(.*?)```", flags=re.S)
SHELL = re.compile(r"```sh\n(.*?)```", flags=re.S)
BLOCKS = [(page, block) for page in PAGES for block in PYTHON.findall(TEXTS[page])]
VENV = ".venv/bin/cardhall "


def _commands(text: str) -> list[str]:
    return [
        line.split("  #")[0].strip()
        for block in SHELL.findall(text)
        for line in block.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]


README_COMMANDS = _commands(TEXT)
# Each command once (a page may repeat the README's), in the order it first appears.
COMMANDS = list(dict.fromkeys(c for page in PAGES for c in _commands(TEXTS[page])))

# README command -> (text in it, what replaces it in the test): the same command, quicker.
SMALLER: dict[str, list[tuple[str, str]]] = {
    ".venv/bin/cardhall simulate 'hokm(max_hands=1)' --bots hard,normal,normal --rotate --games 3": [
        ("--games 3", "--games 1")
    ],
    "cardhall simulate 'hokm(max_hands=5)' --games 1000 --jobs 2 --json --records out.jsonl": [
        ("--games 1000", "--games 12")
    ],
    "cardhall simulate 'hokm(max_hands=1)' --bots 'search(ms=200),rules,rules' --rotate --games 100": [
        ("search(ms=200)", "search(ms=10)"),
        ("--games 100", "--games 1"),
    ],
    "cardhall bench 'hokm(max_hands=5)' --seconds 2 --json": [("--seconds 2", "--seconds 0.2")],
    # (into the test's folder, named in CARDHALL_GAMES: written beside the model's, the copy became a sixth
    # game of the package for every test after it)
    "cardhall new-game duel --like hokm": [("--like hokm", "--like hokm --into .")],
    "cardhall simulate 'hokm(max_hands=5)' --games 100000 --records out.jsonl --ray": [
        ("--games 100000", "--games 12")
    ],
}
CANNOT_RUN = {
    "make run": "starts the server and runs until stopped (what it runs, cardhall serve, is tested here)",
    "make test": "runs ruff, mypy and this very test suite",
    "make quick": "runs this very test suite (the tests not marked slow)",
    ".venv/bin/pip install -e '.[rl]'": "installs into the clone's .venv; the tests' venv has the extra",
    ".venv/bin/pip install -e '.[train]'": "installs torch (heavy) into the clone's .venv; not part of `all`",
    "nice .venv/bin/python examples/train_gin.py --steps 300000 --opponent rules --deals 500": (
        "trains for about six minutes with torch (the `train` extra); docs/rl.md has its result"
    ),
    "cardhall simulate 'hokm(max_hands=1)' --bots 'search(iterations=200),rules,rules' --rotate --games 5000 "
    "--ray auto": "joins a running Ray cluster (tests/test_ray.py starts one with `ray start`, plays on it)",
    "cardhall serve --db postgresql+asyncpg://user:password@host/cardhall": (
        "needs a PostgreSQL server at 'host' (tests/store/test_store.py runs the store on a real PostgreSQL)"
    ),
    "cardhall bots --redis redis://host:6379/0": (
        "needs a Redis server at 'host' "
        "(tests/bot_tier/test_bot_tier_redis.py runs cardhall bots on a real Redis)"
    ),
    "cardhall serve --workers 4 --db postgresql+asyncpg://user:password@host/cardhall --redis "
    "redis://host:6379/0": (
        "needs PostgreSQL and Redis at 'host' (tests/server/cluster/test_cluster.py runs --workers)"
    ),
    "cardhall serve --host 0.0.0.0 --db postgresql+asyncpg://user:password@host/cardhall --redis "
    "redis://host:6379/0": (
        "needs PostgreSQL and Redis at 'host' (tests/server/cluster/test_cluster.py runs a hall)"
    ),
}
# What a command's stdin holds: play asks for moves, and leaves at 'quit'.
STDIN = {"play": "quit\n"}
# Python blocks that are a piece of a file, not a program (page -> why).
FRAGMENTS = {
    "docs/adding-a-game.md": "the ENTRY that ends a game module: its names exist only in that module",
}


def _name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def test_the_readme_has_examples() -> None:
    assert sum(page == README for page, _ in BLOCKS) >= 2
    assert len(README_COMMANDS) >= 6
    assert len(BLOCKS) >= 8 and len(COMMANDS) >= 25
    assert all(c.startswith(("cardhall ", VENV, "make ")) or c in CANNOT_RUN for c in COMMANDS), COMMANDS
    assert set(SMALLER) | set(CANNOT_RUN) <= set(COMMANDS), "a command named here left the docs"
    assert set(FRAGMENTS) <= {_name(page) for page, _ in BLOCKS}, "a fragment named here left the docs"


def test_every_readme_command_works_in_a_fresh_shell() -> None:
    """A fresh shell has no activated .venv: the README's commands name it, or are make's."""
    assert all(c.startswith((VENV, "make ")) for c in README_COMMANDS), README_COMMANDS


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_no_page_shows_a_bare_pip_install(page: Path) -> None:
    """``pip install`` alone installs into whatever pip is first on the PATH, not the clone's .venv."""
    bare = re.findall(r"(?<![\w/.-])pip install[^`\n]*", TEXTS[page])
    assert not bare, f"{_name(page)}: say .venv/bin/pip (or make setup): {bare}"


@pytest.mark.parametrize(
    ("page", "block"), BLOCKS, ids=[f"{_name(p)}-{i}" for i, (p, _) in enumerate(BLOCKS)]
)
def test_a_readme_example_runs(page: Path, block: str) -> None:
    if _name(page) in FRAGMENTS:
        pytest.skip(f"{_name(page)}: {FRAGMENTS[_name(page)]}")
    exec(compile(block, f"{_name(page)} example", "exec"), {})


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
    words = shlex.split(command.removeprefix(".venv/bin/"))
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
    assert command.startswith(("cardhall ", VENV)), f"{command!r}: run it here, or say in CANNOT_RUN why not"
    argv = _argv(command)
    if argv[3] == "serve" and "--help" not in argv:
        _serve(argv, workdir)
        return
    if argv[3] in ("replay", "review") and not (workdir / argv[4]).exists():  # run alone (-k): make its input
        writer = next(c for c in COMMANDS if f"--records {argv[4]}" in c)
        subprocess.run(_argv(writer), cwd=workdir, env=_env(), check=True, capture_output=True)
    env = {**_env(), "CARDHALL_GAMES": str(workdir)}
    done = subprocess.run(
        argv,
        cwd=workdir,
        env=env,
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
