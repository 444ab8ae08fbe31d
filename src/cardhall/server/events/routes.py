"""The HTTP routes of tournaments (``docs/protocol.md``, "HTTP API"): the events list, a person's own
event, one event, signing up and withdrawing, a person's results, and the operator's events and
schedules. The pages' addresses (``/events``, ...) are :mod:`cardhall.server.pages`'."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cardhall.events.duplicate import scored_hands
from cardhall.events.points import place_points, places
from cardhall.registry import load_game
from cardhall.server.events.director import standings_of
from cardhall.server.events.scoring import event_deals, hand_results
from cardhall.server.events.service import EventsService
from cardhall.server.events.shapes import AdminEvent, EventToken, NewEvent, iso, table_entry
from cardhall.server.http import api, bearer, body, context, json_response, operator
from cardhall.server.protocol import ProtocolError
from cardhall.server.sessions import COOKIE
from cardhall.store.rows import PlayerRow, TableStatus


def service(request: Request) -> EventsService:
    return context(request).events


async def viewer(request: Request) -> PlayerRow | None:
    """The person asking, when he says who he is (a token or the session cookie); None otherwise."""
    if "authorization" not in request.headers and COOKIE not in request.cookies:
        return None
    try:
        return await bearer(request)
    except ProtocolError as e:
        if e.code == "not_authenticated":
            return None
        raise


async def _token_body(request: Request) -> EventToken:
    if not await request.body():
        return EventToken()
    data: EventToken = await body(request, EventToken)
    return data


@api
async def list_events(request: Request) -> Response:
    return json_response(await service(request).events_listing(await viewer(request)))


@api
async def create_event(request: Request) -> Response:
    player = await bearer(request)
    data = await body(request, NewEvent)
    context(request).limiter.new_table(player.id, request.client.host if request.client else None)
    return json_response(await service(request).create(data, player), 201)


@api
async def event_details(request: Request) -> Response:
    events = service(request)
    player = await viewer(request)
    event = await events.visible(request.path_params["event"], player, request.query_params.get("token"))
    store = context(request).store
    signups = await store.signups(event.id)
    tables = await store.event_tables(event.id)
    standings = await standings_of(store, event, signups, tables)
    return json_response(
        {
            **await events.summary(event, player),
            "signups": [
                {
                    "player": s.player_id,
                    "name": s.name,
                    "guest": s.guest,
                    "joined_at": iso(s.joined_at),
                    "left": s.left_at is not None,
                }
                for s in signups
            ],
            "standings": [s.entry() for s in standings],
            "tables": [table_entry(t) for t in reversed(tables)],
        }
    )


async def _sign_up(request: Request, *, join: bool) -> Response:
    """Join or leave the event the address names, as the bearer (its token in the body if private)."""
    player = await bearer(request)
    data = await _token_body(request)
    events = service(request)
    event = await events.visible(request.path_params["event"], player, data.token)
    return json_response(await (events.join if join else events.leave)(event, player))


@api
async def join_event(request: Request) -> Response:
    return await _sign_up(request, join=True)


@api
async def leave_event(request: Request) -> Response:
    return await _sign_up(request, join=False)


@api
async def player_results(request: Request) -> Response:
    events = service(request)
    asker = await viewer(request)
    event = await events.visible(request.path_params["event"], asker, request.query_params.get("token"))
    try:
        player_id = int(request.path_params["player"])
    except ValueError:
        raise ProtocolError("no_such_player", f"no player {request.path_params['player']!r}") from None
    store = context(request).store
    signups = await store.signups(event.id)
    tables = await store.event_tables(event.id)
    standings = await standings_of(store, event, signups, tables)
    standing = next((line for line in standings if line.player == player_id), None)
    if standing is None:
        raise ProtocolError("no_such_player", f"player {player_id} is not in event {event.id}")
    lowest = load_game(event.game).lowest_score_wins
    mine = []
    for t in tables:
        seat = next((s.seat for s in t.table.seats if s.player_id == player_id), None)
        if seat is None:
            continue
        entry: dict[str, Any] = {"table": t.table.id, "round": t.entry.round, "seat": seat, "score": None}
        entry.update({"place": None, "points": None, "absent": None})
        if t.table.status == TableStatus.FINISHED and t.results:
            results = sorted(t.results, key=lambda r: r.seat)
            at = places([r.score for r in results], lowest)
            points = place_points(at, len(results))
            entry.update(
                score=results[seat].score,
                place=at[seat],
                points=0 if results[seat].absent else points[seat],
                absent=results[seat].absent,
            )
        mine.append(entry)
    deals = []
    if event.kind == "duplicate":
        ended = [t for t in tables if t.table.status == TableStatus.FINISHED]
        actions = {t.table.id: await store.actions(t.table.id) for t in ended}
        names = {(t.table.id, seat.seat): seat.name for t in tables for seat in t.table.seats}
        played = scored_hands(hand_results(tables, actions, event_deals(event)), lowest_wins=lowest)
        for r, earned, _ in played:
            if r.is_bot or r.player != str(player_id):
                continue
            others = [
                {
                    "table": o.table,
                    "player": None if o.is_bot else int(o.player),
                    "name": names.get((o.table, o.hand), ""),
                    "bot": o.is_bot,
                    "score": o.score,
                }
                for o, _, _ in played
                if (o.round, o.deal, o.hand) == (r.round, r.deal, r.hand) and o.table != r.table
            ]
            deals.append(
                {
                    "round": r.round,
                    "deal": r.deal,
                    "hand": r.hand,
                    "table": r.table,
                    "score": r.score,
                    "matchpoints": earned,
                    "others": others,
                }
            )
    return json_response(
        {
            "event": await events.summary(event, asker),
            "player": {"id": player_id, "name": standing.name, "guest": standing.guest},
            "standing": standing.entry(),
            "tables": mine,
            "deals": deals,
        }
    )


@api
async def admin_events(request: Request) -> Response:
    operator(request)
    events = service(request)
    store = context(request).store
    schedules = [
        {
            "id": s.id,
            "kind": s.kind,
            "game": s.game,
            "rrule": s.rrule,
            "lead": s.lead,
            "options": s.options,
            "next": None if s.next_at is None else s.next_at.isoformat(),
            "cancelled": s.cancelled,
        }
        for s in await store.schedules()
    ]
    listed = [await events.summary(e, None) for e in await store.events(["upcoming", "running"], limit=1000)]
    return json_response({"schedules": schedules, "events": listed})


@api
async def admin_create(request: Request) -> Response:
    operator(request)
    data = await body(request, AdminEvent)
    return json_response(await service(request).create_public(data), 201)


@api
async def admin_cancel(request: Request) -> Response:
    operator(request)
    return json_response(await service(request).cancel(request.path_params["event"]))


def routes(reading: Callable[[str, Any], Route]) -> list[Route]:
    """The routes of tournaments (``reading``: app's maker of a route that reads a body)."""
    return [
        Route("/api/events", list_events),
        reading("/api/events", create_event),
        Route("/api/events/{event}", event_details),
        reading("/api/events/{event}/join", join_event),
        reading("/api/events/{event}/leave", leave_event),
        Route("/api/events/{event}/players/{player}", player_results),
        Route("/api/admin/events", admin_events),
        reading("/api/admin/events", admin_create),
        reading("/api/admin/events/{event}/cancel", admin_cancel),
    ]
