"""The operator's files agree with one another and with ``cardhall serve`` (docs/operator.md): systemd
reads the unit and the target without a complaint (``systemd-analyze verify``, where installed); the
unit's options are ones ``cardhall serve`` takes, its variables are the environment file's,
the target starts the processes nginx's upstream names; and ``deploy/systemd/cardhall-rolling-restart``
restarts one process at a time, waiting for each one's ``/healthz/ready`` before the next (run with a
stand-in ``systemctl`` that writes down what it was asked, and two small servers answering
``/healthz/ready``: the first one answers 503 a few times after its restart), and stops at a process
that never gets ready.

The nginx template itself runs in Debian's nginx in tests/test_operator_nginx.py."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from cardhall.cli import build_parser
from tests.nginx_server import TEMPLATE, UNIT, unit_serve_options
from tests.server_helpers import free_port

SYSTEMD = UNIT.parent
SCRIPT = SYSTEMD / "cardhall-rolling-restart"


def test_the_units_options_are_cardhall_serves() -> None:
    options = unit_serve_options(8001, "host-8001", "postgresql+asyncpg://u@h/d", "redis://h:6379/0")
    args = build_parser().parse_args(["serve", *options])
    assert args.port == 8001 and args.host == "127.0.0.1"
    assert args.trusted_proxy == ["127.0.0.1"] and args.max_connections_per_address == 0
    assert args.db.startswith("postgresql") and args.redis and args.node == "host-8001"


def test_the_unit_reads_every_variable_it_uses_from_the_environment_file() -> None:
    used = set(re.findall(r"\$\{(\w+)\}", UNIT.read_text()))
    defined = set(re.findall(r"^(\w+)=", (SYSTEMD / "cardhall.env").read_text(), re.M))
    assert used and used <= defined, (used, defined)
    assert "EnvironmentFile=/etc/cardhall/cardhall.env" in UNIT.read_text()


def test_the_target_starts_the_processes_nginx_sends_to() -> None:
    wanted = re.findall(r"cardhall@(\d+)\.service", (SYSTEMD / "cardhall.target").read_text())
    upstream = re.findall(r"^\s*server 127\.0\.0\.1:(\d+) ", TEMPLATE.read_text(), re.M)
    assert wanted and wanted == upstream, (wanted, upstream)
    assert "PartOf=cardhall.target" in UNIT.read_text()
    assert "WantedBy=cardhall.target" in UNIT.read_text()


class Health:
    """A stand-in process: ``/healthz/ready`` answers 503 ``not_ready`` times after each restart (the
    stand-in systemctl says when), then 200."""

    def __init__(self, log: list[str], not_ready: int) -> None:
        self.log = log
        self.not_ready = not_ready
        self.left = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                ready = outer.left == 0
                outer.left = max(0, outer.left - 1)
                outer.log.append(f"ready? {outer.port} {200 if ready else 503}")
                self.send_response(200 if ready and self.path == "/healthz/ready" else 503)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = int(self.server.server_address[1])

    def restarted(self) -> None:
        self.left = self.not_ready


@contextmanager
def serving(health: Health) -> Iterator[Health]:
    thread = threading.Thread(target=health.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield health
    finally:
        health.server.shutdown()
        health.server.server_close()


def fake_systemctl(directory: Path, calls: Path) -> None:
    """A ``systemctl`` that writes its arguments to ``calls`` (and nothing else)."""
    directory.mkdir()
    script = directory / "systemctl"
    script.write_text(f'#!/bin/sh\necho "systemctl $*" >> {calls}\n')
    script.chmod(0o755)


def test_the_rolling_restart_restarts_one_process_at_a_time_once_the_last_is_ready(tmp_path: Path) -> None:
    log: list[str] = []
    calls = tmp_path / "calls"
    calls.touch()
    fake_systemctl(tmp_path / "bin", calls)
    with serving(Health(log, not_ready=3)) as a, serving(Health(log, not_ready=0)) as b:
        a.restarted()  # (its 503s come right after its restart, which is the script's first step)
        env = {**os.environ, "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}", "FAIL_TIMEOUT": "0"}
        done = subprocess.run(
            [str(SCRIPT), str(a.port), str(b.port)], capture_output=True, text=True, timeout=120, env=env
        )
    assert done.returncode == 0, done.stderr
    restarts = calls.read_text().splitlines()
    assert restarts == [
        f"systemctl restart cardhall@{a.port}.service",
        f"systemctl restart cardhall@{b.port}.service",
    ]
    # a was asked until it answered 200 (three 503s first), and only then was b restarted.
    assert log[:4] == [f"ready? {a.port} 503"] * 3 + [f"ready? {a.port} 200"], log
    assert log[4:] == [f"ready? {b.port} 200"], log
    assert "every process restarted" in done.stdout


def test_the_rolling_restart_stops_at_a_process_that_never_gets_ready(tmp_path: Path) -> None:
    calls = tmp_path / "calls"
    calls.touch()
    fake_systemctl(tmp_path / "bin", calls)
    env = {**os.environ, "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}", "READY_SECONDS": "1"}
    never = free_port()  # nothing listens there
    done = subprocess.run(
        [str(SCRIPT), str(never), "8002"], capture_output=True, text=True, timeout=60, env=env
    )
    assert done.returncode == 1 and f"cardhall@{never} is not ready after 1 s" in done.stderr, done
    assert calls.read_text().splitlines() == [f"systemctl restart cardhall@{never}.service"]  # not 8002
    usage = subprocess.run([str(SCRIPT)], capture_output=True, text=True, timeout=30, env=env)
    assert usage.returncode == 2 and "usage" in usage.stderr


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_reads_the_unit_and_the_target_without_a_complaint(tmp_path: Path) -> None:
    # The unit as installed, but for the program it starts (the clone is not in /opt/cardhall here).
    unit = UNIT.read_text().replace("/opt/cardhall/.venv/bin/cardhall", shutil.which("echo") or "/bin/echo")
    (tmp_path / "cardhall@.service").write_text(unit)
    (tmp_path / "cardhall@8001.service").symlink_to(tmp_path / "cardhall@.service")
    shutil.copy(SYSTEMD / "cardhall.target", tmp_path / "cardhall.target")
    done = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", "cardhall@8001.service", "cardhall.target"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "cardhall" not in done.stdout + done.stderr, done
