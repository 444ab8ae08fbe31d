"""Who is in the hall: the processes alive (each beats every :data:`BEAT_SECONDS`), the lobby's listing
(each process's own tables, put together) and presence (the players with a connection somewhere).
:class:`LocalDirectory` keeps it in memory (the embedded default's hall of one process, and processes
sharing one event loop); :class:`RedisDirectory` in Redis.

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
  presence here is for what is not one table's. The social features' presence (friends online,
  invitations, bans: who is connected and how to reach him) is
  :class:`cardhall.server.presence.RedisPresence`, a hash per process beside these keys.
- **Who sits where** (the seated index): each process publishes, per person seated at one of its
  tables, his entries there (the table's summary, his seat, whether the match waits for him, its
  event number, whether the table is private) in one hash per process, ``cardhall:seated:{node}``,
  player id -> JSON, written at its beat for the people whose entries changed (only those) and
  expiring with the process. A person's tables (``GET /api/players/me/tables``, the lobby's "your
  tables" with its your-turn badge) and the tables a friend sits at are then one ``HMGET`` per live
  process for the people asked about, whichever process answers: the owner knows whose turn it is,
  the store does not (it would have to replay the match). The store stays the truth of which tables
  exist and who holds them (the operator's listing reads it: :func:`cardhall.server.app.admin_tables`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from typing import Any

BEAT_SECONDS = 1.0
ALIVE_SECONDS = 4.0  # a process not heard from for this long is gone
NODES = "cardhall:nodes"


def now() -> float:
    """The wall clock the beats are scored with (every process of the hall compares them)."""
    return time.time()


def _listing_key(node: str) -> str:
    return f"cardhall:listing:{node}"


def _online_key(node: str) -> str:
    return f"cardhall:online:{node}"


def _seated_key(node: str) -> str:
    return f"cardhall:seated:{node}"


Listing = dict[str, list[dict[str, Any]]]


class Directory:
    """The seam (every method may raise when the directory's service fails)."""

    async def beat(self, node: str, listing: Listing | None, online: set[int] | None) -> None:
        """``node`` is alive; its listing and the players connected to it (None: unchanged)."""
        raise NotImplementedError

    async def nodes(self) -> set[str]:
        """The processes alive."""
        raise NotImplementedError

    async def published(self) -> Listing:
        """The listings every live process published at its beat (its open tables and running
        games), put together."""
        raise NotImplementedError

    def alone(self, node: str) -> bool:
        """Whether ``node`` is sure to be the only process of its hall now (nobody else reads what it
        publishes, nor holds a table). Only an in-memory directory can be sure."""
        return False

    async def online(self, player_ids: Iterable[int]) -> set[int]:
        """Which of ``player_ids`` have a connection to some process of the hall."""
        raise NotImplementedError

    async def leave(self, node: str) -> None:
        """``node`` stops: out of the hall now, not after its beat expires."""
        raise NotImplementedError

    async def publish_seated(
        self, node: str, changed: dict[int, str], dropped: set[int], whole: bool
    ) -> None:
        """``node``'s seated index: ``changed`` people's entries (JSON lists), ``dropped`` people no
        longer seated there; ``whole``: ``changed`` is the whole index (rewritten). Renews its expiry."""
        raise NotImplementedError

    async def seated(self, player_ids: Iterable[int]) -> dict[int, list[dict[str, Any]]]:
        """The entries of ``player_ids`` at the tables of every live process."""
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
        self._seated: dict[str, dict[int, str]] = {}

    async def beat(self, node: str, listing: Listing | None, online: set[int] | None) -> None:
        self._beats[node] = time.monotonic()
        if listing is not None:
            self._listings[node] = listing
        if online is not None:
            self._online[node] = set(online)

    async def nodes(self) -> set[str]:
        now = time.monotonic()
        return {n for n, at in self._beats.items() if now - at < ALIVE_SECONDS}

    async def published(self) -> Listing:
        alive = await self.nodes()
        return _merge(v for n, v in self._listings.items() if n in alive)

    def alone(self, node: str) -> bool:
        now = time.monotonic()
        return all(n == node or now - at >= ALIVE_SECONDS for n, at in self._beats.items())

    async def online(self, player_ids: Iterable[int]) -> set[int]:
        alive = await self.nodes()
        everyone = set().union(*(v for n, v in self._online.items() if n in alive))
        return {p for p in player_ids if p in everyone}

    async def leave(self, node: str) -> None:
        self._beats.pop(node, None)
        self._listings.pop(node, None)
        self._online.pop(node, None)
        self._seated.pop(node, None)

    async def publish_seated(
        self, node: str, changed: dict[int, str], dropped: set[int], whole: bool
    ) -> None:
        index = {} if whole else self._seated.setdefault(node, {})
        index.update(changed)
        for player in dropped:
            index.pop(player, None)
        self._seated[node] = index

    async def seated(self, player_ids: Iterable[int]) -> dict[int, list[dict[str, Any]]]:
        alive = await self.nodes()
        wanted = set(player_ids)
        out: dict[int, list[dict[str, Any]]] = {}
        for node in sorted(alive):
            for player, text in self._seated.get(node, {}).items():
                if player in wanted:
                    out.setdefault(player, []).extend(json.loads(text))
        return out


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
        pipe.zadd(NODES, {node: now()})
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
        found = await self.redis.zrangebyscore(NODES, now() - ALIVE_SECONDS, "+inf")
        return {n.decode() if isinstance(n, bytes) else str(n) for n in found}

    async def published(self) -> Listing:
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
        await self.redis.delete(_listing_key(node), _online_key(node), _seated_key(node))

    async def publish_seated(
        self, node: str, changed: dict[int, str], dropped: set[int], whole: bool
    ) -> None:
        key = _seated_key(node)
        pipe = self.redis.pipeline(transaction=whole)  # (a rewrite is seen whole or not at all)
        if whole:
            pipe.delete(key)
        elif dropped:
            pipe.hdel(key, *(str(p) for p in dropped))
        if changed:
            pipe.hset(key, mapping={str(p): v for p, v in changed.items()})
        pipe.pexpire(key, int(ALIVE_SECONDS * 1000))
        self.ops += len(pipe.command_stack)
        await pipe.execute()

    async def seated(self, player_ids: Iterable[int]) -> dict[int, list[dict[str, Any]]]:
        wanted = list(dict.fromkeys(player_ids))
        alive = sorted(await self.nodes())
        if not wanted or not alive:
            return {}
        fields = [str(p) for p in wanted]
        pipe = self.redis.pipeline(transaction=False)
        for node in alive:
            pipe.hmget(_seated_key(node), fields)
        self.ops += len(alive)
        out: dict[int, list[dict[str, Any]]] = {}
        for values in await pipe.execute():
            for player, value in zip(wanted, values, strict=True):
                if value is not None:
                    out.setdefault(player, []).extend(json.loads(value))
        return out

    async def close(self) -> None:
        await self.redis.aclose()
