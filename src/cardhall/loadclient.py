"""A client of the server's websocket (``docs/protocol.md``): what the tests' sessions and the load
benchmark's players are made of, so that there is one way to talk to a server from Python.

Decisions:

- **The protocol only.** It sends JSON messages and reads JSON frames, and imports nothing else of
  cardhall, as the browser client knows only the protocol: a test through it sees what any client
  sees. (``tests/test_architecture.py`` holds it to that.)
- **One reading logic, three transports.** :class:`Client` keeps every frame it read and waits for the
  frame a caller names (``until("table")``, ``until_seat(1, away=True)``, ``wait(predicate)``); it
  reads through a transport: in-process over Starlette's ``TestClient`` (:func:`in_process`: the
  server tests), or a real server over websockets' synchronous client (:func:`connect`: the tests of
  a real ``cardhall serve``). The load benchmark runs thousands of players in one process on asyncio
  and reads frames as they stream, decoded by its own msgspec types, so it takes only the connection
  and the messages from here (:func:`open_async`, :func:`message`).
- **No pacing.** A client sends when it is asked to; a test whose server has rates runs it with
  ``Limits().unpaced()`` (a setting of the server), never with sleeps between messages.
- It lives in the package rather than under ``tests/`` so that the benchmarks (scripts, and the
  processes they spawn) import it as they import cardhall; it needs ``websockets`` only for a real
  server (the ``server`` extra).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.testclient import TestClient
    from websockets.asyncio.client import connect as async_connect

Frame = dict[str, Any]


def message(**fields: Any) -> str:
    """A client message as the server reads it: one JSON object (``message(type="ping", id=1)``)."""
    return json.dumps(fields)


def url(port: int, host: str = "127.0.0.1") -> str:
    return f"ws://{host}:{port}/ws"


class Client:
    """One websocket connection, keeping every frame it received (``frames``). ``token``: say
    ``hello`` with it at once and wait for the ``welcome``."""

    def __init__(
        self,
        send_text: Callable[[str], None],
        receive_text: Callable[[float | None], str],
        token: str | None = None,
    ) -> None:
        self._send_text = send_text
        self._receive_text = receive_text
        self.frames: list[Frame] = []
        if token is not None:
            self.send(type="hello", token=token)
            self.until("welcome")

    def send(self, **fields: Any) -> None:
        self._send_text(message(**fields))

    def send_text(self, text: str) -> None:
        """A message as it is, JSON or not (what a test of bad input sends)."""
        self._send_text(text)

    def receive(self, timeout: float | None = None) -> Frame:
        """The next frame (TimeoutError after ``timeout`` seconds, where the transport has one)."""
        frame: Frame = json.loads(self._receive_text(timeout))
        self.frames.append(frame)
        return frame

    def wait(self, done: Callable[[Frame], bool], timeout: float | None = None) -> Frame:
        """Frames until one for which ``done`` is true (``timeout``: for each frame)."""
        while True:
            frame = self.receive(timeout)
            if done(frame):
                return frame

    def until(self, kind: str, **match: Any) -> Frame:
        """Frames until one of type ``kind`` whose fields include ``match``."""
        return self.wait(lambda f: f["type"] == kind and all(f.get(k) == v for k, v in match.items()))

    def until_seat(self, seat: int, **match: Any) -> Frame:
        """Frames until one that shows ``seat`` with the fields ``match``."""

        def shows(frame: Frame) -> bool:
            shown = frame.get("seats")
            return (
                shown is not None and bool(shown) and all(shown[seat].get(k) == v for k, v in match.items())
            )

        return self.wait(shows)

    def error(self, **fields: Any) -> Frame:
        """Send a message and return the error frame it gets (a ping after it proves the connection
        still answers)."""
        self.send(**fields)
        frame = self.until("error")
        self.send(type="ping", id="after")
        self.until("pong", ref="after")
        return frame


@contextmanager
def in_process(test_client: TestClient, token: str | None = None) -> Iterator[Client]:
    """A client of an app running in this process (Starlette's ``TestClient``, its lifespan entered)."""
    with test_client.websocket_connect("/ws") as ws:
        yield Client(ws.send_text, lambda timeout: ws.receive_text(), token)


@contextmanager
def connect(
    port: int, token: str | None = None, host: str = "127.0.0.1", open_timeout: float = 10
) -> Iterator[Client]:
    """A client of a real server (``cardhall serve``) on ``host:port``."""
    from websockets.sync.client import connect as sync_connect

    with sync_connect(url(port, host), open_timeout=open_timeout) as ws:

        def receive(timeout: float | None) -> str:
            text = ws.recv(timeout=timeout)
            return text if isinstance(text, str) else text.decode()

        yield Client(ws.send, receive, token)


def open_async(
    port: int, host: str = "127.0.0.1", open_timeout: float = 120, pings: bool = False
) -> async_connect:
    """An asyncio connection to a real server (``async with open_async(port) as ws``), for many clients
    in one process: frames up to 1 MiB, as the server's largest are well under it. It answers the
    server's keepalive pings but sends none of its own unless ``pings`` (websockets' clients ping every
    20 s by default; a browser's WebSocket never does, so a load of browsers pays only the server's)."""
    from websockets.asyncio.client import connect as async_connect

    # No compression offered: a load generator stands for the lean clients' load, as before the server
    # offered permessage-deflate (benchmarks/wire.py measures what compression costs).
    return async_connect(
        url(port, host),
        open_timeout=open_timeout,
        max_size=2**20,
        ping_interval=20 if pings else None,
        compression=None,
    )


__all__ = ["Client", "Frame", "connect", "in_process", "message", "open_async", "url"]
