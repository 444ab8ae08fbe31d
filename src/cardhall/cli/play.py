"""``cardhall play``: one person at a terminal against bots, through the Table (see cardhall.terminal).

Decisions: the other seats are ``normal`` bots unless ``--bots`` names others (the browser's default
opponent, so a first match in the terminal is the match the page offers); ``--seat`` counts from 1, as
the page does (:mod:`cardhall.terminal.seats`); ``--help`` lists the games and the bot levels, read from the
registry and :data:`cardhall.bots.BOT_LEVELS`, so it cannot fall behind them.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from cardhall.bots import BOT_LEVELS
from cardhall.cli.common import bot_list
from cardhall.errors import CardhallError, InvalidOptionError
from cardhall.registry import game_classes, load_game
from cardhall.rulebook import LANGUAGES
from cardhall.table import Occupant, Table
from cardhall.terminal import saved
from cardhall.terminal.seats import seat_name, seat_option
from cardhall.terminal.session import Session
from cardhall.terminal.style import terminal_style

DEFAULT_DELAY = 0.4


DEFAULT_BOT = "normal"


def _seats(game_text: str, seat: int, bots_text: str | None) -> tuple[str, list[Occupant]]:
    """The game and its seats: the person in engine seat ``seat``, bots in the others."""
    game = load_game(game_text)
    n = game.num_players
    others = bot_list(bots_text) or [DEFAULT_BOT]
    if len(others) == 1:
        others = others * (n - 1)
    if len(others) == n:
        others = [b for s, b in enumerate(others) if s != seat]
    if len(others) != n - 1:
        raise CardhallError(f"{game}: give one bot, or {n - 1} bots for the other seats")
    bots = iter(others)
    return str(game), [Occupant.person() if s == seat else Occupant.for_bot(next(bots)) for s in range(n)]


def cmd_play(args: argparse.Namespace, console: Console) -> int:
    if args.lang not in LANGUAGES:
        raise InvalidOptionError(f"--lang must be one of {', '.join(LANGUAGES)}, got {args.lang!r}")
    if args.delay < 0:
        raise InvalidOptionError(f"--delay must be 0 or more seconds, got {args.delay}")
    if args.resume:
        if args.game or args.seed is not None or args.bots:
            raise CardhallError("--resume continues the saved match: give no game, --seed or --bots")
        path = Path(args.resume)
        state = saved.read(path)
        seats = [Occupant.person() if b is None else Occupant.for_bot(b) for b in state.bots]
        table = Table.from_record(state.record, seats)
        me = state.seat
        if table.is_over:
            raise CardhallError(
                f"{path}: that match is over (scores {list(table.state.scores)}); "
                f"'cardhall replay {path} --show' steps through it"
            )
        save: Path | None = Path(args.save) if args.save else path
    else:
        if not args.game:
            raise CardhallError("name a game (e.g. 'cardhall play hokm'), or --resume FILE")
        me = seat_option(args.seat, load_game(args.game))
        game, seats = _seats(args.game, me, args.bots)
        table = Table(game, seats, seed=args.seed)
        save = Path(args.save) if args.save else None
    if save is not None and save.is_dir():
        raise CardhallError(f"--save {save}: that is a folder; name a file")
    if save is not None and not save.parent.is_dir():
        raise CardhallError(f"--save: the folder {save.parent} does not exist")
    style = terminal_style(console, args.ascii)
    bots = ", ".join(f"{seat_name(s)} {o.bot}" for s, o in enumerate(table.seats) if o.is_bot)
    verb = (
        f"Resuming {table.game} after {len(table.state.history)} actions"
        if args.resume
        else f"Playing {table.game}"
    )
    console.print(
        f"{verb} (seed {table.seed}); you are {seat_name(me)}; bots: {bots}", markup=False, highlight=False
    )
    console.print(
        f"Type 'help' at any prompt for how to answer, 'rules' for the rules of {table.game.title}.",
        markup=False,
        highlight=False,
    )
    session = Session(table, me, console, style, delay=args.delay, lang=args.lang, save=save)
    if args.resume:
        session.shown = table.number  # what happened before the save was seen then
    return session.run()


def _epilog() -> str:
    """The games and the bot levels, for ``cardhall play --help`` (lines of at most 80 columns)."""
    games = "\n".join(f"  {name:<8} {cls.title}" for name, cls in game_classes().items())
    levels = "\n".join(f"  {level:<8} the {bot} bot" for level, bot in BOT_LEVELS.items())
    return (
        f"games (their options: cardhall games):\n{games}\n\n"
        f"bot levels (--bots, default {DEFAULT_BOT}; or a bot's name: rules, search(ms=500)):\n"
        f"{levels}\n\n"
        "At any prompt: a number, an action ('play QS', 'raise 250'), help, rules, quit.\n"
        "When the match is over: the command that reviews your play (cardhall review)."
    )


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "play",
        help="play one seat in the terminal against bots",
        description="play one seat in the terminal against bots",
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", nargs="?", help="game string, e.g. hokm or 'hokm(target=300)'")
    p.add_argument("--seat", type=int, default=1, help="your seat, counted from 1 (default 1)")
    p.add_argument(
        "--bots",
        help=f"bot for the other seats, or one per other seat: easy,hard (default {DEFAULT_BOT})",
    )
    p.add_argument("--seed", type=int, default=None, help="seed of the match (default: random)")
    p.add_argument(
        "--delay",
        type=float,
        default=DEFAULT_DELAY,
        help=f"seconds to pause after each bot move (default {DEFAULT_DELAY}; 0 for scripts)",
    )
    p.add_argument("--ascii", action="store_true", help="cards as QS 10H, no colour")
    p.add_argument("--lang", default="en", help="language of the rules and hints (en, bn)")
    p.add_argument("--save", metavar="FILE", help="write the match's record to FILE after every action")
    p.add_argument("--resume", metavar="FILE", help="continue the match saved in FILE")
