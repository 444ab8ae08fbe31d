"""The server's own uvicorn protocols driven without a socket: a transport that keeps what it is told,
and a protocol instance of one server's classes."""

from __future__ import annotations

import asyncio
from typing import Any

import uvicorn
import uvicorn.server

from cardhall.server import transport


class Loopback(asyncio.Transport):
    """A transport that takes what is written and never sends it (no socket: the protocols alone)."""

    def __init__(self) -> None:
        super().__init__()
        self.aborted = asyncio.Event()
        self.written: list[bytes] = []
        self.reading = True  # (pause_reading and resume_reading switch it)
        self.pauses = 0

    def get_extra_info(self, name: str, default: object = None) -> object:
        return ("127.0.0.9", 1234) if name == "peername" else default

    def write(self, data: Any) -> None:
        self.written.append(bytes(data))

    def is_closing(self) -> bool:
        return self.aborted.is_set()

    def abort(self) -> None:
        self.aborted.set()

    def close(self) -> None:
        pass

    def pause_reading(self) -> None:
        self.reading = False
        self.pauses += 1

    def resume_reading(self) -> None:
        self.reading = True


def protocol(kind: str, app: Any = None, **limits: Any) -> Any:
    """A protocol instance of one server's classes (``http`` or ``ws``), with ``limits``, running the
    ASGI ``app`` (none: one that does nothing)."""
    classes = dict(zip(("http", "ws"), transport.protocols(transport.Limits(**limits)), strict=True))
    app = app if app is not None else lambda *_: None
    config = uvicorn.Config(app=app, http=classes["http"], ws=classes["ws"], log_level="error")
    config.load()
    return classes[kind](config=config, server_state=uvicorn.server.ServerState(), app_state={})
