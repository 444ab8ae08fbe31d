"""The bus: messages between the processes of one hall, on named channels (each process reads its own
inbox channel and the hall's channel). :class:`LocalBus` keeps them in memory (the embedded default's
hall of one process, and processes that share one event loop); :class:`RedisBus` carries them over
Redis.

Choices:

- **Redis pub/sub, not streams.** What crosses the bus is soft state: client messages on their way to
  a table's owner, and frames on their way to sockets. The store is the truth and every frame carries
  the table's event number, so whatever a cut loses is recovered the way lila-ws does it: the edge
  asks again with ``since`` (a ``join``), and gets the events missed or a full view. Streams would
  keep every frame (a write and a trim per message, memory per table) to buy a replay nobody needs.
  Pub/sub is one command per message and delivers in order per channel, which a table needs.
- ``publish`` returns how many processes listened: 0 on a process's inbox means it is gone (the
  caller re-routes), and a bus that fails raises :class:`BusUnavailableError` at once (never a silent
  drop of a message whose sender waits).
- A Redis connection that fails (Redis restarted, the network cut) is reopened in the background,
  every 0.25-2 s; the channels are subscribed again before ``on_up`` callbacks run, so a process that
  re-sends what it holds after an outage hears the answers. A subscription that redis-py reconnected
  by itself counts as down and up again: messages published meanwhile were lost all the same.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from cardhall.server.stopping import cancel_and_wait

log = logging.getLogger(__name__)

Handler = Callable[[bytes], None]
RECONNECT_DELAYS = (0.25, 0.5, 1.0, 2.0)
SOCKET_TIMEOUT = 2.0  # seconds a Redis command may take before the bus counts as down


class BusUnavailableError(ConnectionError):
    """The bus did not take a message (Redis down or out of reach)."""


class Bus:
    """The seam: subscribe a handler to a channel, publish bytes to one. ``up`` says whether the bus
    works now; ``on_down`` and ``on_up`` are called when it stops and starts working again."""

    def __init__(self) -> None:
        self.up = True
        self.on_down: list[Callable[[], None]] = []
        self.on_up: list[Callable[[], None]] = []
        self.published = 0  # messages published (the benchmark's Redis operations)

    async def start(self) -> None:
        """Open the bus (nothing to open for the local one)."""

    async def stop(self) -> None: ...

    async def subscribe(self, channel: str, handler: Handler) -> None:
        raise NotImplementedError

    async def publish(self, channel: str, data: bytes) -> int:
        raise NotImplementedError

    def _changed(self, up: bool) -> None:
        if up == self.up:
            return
        self.up = up
        for callback in self.on_up if up else self.on_down:
            try:
                callback()
            except Exception:
                log.exception("a bus callback failed")


class LocalBus(Bus):
    """In memory: every subscriber of one :class:`LocalBus` (one event loop) hears what is published,
    in order, on the next turn of the loop (as over a network: never inside the publisher's call)."""

    def __init__(self) -> None:
        super().__init__()
        self._handlers: dict[str, list[Handler]] = {}

    async def subscribe(self, channel: str, handler: Handler) -> None:
        self._handlers.setdefault(channel, []).append(handler)

    def unsubscribe_all(self, handlers: list[Handler]) -> None:
        """Forget ``handlers`` (a process of the test that stops, or dies)."""
        for channel in list(self._handlers):
            self._handlers[channel] = [h for h in self._handlers[channel] if h not in handlers]

    async def publish(self, channel: str, data: bytes) -> int:
        if not self.up:
            raise BusUnavailableError("the local bus is down")
        handlers = list(self._handlers.get(channel, ()))
        loop = asyncio.get_running_loop()
        for handler in handlers:
            loop.call_soon(handler, data)
        self.published += 1
        return len(handlers)


class RedisBus(Bus):
    """Redis pub/sub at ``url`` (``redis://host:port/db``): one connection for publishing and one for
    the subscriptions, reopened after a failure."""

    def __init__(self, url: str) -> None:
        super().__init__()
        import redis.asyncio as redis

        self.url = url
        self.redis = redis.Redis.from_url(
            url, socket_timeout=SOCKET_TIMEOUT, socket_connect_timeout=SOCKET_TIMEOUT, health_check_interval=1
        )
        self._handlers: dict[str, list[Handler]] = {}
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._bounced = False  # the subscription reconnected by itself since last looked at

    async def start(self) -> None:
        await self.redis.ping()  # (a bus that cannot be reached at start is an error to report)
        self._reader = asyncio.create_task(self._read(), name="bus reader")

    async def stop(self) -> None:
        if self._reader is not None:
            await cancel_and_wait([self._reader])
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        await self.redis.aclose()

    async def subscribe(self, channel: str, handler: Handler) -> None:
        new = channel not in self._handlers
        self._handlers.setdefault(channel, []).append(handler)
        if new and self._pubsub is not None:
            try:
                await self._pubsub.subscribe(channel)
            except Exception as e:  # (the reader subscribes it again when the bus is back)
                log.warning("subscribing to %s failed: %s", channel, e)

    async def publish(self, channel: str, data: bytes) -> int:
        try:
            receivers = await self.redis.publish(channel, data)
        except Exception as e:
            self._changed(False)
            raise BusUnavailableError(f"the bus at {self.url} failed: {e}") from e
        self.published += 1
        return int(receivers)

    async def _open(self) -> None:
        pubsub: Any = self.redis.pubsub(ignore_subscribe_messages=True)
        if self._handlers:
            await pubsub.subscribe(*self._handlers)
        else:
            await pubsub.connect()
        # redis-py reconnects a subscription by itself (and subscribes again): what was published
        # meanwhile is lost all the same, so a reconnect counts as the bus going down and up.
        pubsub.connection.register_connect_callback(self._reconnected)
        self._pubsub = pubsub

    async def _reconnected(self, _connection: Any) -> None:
        self._bounced = True

    async def _read(self) -> None:
        failures = 0
        while True:
            try:
                if self._pubsub is None:
                    await self._open()
                    await self.redis.ping()  # (the publishing connection works too)
                    failures = 0
                    self._changed(True)
                message = await self._pubsub.get_message(timeout=1.0)
                if self._bounced or not self.up:  # (down by a failed publish, or a silent reconnect)
                    await self.redis.ping()
                    if self._bounced:
                        self._bounced = False
                        self._changed(False)
                    self._changed(True)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if self.up:
                    log.warning("the bus at %s failed: %s", self.url, e)
                self._changed(False)
                old, self._pubsub = self._pubsub, None
                if old is not None:
                    with contextlib.suppress(Exception):
                        await old.aclose()
                await asyncio.sleep(RECONNECT_DELAYS[min(failures, len(RECONNECT_DELAYS) - 1)])
                failures += 1
                continue
            if message is None or message.get("type") != "message":
                continue
            channel = message["channel"]
            channel = channel.decode() if isinstance(channel, bytes) else channel
            for handler in self._handlers.get(channel, ()):
                try:
                    handler(message["data"])
                except Exception:
                    log.exception("a bus message on %s failed", channel)
