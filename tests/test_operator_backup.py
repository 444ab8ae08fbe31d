"""Backups and restores as docs/operator.md shows them, run here word for word: a running server's
store, holding a finished match and an unfinished one, is backed up while the server plays on
(SQLite: its online backup, from Python's ``sqlite3`` or the ``sqlite3`` shell; PostgreSQL:
``pg_dump``), restored into a fresh file or database (``pg_restore``), and a new ``cardhall serve`` on
the copy serves both: the finished match's record replays, and the unfinished table is brought back
and played to its end with every move acknowledged before the backup in its record.

The commands are read from the guide itself (its ```` ```bash ```` blocks under "Backups"), so the
guide cannot show one that is not run here.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cluster_helpers import Client, check_record, new_table, play
from tests.postgres import PostgresServer
from tests.server_helpers import free_port, http, running_server

pytestmark = [pytest.mark.process, pytest.mark.slow]
GAME = "hokm(max_hands=1)"
GUIDE = Path(__file__).resolve().parent.parent / "docs" / "operator.md"


def guide_block(marker: str) -> str:
    """The guide's bash block that follows the line ``<!-- marker -->``."""
    text = GUIDE.read_text()
    found = re.search(rf"<!-- {re.escape(marker)} -->\s*```bash\n(.*?)```", text, re.S)
    assert found, f"no bash block marked {marker} in docs/operator.md"
    return found.group(1)


def run_block(block: str, cwd: Path, env: dict[str, str] | None = None) -> None:
    """The block's lines run by bash in ``cwd`` (``.venv/bin/python`` is this test's Python)."""
    script = block.replace(".venv/bin/python", sys.executable)
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, f"{script}\n{done.stdout}{done.stderr}"


def matches(port: int) -> tuple[str, list[Client]]:
    """A finished match and an unfinished one (waiting for one of its people) on the server at
    ``port``: the finished table's id, and the unfinished table's clients."""
    ann = http(port, "POST", "/api/players", {"name": "Ann"})["token"]
    bob = http(port, "POST", "/api/players", {"name": "Bob"})["token"]
    done = new_table(port, ann, GAME, {"1": "easy", "2": "easy"})
    finished = [Client(port, ann, done, 0)]
    finished[0].connect()
    play(finished, lambda: finished[0].over)
    check_record(port, done, finished)
    going = new_table(port, bob, GAME, {"1": "easy", "2": "easy"})
    clients = [Client(port, bob, going, 0)]
    clients[0].connect()
    play(clients, lambda: len(clients[0].acked) >= 3)
    # Until it is his turn again, reading without playing (the bots' moves stored): the match waits
    # for him, so what the backup holds is all there is.
    deadline = time.monotonic() + 60
    while not (clients[0].frame.get("legal") and clients[0].pending is None):
        assert time.monotonic() < deadline and clients[0].pump(0.05), clients[0].frame
    assert not clients[0].over
    clients[0].ws.close()  # type: ignore[union-attr]
    return done, clients


def serves_them(port: int, done: str, before: list[Client]) -> None:
    """The restored server has the finished match's record and plays the unfinished one on."""
    check_record(port, done, [])
    table, token = before[0].table, before[0].token
    again = [Client(port, token, table, 0)]
    again[0].connect()
    play(again, lambda: again[0].over)
    assert again[0].acked, "the restored table did not play on"
    check_record(port, table, [*before, *again])  # the moves acknowledged before the backup are in it


def test_sqlite_backed_up_while_serving_and_restored_serves_its_matches(tmp_path: Path) -> None:
    live = tmp_path / "cardhall.db"
    port = free_port()
    with running_server(live, port):
        done, clients = matches(port)
        run_block(guide_block("test: sqlite backup"), tmp_path)
        copies = [(tmp_path / "cardhall-backup.db").rename(tmp_path / "python-backup.db")]
        if shutil.which("sqlite3"):  # (the shell's way, when the machine has it)
            run_block(guide_block("test: sqlite3 backup"), tmp_path)
            copies.append((tmp_path / "cardhall-backup.db").rename(tmp_path / "shell-backup.db"))
    for copy in copies:
        # A fresh place holding the backup alone, as on another machine.
        restored = tmp_path / copy.stem / "cardhall.db"
        restored.parent.mkdir()
        shutil.copy(copy, restored)
        again = free_port()
        with running_server(restored, again):
            serves_them(again, done, clients)


def test_postgresql_dumped_while_serving_and_restored_serves_its_matches(
    tmp_path: Path, postgres: PostgresServer
) -> None:
    db = postgres.create_database()
    name = db.split("?")[0].rsplit("/", 1)[1]
    port = free_port()
    log = tmp_path / "pg-server.log"
    argv = [sys.executable, "-m", "cardhall", "serve", "--port", str(port), "--db", db]
    # The guide's database URLs (libpq's, as pg_dump takes them), for the test's server.
    env = {
        "PATH": f"{postgres.bin}:/usr/bin:/bin",
        "CARDHALL_PG": f"postgresql://postgres@/{name}?host={postgres.dir}",
        "RESTORED_PG": f"postgresql://postgres@/cardhall_restored?host={postgres.dir}",
    }
    with log.open("wb") as output:
        server = subprocess.Popen(argv, stdout=output, stderr=subprocess.STDOUT)
    try:
        wait_answering(port, server, log)
        done, clients = matches(port)
        run_block(guide_block("test: pg_dump"), tmp_path, env)
    finally:
        server.kill()
        server.wait()
    run_block(guide_block("test: pg_restore"), tmp_path, env)
    again = free_port()
    restored = f"postgresql+asyncpg://postgres@/cardhall_restored?host={postgres.dir}"
    argv = [sys.executable, "-m", "cardhall", "serve", "--port", str(again), "--db", restored]
    with log.open("ab") as output:
        server = subprocess.Popen(argv, stdout=output, stderr=subprocess.STDOUT)
    try:
        wait_answering(again, server, log)
        serves_them(again, done, clients)
    finally:
        server.kill()
        server.wait()


def wait_answering(port: int, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            http(port, "GET", "/healthz/ready")
            return
        except OSError:
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
