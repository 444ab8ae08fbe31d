"""The bot tier: where bots that search think, apart from the tables that ask them, on this machine or
on others.

- :mod:`~cardhall.bot_tier.tier`: the seam (:class:`BotTier`) and the embedded default
  (:class:`InProcessTier`: the server's own worker processes);
- :mod:`~cardhall.bot_tier.schedule`: every move has a deadline; earliest deadline first; budgets that
  shrink under load down to the rules move;
- :mod:`~cardhall.bot_tier.jobs`: the job kinds (``move``, ``review``) and what a worker runs;
- :mod:`~cardhall.bot_tier.redis_tier`: jobs on Redis streams with a consumer group, taken by
  ``cardhall bots --redis URL`` workers (:mod:`~cardhall.bot_tier.worker`), any number, on any machine.

A layer above the Table (it moves :class:`~cardhall.table.BotJob` s) and below the front ends (the
server, the command line).
"""

from cardhall.bot_tier.jobs import KINDS, MOVE, REVIEW, MoveOutcome, nominal_ms, thinks_elsewhere
from cardhall.bot_tier.tier import BotTier, InProcessTier

__all__ = [
    "KINDS",
    "MOVE",
    "REVIEW",
    "BotTier",
    "InProcessTier",
    "MoveOutcome",
    "nominal_ms",
    "thinks_elsewhere",
]
