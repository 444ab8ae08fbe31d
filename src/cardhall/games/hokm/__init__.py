"""Hokm: the game's registration (``ENTRY``) and its folder.

The rules are ``rules.py`` (compiled with the engine); beside them the game's data, each file named in
:mod:`cardhall.games.pieces` (its rules texts, hints, option words, browser texts, schema, playthroughs).
"""

from __future__ import annotations

from typing import Final

from cardhall.games import GameEntry, Length, Playthrough
from cardhall.games.hokm.rules import Hokm

ENTRY: Final = GameEntry(
    game=Hokm,
    rules_bot="cardhall.bots.rules_hokm",
    encoder="cardhall.rl.encoders.hokm",
    terminal="cardhall.terminal.games.hokm",
    bench=("hokm(max_hands=5)",),
    conformance=(
        "hokm(max_hands=2)",
        "hokm(max_hands=2,bidding=auction,overtricks=count)",
        "hokm(max_hands=2,must_trump_when_void=true,must_overtrump=true,overtricks=exact)",
        "hokm(max_hands=3,target=40)",
    ),
    playthroughs=(
        Playthrough(
            "hokm-compulsory",
            "hokm(target=500,max_hands=1,bidding=compulsory,must_trump_when_void=false,"
            "must_overtrump=false,overtricks=ignore,kaboot_fail=-100)",
            seed=7,
        ),
        Playthrough(
            "hokm-auction-count-overtrump",
            "hokm(target=500,max_hands=1,bidding=auction,must_trump_when_void=true,"
            "must_overtrump=true,overtricks=count,kaboot_fail=-200)",
            seed=8,
        ),
    ),
    max_actions=40_000,  # target 1500, rules bots: at most 3,638 actions in 40 matches
    length=Length("target", 500),
    decision_weights={"bidding": 3, "trump": 3, "play": 1},
)
