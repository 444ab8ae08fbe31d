"""A connection on another process, as the owner of a table sees it: a
:class:`~cardhall.server.connection.Session` whose frames go back over the bus to the process holding
the socket. The owner's table treats it like any connection (a seat's ``connected``, its away timer,
its frames built for its seat alone): the socket tier holds connections, the owner holds the game
(lila-ws and lila). Its messages run one at a time, in the order they came (one queue per remote
connection), as a connection's own do."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Protocol

from cardhall.server.connection import Session
from cardhall.server.protocol import ClientMessage, ProtocolError, ServerFrame
from cardhall.server.stopping import cancel_and_wait
from cardhall.store import PlayerRow, StoreUnavailableError

if TYPE_CHECKING:
    from cardhall.server.hall import Server

log = logging.getLogger(__name__)


class Carrier(Protocol):
    """Where a remote session's frames go (:class:`~cardhall.server.cluster.node.Cluster`)."""

    def deliver(self, node: str, conn: str, frame: ServerFrame) -> None: ...


class RemoteSession(Session):
    def __init__(
        self,
        cluster: Carrier,
        ctx: Server,
        node: str,
        conn: str,
        player: PlayerRow,
        address: str | None,
    ) -> None:
        self.cluster = cluster
        self.ctx = ctx
        self.node = node  # the process holding the socket
        self.conn = conn  # the connection's id there
        self.player = player
        self.address = address
        self.hosts = {}
        self._inbox: asyncio.Queue[ClientMessage] = asyncio.Queue()
        self._task = asyncio.create_task(self._run(), name=f"remote connection {conn}")

    def send(self, frame: ServerFrame) -> None:
        self.cluster.deliver(self.node, self.conn, frame)

    def take(self, message: ClientMessage) -> None:
        self._inbox.put_nowait(message)

    async def _run(self) -> None:
        while True:
            message = await self._inbox.get()
            try:
                await self.handle_table(message)
            except ProtocolError as e:
                self.send(e.frame())
            except StoreUnavailableError as e:
                log.warning("a message failed on the store: %s", e)
                self.send(
                    ProtocolError("store_unavailable", "the server's storage failed: try again").frame()
                )
            except Exception:
                log.exception("a message from %s failed", self.conn)

    async def close(self) -> None:
        """The socket closed (or its process is gone): leave every table, as a connection does."""
        await cancel_and_wait([self._task])
        for host in list(self.hosts.values()):
            try:
                await host.call(lambda host=host: host.detach(self))  # type: ignore[misc]
            except Exception:
                log.exception("leaving table %s", host.id)
        self.hosts.clear()
