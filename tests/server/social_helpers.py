"""Helpers for the tests of playing with people one knows (``tests/server/test_social*.py``): the app
on SQLite or on the session's PostgreSQL (the ``social`` fixture of each test file, its store from
:func:`tests.server_helpers.store_url`), people with their ids, friends, private tables, and the store
read directly (through the test client's portal) to check that a refusal changed nothing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from starlette.testclient import TestClient

from cardhall.server.app import create_app
from cardhall.server.rates import Limits
from cardhall.store import Store
from tests.server_helpers import FAST, auth

T = TypeVar("T")
BACKENDS = ["sqlite", "postgresql"]
ADMIN = "the-operators-token-0123456789"


@dataclass
class Person:
    token: str
    id: int
    name: str

    @property
    def headers(self) -> dict[str, str]:
        return auth(self.token)


class Hall:
    """A running app and what the tests do with it."""

    def __init__(self, client: TestClient) -> None:
        self.client = client

    @property
    def store(self) -> Store:
        store: Store = self.client.app.state.ctx.store  # type: ignore[attr-defined]
        return store

    def read(self, call: Callable[..., Awaitable[T]], *args: Any) -> T:
        """Await a store method in the app's loop."""
        portal = self.client.portal
        assert portal is not None
        return portal.call(call, *args)

    def person(self, name: str) -> Person:
        made = self.client.post("/api/players", json={"name": name})
        assert made.status_code == 201, made.text
        data = made.json()
        return Person(data["token"], data["id"], name)

    def post(self, path: str, who: Person | None, body: Any = None) -> Any:
        headers = who.headers if who is not None else {}
        return self.client.post(path, json={} if body is None else body, headers=headers)

    def befriend(self, a: Person, b: Person) -> None:
        asked = self.post(f"/api/friends/{b.id}/request", a)
        assert asked.status_code == 201, asked.text
        accepted = self.post(f"/api/friends/{a.id}/accept", b)
        assert accepted.status_code == 200, accepted.text

    def private_table(self, owner: Person, game: str = "hokm", **body: Any) -> tuple[str, str]:
        made = self.post("/api/private-tables", owner, {"game": game, "settings": FAST, **body})
        assert made.status_code == 201, made.text
        data = made.json()
        assert data["link"] == f"/#invite/{data['table']}/{data['invitation']}"
        return data["table"], data["invitation"]

    def moderator(self, who: Person) -> None:
        made = self.client.post("/api/admin/moderators", json={"player": who.id}, headers=auth(ADMIN))
        assert made.status_code == 200, made.text


@contextmanager
def hall(url: str, limits: Limits | None = None) -> Iterator[Hall]:
    # No rates unless the test gives its own (as tests.server_helpers.server): a test never paces itself.
    limits = Limits().unpaced() if limits is None else limits
    with TestClient(create_app(url, limits=limits, admin_token=ADMIN)) as client:
        yield Hall(client)
