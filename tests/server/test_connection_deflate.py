"""permessage-deflate on the server's own websocket protocol (``cardhall.server.transport``): a client
that offers it gets frames compressed (written at once on websockets' own compressor, or by websockets
itself, in any mix) that inflate to exactly the text sent; its messages, compressed or sent plain, all
reach the application in order; a client that offers nothing gets the plain frames it always got."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.uri import parse_uri

from cardhall.server.transport import DEFLATE, READ_MESSAGE, WS_MAX_SIZE
from tests.server.protocol_helpers import Loopback, protocol
from tests.server.test_connection_reads import CEILING

OFFERS = {
    "chromium": ClientPerMessageDeflateFactory(),  # permessage-deflate; client_max_window_bits
    "no takeover": ClientPerMessageDeflateFactory(server_no_context_takeover=True),
    "small window": ClientPerMessageDeflateFactory(server_max_window_bits=10),
}


async def opened(offer: Any) -> tuple[Any, Loopback, ClientProtocol, dict[str, Any]]:
    """A websocket protocol past its handshake with a client offering ``offer`` (None: nothing)."""
    got: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        got.set_result(scope)
        await asyncio.Event().wait()

    ws = protocol("ws", app=app)
    wire = Loopback()
    ws.connection_made(wire)
    client = ClientProtocol(parse_uri("ws://127.0.0.9/ws"), extensions=None if offer is None else [offer])
    client.send_request(client.connect())
    ws.data_received(b"".join(client.data_to_send()))
    scope = await asyncio.wait_for(got, CEILING)
    client.receive_data(b"".join(wire.written))
    client.events_received()  # (the handshake's answer)
    wire.written.clear()
    return ws, wire, client, scope


def frame_texts(rng: random.Random, count: int) -> list[bytes]:
    """Frames like a table's: each much like the one before, some long (a 16- and a 64-bit length)."""
    body = '{"type":"update","table":"T","n":%d,"hand":["AC","KD"],"pad":"%s"}'
    sizes = [0, 10, 200, 5000, 70000]
    return [(body % (i, "x" * rng.choice(sizes) + str(rng.random()))).encode() for i in range(count)]


def received(client: ClientProtocol, wire: Loopback) -> list[Frame]:
    client.receive_data(b"".join(wire.written))
    wire.written.clear()
    return [e for e in client.events_received() if isinstance(e, Frame)]


@pytest.mark.parametrize("offer", list(OFFERS))
@pytest.mark.parametrize("seed", range(4))
def test_compressed_frames_inflate_to_the_text_written_whichever_way_they_were_written(
    offer: str, seed: int
) -> None:
    async def scenario() -> None:
        ws, wire, client, _ = await opened(OFFERS[offer])
        assert [e.name for e in ws.conn.extensions] == ["permessage-deflate"]
        rng = random.Random(seed)
        texts = frame_texts(rng, 30)
        for data in texts:  # (at once, or through websockets' own framing: one compressor for both)
            assert ws.write_text(data) if rng.random() < 0.7 else ws._send_text(data)
        frames = received(client, wire)
        assert [bytes(f.data) for f in frames] == texts
        assert all(f.opcode is Opcode.TEXT and f.fin for f in frames)
        raw = sum(map(len, texts))
        assert sum(len(f.data) for f in frames) == raw

    asyncio.run(scenario())


def test_the_frames_written_at_once_are_compressed_with_rsv1_and_smaller() -> None:
    async def scenario() -> None:
        ws, wire, client, _ = await opened(OFFERS["chromium"])
        texts = frame_texts(random.Random(1), 20)
        for data in texts:
            assert ws.write_text(data)
        sent = b"".join(wire.written)
        assert all(chunk[0] == 0xC1 for chunk in wire.written)  # FIN, RSV1 (compressed), text
        assert len(sent) * 5 < sum(map(len, texts))
        assert [bytes(f.data) for f in received(client, wire)] == texts

    asyncio.run(scenario())


def test_a_client_offering_nothing_gets_plain_frames() -> None:
    async def scenario() -> None:
        ws, wire, client, _ = await opened(None)
        assert ws.conn.extensions == []
        assert ws.write_text(b'{"type":"pong"}')
        assert wire.written == [b'\x81\x0f{"type":"pong"}']
        assert [bytes(f.data) for f in received(client, wire)] == [b'{"type":"pong"}']

    asyncio.run(scenario())


