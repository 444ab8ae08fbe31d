"""A connection's frames written at once (``cardhall.server.transport.WRITE_TEXT``) only when nothing of
that connection is queued, so they never overtake one another; declined, they queue for the sender. The
header the protocol writes itself is the one websockets would write."""

from __future__ import annotations

from typing import Any

import pytest
from websockets.frames import Frame, Opcode

from cardhall.server.connection import Connection
from cardhall.server.transport import WRITE_TEXT, text_frame_header


class Socket:
    """A websocket whose protocol writes at once while ``open`` (its buffer below its high mark)."""

    def __init__(self) -> None:
        self.client = None
        self.open = True
        self.written: list[bytes] = []
        self.scope: dict[str, Any] = {WRITE_TEXT: self.write}

    def write(self, data: bytes) -> bool:
        if self.open:
            self.written.append(data)
        return self.open


def connection(ws: Any) -> Connection:
    return Connection(ws, ctx=None)  # type: ignore[arg-type]  # (sending needs no context)


def test_a_frame_is_written_at_once_when_nothing_is_queued() -> None:
    ws = Socket()
    c = connection(ws)
    c.send_text("one")
    c.send_text("two")
    assert ws.written == [b"one", b"two"] and not c._out


def test_once_a_frame_is_queued_the_next_ones_queue_behind_it() -> None:
    ws = Socket()
    c = connection(ws)
    ws.open = False  # (the buffer is full: the protocol declines)
    c.send_text("one")
    ws.open = True  # (drained, but "one" waits for the sender: "two" must not overtake it)
    c.send_text("two")
    assert ws.written == [] and list(c._out) == ["one", "two"]


def test_without_the_protocols_write_every_frame_goes_to_the_sender() -> None:
    ws = Socket()
    ws.scope = {}  # (in-process: Starlette's test client)
    c = connection(ws)
    c.send_text("one")
    assert ws.written == [] and list(c._out) == ["one"]


@pytest.mark.parametrize("length", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_the_header_written_at_once_is_the_one_websockets_writes(length: int) -> None:
    data = b"x" * length
    framed = Frame(Opcode.TEXT, data).serialize(mask=False, extensions=[])
    assert text_frame_header(length) + data == framed
