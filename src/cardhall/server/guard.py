"""The HTTP requests refused before any route runs (an ASGI middleware): requests from another site's
pages, bodies not declared JSON, and bodies over :data:`MAX_BODY`.

Choices:

- **Another site** (``cross_site``, 403): a request that changes something (any method but ``GET``,
  ``HEAD`` and ``OPTIONS``) whose ``Origin`` header is present and names another origin than the host
  the request was sent to (its ``Host`` header; a default port may be written or left out, so a page
  served through a proxy that terminates TLS still matches). ``Origin: null`` (a sandboxed or local
  page) is another site. Browsers send ``Origin`` with every cross-origin ``POST``; clients that are
  not browsers send none and are not concerned. The websocket is left out: it carries no ambient
  credential (its first message authenticates), so a page elsewhere gains nothing by opening it.
- **JSON only** (``bad_content_type``, 415): those requests must say ``Content-Type:
  application/json`` (parameters such as ``charset`` allowed). Besides being what every body of the
  API is, it keeps out what a page elsewhere can send without the browser asking the server first: a
  form or a ``text/plain`` ``fetch``.
- **Size** (``too_large``, 413): a ``Content-Length`` over :data:`MAX_BODY` is refused here at once,
  before the route reads anything (or looks up a token); a body without one (chunked) is counted as it
  arrives by Starlette's own ``RequestBodyLimitMiddleware`` (``Route(max_body_size=...)`` on every
  route that reads a body; at the application's level it would replace this module's answers with
  its own whenever a Content-Length is over the limit), whose refusal :func:`too_large` words.
  (uvicorn holds at most 64 KB of a body the application has not asked for yet, so a body is never
  buffered whole either way.)
- Every refusal here closes the connection, so the rest of an unread body is not read only to be
  thrown away.
- A client gone before its body was read (it closed, or the transport's request deadline closed it:
  :mod:`cardhall.server.transport`) has nobody to answer: Starlette's ``ClientDisconnect`` ends the
  request quietly here rather than as an error in the log.

The order of the checks is the list's: who asks, then what, then how much.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Final
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.requests import ClientDisconnect
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from cardhall.server.protocol import ProtocolError, encode

log = logging.getLogger(__name__)

# The largest request body read, in bytes: every body of the API is a small JSON object.
MAX_BODY: Final = 65536
# The HTTP status of each error code this module sends (the application's own table adds them).
STATUS: Final = {"cross_site": 403, "bad_content_type": 415, "too_large": 413}
SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_PORTS: Final = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def refusal(code: str, message: str) -> Response:
    """The error response of ``code`` (as the routes' own: ``{"error", "message"}``), closing the
    connection: what is left of the body is not worth reading."""
    error = ProtocolError(code, message)
    return Response(
        encode({"error": error.code, "message": error.message}),
        status_code=STATUS[code],
        media_type="application/json",
        headers={"Connection": "close"},
    )


def same_origin(origin: str, host: str) -> bool:
    """Whether the ``Origin`` header ``origin`` names the server reached as ``host`` (the ``Host``
    header), its default port written or not."""
    try:
        parts = urlsplit(origin)
        origin_port = parts.port
        asked = urlsplit(f"//{host}")
        host_port = asked.port
    except ValueError:  # a port that is no number
        return False
    default = DEFAULT_PORTS.get(parts.scheme.lower())
    if default is None or not parts.hostname or not asked.hostname:
        return False
    return parts.hostname == asked.hostname and (origin_port or default) == (host_port or default)


def too_large(limit: int) -> Response:
    return refusal("too_large", f"a request body holds at most {limit:,} bytes")


class Guard:
    """The checks of this module's docstring, in front of the application."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refused = self.check(scope)
            if refused is not None:
                await refused(scope, receive, send)
                return
        with contextlib.suppress(ClientDisconnect):
            await self.app(scope, receive, send)

    def check(self, scope: Scope) -> Response | None:
        headers = Headers(scope=scope)
        if scope["method"] not in SAFE_METHODS:
            origin = headers.get("origin")
            if origin is not None and not same_origin(origin, headers.get("host", "")):
                client = scope.get("client") or ("?",)
                log.warning(
                    "refused a %s from another site's page (%s) from %s", scope["method"], origin, client[0]
                )
                return refusal(
                    "cross_site",
                    f"a request from the page of another site ({origin}) may not change anything here",
                )
            kind = headers.get("content-type", "")
            if kind.partition(";")[0].strip().lower() != "application/json":
                return refusal(
                    "bad_content_type",
                    f"send the body as Content-Type: application/json (got {kind or 'none'!r})",
                )
        length = headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > self.max_body:
            return too_large(self.max_body)
        return None
