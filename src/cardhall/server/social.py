"""The HTTP routes for playing with people one knows (issue 25, part B): private tables and their
invitations, friends (requests, answers, who is online and where he sits), invitations to a table,
blocks, reports of chat lines, and the moderators' routes (reports, chat mutes, bans) and the
operator's (who is a moderator). What a table and a connection check is in
:mod:`cardhall.server.relations`; who is online in :mod:`cardhall.server.presence`;
``docs/protocol.md`` documents every route.

Choices:

- **Who asks** is the one identity call of the HTTP API, :func:`cardhall.server.http.bearer` (today a
  bearer token; part A's sign-in replaces it there), which also refuses a banned account.
- **People are named by their player id** (``/players/{id}`` is a person's page; chat lines carry
  it), never by name, which is not unique. The operator's ``cardhall admin moderator add`` takes a
  name too, refused when two players have it.
- **A block is never told to the blocked**: a friend request to someone who blocks you is answered as
  sent, and kept, but never shown to him (answering it as for a player that does not exist, while his
  page answered, told the block: issue 47); an invitation to him is answered as to someone who is not
  your friend (a block ends the friendship), his private tables as tables that do not exist.
- **Every refusal is logged** (with the player ids), and changes nothing.
- **Rates** (:mod:`cardhall.server.rates`): friend requests, invitations and reports per person,
  taken only once a request passed every other check.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cardhall.errors import CardhallError
from cardhall.server import http as core
from cardhall.server.cluster.views import HallViews, people
from cardhall.server.protocol import FriendsFrame, InvitedFrame, PlayerInfo, ProtocolError
from cardhall.server.relations import WS_BANNED
from cardhall.server.settings import bot_for_level
from cardhall.store import PlayerRow, ReportRow, SeatKind, TableRow

log = logging.getLogger(__name__)

MAX_REASON = 200  # characters in a report's reason, a mute's or a ban's
MAX_MUTE_MINUTES = 7 * 24 * 60  # a moderator mutes a chat for a week at most (a ban is for longer)
MODERATOR = "moderator"


class Invitation(msgspec.Struct, forbid_unknown_fields=True):
    table: str
    player: int


class Report(msgspec.Struct, forbid_unknown_fields=True):
    line: int
    reason: str


class Mute(msgspec.Struct, forbid_unknown_fields=True):
    player: int
    minutes: int
    reason: str


class Ban(msgspec.Struct, forbid_unknown_fields=True):
    player: int
    reason: str


class Unban(msgspec.Struct, forbid_unknown_fields=True):
    player: int


class Moderator(msgspec.Struct, forbid_unknown_fields=True):
    player: int | str  # a player id, or a name that only one player has


def link(table: str, invitation: str) -> str:
    """A private table's link: the invitation in the fragment, which no request ever carries."""
    return f"/#invite/{table}/{invitation}"


def refused(player: PlayerRow | None, code: str, message: str, what: str) -> ProtocolError:
    """A refusal, logged with who asked for what."""
    log.info("refused %s to player %s: %s (%s)", what, None if player is None else player.id, code, message)
    return ProtocolError(code, message)


def reason_text(text: str, what: str) -> str:
    reason = text.strip()
    if not 1 <= len(reason) <= MAX_REASON or not reason.isprintable():
        raise ProtocolError("bad_message", f"{what} has 1 to {MAX_REASON} printable characters")
    return reason


def path_player(request: Request) -> int:
    text = request.path_params["player"]
    try:
        return int(text)
    except ValueError:
        raise ProtocolError(
            "bad_request", f"a player is named by his id (an integer), got {text!r}"
        ) from None


async def other_player(request: Request, me: PlayerRow, what: str) -> PlayerRow:
    """The player of the path, not ``me`` (``bad_request``), existing (``no_such_player``)."""
    other = path_player(request)
    if other == me.id:
        raise refused(me, "bad_request", "that is you", what)
    found = await core.context(request).store.players([other])
    if other not in found:
        raise refused(me, "no_such_player", f"no player {other}", what)
    return found[other]


def info(player: PlayerRow) -> dict[str, Any]:
    return {"id": player.id, "name": player.name}


