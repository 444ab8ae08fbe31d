"""The Redis keys and stream fields the bot tier's servers and workers share (one place, so both
sides agree).

- ``cardhall:bots:jobs``: moves, a stream read by the consumer group ``workers``; each entry has
  ``kind``, ``id`` (the requesting server's job id), ``reply`` (the server's reply stream), ``deadline``
  (epoch seconds, empty for none), ``budget_ms`` and ``payload`` (JSON);
- ``cardhall:bots:offline``: jobs without a deadline (reviews), the same fields and group; a worker
  takes one only when no move waits;
- ``cardhall:bots:reply:<server>``: one stream per server: ``id``, ``ok`` (``1``/``0``), ``payload``
  (the answer's JSON, or the error's text), ``worker``;
- ``cardhall:bots:workers``: a sorted set, worker name -> its last heartbeat (epoch seconds): the
  servers count the live workers from it (their slots).

An entry stays pending (in the group's list of entries read but not acknowledged) under the worker that
read it until that worker has sent the answer; a worker's heartbeat also resets the idle time of the
entry it works on, so another worker's ``XAUTOCLAIM`` takes only the entries of a worker that stopped
beating: one killed mid-think.
"""

from __future__ import annotations

from typing import Final

PREFIX: Final = "cardhall:bots"
JOBS: Final = f"{PREFIX}:jobs"
OFFLINE: Final = f"{PREFIX}:offline"
GROUP: Final = "workers"
WORKERS: Final = f"{PREFIX}:workers"
HEARTBEAT_SECONDS: Final = 0.5
LIVE_SECONDS: Final = 3.0  # a worker not heard from for this long is not counted
CLAIM_IDLE_MS: Final = 2000  # an entry idle this long belongs to a worker that died: another takes it
STREAM_LENGTH: Final = 100_000  # each stream's approximate cap (answers are read within seconds)


def reply_stream(server: str) -> str:
    return f"{PREFIX}:reply:{server}"
