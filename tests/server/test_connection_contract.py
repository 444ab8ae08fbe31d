"""The contract between ``cardhall.server.transport`` and the uvicorn and websockets it is pinned to
(``pyproject.toml``): every private method and attribute it overrides, calls or reads exists with the
shape it expects, and a real ``cardhall serve`` (the production path: these classes behind uvicorn, on
a socket) serves a client that offers permessage-deflate compressed frames whose inflated JSON is the
plain frames another connection of the same seat gets, and a client that offers nothing plain frames.
On a release whose internals moved, this fails rather than production."""

from __future__ import annotations

import asyncio
import inspect
import json
import re
import selectors
import socket
import time
import zlib
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
import uvicorn.server
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory, PerMessageDeflate
from websockets.frames import Frame, Opcode
from websockets.server import ServerProtocol
from websockets.uri import parse_uri

from cardhall.server import transport
from tests.server.protocol_helpers import protocol
from tests.server_helpers import free_port, http, running_server

# name: the parameters after self, for each method transport.py overrides or calls.
HTTP_METHODS = {
    "connection_made": ["transport"],
    "connection_lost": ["exc"],
    "data_received": ["data"],
    "on_message_begin": [],
    "on_message_complete": [],
    "on_response_complete": [],
    "handle_websocket_upgrade": [],
    "pause_writing": [],
    "resume_writing": [],
}
WS_METHODS = {
    "__init__": ["config", "server_state", "app_state", "_loop"],
    "data_received": ["data"],
    "handle_connect": ["event"],
    "send_receive_event_to_app": [],
    "handle_parser_exception": [],
    "connection_lost": ["exc"],
    "send": ["message"],
    "pause_writing": [],
    "resume_writing": [],
}
WS_ATTRIBUTES = [
    "config", "conn", "queue", "frames", "curr_msg_data_type", "handshake_complete", "close_sent",
    "disconnected", "initial_response", "writable", "transport", "read_paused", "logger",
]  # fmt: skip
CONN_ATTRIBUTES = [
    "state",
    "expect_continuation_frame",
    "extensions",
    "debug",
    "parser_exc",
    "writes",
    "logger",
    "max_message_size",
    "max_fragment_size",
]


def parameters(cls: type, name: str) -> list[str]:
    return list(inspect.signature(getattr(cls, name)).parameters)[1:]


def test_the_methods_transport_overrides_or_calls_have_the_shape_it_expects() -> None:
    for cls, methods in ((HttpToolsProtocol, HTTP_METHODS), (WebSocketsSansIOProtocol, WS_METHODS)):
        for name, expected in methods.items():
            assert parameters(cls, name) == expected, f"{cls.__name__}.{name}"
    for name in ("send_text", "data_to_send", "send_close", "receive_data", "accept"):
        assert callable(getattr(ServerProtocol, name)), name
    assert parameters(ServerProtocol, "send_text")[:1] == ["data"]


def test_the_attributes_transport_reads_are_where_it_reads_them() -> None:
    async def made(kind: str) -> Any:
        return protocol(kind)

    ws = asyncio.run(made("ws"))
    for name in WS_ATTRIBUTES:
        assert hasattr(ws, name), f"WebSocketsSansIOProtocol().{name}"
    for name in CONN_ATTRIBUTES:
        assert hasattr(ws.conn, name), f"ServerProtocol().{name}"
    assert isinstance(ws.conn.reader.buffer, bytearray)
    assert isinstance(ws.conn.writes, list) and ws.conn.debug in (True, False)
    http_protocol = asyncio.run(made("http"))
    for name in ("loop", "transport", "cycle", "ws_protocol_class"):
        assert hasattr(http_protocol, name), f"HttpToolsProtocol().{name}"
    # The inbox replaces uvicorn's asyncio.Queue: it must have every method uvicorn calls on it.
    used = set(re.findall(r"self\.queue\.(\w+)", inspect.getsource(WebSocketsSansIOProtocol)))
    assert used and used <= {name for name in dir(transport.Inbox) if not name.startswith("_")}, used
    # uvicorn's websocket task reads the scope it made in handle_connect (WRITE_TEXT goes into it).
    assert "self.scope" in inspect.getsource(WebSocketsSansIOProtocol.handle_connect)


def test_the_deflate_compressor_written_at_once_is_websockets_own() -> None:
    extension = PerMessageDeflate(False, False, 12, transport.DEFLATE.window_bits, {"level": 1})
    assert not extension.local_no_context_takeover and not extension.remote_no_context_takeover
    assert extension.decoder.copy().decompress(b"\x00\x00\xff\xff") == b""  # (the inflater it tries)
    data = b'{"type":"update","n":1}' * 20
    payload = extension.encoder.compress(data) + extension.encoder.flush(zlib.Z_SYNC_FLUSH)
    assert payload.endswith(b"\x00\x00\xff\xff")  # (the sync flush's empty block, dropped on the wire)
    assert uvicorn.__version__.startswith("0.55.")


# --- a real server ---------------------------------------------------------------------------------


