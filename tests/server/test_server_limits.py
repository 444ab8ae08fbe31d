"""The limits of a real server (``cardhall serve`` on uvicorn, in its own process) on what one client can
hold: connections that send nothing or send slowly, bodies too big to read, a websocket client that
reads nothing, connections per address and in all, and the process's open files. Each server is
started with short limits, so every wait here is for a state of the server, under a ceiling that only
a broken server reaches.

Clients speak raw HTTP over sockets bound to loopback addresses of their own (127.0.0.2, 127.0.0.3,
...: every 127/8 address is this machine's), so that per-address limits can be told from the total.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
import socket
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from uvicorn.protocols.utils import ClientDisconnected
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from cardhall.server import transport
from tests.server.protocol_helpers import Loopback, protocol
from tests.server_helpers import free_port, http, running_server, server_log

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="loopback addresses and /proc are Linux's")

CEILING = 30.0  # seconds: what a working server never comes near
GET = b"GET /api/games HTTP/1.1\r\nHost: localhost\r\n\r\n"


class Server:
    def __init__(self, port: int, db: Path, pid: int) -> None:
        self.port, self.db, self.pid = port, db, pid

    def log(self) -> str:
        return server_log(self.db).read_text(errors="replace")

    def open(self, address: str = "127.0.0.1") -> socket.socket:
        """A TCP connection from ``address`` (its reads time out at the ceiling)."""
        sock = socket.create_connection(
            ("127.0.0.1", self.port), timeout=CEILING, source_address=(address, 0)
        )
        return sock


@contextmanager
def serving(tmp_path: Path, *options: str, preexec_fn: Callable[[], None] | None = None) -> Iterator[Server]:
    port = free_port()
    db = tmp_path / "limits.db"
    with running_server(db, port, *options, preexec_fn=preexec_fn) as process:
        yield Server(port, db, process.pid)


def closed(sock: socket.socket) -> bool:
    """Read until the server closes the connection (True) or the ceiling passes (False); what arrives
    meanwhile is thrown away."""
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        pass
    return True


def answer(sock: socket.socket) -> tuple[int, bytes]:
    """The status and body of the next response on ``sock``; status 0 when the connection closed (or
    was reset) before a whole response came."""
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                return 0, data
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        length = next(
            (
                int(line.split(b":")[1])
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-length")
            ),
            0,
        )
        while len(rest) < length:
            chunk = sock.recv(65536)
            if not chunk:
                return 0, data
            rest += chunk
    except ConnectionResetError:
        return 0, data
    return int(head.split()[1]), rest


def trickle(sock: socket.socket, data: bytes, pause: float = 0.1) -> bool:
    """Send ``data`` a byte at a time; True when the server closed the connection before the end (or
    before the ceiling)."""
    deadline = time.monotonic() + CEILING
    sock.settimeout(pause)
    try:
        for byte in data:
            sock.sendall(bytes([byte]))
            with contextlib.suppress(TimeoutError):
                if not sock.recv(65536):
                    return True
            if time.monotonic() > deadline:
                return False
    except (BrokenPipeError, ConnectionResetError):
        return True
    return False


def held(server: Server, address: str) -> socket.socket:
    """A connection from ``address`` the server answered, held open: it has begun its next request
    (so neither uvicorn's keep-alive nor an answer ends it), which the request deadline leaves to the
    ceiling in the tests that use this."""
    sock = server.open(address)
    sock.sendall(GET)
    status, _ = answer(sock)
    assert status == 200, status
    sock.sendall(b"G")
    return sock


def refused(server: Server, address: str) -> bool:
    """Whether a new connection from ``address`` is refused rather than answered: its request gets the
    server's short 503, or the connection closes (or is reset, when the close comes while the request
    is still unread) before any answer. A connection that hangs fails at the ceiling."""
    with server.open(address) as sock:
        sock.sendall(GET)
        status, _ = answer(sock)
        assert status in (0, 200, 503), status
        return status != 200


# --- slow senders ---------------------------------------------------------------------------------


@pytest.mark.process
@pytest.mark.slow  # a real `cardhall serve` in its own process
def test_connections_that_send_nothing_or_send_slowly_are_closed(tmp_path: Path) -> None:
    with serving(tmp_path, "--request-timeout", "1") as server:
        with server.open("127.0.0.2") as idle:
            assert closed(idle)  # connected, never sent a byte
        with server.open("127.0.0.3") as slow:  # headers a byte at a time: slowloris
            assert trickle(slow, b"GET /api/games HTTP/1.1\r\n" + b"X-Pad: a\r\n" * 1000)
        with server.open("127.0.0.4") as slow:  # the body a byte at a time
            head = (
                b"POST /api/players HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                b"Content-Length: 2000\r\n\r\n"
            )
            slow.sendall(head)
            assert trickle(slow, b'{"name": "' + b"x" * 1980 + b'"}')
        with server.open("127.0.0.5") as again:  # after an answer, the next request has the same time
            again.sendall(GET)
            assert answer(again)[0] == 200
            assert trickle(again, b"GET /api/games HTTP/1.1\r\n" + b"X-Pad: a\r\n" * 1000)
        with server.open("127.0.0.6") as quick:  # a request sent whole is answered, of course
            quick.sendall(GET)
            assert answer(quick)[0] == 200
        assert "Traceback" not in server.log()


# --- bodies too big ---------------------------------------------------------------------------


@pytest.mark.process
@pytest.mark.slow  # a real `cardhall serve` in its own process
def test_a_body_too_big_is_refused_before_it_is_sent_or_as_it_arrives(tmp_path: Path) -> None:
    with serving(tmp_path, "--max-body", "4096") as server:
        token = http(server.port, "POST", "/api/players", {"name": "Ann"})["token"]
        with server.open() as sock:  # 200 MB announced, nothing sent: refused without waiting for it
            sock.sendall(
                b"POST /api/tables HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                b"Authorization: Bearer " + token.encode() + b"\r\nContent-Length: 200000000\r\n\r\n"
            )
            status, body = answer(sock)
            assert status == 413 and json.loads(body)["error"] == "too_large", body
            assert b"4,096 bytes" in body
            assert closed(sock)
        with server.open() as sock:  # chunked: counted as it arrives, refused before its end
            sock.sendall(
                b"POST /api/players HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n"
            )
            for _ in range(5):  # 5 KB and no end: the answer must come without it
                sock.sendall(b"400\r\n" + b" " * 1024 + b"\r\n")
            status, body = answer(sock)
            assert status == 413 and json.loads(body)["error"] == "too_large", (status, body)
        # A body within the limit is read.
        assert http(server.port, "POST", "/api/players", {"name": "B" * 40})["name"] == "B" * 40


@pytest.mark.process
@pytest.mark.slow  # a real `cardhall serve` in its own process
def test_a_websocket_message_over_the_limit_closes_the_connection(tmp_path: Path) -> None:
    with serving(tmp_path) as server, connect(f"ws://127.0.0.1:{server.port}/ws") as ws:
        ws.send(json.dumps({"type": "ping", "id": 1}))
        assert json.loads(ws.recv(timeout=CEILING))["type"] == "pong"
        ws.send("x" * 65537)
        with pytest.raises(ConnectionClosed) as gone:
            ws.recv(timeout=CEILING)
        assert gone.value.rcvd is not None and gone.value.rcvd.code == 1009  # message too big


# --- a websocket client that reads nothing -----------------------------------------------------------


@contextmanager
def slow_reader(server: Server, token: str, tables: list[str], address: str) -> Iterator[ClientConnection]:
    """A websocket client joined to ``tables`` that stops reading after its first frame: a tiny
    receive buffer, at most one frame taken off it, no keepalive pings of its own."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.bind((address, 0))
    sock.connect(("127.0.0.1", server.port))
    # No compression offered: its frames at their full size fill the buffers the rules are about
    # (compressed, a tenth of the bytes, they fill them ten times later, after the keepalive's close).
    with connect(
        f"ws://127.0.0.1:{server.port}/ws", sock=sock, max_queue=1, ping_interval=None, compression=None
    ) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        for table in tables:
            ws.send(json.dumps({"type": "join", "table": table}))
        yield ws


