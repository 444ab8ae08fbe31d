"""One websocket connection: a receiver and a sender task. The receiver reads a frame, checks it
(:mod:`cardhall.server.protocol`), and hands it to the lobby or the table it names; the sender writes the
frames queued for this connection, so a slow client never holds up a table.

Choices:

- The first message is ``hello`` with the player's token (from ``POST /api/players`` or a session),
  or without one for the browser's session cookie (:func:`cardhall.server.sessions.identify`, which
  checks the handshake's ``Origin``); everything else before it gets ``not_authenticated``. A
  connection may join or watch several tables.
- Every refused message gets an ``error`` frame (its code, what was wrong, and the message's ``id`` as
  ``ref``) and the connection goes on; nothing the table holds changes.
- Floods: each connection may send 20 messages a second on average, 40 at once; beyond that, or beyond
  the rates of its player (all his connections together) and of its address
  (:mod:`cardhall.server.rates`), each message gets ``rate_limited``, and a connection refused 20 times
  in a row is closed (1008, policy violation). A new connection starts with a full bucket of its own,
  but not of its player's or its address's: reconnecting gains nothing.
- A frame for a connection with nothing queued is written at once, without waking the sender task
  (:data:`cardhall.server.transport.WRITE_TEXT`, behind ``cardhall serve``'s own websocket protocol),
  when the transport takes it without waiting; otherwise it is queued for the sender as before.
  Likewise a message is taken straight from the protocol's inbox
  (:data:`cardhall.server.transport.READ_MESSAGE`), not through the ASGI receive; in-process, where
  the scope has neither key, both go through Starlette's websocket.
- A client whose unsent frames pile up beyond 1,000 is too slow to follow its tables and is closed
  (1013, try again later); it can reconnect and ask for what it missed. The count includes the frame
  being sent. Such a client's frames stop going out because the transport's buffer is full and the
  send of one frame waits for it to drain: so the frames still queued are dropped (they would arrive
  after the close anyway, or never) and the send under way is given up, and the close goes at once.
  (Behind uvicorn, :mod:`cardhall.server.transport` writes that close behind what the buffer holds and
  drops the connection if the client never reads it.)
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import anyio
import msgspec
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from cardhall.errors import CardhallError
from cardhall.server import metrics
from cardhall.server.protocol import (
    Act,
    AddBot,
    Back,
    Chat,
    ClientMessage,
    FollowEvent,
    Hello,
    Hint,
    Join,
    Leave,
    Ping,
    PlayerInfo,
    PongFrame,
    ProtocolError,
    Rematch,
    Seek,
    ServerFrame,
    UnfollowEvent,
    Unseek,
    Watch,
    WelcomeFrame,
    decode,
    encode_bytes,
)
from cardhall.server.rates import MESSAGES_PER_CONNECTION, RateLimited
from cardhall.server.sessions import identify
from cardhall.server.settings import bot_for_level
from cardhall.server.transport import READ_MESSAGE, WRITE_TEXT
from cardhall.store import PlayerRow, StoreUnavailableError

if TYPE_CHECKING:
    from cardhall.server.context import ServerContext
    from cardhall.server.hall import Server
    from cardhall.server.host import TableHost

log = logging.getLogger(__name__)

# A connection's own rate by default (``Limits.messages_per_connection`` sets it; None: none).
RATE = MESSAGES_PER_CONNECTION.per_second  # messages per second, on average
BURST = MESSAGES_PER_CONNECTION.burst
STRIKES = 20  # refused in a row before the connection is closed
OUTBOX = 1000  # frames waiting to be sent before a client counts as too slow
WS_POLICY_VIOLATION = 1008
WS_TRY_AGAIN_LATER = 1013
WS_SESSION_ENDED = 4001  # its session was signed out, or its password changed (sessions.py)


class Session:
    """What a client's messages about tables do, for a connection here (:class:`Connection`) or one
    on another process of the hall (:class:`cardhall.server.cluster.remote.RemoteSession`, run by the
    table's owner): the player is known, and frames go to :meth:`send`."""

    ctx: Server
    player: PlayerRow | None
    address: str | None
    hosts: dict[str, TableHost]
    deltas = False  # its updates may leave out what is unchanged (hello's deltas: host/frames.py)

    def send(self, frame: ServerFrame) -> None:
        raise NotImplementedError

    async def handle_table(self, message: ClientMessage) -> None:
        """A message about one table (every message but ``hello`` and ``ping``), from a player."""
        assert self.player is not None and not isinstance(
            message, (Hello, Ping, Seek, Unseek, FollowEvent, UnfollowEvent)
        )
        ref = message.id
        if isinstance(message, Rematch):
            answer = await self.ctx.lobby.rematch(
                self.player, message.table, ref, self.address, decline=message.decline
            )
            self.send(msgspec.structs.replace(answer, ref=ref))
            return
        host = self.ctx.lobby.host(message.table, ref)
        if isinstance(message, Join):
            await host.join(self, message.seat, message.since, ref, message.invitation)
            self.hosts[host.id] = host
        elif isinstance(message, Watch):
            await host.watch(self, message.since, message.invitation)
            self.hosts[host.id] = host
        elif isinstance(message, Leave):
            await host.leave(self, ref)
            self.hosts.pop(host.id, None)
        elif isinstance(message, Act):
            await host.act(self, message.action, message.n, ref)
        elif isinstance(message, Back):
            await host.back(self, ref)
        elif isinstance(message, Chat):
            text = message.text.strip()
            if not text:
                raise ProtocolError("bad_message", "an empty chat line", ref)
            await host.chat(self, text, ref)
        elif isinstance(message, Hint):
            await host.hint(self, message.n, ref)
        elif isinstance(message, AddBot):
            try:
                bot = bot_for_level(message.level)
            except CardhallError as e:
                raise ProtocolError("bad_request", str(e), ref) from None
            await host.add_bot(self, message.seat, bot, ref)


class Connection(Session):
    ctx: ServerContext  # (the whole server: its rates, its sessions, presence)

    def __init__(self, ws: WebSocket, ctx: ServerContext) -> None:
        self.ws = ws
        self.ctx = ctx
        self.address = ws.client.host if ws.client is not None else None
        self.player: PlayerRow | None = None
        self.session: str | None = None  # the session's token its hello used (None: a guest's token)
        self.hosts: dict[str, TableHost] = {}
        self._out: deque[str] = deque()
        self._ready = asyncio.Event()  # frames to send, or the close
        self._tokens = float("inf")  # a full bucket: the first message fills it to the rate's burst
        self._stamp = time.monotonic()
        self._strikes = 0
        self._close_code: int | None = None
        self._sending: anyio.CancelScope | None = None  # the send under way, if any
        self.id = ""  # its name on the hall's bus (given by a hall of many: cardhall.server.cluster)
        # Writes a frame now when nothing holds it up (None in-process: Starlette's test client).
        write: Callable[[bytes], bool] | None = ws.scope.get(WRITE_TEXT)
        self._write_now = write

    # --- sending -------------------------------------------------------------------------------

    def send(self, frame: ServerFrame) -> None:
        if self._close_code is None:  # (a closed connection's frames are not even encoded)
            self._send(encode_bytes(frame))

    def send_text(self, text: str) -> None:
        """Queue a frame encoded already (one the table's owner sent over the bus)."""
        if self._close_code is None:
            self._send(text.encode())

    def _send(self, data: bytes) -> None:
        """Write ``data`` (a frame's JSON in UTF-8) now, or queue it for the sender."""
        if not self._out and self._write_now is not None and self._write_now(data):
            return  # (nothing of this connection queued or being sent: the order holds)
        if len(self._out) >= OUTBOX:
            self._out.clear()
            self._close(WS_TRY_AGAIN_LATER)
            if self._sending is not None:
                self._sending.cancel()
            return
        self._out.append(data.decode())  # (the ASGI send takes a text message as str)
        self._ready.set()

    def end(self, code: int) -> None:
        """Close the connection with ``code`` once the frames queued are sent (a ban)."""
        self._close(code)

    def session_ended(self) -> None:
        """Its session was signed out (or the password changed): close it (:data:`WS_SESSION_ENDED`),
        after the frames already queued; the client may say hello again with a credential that lives."""
        self._close(WS_SESSION_ENDED)

    def _close(self, code: int) -> None:
        if self._close_code is None:
            self._close_code = code
            self._ready.set()

    async def _sender(self) -> None:
        """Send the frames queued, in order, as they come; after them the close, if one is due. A frame
        leaves the queue once sent, so the queue's length counts it while it is being sent."""
        while True:
            await self._ready.wait()
            self._ready.clear()
            try:
                while self._out:
                    with anyio.CancelScope() as self._sending:
                        await self.ws.send_text(self._out[0])
                    self._sending = None
                    if not self._out:  # given up: the client is too slow (see send)
                        break
                    self._out.popleft()
                if self._close_code is not None:
                    await self.ws.close(self._close_code)
                    return
            except (WebSocketDisconnect, OSError):
                return  # the client is gone: nothing more to send

    # --- receiving -----------------------------------------------------------------------------

    async def serve(self) -> None:
        """Receive and send until either side ends (the other is then cancelled), then leave the
        tables this connection was at (shielded: even when the server is stopping)."""
        await self.ws.accept()
        hall = self.ctx.hall
        metrics.CONNECTIONS.inc()
        hall.opened(self)
        try:
            async with anyio.create_task_group() as group:

                async def run(part: Callable[[], Awaitable[None]]) -> None:
                    await part()
                    group.cancel_scope.cancel()

                group.start_soon(run, self._sender)
                group.start_soon(run, self._receiver)
        finally:
            if self.player is not None:
                self.ctx.social.presence.depart(self.player.id, self)
                self.ctx.connections.discard(self)
                self.ctx.play_now.departed(self.player.id)  # (he may wait in the queue: its grace)
                self.ctx.events.unfollow(self)  # (only a player follows an event)
            with anyio.CancelScope(shield=True):
                for host in list(self.hosts.values()):
                    try:
                        await host.detach(self)
                    except Exception:
                        log.exception("leaving table %s", host.id)
                metrics.CONNECTIONS.dec()
                hall.closed(self)

    async def _receiver(self) -> None:
        read = self.ws.scope.get(READ_MESSAGE)  # (None in-process: Starlette's test client)
        while True:
            if read is None:
                try:
                    message = await self.ws.receive()
                except WebSocketDisconnect:
                    return
            else:
                take, arrival = read
                message = take()
                while message is None:
                    await arrival()
                    message = take()
            if message["type"] == "websocket.disconnect":
                self.ws.client_state = WebSocketState.DISCONNECTED  # (as Starlette's receive says)
                return
            text = message.get("text")
            if text is None:
                text = (message.get("bytes") or b"").decode("utf-8", "replace")
            del message  # (not kept through the wait for the next one: see the owner queue's _run)
            refused = self._refused()
            if refused is not None:
                self._strikes += 1
                self.send(refused.frame())
                if self._strikes >= STRIKES:
                    self._close(WS_POLICY_VIOLATION)
                    # The sender sends what is queued, then the close; its end ends this task.
                    await anyio.sleep_forever()
                continue
            self._strikes = 0
            try:
                await self.handle(decode(text))
            except ProtocolError as e:
                self.send(e.frame())
            except StoreUnavailableError as e:
                log.warning("a message failed on the store: %s", e)
                self.send(
                    ProtocolError("store_unavailable", "the server's storage failed: try again").frame()
                )

    def _refused(self) -> ProtocolError | None:
        """Why the message just received may not be read (a rate it is beyond); None: it may."""
        rate = self.ctx.limiter.limits.messages_per_connection  # a setting (Limits), None: no rate
        if rate is not None:
            now = time.monotonic()
            self._tokens = min(rate.burst, self._tokens + (now - self._stamp) * rate.per_second)
            self._stamp = now
            if self._tokens < 1:
                what = f"at most {rate.per_second:g} messages a second on one connection"
                return ProtocolError("rate_limited", what)
        try:
            self.ctx.limiter.message(None if self.player is None else self.player.id, self.address)
        except RateLimited as e:
            return e
        if rate is not None:
            self._tokens -= 1
        return None

    # --- what each message does ----------------------------------------------------------------

    async def handle(self, message: ClientMessage) -> None:
        ref = message.id
        if isinstance(message, Ping):
            self.send(PongFrame(ref=ref))
            return
        if isinstance(message, Hello):
            if self.player is not None:  # one connection, one player: its seats and chat are his
                raise ProtocolError(
                    "bad_request",
                    f"this connection is {self.player.name}'s: open another to play as someone else",
                    ref,
                )
            # White space round the token is no part of it, as in the HTTP bearer header; no token:
            # the session cookie, from this site's pages only (sessions.identify).
            token = None if message.token is None else message.token.strip()
            who = await identify(self.ws, self.ctx.store, token, ref)
            player = who.player
            self.ctx.social.refuse_if_banned(player, ref)
            self.player, self.session = player, who.session
            self.deltas = message.deltas
            self.ctx.connections.add(self)  # (a session signed out finds it: accounts.py)
            # Online from now on: his friends see him, and invitations reach him on any page.
            self.ctx.social.presence.arrive(player.id, self)
            self.ctx.hall.arrived(player)
            self.send(WelcomeFrame(ref=ref, player=PlayerInfo(player.id, player.name, player.guest)))
            return
        if self.player is None:
            raise ProtocolError("not_authenticated", "say hello with your token first", ref)
        if isinstance(message, Seek):  # (Play now: the hall's queue, not a table)
            await self.ctx.play_now.seek(self.player, message, ref)
            return
        if isinstance(message, Unseek):
            self.send(await self.ctx.play_now.unseek(self.player, ref))
            return
        if isinstance(message, FollowEvent):  # (tournaments: an event's standings, not a table)
            await self.ctx.events.follow(self, self.player, message.event, message.token, ref)
            return
        if isinstance(message, UnfollowEvent):
            self.ctx.events.unfollow(self, message.event)
            return
        if await self.ctx.hall.forwarded(self, message):
            return  # (the table is owned by another process: the message went there)
        await self.handle_table(message)
