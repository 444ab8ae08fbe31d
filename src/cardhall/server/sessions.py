"""Who is asking: the one place a request or a websocket becomes a player (:func:`identify`), and the
session cookie the browser holds.

Credentials, in the order they are read:

1. **A token** (``Authorization: Bearer <token>`` over HTTP, or ``hello``'s ``token`` on the
   websocket): a guest's token (``POST /api/players``) or a session's (``POST /api/signin`` and
   ``POST /api/account`` without ``cookie``). API clients use these, as before accounts.
2. **The session cookie** (:data:`COOKIE`), which the browser holds: ``HttpOnly`` (no script reads
   it), ``SameSite=Strict`` (no other site's page sends it), ``Path=/``, ``Secure`` when the request
   came over HTTPS, for :data:`SESSION_DAYS` days. Read only when no token is given.

Cross-site requests (the decision, in the README's Decisions too): the cookie is the one credential a
browser sends by itself, so a request it authenticates must come from this site's own page. Besides
``SameSite=Strict`` and the guard's checks on every ``POST`` (another site's ``Origin`` refused, JSON
only, which a form or a ``text/plain`` fetch cannot send and a cross-site JSON fetch cannot send
without a CORS preflight the server never grants: :mod:`cardhall.server.guard`), a request that
changes something and a websocket, when authenticated by the cookie, must carry an ``Origin`` naming
this server: one without ``Origin`` is refused too (``cross_site``), where the guard lets it through
for clients that are not browsers (those send tokens). A websocket's handshake carries no content type
and no preflight, so the ``Origin`` is its whole protection against cross-site websocket hijacking.
Double-submit tokens (``starlette-csrf``) would add a second cookie and a header to every call for
what these checks already refuse.

Every refusal here is logged (the address and why, never a credential).
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final, Protocol

from starlette.requests import HTTPConnection
from starlette.responses import Response

from cardhall.server.guard import SAFE_METHODS, same_origin
from cardhall.server.protocol import ProtocolError
from cardhall.store import PlayerRow, Store

log = logging.getLogger(__name__)

COOKIE: Final = "cardhall_session"
SESSION_DAYS: Final = 30


class Attached(Protocol):
    """A websocket connection as a sign-out sees it: whose it is, the session its ``hello`` used (None:
    a guest's token), and how to close it."""

    player: PlayerRow | None
    session: str | None

    def session_ended(self) -> None: ...


@dataclass(frozen=True)
class Identity:
    """A player and how he proved it: ``session`` is the session's token when it was one (the one to
    end at sign-out), None for a guest's token; ``cookie`` whether the cookie carried it."""

    player: PlayerRow
    session: str | None
    cookie: bool


def token_hash(token: str) -> str:
    """How the store keeps a token: its SHA-256, hex (never the token itself)."""
    return hashlib.sha256(token.encode()).hexdigest()


def _address(connection: HTTPConnection) -> str:
    return connection.client.host if connection.client is not None else "?"


def bearer_token(connection: HTTPConnection) -> str | None:
    """The token of an ``Authorization: Bearer`` header (None without one); ``not_authenticated``
    for a header of another scheme or an empty token."""
    header = connection.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ProtocolError("not_authenticated", "send Authorization: Bearer <token> (POST /api/players)")
    return token.strip()


def _from_this_site(connection: HTTPConnection) -> bool:
    origin = connection.headers.get("origin")
    return origin is not None and same_origin(origin, connection.headers.get("host", ""))


async def identify(
    connection: HTTPConnection, store: Store, token: str | None = None, ref: int | str | None = None
) -> Identity:
    """The player a request or a websocket speaks for: ``token`` (the websocket's ``hello``), else the
    bearer header, else the session cookie (see the module's docstring). The one function that turns
    credentials into a player: every route and the websocket come through here.

    :raises ProtocolError: ``not_authenticated`` (no credential), ``bad_token`` (a token or cookie
        no player or live session has), ``cross_site`` (the cookie on a request that changes
        something, or on a websocket, without this site's ``Origin``).
    """
    if token is None:
        token = bearer_token(connection)
    if token is not None:
        player = await store.player_by_token(token)
        session: str | None = None
        if player is None:
            player = await store.player_by_session(token, datetime.now(UTC))
            session = token
        if player is None:
            log.warning("refused a token no player or session has, from %s", _address(connection))
            raise ProtocolError("bad_token", "no player or session has this token", ref)
        return Identity(player, session, cookie=False)
    cookie = connection.cookies.get(COOKIE)
    if not cookie:
        raise ProtocolError(
            "not_authenticated", "send Authorization: Bearer <token>, or sign in (POST /api/signin)", ref
        )
    changing = connection.scope["type"] == "websocket" or connection.scope.get("method") not in SAFE_METHODS
    if changing and not _from_this_site(connection):
        origin = connection.headers.get("origin")
        log.warning("refused the session cookie from %s with Origin %r", _address(connection), origin)
        raise ProtocolError(
            "cross_site",
            f"the session cookie counts only from this site's own pages (Origin {origin!r})",
            ref,
        )
    player = await store.player_by_session(cookie, datetime.now(UTC))
    if player is None:
        log.warning("refused a session cookie no live session has, from %s", _address(connection))
        raise ProtocolError("bad_token", "this session has ended or expired: sign in again", ref)
    return Identity(player, cookie, cookie=True)


def expiry() -> datetime:
    """When a session made now ends."""
    return datetime.now(UTC) + timedelta(days=SESSION_DAYS)


def set_cookie(response: Response, connection: HTTPConnection, token: str) -> None:
    response.set_cookie(
        COOKIE,
        token,
        max_age=SESSION_DAYS * 24 * 3600,
        path="/",
        httponly=True,
        samesite="strict",
        secure=connection.url.scheme in ("https", "wss"),
    )


def clear_cookie(response: Response, connection: HTTPConnection) -> None:
    response.delete_cookie(
        COOKIE, path="/", httponly=True, samesite="strict", secure=connection.url.scheme in ("https", "wss")
    )