# --- private tables -------------------------------------------------------------------------------


@core.api
async def create_private_table(request: Request) -> Response:
    """A table that the lobby does not list, reached by its link (see :mod:`cardhall.server.relations`)."""
    player = await core.bearer(request)
    data = await core.body(request, core.NewTable)
    ctx = core.context(request)
    try:
        bots = {int(seat): bot_for_level(level) for seat, level in data.bots.items()}
    except (ValueError, CardhallError) as e:
        raise ProtocolError("bad_request", f"bots: {e}") from None
    invitation = secrets.token_urlsafe(16)
    # (stored with the table's row, in one transaction: never a table without it, see Seating.open)
    host = await ctx.lobby.create(
        player, data.game, data.settings, bots, address=core.address(request), invitation=invitation
    )
    return core.json_response(
        {**host.summary(), "invitation": invitation, "link": link(host.id, invitation)}, 201
    )


async def held_table(request: Request, table_id: str) -> tuple[TableRow, str | None] | None:
    """A table and its invitation (None: open to all): this process's as it holds it; in a hall of
    many, another process's as the store has it (the store keeps every private table's invitation:
    ``private_tables``). None: no such table (here, on the one process)."""
    ctx = core.context(request)
    host = ctx.lobby.hosts.get(table_id)
    if host is not None:
        return host.row, host.invitation
    row = await ctx.hall.elsewhere(table_id)
    if row is None:
        return None
    return row, (await ctx.store.private_tables([table_id])).get(table_id)


@core.api
async def private_invitation(request: Request) -> Response:
    """The link again, for the table's people and its creator (anyone else: no such table)."""
    player = await core.bearer(request)
    table_id = request.path_params["table"]
    held = await held_table(request, table_id)
    row, invitation = held if held is not None else (None, None)
    seated = row is not None and any(
        s.kind == SeatKind.PERSON and s.player_id == player.id for s in row.seats
    )
    if row is None or invitation is None or not (seated or row.owner_id == player.id):
        raise refused(player, "no_such_table", f"no private table {table_id!r} of yours", "an invitation")
    return core.json_response({"table": row.id, "invitation": invitation, "link": link(row.id, invitation)})


# --- friends --------------------------------------------------------------------------------------


def hall_views(request: Request) -> HallViews:
    """This process's views of the hall (on one process, its own tables only)."""
    views: HallViews = request.app.state.views
    return views


def seat_entry(table: str, game: str, status: str, seat: int) -> dict[str, Any]:
    return {"table": table, "game": game, "status": status, "seat": seat}


async def seats_of(request: Request, players: list[int]) -> dict[int, list[dict[str, Any]]]:
    """The open tables (not private) where each of ``players`` holds a seat he has not left: this
    process's as they are, the other processes' from their seated index
    (:mod:`cardhall.server.cluster.views`)."""
    out: dict[int, list[dict[str, Any]]] = {p: [] for p in players}
    for host in list(core.context(request).lobby.hosts.values()):
        if host.invitation is not None:
            continue
        for player, seat in people(host).items():
            if player in out:
                out[player].append(seat_entry(host.id, host.row.game, host.row.status.value, seat))
    if players:
        for player, listed in (await hall_views(request).seated(players)).items():
            out[player].extend(
                seat_entry(e["table"], e["game"], e["status"], e["you"])
                for e in listed
                if not e.get("private")
            )
    return out


@core.api
async def friends(request: Request) -> Response:
    me = await core.bearer(request)
    ctx = core.context(request)
    store = ctx.store
    mine = await store.friends(me.id)
    incoming, outgoing = await store.friend_requests(me.id)
    blocked = await store.blocked_by(me.id)
    names = await store.players([*mine, *incoming, *outgoing, *blocked])
    online = await ctx.social.presence.online(mine)
    seats = await seats_of(request, [f for f in mine if f in online])
    return core.json_response(
        {
            "friends": [
                {**info(names[f]), "online": f in online, "tables": seats.get(f, [])}
                for f in mine
                if f in names
            ],
            "incoming": [info(names[p]) for p in incoming if p in names],
            "outgoing": [info(names[p]) for p in outgoing if p in names],
            "blocked": [info(names[p]) for p in blocked if p in names],
        }
    )


