"""Parametrises the shared conformance suite over each game test class's ``game_strings``."""

from __future__ import annotations

import pytest


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "game_string" in metafunc.fixturenames and metafunc.cls is not None:
        strings = getattr(metafunc.cls, "game_strings", None)
        if strings:
            metafunc.parametrize("game_string", strings)
