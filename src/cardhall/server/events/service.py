"""The server's tournaments: what the routes and the messages ask (events listed, made, joined, left,
followed), the directors this process runs, and the schedules it materialises.

Choices:

- **Every process watches** (every :data:`WATCH_SECONDS`): each event upcoming or running whose
  director's lease is free is taken by the first process that claims it
  (:class:`~cardhall.server.events.director.Director`); the others leave it. So a hall of many
  processes runs each event once, and an event whose process died moves with its lease.
- **Followers are this process's connections**; a director that sees the standings change publishes
  the ``event`` frame on the hall's bus (channel :data:`CHANNEL`), and every process sends it to its
  own followers of that event: one standings computation per change, whatever the followers. At
  most one frame an event per :data:`PUSH_SPACING` is published, the newest: a follower of an arena
  where tables end every few milliseconds gets four frames a second, not one a table.
- **Schedules** (the operator's, iCalendar RRULEs read by :mod:`cardhall.events.schedule`, in UTC):
  an occurrence's event is made ``lead`` seconds before it starts, once (the schedule's next
  occurrence moves by a conditional update: one process makes it).
- **Private events** are reached with their token (or by their maker and the people signed up).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

import msgspec

from cardhall.events.model import EventInputError
from cardhall.events.schedule import next_start, parse_rule
from cardhall.server.events.director import Context, Director, event_frame
from cardhall.server.events.shapes import LATE_JOINING, AdminEvent, NewEvent, checked, current_round, summary
from cardhall.server.protocol import EventFrame, ProtocolError, Ref, encode_bytes
from cardhall.server.stopping import cancel_and_wait
from cardhall.store.events import EventRow, ScheduleRow
from cardhall.store.rows import PlayerRow

log = logging.getLogger(__name__)
WATCH_SECONDS = 1.0
PUSH_SPACING = 0.25  # seconds at least between two frames of an event's standings
CHANNEL = "cardhall:events"
LISTED = 50


class Follower(Protocol):
    def send(self, frame: Any) -> None: ...

    def send_text(self, text: str) -> None: ...


class _Head(msgspec.Struct):
    event: str


_HEAD = msgspec.json.Decoder(_Head)


class EventsService:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.node = ctx.hall_options.name
        self.directors: dict[str, Director] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self.followers: dict[str, set[Follower]] = {}
        self._tables: dict[str, str] = {}  # table id -> event id, for the tables made here
        self._watch: asyncio.Task[None] | None = None
        self._latest: dict[str, EventFrame | Callable[[], EventFrame]] = {}  # (the newest not published)
        self._pushed_at: dict[str, float] = {}  # event id -> when its last frame was published
        self._flushing: dict[str, asyncio.Task[None]] = {}  # event id -> its next frame's publishing
        self.pushed = 0  # frames published (the benchmark's count)

    # --- running ---------------------------------------------------------------------------------

    async def start(self) -> None:
        await self.ctx.hall_options.bus.subscribe(CHANNEL, self._heard)
        self._watch = asyncio.create_task(self._watching(), name="events")

    async def stop(self) -> None:
        tasks = [self._watch, *self._tasks.values(), *self._flushing.values()]
        await cancel_and_wait([t for t in tasks if t is not None])

    async def _watching(self) -> None:
        while True:
            try:
                await self.watch()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("watching the events failed (tried again)")
            await asyncio.sleep(WATCH_SECONDS)

    async def watch(self) -> None:
        store = self.ctx.store
        await self.materialise()
        for event in await store.events(["upcoming", "running"], limit=1000):
            if event.id in self.directors:
                continue
            if event.status == "upcoming" and event.starts_at > datetime.now(UTC) + timedelta(seconds=5):
                continue  # (not yet: nobody need direct it)
            if await store.claim_event(event.id, self.node, 6.0):
                director = Director(self, event.id)
                self.directors[event.id] = director
                self._tasks[event.id] = asyncio.create_task(director.run(), name=f"event {event.id}")

    def directed(self, event_id: str, director: Director) -> None:
        """``director`` stopped (its event over, or its lease lost)."""
        if self.directors.get(event_id) is director:
            del self.directors[event_id]
            self._tasks.pop(event_id, None)

    def table_made(self, table_id: str, event_id: str) -> None:
        self._tables[table_id] = event_id

    def table_changed(self, table_id: str, ended: bool) -> None:
        """A table of this process changed status: poke its event's director when it ended."""
        event_id = self._tables.get(table_id)
        if event_id is None or not ended:
            return
        del self._tables[table_id]
        director = self.directors.get(event_id)
        if director is not None:
            director.poke()

    # --- schedules -------------------------------------------------------------------------------

    async def materialise(self) -> None:
        """Make the event of each schedule's next occurrence due within its lead."""
        store = self.ctx.store
        now = datetime.now(UTC)
        for s in await store.schedules():
            if s.cancelled or s.next_at is None or s.next_at - timedelta(seconds=s.lead) > now:
                continue
            following = next_start(parse_rule(s.rrule, s.dtstart), s.next_at)
            if not await store.advance_schedule(s.id, s.next_at, following):
                continue  # (another process made it)
            data = msgspec.convert(s.options, AdminEvent)
            event = checked(data, starts_at=s.next_at)
            event.schedule = s.id
            await store.create_event(event)

    async def add_schedule(self, data: AdminEvent) -> dict[str, Any]:
        assert data.rrule is not None
        checked(data)  # (refused as a single event would be)
        if not 0 <= data.lead <= 7 * 24 * 3600:
            raise ProtocolError("bad_event", f"lead must be within 0..604800 seconds, got {data.lead}")
        now = datetime.now(UTC).replace(microsecond=0)
        try:
            first = next_start(parse_rule(data.rrule, now), now)
        except EventInputError as e:
            raise ProtocolError("bad_event", f"rrule: {e}") from None
        options = msgspec.to_builtins(data)
        schedule = ScheduleRow(
            secrets.token_urlsafe(6), data.kind, data.game, options, data.rrule, data.lead, now, first
        )
        await self.ctx.store.add_schedule(schedule)
        return {"schedule": schedule.id, "next": None if first is None else first.isoformat()}

    # --- the routes' questions -------------------------------------------------------------------

    async def visible(self, event_id: str, player: PlayerRow | None, token: str | None) -> EventRow:
        """The event ``player`` (or anyone with ``token``) may see; ``no_such_event`` otherwise."""
        event = await self.ctx.store.event(event_id)
        if event is not None and event.token is not None and token != event.token:
            mine = player is not None and event.id in await self.ctx.store.events_of(player.id)
            if not mine:
                event = None
        if event is None:
            raise ProtocolError("no_such_event", f"no event {event_id!r} (a private one needs its link)")
        return event

    async def summary(self, event: EventRow, player: PlayerRow | None) -> dict[str, Any]:
        store = self.ctx.store
        signups = await store.signups(event.id)
        present = [s for s in signups if s.left_at is None]
        joined = player is not None and any(s.player_id == player.id for s in present)
        by = None
        if event.created_by is not None:
            rows = await store.players([event.created_by])
            maker = rows.get(event.created_by)
            by = {"id": event.created_by, "name": maker.name if maker else ""}
        round_now = None
        if event.kind == "duplicate" and event.status != "upcoming":
            round_now = current_round(event, await store.event_tables(event.id))
        return summary(event, len(present), joined, by, round_now)

    async def events_listing(self, player: PlayerRow | None) -> dict[str, list[dict[str, Any]]]:
        store = self.ctx.store
        mine = await store.events_of(player.id) if player is not None else set()
        out: dict[str, list[dict[str, Any]]] = {"upcoming": [], "running": [], "finished": []}
        for status in out:
            events = await store.events([status], limit=1000)
            if status != "upcoming":
                events.reverse()  # (newest first)
            shown = [e for e in events if e.token is None or e.id in mine][:LISTED]
            out[status] = [await self.summary(e, player) for e in shown]
        return out

    async def create(self, data: NewEvent, player: PlayerRow) -> dict[str, Any]:
        event = checked(data)
        event.created_by = player.id
        event.token = secrets.token_urlsafe(12)
        await self.ctx.store.create_event(event, signup=player.id)
        out = await self.summary(event, player)
        return {**out, "token": event.token, "link": f"/events/{event.id}?token={event.token}"}

    async def create_public(self, data: AdminEvent) -> dict[str, Any]:
        if data.rrule is not None:
            return await self.add_schedule(data)
        event = checked(data)
        await self.ctx.store.create_event(event)
        return await self.summary(event, None)

    async def join(self, event: EventRow, player: PlayerRow) -> dict[str, Any]:
        now = datetime.now(UTC)
        if event.status in ("finished", "cancelled"):
            raise ProtocolError("event_closed", f"event {event.id} is {event.status}")
        if event.kind == "arena" and event.ends_at is not None:
            cutoff = event.starts_at + (event.ends_at - event.starts_at) * LATE_JOINING
            if now >= cutoff:
                raise ProtocolError(
                    "event_closed", f"event {event.id} took its last sign-ups at {cutoff:%H:%M:%S} UTC"
                )
        if event.kind == "duplicate" and event.status == "running":
            signed = {s.player_id for s in await self.ctx.store.signups(event.id)}
            if player.id not in signed:
                raise ProtocolError("event_closed", f"event {event.id} started: its rounds are seated")
        await self.ctx.store.join_event(event.id, player.id)
        await self.poke(event.id)
        return await self.summary(event, player)

    async def leave(self, event: EventRow, player: PlayerRow) -> dict[str, Any]:
        await self.ctx.store.leave_event(event.id, player.id)
        return await self.summary(event, player)

    async def poke(self, event_id: str) -> None:
        director = self.directors.get(event_id)
        if director is not None:
            director.poke()

    async def cancel(self, event_id: str) -> dict[str, Any]:
        store = self.ctx.store
        if await store.set_event_status(event_id, "cancelled", ["upcoming", "running"]):
            event = await store.event(event_id)
            if event is not None:
                await self.changed(event)
            return {"cancelled": event_id}
        if await store.cancel_schedule(event_id):
            return {"cancelled": event_id}
        raise ProtocolError("no_such_event", f"no event or schedule {event_id!r} to cancel")

    # --- followers -------------------------------------------------------------------------------

    async def follow(
        self, conn: Follower, player: PlayerRow, event_id: str, token: str | None, ref: Ref
    ) -> None:
        try:
            event = await self.visible(event_id, player, token)
        except ProtocolError as e:
            e.ref = ref
            raise
        self.followers.setdefault(event.id, set()).add(conn)
        frame = await event_frame(self.ctx.store, event)
        frame.ref = ref
        conn.send(frame)

    def unfollow(self, conn: Follower, event_id: str | None = None) -> None:
        """``conn`` follows ``event_id`` no more (None: no event: it closed)."""
        for key in [event_id] if event_id is not None else list(self.followers):
            group = self.followers.get(key)
            if group is not None:
                group.discard(conn)
                if not group:
                    del self.followers[key]

    async def changed(
        self, event: EventRow, frame: EventFrame | Callable[[], EventFrame] | None = None
    ) -> None:
        """The standings or the status of ``event`` changed: its ``event`` frame (``frame``, made by
        ``frame()`` when it goes out, or read from the store now) to every follower in the hall
        (through the bus), at once unless one went out less than :data:`PUSH_SPACING` ago; then the
        newest at that time (one a follower per :data:`PUSH_SPACING` at most, however many tables
        end: the frames carry whole standings, made only for the frames that go out)."""
        if frame is None:
            frame = await event_frame(self.ctx.store, event)
        self._latest[event.id] = frame
        if event.id in self._flushing:
            return  # (it goes with the flush due)
        wait = self._pushed_at.get(event.id, -PUSH_SPACING) + PUSH_SPACING - time.monotonic()
        if wait <= 0:
            await self._publish(event.id)
        else:
            self._flushing[event.id] = asyncio.create_task(self._later(event.id, wait), name="event push")

    async def _later(self, event_id: str, wait: float) -> None:
        try:
            await asyncio.sleep(wait)
        finally:
            del self._flushing[event_id]
        await self._publish(event_id)

    async def _publish(self, event_id: str) -> None:
        latest = self._latest.pop(event_id, None)
        if latest is None:
            return
        self._pushed_at[event_id] = time.monotonic()
        self.pushed += 1
        try:
            frame = latest() if callable(latest) else latest
            await self.ctx.hall_options.bus.publish(CHANNEL, encode_bytes(frame))
        except Exception as e:
            log.warning("event %s: its standings could not be published: %s", event_id, e)

    def _heard(self, data: bytes) -> None:
        # (the frame goes on as it came, encoded once by the director: an arena's is 200 KB, for every
        # follower on every process; only its event is read here)
        followers = self.followers.get(_HEAD.decode(data).event)
        if followers:
            text = data.decode()
            for conn in list(followers):
                conn.send_text(text)


def late_cutoff(event: EventRow) -> datetime | None:
    if event.kind != "arena" or event.ends_at is None:
        return None
    return event.starts_at + (event.ends_at - event.starts_at) * LATE_JOINING