@core.api
async def request_friend(request: Request) -> Response:
    me = await core.bearer(request)
    other = await other_player(request, me, "a friend request")
    ctx = core.context(request)
    store = ctx.store
    if await store.blocks(me.id, other.id):
        raise refused(me, "blocking", f"you block player {other.id}: unblock him first", "a friend request")
    if await store.are_friends(me.id, other.id):
        raise refused(me, "already_friends", f"you and player {other.id} are friends", "a friend request")
    if other.id in (await store.friend_requests(me.id))[1]:
        raise refused(me, "already_asked", f"you asked player {other.id} already", "a friend request")
    ctx.social.limiter.friend_request(me.id)  # (after the checks: a refused request costs nothing)
    outcome = await store.request_friend(me.id, other.id)
    if outcome == "blocked":  # (I block him: found blocking above, unless it changed meanwhile)
        raise refused(me, "blocking", f"you block player {other.id}: unblock him first", "a friend request")
    if outcome == "requested" and other.id in (await store.blockers(me.id)):
        log.info("a friend request from %d to %d, who blocks him: kept, never shown", me.id, other.id)
        return core.json_response({"status": "requested"}, 201)  # (answered as sent: see the module)
    if outcome == "pending":
        raise refused(me, "already_asked", f"you asked player {other.id} already", "a friend request")
    if outcome == "friends":
        raise refused(me, "already_friends", f"you and player {other.id} are friends", "a friend request")
    event = "request" if outcome == "requested" else "accepted"
    await ctx.social.presence.send(
        other.id, FriendsFrame(event=event, player=PlayerInfo(me.id, me.name, me.guest))
    )
    return core.json_response({"status": "requested" if outcome == "requested" else "friends"}, 201)


async def answer(request: Request, accept: bool) -> Response:
    me = await core.bearer(request)
    other = await other_player(request, me, "an answer to a friend request")
    ctx = core.context(request)
    if not await ctx.store.answer_request(other.id, me.id, accept):
        raise refused(me, "no_such_request", f"player {other.id} has not asked you", "an answer")
    if accept:
        await ctx.social.presence.send(
            other.id, FriendsFrame(event="accepted", player=PlayerInfo(me.id, me.name, me.guest))
        )
    return core.json_response({"status": "friends" if accept else "refused"})


@core.api
async def accept_friend(request: Request) -> Response:
    return await answer(request, True)


@core.api
async def refuse_friend(request: Request) -> Response:
    return await answer(request, False)


@core.api
async def remove_friend(request: Request) -> Response:
    me = await core.bearer(request)
    other = await other_player(request, me, "removing a friend")
    if not await core.context(request).store.remove_friend(me.id, other.id):
        raise refused(me, "not_friends", f"you and player {other.id} are not friends", "removing a friend")
    return core.json_response({"status": "removed"})


# --- blocks ---------------------------------------------------------------------------------------


@core.api
async def block(request: Request) -> Response:
    me = await core.bearer(request)
    other = await other_player(request, me, "a block")
    await core.context(request).store.block(me.id, other.id)
    log.info("player %d blocks player %d", me.id, other.id)
    return core.json_response({"status": "blocked"})


@core.api
async def unblock(request: Request) -> Response:
    me = await core.bearer(request)
    other = await other_player(request, me, "an unblock")
    if not await core.context(request).store.unblock(me.id, other.id):
        raise refused(me, "no_such_player", f"you do not block player {other.id}", "an unblock")
    return core.json_response({"status": "unblocked"})


# --- invitations ----------------------------------------------------------------------------------


