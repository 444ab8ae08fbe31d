"""Parametrises the shared conformance suite over each game test class's ``game_strings``, and gives
the store's tests one PostgreSQL server for the session (:mod:`tests.postgres`)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.postgres import INSTALL_HINT, PostgresServer, postgres_bin, postgres_server


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    if postgres_bin() is None:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is not installed: CI runs the store's tests on it ({INSTALL_HINT})")
        pytest.skip(f"PostgreSQL is not installed: the store's PostgreSQL tests are skipped ({INSTALL_HINT})")
    with postgres_server() as server:
        yield server


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "game_string" in metafunc.fixturenames and metafunc.cls is not None:
        strings = getattr(metafunc.cls, "game_strings", None)
        if strings:
            metafunc.parametrize("game_string", strings)
