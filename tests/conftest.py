"""Parametrises the shared conformance suite over each game test class's ``game_strings``, gives the
store's tests one PostgreSQL server for the session (:mod:`tests.postgres`) and marks them
``postgres``, and bounds every match a test plays through a :class:`~cardhall.table.Table` in this
process. (The markers are listed in pyproject.toml; ``pytest -m "not slow"`` is the quick run.)

The bound: a Table refuses, by failing the test, an action after :data:`tests.helpers.MAX_STEPS` in
one match. Loops in the tests have their own bounds (:func:`tests.helpers.playing`); this one is for
the loops they call (``Table.play`` and ``run_bots``, whose own default is ten million actions,
``simulate``, the RL environments, the server's tables), so a rule bug that never ends a match fails
with a message instead of hanging and growing."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from cardhall.table import Table
from tests.helpers import MAX_STEPS
from tests.postgres import INSTALL_HINT, PostgresServer, postgres_bin, postgres_server
from tests.redis_server import INSTALL_HINT as REDIS_INSTALL_HINT
from tests.redis_server import RedisServer, redis_binary, redis_server


@pytest.fixture(scope="session", autouse=True)
def bounded_tables() -> Iterator[None]:
    apply = Table.apply

    def bounded_apply(
        self: Table, seat: int, action: int | str, expect: int | None = None, *, report: bool = True
    ) -> Any:
        if len(self.state.history) >= MAX_STEPS:
            pytest.fail(f"{self.game} seed {self.seed}: still going after {MAX_STEPS} actions; never ends?")
        return apply(self, seat, action, expect, report=report)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Table, "apply", bounded_apply)
        yield


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    if postgres_bin() is None:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is not installed: CI runs the store's tests on it ({INSTALL_HINT})")
        pytest.skip(f"PostgreSQL is not installed: the store's PostgreSQL tests are skipped ({INSTALL_HINT})")
    with postgres_server() as server:
        yield server


@pytest.fixture(scope="session")
def redis_service() -> Iterator[RedisServer]:
    """One Redis server for the session; a test takes a database of its own with
    :meth:`RedisServer.database_url` (the ``redis_url`` fixture), or its own server from
    :func:`tests.redis_server.redis_server` when it restarts Redis."""
    if redis_binary() is None:
        if os.environ.get("CI"):
            pytest.fail(
                f"Redis is not installed: CI runs the many-process tests on it ({REDIS_INSTALL_HINT})"
            )
        pytest.skip(f"Redis is not installed: the many-process tests are skipped ({REDIS_INSTALL_HINT})")
    with redis_server() as server:
        yield server


@pytest.fixture
def redis_url(redis_service: RedisServer) -> str:
    return redis_service.database_url()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that uses the PostgreSQL server is marked ``postgres`` (``-m "not postgres"``): those
    that ask for the ``postgres`` fixture, and the store's tests on the ``postgresql`` backend (their
    ``url`` fixtures ask for it only for that parameter); every test on the session's Redis, ``redis``;
    every slow test that races a clock (a browser, a process, a server of its own), ``serial``."""
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        fixtures = getattr(item, "fixturenames", ())
        if "postgres" in fixtures or "postgresql" in params.values():
            item.add_marker(pytest.mark.postgres)
        if "redis_service" in fixtures:
            item.add_marker(pytest.mark.redis)
        if item.get_closest_marker("slow") and (
            any(item.get_closest_marker(m) for m in ("browser", "process", "postgres", "redis"))
            or item.module.__name__.rsplit(".", 1)[-1] in SERIAL_MODULES
        ):
            item.add_marker(pytest.mark.serial)


# Slow tests that are none of browser, process, postgres or redis and still race a clock (the bot tier's
# workers, a store's lock timeout): `make test` runs them alone, with the others marked serial.
SERIAL_MODULES = {"test_server_hints", "test_server_reviews", "test_store_faults", "test_redis_server"}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A conformance class's tests run on each of its ``game_strings``; the schema check (it asks for
    ``schema_seed``) on each string and the first two seeds, all of them marked ``slow`` but the class's
    ``quick_game_string`` on its first seed, so that the quick run checks every game's schema once."""
    cls = metafunc.cls
    if "game_string" not in metafunc.fixturenames or cls is None:
        return
    strings = getattr(cls, "game_strings", None)
    if not strings:
        return
    if "schema_seed" not in metafunc.fixturenames:
        metafunc.parametrize("game_string", strings)
        return
    quick = getattr(cls, "quick_game_string", None) or strings[0]
    if quick not in strings:
        raise pytest.UsageError(f"{cls.__name__}.quick_game_string {quick!r} is not one of its game_strings")
    seeds = cls.seeds[:2]
    metafunc.parametrize(
        ("game_string", "schema_seed"),
        [
            pytest.param(s, seed, marks=() if (s, seed) == (quick, seeds[0]) else pytest.mark.slow)
            for s in strings
            for seed in seeds
        ],
    )
