"""Who is connected: the people with at least one websocket that said ``hello``, and a way to reach
each of them wherever he is (the lobby page and the table page hold the same kind of connection), for
friends' presence and invitations.

This module is a seam: :class:`Presence` is what the server asks. :class:`MemoryPresence` answers
for one process (the embedded default); :class:`RedisPresence` for a hall of many processes
(``cardhall serve --redis``), so that the friends panel, an invitation and a ban see the same people
whichever process answers the request.

Choices:

- A person is online while any of his connections is open; several tabs count once.
- :meth:`Presence.send` delivers to every open connection of the person (he may have the lobby in
  one tab and a table in another, on two processes) and says how many it reached, so a caller can
  tell "not online".
- Nothing here is stored: presence is what is true now, and a restart starts with nobody online.
- ``arrive`` and ``depart`` stay synchronous (a connection calls them as it opens and closes); what
  asks the hall (``online``, ``send``, ``end``) is awaited.

:class:`RedisPresence`, and why so:

- **One hash per process**, ``cardhall:presence:{node}``: player id -> how many of his connections
  are on that process. A change is written at once (one ``HSET`` or ``HDEL`` of that player, in
  order, by one writer task), so a friend who comes online is seen on the other processes at the
  next request, not a beat later. The hash expires after
  :data:`~cardhall.server.cluster.directory.ALIVE_SECONDS`, renewed by the process's beat (every
  :data:`~cardhall.server.cluster.directory.BEAT_SECONDS`): a process that dies (SIGKILL) drops its
  people within a few seconds, and nothing needs cleaning up after it. A hash per process rather
  than a key per person with its own expiry: the beat renews one key, not one per person, and a
  process stopping deletes its own people with one ``DEL``.
- **Which processes** are read from the directory's sorted set of beats
  (:data:`~cardhall.server.cluster.directory.NODES`): ``online`` is one pipelined ``HMGET`` per live
  process, for the players asked about only.
- **Delivery** is one publish on the hall's presence channel (:data:`CHANNEL`) over the cluster's
  bus; every process hands the frame to its own connections of that person. The count ``send``
  returns is this process's connections plus the others' as their hashes say.
- **Redis failing**: what is local still works (a process's own people are seen and reached); the
  others' are not seen until Redis answers again, and after a failed write the whole hash is written
  again at the next beat (so nothing is left stale once Redis is back).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from cardhall.server.protocol import ServerFrame, encode
from cardhall.server.stopping import cancel_and_wait

if TYPE_CHECKING:
    from cardhall.server.cluster.bus import Bus

log = logging.getLogger(__name__)

CHANNEL = "cardhall:presence"  # the hall's channel: frames and closes for a person, wherever he is


def presence_key(node: str) -> str:
    return f"cardhall:presence:{node}"


class Channel(Protocol):
    """A connection, as presence sees it: something to send frames (or their JSON text) to and to
    close."""

    def send(self, frame: ServerFrame) -> None: ...

    def send_text(self, text: str) -> None: ...

    def end(self, code: int) -> None: ...


class Presence(Protocol):
    def arrive(self, player: int, channel: Channel) -> None:
        """``channel`` of ``player`` said hello."""

    def depart(self, player: int, channel: Channel) -> None:
        """``channel`` of ``player`` closed (nothing when it never arrived)."""

    async def online(self, players: Iterable[int]) -> set[int]:
        """Those of ``players`` who have an open connection now."""

    async def send(self, player: int, frame: ServerFrame) -> int:
        """Send ``frame`` to every open connection of ``player``; how many it reached."""

    async def end(self, player: int, code: int) -> int:
        """Close every connection of ``player`` with ``code`` (a ban); how many."""


class MemoryPresence:
    """:class:`Presence` for one server process: a dict of the open connections of each person."""

    def __init__(self) -> None:
        self._channels: dict[int, list[Channel]] = {}

    def arrive(self, player: int, channel: Channel) -> None:
        held = self._channels.setdefault(player, [])
        if channel not in held:
            held.append(channel)

    def depart(self, player: int, channel: Channel) -> None:
        held = self._channels.get(player)
        if held is None or channel not in held:
            return
        held.remove(channel)
        if not held:
            del self._channels[player]  # (memory stays bounded by the connections open)

    def count(self, player: int) -> int:
        """How many connections of ``player`` are here."""
        return len(self._channels.get(player, ()))

    def here(self) -> dict[int, int]:
        """Every player connected here, with his connections here."""
        return {p: len(held) for p, held in self._channels.items()}

    async def online(self, players: Iterable[int]) -> set[int]:
        return {p for p in players if p in self._channels}

    def deliver(self, player: int, text: str) -> int:
        held = list(self._channels.get(player, ()))
        for channel in held:
            channel.send_text(text)
        return len(held)

    def close(self, player: int, code: int) -> int:
        held = list(self._channels.get(player, ()))
        for channel in held:
            channel.end(code)
        return len(held)

    async def send(self, player: int, frame: ServerFrame) -> int:
        held = list(self._channels.get(player, ()))
        for channel in held:
            channel.send(frame)
        return len(held)

    async def end(self, player: int, code: int) -> int:
        return self.close(player, code)


class RedisPresence:
    """:class:`Presence` for one process of a hall: its own connections in a :class:`MemoryPresence`,
    everyone's counts in Redis at ``url``, delivery over ``bus`` (see the module's docstring)."""

    def __init__(self, url: str, node: str, bus: Bus) -> None:
        import redis.asyncio as redis

        from cardhall.server.cluster.bus import SOCKET_TIMEOUT

        self.node = node
        self.bus = bus
        self.local = MemoryPresence()
        self.redis = redis.Redis.from_url(
            url, socket_timeout=SOCKET_TIMEOUT, socket_connect_timeout=SOCKET_TIMEOUT
        )
        self._key = presence_key(node)
        self._dirty: set[int] = set()  # players whose count here is to be written
        self._wake = asyncio.Event()
        self._rewrite = True  # write the whole hash at the next beat (at start, after a failure)
        self._writer: asyncio.Task[None] | None = None
        self.ops = 0  # Redis commands sent (the benchmark's count)

    async def start(self) -> None:
        await self.bus.subscribe(CHANNEL, self._on_message)
        self._writer = asyncio.create_task(self._write(), name="presence writer")
        await self.beat()

    async def stop(self) -> None:
        if self._writer is not None:
            await cancel_and_wait([self._writer])
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.redis.delete(self._key), 2.0)  # (our people are gone at once)
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # --- this process's connections ------------------------------------------------------------

    def arrive(self, player: int, channel: Channel) -> None:
        self.local.arrive(player, channel)
        self._changed(player)

    def depart(self, player: int, channel: Channel) -> None:
        self.local.depart(player, channel)
        self._changed(player)

    def _changed(self, player: int) -> None:
        self._dirty.add(player)
        self._wake.set()

    async def _write(self) -> None:
        """Write each changed count, in order (one writer: a depart never lands before its arrive)."""
        from cardhall.server.cluster.directory import ALIVE_SECONDS

        while True:
            await self._wake.wait()
            self._wake.clear()
            dirty, self._dirty = self._dirty, set()
            pipe = self.redis.pipeline(transaction=False)
            for player in dirty:
                count = self.local.count(player)
                if count:
                    pipe.hset(self._key, str(player), count)
                else:
                    pipe.hdel(self._key, str(player))
            pipe.pexpire(self._key, int(ALIVE_SECONDS * 1000))
            try:
                self.ops += len(pipe.command_stack)
                await pipe.execute()
            except Exception as e:
                log.warning("presence could not be written to Redis: %s", e)
                self._rewrite = True  # (the beat writes it all again)

    async def beat(self) -> None:
        """Renew this process's hash (the whole of it after a failure); called every beat."""
        from cardhall.server.cluster.directory import ALIVE_SECONDS

        expire_ms = int(ALIVE_SECONDS * 1000)
        pipe = self.redis.pipeline(transaction=True)
        rewrite = self._rewrite
        if rewrite:
            here = self.local.here()
            pipe.delete(self._key)
            if here:
                pipe.hset(self._key, mapping={str(p): n for p, n in here.items()})
        pipe.pexpire(self._key, expire_ms)
        try:
            self.ops += len(pipe.command_stack)
            await pipe.execute()
        except Exception as e:
            log.warning("presence could not be renewed in Redis: %s", e)
            self._rewrite = True
            return
        if rewrite:
            self._rewrite = False

    # --- the hall ------------------------------------------------------------------------------

    async def _elsewhere(self, players: list[int]) -> dict[int, int]:
        """The connections of ``players`` on the other live processes (Redis failing: none)."""
        from cardhall.server.cluster.directory import ALIVE_SECONDS, NODES, now

        if not players:
            return {}
        try:
            self.ops += 1
            found = await self.redis.zrangebyscore(NODES, now() - ALIVE_SECONDS, "+inf")
            nodes = [n.decode() if isinstance(n, bytes) else str(n) for n in found]
            nodes = [n for n in nodes if n != self.node]
            if not nodes:
                return {}
            pipe = self.redis.pipeline(transaction=False)
            fields = [str(p) for p in players]
            for node in nodes:
                pipe.hmget(presence_key(node), fields)
            self.ops += len(nodes)
            answers = await pipe.execute()
        except Exception as e:
            log.warning("presence elsewhere cannot be read from Redis: %s", e)
            return {}
        counts: dict[int, int] = {}
        for values in answers:
            for player, value in zip(players, values, strict=True):
                if value is not None and int(value) > 0:
                    counts[player] = counts.get(player, 0) + int(value)
        return counts

    async def online(self, players: Iterable[int]) -> set[int]:
        wanted = list(players)
        here = await self.local.online(wanted)
        rest = [p for p in wanted if p not in here]
        return here | set(await self._elsewhere(rest))

    async def send(self, player: int, frame: ServerFrame) -> int:
        text = encode(frame)
        reached = self.local.deliver(player, text)
        return reached + await self._broadcast({"p": player, "text": text}, player)

    async def end(self, player: int, code: int) -> int:
        closed = self.local.close(player, code)
        return closed + await self._broadcast({"p": player, "end": code}, player)

    async def _broadcast(self, message: dict[str, Any], player: int) -> int:
        """Publish ``message`` to the other processes; how many connections of ``player`` they hold."""
        from cardhall.server.cluster.bus import BusUnavailableError

        counts = await self._elsewhere([player])
        if not counts:
            return 0  # (nobody elsewhere: nothing to publish)
        message["from"] = self.node
        try:
            await self.bus.publish(CHANNEL, msgspec.json.encode(message))
        except BusUnavailableError as e:
            log.warning("a frame for player %d elsewhere was not sent: %s", player, e)
            return 0
        return counts.get(player, 0)

    def _on_message(self, data: bytes) -> None:
        message = msgspec.json.decode(data)
        if message.get("from") == self.node:
            return  # (delivered here already)
        player = int(message["p"])
        if "end" in message:
            self.local.close(player, int(message["end"]))
        else:
            self.local.deliver(player, str(message["text"]))
