"""A hall of real ``cardhall serve`` processes on one PostgreSQL and one Redis (:mod:`tests.postgres`,
:mod:`tests.redis_server`), and websocket clients that play through any of them, keeping what each
was acknowledged, so a test can check every stored record against it after killing, stopping or
cutting off parts of the hall."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

import cardhall
from tests.server_helpers import free_port, http

SETTINGS = {"bot_pace_ms": 0, "turn_seconds": 0, "away_seconds": 600}


@dataclass
class Node:
    """One ``cardhall serve`` of the hall."""

    name: str
    port: int
    log: Path
    argv: list[str]
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                self.argv,
                stdout=output,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        deadline = time.monotonic() + 60
        while True:
            try:
                http(self.port, "GET", "/healthz/live")
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"{self.name} did not start:\n{self.text()}") from None
                time.sleep(0.1)

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def term(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=60)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@contextlib.contextmanager
def hall(tmp_path: Path, db: str, redis: str, count: int, *options: str) -> Iterator[list[Node]]:
    """``count`` processes of one hall, each on its own port, killed at the end."""
    nodes = []
    for i in range(count):
        name, port = f"n{i}", free_port()
        argv = [
            *(sys.executable, "-m", "cardhall", "serve", "--port", str(port), "--db", db),
            *("--redis", redis, "--node", name, "--no-rate-limits", *options),
        ]
        nodes.append(Node(name, port, tmp_path / f"{name}.log", argv))
    try:
        for node in nodes:
            node.start()
        yield nodes
    finally:
        for node in nodes:
            node.stop()


def new_table(port: int, token: str, game: str, bots: dict[str, str]) -> str:
    body = {"game": game, "settings": SETTINGS, "bots": bots}
    table: str = http(port, "POST", "/api/tables", body, token)["table"]
    return table


@dataclass
class Client:
    """A person at one table through the process on ``port``: his last view, and the actions the
    hall acknowledged (an ``action`` event of his seat showing it)."""

    port: int
    token: str
    table: str
    seat: int
    ws: ClientConnection | None = None
    frame: dict[str, Any] = field(default_factory=dict)
    n: int = 0
    pending: tuple[int, str] | None = None  # (the n it answered, its label)
    acked: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    refs: int = 0
    connections: int = 0  # how many times it connected

    def connect(self, port: int | None = None) -> None:
        """(Re)connect and join the seat with ``since``: what a browser does after a drop."""
        if port is not None:
            self.port = port
        self.connections += 1
        if self.ws is not None:
            self.ws.close()
        # (entered as a context manager, which websockets asks for, and closed by the next connect)
        self.ws = connect(f"ws://127.0.0.1:{self.port}/ws", open_timeout=10).__enter__()
        self.send(type="hello", token=self.token)
        self.pending = None
        self.send(type="join", table=self.table, seat=self.seat, since=self.n)

    def send(self, **message: Any) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps(message))

    def pump(self, timeout: float = 0.05) -> bool:
        """Read what has come; False when the connection closed."""
        assert self.ws is not None
        try:
            while True:
                self._read(json.loads(self.ws.recv(timeout=timeout)))
                timeout = 0
        except TimeoutError:
            return True
        except ConnectionClosed:
            return False

    def _read(self, frame: dict[str, Any]) -> None:
        self.kinds.append(frame["type"])
        if frame["type"] == "error" and self.pending is not None:
            self.pending = None  # refused: not acknowledged, played again
        if frame.get("table") != self.table or frame["type"] not in ("table", "update", "paused", "resumed"):
            return
        if frame["type"] in ("table", "update"):
            for event in frame.get("events", []):
                if (
                    self.pending is not None
                    and event["type"] == "action"
                    and event["seat"] == self.seat
                    and event["n"] > self.pending[0]
                ):
                    assert event["action"] == self.pending[1], (event, self.pending)
                    self.acked.append(self.pending[1])
                    self.pending = None
            if frame["type"] == "table":
                self.pending = None  # a full view (a join, a move of the table): a move not in it was lost
            if frame["type"] == "table" or frame["n"] >= self.n:
                self.frame = {**self.frame, **frame}
                self.n = frame["n"]
        elif frame["type"] == "paused":
            self.frame["paused"] = frame["reason"]
        else:
            self.frame["paused"] = None

    @property
    def over(self) -> bool:
        return self.frame.get("status") in ("finished", "abandoned")

    def move(self) -> bool:
        """Play the first legal action if it is his turn and nothing waits; whether he did."""
        legal = self.frame.get("legal") or []
        if self.pending is not None or not legal or self.frame.get("paused") or self.over:
            return False
        self.refs += 1
        self.pending = (self.n, legal[0]["label"])
        self.send(type="act", table=self.table, action=legal[0]["action"], n=self.n, id=self.refs)
        return True


def play(
    clients: list[Client],
    until: Callable[[], bool],
    timeout: float = 60,
    on_closed: Callable[[Client], None] | None = None,
) -> None:
    """Every client moves when he can until ``until()`` (or every match is over)."""
    deadline = time.monotonic() + timeout
    while not until():
        if time.monotonic() > deadline:
            views = [(c.seat, c.n, c.pending, c.frame.get("status"), c.frame.get("paused")) for c in clients]
            raise AssertionError(f"the tables stopped moving: {views}")
        for c in clients:
            if not c.pump(0.02):
                if on_closed is None:
                    raise AssertionError(f"seat {c.seat}'s connection closed")
                on_closed(c)
                continue
            c.move()
        if all(c.over for c in clients):
            return


def check_record(port: int, table: str, clients: list[Client]) -> dict[str, Any]:
    """The finished match's record replays, and every action a person was acknowledged is in it, in
    the order he played them."""
    record: dict[str, Any] = http(port, "GET", f"/api/tables/{table}/record")
    state = cardhall.replay(record)
    assert state.is_over
    game = cardhall.load_game(record["game"])
    for c in clients:
        if c.table != table:
            continue
        labels = iter(game.action_label(a) for s, a in record["actions"] if s == c.seat)
        # Every acknowledged action, in order, among the seat's stored ones (a subsequence).
        assert all(label in labels for label in c.acked), (c.seat, c.acked)
    return record
