"""The server's connections below the application: uvicorn's HTTP protocol (httptools) and websocket
protocol (websockets-sansio) subclassed with the limits a server open to anyone needs, and the open-file
limit of the process. ``cardhall serve`` hands the classes of :func:`protocols` to uvicorn
(``uvicorn.run(http=..., ws=...)``); an application run in-process (Starlette's test client) has none of
this.

Choices:

- **Pinned, with a contract test, rather than owned.** These classes subclass uvicorn's private
  ``HttpToolsProtocol`` and ``WebSocketsSansIOProtocol`` and read the state of websockets' sans-IO
  protocol (``conn.reader.buffer``, ``expect_continuation_frame``, ``writes``, ``parser_exc``, the
  deflate extension's ``encoder`` and ``decoder``). Owning a websocket layer on websockets' public API
  alone would still leave the HTTP side (admission, deadlines, the upgrade's hand-over) on uvicorn's
  private protocol, and would mean rewriting and re-proving the ASGI websocket state machine uvicorn has
  (handshake, denial responses, keepalive, closing handshake, shutdown): more new code on the hottest
  path than the risk it removes. So ``pyproject.toml`` pins uvicorn and websockets to the minor versions
  this was tested on, and ``tests/server/test_connection_contract.py`` checks every method and attribute used
  here for its shape and drives a real ``cardhall serve`` (these classes behind uvicorn on a socket,
  with and without compression): a new release is taken by moving the pins once that test passes on it,
  and fails there rather than in production. The in-process tests (Starlette's test client) cannot take
  this path; ``tests/server/test_connection_*.py`` drive these very classes (on a transport without a socket,
  and behind a real server).
- **permessage-deflate** (RFC 7692) for a client that offers it, as every browser does
  (:class:`Deflate`): a table's frame repeats most of the one before, so with context takeover a frame
  costs about a tenth of its bytes on the wire (``benchmarks/wire.md``), for a phone on metered data. A
  client that offers nothing (the load generators, older clients) gets plain frames as before. The
  window and memLevel are chosen for the server's memory per connection and its CPU per frame together
  (both in ``benchmarks/wire.md``); uvicorn's own ``ws_per_message_deflate`` is left off, as its
  settings are not these. Its CPU is zlib's over each frame's bytes, so the page also asks for
  updates that leave out what did not change (``hello``'s ``deltas``: :mod:`cardhall.server.host.frames`),
  which leaves zlib a third to a half less to read (``benchmarks/wire.md``). Every message is
  compressed, the small ones too: a pong or an error costs ~1.3 µs and shrinks to a few bytes.
- **Admission at accept.** Each connection is counted against its address (an IPv4 address; an IPv6
  address by its /64, the block one subscriber gets) and against the server's total. One over either
  limit is refused at once, before its first byte is read: a short ``503`` and the close. Refusing
  early keeps file descriptors for everyone else: one address cannot take the server's whole share,
  and many addresses together fill the total before the process runs out of files (where accept()
  would fail for everybody and the store, the logs and the static files would have none left). The
  count covers a connection from accept to close, after a websocket upgrade too.
- **Request deadline.** A connection must deliver a complete request (headers and body) within
  ``request_timeout`` seconds of opening, of the end of its previous response, or (pipelined) of the
  first byte of the request; otherwise it is closed. uvicorn's own ``timeout_keep_alive`` waits only
  between requests and gives up at the first byte, so a connection that never sends anything, or
  sends its headers or its body a byte at a time (slowloris), was held forever. No deadline runs while
  the application answers, or on a websocket (its keepalive pings are uvicorn's).
- **Write stall.** A connection whose writes make no progress (the transport's buffer above its high
  mark, the peer reading nothing) for ``write_timeout`` seconds is dropped (TCP abort). Closing it
  would wait for a buffer that never drains: uvicorn's own close after a failed websocket keepalive
  did exactly that, holding the connection, its file and its buffer for as long as the peer wished.
- **A websocket close is never held up by a full buffer.** uvicorn waits for the buffer to drain
  before writing any message, the close included; the close of a client too slow to read its frames
  (:mod:`cardhall.server.connection`, 1013) would then wait forever. Here a close goes behind what the
  buffer holds at once (writing into the transport never blocks); a client that reads on gets its
  frames and then the close, one that never reads is dropped by the write stall.
- **A send after uvicorn closed the websocket itself** (keepalive timeout) is a disconnect
  (``ClientDisconnected``, which the application reads as ``WebSocketDisconnect``), not the
  ``RuntimeError`` uvicorn raises, which the server logged as an error on every such close.
- **A frame written at once.** The application's frames go through the ASGI send (Starlette's state
  checks, the exception wrapper, uvicorn's wait on the buffer) from the connection's sender task: a
  task switch and several layers for every frame, a good part of the server's CPU per action. The
  protocol puts :meth:`WebSocketProtocol.write_text` in the connection's scope (``WRITE_TEXT``), which
  frames and writes a text message there and then when nothing could hold it up (the handshake done,
  no close sent, the buffer below its high mark); otherwise it declines and the frame goes the usual
  way (:mod:`cardhall.server.connection` uses it only when nothing of that connection is queued, so
  the order holds). With nothing of websockets' own queued, it writes the message's two-to-ten-byte
  header itself (:func:`text_frame_header`) rather than through websockets' ``Frame`` (an object, its
  checks and a join for every frame, a twentieth of an action's cost); the bytes on the wire are the
  same. Compressed, it does what websockets' ``PerMessageDeflate.encode`` does for a whole message
  on that extension's own compressor (so a frame websockets frames itself, in between, continues the
  same stream); with ``server_no_context_takeover`` asked for, websockets frames every message.
- **A message read at once.** The application reads a message through the ASGI receive (Starlette's
  checks, uvicorn's receive, an ``asyncio.Queue``'s get: three coroutines and a future for every
  message a connection waits for), and uvicorn stops reading the socket after every message until it
  is read (two changes of the event loop's watch, each a system call). Here the protocol's queue is an
  :class:`Inbox` (a deque and one future to wait on), which :mod:`cardhall.server.connection` reads
  directly through the scope's ``READ_MESSAGE`` (``take`` and ``arrival``); reading stops only
  while :data:`INBOX_HIGH` messages wait unread, and goes on once they are all read. The ASGI receive
  reads the same inbox (the handshake's ``websocket.connect``, and any application that does not
  know the key).
- **A frame split at once.** websockets' parser reads each frame through generators and a stream
  buffer, and builds a ``Frame`` object with its checks: for the ~60-byte text messages a person
  sends, more than the rest of reading them. (With permessage-deflate, a small whole message the
  client compressed, RSV1 set, is inflated here too, on a copy of the extension's own inflater, which
  takes the copy's place only once the message is whole and within the size: otherwise websockets'
  parser gets the frame, with its inflater as it was, and answers as it would have.) Once the
  handshake is done (uvicorn hands the parser
  exactly the request's bytes, so it is between two frames), :meth:`WebSocketProtocol.data_received`
  splits the bytes into frames itself: a whole, unfragmented, masked text message of at most
  :data:`SPLIT_MAX` bytes, with no reserved bit, while the connection is open and no fragmented
  message is under way, is unmasked (websockets' own ``apply_mask``) and goes to the inbox as
  uvicorn's would; every other frame (pings, pongs, closes, fragments, anything malformed) is handed
  to websockets' parser whole, so its parser is always between two frames and answers exactly as it
  would have. A frame announcing more than ``SPLIT_MAX`` bytes, a close or a protocol error hands
  every byte from there on to websockets: nothing is buffered here beyond one small frame.
  (``tests/server/test_connection_frames.py`` holds the two to the same messages and answers whatever the
  bytes and however they are cut into reads.)
- **Open files.** :func:`raise_file_limit` raises the soft limit on open files to the hard one at start
  (the soft default, often 1,024, is a convention for interactive programs, not what the machine
  allows), and :func:`connection_cap` keeps :data:`FILE_RESERVE` of them out of the connections' total.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import zlib
from collections import Counter, deque
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.protocol import State
from websockets.server import ServerProtocol

try:  # (websockets' C unmasking, as its own parser uses it; its pure Python one without a compiler)
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover
    from websockets.utils import apply_mask

REQUEST_TIMEOUT: Final = 10.0  # seconds to deliver a complete request
WRITE_TIMEOUT: Final = 30.0  # seconds a connection's writes may make no progress
PER_ADDRESS: Final = 64  # connections from one address at once (0: no limit)
FILE_RESERVE: Final = 100  # open files kept out of the connections' total
WS_MAX_SIZE: Final = 65536  # bytes in one websocket message (uvicorn's ws_max_size)
WRITE_TEXT: Final = "cardhall.write_text"  # the scope's key of WebSocketProtocol.write_text
SPLIT_MAX: Final = 4096  # bytes of a frame's payload this protocol buffers itself (see data_received)
READ_MESSAGE: Final = "cardhall.read_message"  # the scope's key of (take, arrival): see Inbox
INBOX_HIGH: Final = 8  # messages waiting unread at which the socket is no longer read


@dataclass(frozen=True)
class Deflate:
    """permessage-deflate (RFC 7692) as this server offers it to a client that asks for it: the
    server's frames compressed with ``window_bits`` of window and zlib's ``mem_level`` and ``level``,
    with context takeover (each frame compressed against the ones before it, which is where the
    gain is: a table's frame repeats most of the one before); the client's messages with at most
    ``client_window_bits``. What a connection holds for it: see ``benchmarks/wire.md``."""

    # A 16 KiB window holds the frame before (up to ~8 KB in gin) and more: each frame is mostly one
    # long match, which is both smaller and faster than a smaller window's (8 KiB: hearts' frames cost
    # twice the CPU). memLevel 4 (a 2,048-entry hash, 8 KiB) costs no speed on such text. Level 1:
    # zlib's fastest matcher; what it leaves (a few percent) is not worth its CPU per frame.
    window_bits: int = 14
    mem_level: int = 4
    level: int = 1
    client_window_bits: int = 12  # (a client's messages are small: a 4 KiB inflater is plenty)

    def factory(self) -> ServerPerMessageDeflateFactory:
        return ServerPerMessageDeflateFactory(
            server_max_window_bits=self.window_bits,
            client_max_window_bits=self.client_window_bits,
            compress_settings={"memLevel": self.mem_level, "level": self.level},
        )


DEFLATE: Final = Deflate()


@dataclass(frozen=True)
class Limits:
    request_timeout: float = REQUEST_TIMEOUT
    write_timeout: float = WRITE_TIMEOUT
    per_address: int = PER_ADDRESS  # 0: no limit
    total: int | None = None  # None: no limit


def address_of(peer: Any) -> str:
    """What one client counts as: its IPv4 address, its IPv6 /64 (an IPv4-mapped one as IPv4)."""
    host = peer[0] if isinstance(peer, tuple) and peer else str(peer or "")
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:  # a Unix socket or something stranger: all one client
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class Admission:
    """The connections held, per address and in all."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.by_address: Counter[str] = Counter()
        self.held: dict[asyncio.BaseTransport, str] = {}

    def admit(self, transport: asyncio.BaseTransport) -> str | None:
        """Count ``transport`` in; or why not (and it is not counted)."""
        address = address_of(transport.get_extra_info("peername"))
        total, per_address = self.limits.total, self.limits.per_address
        if total is not None and len(self.held) >= total:
            return "the server holds as many connections as it can: try again in a moment"
        if per_address and self.by_address[address] >= per_address:
            return f"too many connections from {address} at once (at most {per_address})"
        self.held[transport] = address
        self.by_address[address] += 1
        return None

    def release(self, transport: asyncio.BaseTransport) -> None:
        address = self.held.pop(transport, None)
        if address is not None:
            self.by_address[address] -= 1
            if not self.by_address[address]:
                del self.by_address[address]


class _Watched(asyncio.Protocol):
    """The write stall watch both protocols share."""

    limits: ClassVar[Limits]
    admission: ClassVar[Admission]
    transport: asyncio.Transport
    _stall: asyncio.TimerHandle | None = None
    _write_paused = False

    def pause_writing(self) -> None:
        super().pause_writing()
        self._write_paused = True
        if self._stall is None:
            self._stall = asyncio.get_running_loop().call_later(self.limits.write_timeout, self._stalled)

    def resume_writing(self) -> None:
        super().resume_writing()
        self._write_paused = False
        self._unwatch()

    def _unwatch(self) -> None:
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None

    def _stalled(self) -> None:
        self._stall = None
        self.transport.abort()


class HTTPProtocol(_Watched, HttpToolsProtocol):
    _admitted = False
    _deadline: asyncio.TimerHandle | None = None
    _receiving = False  # a request has begun and is not complete

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        refused = self.admission.admit(transport)
        if refused is not None:
            text = refused.encode()
            transport.write(
                b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
                b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(text), text)
            )
            transport.close()  # uvicorn never hears of it
            return
        self._admitted = True
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self._admitted:
            return
        self._disarm()
        self._unwatch()
        super().connection_lost(exc)
        self.admission.release(self.transport)

    def data_received(self, data: bytes) -> None:
        if self._admitted:
            super().data_received(data)

    def _arm(self) -> None:
        if self._deadline is None and not self.transport.is_closing():
            self._deadline = self.loop.call_later(self.limits.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        self.transport.close()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._receiving = True
        self._arm()  # (already running unless the request is pipelined behind a response)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._receiving = False
        self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        answering = self.cycle is not None and not self.cycle.response_complete  # a pipelined request
        if not self._receiving and not answering:
            self._arm()

    def handle_websocket_upgrade(self) -> None:
        # The connection (and its place in the count) passes to the websocket protocol.
        self._disarm()
        self._unwatch()
        super().handle_websocket_upgrade()


class Inbox:
    """The messages a websocket received for the application, in order: what uvicorn's protocol uses of
    its ``asyncio.Queue`` (``put_nowait``, ``get``, ``empty``), and :meth:`wait` for a reader that takes
    them itself. One reader at a time (the connection's receiver)."""

    __slots__ = ("_waiter", "messages")

    def __init__(self) -> None:
        self.messages: deque[Any] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, message: Any) -> None:
        self.messages.append(message)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():  # (its reader may have been cancelled)
                waiter.set_result(None)

    def empty(self) -> bool:
        return not self.messages

    def qsize(self) -> int:
        return len(self.messages)

    def wait(self) -> asyncio.Future[None]:
        """A future done once a message has come (await it while :meth:`empty`)."""
        waiter = self._waiter
        if waiter is None or waiter.done():
            waiter = self._waiter = asyncio.get_running_loop().create_future()
        return waiter

    async def get(self) -> Any:
        while not self.messages:
            await self.wait()
        return self.messages.popleft()


