"""The people looking for a game ("Play now"), the hall's queue: who waits in which pool, taken out
atomically by the wave that seats them, and which process runs each pool's waves. A seam with two
implementations, as presence: :class:`MemorySeekers` for the one process (the embedded default) and
:class:`RedisSeekers` for a hall of many (``cardhall serve --redis``), so that two people connected to
two processes are matched together. Matching itself is :mod:`cardhall.server.matching`.

Choices:

- **One pool at a time.** A person waits in one pool (a game, its variant and pace); pressing "Play now"
  for another moves him there (his wait starts again).
- **Times are wall-clock seconds** (``time.time()``): processes of a hall share them, not their
  monotonic clocks.
- **Taken atomically.** :meth:`Seekers.claim` removes the people a wave chose if they still wait in
  that pool, and returns those it removed: a person who left the queue, or whom another wave took, is
  not seated. In Redis one Lua script does it (a script runs alone), so two processes never seat one
  person twice. A table that then cannot be made puts them back (:meth:`Seekers.put_back`), waits
  kept.
- **One runner per pool.** :meth:`Seekers.lead` is a lease (``SET NX PX`` renewed by its holder): the
  process that holds it runs the pool's waves; when it dies the lease lapses and another takes it, and
  the people it had not seated are still in Redis (nothing of the queue lives in a process).
- **The usual wait** of a pool is the median of its last :data:`WAITS_KEPT` waits, shown in the lobby.
"""

from __future__ import annotations

import statistics
import time
from abc import ABC, abstractmethod
from collections import deque
from typing import Any

import msgspec

from cardhall.server.matching import Seeker

WAITS_KEPT = 50
PREFIX = "cardhall:seek"


class _Wire(msgspec.Struct, array_like=True):
    player: str
    rating: float
    since: float
    choice: str
    avoid: list[str]
    recent: list[str]
    leaves: int


def encode_seeker(seeker: Seeker) -> bytes:
    wire = _Wire(
        seeker.player,
        seeker.rating,
        seeker.since,
        seeker.choice,
        sorted(seeker.avoid),
        sorted(seeker.recent),
        seeker.leaves,
    )
    return msgspec.json.encode(wire)


def decode_seeker(data: bytes | str) -> Seeker:
    w = msgspec.json.decode(data, type=_Wire)
    return Seeker(w.player, w.rating, w.since, w.choice, frozenset(w.avoid), frozenset(w.recent), w.leaves)  # type: ignore[arg-type]


class Seekers(ABC):
    """The seam: the hall's people looking for a game."""

    @abstractmethod
    async def add(self, pool: str, seeker: Seeker) -> str | None:
        """``seeker`` waits in ``pool`` (out of any other: that pool's name is returned)."""

    @abstractmethod
    async def remove(self, player: str) -> str | None:
        """``player`` stops waiting; the pool he was in (None: he was in none)."""

    @abstractmethod
    async def pool_of(self, player: str) -> str | None: ...

    @abstractmethod
    async def waiting(self, pool: str) -> list[Seeker]: ...

    @abstractmethod
    async def counts(self) -> dict[str, int]:
        """How many wait in each pool that has anyone."""

    @abstractmethod
    async def claim(self, pool: str, players: list[str]) -> list[str]:
        """Take ``players`` out of ``pool`` if they still wait there; those taken, in the order asked."""

    async def put_back(self, pool: str, seekers: list[Seeker]) -> None:
        """Seekers claimed for a table that could not be made wait again, as they were (unless they
        meanwhile pressed "Play now" elsewhere)."""
        for seeker in seekers:
            if await self.pool_of(seeker.player) is None:
                await self.add(pool, seeker)

    @abstractmethod
    async def record_wait(self, pool: str, seconds: float) -> None: ...

    @abstractmethod
    async def usual_wait(self, pool: str) -> float | None:
        """The median of the pool's last waits (None: nobody was seated from it yet)."""

    @abstractmethod
    async def lead(self, pool: str, node: str, seconds: float) -> bool:
        """Whether ``node`` runs ``pool``'s waves for the next ``seconds`` (taken, or renewed)."""

    async def close(self) -> None:
        """Let go of what the queue holds open (nothing for the memory one)."""


