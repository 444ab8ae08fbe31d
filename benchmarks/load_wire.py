"""A lean websocket client for ``load.py``'s load generators: the opening handshake and RFC 6455 frames
over a plain asyncio ``Protocol``, each text message handed to a callback as it is parsed.

Why not websockets' asyncio client (``cardhall.loadclient.open_async``, still there behind
``load.py --client websockets``): a load generator is not what is measured, yet it shares the
machine's two cores with the servers, PostgreSQL and Redis. With websockets' client, each frame a
person read went through its parser's generators, a stream buffer, an assembler and a queue with a
future, and a task switch to the reading coroutine: most of a generator's CPU, about as much as the
server's own per action (``benchmarks/load.md``). Here a frame is a slice of the bytes received and
one call.

What it does not do, because the server it talks to never needs it: compression (it offers no
extension), frames from the server split in fragments are joined but never expected, and its own
messages are sent masked with the zero key (RFC 6455 lets the key be any four bytes; a masking key
protects a proxy from a page's script, and there is no page here), so there is nothing to XOR. It
answers pings with pongs and a close with a close, and sends no pings of its own (a browser's
WebSocket does not).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import struct
from collections.abc import Callable
from typing import cast

from cardhall.server.transport import frame_extent

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455's, for the Sec-WebSocket-Accept check
TEXT, BINARY, CLOSE, PING, PONG, CONTINUATION = 0x1, 0x2, 0x8, 0x9, 0xA, 0x0
ZERO_MASK = b"\x00\x00\x00\x00"


class HandshakeError(Exception):
    """The server did not switch to the websocket protocol."""


def frame(opcode: int, payload: bytes) -> bytes:
    """A client frame (FIN set, masked with the zero key) carrying ``payload``."""
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 65536:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    return head + ZERO_MASK + payload


class LeanClient(asyncio.Protocol):
    """One connection to ``ws://host:port/ws``. ``on_open()`` runs when the handshake is done,
    ``on_text(payload)`` with a view of each text message's UTF-8 bytes, ``on_close()`` once when the
    connection is gone; ``send_text`` sends a message."""

    def __init__(
        self,
        host: str,
        port: int,
        on_open: Callable[[], None],
        on_text: Callable[[memoryview], None],
        on_close: Callable[[], None],
        path: str = "/ws",
    ) -> None:
        self._request_key = base64.b64encode(os.urandom(16))
        self._host, self._port, self._path = host, port, path
        self._on_open, self._on_text, self._on_close = on_open, on_text, on_close
        self._buffer = bytearray()
        self._open = False
        self._fragments: list[memoryview] = []
        self.transport: asyncio.Transport | None = None

    # --- asyncio.Protocol ------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # (uvloop's transports are not asyncio.Transport's subclasses, but have its methods)
        self.transport = transport = cast(asyncio.Transport, transport)
        transport.write(
            f"GET {self._path} HTTP/1.1\r\nHost: {self._host}:{self._port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {self._request_key.decode()}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )

    def data_received(self, data: bytes) -> None:
        if self._buffer or not self._open:
            # (the handshake's answer, or a frame an earlier read began: go on from what is kept)
            self._buffer += data
            if not self._open and not self._handshake():
                return
            data = bytes(self._buffer)
            self._buffer.clear()
        # Most reads are whole frames: each payload is a view of the bytes read, never copied.
        view, at, end = memoryview(data), 0, len(data)
        while (extent := frame_extent(data, at)) is not None:
            head, length = extent
            if data[at + 1] & 0x80:
                raise ConnectionError("the server sent a masked frame")
            if end - at < head + length:
                break
            first = data[at]
            at += head + length
            self._frame(first, view[at - length : at])
            if self.transport is None or self.transport.is_closing():
                return
        if at < end:
            self._buffer += view[at:]

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        self._on_close()

    # --- the messages ----------------------------------------------------------------------------

    def send_text(self, text: str) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(frame(TEXT, text.encode()))

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(frame(CLOSE, struct.pack("!H", 1000)))
            self.transport.close()

    def _handshake(self) -> bool:
        """The server's answer to the handshake, once it is all here: True when the socket is a
        websocket from now on (what follows the answer is frames)."""
        end = self._buffer.find(b"\r\n\r\n")
        if end < 0:
            return False
        head = bytes(self._buffer[:end]).decode("latin-1").split("\r\n")
        del self._buffer[: end + 4]
        expected = base64.b64encode(hashlib.sha1(self._request_key + GUID).digest()).decode()
        fields = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in head[1:])}
        if head[0].split(" ")[1:2] != ["101"] or fields.get("sec-websocket-accept") != expected:
            assert self.transport is not None
            self.transport.close()
            raise HandshakeError(f"the server answered {head[0]!r}")
        self._open = True
        self._on_open()
        return True

    def _frame(self, first: int, payload: memoryview) -> None:
        opcode, fin = first & 0x0F, first & 0x80
        if opcode in (TEXT, BINARY, CONTINUATION):
            if not fin or self._fragments:
                self._fragments.append(payload)
                if not fin:
                    return
                payload = memoryview(b"".join(self._fragments))
                self._fragments.clear()
            self._on_text(payload)
        elif opcode == PING:
            assert self.transport is not None
            self.transport.write(frame(PONG, bytes(payload)))
        elif opcode == CLOSE:
            self.close()


async def open_lean(
    host: str,
    port: int,
    on_text: Callable[[memoryview], None],
    on_open: Callable[[LeanClient], None],
    on_close: Callable[[], None],
) -> LeanClient:
    """Connect; ``on_open(client)`` runs (and may send) once the handshake is done."""
    loop = asyncio.get_running_loop()
    holder: list[LeanClient] = []

    def make() -> LeanClient:
        holder.append(LeanClient(host, port, lambda: on_open(holder[0]), on_text, on_close))
        return holder[0]

    await loop.create_connection(make, host, port)
    return holder[0]
