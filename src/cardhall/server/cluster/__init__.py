"""One hall on many processes and machines: PostgreSQL for the store (and the tables' leases, with
their fences), Redis for the bus and the directory.

- **Ownership** (:mod:`.leases`): a table is owned by one process at a time, by a lease in its store
  row renewed by the owner; a fencing number raised at each change of owner guards every write, so a
  process that lost a table can never write to it.
- **The bus** (:mod:`.bus`): a connection may be on any process; its messages reach the table's owner
  and its frames come back over Redis pub/sub (:mod:`.node`, :mod:`.remote`).
- **The directory** (:mod:`.directory`): processes alive, the lobby's listing, presence.

The embedded default (one process, SQLite) runs the same seams in memory (:class:`LocalBus`,
:class:`LocalDirectory`: :class:`cardhall.server.hall.OneProcessOptions`), with a place of its own
(:class:`cardhall.server.hall.OneProcess`: every table is the process's, no lease, nothing forwarded).
The in-memory seams serve several processes' contexts in one event loop too.
"""

from __future__ import annotations

import secrets
import socket
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cardhall.server.cluster.bus import Bus, LocalBus, RedisBus
from cardhall.server.cluster.directory import Directory, LocalDirectory, RedisDirectory

if TYPE_CHECKING:
    from cardhall.server.hall import Place, Server
    from cardhall.server.seeking import Seekers


def node_name() -> str:
    """A name for this process, unique in the hall: the host, the process id and a random part (a
    process restarted with the same pid is another process: its leases are not the old one's)."""
    import os

    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


@dataclass
class ClusterOptions:
    """A process's place in a hall of many: its name, its bus and its directory
    (:class:`cardhall.server.hall.Options`)."""

    bus: Bus
    directory: Directory
    node: str = field(default_factory=node_name)
    # The hall's "Play now" queue when its processes share one in memory (several contexts in one event
    # loop, as the tests run a hall); None: Redis on a Redis bus (see :meth:`seekers`).
    queue: Seekers | None = None

    fencing = True  # (every write carries the owner's fence: cardhall.server.cluster.leases)

    @classmethod
    def redis(cls, url: str, node: str | None = None) -> ClusterOptions:
        return cls(RedisBus(url), RedisDirectory(url), node or node_name())

    @property
    def name(self) -> str:
        return self.node

    def place(self, ctx: Server) -> Place:
        """This process's :class:`~cardhall.server.cluster.node.Cluster` (imported here, when a
        server of a hall asks: the server's context never imports the node)."""
        from cardhall.server.cluster.node import Cluster

        return Cluster(ctx, self.node, self.bus, self.directory)

    def seekers(self) -> Seekers:
        """The hall's queue: Redis on a Redis bus, else :attr:`queue` (or one of this process's own)."""
        from cardhall.server.seeking import MemorySeekers, RedisSeekers

        if isinstance(self.bus, RedisBus):
            return RedisSeekers(self.bus.url)
        if self.queue is None:
            self.queue = MemorySeekers()
        return self.queue


__all__ = [
    "Bus",
    "ClusterOptions",
    "Directory",
    "LocalBus",
    "LocalDirectory",
    "RedisBus",
    "RedisDirectory",
]
