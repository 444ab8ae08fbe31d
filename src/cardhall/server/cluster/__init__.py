"""One hall on many processes and machines: PostgreSQL for the store (and the tables' leases, with
their fences), Redis for the bus and the directory.

- **Ownership** (:mod:`.leases`): a table is owned by one process at a time, by a lease in its store
  row renewed by the owner; a fencing number raised at each change of owner guards every write, so a
  process that lost a table can never write to it.
- **The bus** (:mod:`.bus`): a connection may be on any process; its messages reach the table's owner
  and its frames come back over Redis pub/sub (:mod:`.node`, :mod:`.remote`).
- **The directory** (:mod:`.directory`): processes alive, the lobby's listing, presence.

The embedded default (one process, SQLite) has none of this: :attr:`ServerContext.cluster` is None and
every table is the process's own. :class:`LocalBus` and :class:`LocalDirectory` are the same seams in
memory, for several processes' contexts in one event loop (the tests).
"""

from __future__ import annotations

import secrets
import socket
from dataclasses import dataclass, field
from typing import Any, Protocol

from cardhall.server.cluster.bus import Bus, LocalBus, RedisBus
from cardhall.server.cluster.directory import Directory, LocalDirectory, RedisDirectory


def node_name() -> str:
    """A name for this process, unique in the hall: the host, the process id and a random part (a
    process restarted with the same pid is another process: its leases are not the old one's)."""
    import os

    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


@dataclass
class ClusterOptions:
    """A process's place in a hall of many: its name, its bus and its directory."""

    bus: Bus
    directory: Directory
    node: str = field(default_factory=node_name)

    @classmethod
    def redis(cls, url: str, node: str | None = None) -> ClusterOptions:
        return cls(RedisBus(url), RedisDirectory(url), node or node_name())


class Member(Protocol):
    """What the rest of the server asks of its process's place in the hall
    (:class:`cardhall.server.cluster.node.Cluster`; named here, without importing it, so that the
    server's context and connections need not import the cluster's modules, which import them)."""

    bus: Bus

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    def lost(self, table_id: str) -> bool: ...

    def took(self, table_id: str) -> None: ...

    async def listing(self) -> dict[str, list[dict[str, Any]]]: ...

    async def forwarded(self, conn: Any, message: Any) -> bool: ...

    def opened(self, conn: Any) -> None: ...

    def closed(self, conn: Any) -> None: ...

    def arrived(self, player: Any) -> None: ...


__all__ = [
    "Bus",
    "ClusterOptions",
    "Directory",
    "LocalBus",
    "LocalDirectory",
    "Member",
    "RedisBus",
    "RedisDirectory",
]