@core.api
async def invite(request: Request) -> Response:
    """Invite a friend to a table one sits at (or created): he gets an ``invited`` frame on every
    connection he has, whatever page it is (a private table's with its invitation)."""
    me = await core.bearer(request)
    data = await core.body(request, Invitation)
    ctx = core.context(request)
    held = await held_table(request, data.table)
    row, invitation = held if held is not None else (None, None)
    seated = row is not None and any(s.kind == SeatKind.PERSON and s.player_id == me.id for s in row.seats)
    if row is None or (invitation is not None and not seated and row.owner_id != me.id):
        raise refused(me, "no_such_table", f"no open or running table {data.table!r}", "an invitation")
    if row.status not in ("waiting", "playing"):
        raise refused(me, "table_over", f"the match at table {row.id} is over", "an invitation")
    if not seated and row.owner_id != me.id:
        raise refused(me, "not_your_table", f"you do not play at table {row.id}", "an invitation")
    if data.player == me.id or not await ctx.store.are_friends(me.id, data.player):
        raise refused(me, "not_friends", f"player {data.player} is not your friend", "an invitation")
    if not await ctx.social.presence.online([data.player]):
        raise refused(me, "not_online", f"player {data.player} is not online now", "an invitation")
    ctx.social.limiter.invitation(me.id)
    frame = InvitedFrame(
        table=row.id, game=row.game, sender=PlayerInfo(me.id, me.name, me.guest), invitation=invitation
    )
    return core.json_response({"delivered": await ctx.social.presence.send(data.player, frame)})


# --- reports --------------------------------------------------------------------------------------


@core.api
async def report(request: Request) -> Response:
    """Report a chat line of a table one is at (seated, or with a connection there): stored with the
    line's text, table and sender for the moderators."""
    me = await core.bearer(request)
    data = await core.body(request, Report)
    reason = reason_text(data.reason, "a report's reason")
    ctx = core.context(request)
    line = await ctx.store.chat_line(data.line)
    if line is None:
        raise refused(me, "no_such_line", f"no chat line {data.line}", "a report")
    host = ctx.lobby.hosts.get(line.table_id)
    row = host.row if host is not None else await ctx.store.table(line.table_id)
    seated = row is not None and any(s.player_id == me.id for s in row.seats if s.kind == "person")
    present = host is not None and any(
        listener.player is not None and listener.player.id == me.id for listener, _ in host.audience
    )
    if not (seated or present):
        # A line of a table one is not at is not his to report (nor to learn of): as if there were none.
        raise refused(me, "no_such_line", f"no chat line {data.line} at a table of yours", "a report")
    ctx.social.limiter.report(me.id)
    stored = await ctx.store.add_report(
        ReportRow(me.id, line.id, line.table_id, line.player_id, line.name, line.text, reason)
    )
    log.info("player %d reported chat line %d of table %s", me.id, line.id, line.table_id)
    return core.json_response({"report": stored.id}, 201)


def report_data(r: ReportRow) -> dict[str, Any]:
    return {
        "id": r.id,
        "reporter": r.reporter_id,
        "line": r.line_id,
        "table": r.table_id,
        "sender": r.sender_id,
        "sender_name": r.sender_name,
        "text": r.text,
        "reason": r.reason,
        "at": r.at.isoformat(),
    }


# --- moderators -----------------------------------------------------------------------------------


async def moderator(request: Request) -> PlayerRow:
    me = await core.bearer(request)
    if not await core.context(request).store.has_role(me.id, MODERATOR):
        log.warning("player %d asked for %s without being a moderator", me.id, request.url.path)
        raise ProtocolError("not_moderator", "only a moderator may do this")
    return me


async def target(request: Request, player: int) -> PlayerRow:
    found = await core.context(request).store.players([player])
    if player not in found:
        raise ProtocolError("no_such_player", f"no player {player}")
    return found[player]


@core.api
async def moderation_reports(request: Request) -> Response:
    await moderator(request)
    limit = core.query_int(request, "limit", 100, 1, 500)
    return core.json_response(
        {"reports": [report_data(r) for r in await core.context(request).store.reports(limit)]}
    )