class WebSocketProtocol(_Watched, WebSocketsSansIOProtocol):
    deflate: ClassVar[Deflate | None] = DEFLATE  # None: no extension offered

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # websockets' protocol as uvicorn makes it, with this server's compression (uvicorn's own,
        # ws_per_message_deflate, has a 4 KiB window and zlib's default level: see Deflate).
        self.conn = ServerProtocol(
            extensions=[] if self.deflate is None else [self.deflate.factory()],
            max_size=self.config.ws_max_size,
            logger=self.conn.logger,
        )
        self.queue: Any = Inbox()  # (uvicorn's own methods put into it and get from it)
        # The bytes of a frame not yet whole, once this protocol splits the frames itself (see
        # data_received); None: websockets' parser has them all.
        self._framing: bytearray | None = None
        self._chunks = 0  # data received while websockets' parser had it all
        self.split_frames = False  # whether this protocol ever split frames (then it gave up, or splits)

    def data_received(self, data: bytes) -> None:
        framing = self._framing
        if framing is None:
            if not self._may_split():
                self._chunks += 1
                super().data_received(data)
                return
            framing = self._framing = bytearray()
            self.split_frames = True
        framing += data
        conn, at, end = self.conn, 0, len(framing)
        while (extent := frame_extent(framing, at)) is not None:
            head, length = extent
            if length > SPLIT_MAX:  # (websockets refuses what is over the size; nothing is buffered here)
                self._give_up(framing, at)
                return
            first, second = framing[at], framing[at + 1]
            stop = at + head + length
            if stop > end:
                break
            text: bytes | None = None
            if (
                first in (0x81, 0xC1)  # (FIN, text; RSV1: compressed)
                and second & 0x80
                and conn.state is State.OPEN
                and not conn.expect_continuation_frame
            ):
                text = apply_mask(framing[at + head : stop], framing[at + head - 4 : at + head])
                if first == 0xC1:
                    text = self._inflated(text)
            if text is not None:
                self.curr_msg_data_type = "text"
                self.frames = [text]
                at = stop
                self.send_receive_event_to_app()
            else:
                frame = bytes(framing[at:stop])
                at = stop
                super().data_received(frame)
                if conn.state is not State.OPEN:  # (a close, or a protocol error: websockets ends it)
                    self._give_up(framing, at)
                    return
        del framing[:at]

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope: Any = getattr(self, "scope", None)  # (the application's task is made, not yet run)
        if scope is not None:
            scope[WRITE_TEXT] = self.write_text
            scope[READ_MESSAGE] = (self.take, self.queue.wait)

    def _may_split(self) -> bool:
        """Whether this protocol may split the frames from now on: the handshake done, and websockets'
        parser between two frames, having had nothing but the request (uvicorn hands it exactly the
        request's bytes), with no debugging and no extension but permessage-deflate (a message sent
        plain never touches the inflater's window; one compressed goes through :meth:`_inflated`)."""
        conn = self.conn
        return (
            self.handshake_complete
            and self._chunks == 1
            and conn.state is State.OPEN
            and all(isinstance(e, PerMessageDeflate) for e in conn.extensions)
            and not conn.debug
            and not conn.reader.buffer
        )

    def _inflated(self, payload: bytes) -> bytes | None:
        """A compressed message's text (permessage-deflate, RFC 7692, 7.2.2: its payload and the four
        bytes of an empty block, through the connection's inflater), as websockets' own
        ``PerMessageDeflate.decode`` would give it; None where websockets should answer instead (no
        such extension, an inflater per message, or the message too big or not deflate at all): a copy
        of the inflater tries it, so the extension's own is as it was for websockets' parser."""
        extensions = self.conn.extensions
        if len(extensions) != 1:
            return None
        deflate = extensions[0]
        if not isinstance(deflate, PerMessageDeflate) or deflate.remote_no_context_takeover:
            return None
        limits = [n for n in (self.conn.max_message_size, self.conn.max_fragment_size) if n is not None]
        trial = deflate.decoder.copy()
        try:
            text = trial.decompress(payload + b"\x00\x00\xff\xff", min(limits, default=0))
        except zlib.error:
            return None
        if trial.unconsumed_tail:
            return None
        deflate.decoder = trial
        return text

    def _give_up(self, framing: bytearray, at: int) -> None:
        """websockets' parser takes every byte from here on (it is between two frames)."""
        rest = bytes(framing[at:])
        self._framing = None
        self._chunks = 2  # (never again: websockets' parser is past the request)
        if rest and self.conn.parser_exc is None:  # (after an error its parser discards all)
            super().data_received(rest)

    def send_receive_event_to_app(self) -> None:
        # uvicorn's, but reading stops only at INBOX_HIGH messages unread, not after each one.
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        if self.close_sent:  # (past the application's close: read on until the peer's close reply)
            return
        if self.curr_msg_data_type == "text":
            message: dict[str, Any]
            try:
                message = {"type": "websocket.receive", "text": data.decode()}
            except UnicodeDecodeError:
                self.logger.exception("Invalid UTF-8 sequence received from client.")
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
        else:
            message = {"type": "websocket.receive", "bytes": data}
        self.queue.put_nowait(message)
        if not self.read_paused and self.queue.qsize() >= INBOX_HIGH:
            self.read_paused = True
            self.transport.pause_reading()

    def take(self) -> Any:
        """The next ASGI message received (``websocket.receive``, ``websocket.disconnect``), None while
        there is none (await the inbox's ``wait``); reading goes on once the inbox is empty."""
        messages = self.queue.messages
        if not messages:
            return None
        message = messages.popleft()
        if self.read_paused and not messages:
            self.read_paused = False
            self.transport.resume_reading()
        return message

    def write_text(self, data: bytes) -> bool:
        """Write ``data`` (UTF-8 text) as one text message now, if nothing could hold it up; False: not
        written (send it through the ASGI send, which waits, or raises for a connection that is gone)."""
        conn = self.conn
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.initial_response is not None
            or not self.writable.is_set()
            or self.transport.is_closing()
            or conn.state != State.OPEN
        ):
            return False
        if conn.expect_continuation_frame or conn.debug or conn.writes:
            return self._send_text(data)
        extensions = conn.extensions
        if not extensions:
            self.transport.write(text_frame_header(len(data)) + data)
            return True
        deflate = extensions[0]
        if len(extensions) > 1 or not isinstance(deflate, PerMessageDeflate):
            return self._send_text(data)
        if deflate.local_no_context_takeover:  # (a compressor for each message: websockets' own way)
            return self._send_text(data)
        # What websockets' PerMessageDeflate.encode does for an unfragmented message (RFC 7692, 7.2.1:
        # compressed with a sync flush, its final empty block's four bytes removed, RSV1 set), on its
        # own compressor, so the two never disagree on the window.
        encoder = deflate.encoder
        payload = encoder.compress(data) + encoder.flush(zlib.Z_SYNC_FLUSH)
        self.transport.write(text_frame_header(len(payload) - 4, compressed=True) + payload[:-4])
        return True

    def _send_text(self, data: bytes) -> bool:
        """websockets frames it: an extension, or its own state, may change the bytes."""
        try:
            self.conn.send_text(data)
        except InvalidState:  # (closing: the ASGI send says it is a disconnect)
            return False
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        self._unwatch()
        super().connection_lost(exc)
        self.admission.release(self.transport)

    async def send(self, message: Any) -> None:
        if message["type"] == "websocket.close" and self._write_paused and not self.disconnected:
            # uvicorn's send waits until the buffer drains before anything else: the close goes now,
            # behind what the buffer holds. Nothing else runs between the two lines (the wait on a set
            # event does not suspend), so no other send slips through.
            self.writable.set()
            try:
                await super().send(message)
            finally:
                if self._write_paused and not self.disconnected:
                    self.writable.clear()
            return
        try:
            await super().send(message)
        except RuntimeError:
            if message["type"] == "websocket.send" and self.close_sent:
                raise ClientDisconnected() from None  # uvicorn closed it (keepalive): a disconnect
            raise


