"""Helpers for the accounts' tests: an in-process app on SQLite or PostgreSQL with a cheap password
hash, guests made accounts, two people playing a two-player match through the websocket (one of them
folding whenever he may: the farming case), and reading the store behind the app."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

from argon2 import PasswordHasher
from starlette.testclient import TestClient

from cardhall.server.app import create_app
from cardhall.server.rates import Limits
from cardhall.store import Store
from tests.helpers import steps
from tests.server_helpers import FAST, Session, auth, session

# argon2id at its smallest cost: the tests hash many passwords (the server's default is 3 x 64 MiB).
CHEAP = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
ORIGIN = {"Origin": "http://testserver"}  # the test client's own site
PASSWORD = "correct horse battery"
BACKENDS = ["sqlite", "postgresql"]


@contextmanager
def app(url: str, limits: Limits | None = None) -> Iterator[TestClient]:
    """The app on ``url`` with generous rates (unless ``limits``) and the cheap hash."""
    limits = limits if limits is not None else Limits().without_rates()
    with TestClient(create_app(url, limits=limits, password_hasher=CHEAP)) as client:
        yield client


def store_of(client: TestClient) -> Store:
    store: Store = client.app.state.ctx.store  # type: ignore[attr-defined]
    return store


def read(client: TestClient, call: Callable[[Store], Awaitable[Any]]) -> Any:
    """``await call(store)`` on the app's own store, on the app's event loop."""
    portal = client.portal
    assert portal is not None, "the app is not running"
    return portal.call(call, store_of(client))


def guest(client: TestClient, name: str = "Ann") -> tuple[int, str]:
    response = client.post("/api/players", json={"name": name})
    assert response.status_code == 201, response.text
    return response.json()["id"], response.json()["token"]


def sign_up(client: TestClient, token: str, name: str, password: str = PASSWORD) -> str:
    """Make the guest of ``token`` the account ``name``; the new session's token."""
    response = client.post("/api/account", json={"name": name, "password": password}, headers=auth(token))
    assert response.status_code == 201, response.text
    assert response.json()["guest"] is False
    new: str = response.json()["token"]
    return new


def account(client: TestClient, name: str, password: str = PASSWORD) -> tuple[int, str]:
    player, token = guest(client, name)
    return player, sign_up(client, token, name, password)


def sign_in(client: TestClient, name: str, password: str = PASSWORD, **extra: Any) -> Any:
    return client.post("/api/signin", json={"name": name, "password": password, **extra})


def fold_or_first(legal: list[dict[str, Any]]) -> Any:
    """The sock's play: fold whenever he may, else look, else the first move."""
    for kind in ("fold", "look"):
        for entry in legal:
            if entry["kind"] == kind:
                return entry["action"]
    return legal[0]["action"]


def cheapest_stay(legal: list[dict[str, Any]]) -> Any:
    """The farmer's play: stay in as cheaply as he can (never fold)."""
    for kind in ("check", "call", "blind", "bet", "raise", "look"):
        for entry in legal:
            if entry["kind"] == kind:
                return entry["action"]
    return legal[0]["action"]


def play_two(
    client: TestClient,
    tokens: tuple[str, str],
    game: str,
    policies: tuple[Callable[[list[dict[str, Any]]], Any], Callable[[list[dict[str, Any]]], Any]],
) -> str:
    """A two-person table of ``game`` (the first player creates it), played to its end through the
    websocket, each seat by its policy; the table's id."""
    made = client.post("/api/tables", json={"game": game, "settings": FAST}, headers=auth(tokens[0]))
    assert made.status_code == 201, made.text
    table: str = made.json()["table"]
    with session(client, tokens[0]) as first, session(client, tokens[1]) as second:
        seats: list[Session] = [first, second]
        first.send(type="join", table=table, seat=0)
        first.until("table")
        second.send(type="join", table=table, seat=1)
        frames = [first.until("table", status="playing"), second.until("table", status="playing")]
        acted = [-1, -1]
        for _ in steps(f"a match at table {table}"):
            if any(f["status"] == "finished" for f in frames):
                break
            to_act = frames[0]["to_act"] or frames[1]["to_act"]
            seat = to_act[0]
            frame = frames[seat]
            while not (frame["legal"] and frame["n"] > acted[seat]) and frame["status"] != "finished":
                frame = seats[seat].receive()
                if frame["type"] not in ("table", "update"):
                    frame = frames[seat]
                    continue
                frames[seat] = frame
            if frame["status"] == "finished":
                break
            seats[seat].send(type="act", table=table, action=policies[seat](frame["legal"]), n=frame["n"])
            acted[seat] = frame["n"]
            while True:  # the seat's own frame showing its move
                after = seats[seat].receive()
                if after["type"] in ("table", "update") and after["n"] > frame["n"]:
                    frames[seat] = after
                    break
            other = 1 - seat
            while frames[other]["n"] < frames[seat]["n"]:
                got = seats[other].receive()
                if got["type"] in ("table", "update"):
                    frames[other] = got
    return table