class MemorySeekers(Seekers):
    """One process's queue."""

    def __init__(self) -> None:
        self._pools: dict[str, dict[str, Seeker]] = {}
        self._where: dict[str, str] = {}
        self._waits: dict[str, deque[float]] = {}

    async def add(self, pool: str, seeker: Seeker) -> str | None:
        left = await self.remove(seeker.player)
        self._pools.setdefault(pool, {})[seeker.player] = seeker
        self._where[seeker.player] = pool
        return left if left != pool else None

    async def remove(self, player: str) -> str | None:
        pool = self._where.pop(player, None)
        if pool is not None:
            people = self._pools[pool]
            del people[player]
            if not people:
                del self._pools[pool]
        return pool

    async def pool_of(self, player: str) -> str | None:
        return self._where.get(player)

    async def waiting(self, pool: str) -> list[Seeker]:
        return list(self._pools.get(pool, {}).values())

    async def counts(self) -> dict[str, int]:
        return {pool: len(people) for pool, people in self._pools.items()}

    async def claim(self, pool: str, players: list[str]) -> list[str]:
        taken = [p for p in dict.fromkeys(players) if self._where.get(p) == pool]
        for player in taken:
            await self.remove(player)
        return taken

    async def record_wait(self, pool: str, seconds: float) -> None:
        self._waits.setdefault(pool, deque(maxlen=WAITS_KEPT)).append(seconds)

    async def usual_wait(self, pool: str) -> float | None:
        waits = self._waits.get(pool)
        return statistics.median(waits) if waits else None

    async def lead(self, pool: str, node: str, seconds: float) -> bool:
        return True  # (one process: always its own)


# KEYS: who (player -> pool), the new pool's hash; ARGV: player, pool, data, the pools' key prefix (the
# old pool's hash is named in the script: one Redis, not a Redis Cluster, whose slots would forbid it).
_ADD = """
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old and old ~= ARGV[2] then redis.call('HDEL', ARGV[4] .. old, ARGV[1]) end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return old
"""
# KEYS: who, the pool's hash; ARGV: pool, players... -> those taken out.
_CLAIM = """
local taken = {}
for i = 2, #ARGV do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[1] then
    redis.call('HDEL', KEYS[1], ARGV[i])
    redis.call('HDEL', KEYS[2], ARGV[i])
    taken[#taken + 1] = ARGV[i]
  end
end
return taken
"""
# KEYS: the lead key; ARGV: node, ms.
_LEAD = """
local holder = redis.call('GET', KEYS[1])
if not holder or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""


class RedisSeekers(Seekers):
    """The hall's queue in Redis: ``{PREFIX}:who`` (player -> pool), one hash per pool (player ->
    seeker), a list of the last waits per pool, a lease key per pool."""

    def __init__(self, url: str) -> None:
        import redis.asyncio as redis

        from cardhall.server.cluster.bus import SOCKET_TIMEOUT

        self.redis: Any = redis.Redis.from_url(
            url, socket_timeout=SOCKET_TIMEOUT, socket_connect_timeout=SOCKET_TIMEOUT
        )
        self._add = self.redis.register_script(_ADD)
        self._claim = self.redis.register_script(_CLAIM)
        self._lead = self.redis.register_script(_LEAD)

    @staticmethod
    def _pool_key(pool: str) -> str:
        return f"{PREFIX}:pool:{pool}"

    async def add(self, pool: str, seeker: Seeker) -> str | None:
        found = await self._add(
            keys=[f"{PREFIX}:who", self._pool_key(pool)],
            args=[seeker.player, pool, encode_seeker(seeker), self._pool_key("")],
        )
        left = found.decode() if isinstance(found, bytes) else found
        return left if left and left != pool else None

    async def remove(self, player: str) -> str | None:
        pool = await self.pool_of(player)
        if pool is None:
            return None
        taken = await self.claim(pool, [player])
        return pool if taken else None

    async def pool_of(self, player: str) -> str | None:
        found = await self.redis.hget(f"{PREFIX}:who", player)
        return found.decode() if found else None

    async def waiting(self, pool: str) -> list[Seeker]:
        found = await self.redis.hvals(self._pool_key(pool))
        return [decode_seeker(v) for v in found]

    async def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for pool in (await self.redis.hgetall(f"{PREFIX}:who")).values():
            name = pool.decode()
            out[name] = out.get(name, 0) + 1
        return out

    async def claim(self, pool: str, players: list[str]) -> list[str]:
        if not players:
            return []
        found = await self._claim(
            keys=[f"{PREFIX}:who", self._pool_key(pool)], args=[pool, *dict.fromkeys(players)]
        )
        return [p.decode() if isinstance(p, bytes) else str(p) for p in found]

    async def record_wait(self, pool: str, seconds: float) -> None:
        key = f"{PREFIX}:waits:{pool}"
        pipe = self.redis.pipeline(transaction=True)
        pipe.lpush(key, f"{seconds:.3f}")
        pipe.ltrim(key, 0, WAITS_KEPT - 1)
        await pipe.execute()

    async def usual_wait(self, pool: str) -> float | None:
        found = await self.redis.lrange(f"{PREFIX}:waits:{pool}", 0, WAITS_KEPT - 1)
        return statistics.median(float(v) for v in found) if found else None

    async def lead(self, pool: str, node: str, seconds: float) -> bool:
        return bool(await self._lead(keys=[f"{PREFIX}:lead:{pool}"], args=[node, int(seconds * 1000)]))

    async def close(self) -> None:
        await self.redis.aclose()


def now() -> float:
    """The queue's clock (wall-clock seconds, shared by a hall's processes)."""
    return time.time()
