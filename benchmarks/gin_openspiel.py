"""Two-player gin against OpenSpiel's ``SimpleGinRummyBot``, over duplicate deals.

    .venv/bin/python benchmarks/gin_openspiel.py [--bots rules hard gin_expert expert] [--deals 1000]
        [--seed 0] [--game 'gin(players=2,max_hands=1)'] [--versus BOT] [--json]

``gin_expert`` is the gin expert policy alone (``bots/gin_expert.py``, the ``expert_policy`` hook of
``bots/rules_gin.py``). ``--versus BOT`` plays the first bot named against another cardhall bot over the
same duplicate deals instead (no OpenSpiel). Needs OpenSpiel (``pip install 'cardhall[bench]'``).

Each deal (``gin(players=2,max_hands=1)``, seed ``--seed + i``) is played twice per bot, the cardhall bot
once as non-dealer and once as dealer, against OpenSpiel's C++ ``SimpleGinRummyBot``; a deal's figure is
the mean over the two seatings of the cardhall bot's points minus the OpenSpiel bot's (one hand: only the
winner scores). The 95 % interval is over deals. Every bot named meets the same deals in the same run.

How the two engines meet: cardhall referees the hand. An OpenSpiel ``gin_rummy`` state mirrors it
move by move (the same hands, up-card and stock order, fed through OpenSpiel's chance nodes), and the
OpenSpiel bot is asked for its move on that mirror, so it sees exactly what its own engine shows it.
The mirror runs until the first knock; the knock's layout and the lay-offs are played in cardhall:
when the OpenSpiel bot knocks, its melds are the ones it would lay in OpenSpiel (asked from the
mirror, matched to cardhall's layouts; where it lays a long run as two, the layout melding the same
cards); when it defends, it lays off nothing, as its source says
("Bot never lays off"). The rules agree on everything the two bots meet (knock at 10, gin and
undercut bonus 25, the up-card round, no discarding the card just taken) except the wall: cardhall
voids the hand when a discard leaves two cards in the stock, OpenSpiel lets the next player take the
up-card to knock first. A move one engine refuses and the other allows is counted (``mismatches``)
and that hand dropped from both seatings' figures.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Callable
from typing import Any

import cardhall
from cardhall.bots.base import BaseBot
from cardhall.core import Observation
from cardhall.games.gin.rules import (
    ARRANGE,
    ARRANGE_BASE,
    DONE,
    KNOCK_BASE,
    LAYOFF,
    LAYOFF_BASE,
    PASS,
    STOCK,
    TAKE,
    Gin,
    GinState,
)

GAME = "gin(players=2,max_hands=1)"  # --game to change
# OpenSpiel's gin_rummy actions (open_spiel/games/gin_rummy.h).
OS_DRAW_UPCARD, OS_DRAW_STOCK, OS_PASS, OS_KNOCK, OS_MELD_BASE = 52, 53, 54, 55, 56
# Suits: cardhall C D H S (0..3), OpenSpiel s c d h (0..3); ranks: cardhall 2..K A, OpenSpiel A..K.
_OS_SUIT = (1, 2, 3, 0)


def to_os(c: int) -> int:
    """A cardhall card int as OpenSpiel's."""
    return _OS_SUIT[c // 13] * 13 + (c % 13 + 1) % 13


FROM_OS = {to_os(c): c for c in range(52)}
Watch = Callable[[GinState, int, list[int]], None]


class Mismatch(Exception):
    """The engines disagree on a move's legality."""


class GinExpertPolicyBot(BaseBot):
    """``gin_expert``: the gin expert policy alone (``bots/gin_expert.py``), no search."""

    name = "gin_expert"

    def __init__(self, game: Gin) -> None:
        super().__init__(game)
        from cardhall.bots.gin_expert import expert_policy

        self._policy = expert_policy

    def act(self, observation: Observation, legal_actions: list[int], rng: random.Random) -> int:
        return self._policy(self.game, observation, legal_actions, rng)


def make(spec: str, game: Gin) -> Any:
    if spec == "gin_expert":
        return GinExpertPolicyBot(game)
    return cardhall.make_bot(spec, game)


def play(
    game: Gin, pyspiel: Any, seed: int, bot: Any, mine_is_nondealer: bool, watch: Watch | None = None
) -> float:
    """One hand: the cardhall bot's points minus the OpenSpiel bot's (``watch``: called with the state,
    the seat and its legal actions before each of the cardhall bot's decisions with a choice)."""
    state = game.new_game(seed=seed)
    assert isinstance(state, GinState)
    mine = state.nondealer if mine_is_nondealer else state.dealer
    theirs = 1 - mine
    osg = pyspiel.load_game("gin_rummy")
    mirror = osg.new_initial_state()
    for c in [*cards(state.hands[state.nondealer]), *cards(state.hands[state.dealer])]:
        mirror.apply_action(to_os(c))
    mirror.apply_action(to_os(state.pile[-1]))
    their_player = 0 if theirs == state.nondealer else 1
    sgrb = pyspiel.make_simple_gin_rummy_bot(osg.get_parameters(), their_player)
    rng = random.Random(seed * 2 + mine_is_nondealer)
    mirrored = True  # until the first knock

    def apply(seat: int, action: int) -> None:
        top = state.stock[-1]
        size = len(state.stock)
        state.apply(seat, action)
        if mirrored and len(state.stock) < size:  # cardhall drew: OpenSpiel deals the same card
            if not mirror.is_chance_node() and mirror.legal_actions() == [OS_DRAW_STOCK]:
                mirror.apply_action(OS_DRAW_STOCK)  # both passed the up-card
            mirror.apply_action(to_os(top))

    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        if seat == mine:
            if watch is not None and len(legal) > 1:
                watch(state, seat, legal)
            action = legal[0] if len(legal) == 1 else bot.act(state.observation(seat, ints=True), legal, rng)
            if mirrored and KNOCK_BASE <= action < LAYOFF_BASE:
                mirrored = False
            elif mirrored:
                os_action = _os_action(action)
                if os_action not in mirror.legal_actions():
                    raise Mismatch(f"{game.action_label(action)} refused by OpenSpiel")
                mirror.apply_action(os_action)
            apply(seat, action)
            continue
        # The OpenSpiel bot's seat.
        if state.phase == LAYOFF:
            action = DONE  # it never lays off
        elif state.phase == ARRANGE:
            action = _arrangement(state, mirror, sgrb)
        else:
            if mirror.current_player() != their_player:
                raise Mismatch(f"OpenSpiel's player {mirror.current_player()} to act, not its bot")
            if sorted(mirror.hands()[their_player]) != sorted(map(to_os, cards(state.hands[seat]))):
                raise Mismatch("the mirror's hand differs from cardhall's")
            os_action = sgrb.step(mirror)
            mirror.apply_action(os_action)
            if os_action == OS_DRAW_STOCK:
                action = STOCK
            elif os_action == OS_DRAW_UPCARD:
                action = TAKE
            elif os_action == OS_PASS:
                action = PASS
            elif os_action == OS_KNOCK:
                discard = sgrb.step(mirror)
                mirror.apply_action(discard)
                action = KNOCK_BASE + FROM_OS[discard]
                mirrored = False  # (the mirror still gives its melds, below)
            else:
                action = FROM_OS[os_action]
        if action not in legal:
            raise Mismatch(f"OpenSpiel's bot chose {game.action_label(action)}, illegal in cardhall")
        apply(seat, action)
    scores = state.scores
    return float(scores[mine] - scores[theirs])


def _os_action(action: int) -> int:
    if action == TAKE:
        return OS_DRAW_UPCARD
    if action == PASS:
        return OS_PASS
    if action == STOCK:
        return OS_DRAW_STOCK
    return to_os(action)


def cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def _arrangement(state: GinState, mirror: Any, sgrb: Any) -> int:
    """The cardhall layout matching the melds the OpenSpiel bot lays in its own engine."""
    melds = set()
    while True:
        a = sgrb.step(mirror)
        mirror.apply_action(a)
        if a < OS_MELD_BASE:
            break
        cards = [FROM_OS[c] for c in pyspiel_meld(a - OS_MELD_BASE)]
        melds.add(sum(1 << c for c in cards))
    for i, (layout, _, _) in enumerate(state.arrangements):
        if set(layout) == melds:
            return ARRANGE_BASE + i
    # OpenSpiel may lay one long run as two (cardhall joins adjacent runs): the same cards melded.
    melded = sum(melds)
    for i, (layout, _, _) in enumerate(state.arrangements):
        if sum(layout) == melded:
            return ARRANGE_BASE + i
    raise Mismatch("the OpenSpiel bot's melds are none of cardhall's layouts")


_UTILS: Any = None


def pyspiel_meld(meld_id: int) -> list[int]:
    return list(_UTILS.int_to_meld[meld_id])


def head_to_head(
    game: Gin, seed: int, bot: Any, other: Any, first_is_nondealer: bool, watch: Watch | None = None
) -> float:
    """One hand between two cardhall bots: ``bot``'s points minus ``other``'s (``watch``: as in
    :func:`play`, before each of ``bot``'s decisions with a choice)."""
    state = game.new_game(seed=seed)
    assert isinstance(state, GinState)
    mine = state.nondealer if first_is_nondealer else state.dealer
    rng = random.Random(seed * 2 + first_is_nondealer)
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        who = bot if seat == mine else other
        if watch is not None and seat == mine and len(legal) > 1:
            watch(state, seat, legal)
        action = legal[0] if len(legal) == 1 else who.act(state.observation(seat, ints=True), legal, rng)
        state.apply(seat, action)
    return float(state.scores[mine] - state.scores[1 - mine])


def versus(spec: str, other_spec: str, deals: int, first_seed: int, game_spec: str = GAME) -> dict[str, Any]:
    """``spec`` against another cardhall bot over the same duplicate deals (no OpenSpiel)."""
    game = cardhall.load_game(game_spec)
    assert isinstance(game, Gin)
    bot, other = make(spec, game), make(other_spec, game)
    started = time.process_time()
    margins = [
        sum(head_to_head(game, first_seed + i, bot, other, first) for first in (True, False)) / 2
        for i in range(deals)
    ]
    return {
        "game": game_spec,
        "bot": spec,
        "against": other_spec,
        "margin_per_hand": interval(margins),
        "cpu_seconds": round(time.process_time() - started, 1),
    }


def interval(values: list[float]) -> dict[str, float]:
    n = len(values)
    mean = sum(values) / n if n else 0.0
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n else 0.0
    return {"n": n, "mean": mean, "low": mean - half, "high": mean + half}


def run(
    specs: list[str], deals: int, first_seed: int, verbose: bool = False, game_spec: str = GAME
) -> dict[str, Any]:
    global _UTILS
    import pyspiel

    game = cardhall.load_game(game_spec)
    assert isinstance(game, Gin)
    _UTILS = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    report: dict[str, Any] = {"game": game_spec, "deals": deals, "seed": first_seed, "bots": {}}
    for spec in specs:
        bot = make(spec, game)
        margins: list[float] = []
        mismatches = 0
        started = time.process_time()
        for i in range(deals):
            try:
                pair = [play(game, pyspiel, first_seed + i, bot, first) for first in (True, False)]
            except Mismatch as e:
                if verbose:
                    print(f"deal {first_seed + i}: {e}")
                mismatches += 1
                continue
            margins.append(sum(pair) / 2)
        report["bots"][spec] = {
            "margin_per_hand": interval(margins),
            "mismatches": mismatches,
            "cpu_seconds": round(time.process_time() - started, 1),
        }
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", nargs="+", default=["rules", "gin_expert"])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", default=GAME, help=f"a two-player gin variant (default {GAME})")
    parser.add_argument(
        "--versus", metavar="BOT", help="play the first of --bots against this cardhall bot instead"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.versus:
        duel = versus(args.bots[0], args.versus, args.deals, args.seed, args.game)
        m = duel["margin_per_hand"]
        print(
            json.dumps(duel, indent=1)
            if args.json
            else (
                f"{duel['bot']} against {duel['against']}: {m['n']} deals  margin {m['mean']:+.2f} "
                f"[{m['low']:+.2f}, {m['high']:+.2f}]  cpu {duel['cpu_seconds']} s"
            )
        )
        return 0
    report = run(args.bots, args.deals, args.seed, game_spec=args.game)
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    for spec, row in report["bots"].items():
        m = row["margin_per_hand"]
        print(
            f"{spec:24s} {m['n']:5d} deals  margin {m['mean']:+.2f} [{m['low']:+.2f}, {m['high']:+.2f}]"
            f"  mismatches {row['mismatches']}  cpu {row['cpu_seconds']} s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
