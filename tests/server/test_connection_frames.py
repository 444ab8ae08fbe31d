"""A connection's frames split by the server's own protocol (``cardhall.server.transport``,
``WebSocketProtocol.data_received``): whatever the bytes and however they are cut into reads, the
application gets the same messages, and the peer the same answers (pongs, closes), as from websockets'
own parser, which the protocol hands every frame that is not a small whole text message."""

from __future__ import annotations

import asyncio
import itertools
import struct
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.client import ClientProtocol

from cardhall.server.transport import READ_MESSAGE, SPLIT_MAX
from tests.server.test_connection_reads import CEILING, opened

Step = tuple[str, Any]  # ("text", str) | ("ping", bytes) | ("raw", bytes) | ("split", str)


def wire_bytes(client: ClientProtocol, steps: list[Step]) -> bytes:
    """What a client sends for ``steps`` (masked as websockets masks; "raw": bytes as they are)."""
    out = []
    for kind, value in steps:
        if kind == "text":
            client.send_text(value.encode())
        elif kind == "ping":
            client.send_ping(value)
        elif kind == "split":  # one text message in two fragments
            half = len(value) // 2
            client.send_text(value[:half].encode(), fin=False)
            client.send_continuation(value[half:].encode(), fin=True)
        out.extend(client.data_to_send())
        if kind == "raw":
            out.append(value)
    return b"".join(out)


async def outcome(data: bytes, cuts: list[int], split: bool) -> tuple[list[Any], bytes]:
    """The messages the application may take and the bytes the server wrote back, for ``data`` read
    in pieces cut at ``cuts``; ``split=False``: websockets' parser alone (the protocol never splits)."""
    ws, wire, _, scope = await opened()
    if not split:
        ws._chunks = 2  # (as after a frame it gave up on: websockets has every byte)
    take, _ = scope[READ_MESSAGE]
    wire.written.clear()
    bounds = [0, *sorted(c for c in set(cuts) if 0 < c < len(data)), len(data)]
    for a, b in itertools.pairwise(bounds):
        ws.data_received(data[a:b])
    await asyncio.sleep(0)
    taken = []
    while (message := take()) is not None:
        taken.append(message)
    assert ws.split_frames == split
    return taken, b"".join(wire.written)


def both(steps: list[Step], cuts: list[int]) -> tuple[tuple[list[Any], bytes], tuple[list[Any], bytes]]:
    async def scenario() -> tuple[tuple[list[Any], bytes], tuple[list[Any], bytes]]:
        client = (await opened())[2]
        data = wire_bytes(client, steps)
        return (
            await asyncio.wait_for(outcome(data, cuts, True), CEILING),
            await asyncio.wait_for(outcome(data, cuts, False), CEILING),
        )

    return asyncio.run(scenario())


# (a message over SPLIT_MAX bytes, which websockets' parser reads, is one character repeated)
long_messages = st.builds(lambda c, n: c * n, st.characters(), st.integers(SPLIT_MAX, SPLIT_MAX + 200))
messages = st.text(max_size=300) | long_messages
steps = st.lists(
    st.tuples(st.just("text"), messages)
    | st.tuples(st.just("ping"), st.binary(max_size=20))
    | st.tuples(st.just("split"), st.text(min_size=2, max_size=50)),
    min_size=1,
    max_size=12,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps, st.lists(st.integers(min_value=0, max_value=20000), max_size=10))
def test_any_messages_cut_anywhere_arrive_as_websockets_reads_them(
    steps: list[Step], cuts: list[int]
) -> None:
    ours, theirs = both(steps, cuts)
    assert ours == theirs
    assert [m["text"] for m in ours[0]] == [v for k, v in steps if k in ("text", "split")]


def test_messages_read_a_byte_at_a_time_arrive_whole_and_in_order() -> None:
    texts = [f"message {i} ü" for i in range(5)]
    steps: list[Step] = [("text", t) for t in texts]
    ours, theirs = both(steps, list(range(200)))
    assert [m["text"] for m in ours[0]] == texts
    assert ours == theirs


def test_a_ping_between_messages_is_answered_and_the_messages_go_on() -> None:
    (taken, written), theirs = both([("text", "a"), ("ping", b"x"), ("text", "b")], [])
    assert [m["text"] for m in taken] == ["a", "b"]
    assert written == b"\x8a\x01x"  # the pong
    assert (taken, written) == theirs


def bad(frame: bytes) -> tuple[list[Step], list[int]]:
    """A frame between two messages, each read on its own (uvicorn drops a message read together
    with a bad frame after it; the protocol delivers it, so the two differ only there)."""
    before = 2 + 4 + len("before")  # (its header, its mask, its text)
    return [("text", "before"), ("raw", frame), ("text", "after")], [before, before + len(frame)]


def test_an_unmasked_frame_is_refused_as_websockets_refuses_it() -> None:
    ours, theirs = both(*bad(b"\x81\x02hi"))
    assert ours == theirs
    # (then one disconnect more for the next read: uvicorn reports the parser's error on every read)
    assert [m.get("text") for m in ours[0]][:2] == ["before", None]
    assert ours[0][1]["code"] == 1002  # a protocol error
    assert struct.pack("!H", 1002) in ours[1]  # the close


def test_a_message_before_a_bad_frame_in_the_same_read_is_delivered() -> None:
    steps, _ = bad(b"\x81\x02hi")
    (taken, written), (theirs, _) = both(steps, [])
    assert [m.get("text") for m in taken] == ["before", None]
    assert [m.get("text") for m in theirs] == [None]  # (uvicorn's: the message is lost)
    assert struct.pack("!H", 1002) in written


def test_invalid_utf8_closes_with_1007_as_websockets_does() -> None:
    frame = b"\x81\x82\x00\x00\x00\x00\xff\xfe"  # masked with the zero key
    ours, theirs = both(*bad(frame))
    assert ours == theirs
    assert struct.pack("!H", 1007) in ours[1]


def test_a_frame_announcing_a_huge_length_is_never_buffered() -> None:
    frame = b"\x81\xff" + (2**62).to_bytes(8, "big") + b"\x00" * 4 + b"x" * 100
    ours, theirs = both(*bad(frame))
    assert ours == theirs
    assert struct.pack("!H", 1009) in ours[1]  # too big: websockets' answer, at once


def test_a_close_from_the_client_is_answered_and_ends_the_messages() -> None:
    close = b"\x88\x82\x00\x00\x00\x00" + struct.pack("!H", 1000)
    ours, theirs = both(*bad(close))
    assert ours == theirs
    assert [m.get("text") for m in ours[0]] == ["before", None]  # then the disconnect
    assert ours[0][-1]["type"] == "websocket.disconnect"
