"""The conformance suite (tests/games/conformance.py) on Hokm and its variants (auction, forced trumping and
overtrumping, overtricks)."""

from __future__ import annotations

from cardhall.registry import entry
from tests.games.conformance import ConformanceSuite


class TestHokmConformance(ConformanceSuite):
    game_strings = list(entry("hokm").conformance)  # (its entry, in its folder)
