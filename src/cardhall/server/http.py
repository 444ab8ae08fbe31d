"""What every route of the HTTP API shares (:mod:`cardhall.server.app` and the route modules beside it:
:mod:`cardhall.server.social`): the error codes' HTTP statuses, the JSON responses and bodies, the
server's context, who is asking (a player by his token or session cookie, or the operator by the admin
token), and the query parameters. A route module imports this, never :mod:`cardhall.server.app`, which
puts the routes together."""

from __future__ import annotations

import hmac
import logging
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket

from cardhall.server import accounts, guard
from cardhall.server.context import ServerContext
from cardhall.server.protocol import ProtocolError, decode_as, encode
from cardhall.server.rates import RateLimited
from cardhall.server.sessions import identify
from cardhall.store import PlayerRow, StoreUnavailableError

log = logging.getLogger("cardhall.server.app")

STATUS = {
    **guard.STATUS,
    **accounts.STATUS,
    "bad_token": 401,
    "not_authenticated": 401,
    "not_admin": 403,
    "not_a_player": 403,
    "no_such_table": 404,
    "no_such_game": 404,
    "not_over": 409,
    "table_over": 409,
    "too_many_tables": 409,
    "rate_limited": 429,
    "store_unavailable": 503,
    "table_moved": 503,
    "reviews_busy": 503,
    "passwords_busy": 503,
    # playing with people one knows (cardhall.server.social)
    "no_such_player": 404,
    "no_such_request": 404,
    "no_such_line": 404,
    "not_friends": 403,
    "not_your_table": 403,
    "not_moderator": 403,
    "banned": 403,
    "already_friends": 409,
    "already_asked": 409,
    "blocking": 409,
    "not_online": 409,
    # tournaments (cardhall.server.events)
    "no_such_event": 404,
    "event_closed": 409,
}
RETRY_AFTER_SECONDS = 5  # what a 503 (the store failed) tells a client to wait


class NewTable(msgspec.Struct, forbid_unknown_fields=True):
    game: str
    settings: dict[str, Any] = {}
    bots: dict[str, str] = {}  # seat (as text, JSON keys are) -> level


def json_response(data: Any, status: int = 200) -> Response:
    return Response(encode(data), status_code=status, media_type="application/json")


def error_response(e: ProtocolError) -> Response:
    response = json_response({"error": e.code, "message": e.message}, STATUS.get(e.code, 400))
    if isinstance(e, RateLimited):
        response.headers["Retry-After"] = e.retry_after_header
    if e.code in ("store_unavailable", "reviews_busy", "passwords_busy"):
        response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


async def body(request: Request, kind: type[Any]) -> Any:
    return decode_as(await request.body(), kind, "request body")


def context(request: Request | WebSocket) -> ServerContext:
    ctx: ServerContext = request.app.state.ctx
    return ctx


def address(request: Request) -> str | None:
    """The client's address, for the rates per address."""
    return request.client.host if request.client is not None else None


async def bearer(request: Request) -> PlayerRow:
    """The player asking: his token, or the browser's session cookie
    (:func:`cardhall.server.sessions.identify`); a banned account is refused."""
    player = (await identify(request, context(request).store)).player
    context(request).social.refuse_if_banned(player)  # (a banned account's token is refused)
    return player


def api(handler: Any) -> Any:
    """A route whose ProtocolError becomes an error response."""

    async def route(request: Request) -> Response:
        try:
            result: Response = await handler(request)
        except ProtocolError as e:
            return error_response(e)
        except StoreUnavailableError as e:
            log.warning("%s %s: %s", request.method, request.url.path, e)
            return error_response(
                ProtocolError("store_unavailable", "the server's storage failed: try again")
            )
        return result

    return route


def query_int(request: Request, name: str, default: int, low: int, high: int) -> int:
    """An integer query parameter within ``low .. high``; ``bad_request`` naming it otherwise."""
    text = request.query_params.get(name)
    if text is None:
        return default
    try:
        value = int(text)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise ProtocolError("bad_request", f"{name} must be an integer in {low}..{high}, got {text!r}")
    return value


def operator(request: Request) -> None:
    """Refuse a request without the admin token as its bearer (``not_authenticated`` without a bearer
    at all, ``not_admin`` with another token or on a server without an admin token, ``rate_limited``
    from an address whose wrong tokens are beyond their rate)."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ProtocolError("not_authenticated", "send Authorization: Bearer <the admin token>")
    ctx = context(request)
    ctx.limiter.may_try_admin(address(request))  # (guessing is slowed per address: 429 beyond)
    expected = ctx.admin_token
    if expected is None:
        raise ProtocolError("not_admin", "this server has no admin token (cardhall serve --admin-token-file)")
    # Compared in constant time: the time of a refusal tells nothing of the token.
    if not hmac.compare_digest(token.strip().encode(), expected.encode()):
        ctx.limiter.admin_failed(address(request))
        raise ProtocolError("not_admin", "this is not the server's admin token")
