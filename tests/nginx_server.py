"""A throwaway nginx in front of a test's hall: Debian's ``nginx`` binary, run as a process of the test
(never the machine's service), with the operator's template ``deploy/nginx/cardhall.conf`` rendered
into a directory of its own (its ports changed, nothing else) inside a minimal main configuration
that keeps every file nginx writes (pid, logs, temporary bodies) in that directory.

As root (the CI container) nginx runs as ``nobody`` through ``runuser``, as PostgreSQL runs as
``postgres`` in :mod:`tests.postgres`: the operator's nginx is never a root process that the test
made, and a non-root nginx ignores its ``user`` directive.
"""

from __future__ import annotations

import os
import pwd
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from tests.server_helpers import free_port, http

INSTALL_HINT = "apt-get install nginx"
TEMPLATE = Path(__file__).resolve().parent.parent / "deploy" / "nginx" / "cardhall.conf"
TEMPLATE_UPSTREAMS = ("127.0.0.1:8001", "127.0.0.1:8002")
UNIT = TEMPLATE.parent.parent / "systemd" / "cardhall@.service"


def unit_serve_options(port: int, node: str, db: str, redis: str) -> list[str]:
    """The options ``deploy/systemd/cardhall@.service`` gives ``cardhall serve`` (what follows
    ``serve`` in its ExecStart), for the instance on ``port`` named ``node`` of a hall on ``db`` and
    ``redis`` (its EnvironmentFile's CARDHALL_DB and CARDHALL_REDIS)."""
    text = UNIT.read_text().replace("\\\n", " ")
    found = re.search(r"^ExecStart=(.*)$", text, re.M)
    assert found, "no ExecStart in the unit"
    words = shlex.split(found.group(1))
    assert "serve" in words, words
    values = {"%i": str(port), "%H-%i": node, "${CARDHALL_DB}": db, "${CARDHALL_REDIS}": redis}
    options = [values.get(word, word) for word in words[words.index("serve") + 1 :]]
    assert not [w for w in options if "%" in w or "$" in w], f"a specifier the test does not know: {options}"
    return options


def nginx_binary() -> str | None:
    """The installed ``nginx`` (None: not installed; Debian puts it in /usr/sbin, not always on PATH)."""
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")


def render(template: str, ports: Sequence[int], listen: int) -> str:
    """The template with its upstream servers on ``ports`` and its ``listen`` on ``listen`` (of
    127.0.0.1); a template whose lines moved fails here, not in nginx."""
    assert len(ports) == len(TEMPLATE_UPSTREAMS), "the template names two processes"
    text = template
    for old, port in zip(TEMPLATE_UPSTREAMS, ports, strict=True):
        assert f"server {old} " in text, f"{old} is not in the template"
        text = text.replace(f"server {old} ", f"server 127.0.0.1:{port} ")
    assert "listen 80;" in text, "no `listen 80;` in the template"
    return text.replace("listen 80;", f"listen 127.0.0.1:{listen};")


def fail_timeout(template: str) -> float:
    """Seconds nginx leaves out a process it could not reach (the template's ``fail_timeout``)."""
    found = re.findall(r"fail_timeout=(\d+)s", template)
    assert found, "no fail_timeout in the template"
    return float(max(found, key=int))


MAIN = """\
daemon off;
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/error.log info;
events {{ worker_connections 512; }}
http {{
    access_log {dir}/access.log;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    include {dir}/cardhall.conf;
}}
"""


class Nginx:
    """One nginx in its own directory, on :attr:`port` of 127.0.0.1."""

    def __init__(self, binary: str, upstreams: Sequence[int]) -> None:
        self.binary = binary
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="cardhall-nginx-"))
        self.as_user: list[str] = []
        template = TEMPLATE.read_text()
        self.fail_timeout = fail_timeout(template)
        (self.dir / "cardhall.conf").write_text(render(template, upstreams, self.port))
        (self.dir / "nginx.conf").write_text(MAIN.format(dir=self.dir))
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(self.dir, nobody.pw_uid, nobody.pw_gid)
            self.as_user = ["runuser", "-u", "nobody", "--"]
        self.process: subprocess.Popen[bytes] | None = None

    def log(self) -> str:
        path = self.dir / "error.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def start(self) -> None:
        config = ["-p", str(self.dir), "-c", str(self.dir / "nginx.conf"), "-e", str(self.dir / "error.log")]
        tested = subprocess.run(
            [*self.as_user, self.binary, "-t", *config], capture_output=True, text=True, timeout=60
        )
        assert tested.returncode == 0, f"nginx -t:\n{tested.stdout}{tested.stderr}"
        self.process = subprocess.Popen(
            [*self.as_user, self.binary, *config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                http(self.port, "GET", "/healthz/live")
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"nginx did not answer:\n{self.log()}") from None
                time.sleep(0.1)

    def stop(self) -> None:
        try:
            if self.process is not None and self.process.poll() is None:
                # nginx itself (runuser waits for it): SIGTERM is its fast shutdown.
                pid_file = self.dir / "nginx.pid"
                if pid_file.exists():
                    os.kill(int(pid_file.read_text()), signal.SIGTERM)
                else:
                    self.process.terminate()
                try:
                    self.process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


@contextmanager
def nginx_server(upstreams: Sequence[int]) -> Iterator[Nginx]:
    """nginx running the template in front of ``upstreams``, stopped and removed on leaving;
    RuntimeError when nginx is not installed."""
    binary = nginx_binary()
    if binary is None:
        raise RuntimeError(f"nginx is not installed ({INSTALL_HINT})")
    server = Nginx(binary, upstreams)
    try:
        server.start()
        yield server
    finally:
        server.stop()
