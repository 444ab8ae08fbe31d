"""Who is connected: the people with at least one websocket that said ``hello``, and a way to reach
each of them wherever he is (the lobby page and the table page hold the same kind of connection), for
friends' presence and invitations.

This module is a seam: :class:`Presence` is what the server asks, :class:`MemoryPresence` answers
for one process. A server of many processes backs it with a shared store (Redis: who is connected
where, and a channel per person to send on), behind the same methods; nothing else changes.

Choices:

- A person is online while any of his connections is open; several tabs count once.
- :meth:`Presence.send` delivers to every open connection of the person (he may have the lobby in
  one tab and a table in another) and says how many it reached, so a caller can tell "not online".
- Nothing here is stored: presence is what is true now, and a restart starts with nobody online.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from cardhall.server.protocol import ServerFrame


class Channel(Protocol):
    """A connection, as presence sees it: something to send frames to and to close."""

    def send(self, frame: ServerFrame) -> None: ...

    def end(self, code: int) -> None: ...


class Presence(Protocol):
    def arrive(self, player: int, channel: Channel) -> None:
        """``channel`` of ``player`` said hello."""

    def depart(self, player: int, channel: Channel) -> None:
        """``channel`` of ``player`` closed (nothing when it never arrived)."""

    def online(self, players: Iterable[int]) -> set[int]:
        """Those of ``players`` who have an open connection now."""

    def send(self, player: int, frame: ServerFrame) -> int:
        """Send ``frame`` to every open connection of ``player``; how many it reached."""

    def end(self, player: int, code: int) -> int:
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

    def online(self, players: Iterable[int]) -> set[int]:
        return {p for p in players if p in self._channels}

    def send(self, player: int, frame: ServerFrame) -> int:
        held = list(self._channels.get(player, ()))
        for channel in held:
            channel.send(frame)
        return len(held)

    def end(self, player: int, code: int) -> int:
        held = list(self._channels.get(player, ()))
        for channel in held:
            channel.end(code)
        return len(held)