@core.api
async def mute(request: Request) -> Response:
    me = await moderator(request)
    data = await core.body(request, Mute)
    reason = reason_text(data.reason, "a mute's reason")
    if not 1 <= data.minutes <= MAX_MUTE_MINUTES:
        raise ProtocolError("bad_request", f"minutes must be in 1..{MAX_MUTE_MINUTES}, got {data.minutes}")
    who = await target(request, data.player)
    until = datetime.now(UTC) + timedelta(minutes=data.minutes)
    await core.context(request).store.mute_chat(who.id, until, reason, me.id)
    log.warning("moderator %d muted player %d until %s: %s", me.id, who.id, until.isoformat(), reason)
    return core.json_response({"player": who.id, "until": until.isoformat()})


@core.api
async def ban(request: Request) -> Response:
    me = await moderator(request)
    data = await core.body(request, Ban)
    reason = reason_text(data.reason, "a ban's reason")
    who = await target(request, data.player)
    if who.id == me.id:
        raise ProtocolError("bad_request", "a moderator does not ban himself")
    ctx = core.context(request)
    await ctx.store.ban(who.id, reason, me.id)
    log.warning("moderator %d banned player %d: %s", me.id, who.id, reason)
    await ctx.social.presence.send(
        who.id, ProtocolError("banned", f"this account is banned: {reason}").frame()
    )
    closed = await ctx.social.presence.end(who.id, WS_BANNED)
    return core.json_response({"player": who.id, "banned": True, "closed": closed})


@core.api
async def unban(request: Request) -> Response:
    me = await moderator(request)
    data = await core.body(request, Unban)
    who = await target(request, data.player)
    lifted = await core.context(request).store.unban(who.id)
    log.warning("moderator %d lifted the ban of player %d", me.id, who.id)
    return core.json_response({"player": who.id, "banned": False, "lifted": lifted})


# --- the operator: who is a moderator --------------------------------------------------------------


async def named(request: Request, given: int | str) -> PlayerRow:
    """A player by id, or by a name only one player has."""
    store = core.context(request).store
    if isinstance(given, int):
        return await target(request, given)
    found = await store.players_named(given.strip())
    if not found:
        raise ProtocolError("no_such_player", f"no player is called {given!r}")
    if len(found) > 1:
        ids = ", ".join(str(p.id) for p in found)
        raise ProtocolError("bad_request", f"{len(found)} players are called {given!r}: give an id ({ids})")
    return found[0]


async def set_moderator(request: Request, add: bool) -> Response:
    core.operator(request)
    data = await core.body(request, Moderator)
    who = await named(request, data.player)
    store = core.context(request).store
    changed = await (store.add_role(who.id, MODERATOR) if add else store.remove_role(who.id, MODERATOR))
    log.warning("the operator %s moderator %d", "made" if add else "unmade", who.id)
    return core.json_response({**info(who), "moderator": add, "changed": changed})


@core.api
async def add_moderator(request: Request) -> Response:
    return await set_moderator(request, True)


@core.api
async def remove_moderator(request: Request) -> Response:
    return await set_moderator(request, False)


@core.api
async def admin_reports(request: Request) -> Response:
    core.operator(request)
    limit = core.query_int(request, "limit", 100, 1, 500)
    return core.json_response(
        {"reports": [report_data(r) for r in await core.context(request).store.reports(limit)]}
    )


def routes(reading: Callable[[str, Any], Route]) -> list[Route]:
    """The routes of this module (``reading``: app's maker of a route that reads a body)."""
    return [
        reading("/api/private-tables", create_private_table),
        Route("/api/private-tables/{table}/invitation", private_invitation),
        Route("/api/friends", friends),
        reading("/api/friends/{player}/request", request_friend),
        reading("/api/friends/{player}/accept", accept_friend),
        reading("/api/friends/{player}/refuse", refuse_friend),
        reading("/api/friends/{player}/remove", remove_friend),
        reading("/api/blocks/{player}", block),
        reading("/api/blocks/{player}/remove", unblock),
        reading("/api/invitations", invite),
        reading("/api/reports", report),
        Route("/api/moderation/reports", moderation_reports),
        reading("/api/moderation/mute", mute),
        reading("/api/moderation/ban", ban),
        reading("/api/moderation/unban", unban),
        Route("/api/admin/reports", admin_reports),
        reading("/api/admin/moderators", add_moderator),
        reading("/api/admin/moderators/remove", remove_moderator),
    ]