def frame_extent(data: bytes | bytearray, at: int) -> tuple[int, int] | None:
    """The RFC 6455 frame starting at ``data[at]`` (5.2): the length of its header (with its masking
    key, if masked) and of its payload; None while its header has not all arrived."""
    end = len(data)
    if end - at < 2:
        return None
    second = data[at + 1]
    length, head = second & 0x7F, 2
    if length == 126:
        if end - at < 4:
            return None
        length, head = int.from_bytes(data[at + 2 : at + 4], "big"), 4
    elif length == 127:
        if end - at < 10:
            return None
        length, head = int.from_bytes(data[at + 2 : at + 10], "big"), 10
    return head + (4 if second & 0x80 else 0), length


def text_frame_header(length: int, compressed: bool = False) -> bytes:
    """The header of a server's unfragmented, unmasked text message of ``length`` bytes (RFC 6455,
    5.2: FIN and opcode 1, then the length in 7 bits, or 126 and 16 bits, or 127 and 64 bits);
    ``compressed``: RSV1 set too (permessage-deflate, RFC 7692, 6)."""
    first = 0xC1 if compressed else 0x81
    if length < 126:
        return bytes((first, length))
    if length < 0x10000:
        return bytes((first, 126)) + length.to_bytes(2, "big")
    return bytes((first, 127)) + length.to_bytes(8, "big")


