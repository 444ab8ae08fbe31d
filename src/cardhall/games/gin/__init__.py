"""Gin: the game's registration (``ENTRY``) and its folder.

The rules are ``rules.py`` (compiled with the engine); beside them the game's data, each file named in
:mod:`cardhall.games.pieces` (its rules texts, hints, option words, browser texts, schema, playthroughs).
"""

from __future__ import annotations

from typing import Final

from cardhall.games import GameEntry, Length, Playthrough
from cardhall.games.gin.rules import Gin

ENTRY: Final = GameEntry(
    game=Gin,
    rules_bot="cardhall.bots.rules_gin",
    encoder="cardhall.rl.encoders.gin",
    terminal="cardhall.terminal.games.gin",
    bench=("gin(players=2,max_hands=1)", "gin(max_hands=5)"),
    conformance=(
        "gin(max_hands=6)",
        "gin(players=2,max_hands=2)",
        "gin(max_hands=3,target=10,team_scoring=both,undercut_bonus=25,gin_bonus=20,game_bonus=100,box_bonus=25)",
        "gin(players=2,max_hands=3,target=10,allow_same_discard=true,game_bonus=100,box_bonus=20)",
    ),
    playthroughs=(
        Playthrough(
            "gin-three-hand",
            "gin(players=3,target=100,max_hands=1,allow_same_discard=false,undercut_bonus=10,"
            "gin_bonus=25,team_scoring=captain,game_bonus=0,box_bonus=0,auto_arrange=false)",
            seed=48,
            prefer="knock",
        ),
        Playthrough(
            "gin-two-player",
            "gin(players=2,target=100,max_hands=1,allow_same_discard=false,undercut_bonus=10,"
            "gin_bonus=25,team_scoring=captain,game_bonus=0,box_bonus=0,auto_arrange=false)",
            seed=32,
            prefer="knock",
        ),
    ),
    max_actions=15_000,  # target 300: at most 1,452
    length=Length("target", 100),
    decision_weights={"upcard": 1, "draw": 1, "discard": 1, "arrange": 1, "layoff": 1},
)
