"""What a process tells the hall about its tables and its people, so that the views that are not one
table's are the same whichever process answers: the seated index (who sits at which of its tables,
and whether the match waits for him: :meth:`~cardhall.server.cluster.directory.Directory.seated`) and
the renewal of its presence (:class:`cardhall.server.presence.RedisPresence`). Both are written at
the process's beat, every :data:`~cardhall.server.cluster.directory.BEAT_SECONDS`, by
:class:`HallViews`, which the application starts beside the process's place in the hall (on one
process too, over the in-memory directory and bus: its index is then not made, nobody reads it).

Choices:

- **The hall's lobby is listed here** (:meth:`HallViews.listing`, ``GET /api/tables``), one way on one
  process and on many: this process's tables as its lobby has them now, and what the others published
  in the directory at their beat (in memory on one process: nobody).
- **Only what changed is written**: a table's entries are made again when its event number, status,
  seats, connections or privacy changed since the last beat, and only the people of the tables that
  changed are written (a process with a thousand quiet tables writes nothing but an expiry).
- **An entry is what ``GET /api/players/me/tables`` answers** for one table (:func:`entries`), made
  by the table's owner, the one process that knows whose turn it is; the answering process adds its
  own tables as they are now.
- **A failed write** (Redis down) is followed by a whole rewrite at the next beat that succeeds.
- **The operator's stop** of a table another process owns (``cardhall admin stop`` through any
  process) is asked of the hall on one channel (:data:`ADMIN`): the owner alone answers, on the
  asker's own channel, with the table's entry as it stopped it. A table written by its owner alone
  (its fence) cannot be stopped any other way.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from cardhall.server.cluster.bus import Bus
from cardhall.server.cluster.directory import BEAT_SECONDS, Directory, Listing
from cardhall.server.stopping import cancel_and_wait
from cardhall.store import SeatKind

if TYPE_CHECKING:
    from cardhall.server.hall import Options, Server
    from cardhall.server.host import TableHost
    from cardhall.server.presence import RedisPresence

log = logging.getLogger(__name__)

ADMIN = "cardhall:admin"  # the hall's channel for the operator's requests about a table
ASK_SECONDS = 5.0  # how long an operator's request waits for the table's owner to answer
SLICE = 200  # tables of the seated index made at a time, the loop served between them


def answers(node: str) -> str:
    """The channel where ``node`` hears the answers to its operator's requests."""
    return f"cardhall:views:{node}"


def admin_entry(host: TableHost) -> dict[str, Any]:
    """A table as the operator's listing shows it (``GET /api/admin/tables``)."""
    table = host.table
    return {
        **host.summary(),
        "actions": 0 if table is None else len(table.state.history),
        "connections": len(host.listeners),
        "owner": host.row.owner_id,
        "created_at": host.row.created_at.isoformat(),
        "node": host.ctx.node,
    }


def people(host: TableHost) -> dict[int, int]:
    """The people seated at ``host``'s table while it is waiting or playing (a seat not left): player
    id -> seat."""
    row = host.row
    if row.status not in ("waiting", "playing"):
        return {}
    return {
        s.player_id: s.seat
        for s in row.seats
        if s.kind == SeatKind.PERSON and s.player_id is not None and not s.left
    }


