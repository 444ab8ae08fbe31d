"""The load generators' lean websocket client (``benchmarks/load_wire.py``) reads the server's frames
whatever pieces the socket hands them in: split anywhere, several in one read, fragmented, with pings
between."""

from __future__ import annotations

import base64
import hashlib
import struct
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import load_wire  # (a benchmark's module: benchmarks/ is not a package)


class Wire:
    """A transport that keeps what the client writes."""

    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.written.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True


def server_frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    n = len(payload)
    first = (0x80 if fin else 0) | opcode
    if n < 126:
        head = struct.pack("!BB", first, n)
    elif n < 65536:
        head = struct.pack("!BBH", first, 126, n)
    else:
        head = struct.pack("!BBQ", first, 127, n)
    return head + payload


def opened_client() -> tuple[load_wire.LeanClient, Wire, list[bytes], bytes]:
    """A client, its transport, the messages it read, and the server's answer to its handshake."""
    texts: list[bytes] = []
    client = load_wire.LeanClient("h", 1, lambda: None, lambda p: texts.append(bytes(p)), lambda: None)
    wire = Wire()
    client.connection_made(wire)  # type: ignore[arg-type]
    key = wire.written[0].split(b"Sec-WebSocket-Key: ")[1].split(b"\r\n")[0]
    accept = base64.b64encode(hashlib.sha1(key + load_wire.GUID).digest())
    answer = b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nSec-WebSocket-Accept: %s\r\n\r\n"
    return client, wire, texts, answer % accept


MESSAGES = [b'{"type":"welcome"}', b'{"type":"update","n":%d,"pad":"%s"}' % (7, b"x" * 300), b"[]" * 40_000]


@pytest.mark.parametrize("size", [1, 2, 3, 7, 64, 1000, 10**6])
def test_every_message_is_read_whole_whatever_the_reads_split(size: int) -> None:
    client, _, texts, answer = opened_client()
    stream = answer + b"".join(server_frame(load_wire.TEXT, m) for m in MESSAGES)
    for at in range(0, len(stream), size):
        client.data_received(stream[at : at + size])
    assert texts == MESSAGES


def test_a_fragmented_message_is_joined_and_a_ping_between_is_answered() -> None:
    client, wire, texts, answer = opened_client()
    client.data_received(answer)
    client.data_received(
        server_frame(load_wire.TEXT, b'{"a":', fin=False)
        + server_frame(load_wire.PING, b"hi")
        + server_frame(load_wire.CONTINUATION, b"1}")
    )
    assert texts == [b'{"a":1}']
    pong = wire.written[-1]
    assert pong[0] == 0x80 | load_wire.PONG and pong[-2:] == b"hi"


def test_a_masked_frame_from_the_server_is_refused() -> None:
    client, _, _, answer = opened_client()
    client.data_received(answer)
    with pytest.raises(ConnectionError, match="masked"):
        client.data_received(bytes((0x81, 0x80 | 2)) + b"\0\0\0\0ab")
