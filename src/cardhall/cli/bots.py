"""``cardhall bots --redis URL``: a bot tier worker, taking search moves (and reviews) from the servers
that run ``cardhall serve --bots URL`` (:mod:`cardhall.bot_tier.worker`). Start any number, on any
machine that reaches the Redis server; each uses one core. It runs until interrupted (SIGINT, SIGTERM);
one killed loses nothing (another worker takes its job, or the table plays the rules move by the
deadline).
"""

from __future__ import annotations

import argparse
import logging
import signal
from typing import Any

from rich.console import Console

from cardhall.errors import CardhallError


def check_redis_url(url: str, option: str) -> str:
    """A Redis URL (``redis://``, ``rediss://``, ``unix://``), refused in one line otherwise."""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise CardhallError(f"{option} takes a Redis URL (redis://host:6379/0), got {url!r}")
    return url


def cmd_bots(args: argparse.Namespace, console: Console) -> int:
    url = check_redis_url(args.redis, "--redis")
    try:
        from cardhall.bot_tier.worker import Worker
    except ImportError as e:
        raise CardhallError(
            f"the bot tier needs the server extra: pip install 'cardhall[server]' ({e})"
        ) from None
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    worker = Worker(url, args.name or None)

    def stop(signum: int, frame: Any) -> None:
        worker.stopping.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    console.print(f"cardhall bots: worker {worker.name} taking jobs from {url.split('@')[-1]}", markup=False)
    worker.serve()
    console.print(f"cardhall bots: worker {worker.name} stopped after {worker.done} jobs", markup=False)
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    v = sub.add_parser("bots", help="run a bot tier worker: search moves and reviews for servers over Redis")
    v.add_argument(
        "--redis", required=True, metavar="URL", help="the Redis server of the tier (redis://host:6379/0)"
    )
    v.add_argument("--name", default="", help="the worker's name in the consumer group (default: host-pid)")