def busy_tables(server: Server, token: str, count: int) -> list[str]:
    """Tables that make frames as fast as the server can: the person's stand-in (after 1 s) and the
    bots play at once, to the end."""
    settings = {"bot_pace_ms": 0, "turn_seconds": 1}
    return [
        http(
            server.port,
            "POST",
            "/api/quickplay",
            {"game": "hearts", "level": "easy", "settings": settings},
            token,
        )["table"]
        for _ in range(count)
    ]


def connected(server: Server, table: str) -> bool:
    summary = http(server.port, "GET", f"/api/tables/{table}")
    return bool(summary["seats"][0]["connected"])


def wait_until(done: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 120
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


@pytest.mark.process
@pytest.mark.slow  # a real `cardhall serve` in its own process
def test_a_client_that_reads_nothing_is_closed_by_the_outbox_rule(tmp_path: Path) -> None:
    # The write timeout is long: what closes this client must be its 1,000 unsent frames.
    with serving(tmp_path, "--write-timeout", "600") as server:
        token = http(server.port, "POST", "/api/players", {"name": "Ann"})["token"]
        tables = busy_tables(server, token, 3)
        with slow_reader(server, token, tables, "127.0.0.2") as ws:
            wait_until(lambda: all(connected(server, t) for t in tables), "the joins were not taken")
            wait_until(lambda: not connected(server, tables[0]), "the slow client was never closed")
            frames = 0
            with pytest.raises(ConnectionClosed) as gone:
                while True:  # what the server sent before the close, then the close
                    ws.recv(timeout=CEILING)
                    frames += 1
            assert gone.value.rcvd is not None and gone.value.rcvd.code == 1013, gone.value
            assert frames > 0
        log = server.log()
        assert "RuntimeError" not in log and "Traceback" not in log, log


@pytest.mark.process
@pytest.mark.slow  # a real `cardhall serve` in its own process
def test_a_client_that_never_reads_even_its_close_is_dropped(tmp_path: Path) -> None:
    options = ("--write-timeout", "5", "--max-connections-per-address", "2", "--request-timeout", "600")
    with serving(tmp_path, *options) as server:
        token = http(server.port, "POST", "/api/players", {"name": "Ann"})["token"]
        tables = busy_tables(server, token, 3)
        with held(server, "127.0.0.3"), slow_reader(server, token, tables, "127.0.0.3"):
            # Its address holds its 2 connections: another comes in only once the slow one is gone,
            # its connection closed for good (the close it never reads cannot be waited for).
            assert refused(server, "127.0.0.3")
            wait_until(lambda: not refused(server, "127.0.0.3"), "the client that reads nothing stayed")
        log = server.log()
        assert "RuntimeError" not in log and "Traceback" not in log, log


def test_a_transport_whose_writes_stay_paused_is_aborted() -> None:
    async def scenario() -> tuple[bool, int]:
        http_protocol = protocol("http", write_timeout=0.01, request_timeout=600)
        full = Loopback()
        http_protocol.connection_made(full)
        held = len(http_protocol.admission.held)
        http_protocol.pause_writing()  # the buffer over its high mark, and it stays there
        await asyncio.wait_for(full.aborted.wait(), CEILING)
        http_protocol.connection_lost(None)
        return full.aborted.is_set(), held - len(http_protocol.admission.held)

    assert asyncio.run(scenario()) == (True, 1)


def test_a_frame_sent_after_the_server_closed_the_websocket_is_a_disconnect() -> None:
    # uvicorn closes a websocket itself when its keepalive ping gets no answer; a frame the table
    # sends after that raised RuntimeError, logged as an error in the application.
    async def scenario() -> None:
        ws = protocol("ws")
        ws.connection_made(Loopback())
        ws.handshake_complete = True
        ws.keepalive_timeout()
        await ws.send({"type": "websocket.send", "text": "{}"})

    with pytest.raises(ClientDisconnected):
        asyncio.run(scenario())


# --- connections per address and in all ----------------------------------------------------------


@pytest.mark.process
@pytest.mark.slow  # a real `cardhall serve` in its own process
def test_connections_are_limited_per_address_and_the_extra_refused_at_once(tmp_path: Path) -> None:
    with serving(tmp_path, "--max-connections-per-address", "2", "--request-timeout", "600") as server:
        first, second = held(server, "127.0.0.2"), held(server, "127.0.0.2")
        assert refused(server, "127.0.0.2")
        with held(server, "127.0.0.3"), held(server, "127.0.0.3"):  # another address has its own
            assert refused(server, "127.0.0.3")
        first.close()
        wait_until(lambda: not refused(server, "127.0.0.2"), "a closed connection still counted")
        second.close()
        # An upgraded connection (a websocket) counts too, until it closes.
        with held(server, "127.0.0.4"):
            with connect(f"ws://127.0.0.1:{server.port}/ws", sock=server.open("127.0.0.4")):
                assert refused(server, "127.0.0.4")
            wait_until(lambda: not refused(server, "127.0.0.4"), "a closed websocket still counted")


def test_a_client_counts_by_its_ipv4_address_or_its_ipv6_64() -> None:
    assert transport.address_of(("127.0.0.2", 5000)) == "127.0.0.2"
    assert transport.address_of(("2001:db8:1:2:aaaa::1", 5000, 0, 0)) == "2001:db8:1:2::/64"
    assert transport.address_of(("2001:db8:1:2:bbbb::9", 5000, 0, 0)) == "2001:db8:1:2::/64"
    assert transport.address_of(("2001:db8:1:3::1", 5000, 0, 0)) == "2001:db8:1:3::/64"
    assert transport.address_of(("::ffff:192.0.2.7", 5000, 0, 0)) == "192.0.2.7"
    assert transport.address_of(None) == ""


def files(pid: int) -> tuple[int, int]:
    """The soft and hard limits on open files of process ``pid``."""
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            soft, hard = line.split()[3:5]
            return int(soft), int(hard)
    raise AssertionError("no open-file limit in /proc")


def limit_files(soft: int, hard: int) -> Callable[[], None]:
    def run() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

    return run


@pytest.mark.process
@pytest.mark.slow  # a real `cardhall serve` in its own process
def test_the_soft_limit_on_open_files_is_raised_to_the_hard_one(tmp_path: Path) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    soft = min(256, hard)
    with serving(tmp_path, preexec_fn=limit_files(soft, hard)) as server:
        assert files(server.pid) == (hard, hard)


@pytest.mark.process
@pytest.mark.slow  # a real `cardhall serve` in its own process
def test_a_server_at_its_file_limit_refuses_the_extra_at_once_and_serves_the_others(tmp_path: Path) -> None:
    # 128 files: connections stop at 64 (the other half kept for everything else), far from running out.
    options = ("--max-connections-per-address", "0", "--request-timeout", "600")
    with serving(tmp_path, *options, preexec_fn=limit_files(128, 128)) as server:
        holding: list[socket.socket] = []
        try:
            while len(holding) < 200:
                sock = server.open()
                sock.sendall(GET)
                status, _ = answer(sock)
                if status != 200:
                    sock.close()
                    break
                sock.sendall(b"G")  # the next request begun: held
                holding.append(sock)
            assert len(holding) == 64, len(holding)
            assert refused(server, "127.0.0.2")  # new people get their refusal at once, no hang
            # Those in are served in full, files and store included.
            holding[0].sendall(b"ET /static/util.js HTTP/1.1\r\nHost: localhost\r\n\r\n")
            assert answer(holding[0])[0] == 200
            holding[1].sendall(b"ET /api/finished HTTP/1.1\r\nHost: localhost\r\n\r\n")
            assert answer(holding[1])[0] == 200
            # A place freed is a place for the next.
            holding.pop().close()
            wait_until(lambda: not refused(server, "127.0.0.3"), "a freed place did not come back")
            with connect(f"ws://127.0.0.1:{server.port}/ws", open_timeout=CEILING) as ws:
                ws.send(json.dumps({"type": "ping", "id": 1}))
                assert json.loads(ws.recv(timeout=CEILING))["type"] == "pong"
        finally:
            for sock in holding:
                sock.close()
        log = server.log()
        assert "Too many open files" not in log and "Traceback" not in log, log
