"""Who is in the hall: the processes alive (each beats every :data:`BEAT_SECONDS`), the lobby's listing
(each process's own tables, put together) and presence (the players with a connection somewhere).
:class:`LocalDirectory` keeps it in memory (processes sharing one event loop, in the tests);
:class:`RedisDirectory` in Redis.

Choices:

- Soft state, in Redis with expiries: a process that dies drops out of the hall within
  :data:`ALIVE_SECONDS` (its beat is a score in one sorted set; its listing and its presence set
  expire), and nothing needs cleaning up after it. Leases are not here: they are in the store, with
  the fence the store's writes check (:mod:`cardhall.server.cluster.leases`).
- The listing each process publishes is its tables' summaries as the lobby shows them, rewritten at
  its beat when they changed: ``GET /api/tables`` on any process is at most a beat behind the tables of
  the others (its own are current).
- Presence is a set of player ids per process (a player with connections on two processes is in
  both); the hall's is their union. The owner of a table knows who is connected to each seat from the
  connections at the table itself, wherever they are (``connected`` of each seat, the away timers):
  presence here is for what is not one table's (the social features' friends online).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from typing import Any

BEAT_SECONDS = 1.0
ALIVE_SECONDS = 4.0  # a process not heard from for this long is gone
NODES = "cardhall:nodes"


def _listing_key(node: str) -> str:
    return f"cardhall:listing:{node}"


def _online_key(node: str) -> str:
    return f"cardhall:online:{node}"


Listing = dict[str, list[dict[str, Any]]]


class Directory:
    """The seam (every method may raise when the directory's service fails)."""

    async def beat(self, node: str, listing: Listing | None, online: set[int] | None) -> None:
        """``node`` is alive; its listing and the players connected to it (None: unchanged)."""
        raise NotImplementedError

    async def nodes(self) -> set[str]:
        """The processes alive."""
        raise NotImplementedError

    async def listing(self) -> Listing:
        """Every live process's open tables and running games."""
        raise NotImplementedError

    async def online(self, player_ids: Iterable[int]) -> set[int]:
        """Which of ``player_ids`` have a connection to some process of the hall."""
        raise NotImplementedError

    async def leave(self, node: str) -> None:
        """``node`` stops: out of the hall now, not after its beat expires."""
        raise NotImplementedError

    async def close(self) -> None: ...


def _merge(listings: Iterable[Listing]) -> Listing:
    merged: Listing = {"open": [], "running": []}
    for listing in listings:
        for kind in merged:
            merged[kind].extend(listing.get(kind, []))
    return merged


class LocalDirectory(Directory):
    def __init__(self) -> None:
        self._beats: dict[str, float] = {}
        self._listings: dict[str, Listing] = {}
        self._online: dict[str, set[int]] = {}

    async def beat(self, node: str, listing: Listing | None, online: set[int] | None) -> None:
        self._beats[node] = time.monotonic()
        if listing is not None:
            self._listings[node] = listing
        if online is not None:
            self._online[node] = set(online)

    async def nodes(self) -> set[str]:
        now = time.monotonic()
        return {n for n, at in self._beats.items() if now - at < ALIVE_SECONDS}

    async def listing(self) -> Listing:
        alive = await self.nodes()
        return _merge(v for n, v in self._listings.items() if n in alive)

    async def online(self, player_ids: Iterable[int]) -> set[int]:
        alive = await self.nodes()
        everyone = set().union(*(v for n, v in self._online.items() if n in alive))
        return {p for p in player_ids if p in everyone}

    async def leave(self, node: str) -> None:
        self._beats.pop(node, None)
        self._listings.pop(node, None)
        self._online.pop(node, None)


class RedisDirectory(Directory):
    def __init__(self, url: str) -> None:
        import redis.asyncio as redis

        from cardhall.server.cluster.bus import SOCKET_TIMEOUT

        self.redis = redis.Redis.from_url(
            url, socket_timeout=SOCKET_TIMEOUT, socket_connect_timeout=SOCKET_TIMEOUT
        )
        self.ops = 0  # Redis commands sent (the benchmark's count)

    async def beat(self, node: str, listing: Listing | None, online: set[int] | None) -> None:
        expire_ms = int(ALIVE_SECONDS * 1000)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(NODES, {node: time.time()})
        if listing is not None:
            pipe.set(_listing_key(node), json.dumps(listing), px=expire_ms)
        else:
            pipe.pexpire(_listing_key(node), expire_ms)
        if online is not None:
            pipe.delete(_online_key(node))
            if online:
                pipe.sadd(_online_key(node), *online)
        pipe.pexpire(_online_key(node), expire_ms)
        self.ops += len(pipe.command_stack)
        await pipe.execute()

    async def nodes(self) -> set[str]:
        self.ops += 1
        found = await self.redis.zrangebyscore(NODES, time.time() - ALIVE_SECONDS, "+inf")
        return {n.decode() if isinstance(n, bytes) else str(n) for n in found}

    async def listing(self) -> Listing:
        alive = sorted(await self.nodes())
        if not alive:
            return _merge([])
        self.ops += 1
        found = await self.redis.mget([_listing_key(n) for n in alive])
        return _merge(json.loads(v) for v in found if v is not None)

    async def online(self, player_ids: Iterable[int]) -> set[int]:
        wanted = list(player_ids)
        alive = sorted(await self.nodes())
        if not wanted or not alive:
            return set()
        self.ops += 1
        everyone = await self.redis.sunion([_online_key(n) for n in alive])
        ids = {int(v) for v in everyone}
        return {p for p in wanted if p in ids}

    async def leave(self, node: str) -> None:
        await self.redis.zrem(NODES, node)
        await self.redis.delete(_listing_key(node), _online_key(node))

    async def close(self) -> None:
        await self.redis.aclose()
