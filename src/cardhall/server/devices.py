"""A browser that signed in to an account before: the proof it keeps (a device cookie, OWASP's answer to
an attacker locking an owner out by failing sign-ins for his name), so that the failures many
addresses make against one name never keep the owner out of the devices he uses
(:mod:`cardhall.server.rates`).

Choices:

- **What the proof is**: ``<player id>.<nonce>.<MAC>``, the MAC an HMAC-SHA-256 of the id and the nonce
  keyed by the account's password hash (argon2id's, salted, never leaving the server). Nothing is stored
  for it, any process of a hall checks it with the row the sign-in reads anyway, and a new password
  voids every proof made before it, as it ends every other session.
- **Where it lives**: the browser's ``cardhall_device`` cookie (``HttpOnly``, ``SameSite=Strict``, sent to
  ``/api/`` only, ``Secure`` over HTTPS, a year), set by every sign-in and account made with
  ``"cookie": true``; an API client gets it as ``device`` in the answer and sends it back in its next
  sign-in's body. One account a browser: the last one signed in.
- **What it buys**: a sign-in carrying a proof for the account its name leads to skips the name's bucket
  of failures (the one many addresses share); the address's buckets still apply, so a guesser holding a
  stolen cookie gains nothing but the name's.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Final

from starlette.requests import Request
from starlette.responses import Response

COOKIE: Final = "cardhall_device"
DAYS: Final = 365


def _mac(player_id: int, nonce: str, password_hash: str) -> str:
    message = f"{player_id}.{nonce}".encode()
    return hmac.new(password_hash.encode(), message, hashlib.sha256).hexdigest()[:32]


def proof(player_id: int, password_hash: str) -> str:
    """A new proof that this browser signed in to ``player_id``."""
    nonce = secrets.token_urlsafe(12)
    return f"{player_id}.{nonce}.{_mac(player_id, nonce, password_hash)}"


def signed_in_before(token: str | None, player_id: int, password_hash: str) -> bool:
    """Whether ``token`` proves an earlier sign-in to ``player_id`` (with its password now)."""
    if not token or len(token) > 200:
        return False
    parts = token.split(".")
    if len(parts) != 3 or parts[0] != str(player_id):
        return False
    return hmac.compare_digest(parts[2], _mac(player_id, parts[1], password_hash))


def presented(request: Request, body_device: str) -> str | None:
    """The proof a sign-in came with: its body's (API clients), else the cookie's."""
    return body_device or request.cookies.get(COOKIE)


def set_cookie(response: Response, request: Request, token: str) -> None:
    response.set_cookie(
        COOKIE,
        token,
        max_age=DAYS * 86400,
        path="/api/",
        secure=request.url.scheme == "https",
        httponly=True,
        samesite="strict",
    )
