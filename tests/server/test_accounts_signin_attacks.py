"""Signing in attacked (issue 47), as an attacker would: nobody can lock an owner out by failing sign-ins
for his name (from one address, or from many through the trusted proxy: the devices he signed in on stay
open), sign-ins with the right password are bounded (a few hashes at once, rated per address and per
account, twenty sessions an account), and the default rates refill as slowly as documented (a planted
refill ten times too fast went unnoticed: the account tests set their own limits)."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from starlette.testclient import TestClient

from cardhall.server.app import create_app
from cardhall.server.hashing import AT_ONCE
from cardhall.server.rates import (
    SIGNIN_FAILURES_PER_ADDRESS_AND_NAME,
    SIGNIN_FAILURES_PER_NAME,
    Limits,
)
from tests.server.account_helpers import CHEAP, PASSWORD, account, app, read, sign_in
from tests.server_helpers import auth, free_port, refused, running_server

OWNER = "198.51.100.7"


def post(port: int, path: str, body: dict[str, Any], address: str, token: str | None = None) -> Any:
    """A POST through the trusted proxy (its ``X-Forwarded-For``): status and JSON answer."""
    headers = {"Content-Type": "application/json", "X-Forwarded-For": address}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), method="POST", headers=headers
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@pytest.mark.slow
@pytest.mark.process
def test_failed_sign_ins_from_anywhere_never_lock_the_owner_out_of_his_devices(tmp_path: Path) -> None:
    port = free_port()
    with running_server(tmp_path / "hall.db", port, "--trusted-proxy", "127.0.0.1"):
        _, made = post(port, "/api/players", {"name": "Ann"}, OWNER)
        status, mine = post(port, "/api/account", {"name": "Ann", "password": PASSWORD}, OWNER, made["token"])
        assert status == 201, mine
        device = mine["device"]

        # One address guessing: slowed after a few, the owner elsewhere signs in all the same.
        guesses = [
            post(port, "/api/signin", {"name": "Ann", "password": f"guess{k}"}, "203.0.113.9")
            for k in range(8)
        ]
        burst = int(SIGNIN_FAILURES_PER_ADDRESS_AND_NAME.burst)
        assert [s for s, _ in guesses] == [401] * burst + [429] * (8 - burst), guesses
        assert post(port, "/api/signin", {"name": "Ann", "password": PASSWORD}, OWNER)[0] == 201

        # Many addresses guessing one name: its own bucket runs out, and a new device of his is slowed
        # too (the price of guessing from a botnet); the devices he signed in on are not.
        spread = int(SIGNIN_FAILURES_PER_NAME.burst) - burst
        statuses = []
        for k in range(spread + 20):  # (the name's bucket refills a little while they guess: a few more)
            status, _ = post(port, "/api/signin", {"name": "Ann", "password": "guess"}, f"192.0.2.{k + 1}")
            statuses.append(status)
            if status != 401:
                break
        assert statuses[-1] == 429 and len(statuses) > spread, statuses
        refused_there = post(port, "/api/signin", {"name": "Ann", "password": PASSWORD}, "192.0.2.200")
        assert refused_there[0] == 429, refused_there
        body = {"name": "Ann", "password": PASSWORD, "device": device}
        status, again = post(port, "/api/signin", body, "192.0.2.201")
        assert status == 201, again
        # A forged proof buys nothing.
        forged = {"name": "Ann", "password": PASSWORD, "device": device[:-4] + "0000"}
        assert post(port, "/api/signin", forged, "192.0.2.202")[0] == 429


class Counting(PasswordHasher):
    """The cheap hash, counting how many of its calls run at once (on the app's threads)."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self.lock = threading.Lock()
        self.now = 0
        self.most = 0

    def _counted(self, work: Any) -> Any:
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
        try:
            time.sleep(0.05)  # (a real hash takes about a tenth of a second)
            return work()
        finally:
            with self.lock:
                self.now -= 1

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        return bool(self._counted(lambda: super(Counting, self).verify(hash, password)))

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        return str(self._counted(lambda: super(Counting, self).hash(password, salt=salt)))


@pytest.fixture
def counted(tmp_path: Path) -> Iterator[tuple[TestClient, Counting]]:
    hasher = Counting()
    app = create_app(
        f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}", limits=Limits().unpaced(), password_hasher=hasher
    )
    with TestClient(app) as client:
        yield client, hasher


def test_passwords_are_hashed_a_few_at_a_time_however_many_sign_in_at_once(
    counted: tuple[TestClient, Counting],
) -> None:
    client, hasher = counted
    ann, _ = account(client, "Ann")
    answers: list[int] = []

    def one() -> None:
        answers.append(client.post("/api/signin", json={"name": "Ann", "password": PASSWORD}).status_code)

    threads = [threading.Thread(target=one) for _ in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert hasher.most <= AT_ONCE, f"{hasher.most} hashes ran at once"
    assert answers.count(201) > 0 and set(answers) <= {201, 503}, answers
    # However many signed in, the account keeps its newest sessions only.
    assert read(client, lambda s: s.sessions(ann)) <= 20


def test_an_account_keeps_twenty_sessions_and_the_oldest_go(url_sqlite: str) -> None:
    with app(url_sqlite) as client:
        ann, first = account(client, "Ann")
        tokens = [sign_in(client, "Ann").json()["token"] for _ in range(25)]
        assert read(client, lambda s: s.sessions(ann)) == 20
        refused(client.get("/api/players/me", headers=auth(first)), 401, "bad_token")
        assert client.get("/api/players/me", headers=auth(tokens[-1])).status_code == 200
        refused(client.get("/api/players/me", headers=auth(tokens[4])), 401, "bad_token")  # the 5 oldest gone
        assert client.get("/api/players/me", headers=auth(tokens[5])).status_code == 200


def test_sign_ins_that_work_are_rated_per_account(url_sqlite: str) -> None:
    with app(url_sqlite, Limits()) as client:
        account(client, "Ann")
        codes = [sign_in(client, "Ann").status_code for _ in range(12)]
        assert codes == [201] * 10 + [429] * 2, codes


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_default_rates_refill_as_documented(url_sqlite: str) -> None:
    """With the server's default limits (not a test's own): five failures for a name from an address,
    then one a minute. Checked on the limiter's clock, moved by hand."""
    with TestClient(create_app(url_sqlite, limits=Limits(), password_hasher=CHEAP)) as client:
        clock = Clock()
        client.app.state.ctx.limiter.clock = clock  # type: ignore[attr-defined]
        account(client, "Ann")
        codes = [sign_in(client, "Ann", "guess").status_code for _ in range(5)]
        assert codes == [401] * 5
        answer = sign_in(client, "Ann")
        refused(answer, 429, "rate_limited")
        assert answer.headers["Retry-After"] == "60"
        clock.now += 59
        refused(sign_in(client, "Ann"), 429, "rate_limited")  # (a refill even 2% faster lets it through)
        clock.now += 1.5
        assert sign_in(client, "Ann").status_code == 201


@pytest.fixture
def url_sqlite(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}"