def test_uvicorn_compression_is_the_servers_own() -> None:
    async def made() -> Any:
        return protocol("ws")

    ws = asyncio.run(made())
    (factory,) = ws.conn.available_extensions
    assert factory.server_max_window_bits == DEFLATE.window_bits
    assert factory.compress_settings == {"memLevel": DEFLATE.mem_level, "level": DEFLATE.level}


@pytest.mark.parametrize("cut", [1, 3, 7, 1000])
def test_messages_compressed_or_plain_all_reach_the_application_in_order(cut: int) -> None:
    async def scenario() -> None:
        ws, _, client, scope = await opened(OFFERS["chromium"])
        take, _ = scope[READ_MESSAGE]
        out, expected = [], []
        for i in range(12):
            text = f'{{"type":"act","n":{i},"pad":"{"y" * (i * 37)}"}}'
            expected.append(text)
            if i % 3:
                client.send_text(text.encode())  # (compressed by the client's extension)
                out.extend(client.data_to_send())
            else:  # (a message a client chose to send plain: RSV1 clear)
                out.append(Frame(Opcode.TEXT, text.encode()).serialize(mask=True, extensions=[]))
        data = b"".join(out)
        for at in range(0, len(data), cut):
            ws.data_received(data[at : at + cut])
            while (message := take()) is not None:
                expected.remove(message["text"]) if message["text"] == expected[0] else pytest.fail(message)
        assert not expected and ws.split_frames

    asyncio.run(scenario())


async def answers(parts: list[bytes], cut: int, split: bool) -> tuple[list[Any], bytes]:
    """The messages the application may take and the bytes the server wrote back, for ``parts`` from a
    client that negotiated compression, each read in pieces of ``cut`` bytes (uvicorn drops what came
    in the same read as a frame websockets refuses); ``split=False``: websockets' parser alone (the
    protocol never splits, or inflates)."""
    ws, wire, _, scope = await opened(OFFERS["chromium"])
    ws.conn.max_message_size = WS_MAX_SIZE  # (cardhall serve's ws_max_size; uvicorn's default is 16 MiB)
    if not split:
        ws._chunks = 2  # (as after a frame it gave up on: websockets has every byte)
    take, _ = scope[READ_MESSAGE]
    for data in parts:
        for at in range(0, len(data), cut):
            ws.data_received(data[at : at + cut])
    await asyncio.sleep(0)
    taken = []
    while (message := take()) is not None:
        taken.append(message)
    assert ws.split_frames == split
    return taken, b"".join(wire.written)


# FIN, RSV1 (compressed), text; masked with the zero key: a payload that is not deflate
CORRUPT = bytes((0xC1, 0x80 | 13)) + b"\0\0\0\0" + b"\xff\xfenot deflate"


@pytest.mark.parametrize("ending", ["none", "bomb", "corrupt"])
@pytest.mark.parametrize("cut", [1, 5, 4096])
def test_compressed_messages_are_read_and_refused_as_websockets_alone_would(ending: str, cut: int) -> None:
    async def scenario() -> None:
        _, _, client, _ = await opened(OFFERS["chromium"])  # (its frames: compressed as a browser's)
        for i in range(6):
            client.send_text(f'{{"type":"act","n":{i}}}'.encode())
        parts = [b"".join(client.data_to_send())]
        if ending == "bomb":  # (a few hundred bytes on the wire, over the size limit once inflated)
            client.send_text(b"a" * 200_000)
            parts.append(b"".join(client.data_to_send()))
        elif ending == "corrupt":
            parts.append(CORRUPT)
        if ending != "none":
            client.send_text(b'{"type":"after"}')
            parts.append(b"".join(client.data_to_send()))
        split, alone = await answers(parts, cut, True), await answers(parts, cut, False)
        assert split == alone
        texts = [m.get("text") for m in split[0]]
        assert texts[:6] == [f'{{"type":"act","n":{i}}}' for i in range(6)]
        if ending != "none":  # (closed: 1009 too big, 1002 not deflate)
            assert split[1] and split[1][0] == 0x88 and '{"type":"after"}' not in texts

    asyncio.run(scenario())
