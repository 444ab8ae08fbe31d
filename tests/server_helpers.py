"""Helpers for the server tests: an in-process app on a fresh SQLite store, players, websocket sessions
that read frames until the one they wait for, and a real ``cardhall serve`` in its own process."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from cardhall.loadclient import Client, in_process
from cardhall.server.app import create_app
from cardhall.server.protocol import ServerFrame, encode_bytes
from cardhall.server.rates import Limits
from cardhall.store import PlayerRow
from tests.benchmark_scripts import load_script
from tests.helpers import steps
from tests.sqlite_template import migrated_file, migrated_memory

FAST = {"bot_pace_ms": 0}  # bots play at once in tests


@contextmanager
def server(
    path: Path | None = None,
    limits: Limits | None = None,
    admin_token: str | None = None,
    review_budget: int | None = None,
) -> Iterator[TestClient]:
    """A running app (its lifespan entered) on a SQLite file (or a fresh in-memory database; a new one,
    file or memory, a copy of a migrated one: :mod:`tests.sqlite_template`). Its rates
    are a setting: ``limits`` when given (the tests of the rates give theirs, ``Limits()`` for the
    server's defaults), else none at all (``Limits().unpaced()``: the caps on tables stay), so a test
    sends as fast as it likes and never paces itself under a limit it does not test."""
    limits = Limits().unpaced() if limits is None else limits
    with ExitStack() as stack:
        if path is None:
            url = stack.enter_context(migrated_memory())
        elif path.exists():  # (a server of the test's before)
            url = f"sqlite+aiosqlite:///{path}"
        else:
            url = migrated_file(path)
        app = create_app(url, limits=limits, admin_token=admin_token, review_budget=review_budget)
        yield stack.enter_context(TestClient(app))


def store_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh store of ``backend``: an SQLite file, or a new database on the session's PostgreSQL
    (the ``postgres`` fixture: its test is marked ``postgres``)."""
    if backend == "sqlite":
        return migrated_file(tmp_path / "hall.db")
    server = request.getfixturevalue("postgres")
    url: str = server.create_database()
    return url


def refused(response: Any, status: int, code: str) -> str:
    """Check that an HTTP answer refuses with ``status`` and error ``code``; its message."""
    assert response.status_code == status and response.json()["error"] == code, response.text
    message: str = response.json()["message"]
    return message


def new_player(client: TestClient, name: str = "Ann") -> str:
    """A new player's token."""
    response = client.post("/api/players", json={"name": name})
    assert response.status_code == 201, response.text
    token: str = response.json()["token"]
    return token


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_table(
    client: TestClient, token: str, game: str, bots: dict[int, str] | None = None, **settings: Any
) -> str:
    body = {
        "game": game,
        "settings": {**FAST, **settings},
        "bots": {str(k): v for k, v in (bots or {}).items()},
    }
    response = client.post("/api/tables", json=body, headers=auth(token))
    assert response.status_code == 201, response.text
    table: str = response.json()["table"]
    return table


@dataclass(eq=False)
class Watcher:
    """A connection as a table sees it (in-process tests talk to a table directly): every frame it was
    sent, as the JSON-ready value a socket would carry."""

    player: PlayerRow | None
    frames: list[dict[str, Any]] = field(default_factory=list)

    def send(self, frame: ServerFrame) -> None:
        self.frames.append(msgspec.json.decode(encode_bytes(frame)))  # (as the socket's JSON)

    def kinds(self) -> list[str]:
        return [f["type"] for f in self.frames]


# The tests' websocket sessions are the shared client (cardhall.loadclient), in-process.
Session = Client


def attach(ws: WebSocketTestSession, token: str | None) -> Session:
    """The shared client on a websocket a test opened itself (several at once, in one ``with``)."""
    return Client(ws.send_text, lambda timeout: ws.receive_text(), token)


@contextmanager
def session(client: TestClient, token: str | None) -> Iterator[Session]:
    with in_process(client, token) as s:
        yield s


def play_until(
    s: Session, table: str, frame: dict[str, Any], done: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """Play the first legal action whenever it is this seat's turn, until a frame of ``table`` is
    ``done``: once per event number, on the newest frame only (an older frame's action would be
    refused as stale)."""
    newest, acted = -1, -1
    for _ in steps(f"table {table} over the websocket"):
        if frame.get("table") == table and done(frame):
            break
        if frame["type"] in ("table", "update") and frame["table"] == table:
            newest = max(newest, frame["n"])
            if frame["legal"] and frame["n"] == newest and acted < newest:
                s.send(type="act", table=table, action=frame["legal"][0]["label"], n=frame["n"])
                acted = newest
        frame = s.receive()
    return frame


def play_to_the_end(s: Session, table: str, frame: dict[str, Any]) -> dict[str, Any]:
    return play_until(s, table, frame, lambda f: f.get("status") == "finished")


# --- a real server process ------------------------------------------------------------------------

load = load_script("load.py")  # its HTTP client and free port
http, free_port = load.http, load.free_port


def server_log(db: Path) -> Path:
    """Where :func:`running_server` writes the output of the server of the store ``db``."""
    return db.with_name(f"{db.stem}-server.log")


@contextmanager
def running_server(
    db: Path, port: int, *options: str, preexec_fn: Callable[[], None] | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    """``cardhall serve`` in its own process (with ``options`` besides its port and store), once it
    answers; killed (SIGKILL) if still alive. Its output goes to :func:`server_log` (a file, not a pipe:
    a pipe nobody reads would stop a server that logs much, once full). ``preexec_fn`` runs in the
    child before it starts (resource limits)."""
    with server_log(db).open("wb") as output:
        process = subprocess.Popen(
            [
                *(sys.executable, "-m", "cardhall", "serve"),
                *("--port", str(port), "--db", f"sqlite+aiosqlite:///{db}"),
                *options,
            ],
            stdout=output,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            preexec_fn=preexec_fn,
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                http(port, "GET", "/api/games")
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    text = server_log(db).read_text(errors="replace")
                    raise AssertionError(f"the server did not start:\n{text}") from None
                time.sleep(0.1)
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
