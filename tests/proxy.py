"""A TCP proxy that a test controls, to cut the network between a server and its Redis or PostgreSQL
for a few seconds: :meth:`CutProxy.cut` closes every connection through it and refuses new ones (as a
dead link or a firewall would look to both ends), :meth:`CutProxy.mend` lets connections through again.
It runs on a thread of its own, so a test may use it from synchronous code and around other processes.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import threading
from types import TracebackType


class CutProxy:
    """Listens on 127.0.0.1:``port`` (a free one) and forwards each connection to ``target``."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.setblocking(False)
        self.port = int(self.listener.getsockname()[1])
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.listener, selectors.EVENT_READ)
        self.pairs: dict[socket.socket, socket.socket] = {}
        self.is_cut = False
        self.lock = threading.Lock()
        self.closing = False
        self.thread = threading.Thread(target=self._run, name="cut-proxy", daemon=True)

    def __enter__(self) -> CutProxy:
        self.thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def cut(self) -> None:
        """Close every connection through the proxy and refuse new ones until :meth:`mend`."""
        with self.lock:
            self.is_cut = True
            self._close_all()

    def mend(self) -> None:
        with self.lock:
            self.is_cut = False

    def close(self) -> None:
        self.closing = True
        self.thread.join(timeout=5)
        with self.lock:
            self._close_all()
        self.listener.close()
        self.selector.close()

    def _close_all(self) -> None:
        for conn in list(self.pairs):
            self._drop(conn)

    def _drop(self, conn: socket.socket) -> None:
        other = self.pairs.pop(conn, None)
        for sock in (conn, other):
            if sock is None:
                continue
            self.pairs.pop(sock, None)
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(sock)
            sock.close()

    def _run(self) -> None:
        while not self.closing:
            for key, _ in self.selector.select(timeout=0.05):
                with self.lock:
                    sock = key.fileobj
                    assert isinstance(sock, socket.socket)
                    if sock is self.listener:
                        self._accept()
                    elif sock in self.pairs:
                        self._forward(sock)

    def _accept(self) -> None:
        try:
            client, _ = self.listener.accept()
        except BlockingIOError:
            return
        if self.is_cut:
            client.close()
            return
        try:
            upstream = socket.create_connection(self.target, timeout=5)
        except OSError:
            client.close()
            return
        for sock in (client, upstream):
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ)
        self.pairs[client] = upstream
        self.pairs[upstream] = client

    def _forward(self, sock: socket.socket) -> None:
        try:
            data = sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._drop(sock)
            return
        try:
            self.pairs[sock].sendall(data)
        except OSError:
            self._drop(sock)
