"""A connection's messages read at once (``cardhall.server.transport.READ_MESSAGE``): in order, every one,
the disconnect after them; the socket is no longer read only while ``INBOX_HIGH`` messages wait unread,
and is read again once they are all taken (uvicorn stops reading after every message)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from websockets.client import ClientProtocol
from websockets.uri import parse_uri

from cardhall.server.transport import INBOX_HIGH, READ_MESSAGE, Inbox
from tests.server.protocol_helpers import Loopback, protocol

CEILING = 30.0  # seconds: what a working protocol never comes near


async def opened() -> tuple[Any, Loopback, ClientProtocol, dict[str, Any]]:
    """A websocket protocol past its handshake, its transport, the client's side and the ASGI scope the
    application got (the application accepts, then reads nothing itself)."""
    got: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        got.set_result(scope)
        await asyncio.Event().wait()  # (holds the connection open)

    ws = protocol("ws", app=app)
    wire = Loopback()
    ws.connection_made(wire)
    client = ClientProtocol(parse_uri("ws://127.0.0.9/ws"))
    client.send_request(client.connect())
    ws.data_received(b"".join(client.data_to_send()))
    scope = await asyncio.wait_for(got, CEILING)
    client.receive_data(b"".join(wire.written))  # (the handshake's answer: the client is open)
    return ws, wire, client, scope


def texts(client: ClientProtocol, first: int, count: int) -> bytes:
    for i in range(first, first + count):
        client.send_text(f"m{i}".encode())
    return b"".join(client.data_to_send())


def take_all(take: Any) -> list[Any]:
    taken = []
    while (message := take()) is not None:
        taken.append(message.get("text", message))
    return taken


@pytest.mark.parametrize("count", [1, INBOX_HIGH - 1, INBOX_HIGH, 3 * INBOX_HIGH])
def test_messages_come_in_order_and_reading_stops_only_at_the_inbox_high_mark(count: int) -> None:
    async def scenario() -> None:
        ws, wire, client, scope = await opened()
        take, _ = scope[READ_MESSAGE]
        ws.data_received(texts(client, 0, count))  # (all in one read, as a burst arrives)
        assert wire.reading == (count < INBOX_HIGH) and wire.pauses == (count >= INBOX_HIGH)
        first = take()
        assert first == {"type": "websocket.receive", "text": "m0"}
        assert wire.reading == (count < INBOX_HIGH)  # (still paused while any wait)
        assert take_all(take) == [f"m{i}" for i in range(1, count)]
        assert wire.reading  # (all taken: read again)
        ws.data_received(texts(client, count, 2))
        assert take_all(take) == [f"m{count}", f"m{count + 1}"] and wire.pauses == (count >= INBOX_HIGH)

    asyncio.run(scenario())


def test_a_reader_waiting_is_woken_by_the_next_message_and_then_by_the_disconnect() -> None:
    async def scenario() -> None:
        ws, _, client, scope = await opened()
        take, arrival = scope[READ_MESSAGE]
        assert take() is None
        waiting = asyncio.ensure_future(arrival())
        await asyncio.sleep(0)
        assert not waiting.done()
        ws.data_received(texts(client, 0, 1))
        await asyncio.wait_for(waiting, CEILING)
        assert take_all(take) == ["m0"]
        waiting = asyncio.ensure_future(arrival())
        ws.connection_lost(None)
        await asyncio.wait_for(waiting, CEILING)
        assert take()["type"] == "websocket.disconnect" and take() is None

    asyncio.run(scenario())


def test_a_cancelled_reader_leaves_the_inbox_to_the_next_one() -> None:
    async def scenario() -> list[str]:
        inbox = Inbox()
        gone = asyncio.ensure_future(inbox.get())
        await asyncio.sleep(0)
        gone.cancel()
        await asyncio.gather(gone, return_exceptions=True)
        reader = asyncio.ensure_future(inbox.get())
        await asyncio.sleep(0)
        inbox.put_nowait("one")
        inbox.put_nowait("two")
        return [await asyncio.wait_for(reader, CEILING), await inbox.get()]

    assert asyncio.run(scenario()) == ["one", "two"]
