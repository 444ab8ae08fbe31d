"""One process of a hall on many processes: the glue between its connections, its tables, the bus
(:mod:`~cardhall.server.cluster.bus`), the leases (:mod:`~cardhall.server.cluster.leases`) and the
directory (:mod:`~cardhall.server.cluster.directory`).

How a message and its frames travel: a connection's message about table T goes to T's owner. Owned
here: handled here, as on one process. Owned by process A: published on A's inbox with the
connection's id and player; A runs it with a :class:`~cardhall.server.cluster.remote.RemoteSession`
standing for the socket, and the frames A's table builds for that session's seat come back on this
process's inbox, batched (one message per destination process per turn of A's event loop, published
in order on one connection), and are written to the socket as they are. Who owns T is asked of the
store once (``owner``) and kept; the hall's channel tells every process when a table changes owner.

What each connection is attached to (``join`` or ``watch`` at a table, and the last event number it
was sent) is kept here, so that when a table moves (its owner died, stopped, or lost its lease) every
connection at it is attached again at the new owner with ``join``/``watch`` and ``since``: the client
gets a ``table`` frame with the events it missed, without reconnecting. The same happens when the bus
comes back after an outage (it was told ``paused`` with reason ``bus_unavailable`` meanwhile, then
``resumed``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

from cardhall.server import metrics
from cardhall.server.cluster.bus import Bus, BusUnavailableError
from cardhall.server.cluster.directory import BEAT_SECONDS, Directory
from cardhall.server.cluster.leases import LeaseKeeper
from cardhall.server.cluster.remote import RemoteSession
from cardhall.server.protocol import (
    ClientMessage,
    Join,
    Leave,
    PausedFrame,
    ProtocolError,
    ResumedFrame,
    ServerFrame,
    Watch,
    decode,
    encode,
)
from cardhall.store import PlayerRow, StoreUnavailableError, TableRow

if TYPE_CHECKING:
    from cardhall.server.connection import Connection
    from cardhall.server.hall import Server

log = logging.getLogger(__name__)

HALL = "cardhall:hall"
BUS_UNAVAILABLE = "bus_unavailable"  # why a table a connection watches over the bus pauses
STOP_DRAIN_SECONDS = 5.0  # how long a stopping process waits for each table's queued work


def inbox(node: str) -> str:
    return f"cardhall:node:{node}"


@dataclass
class Attachment:
    """A connection's place at a table: ``join`` (its seat) or ``watch``; the process it went to (None:
    not known now, the table is moving); the last event number it was sent over the bus."""

    kind: str
    node: str | None
    n: int = 0
    # Told the table paused (its owner's store failed) when the table moved: told ``resumed`` once
    # attached at the new owner, where it plays on (every ``paused`` is followed by a ``resumed``).
    paused: bool = False


_ENCODER = msgspec.json.Encoder()


class Cluster:
    """:class:`cardhall.server.hall.Place` of one process of a hall of many."""

    def __init__(self, ctx: Server, node: str, bus: Bus, directory: Directory) -> None:
        self.ctx = ctx
        self.node = node
        self.bus = bus
        self.directory = directory
        self.leases = LeaseKeeper(ctx.store, node, self._adopt, self.lost, wanted=self._wanted)
        self.connections: dict[str, Connection] = {}
        self.attachments: dict[str, dict[str, Attachment]] = {}  # connection id -> table -> where
        self.remotes: dict[str, RemoteSession] = {}  # connections elsewhere at tables here, by id
        self.owners: dict[str, str] = {}  # table -> the process owning it, as last heard
        self.online: dict[int, int] = {}  # player -> his connections here
        self._online_changed = True
        self._listed = -1  # the lobby version last published
        self._out: dict[str, dict[str, list[list[Any]]]] = {}  # frames to send: node -> conn -> entries
        self._flush_due = False
        self._sendq: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._ids = itertools.count(1)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loops: list[asyncio.Task[Any]] = []

    # --- life ----------------------------------------------------------------------------------

    async def start(self) -> None:
        self.bus.on_down.append(self._bus_down)
        self.bus.on_up.append(self._bus_up)
        await self.bus.start()
        await self.bus.subscribe(inbox(self.node), self._on_inbox)
        await self.bus.subscribe(HALL, self._on_hall)
        await self.directory.beat(self.node, self.ctx.lobby.own_listing(), set())
        await self.leases.start()
        self._loops = [
            asyncio.create_task(self._beat(), name="cluster beat"),
            asyncio.create_task(self._sender(), name="cluster sender"),
        ]

    async def stop(self) -> None:
        """A process that stops: its tables finish the work they hold, its leases are released and the
        hall told, so another process takes them at once."""
        await self.leases.stop()
        hosts = list(self.ctx.lobby.hosts.values())
        if hosts:
            await asyncio.wait(
                [asyncio.ensure_future(h.queue.drain()) for h in hosts], timeout=STOP_DRAIN_SECONDS
            )
        for host in hosts:
            host.stop_here()  # (nothing more is written here: the next owner goes on)
        await self.leases.release()
        with contextlib.suppress(BusUnavailableError):
            await self.bus.publish(HALL, self._encode({"k": "released", "node": self.node}))
        with contextlib.suppress(Exception):
            await self.directory.leave(self.node)
        for task in [*self._loops, *self._tasks]:
            task.cancel()
        pending = [*self._loops, *self._tasks]
        if pending:
            await asyncio.wait(pending, timeout=STOP_DRAIN_SECONDS)
        # Bounded: a stopping process never hangs on a service that does not answer (its leases are
        # released already; what is left is closing connections).
        for closing in (self.bus.stop(), self.directory.close()):
            try:
                await asyncio.wait_for(closing, STOP_DRAIN_SECONDS)
            except Exception as e:
                log.warning("closing the hall's connections: %s", e)

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _encode(self, data: dict[str, Any]) -> bytes:
        data["at"] = time.time()
        return _ENCODER.encode(data)

    # --- connections here (the edge) -----------------------------------------------------------

    def opened(self, conn: Connection) -> None:
        conn.id = f"{self.node}:{next(self._ids)}"
        self.connections[conn.id] = conn

    def arrived(self, player: PlayerRow) -> None:
        """A connection here said hello as ``player``."""
        self.online[player.id] = self.online.get(player.id, 0) + 1
        self._online_changed = self._online_changed or self.online[player.id] == 1

    def closed(self, conn: Connection) -> None:
        self.connections.pop(conn.id, None)
        if conn.player is not None and conn.player.id in self.online:
            self.online[conn.player.id] -= 1
            if self.online[conn.player.id] <= 0:
                del self.online[conn.player.id]
                self._online_changed = True
        for table, at in self.attachments.pop(conn.id, {}).items():
            if at.node is not None and at.node != self.node:
                self._send(inbox(at.node), {"k": "gone", "conn": conn.id, "table": table})

    async def locate(self, table_id: str) -> str | None:
        """The process owning ``table_id`` (this one's name when it is here; None: nobody now, or no
        such table)."""
        if table_id in self.ctx.lobby.hosts:
            return self.node
        node = self.owners.get(table_id)
        if node is not None:
            return node
        try:
            node = await self.ctx.store.owner(table_id)
        except StoreUnavailableError:
            return None
        if node is not None and node != self.node:
            self.owners[table_id] = node
        return node

    async def forwarded(self, conn: Connection, message: ClientMessage) -> bool:
        """Send ``message`` (about one table) to the table's owner if that is another process; False
        when it is to be handled here."""
        table = getattr(message, "table", None)
        if not isinstance(table, str):
            return False
        node = await self.locate(table)
        places = self.attachments.setdefault(conn.id, {})
        if isinstance(message, (Join, Watch)):
            kind = "join" if isinstance(message, Join) else "watch"
            # (a table taken here but not restored yet is nowhere yet: attached when it is)
            here = node == self.node and table not in self.ctx.lobby.hosts
            places[table] = Attachment(kind, None if here else node, message.since)
        elif isinstance(message, Leave):
            places.pop(table, None)
        # Held by nobody now (its owner's lease ran out), or taken here and not restored yet.
        moving = node is None or (node == self.node and table not in self.ctx.lobby.hosts)
        if moving and await self._between_owners(conn, message):
            raise ProtocolError(
                "table_moved",
                f"table {table} is moving to another server: it is back in a moment, and a join or "
                "watch sent now is attached there by itself",
                message.id,
            )
        if node is None or node == self.node:
            return False
        await self._forward(node, conn, message, table)
        return True

    async def _between_owners(self, conn: Connection, message: ClientMessage) -> bool:
        """Whether ``message``'s table is open but held by no process now (its owner died or is being
        replaced: issue 47, a join then was told ``no_such_table``, and the page gave up). A private
        table is between owners only for those it would let in (its invitation, or a seat at it): for
        anyone else it stays ``no_such_table``, word for word as a table that does not exist."""
        table: str = getattr(message, "table", "")
        try:
            row = await self.ctx.store.table(table)
            if row is None or not row.status.is_open:
                return False
            invitation = (await self.ctx.store.private_tables([table])).get(table)
        except StoreUnavailableError:
            return False  # (the store decides: without it, the local answer stands)
        if invitation is None or getattr(message, "invitation", None) == invitation:
            return True
        player = conn.player.id if conn.player is not None else None
        return any(seat.player_id == player for seat in row.seats if player is not None)

    async def _forward(self, node: str, conn: Connection, message: ClientMessage, table: str) -> None:
        assert conn.player is not None
        data = {
            "k": "msg",
            "from": self.node,
            "conn": conn.id,
            "player": [conn.player.id, conn.player.name],
            "addr": conn.address,
            "msg": encode(message),
        }
        ref = message.id
        try:
            receivers = await self.bus.publish(inbox(node), self._encode(data))
        except BusUnavailableError:
            raise ProtocolError(
                "table_moved",
                f"the server of table {table} cannot be reached now: nothing was done; try again soon",
                ref,
            ) from None
        if receivers == 0:  # its owner is gone (or cut off the bus): the table comes back somewhere
            self.owners.pop(table, None)
            at = self.attachments.get(conn.id, {}).get(table)
            if at is not None and at.node is not None:
                at.node = None
                self.spawn(self._reattach_later(table))
            raise ProtocolError(
                "table_moved",
                f"table {table} is moving to another server: nothing was done; it is back in a few seconds",
                ref,
            )

    async def _reattach(self, table: str, force: bool = False) -> None:
        """Attach again every connection here that is at ``table`` (it moved, or the bus came back)."""
        node = await self.locate(table)
        if node is None:
            return  # (nobody holds it yet: the hall is told when someone takes it)
        if node == self.node and table not in self.ctx.lobby.hosts:
            return  # (taken here and being restored: the restore attaches them when it is done)
        for conn_id, places in list(self.attachments.items()):
            at = places.get(table)
            conn = self.connections.get(conn_id)
            if at is None or conn is None or (at.node == node and not force):
                continue
            message: ClientMessage = (
                Join(table=table, since=at.n) if at.kind == "join" else Watch(table=table, since=at.n)
            )
            try:
                if node == self.node:
                    await conn.handle_table(message)
                else:
                    await self._forward(node, conn, message, table)
            except ProtocolError as e:
                conn.send(e.frame())
                continue  # (not attached: tried again when the table is heard of next)
            except Exception:
                log.exception("attaching %s again to table %s", conn_id, table)
                continue
            at.node = node
            if at.paused:
                at.paused = False
                conn.send(ResumedFrame(table=table, n=at.n))

    async def _reattach_later(self, table: str) -> None:
        """Attach again the connections at ``table`` whose owner did not listen, once some process
        does (the hall is told when one takes it; this covers an owner cut off the bus alone)."""
        for delay in (0.5, 1.0, 2.0, 2.0, 4.0, 4.0, 8.0):
            await asyncio.sleep(delay)
            waiting = [p[table] for p in self.attachments.values() if table in p and p[table].node is None]
            if not waiting:
                return
            await self._reattach(table)

    # --- the owner's side ----------------------------------------------------------------------

    def deliver(self, node: str, conn: str, frame: ServerFrame) -> None:
        """A frame for a connection on ``node``: sent with the others of this turn of the loop."""
        entry = [getattr(frame, "table", None), getattr(frame, "n", None), encode(frame)]
        self._out.setdefault(node, {}).setdefault(conn, []).append(entry)
        if not self._flush_due:
            self._flush_due = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_due = False
        out, self._out = self._out, {}
        for node, to in out.items():
            self._send(inbox(node), {"k": "frames", "from": self.node, "to": to})

    def _send(self, channel: str, data: dict[str, Any]) -> None:
        """Publish in order, without waiting (frames, notices)."""
        self._sendq.put_nowait((channel, self._encode(data)))

    async def _sender(self) -> None:
        while True:
            batch = [await self._sendq.get()]
            while not self._sendq.empty():
                batch.append(self._sendq.get_nowait())
            for channel, data in batch:
                try:
                    receivers = await self.bus.publish(channel, data)
                except BusUnavailableError:
                    continue  # (lost: the edges attach again with ``since`` once the bus is back)
                if receivers == 0 and channel.startswith("cardhall:node:"):
                    self._gone(channel.removeprefix("cardhall:node:"))

    def _gone(self, node: str) -> None:
        """``node`` no longer listens: its connections leave the tables here. The hall is told, so
        that a ``node`` that was alive after all (a Redis restarted empties the directory, and a
        process's first beat after it sees only itself) attaches its connections here again."""
        dropped = False
        for conn_id, remote in list(self.remotes.items()):
            if remote.node == node:
                del self.remotes[conn_id]
                self.spawn(remote.close())
                dropped = True
        if dropped:
            self._send(HALL, {"k": "dropped", "node": node, "by": self.node})

    def _on_inbox(self, data: bytes) -> None:
        message = msgspec.json.decode(data)
        metrics.BUS_SECONDS.observe(max(0.0, time.time() - float(message.get("at", 0))))
        kind = message["k"]
        if kind == "frames":
            for conn_id, entries in message["to"].items():
                conn = self.connections.get(conn_id)
                if conn is None:
                    continue
                places = self.attachments.get(conn_id, {})
                for table, n, text in entries:
                    conn.send_text(text)
                    at = places.get(table) if table is not None else None
                    if at is not None and n is not None and n > at.n:
                        at.n = n
        elif kind == "msg":
            self._take(message)
        elif kind == "gone":
            remote = self.remotes.get(message["conn"])
            if remote is not None:
                host = remote.hosts.pop(message["table"], None)
                if host is not None:
                    self.spawn(self._detach(host, remote))
        elif kind == "moved":
            table = message["table"]
            if self.owners.get(table) == message["from"]:
                del self.owners[table]
            for places in self.attachments.values():
                if table in places:
                    places[table].node = None
                    places[table].paused = places[table].paused or bool(message.get("paused"))
            self.spawn(self._reattach(table))

    @staticmethod
    async def _detach(host: Any, remote: RemoteSession) -> None:
        await host.call(lambda: host.detach(remote))

    def _take(self, message: dict[str, Any]) -> None:
        conn_id = message["conn"]
        remote = self.remotes.get(conn_id)
        if remote is None:
            player = PlayerRow(*message["player"])
            remote = RemoteSession(self, self.ctx, message["from"], conn_id, player, message["addr"])
            self.remotes[conn_id] = remote
        try:
            client = decode(message["msg"])
        except ProtocolError as e:  # (the edge checked it: never, unless the processes' versions differ)
            remote.send(e.frame())
            return
        table = getattr(client, "table", "")
        if table not in self.ctx.lobby.hosts:
            remote.send(
                ProtocolError(
                    "table_moved", f"table {table} moved to another server: try again in a moment", client.id
                ).frame()
            )
            self._send(inbox(remote.node), {"k": "moved", "from": self.node, "table": table})
            return
        remote.take(client)

    def _on_hall(self, data: bytes) -> None:
        message = msgspec.json.decode(data)
        kind = message["k"]
        if kind == "owner":
            table, node = message["table"], message["node"]
            if node != self.node:
                self.owners[table] = node
                self.spawn(self._reattach(table))
        elif kind == "resync":
            node = message["node"]
            tables = {t for _, t, at in self._remote_places() if at.node == node}
            for table in tables:
                self.spawn(self._reattach(table, force=True))
        elif kind == "dropped" and message["node"] == self.node:
            # Taken for gone by ``by`` while alive: what it held of ours is lost; attach again.
            by = message["by"]
            for table in {t for _, t, at in self._remote_places() if at.node == by}:
                self.spawn(self._reattach(table, force=True))
        elif kind == "released":
            node = message["node"]
            for table in [t for t, n in self.owners.items() if n == node]:
                del self.owners[table]
            if node != self.node:
                self.leases.sweep_soon()

    # --- tables changing owner -----------------------------------------------------------------

    def took(self, table_id: str) -> None:
        """A table made here: its lease is this process's from its first write."""
        self.leases.took(table_id)

    def _wanted(self) -> set[str]:
        """The tables that connections here are at and that are not here (taken first when free)."""
        hosts = self.ctx.lobby.hosts
        return {t for places in self.attachments.values() for t in places if t not in hosts}

    def _urgency(self, row: TableRow, attached: set[str]) -> int:
        """In what order the tables taken at once are restored: 0 with a connection here at it
        (``attached``), 1 with a person of it online here, 2 the others (whose people are
        elsewhere, or gone)."""
        if row.id in attached:
            return 0
        if any(s.player_id in self.online for s in row.seats if s.player_id is not None):
            return 1
        return 2

    async def _adopt(self, rows: Sequence[TableRow]) -> None:
        """Tables this process took (their leases ran out or were released): their invitations and
        actions read in one query each, restored from the store most urgent first (:meth:`_urgency`),
        each announced to the hall and its connections here attached as soon as it is back."""
        try:
            # Read before any comes back: a private table is private from its first moment here.
            invitations = await self.ctx.social.invitations([r.id for r in rows])
        except StoreUnavailableError as e:
            log.warning("tables %s: their privacy cannot be read (%s): released", [r.id for r in rows], e)
            for row in rows:
                self.leases.owned.discard(row.id)
            self.spawn(self._release([r.id for r in rows]))
            return
        for row in rows:
            if row.id in self.ctx.lobby.hosts:
                # Held here still, with the old fence (its lease ran out while the store was out of
                # reach, and this process took it again): dropped, its connections attached again to
                # the table restored below.
                self.lost(row.id)
                self.leases.owned.add(row.id)
        try:
            actions = await self.ctx.store.actions_of([r.id for r in rows])
        except StoreUnavailableError as e:
            log.warning("the actions of %d tables taken cannot be read (%s): released", len(rows), e)
            for row in rows:
                self.leases.owned.discard(row.id)
            self.spawn(self._release([r.id for r in rows]))
            return
        attached = {t for places in self.attachments.values() for t in places}
        for row in sorted(rows, key=lambda r: self._urgency(r, attached)):
            host = await self.ctx.lobby.adopt(row, actions.get(row.id, []))
            if host is None:
                self.leases.owned.discard(row.id)
                continue
            self.ctx.social.restore([host], invitations)  # (no await since it was adopted)
            self.owners.pop(row.id, None)
            self._send(HALL, {"k": "owner", "table": row.id, "node": self.node})
            self.spawn(self._reattach(row.id))
            await asyncio.sleep(0)  # (its connections attached, and its bots started, before the next replay)

    async def _release(self, table_ids: Sequence[str]) -> None:
        with contextlib.suppress(StoreUnavailableError):
            await self.ctx.store.release(self.node, table_ids)

    def lost(self, table_id: str) -> bool:
        """``table_id`` is another process's now (its lease was taken, or a write was fenced off):
        dropped here, and every connection at it sent to the new owner. False when there was nothing
        to lose (it is not here, or finished here)."""
        self.leases.dropped(table_id)
        host = self.ctx.lobby.hosts.get(table_id)
        if host is None or not host.row.status.is_open:
            return False
        del self.ctx.lobby.hosts[table_id]
        paused = host.paused is not None  # (read before it is fenced: its people were told so)
        host.fenced()
        for listener, seat in host.audience:
            if isinstance(listener, RemoteSession):
                listener.hosts.pop(table_id, None)
                moved = {"k": "moved", "from": self.node, "table": table_id, "paused": paused}
                self._send(inbox(listener.node), moved)
                continue
            conn_id = getattr(listener, "id", None)
            hosts = getattr(listener, "hosts", None)
            if conn_id is None or hosts is None:
                continue
            hosts.pop(table_id, None)
            kind = "watch" if seat is None else "join"
            self.attachments.setdefault(conn_id, {})[table_id] = Attachment(
                kind, None, host.audience.seen.get(listener, 0), paused
            )
        self.spawn(host.stop())
        self.ctx.lobby_changed()
        self.spawn(self._reattach(table_id))
        return True

    # --- the bus going down and coming back ----------------------------------------------------

    def _remote_places(self) -> list[tuple[Connection, str, Attachment]]:
        found = []
        for conn_id, places in self.attachments.items():
            conn = self.connections.get(conn_id)
            if conn is None:
                continue
            for table, at in places.items():
                if at.node is not None and at.node != self.node:
                    found.append((conn, table, at))
        return found

    def _bus_down(self) -> None:
        for conn, table, at in self._remote_places():
            conn.send(PausedFrame(table=table, n=at.n, reason=BUS_UNAVAILABLE))

    def _bus_up(self) -> None:
        tables = set()
        for conn, table, at in self._remote_places():
            conn.send(ResumedFrame(table=table, n=at.n))
            tables.add(table)
        for table in tables:
            self.spawn(self._reattach(table, force=True))
        # What this process's tables sent to the others meanwhile was lost: they attach again.
        self._send(HALL, {"k": "resync", "node": self.node})

    # --- the directory -------------------------------------------------------------------------

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(BEAT_SECONDS)
            lobby = self.ctx.lobby
            metrics.TABLES.set(len(lobby.hosts))
            metrics.BOT_QUEUE.set(sum(1 for h in lobby.hosts.values() if h.bot_busy))
            listing = None
            if self._listed != self.ctx.lobby_version:
                listing, self._listed = lobby.own_listing(), self.ctx.lobby_version
            online = set(self.online) if self._online_changed else None
            try:
                await self.directory.beat(self.node, listing, online)
                self._online_changed = False
                alive = await self.directory.nodes()
            except Exception as e:
                log.warning("the hall's directory failed: %s", e)
                self._listed = -1
                continue
            for node in {r.node for r in self.remotes.values()} - alive:
                self._gone(node)

    # --- what the rest of the server asks of the hall --------------------------------------------

    def problems(self) -> list[str]:
        return [] if self.bus.up else ["the bus (Redis) is down"]

    async def elsewhere(self, table_id: str) -> TableRow | None:
        """The store holds the truth of every table of the hall."""
        return await self.ctx.store.table(table_id)

    async def open_elsewhere(self, limit: int) -> list[TableRow]:
        return await self.ctx.store.tables(("waiting", "playing"), limit)