class RawClient:
    """A websocket client on a socket (websockets' sans-IO protocol, public API) that keeps the bytes
    its server sent after the handshake, to read the frames' header bits itself."""

    def __init__(self, port: int, deflate: bool) -> None:
        extensions = [ClientPerMessageDeflateFactory()] if deflate else None  # ([]: an empty header)
        self.protocol = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/ws"), extensions=extensions)
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.protocol.send_request(self.protocol.connect())
        self.head = bytearray()  # the handshake's answer, then the frames' bytes are in wire
        self.wire = bytearray()
        self.texts: list[str] = []
        self.flush()
        while not self.texts and self.protocol.state.name == "CONNECTING":
            self.pump()
        self.extensions = self.protocol.extensions

    def close(self) -> None:
        self.sock.close()

    def flush(self) -> None:
        for data in self.protocol.data_to_send():
            if data:
                self.sock.sendall(data)

    def pump(self) -> None:
        data = self.sock.recv(1 << 16)
        assert data, "the server closed the connection"
        if b"\r\n\r\n" not in self.head:
            self.head += data
            if b"\r\n\r\n" in self.head:
                head, _, rest = bytes(self.head).partition(b"\r\n\r\n")
                self.head = bytearray(head + b"\r\n\r\n")
                self.wire += rest
        else:
            self.wire += data
        self.protocol.receive_data(data)
        for event in self.protocol.events_received():
            if isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                self.texts.append(bytes(event.data).decode())
        self.flush()

    def send(self, **fields: Any) -> None:
        self.protocol.send_text(json.dumps(fields).encode())
        self.flush()

    def first_bytes(self) -> list[int]:
        """The first byte (FIN, RSV1-3, opcode) of every frame the server sent."""
        firsts, at = [], 0
        while (extent := transport.frame_extent(self.wire, at)) is not None:
            head, length = extent
            firsts.append(self.wire[at])
            at += head + length
        return firsts

    def frames(self) -> list[dict[str, Any]]:
        return [json.loads(t) for t in self.texts]


def read_until(clients: list[RawClient], done: Any, act: Any = None, seconds: float = 60) -> None:
    """Read every client's socket as data comes until ``done()``; ``act()`` after each read."""
    with selectors.DefaultSelector() as selector:
        for c in clients:
            selector.register(c.sock, selectors.EVENT_READ, c)
        deadline = time.monotonic() + seconds
        while not done():
            assert time.monotonic() < deadline, "the server's frames stopped coming"
            for key, _ in selector.select(1):
                key.data.pump()
            if act is not None:
                act()


@contextmanager
def real_server(tmp_path: Path) -> Iterator[int]:
    port = free_port()
    with running_server(tmp_path / "wire.db", port, "--no-rate-limits"):
        yield port


def playing(client: RawClient) -> list[str]:
    return [t for t, f in zip(client.texts, client.frames(), strict=True) if f.get("status") == "playing"]


@pytest.mark.slow  # a real `cardhall serve` in its own process
@pytest.mark.process
def test_a_client_offering_deflate_gets_compressed_frames_that_inflate_to_the_plain_ones(
    tmp_path: Path,
) -> None:
    with real_server(tmp_path) as port, ExitStack() as stack:
        ann = http(port, "POST", "/api/players", {"name": "Ann"})["token"]
        bob = http(port, "POST", "/api/players", {"name": "Bob"})["token"]
        body = {"game": "hokm", "settings": {"bot_pace_ms": 0}, "bots": {"1": "normal"}}
        table = http(port, "POST", "/api/tables", body, ann)["table"]
        packed, plain, other = clients = [
            RawClient(port, True),
            RawClient(port, False),
            RawClient(port, False),
        ]
        stack.callback(lambda: [c.close() for c in clients])
        assert [e.name for e in packed.extensions] == ["permessage-deflate"] and not plain.extensions
        # Ann's two connections attach to her seat while the table waits; Bob's join starts it.
        for c, token in ((packed, ann), (plain, ann), (other, bob)):
            c.send(type="hello", token=token)
            read_until([c], lambda c=c: any(f["type"] == "welcome" for f in c.frames()))
        for c in (packed, plain):
            c.send(type="join", table=table, seat=0)
            read_until([c], lambda c=c: any(f["type"] == "table" for f in c.frames()))
        other.send(type="join", table=table, seat=2)
        acted: dict[int, int] = {}

        def act() -> None:  # Ann (on her plain connection) and Bob play their first legal action
            for c, seat in ((plain, 0), (other, 2)):
                frames = [f for f in c.frames() if f.get("table") == table and "legal" in f]
                if frames and frames[-1]["legal"] and acted.get(seat, -1) < frames[-1]["n"]:
                    n = acted[seat] = frames[-1]["n"]
                    c.send(type="act", table=table, action=frames[-1]["legal"][0]["action"], n=n)

        def scored(c: RawClient) -> bool:
            return any(e["type"] == "deal_scored" for f in c.frames() for e in f.get("events", ()))

        read_until([packed, plain, other], lambda: scored(packed) and scored(plain), act)
        count = min(len(playing(packed)), len(playing(plain)))
        assert count > 20 and playing(packed)[:count] == playing(plain)[:count]
        texts = [b & 0x0F == 1 for b in packed.first_bytes()]
        assert len(texts) >= len(packed.texts) and sum(texts) == len(packed.texts)
        assert all(b == 0xC1 for b in packed.first_bytes() if b & 0x0F == 1)  # FIN, RSV1, text
        assert all(b == 0x81 for b in plain.first_bytes() if b & 0x0F == 1)  # FIN, text
        assert len(packed.wire) * 3 < len(plain.wire)