def protocols(
    limits: Limits, deflate: Deflate | None = DEFLATE
) -> tuple[type[HTTPProtocol], type[WebSocketProtocol]]:
    """The HTTP and websocket protocol classes of one server, sharing its count of connections;
    ``deflate``: the compression offered to a client that asks for it (None: none)."""
    admission = Admission(limits)

    class HTTP(HTTPProtocol):
        pass

    class WebSocket(WebSocketProtocol):
        pass

    for cls in (HTTP, WebSocket):
        cls.limits = limits
        cls.admission = admission
    WebSocket.deflate = deflate
    return HTTP, WebSocket


def raise_file_limit() -> int | None:
    """Raise this process's soft limit on open files to its hard limit; the soft limit now (None where
    the system has no such limit)."""
    try:
        import resource
    except ImportError:  # not POSIX
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    # An unlimited hard limit is refused as a soft one (Linux: above fs.nr_open); 2**20 is its default.
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if wanted > soft:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return None if soft == resource.RLIM_INFINITY else soft


def connection_cap(files: int | None) -> int | None:
    """The most connections a process allowed ``files`` open files may hold: :data:`FILE_RESERVE` (at
    most half) stay for the store, the logs, the bots' worker processes and the static files being
    sent."""
    if files is None:
        return None
    return max(1, files - min(FILE_RESERVE, files // 2))
