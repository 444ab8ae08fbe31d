"""Requests the server refuses before any route or message handler acts, in-process: JSON nested too
deep, malformed JSON, whitespace round a token, cross-site POSTs, bodies not declared JSON and bodies
over the size limit; and the outbox rule of a connection whose frames cannot be sent. (The limits of
the transport itself, which only a real server has, are in ``test_server_limits.py``.)"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from cardhall.server import guard
from cardhall.server.connection import OUTBOX, WS_TRY_AGAIN_LATER, Connection
from cardhall.server.hall import OneProcess
from cardhall.server.protocol import MAX_DEPTH, PongFrame
from tests.server_helpers import auth, new_player, server, session

JSON = {"Content-Type": "application/json"}


def nested(depth: int, template: str = "@") -> str:
    """``template`` with ``@`` replaced by arrays nested ``depth`` deep."""
    return template.replace("@", "[" * depth + "]" * depth)


# 975 levels in a 2 KB body: what the attacker sent; msgspec recursed into it until RecursionError.
DEEP = 975
DEEP_BODIES = {
    "/api/players": ['{"name": @}', '{"name": "Ann", "x": @}', "@"],
    "/api/tables": ['{"game": "hokm", "settings": {"turn_seconds": @}}', '{"game": @}', "@"],
    "/api/quickplay": ['{"game": "hokm", "settings": {"a": @}}', '{"game": "hokm", "level": @}', "@"],
}


@pytest.mark.parametrize("route", sorted(DEEP_BODIES))
def test_a_deeply_nested_body_is_refused_on_every_route(route: str) -> None:
    with server() as client:
        token = new_player(client)
        for template in DEEP_BODIES[route]:
            body = nested(DEEP, template)
            response = client.post(route, content=body, headers={**JSON, **auth(token)})
            assert response.status_code == 400, (template, response.text)
            error = response.json()
            assert error["error"] == "bad_message" and f"{MAX_DEPTH} levels" in error["message"], error
        assert client.get("/api/tables").json() == {"open": [], "running": []}


def test_a_deeply_nested_websocket_message_gets_an_error_and_the_connection_goes_on() -> None:
    with server() as client:
        token = new_player(client)
        with session(client, token) as s:
            for text in (
                nested(2000, '{"x": @, "type": "ping"}'),  # skipped by msgspec while it looks for type
                nested(2000, '{"type": "join", "table": "x", "since": @}'),
                "[" * 4000,
                nested(MAX_DEPTH + 1, '{"type": "chat", "table": "x", "text": @}'),
            ):
                s.send_text(text)
                error = s.until("error")
                assert error["code"] == "bad_message" and f"{MAX_DEPTH} levels" in error["message"], error
            s.send(type="ping", id="after")
            assert s.until("pong")["ref"] == "after"
            # Nesting within the limit is read as before (and refused for its shape).
            s.send_text(nested(MAX_DEPTH, '{"type": "ping", "id": @}'))
            assert s.until("error")["code"] == "bad_message"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("[", "bad_json"),
        ('{"type": "ping"', "bad_json"),
        ("[1, 2", "bad_json"),
        ('"ping"x', "bad_json"),
        ("", "bad_json"),
        ("[1]", "bad_message"),
        ('"ping"', "bad_message"),
        ('{"type": "ping", "id": [1]}', "bad_message"),
        ('{"type": "dance"}', "unknown_type"),
    ],
)
def test_malformed_json_is_bad_json_and_json_of_the_wrong_shape_bad_message(text: str, code: str) -> None:
    with server() as client:
        token = new_player(client)
        with session(client, token) as s:
            s.send_text(text)
            assert s.until("error")["code"] == code
        if code != "unknown_type":
            response = client.post("/api/players", content=text, headers=JSON)
            assert response.status_code == 400 and response.json()["error"] == code, response.text


@pytest.mark.parametrize("padded", ["  {}", "{}\n", "\t{} ", "{}"])
def test_hello_and_the_bearer_header_strip_white_space_round_the_token(padded: str) -> None:
    with server() as client:
        token = new_player(client, "Ann")
        with session(client, None) as s:
            s.send(type="hello", token=padded.replace("{}", token))
            reply = s.receive()
            assert reply["type"] == "welcome" and reply["player"]["name"] == "Ann", reply
        header = {"Authorization": "Bearer " + padded.replace("{}", token)}
        assert client.get("/api/players/me", headers=header).json()["name"] == "Ann"
        with session(client, None) as s:  # a token with something else in it is still no token
            assert s.error(type="hello", token=token + "x")["code"] == "bad_token"


# --- cross-site requests and content types -------------------------------------------------------


def players(client: Any) -> int:
    """How many players the store holds (by making one more and reading its id)."""
    response = client.post("/api/players", json={"name": "Counter"})
    return int(response.json()["id"])


@pytest.mark.parametrize(
    "origin", ["http://evil.example", "null", "http://testserver.evil.example", "https://testserver:8443"]
)
def test_a_post_from_another_site_creates_nothing(origin: str) -> None:
    with server() as client:
        token = new_player(client)
        before = players(client)
        for route, body in (
            ("/api/players", {"name": "Mallory"}),
            ("/api/tables", {"game": "hokm"}),
            ("/api/quickplay", {"game": "hokm"}),
        ):
            response = client.post(route, json=body, headers={"Origin": origin, **auth(token)})
            assert response.status_code == 403, response.text
            error = response.json()
            assert error["error"] == "cross_site" and origin in error["message"], error
        # The form a page on another site can send without asking: text/plain.
        response = client.post(
            "/api/players",
            content=b'{"name": "Mallory"}',
            headers={"Origin": origin, "Content-Type": "text/plain"},
        )
        assert response.status_code == 403
        assert players(client) == before + 1  # only the counter's own
        assert client.get("/api/tables").json() == {"open": [], "running": []}


@pytest.mark.parametrize("origin", ["http://testserver", "HTTP://TestServer", "http://testserver:80"])
def test_a_post_from_the_servers_own_page_is_served(origin: str) -> None:
    with server() as client:
        response = client.post("/api/players", json={"name": "Ann"}, headers={"Origin": origin})
        assert response.status_code == 201, response.text


def test_the_origin_is_compared_with_the_host_the_request_names() -> None:
    assert guard.same_origin("https://cards.example", "cards.example")
    assert guard.same_origin("https://cards.example", "cards.example:443")
    assert guard.same_origin("http://localhost:8000", "localhost:8000")
    assert guard.same_origin("http://[::1]:8000", "[::1]:8000")
    assert not guard.same_origin("http://localhost:8001", "localhost:8000")
    assert not guard.same_origin("http://localhost", "localhost:8000")
    assert not guard.same_origin("null", "localhost:8000")
    assert not guard.same_origin("http://evil.example", "")


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded", "json"])
def test_a_post_body_must_be_declared_json(content_type: str | None) -> None:
    with server() as client:
        before = players(client)
        headers = {} if content_type is None else {"Content-Type": content_type}
        response = client.post("/api/players", content=b'{"name": "Ann"}', headers=headers)
        assert response.status_code == 415, response.text
        error = response.json()
        assert error["error"] == "bad_content_type" and "application/json" in error["message"], error
        assert players(client) == before + 1


def test_json_with_a_charset_is_json() -> None:
    with server() as client:
        response = client.post(
            "/api/players",
            content=b'{"name": "Ann"}',
            headers={"Content-Type": "Application/JSON; charset=utf-8"},
        )
        assert response.status_code == 201, response.text


# --- bodies over the limit ----------------------------------------------------------------------


def test_a_body_over_the_limit_is_refused() -> None:
    with server() as client:
        before = players(client)
        body = b'{"name": "' + b"x" * guard.MAX_BODY + b'"}'
        response = client.post("/api/players", content=body, headers=JSON)
        assert response.status_code == 413, response.text
        error = response.json()
        assert error["error"] == "too_large" and f"{guard.MAX_BODY:,}" in error["message"], error
        assert response.headers["connection"] == "close"

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
            yield b'{"name": "'
            for _ in range(guard.MAX_BODY // 4096 + 1):
                yield b"x" * 4096
            yield b'"}'

        response = client.post("/api/players", content=chunks(), headers=JSON)
        assert response.status_code == 413, response.text
        assert response.json()["error"] == "too_large"
        assert players(client) == before + 1
        # Just under the limit is read (and refused for what it says, not its size).
        body = b'{"name": "' + b"x" * (guard.MAX_BODY - 12) + b'"}'
        assert client.post("/api/players", content=body, headers=JSON).json()["error"] == "bad_message"


# --- a connection whose frames cannot be sent ------------------------------------------------------


class StuckSocket:
    """A websocket whose client reads nothing: every send waits for good, as a send into a full
    transport does; the close still gets through (see cardhall.server.transport)."""

    client = None  # (no address: the rates per address do not apply)

    def __init__(self) -> None:
        self.scope: dict[str, object] = {}  # (no direct write: every frame goes through send_text)
        self.accepted = asyncio.Event()
        self.closed = asyncio.Event()
        self.code: int | None = None
        self.sent = 0

    async def accept(self) -> None:
        self.accepted.set()

    async def send_text(self, text: str) -> None:
        await asyncio.Event().wait()
        self.sent += 1  # (never)

    async def close(self, code: int) -> None:
        self.code = code
        self.closed.set()

    async def receive(self) -> dict[str, Any]:
        await self.closed.wait()
        return {"type": "websocket.disconnect", "code": self.code}


def test_a_connection_whose_frames_pile_up_is_closed_though_its_send_is_stuck() -> None:
    async def scenario() -> StuckSocket:
        ws = StuckSocket()
        # No table, no store needed: a context with the place of one process alone.
        connection = Connection(ws, SimpleNamespace(hall=OneProcess(None)))  # type: ignore[arg-type]
        served = asyncio.create_task(connection.serve())
        await ws.accepted.wait()
        # The first frame is the one being sent, the next 999 wait behind it: 1,000 unsent.
        for k in range(OUTBOX + 1):
            connection.send(PongFrame(ref=k))
            await asyncio.sleep(0)
        await asyncio.wait_for(served, 30)
        return ws

    ws = asyncio.run(scenario())
    assert ws.code == WS_TRY_AGAIN_LATER and ws.sent == 0
