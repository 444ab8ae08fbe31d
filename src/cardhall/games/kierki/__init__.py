"""Kierki: the game's registration (``ENTRY``) and its folder.

The rules are ``rules.py`` (compiled with the engine); beside them the game's data, each file named in
:mod:`cardhall.games.pieces` (its rules texts, hints, option words, browser texts, schema, playthroughs).
"""

from __future__ import annotations

from typing import Final

from cardhall.games import GameEntry, Playthrough
from cardhall.games.kierki.rules import Kierki

ENTRY: Final = GameEntry(
    game=Kierki,
    rules_bot="cardhall.bots.rules_kierki",
    encoder="cardhall.rl.encoders.kierki",
    terminal="cardhall.terminal.games.kierki",
    bench=("kierki",),
    conformance=(
        "kierki",
        "kierki(trump_chooser=left_of_dealer,trump_leader=left_of_dealer,lottery_start_rank=8)",
        "kierki(first_deal=8,trump_leader=left_of_dealer,lottery_starter=left_of_dealer)",
        "kierki(first_deal=3,last_deal=4)",
    ),
    playthroughs=(
        Playthrough(
            "kierki-robber-and-trumps",
            "kierki(trump_chooser=dealer,trump_leader=dealer,lottery_start_rank=7,"
            "lottery_starter=dealer,first_deal=7,last_deal=8)",
            seed=3,
        ),
        Playthrough(
            "kierki-lottery-variants",
            "kierki(trump_chooser=left_of_dealer,trump_leader=left_of_dealer,lottery_start_rank=8,"
            "lottery_starter=left_of_dealer,first_deal=11,last_deal=12)",
            seed=4,
        ),
    ),
    max_actions=7_000,  # 12 deals: at most 645
    decision_weights={"trump": 1, "lottery": 1, "play": 1},
)
