"""Whose address a request counts against (issue 47): ``X-Forwarded-For`` is believed only from the
proxies the operator named (``cardhall serve --trusted-proxy``), never by default. Before, uvicorn's
default trusted 127.0.0.1, so any process on the machine split the per-address buckets by sending the
header. And the operator's token cannot be guessed at leisure: wrong tokens are counted per address.

Real ``cardhall serve`` processes (the header is read by uvicorn's middleware, which the in-process
tests do not run), with the server's default rates: 30 new players from one address at once.
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from email.message import Message
from pathlib import Path

import pytest

from cardhall.server.rates import ADMIN_FAILURES_PER_ADDRESS, PLAYERS_PER_ADDRESS
from tests.server_helpers import free_port, running_server

pytestmark = [pytest.mark.slow, pytest.mark.process]


def post(port: int, path: str, body: object, headers: dict[str, str]) -> tuple[int, Message]:
    """The status and headers (read case-insensitively) of a POST (an error status too, not raised)."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", **headers},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.headers
    except urllib.error.HTTPError as e:
        return e.code, e.headers


def players_from_many_forwarded_addresses(port: int) -> list[int]:
    """One more new player than an address may make at once, each claiming another client address."""
    burst = int(PLAYERS_PER_ADDRESS.burst)
    return [
        post(port, "/api/players", {"name": f"P{k}"}, {"X-Forwarded-For": f"203.0.113.{k}"})[0]
        for k in range(burst + 1)
    ]


def test_a_forwarded_address_is_not_believed_from_a_proxy_nobody_named(tmp_path: Path) -> None:
    port = free_port()
    with running_server(tmp_path / "plain.db", port):
        statuses = players_from_many_forwarded_addresses(port)
    # Every request counted as 127.0.0.1's, whatever it claimed: the last one is beyond the burst.
    assert statuses[:-1] == [201] * (len(statuses) - 1) and statuses[-1] == 429, statuses


def test_a_named_proxys_forwarded_address_is_the_clients(tmp_path: Path) -> None:
    port = free_port()
    with running_server(tmp_path / "proxied.db", port, "--trusted-proxy", "127.0.0.1"):
        statuses = players_from_many_forwarded_addresses(port)
    assert statuses == [201] * len(statuses), statuses


def test_a_trusted_proxy_that_is_not_an_address_is_refused_in_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cardhall", "serve", "--trusted-proxy", "the-proxy"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done
    assert "--trusted-proxy must be an IP address or network" in done.stderr + done.stdout
    assert "Traceback" not in done.stderr


def test_admin_token_guesses_are_slowed_per_address(tmp_path: Path) -> None:
    port = free_port()
    token_file = tmp_path / "admin-token"
    token_file.write_text("the-operators-token-0123456789\n")
    body = {"reason": "test"}
    with running_server(tmp_path / "admin.db", port, "--admin-token-file", str(token_file)):
        wrong = {"Authorization": "Bearer not-the-token-at-all-000000"}
        guesses = [post(port, "/api/admin/tables/x/stop", body, wrong) for _ in range(11)]
        right = {"Authorization": "Bearer the-operators-token-0123456789"}
        after = post(port, "/api/admin/tables/x/stop", body, right)
    burst = int(ADMIN_FAILURES_PER_ADDRESS.burst)
    assert [s for s, _ in guesses[:burst]] == [403] * burst, guesses
    status, headers = guesses[burst]
    assert status == 429 and int(headers["Retry-After"]) >= 55, (status, headers)
    assert after[0] == 429  # (even the right token, from the guessing address, for a minute)
