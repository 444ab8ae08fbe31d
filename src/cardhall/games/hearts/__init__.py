"""Hearts: the game's registration (``ENTRY``) and its folder.

The rules are ``rules.py`` (compiled with the engine); beside them the game's data, each file named in
:mod:`cardhall.games.pieces` (its rules texts, hints, option words, browser texts, schema, playthroughs).
"""

from __future__ import annotations

from typing import Final

from cardhall.games import GameEntry, Length, Playthrough
from cardhall.games.hearts.rules import Hearts

ENTRY: Final = GameEntry(
    game=Hearts,
    rules_bot="cardhall.bots.rules_hearts",
    encoder="cardhall.rl.encoders.hearts",
    terminal="cardhall.terminal.games.hearts",
    bench=("hearts(decks=1,players=4,max_hands=1)", "hearts(max_hands=5)"),
    conformance=(
        "hearts(max_hands=2)",
        "hearts(players=7,max_hands=2,moon_value=52,passing=cycle)",
        "hearts(players=8,max_hands=2,first_lead=two_clubs,points_on_first_trick=false)",
        "hearts(players=9,max_hands=2,dead_trick_lead=left,widow=last_trick)",
        "hearts(players=10,max_hands=2,queen_breaks_hearts=false,moon=plus)",
        "hearts(players=11,max_hands=2,passing=none,moon=minus)",
        "hearts(decks=1,players=4,max_hands=3)",
        "hearts(decks=1,players=3,max_hands=2,passing=cycle,first_lead=two_clubs)",
        "hearts(decks=1,players=5,max_hands=2,points_on_first_trick=false,moon=none)",
        "hearts(decks=1,players=7,max_hands=2,target=40)",
    ),
    playthroughs=(
        Playthrough(
            "hearts-cancellation-6",
            "hearts(players=6,decks=2,target=150,max_hands=1,moon_value=26,moon=choice,"
            "passing=alternate,first_lead=no_points,points_on_first_trick=true,"
            "queen_breaks_hearts=true,dead_trick_lead=leader,widow=first_trick)",
            seed=5,
        ),
        Playthrough(
            "hearts-one-deck-4",
            "hearts(players=4,decks=1,target=150,max_hands=1,moon_value=26,moon=choice,"
            "passing=alternate,first_lead=no_points,points_on_first_trick=true,"
            "queen_breaks_hearts=true,dead_trick_lead=leader,widow=first_trick)",
            seed=6,
        ),
    ),
    max_actions=120_000,  # 11 players, target 450: at most 10,956
    length=Length("target", 150),
    decision_weights={"pass": 1, "play": 1, "moon": 1},
)
