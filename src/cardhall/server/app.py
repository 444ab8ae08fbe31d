"""The ASGI application: the JSON HTTP API (players, games, the lobby, records, replays, leaderboards,
rules), the websocket for play at ``/ws``, and the browser client at ``/`` and at each of its screens'
addresses (its files under ``/static/``, its service worker at ``/sw.js``: :mod:`cardhall.server.pages`).

The HTTP API (every route in ``docs/protocol.md``): request bodies are checked with msgspec like the
websocket messages; errors are ``{"error": code, "message": ...}`` with 400 (bad input), 401 (no or bad
token: ``Authorization: Bearer <token>``), 403 (not the operator), 404 (no such table), 409 (not possible
now), 429 (beyond a rate: with ``Retry-After``, see :mod:`cardhall.server.rates`) or 503 (the store
failed: with ``Retry-After``).

The operator's routes (``/api/admin/...``, for ``cardhall admin``) take the admin token given to
:func:`create_app` (``cardhall serve --admin-token-file`` or ``CARDHALL_ADMIN_TOKEN``) as the bearer; a
server without one has no operator, and refuses them all.

The browser client's files: every response of 500 bytes or more is gzipped for a client that accepts
it (Starlette's GZipMiddleware; the websocket is not touched); the page and its static files are sent
with ``Cache-Control: no-cache`` and an ETag (size and time of the file), so a browser keeps them and
asks each time whether they changed (a 304 when not): a changed file is always fetched, with no build
step to rename files by their hash.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import msgspec
from argon2 import PasswordHasher
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.websockets import WebSocket

from cardhall.errors import CardhallError
from cardhall.options import Option
from cardhall.registry import game_classes
from cardhall.rulebook import LANGUAGES, option_text, rules_text
from cardhall.server import accounts, guard, health, ratings
from cardhall.server.cluster import ClusterOptions
from cardhall.server.cluster.views import HallViews, admin_entry, entry, people
from cardhall.server.cluster.views import hall_views as make_views
from cardhall.server.connection import Connection
from cardhall.server.context import ServerContext
from cardhall.server.events.routes import routes as event_routes
from cardhall.server.hashing import Hashing
from cardhall.server.host import TableHost
from cardhall.server.host.frames import seat_entries
from cardhall.server.http import (
    NewTable,
    address,
    api,
    bearer,
    body,
    context,
    json_response,
    operator,
    query_int,
)
from cardhall.server.pages import WEB, ClientFiles, page_routes
from cardhall.server.protocol import ProtocolError
from cardhall.server.rates import Limits, RateLimited
from cardhall.server.relations import same
from cardhall.server.replays import MAX_POSITIONS, replay_marks, replay_page
from cardhall.server.reviews import ReviewsBusy
from cardhall.server.settings import BOT_LEVELS, TABLE_SETTINGS, bot_for_level
from cardhall.server.social import hall_views
from cardhall.server.social import routes as social_routes
from cardhall.store import RATING_POOLS, Store, TableRow

log = logging.getLogger(__name__)
REVIEW_RETRY_SECONDS = 30.0  # what a person asking for a third review at once is told to wait
MAX_REASON = 200  # characters in the reason an operator gives for stopping a table


class NewPlayer(msgspec.Struct, forbid_unknown_fields=True):
    name: str


class QuickPlay(msgspec.Struct, forbid_unknown_fields=True):
    game: str
    level: str = "normal"
    settings: dict[str, Any] = {}


class StopTable(msgspec.Struct, forbid_unknown_fields=True):
    reason: str = "stopped by the operator"


@api
async def create_player(request: Request) -> Response:
    data = await body(request, NewPlayer)
    ctx = context(request)
    name = await accounts.guest_name(ctx.store, data.name)  # (no account's name: names.py)
    ctx.limiter.new_player(address(request))  # (after the checks: a refused name costs nothing)
    player, token = await ctx.store.create_player(name)
    return json_response({"id": player.id, "name": player.name, "token": token}, 201)


@api
async def me(request: Request) -> Response:
    player = await bearer(request)
    return json_response({"id": player.id, "name": player.name, "guest": player.guest})


def option_data(owner: str, option: Option) -> dict[str, Any]:
    """An option (of a game, or a table setting: owner "table") described for a lobby's control: its
    type (``bool``, ``int``, ``choice``), default, allowed values (``values`` for a choice, ``minimum``
    and ``maximum`` for an int, null when open), the engine's English help, and in ``text`` per language
    its title, explanation and the words of its values (:func:`cardhall.rulebook.option_text`)."""
    if option.choices is not None:
        kind = "choice"
    elif isinstance(option.default, bool):
        kind = "bool"
    else:
        kind = "int" if isinstance(option.default, int) else "text"
    return {
        "name": option.name,
        "type": kind,
        "default": option.default,
        "allowed": option.describe(),
        "values": None if option.choices is None else list(option.choices),
        "minimum": option.minimum,
        "maximum": option.maximum,
        "help": option.help,
        "text": {lang: option_text(owner, lang)[option.name] for lang in LANGUAGES},
    }


@api
async def my_tables(request: Request) -> Response:
    """The tables where the player holds a seat he has not left (waiting or playing), so a page can
    take him back to any of them: each summary with his seat (``you``), whether the match waits for
    him now (``your_turn``) and the table's last event number (``n``). This process's tables as they
    are; in a hall of many, the others' from their owners' seated index
    (:mod:`cardhall.server.cluster.views`), a beat behind at most."""
    player = await bearer(request)
    out = []
    for host in list(context(request).lobby.hosts.values()):
        seat = people(host).get(player.id)
        if seat is not None:
            out.append(entry(host, seat))
    out.extend((await hall_views(request).seated([player.id])).get(player.id, []))
    for e in out:
        e.pop("private", None)  # (the protocol's summary: whose table it is, not how it is reached)
    return json_response({"tables": out})


async def games(request: Request) -> Response:
    out = []
    for name, cls in game_classes().items():
        out.append(
            {
                "name": name,
                "title": cls.title,
                "players": [cls.min_players, cls.max_players],
                "options": [option_data(name, o) for o in cls.option_spec],
            }
        )
    settings = [option_data("table", o) for o in TABLE_SETTINGS]
    return json_response({"games": out, "settings": settings, "bot_levels": BOT_LEVELS})


async def tables(request: Request) -> Response:
    return json_response(await hall_views(request).listing())  # (the hall's tables, on every process)


async def play_now(request: Request) -> Response:
    """The pools of Play now with people waiting (the hall's: every process's)."""
    return json_response({"pools": await context(request).play_now.pools()})


@api
async def create_table(request: Request) -> Response:
    player = await bearer(request)
    data = await body(request, NewTable)
    try:
        bots = {int(seat): bot_for_level(level) for seat, level in data.bots.items()}
    except (ValueError, CardhallError) as e:
        raise ProtocolError("bad_request", f"bots: {e}") from None
    host = await context(request).lobby.create(
        player, data.game, data.settings, bots, address=address(request)
    )
    return json_response(host.summary(), 201)


@api
async def quick_play(request: Request) -> Response:
    player = await bearer(request)
    data = await body(request, QuickPlay)
    host = await context(request).lobby.quick_play(
        player, data.game, data.level, data.settings, address=address(request)
    )
    return json_response({**host.summary(), "you": 0}, 201)


@api
async def table_summary(request: Request) -> Response:
    table_id = request.path_params["table"]
    ctx = context(request)
    host = ctx.lobby.hosts.get(table_id)
    if host is not None and host.invitation is None:
        return json_response(host.summary())
    # A private table is not shown here at all: its people see it over the websocket.
    row = None if host is not None else await ctx.store.table(table_id)
    if row is None or await ctx.store.private_tables([table_id]):
        raise ProtocolError("no_such_table", f"no table {table_id!r}")
    return json_response(
        {"table": row.id, "game": row.game, "status": row.status, "rematch_of": row.rematch_of}
    )


async def may_see_private(request: Request, row: TableRow) -> bool:
    """Whether the asker may see ``row``'s record: any table open to all; a private one only for its
    people or with its invitation (``?invitation=``: the link they share). To anyone else a private
    table is no table at all, as before its match ended."""
    invitation = (await context(request).store.private_tables([row.id])).get(row.id)
    if invitation is None or same(request.query_params.get("invitation"), invitation):
        return True
    asker = await accounts.asker_id(request)
    return asker is not None and asker in {s.player_id for s in row.seats} | {row.owner_id}


async def finished_table(request: Request, what: str) -> tuple[Any, Any]:
    """The stored row and record of the table in the path, refused while its match is being played: its
    seed would show every hidden card. ``what`` (record, replay) names what was asked for in the error."""
    table_id = request.path_params["table"]
    store = context(request).store
    row = await store.table(table_id)
    if row is None or not await may_see_private(request, row):
        raise ProtocolError("no_such_table", f"no table {table_id!r}")
    if row.status not in ("finished", "abandoned"):
        raise ProtocolError(
            "not_over", f"the match at table {table_id} is not over: its {what} comes at the end"
        )
    return row, await store.record(table_id)


@api
async def record(request: Request) -> Response:
    _, stored = await finished_table(request, "record")
    return json_response(stored)


def review_seat(request: Request, row: TableRow) -> int:
    """The ``seat`` query parameter of a review: required, a seat of the table."""
    if "seat" not in request.query_params:
        raise ProtocolError("bad_request", "say whose decisions to review: ?seat=N")
    return query_int(request, "seat", 0, 0, len(row.seats) - 1)


@api
async def review_status(request: Request) -> Response:
    """A finished match's review of a seat: ``done`` with it, or the job's status (``running``, ``failed``,
    ``none``: nobody asked yet, or the server restarted meanwhile)."""
    row, _ = await finished_table(request, "review")
    return json_response(await context(request).reviews.status(row.id, review_seat(request, row)))


@api
async def start_review(request: Request) -> Response:
    """Start the review of a seat of a finished match, for a person who played in it (202 while it runs,
    200 with it when stored already)."""
    player = await bearer(request)
    row, stored = await finished_table(request, "review")
    seat = review_seat(request, row)
    if player.id not in {s.player_id for s in row.seats}:
        raise ProtocolError("not_a_player", f"only the players of table {row.id} may have its match reviewed")
    try:
        status = await context(request).reviews.start(row.id, seat, player.id, stored, address(request))
    except ReviewsBusy as e:
        if e.per_person:
            raise RateLimited(f"{e}: wait for them", REVIEW_RETRY_SECONDS) from e
        raise ProtocolError("reviews_busy", f"{e}: try again later") from e
    return json_response(status, 200 if status["status"] == "done" else 202)


# How many finished tables the lobby lists at most (newest first).
FINISHED_LIMIT = 50


@api
async def finished(request: Request) -> Response:
    limit = query_int(request, "limit", 20, 1, FINISHED_LIMIT)
    store = context(request).store
    rows = await store.tables(("finished",), limit)
    private = await store.private_tables([r.id for r in rows])  # (not listed, as in the lobby)
    rows = [r for r in rows if r.id not in private]
    return json_response(
        {
            "tables": [
                {
                    "table": r.id,
                    "game": r.game,
                    "seats": [
                        {"seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot, "player": s.player_id}
                        for s in r.seats
                    ],
                    "finished_at": None if r.finished_at is None else r.finished_at.isoformat(),
                }
                for r in rows
            ]
        }
    )


@api
async def replay_steps(request: Request) -> Response:
    table_id = request.path_params["table"]
    row, record = await finished_table(request, "replay")
    assert record is not None
    steps = len(record["actions"]) if row.status == "finished" else 0
    start = query_int(request, "from", 0, 0, steps)
    count = query_int(request, "count", MAX_POSITIONS, 1, MAX_POSITIONS)
    positions: list[dict[str, Any]] = []
    marks: dict[str, list[int]] | None = None
    if row.status == "finished":
        # Replaying a long match is CPU work: off the event loop.
        steps, positions = await asyncio.to_thread(replay_page, record, start, count)
        if start == 0:  # the first page also says where the tricks and deals are
            marks = await asyncio.to_thread(replay_marks, record)
    return json_response(
        {
            "table": table_id,
            "game": row.game,
            "seats": [
                {"seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot, "player": s.player_id}
                for s in row.seats
            ],
            "steps": steps,
            "from": start,
            "marks": marks,
            "positions": positions,
        }
    )


@api
async def rules(request: Request) -> Response:
    game = request.path_params["game"]
    lang = request.query_params.get("lang", "en")
    if game not in game_classes():
        raise ProtocolError("no_such_game", f"unknown game {game!r} (games: {', '.join(game_classes())})")
    if lang not in LANGUAGES:
        raise ProtocolError("bad_request", f"lang must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    return json_response({"game": game, "lang": lang, "markdown": rules_text(game, lang)})


@api
async def leaderboard(request: Request) -> Response:
    game = request.path_params["game"]
    pool = request.query_params.get("pool", "people")
    if game not in game_classes():
        raise ProtocolError("bad_game", f"unknown game {game!r} (games: {', '.join(game_classes())})")
    if pool not in RATING_POOLS:
        raise ProtocolError("bad_request", f"pool must be one of {', '.join(RATING_POOLS)}")
    # Established ratings only, in both pools; the people's board lists accounts only (ratings.py).
    rows = await context(request).store.leaderboard(
        game, pool, accounts_only=pool == "people", min_games=ratings.BOARD_MIN_GAMES
    )
    return json_response(
        {
            "game": game,
            "pool": pool,
            "min_games": ratings.BOARD_MIN_GAMES,
            "players": [
                {
                    "player": r.player_id,
                    "name": r.name,
                    "guest": r.guest,
                    "mu": r.mu,
                    "sigma": r.sigma,
                    "rating": ratings.shown(r.mu),
                    "games": r.games,
                }
                for r in rows
            ],
        }
    )


# --- the operator's routes -------------------------------------------------------------------------


def admin_summary(host: TableHost) -> dict[str, Any]:
    return admin_entry(host)


# How many of the hall's unfinished tables the operator's listing shows at most (newest first).
ADMIN_LIMIT = 1000


@api
async def admin_tables(request: Request) -> Response:
    """The tables this process holds, and in a hall of many every other waiting or playing table from
    the store (which holds the truth of who owns each: its lease's ``node``, null while it moves)."""
    operator(request)
    ctx = context(request)
    here = dict(ctx.lobby.hosts)
    out = [admin_summary(h) for h in here.values()]
    rows = [r for r in await ctx.hall.open_elsewhere(ADMIN_LIMIT) if r.id not in here]
    if rows:
        counts = await ctx.store.action_counts([r.id for r in rows])
        out.extend(stored_admin_summary(r, counts.get(r.id, 0)) for r in rows)
    return json_response({"tables": out})


def stored_admin_summary(row: TableRow, actions: int) -> dict[str, Any]:
    """A table of another process, as the store has it (its connections are its owner's to count)."""
    seats = msgspec.to_builtins(seat_entries(row.seats, None, [0] * len(row.seats)))
    for seat in seats:
        seat["connected"] = None  # (not known here)
    return {
        "table": row.id,
        "game": row.game,
        "status": row.status.value,
        "seats": seats,
        "settings": row.settings,
        "rematch_of": row.rematch_of,
        "actions": actions,
        "connections": None,
        "owner": row.owner_id,
        "created_at": row.created_at.isoformat(),
        "node": row.node,
    }


@api
async def admin_stop(request: Request) -> Response:
    operator(request)
    data = await body(request, StopTable)
    reason = data.reason.strip()
    if not 1 <= len(reason) <= MAX_REASON or not reason.isprintable():
        raise ProtocolError("bad_message", f"a reason has 1 to {MAX_REASON} printable characters")
    table_id = request.path_params["table"]
    ctx = context(request)
    if table_id not in ctx.lobby.hosts:
        return await admin_stop_elsewhere(request, hall_views(request), table_id, reason)
    host = ctx.lobby.host(table_id)
    if not await host.call(lambda: host.halt(reason)):
        status = host.row.status
        raise ProtocolError("table_over", f"the match at table {table_id} is over already ({status})")
    return json_response(admin_summary(host))


async def admin_stop_elsewhere(request: Request, views: HallViews, table_id: str, reason: str) -> Response:
    """The operator's stop of a table this process does not hold: asked of its owner over the bus."""
    answer = await views.stop_elsewhere(table_id, reason)
    if answer is None:
        row = await context(request).hall.elsewhere(table_id)
        if row is None:
            raise ProtocolError("no_such_table", f"no open or running table {table_id!r}")
        if row.status in ("waiting", "playing"):
            raise ProtocolError(
                "table_moved", f"table {table_id} is moving to another server: try again soon"
            )
        raise ProtocolError("table_over", f"the match at table {table_id} is over already ({row.status})")
    if answer.get("error"):
        raise ProtocolError("store_unavailable", "the server's storage failed: try again")
    entry: dict[str, Any] = answer["entry"]
    if not answer["stopped"]:
        status = entry["status"]
        raise ProtocolError("table_over", f"the match at table {table_id} is over already ({status})")
    return json_response(entry)


async def play(websocket: WebSocket) -> None:
    await Connection(websocket, context(websocket)).serve()


def create_app(
    store_url: str,
    bot_workers: int = 1,
    *,
    store_opener: Callable[[str], Awaitable[Store]] | None = None,
    limits: Limits | None = None,
    admin_token: str | None = None,
    max_body: int = guard.MAX_BODY,
    review_budget: int | None = None,
    password_hasher: PasswordHasher | None = None,
    bots_url: str | None = None,
    cluster: ClusterOptions | None = None,
) -> Starlette:
    """The application, its store at ``store_url`` (SQLite or PostgreSQL, see :mod:`cardhall.store`),
    opened by ``store_opener`` (default :func:`cardhall.store.open_store`; tests wrap it), ``limits``
    its rates per person and per address (:class:`Limits`: the defaults when None), ``admin_token``
    the operator's token (None: no operator), ``bots_url`` a bot tier on Redis (None: ``bot_workers``
    processes of this server); request bodies over ``max_body`` bytes and the requests
    :mod:`cardhall.server.guard` describes are refused; ``review_budget`` the determinizations a decision
    of the reviews it makes (:mod:`cardhall.server.reviews`; None: the review's default);
    ``password_hasher`` hashes the accounts' passwords (argon2id at ``argon2-cffi``'s defaults when
    None; tests make it cheaper). ``cluster``: the hall of many this process is one of
    (:mod:`cardhall.server.cluster`; None: the embedded default's hall of one process,
    :class:`cardhall.server.hall.OneProcessOptions`)."""
    from cardhall.store.sql import open_store

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store: Store = await (store_opener or open_store)(store_url)
        ctx = ServerContext(
            store,
            bot_workers,
            limits,
            admin_token,
            review_budget=review_budget,
            bots_url=bots_url,
            hall=cluster,
        )
        views = make_views(ctx, ctx.hall_options)  # (the hall's listing, seated index and presence)
        app.state.ctx = ctx
        app.state.views = views
        await ctx.start()
        await views.start()
        try:
            yield
        finally:
            await views.stop()
            await ctx.stop()

    def reading(path: str, endpoint: Any) -> Route:
        """A route that reads a body: Starlette counts a body without Content-Length as it arrives (the
        guard has refused a Content-Length over the limit already)."""
        return Route(path, endpoint, methods=["POST"], max_body_size=max_body)

    routes = [
        *page_routes(),  # the page at each screen's address, the service worker (pages.py)
        reading("/api/players", create_player),
        Route("/api/players/me", me),
        Route("/api/players/{player}", api(accounts.profile)),
        reading("/api/account", api(accounts.sign_up)),
        reading("/api/account/password", api(accounts.change_password)),
        reading("/api/signin", api(accounts.sign_in)),
        reading("/api/signout", api(accounts.sign_out)),
        Route("/api/players/me/tables", my_tables),
        Route("/api/games", games),
        Route("/api/tables", tables),
        reading("/api/tables", create_table),
        reading("/api/quickplay", quick_play),
        Route("/api/playnow", play_now),
        Route("/api/tables/{table}", table_summary),
        Route("/api/tables/{table}/record", record),
        Route("/api/tables/{table}/replay", replay_steps),
        Route("/api/tables/{table}/review", review_status),
        reading("/api/tables/{table}/review", start_review),
        Route("/api/finished", finished),
        Route("/api/leaderboard/{game}", leaderboard),
        Route("/api/rules/{game}", rules),
        Route("/api/admin/tables", admin_tables),
        reading("/api/admin/tables/{table}/stop", admin_stop),
        *social_routes(reading),  # private tables, friends, invitations, blocks, reports, moderation
        *event_routes(reading),  # tournaments (cardhall.server.events)
        Route("/healthz/live", health.live),
        Route("/healthz/ready", health.ready),
        Route("/metrics", health.prometheus),
        WebSocketRoute("/ws", play),
        Mount("/static", ClientFiles(directory=WEB, check_dir=False), name="static"),
    ]

    async def body_too_large(request: Request, exc: Exception) -> Response:
        return guard.too_large(max_body)  # Starlette's refusal of a counted body, in the API's words

    # The guard first: a request it refuses reaches nothing else.
    middleware = [Middleware(guard.Guard, max_body=max_body), Middleware(GZipMiddleware, minimum_size=500)]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=middleware,
        exception_handlers={413: body_too_large},
    )
    app.state.passwords = password_hasher or PasswordHasher()
    app.state.hashing = Hashing()  # (its hashes, a few at a time: cardhall.server.hashing)
    return app
