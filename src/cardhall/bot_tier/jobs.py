"""The bot tier's jobs: what a worker runs, wherever it runs (a process of the server's pool, or a
``cardhall bots`` worker on another machine), and how a job travels as text.

A job has a **kind** (:data:`KINDS`): ``move`` (one bot decision at a table: a :class:`~cardhall.table.BotJob`
with a deadline and a think budget) and ``review`` (an offline review of one seat of a finished match,
:func:`cardhall.review.review`). Each kind is a pure function of its payload (:func:`run_job`), so any
worker can run any job, and running it twice gives a usable answer twice (a job retried after a worker
died is harmless).

A move's think budget (``budget_ms``) is what the scheduler granted it (:mod:`cardhall.bot_tier.schedule`):
at most the bot's own ``ms``, less under load. A worker shortens it again to what is left before the
deadline when the job reaches it late (a job that waited in a stream, or was reclaimed from a dead
worker), and when too little is left it plays the rules move (``fallback``: ``"no_time"``) instead of
searching: a move is never late because it thought.
"""

from __future__ import annotations

import functools
import random
import time
from dataclasses import dataclass
from typing import Any, Final

import msgspec

from cardhall.bots import BOTS, SearchBot, make_bot, resolve_level
from cardhall.bots.base import Bot
from cardhall.options import parse_spec, resolve_options
from cardhall.registry import load_game
from cardhall.table import BotJob, BotResult

MOVE: Final = "move"
REVIEW: Final = "review"
KINDS: Final = (MOVE, REVIEW)

THINK_CAP_MS: Final = 1000  # the longest any one move may think on the server, whatever the bot asks
MIN_THINK_MS: Final = 10  # below this no search starts (in Hokm 10 ms is some 15 determinizations)
MARGIN_MS: Final = 30  # kept back from every deadline for the result's way back and its apply


@functools.lru_cache(maxsize=1024)  # (a server asks it at every bot move, of a few bot strings)
def thinks_elsewhere(bot: str) -> bool:
    """Whether a bot string (or level) names a bot that searches: it thinks in the tier, never on the
    server's event loop."""
    return resolve_level(bot).startswith(("search", "expert"))


@functools.lru_cache(maxsize=1024)
def nominal_ms(bot: str) -> int:
    """What a searching bot asks to think per move (its ``ms``), capped at :data:`THINK_CAP_MS`; a bot
    with a fixed number of determinizations (``iterations=N``) is given the cap (its deadline still
    holds: the rules move is played when it cannot finish)."""
    name, raw = parse_spec(resolve_level(bot), "bot")
    options = resolve_options(f"bot {name}", BOTS[name].option_spec, raw)
    if options.get("iterations"):
        return THINK_CAP_MS
    return min(int(options["ms"]), THINK_CAP_MS)


@dataclass
class MoveOutcome:
    """A move's answer: the bot's :class:`~cardhall.table.BotResult` and how it was reached. ``fallback``
    names why the rules move was played instead of the search (None: the search chose):
    ``"no_time"`` (too little time was left to search), ``"late"`` (the search did not answer by the
    deadline), ``"failed"`` (the worker failed or the tier was unreachable)."""

    result: BotResult
    budget_ms: int
    determinizations: int = 0
    fallback: str | None = None
    worker: str = ""


def rules_move(job: BotJob) -> BotResult:
    """The rules bot's move for the job's seat (microseconds: played on the server when a search
    cannot answer in time). It draws from the job's RNG, as the search would have."""
    bot = _bot(job.game, "rules")
    rng = random.Random()
    rng.setstate(job.rng_state)
    return BotResult(bot.act(job.observation, job.legal_actions, rng), rng.getstate())


def think(job: BotJob, budget_ms: int | None, deadline: float | None = None, worker: str = "") -> MoveOutcome:
    """Run a move job with at most ``budget_ms`` of thinking (None: the bot's own budget), cut to what is
    left before ``deadline`` (epoch seconds) less :data:`MARGIN_MS`."""
    if deadline is not None:
        left = int((deadline - time.time()) * 1000) - MARGIN_MS
        budget_ms = left if budget_ms is None else min(budget_ms, left)
    if budget_ms is not None and budget_ms < MIN_THINK_MS:
        return MoveOutcome(rules_move(job), max(budget_ms, 0), 0, "no_time", worker)
    bot = _bot(job.game, job.bot)
    rng = random.Random()
    rng.setstate(job.rng_state)
    if not isinstance(bot, SearchBot):
        return MoveOutcome(
            BotResult(bot.act(job.observation, job.legal_actions, rng), rng.getstate()), 0, 0, None, worker
        )
    # One bot per (game, bot string) serves every job of this process; only its budget is set per job
    # (it keeps no other state between decisions that a job would need).
    ms, before = bot.ms, bot.stats["determinizations"]
    if budget_ms is not None and not bot.iterations:
        bot.ms = min(bot.ms, budget_ms)
    try:
        action = bot.act(job.observation, job.legal_actions, rng)
    finally:
        granted, bot.ms = bot.ms, ms
    done = int(bot.stats["determinizations"] - before)
    return MoveOutcome(BotResult(action, rng.getstate()), granted, done, None, worker)


_BOTS: dict[tuple[str, str], Bot] = {}


def _bot(game: str, spec: str) -> Bot:
    bot = _BOTS.get((game, spec))
    if bot is None:
        bot = _BOTS[game, spec] = make_bot(spec, load_game(game))
    return bot


def run_review(payload: dict[str, Any]) -> dict[str, Any]:
    """A review job: :func:`cardhall.review.review` of ``payload``'s record, seat, budget and seed."""
    from cardhall.review import review

    return review(payload["record"], int(payload["seat"]), int(payload["budget"]), int(payload["seed"]))


# --- as text (the Redis tier's streams carry JSON, never pickles: a worker runs no code it is sent) ---


def encode_move(job: BotJob) -> bytes:
    return msgspec.json.encode(
        {
            "game": job.game,
            "bot": job.bot,
            "seat": job.seat,
            "observation": job.observation,
            "legal_actions": job.legal_actions,
            "rng_state": job.rng_state,
            "expect": job.expect,
        }
    )


def _rng_state(value: Any) -> Any:
    """random.Random's state back from JSON (lists to the tuples setstate wants)."""
    version, internal, gauss = value
    return (version, tuple(internal), gauss)


def decode_move(data: bytes) -> BotJob:
    d = msgspec.json.decode(data)
    return BotJob(
        d["game"],
        d["bot"],
        d["seat"],
        d["observation"],
        d["legal_actions"],
        _rng_state(d["rng_state"]),
        d["expect"],
    )


def encode_outcome(outcome: MoveOutcome) -> bytes:
    return msgspec.json.encode(
        {
            "action": outcome.result.action,
            "rng_state": outcome.result.rng_state,
            "budget_ms": outcome.budget_ms,
            "determinizations": outcome.determinizations,
            "fallback": outcome.fallback,
            "worker": outcome.worker,
        }
    )


def decode_outcome(data: bytes) -> MoveOutcome:
    d = msgspec.json.decode(data)
    result = BotResult(d["action"], _rng_state(d["rng_state"]))
    return MoveOutcome(result, d["budget_ms"], d["determinizations"], d["fallback"], d["worker"])
