"""The operator's guide's hall, for real (docs/operator.md, "Many processes behind nginx"): Debian's
nginx running ``deploy/nginx/cardhall.conf`` (:mod:`tests.nginx_server`) in front of two ``cardhall
serve`` processes on one PostgreSQL and one Redis, started as ``deploy/systemd/cardhall@.service``
starts them (its ExecStart's options: ``--trusted-proxy 127.0.0.1``, ``--max-connections-per-address
0``; the server's default rates).

- The per-address limits count a client's own address: through nginx (which sets X-Forwarded-For to
  the address it saw, whatever the client sent), and, for a client that reaches a process directly
  with a forged X-Forwarded-For, the address it comes from.
- People play through nginx by websocket; a rolling restart (SIGTERM to one process, started again and
  waited for until ``/healthz/ready`` answers and nginx's ``fail_timeout`` has passed, then the other)
  loses no table: every match ends, and every action a person was acknowledged is in its record.
"""

from __future__ import annotations

import json
import os
import sys
import time
import urllib.error
from http.client import HTTPConnection
from pathlib import Path

import pytest
from websockets.exceptions import InvalidHandshake

from cardhall.server.rates import PLAYERS_PER_ADDRESS
from tests.cluster_helpers import Client, Node, check_record, new_table, play
from tests.nginx_server import INSTALL_HINT, Nginx, nginx_binary, nginx_server, unit_serve_options
from tests.postgres import PostgresServer
from tests.server_helpers import free_port, http

pytestmark = [
    pytest.mark.process,
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="nginx and signals as on Debian"),
]
GAME = "hokm(max_hands=2)"


@pytest.fixture
def nginx_installed() -> None:
    if nginx_binary() is None:
        if os.environ.get("CI"):
            pytest.fail(f"nginx is not installed: CI runs the operator's nginx test on it ({INSTALL_HINT})")
        pytest.skip(f"nginx is not installed: the operator's nginx test is skipped ({INSTALL_HINT})")


def new_player(port: int, source: str, forged: str) -> int:
    """The status of ``POST /api/players`` sent from the local address ``source`` (127.0.0.x: the
    whole 127/8 is this machine's) with a forged X-Forwarded-For."""
    conn = HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    try:
        body = json.dumps({"name": "Guest"})
        headers = {"Content-Type": "application/json", "X-Forwarded-For": forged}
        conn.request("POST", "/api/players", body=body, headers=headers)
        return conn.getresponse().status
    finally:
        conn.close()


def check_addresses(front: Nginx, direct: Node) -> None:
    burst = int(PLAYERS_PER_ADDRESS.burst)
    # Straight to a process, from an address nobody trusts: its forged header is ignored, so one
    # address's burst is all it gets.
    statuses = [new_player(direct.port, "127.0.0.5", f"198.51.100.{k}") for k in range(burst + 1)]
    assert statuses == [201] * burst + [429], statuses
    # Through nginx: counted against the client's address (127.0.0.3), not the forged one; the two
    # processes keep their own buckets, so 2 * burst + 2 requests overfill at least one of them.
    statuses = [new_player(front.port, "127.0.0.3", f"203.0.113.{k}") for k in range(2 * burst + 2)]
    assert 429 in statuses and statuses.count(201) <= 2 * burst, statuses
    # ... and not against nginx's own address: another client through the same nginx is not refused.
    statuses = [new_player(front.port, "127.0.0.4", "203.0.113.1") for _ in range(4)]
    assert statuses == [201] * 4, statuses


def reconnect(c: Client, port: int) -> None:
    """What a browser does when its connection drops: connect again (through nginx), a few times if
    nginx has nobody to send it to for a moment (502)."""
    for _ in range(50):
        try:
            c.connect(port)
            return
        except (OSError, InvalidHandshake):
            time.sleep(0.2)
    c.connect(port)


def wait_ready(node: Node) -> None:
    """Until the process's ``/healthz/ready`` answers 200 (what the rolling-restart script polls)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            if http(node.port, "GET", "/healthz/ready")["status"] == "ready":
                return
        except OSError:
            pass
        assert time.monotonic() < deadline, node.text()
        time.sleep(0.2)


def test_two_processes_behind_nginx_count_clients_addresses_and_restart_one_at_a_time(
    tmp_path: Path, postgres: PostgresServer, redis_url: str, nginx_installed: None
) -> None:
    db = postgres.create_database()
    nodes = []
    for name in ("n0", "n1"):
        port = free_port()
        argv = [sys.executable, "-m", "cardhall", "serve", *unit_serve_options(port, name, db, redis_url)]
        nodes.append(Node(name, port, tmp_path / f"{name}.log", argv))
    try:
        for node in nodes:
            node.start()
        with nginx_server([n.port for n in nodes]) as front:
            check_addresses(front, nodes[0])
            assert http(front.port, "GET", "/healthz/ready")["status"] == "ready"
            with pytest.raises(urllib.error.HTTPError) as refused:  # (each process's own, not the world's)
                http(front.port, "GET", "/metrics")
            assert refused.value.code == 403

            port = front.port  # everything below goes through nginx
            ann = http(port, "POST", "/api/players", {"name": "Ann"})["token"]
            bob = http(port, "POST", "/api/players", {"name": "Bob"})["token"]
            tables = [new_table(port, ann, GAME, {"2": "easy"}), new_table(port, bob, GAME, {"2": "easy"})]
            clients = [Client(port, ann, t, 0) for t in tables] + [Client(port, bob, t, 1) for t in tables]
            for c in clients:
                c.connect()

            def moves(count: int) -> None:
                target = sum(len(c.acked) for c in clients) + count
                play(
                    clients,
                    lambda: sum(len(c.acked) for c in clients) >= target or all(c.over for c in clients),
                    on_closed=lambda c: reconnect(c, port),
                )

            moves(4)
            for node in nodes:
                node.term()  # its tables go to the other process; its people reconnect through nginx
                moves(4)
                node.start()
                wait_ready(node)
                time.sleep(front.fail_timeout)  # nginx tries it again only after fail_timeout
            assert any(c.connections > 1 for c in clients)  # the restarts dropped people, who came back
            play(clients, lambda: all(c.over for c in clients), on_closed=lambda c: reconnect(c, port))
            for table in tables:
                check_record(port, table, clients)
            # nginx passed the websockets through: its access log shows the upgrades (101).
            access = (front.dir / "access.log").read_text()
            assert '"GET /ws HTTP/1.1" 101' in access, access[-2000:]
    finally:
        for node in nodes:
            node.stop()
