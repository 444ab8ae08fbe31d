"""Svara: the game's registration (``ENTRY``) and its folder.

The rules are ``rules.py`` (compiled with the engine); beside them the game's data, each file named in
:mod:`cardhall.games.pieces` (its rules texts, hints, option words, browser texts, schema, playthroughs).
"""

from __future__ import annotations

from typing import Final

from cardhall.games import GameEntry, Length, Playthrough
from cardhall.games.svara.rules import Svara

ENTRY: Final = GameEntry(
    game=Svara,
    rules_bot="cardhall.bots.rules_svara",
    encoder="cardhall.rl.encoders.svara",
    terminal="cardhall.terminal.games.svara",
    bench=("svara(max_deals=1)",),
    conformance=(
        "svara(players=2,max_deals=4,stack=200)",
        "svara(players=3,max_deals=4,stack=300,svara_fee=half_pot,joker=substitute)",
        "svara(players=3,max_deals=3,stack=100,ante=5,min_blind=2,svara_join=none)",
        "svara(players=8,max_deals=3,stack=200)",
    ),
    playthroughs=(
        Playthrough(
            "svara-three",
            "svara(players=3,ante=10,stack=100,min_blind=1,max_deals=4,svara_join=anyone,"
            "svara_fee=share,joker=standard,blind_option=false)",
            seed=8,
        ),
    ),
    max_actions=300_000,  # 4 players, 100 antes: at most 22,460 (8 players at 300 antes: hours of bots)
    length=Length("stack / ante", 100),
    decision_weights={"svara join": 1, "blind": 1, "open": 1},
    unit="chips",
)
