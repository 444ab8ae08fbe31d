"""The seam between the server and the hall it is one process of: what the server asks of its place in
the hall (:class:`Place`), what the hall's code asks of the server (:class:`Server`), how a process is
told which hall it is in (:class:`Options`), and the hall of one process, the embedded default
(:class:`OneProcessOptions`, :class:`OneProcess`).

One interface, an in-process implementation and a networked one, as boardgame.io's pub-sub: every
server runs the same bus (:class:`~cardhall.server.cluster.bus.Bus`), directory
(:class:`~cardhall.server.cluster.directory.Directory`), presence
(:class:`~cardhall.server.presence.Presence`) and views
(:class:`~cardhall.server.cluster.views.HallViews`); one process has them in memory
(:class:`~cardhall.server.cluster.bus.LocalBus`, :class:`~cardhall.server.cluster.directory.LocalDirectory`,
:class:`~cardhall.server.presence.MemoryPresence`), a hall of many on Redis (``cardhall serve
--redis``: :class:`cardhall.server.cluster.ClusterOptions`).

Choices:

- **What differs between one process and many is a method of the place**, never a test of which
  one the server is in: :class:`OneProcess` answers "nothing elsewhere" (no table is forwarded, lost
  or held by another process; a restart brings back every unfinished table at once), and
  :class:`cardhall.server.cluster.node.Cluster` forwards, leases and asks the store.
- **The leases and the forwarding stay the hall's**: one process owns every table, so it keeps no
  lease (its writes carry no fence, :attr:`Options.fencing`) and reads no owner from the store, which
  would cost every message about a table a lookup for nothing.
- **The server's context depends on this module only**, and the hall's modules
  (:mod:`cardhall.server.cluster`) on :class:`Server`, never on the context: no import runs both ways
  between them. The one place that names the cluster's node is :meth:`Options.place` of the options
  of a hall of many, which the context calls.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Protocol

from cardhall.server.cluster.bus import Bus, LocalBus
from cardhall.server.cluster.directory import Directory, LocalDirectory
from cardhall.server.lobby import Lobby
from cardhall.server.relations import Relations
from cardhall.server.seeking import MemorySeekers, Seekers
from cardhall.store import PlayerRow, Store, TableRow

log = logging.getLogger(__name__)


class Server(Protocol):
    """What the hall's code (:mod:`cardhall.server.cluster`) asks of the server
    (:class:`~cardhall.server.context.ServerContext` has it)."""

    store: Store
    lobby: Lobby
    social: Relations
    lobby_version: int  # bumped whenever the lobby's listing changes
    node: str | None

    def lobby_changed(self, host: Any = None) -> None: ...


class Place(Protocol):
    """What the server asks of its process's place in the hall (:class:`OneProcess`, or
    :class:`cardhall.server.cluster.node.Cluster`)."""

    async def start(self) -> None:
        """Bring back the unfinished tables this process is to hold (before it serves anyone)."""

    async def stop(self) -> None: ...

    def lost(self, table_id: str) -> bool:
        """A write found ``table_id`` taken by another process: drop it here (False: nothing to drop)."""

    def took(self, table_id: str) -> None:
        """A table made here was stored: this process holds it."""

    async def forwarded(self, conn: Any, message: Any) -> bool:
        """Send ``message`` to its table's owner when that is another process (False: handle it here)."""

    def opened(self, conn: Any) -> None:
        """A websocket connection opened here."""

    def closed(self, conn: Any) -> None: ...

    def arrived(self, player: PlayerRow) -> None:
        """A connection here said hello as ``player``."""

    def problems(self) -> list[str]:
        """Why this process should not be sent players now (its readiness: :mod:`cardhall.server.health`)."""

    async def elsewhere(self, table_id: str) -> TableRow | None:
        """``table_id`` as the hall knows it when this process does not hold it (None: no such table
        anywhere, or, on one process, not held here)."""

    async def open_elsewhere(self, limit: int) -> list[TableRow]:
        """The waiting and playing tables of the hall as the store has them (newest first, at most
        ``limit``; those held here among them: the caller leaves them out)."""


class Options(Protocol):
    """Which hall a process is in: its bus and directory, its name on the bus (``name``), the name its
    tables' rows carry (``node``: None on one process), whether its writes carry a fence, and its
    :class:`Place` in it."""

    bus: Bus
    directory: Directory
    fencing: bool

    @property
    def name(self) -> str: ...

    @property
    def node(self) -> str | None: ...

    def place(self, ctx: Server) -> Place: ...

    def seekers(self) -> Seekers:
        """The hall's queue of "Play now" (:mod:`cardhall.server.seeking`): in memory on one process,
        in Redis in a hall of many, so that people on two processes are seated together."""


@dataclass
class OneProcessOptions:
    """The hall of one process: the bus and the directory in memory, no name in the tables' rows, no
    fence (every table is the process's own)."""

    bus: Bus = field(default_factory=LocalBus)
    directory: Directory = field(default_factory=LocalDirectory)
    name: str = "local"
    fencing = False

    @property
    def node(self) -> str | None:
        return None

    def place(self, ctx: Server) -> Place:
        return OneProcess(ctx.lobby)

    def seekers(self) -> Seekers:
        return MemorySeekers()


class OneProcess:
    """:class:`Place` of the only process of its hall: every table is its own."""

    def __init__(self, lobby: Lobby | None) -> None:
        self.lobby = lobby

    async def start(self) -> None:
        if self.lobby is not None:
            restored = await self.lobby.restore()
            if restored:
                log.info("brought back %d unfinished tables", restored)

    async def stop(self) -> None:
        """(Nothing held but the tables, which the lobby stops.)"""

    def lost(self, table_id: str) -> bool:
        return False  # (no other process writes: never fenced off)

    def took(self, table_id: str) -> None:
        """(No lease to take.)"""

    async def forwarded(self, conn: Any, message: Any) -> bool:
        return False

    def opened(self, conn: Any) -> None:
        """(Its connections need no name on a bus.)"""

    def closed(self, conn: Any) -> None:
        """(Nothing kept per connection.)"""

    def arrived(self, player: PlayerRow) -> None:
        """(Presence counts him: :class:`~cardhall.server.presence.MemoryPresence`.)"""

    def problems(self) -> list[str]:
        return []

    async def elsewhere(self, table_id: str) -> TableRow | None:
        return None

    async def open_elsewhere(self, limit: int) -> list[TableRow]:
        return []
