"""Accounts over HTTP: a guest makes himself an account (``POST /api/account``), anyone signs in on any
device (``POST /api/signin``) and out (``POST /api/signout``: this device, or everywhere), an account
changes its password (``POST /api/account/password``, which ends its other sessions), and every player
has a page (``GET /api/players/{id}``: ratings with their history, totals, recent matches), and the
boards list the established ratings of a game (``GET /api/leaderboard/{game}``).

Choices:

- **A guest keeps everything.** Making an account changes the player's row, not his id: his matches,
  results and ratings stay his. His guest token dies then (a password guards him from now on, and a
  token left in a browser's storage would be a second, weaker key); the answer is a new session.
- **Passwords** are hashed with argon2id (``argon2-cffi``'s defaults, RFC 9106's second recommended
  set: 3 passes over 64 MiB) off the event loop, :data:`MIN_PASSWORD` to :data:`MAX_PASSWORD`
  characters; never logged, never stored in clear, never sent back.
- **A session** is a token (only its SHA-256 stored) for :data:`cardhall.server.sessions.SESSION_DAYS`
  days. ``"cookie": true`` (the browser) puts it in the session cookie and not in the answer;
  otherwise (API clients) the answer carries it as ``token`` and no cookie is set.
- **Sign-in tells nothing of the name.** A name no account has gets the same ``bad_credentials`` as a
  wrong password, after hashing the password against a dummy hash of the same cost, so the time is
  alike too. Failed sign-ins are counted per name (its key) and per address
  (:mod:`cardhall.server.rates`): past the burst, one a minute per name; beyond, 429 with
  ``Retry-After``, before any hashing.
- Every refusal is logged with the address (never the password).
"""

from __future__ import annotations

import functools
import logging
from typing import Any, Final

import msgspec
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from starlette.requests import Request
from starlette.responses import Response

from cardhall.registry import game_classes
from cardhall.server import devices, names, ratings, sessions
from cardhall.server.hashing import Hashing
from cardhall.server.protocol import MAX_NAME, ProtocolError, decode_as, encode
from cardhall.server.sessions import Identity, identify
from cardhall.store import NameTakenError, PlayerRow, Store

log = logging.getLogger(__name__)

MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 256
MAX_SESSIONS: Final = 20  # sessions an account keeps: a new one ends the oldest beyond
RECENT_MATCHES: Final = 20  # matches a player's page lists
# The HTTP status of each error code of this module (the application's table adds them).
STATUS: Final = {
    "bad_name": 400,
    "bad_password": 400,
    "bad_credentials": 401,
    "no_such_player": 404,
    "name_taken": 409,
    "not_an_account": 409,
    "already_an_account": 409,
}


