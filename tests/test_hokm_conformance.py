"""The conformance suite (tests/conformance.py) on Hokm and its variants (auction, forced trumping and
overtrumping, overtricks)."""

from __future__ import annotations

from tests.conformance import ConformanceSuite


class TestHokmConformance(ConformanceSuite):
    game_strings = [
        "hokm(max_hands=2)",
        "hokm(max_hands=2,bidding=auction,overtricks=count)",
        "hokm(max_hands=2,must_trump_when_void=true,must_overtrump=true,overtricks=exact)",
        "hokm(max_hands=3,target=40)",
    ]