def entry(host: TableHost, seat: int, summary: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the lobby's "your tables" shows of ``host``'s table to the person at ``seat``: its
    summary, his seat (``you``), whether the match waits for him now (``your_turn``), the table's last
    event number (``n``) and whether it is private."""
    table = host.table
    return {
        **(host.summary() if summary is None else summary),
        "you": seat,
        "your_turn": table is not None and seat in table.to_act,
        "n": 0 if table is None else table.number,
        "private": host.invitation is not None,
    }


def _signature(host: TableHost) -> tuple[Any, ...]:
    """What the entries of a table depend on, cheap to compare at every beat (its seats' list is
    replaced, never changed in place, when a seat changes: compared by identity first): the event
    number, then what its summary depends on (:func:`_summary_signature`)."""
    return (host.number, *_summary_signature(host))


def _summary_signature(host: TableHost) -> tuple[Any, ...]:
    """What the table's summary (``HostBase.summary``) depends on: its status, privacy, seats, the
    connections at each seat and the stand-ins playing for the away. Not the event number: a table
    at play changes its number at every action and its summary seldom."""
    table = host.table
    seats = host.row.seats
    return (
        host.row.status,
        host.invitation is not None,
        seats,
        tuple(host.audience.connected),
        None if table is None else tuple(table.stand_in_for(s.seat) for s in seats),
    )


_ENCODER = msgspec.json.Encoder()


def encoded_entries(host: TableHost, base: bytes | None = None) -> tuple[dict[int, bytes], bytes | None]:
    """:func:`entry` of every person seated at ``host``'s table, as JSON: the table's summary encoded
    once for all its people (``base``: that summary made already, without its closing brace); and
    the summary's JSON (None: nobody is seated, none was made)."""
    seated = people(host)
    if not seated:
        return {}, None
    table = host.table
    if base is None:
        base = _ENCODER.encode(host.summary())[:-1]  # (each entry adds its own closing brace)
    to_act = set(table.to_act) if table is not None else set()
    n = 0 if table is None else table.number
    private = b"true" if host.invitation is not None else b"false"
    entries = {
        player: b'%s,"you":%d,"your_turn":%s,"n":%d,"private":%s}'
        % (base, seat, b"true" if seat in to_act else b"false", n, private)
        for player, seat in seated.items()
    }
    return entries, base


def _joined(by_player: dict[int, list[bytes]]) -> dict[int, str]:
    """Each person's entries as one JSON list."""
    return {p: (b"[" + b",".join(e) + b"]").decode() for p, e in by_player.items()}


class HallViews:
    """This process's part of the hall's views: its seated index and its presence, renewed each beat."""

    def __init__(
        self,
        ctx: Server,
        node: str,
        directory: Directory,
        presence: RedisPresence | None,
        bus: Bus | None = None,
    ) -> None:
        self.ctx = ctx
        self.bus = bus
        self._asked: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._asks = itertools.count(1)
        self._tasks: set[asyncio.Task[Any]] = set()
        self.node = node
        self.directory = directory
        self.presence = presence
        # table -> its signature, its people's entries, and its summary's JSON (None: not made)
        self._tables: dict[str, tuple[tuple[Any, ...], dict[int, bytes], bytes | None]] = {}
        self._published: dict[int, str] = {}  # player -> his entries as last written
        self._whole = True  # rewrite the whole index at the next beat
        self._loop: asyncio.Task[None] | None = None

    async def listing(self) -> Listing:
        """The hall's lobby (``GET /api/tables``): this process's tables as they are, the others' as
        of their last beat (on one process: its own)."""
        own = self.ctx.lobby.own_listing()
        try:
            others = await self.directory.published()
        except Exception as e:
            log.warning("the hall's listing cannot be read: %s", e)
            return own
        if not any(others.values()):
            return own  # (nothing published elsewhere: one process, or the others' lobbies empty)
        mine = {t["table"] for kind in own.values() for t in kind}
        for kind in own:
            own[kind].extend(t for t in others.get(kind, []) if t["table"] not in mine)
        return own

    async def seated(self, player_ids: Iterable[int]) -> dict[int, list[dict[str, Any]]]:
        """The entries of ``player_ids`` at the tables of the other processes, as of their last beat
        (one per table: the newest when a table that moved is still in its old owner's index; none
        when the directory cannot be read, logged)."""
        try:
            found = await self.directory.seated(player_ids)
        except Exception as e:
            log.warning("the seated index cannot be read: %s", e)
            return {}
        here = self.ctx.lobby.hosts
        out: dict[int, list[dict[str, Any]]] = {}
        for player, listed in found.items():
            newest: dict[str, dict[str, Any]] = {}
            for found_entry in listed:
                table = str(found_entry.get("table"))
                if table in here:
                    continue  # (this process's own: the caller reads it as it is now)
                held = newest.get(table)
                if held is None or found_entry.get("n", 0) > held.get("n", 0):
                    newest[table] = found_entry
            out[player] = list(newest.values())
        return out

    async def start(self) -> None:
        if self.presence is not None:
            await self.presence.start()
        if self.bus is not None:
            await self.bus.subscribe(ADMIN, self._on_admin)
            await self.bus.subscribe(answers(self.node), self._on_answer)
        self._loop = asyncio.create_task(self._beat(), name="hall views")

    async def stop(self) -> None:
        if self._loop is not None:
            await cancel_and_wait([self._loop])
        if self.presence is not None:
            await self.presence.stop()

    # --- the operator's stop of a table elsewhere --------------------------------------------------

    async def stop_elsewhere(self, table_id: str, reason: str) -> dict[str, Any] | None:
        """Ask the process that owns ``table_id`` to stop it; its answer (``stopped``: whether it did,
        False when the match was over already; ``entry``: the table as the operator's listing shows
        it), or None when no process answered within :data:`ASK_SECONDS`."""
        if self.bus is None or self.directory.alone(self.node):
            return None  # (nobody else to ask)
        from cardhall.server.cluster.bus import BusUnavailableError

        ask = next(self._asks)
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._asked[ask] = answer
        request = {"k": "stop", "table": table_id, "reason": reason, "from": self.node, "ask": ask}
        try:
            if not await self.bus.publish(ADMIN, msgspec.json.encode(request)):
                return None
            return await asyncio.wait_for(answer, ASK_SECONDS)
        except (BusUnavailableError, TimeoutError):
            return None
        finally:
            self._asked.pop(ask, None)

    def _on_admin(self, data: bytes) -> None:
        request = msgspec.json.decode(data)
        host = self.ctx.lobby.hosts.get(str(request.get("table")))
        if request.get("from") == self.node or host is None:
            return  # (only the table's owner answers)
        task = asyncio.create_task(self._stop_here(host, request))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _stop_here(self, host: TableHost, request: dict[str, Any]) -> None:
        reason = str(request["reason"])
        error = None
        stopped = False
        try:
            stopped = await host.call(lambda: host.halt(reason))
        except Exception as e:  # (the store failed: told to the operator, nothing changed)
            error = str(e)
        answer = {"k": "stopped", "ask": request["ask"], "stopped": stopped, "error": error}
        answer["entry"] = admin_entry(host)
        assert self.bus is not None
        with contextlib.suppress(Exception):
            await self.bus.publish(answers(str(request["from"])), msgspec.json.encode(answer))

    def _on_answer(self, data: bytes) -> None:
        answer = msgspec.json.decode(data)
        waiting = self._asked.get(int(answer.get("ask", 0)))
        if waiting is not None and not waiting.done():
            waiting.set_result(answer)

    async def _beat(self) -> None:
        while True:
            await self.beat()
            await asyncio.sleep(BEAT_SECONDS)

    async def beat(self) -> None:
        with contextlib.suppress(Exception):  # (logged where it failed)
            await self.publish()
        if self.presence is not None:
            await self.presence.beat()

    async def index(self, hosts: Sequence[TableHost], size: int = SLICE) -> tuple[dict[int, str], set[int]]:
        """Every person's entries at ``hosts`` as JSON, and the people whose entries changed, made
        ``size`` tables at a time, the loop served between them: made in one go, the index of a few
        thousand tables held every table of the process up for tens of milliseconds once a beat
        (``benchmarks/load.md``, eleventh session). Only the beat changes the index, so nothing moves
        under it; a table that ends meanwhile is dropped at the next beat."""
        changed: set[int] = set()
        for start in range(0, len(hosts), size):
            self._refresh(hosts[start : start + size], changed)
            await asyncio.sleep(0)
        self._forget({host.id for host in hosts}, changed)
        tables = list(self._tables.values())
        by_player: dict[int, list[bytes]] = {}
        for start in range(0, len(tables), size):
            self._collect(tables[start : start + size], changed, by_player)
            await asyncio.sleep(0)
        return _joined(by_player), changed

    def _refresh(self, hosts: Iterable[TableHost], changed: set[int]) -> None:
        """The entries of ``hosts`` made again where a table changed; their people added to
        ``changed``."""
        for host in hosts:
            key = _signature(host)
            held = self._tables.get(host.id)
            if held is not None and held[0] == key:
                continue
            # (a table at play: only its number changed, its summary's JSON is the one made before)
            base = held[2] if held is not None and held[0][1:] == key[1:] else None
            made, base = encoded_entries(host, base)
            changed.update(made)
            if held is not None:
                changed.update(held[1])
            self._tables[host.id] = (key, made, base)

    def _forget(self, seen: set[str], changed: set[int]) -> None:
        for gone in set(self._tables) - seen:
            changed.update(self._tables.pop(gone)[1])

    def _collect(
        self,
        tables: Iterable[tuple[tuple[Any, ...], dict[int, bytes], bytes | None]],
        changed: set[int],
        by_player: dict[int, list[bytes]],
    ) -> None:
        for _, made, _ in tables:
            for player, text in made.items():
                if player in changed or self._whole:
                    by_player.setdefault(player, []).append(text)

    async def publish(self) -> None:
        if self.directory.alone(self.node):
            # Nobody else reads it (the embedded default's one process): not made, and made whole
            # when another process is heard of.
            self._whole = True
            return
        texts, changed = await self.index(list(self.ctx.lobby.hosts.values()))
        whole = self._whole
        if whole:
            update, dropped = texts, set()
        else:
            update = {p: t for p, t in texts.items() if self._published.get(p) != t}
            dropped = {p for p in changed if p not in texts and p in self._published}
        try:
            await self.directory.publish_seated(self.node, update, dropped, whole)
        except Exception as e:
            log.warning("the seated index cannot be written: %s", e)
            self._whole = True
            raise
        if whole:
            self._published = dict(texts)
        else:
            self._published.update(update)
            for p in dropped:
                self._published.pop(p, None)
        self._whole = False


def hall_views(ctx: Server, options: Options) -> HallViews:
    """This process's views of the hall ``options`` describes; on a Redis bus its presence becomes the
    hall's (:class:`~cardhall.server.presence.RedisPresence`, set on ``ctx`` before any connection
    arrives; in memory it stays :class:`~cardhall.server.presence.MemoryPresence`). Started after the
    context (the bus is open then), stopped before it."""
    from cardhall.server.cluster.bus import RedisBus
    from cardhall.server.presence import RedisPresence

    presence = None
    if isinstance(options.bus, RedisBus):
        presence = RedisPresence(options.bus.url, options.name, options.bus)
        ctx.social.presence = presence
    return HallViews(ctx, options.name, options.directory, presence, options.bus)