class SignUp(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    password: str
    cookie: bool = False


class SignIn(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    password: str
    cookie: bool = False
    device: str = ""  # an API client's proof of an earlier sign-in (the browser's is its cookie)


class SignOut(msgspec.Struct, forbid_unknown_fields=True):
    everywhere: bool = False


class NewPassword(msgspec.Struct, forbid_unknown_fields=True):
    current: str
    new: str


def _json(data: Any, status: int = 200) -> Response:
    return Response(encode(data), status_code=status, media_type="application/json")


def _store(request: Request) -> Store:
    store: Store = request.app.state.ctx.store
    return store


def _hasher(request: Request) -> PasswordHasher:
    hasher: PasswordHasher = request.app.state.passwords
    return hasher


def _hashing(request: Request) -> Hashing:
    hashing: Hashing = request.app.state.hashing
    return hashing


def _address(request: Request) -> str | None:
    return request.client.host if request.client is not None else None


@functools.lru_cache(maxsize=4)
def _dummy(hasher: PasswordHasher) -> str:
    """A hash of nothing anyone types, at the hasher's cost: what an unknown name is checked against."""
    return hasher.hash("no account has this name: the time of the answer must not say so")


def _verify(hasher: PasswordHasher, hashed: str, password: str) -> bool:
    try:
        return hasher.verify(hashed, password)
    except (VerificationError, InvalidHashError):
        return False


async def guest_name(store: Store, raw: str) -> str:
    """A new guest's name (``POST /api/players``): :func:`names.clean_name` (``bad_message`` naming what
    is wrong), and never an account's name up to case and look (its key, as accounts are kept unique):
    ``name_taken`` otherwise, so no guest passes for an account (issue 47)."""
    name = names.clean_name(raw, code="bad_message")
    if await store.account(names.name_key(name)) is not None:
        raise ProtocolError(
            "name_taken", f"an account has the name {name!r} or one that looks like it: a guest takes another"
        )
    return name


def _password(password: str) -> str:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ProtocolError(
            "bad_password", f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters, got {len(password)}"
        )
    return password


async def whoami(request: Request) -> Identity:
    """The asker (:func:`cardhall.server.sessions.identify`)."""
    return await identify(request, _store(request))


def _answer(
    request: Request, player: PlayerRow, token: str, cookie: bool, status: int, device: str
) -> Response:
    data: dict[str, Any] = {"id": player.id, "name": player.name, "guest": player.guest}
    if not cookie:
        data["token"] = token
        data["device"] = device
    response = _json(data, status)
    if cookie:
        sessions.set_cookie(response, request, token)
        devices.set_cookie(response, request, device)
    return response


async def _new_session(request: Request, player_id: int) -> str:
    """A session for the player, ending his oldest beyond :data:`MAX_SESSIONS` (and their websockets)."""
    store = _store(request)
    token = await store.create_session(player_id, sessions.expiry())
    ended = set(await store.end_oldest_sessions(player_id, MAX_SESSIONS))
    if ended:
        for connection in list(request.app.state.ctx.connections):
            mine = connection.player is not None and connection.player.id == player_id
            if mine and connection.session and sessions.token_hash(connection.session) in ended:
                connection.session_ended()
    return token


async def sign_up(request: Request) -> Response:
    """A guest makes himself an account; the answer is a new session (his guest token ends)."""
    who = await whoami(request)
    data = decode_as(await request.body(), SignUp, "request body")
    try:
        name = names.account_name(data.name)
    except ProtocolError as e:
        # (a spoofing attempt looks like this: logged with the name's code points, not the password)
        log.warning("sign-up refused from %s: %s (%s)", _address(request), e.message, ascii(data.name[:60]))
        raise
    password = _password(data.password)
    if not who.player.guest:
        raise ProtocolError("already_an_account", f"{who.player.name} is an account already")
    store = _store(request)
    key = names.name_key(name)
    taken = ProtocolError("name_taken", f"another account has the name {name!r} or one that looks like it")
    if await store.account(key) is not None:  # (before the rate: a refused request costs nothing)
        log.info("sign-up refused from %s: the name %r is taken", _address(request), name)
        raise taken
    request.app.state.ctx.limiter.new_account(_address(request))
    hashed = await _hashing(request).run(_hasher(request).hash, password)
    try:
        made = await store.create_account(who.player.id, name, key, hashed)
    except NameTakenError:  # taken meanwhile: the store's unique key decides
        log.info("sign-up refused from %s: the name %r is taken", _address(request), name)
        raise taken from None
    if not made:
        raise ProtocolError("already_an_account", f"{who.player.name} is an account already")
    token = await _new_session(request, who.player.id)
    player = PlayerRow(who.player.id, name, guest=False)
    log.info("player %d is now the account %r", player.id, name)
    return _answer(request, player, token, data.cookie, 201, devices.proof(player.id, hashed))


async def sign_in(request: Request) -> Response:
    """A sign-in: the rates first (failures per address and name, per address, per name unless this
    browser signed in to the account before; sign-ins per address, and per account when they work),
    then one hash in its turn (:mod:`cardhall.server.hashing`), then a session."""
    data = decode_as(await request.body(), SignIn, "request body")
    typed = data.name.strip()[: MAX_NAME * 2]
    key = names.name_key(typed)
    address = _address(request)
    limiter = request.app.state.ctx.limiter
    store = _store(request)
    try:
        names.account_name(typed)
    except ProtocolError:
        found = None  # no account has a name that may not be one (and the store never sees it)
    else:
        found = await store.account(key)
    known = found is not None and devices.signed_in_before(
        devices.presented(request, data.device), found[0].id, found[1]
    )
    limiter.may_sign_in(key, address, trusted=known, account=found[0].id if found is not None else None)
    limiter.sign_in_tried(address)
    hasher = _hasher(request)
    hashed = found[1] if found is not None else _dummy(hasher)
    good = await _hashing(request).run(_verify, hasher, hashed, data.password)
    if found is None or not good:
        limiter.sign_in_failed(key, address, trusted=known)
        log.warning("failed sign-in from %s", address)
        raise ProtocolError("bad_credentials", "no account has this name and password")
    limiter.signed_in(found[0].id)
    token = await _new_session(request, found[0].id)
    return _answer(request, found[0], token, data.cookie, 201, devices.proof(found[0].id, found[1]))


async def sign_out(request: Request) -> Response:
    who = await whoami(request)
    data = decode_as(await request.body(), SignOut, "request body")
    if who.session is None:
        raise ProtocolError("not_an_account", "a guest's token cannot be signed out (it is his only key)")
    store = _store(request)
    ended = 0
    if data.everywhere:
        ended = await store.end_sessions(who.player.id)
        _end_connections(request, who.player.id, None, None)
    else:
        await store.end_session(who.session)
        ended = 1
        _end_connections(request, who.player.id, who.session, None)
    response = _json({"ended": ended})
    sessions.clear_cookie(response, request)
    return response


async def change_password(request: Request) -> Response:
    who = await whoami(request)
    data = decode_as(await request.body(), NewPassword, "request body")
    new = _password(data.new)
    store = _store(request)
    hashed = await store.password_hash(who.player.id)
    if hashed is None:
        raise ProtocolError("not_an_account", "a guest has no password: make yourself an account first")
    key = names.name_key(who.player.name)
    address = _address(request)
    limiter = request.app.state.ctx.limiter
    limiter.may_sign_in(key, address, trusted=True)  # (he is signed in: the name's bucket is not his)
    hasher = _hasher(request)
    hashing = _hashing(request)
    if not await hashing.run(_verify, hasher, hashed, data.current):
        limiter.sign_in_failed(key, address, trusted=True)
        log.warning("a wrong current password for player %d from %s", who.player.id, address)
        raise ProtocolError("bad_credentials", "the current password is not this account's")
    await store.set_password(who.player.id, await hashing.run(hasher.hash, new), keep=who.session)
    _end_connections(request, who.player.id, None, who.session)
    return _json({"id": who.player.id, "name": who.player.name, "guest": False})


def _end_connections(request: Request, player_id: int, ended: str | None, keep: str | None) -> int:
    """Close the player's open websockets that said hello with an ended session: ``ended`` (one
    session), or every session but ``keep`` (``ended`` None). Those of his guest-era token stay."""
    closed = 0
    for connection in list(request.app.state.ctx.connections):
        if connection.player is None or connection.player.id != player_id or connection.session is None:
            continue
        if (ended is not None and connection.session == ended) or (
            ended is None and connection.session != keep
        ):
            connection.session_ended()
            closed += 1
    return closed


async def asker_id(request: Request) -> int | None:
    """Who asks, if anyone says (a page anyone may read answers without credentials too)."""
    try:
        return (await identify(request, _store(request))).player.id
    except ProtocolError:
        return None


def _game_name(game: str) -> str:
    return game.partition("(")[0]


async def profile(request: Request) -> Response:
    """A player's page: who he is, his ratings with their history, his totals and his last matches."""
    text: str = request.path_params["player"]
    player_id = int(text) if text.isdecimal() and len(text) <= 18 else None
    store = _store(request)
    found = None if player_id is None else (await store.players([player_id])).get(player_id)
    if found is None or player_id is None:
        raise ProtocolError("no_such_player", f"no player {text!r} (a player's id is a number)")
    rows = await store.player_ratings(player_id)
    history = await store.rating_history(player_id)
    matches = await store.matches(player_id, RECENT_MATCHES)
    # A private table is named only to its people: to anyone else its id (and with it its record) is
    # left out of the page (issue 47: the ids on players' pages led to every card of private matches).
    asker = await asker_id(request)
    private = set(await store.private_tables([m.table_id for m in matches] + [h.table_id for h in history]))
    people = {m.table_id: {s.player_id for s in m.seats} for m in matches}

    def shown_table(table_id: str) -> str | None:
        if table_id not in private:
            return table_id
        return (
            table_id
            if asker is not None and (asker == player_id or asker in people.get(table_id, ()))
            else None
        )

    totals: dict[str, list[float]] = {}
    for game, (count, wins) in (await store.totals(player_id)).items():
        entry = totals.setdefault(_game_name(game), [0, 0.0])
        entry[0] += count
        entry[1] += wins
    order = list(game_classes())
    out_ratings = []
    for r in rows:
        points = [
            {
                "table": shown_table(h.table_id),
                "mu": h.mu,
                "sigma": h.sigma,
                "rating": ratings.shown(h.mu),
                "at": h.at.isoformat(),
            }
            for h in history
            if (h.game, h.pool) == (r.game, r.pool)
        ]
        out_ratings.append(
            {
                "game": r.game,
                "pool": r.pool,
                "mu": r.mu,
                "sigma": r.sigma,
                "rating": ratings.shown(r.mu),
                "games": r.games,
                "provisional": not ratings.established(r.games),
                "history": points,
            }
        )
    return _json(
        {
            "id": found.id,
            "name": found.name,
            "guest": found.guest,
            "min_games": ratings.BOARD_MIN_GAMES,
            "ratings": out_ratings,
            "totals": [
                {"game": g, "matches": int(c), "wins": w}
                for g, (c, w) in sorted(
                    totals.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 99
                )
            ],
            "matches": [
                {
                    "table": shown_table(m.table_id),
                    "game": m.game,
                    "finished_at": None if m.finished_at is None else m.finished_at.isoformat(),
                    "seat": m.seat,
                    "score": m.score,
                    "win_share": m.win_share,
                    "absent": m.absent,
                    "seats": [
                        {
                            "seat": s.seat,
                            "kind": s.kind,
                            "name": s.name,
                            "player": s.player_id,
                            "guest": s.guest,
                        }
                        for s in m.seats
                    ],
                }
                for m in matches
            ],
        }
    )
