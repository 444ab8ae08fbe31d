"""Play now (issue 49): a person asks for a game (its variant, its table settings, the level of the bots
that fill the seats nobody comes for) and waits in the hall's queue (:mod:`cardhall.server.seeking`:
in memory on one process, in Redis in a hall of many) until the waves of
:mod:`cardhall.server.matchmaker` seat him with others (:mod:`cardhall.server.matching` says who and
when). This module is the server's side of it: the messages ``seek`` and ``unseek``, the tables the
waves make, the frames that tell people, the grace of a dropped connection and the lobby's counts.

Choices:

- **A pool is its name.** A pool's name holds everything needed to make its tables (the game string
  as the engine writes it, the settings checked and complete, the bots' level), so any process of a
  hall can run its waves: the name is JSON of those three.
- **The table is the lobby's** (:meth:`~cardhall.server.lobby.Lobby.create`, as quick play makes
  one): its people in the order they waited, seats 0, 1, ..., bots of the pool's level in the others;
  its owner is the person who waited longest (his rates were not charged: the queue made it). It is
  marked a Play now table (``host.play_now``, its pool's name).
- **Telling people** goes through presence (:meth:`~cardhall.server.presence.Presence.send`), so
  whichever process holds a person's socket gets his ``seated``; a person pressing Play now gets his
  ``seeking`` at once, and everyone still waiting in a pool a fresh one :data:`TELL_GAP` after someone
  comes, goes or is seated, once for all that changed meanwhile (his page counts down between).
- **Who he is to the matcher**: his rating is the shown one (``1500 + 48 (mu - 25)``) in the game's
  ``people`` pool (1500 when unrated); he avoids those he blocks and those who block him; the people
  of his matches finished in the last :data:`RECENT_WINDOW` seconds (his last :data:`RECENT_MATCHES`)
  are his recent opponents; his ``leaves`` are the tables he left during their first deal (or whose
  stand-in took his seat then, his connection away) in the last :data:`LEAVE_WINDOW` seconds, noted by
  the tables in the store's ``early_leaves``. All of it is read at each ``seek`` by one statement
  (:meth:`~cardhall.store.ratings.Ratings.seeker`; five reads before): nothing is cached, so a block
  made a moment before the seek, on any process, holds.
- **A dropped connection** keeps his place for the pool's ``away_seconds`` (a table's away timer's
  grace); if no connection of his is open anywhere in the hall by then, he leaves the queue.
- **Bots' seats of Play now tables** (``open_tables``, ``give_seat``): the tables offered are the Play
  now tables of the pool held by this process, the one whose waves made them (the pool's leader), with
  a person still seated (not one every person left), their people as the matcher saw them (so a taker
  must fit them) and their next deal's start unknown (0, which every bound passes: the matcher then
  gives a seat to one who waited :data:`~cardhall.server.matching.TAKEOVER_AFTER` for people first).
  Asking the owner of a table on another process would need a request and its answer over the bus for
  each seat, and its people as the matcher sees them: not done. A Play now table is stored with its
  pool's name (``tables.play_now``): brought back by a restart, or taken over by another process, it
  offers its seats again there (:meth:`adopted`: its people read again as the matcher sees them), when
  that process leads its pool. A table made by hand never does.
- **A seat given** is promised by the table's owner (:meth:`TableHost.take_seat_later`: False when the
  match is over or every bot's seat is taken or promised: the person waits again, his wait kept, at the
  front); he is sent ``seated`` with ``next_deal`` at once and watches; the machine stores and gives
  the seat when the next deal starts (:mod:`cardhall.server.host.machine`), his watching connections
  joined to it (``seated`` again if he has none). A match that ends before its next deal puts him back
  in the queue the same way (:meth:`untaken`); ``unseek`` before the deal gives the promise up.
- **Ratings**: the match is not rated for a person who took a bot's seat during it (the seat's score
  is partly the bot's deals; rating his deals alone needs a score per deal that not every game has);
  the others are rated as with a bot in his seat (:mod:`cardhall.server.ratings`).
- **Playing already**: ``seek`` is refused ``already_playing`` while he holds a seat (not left) at a
  match under way (this process's tables as they are, from the index the tables keep as their seats
  change, :mod:`cardhall.server.host.seated`: a walk over every table for each seek was 7-9 ms at
  3,200 tables; the others' from the hall's seated index, a beat behind at most), or was promised
  one. Nothing in the issue or protocol.md chose otherwise; a waiting table (not started) does not
  count: leaving it costs nobody a match.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Coroutine
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol

from cardhall.errors import CardhallError, InvalidOptionError
from cardhall.registry import load_game
from cardhall.server import bounds
from cardhall.server.hall import Server
from cardhall.server.host import TableHost
from cardhall.server.host.seated import SeatIndex
from cardhall.server.matching import BOT_WAIT, CHOICES, NewTable, OpenTable, Seeker, bound
from cardhall.server.matchmaker import Matchmaker, Pool
from cardhall.server.protocol import (
    ProtocolError,
    Ref,
    SeatedFrame,
    Seek,
    SeekingFrame,
    UnseekedFrame,
)
from cardhall.server.ratings import SHOWN_START, shown
from cardhall.server.seeking import Seekers, now
from cardhall.server.settings import bot_for_level, table_settings
from cardhall.store import PlayerRow, SeatKind

if TYPE_CHECKING:
    from cardhall.server.cluster.views import HallViews

log = logging.getLogger(__name__)

# The bound before bots, in seconds, when set (the default: matching.BOT_WAIT): the browser tests make it
# short for a server in its own process.
WAIT_VARIABLE = "CARDHALL_PLAY_NOW_WAIT"
RECENT_WINDOW = 600.0  # seconds: a match finished this recently makes its people "recent" to him
RECENT_MATCHES = 3
LEAVE_WINDOW = 1800.0  # seconds: a table left in its first deal this recently makes him a leaver
# Seconds between two ``seeking`` frames to everyone waiting in a pool: told at each arrival, the pool's
# W people cost W frames an arrival (at 100 arrivals a second, thousands of frames a second).
TELL_GAP = 0.25


class Services(Server, Protocol):
    """What Play now asks of the server (:class:`~cardhall.server.context.ServerContext` has it)."""

    seated: SeatIndex  # who plays at which table of this process

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None: ...


def pool_name(game: str, settings: dict[str, Any], level: str) -> str:
    return json.dumps([game, settings, level], sort_keys=True, separators=(",", ":"))


def read_pool(pool: str) -> tuple[str, dict[str, Any], str]:
    game, settings, level = json.loads(pool)
    return str(game), dict(settings), str(level)


class PlayNow:
    """The server's Play now: ``seekers`` the hall's queue, ``node`` this process's name in it."""

    def __init__(self, ctx: Services, seekers: Seekers, node: str) -> None:
        self.ctx = ctx
        self.seekers = seekers
        self.bot_wait = float(os.environ.get(WAIT_VARIABLE) or BOT_WAIT)  # (tests make it short)
        self.matchmaker = Matchmaker(
            seekers, node, self._rules, self._make_table, self._give_seat, self._open_tables
        )
        self._drops: dict[int, asyncio.Task[None]] = {}
        self._seats: dict[str, int] = {}  # pool -> a table's seats
        # Play now tables held here -> their people as the matcher saw them (their bots' seats' takers
        # must fit them: OpenTable), and the people promised a bot's seat -> (pool, as he waited).
        self._people: dict[str, list[Seeker]] = {}
        self._promised: dict[int, tuple[str, Seeker, str]] = {}  # (pool, as he waited, table)
        self._refreshing: dict[str, asyncio.Task[None]] = {}  # pools told their news soon (refresh)
        self.views: HallViews | None = None  # the hall's seated index (set by the app; None: this process)

    def start(self) -> None:
        self.matchmaker.start()

    async def stop(self) -> None:
        await self.matchmaker.stop()
        for task in [*self._drops.values(), *self._refreshing.values()]:
            task.cancel()
        await self.seekers.close()

    # --- the pools -------------------------------------------------------------------------------

    def seats(self, pool: str) -> int:
        seats = self._seats.get(pool)
        if seats is None:
            seats = self._seats[pool] = load_game(read_pool(pool)[0]).num_players
        return seats

    def _rules(self, pool: str) -> Pool:
        return Pool(self.seats(pool), self.bot_wait)

    @staticmethod
    def checked(message: Seek, ref: Ref) -> str:
        """The pool ``message`` asks for; refused as ``bad_choice``, ``bad_request`` (the level) or
        ``bad_game`` (the game string, its bounds, a setting)."""
        if message.choice not in CHOICES:
            raise ProtocolError(
                "bad_choice", f"choice {message.choice!r} is none of {', '.join(CHOICES)}", ref
            )
        try:
            bot_for_level(message.level)
        except CardhallError as e:
            raise ProtocolError("bad_request", str(e), ref) from None
        try:
            game = load_game(message.game)
            bounds.check(game)
            settings = table_settings(message.settings)
            if game.num_players < 2:
                raise InvalidOptionError(f"{game} is played alone: nobody to meet")
        except CardhallError as e:
            raise ProtocolError("bad_game", str(e), ref) from None
        return pool_name(str(game), dict(settings), message.level)

    # --- a person's messages ---------------------------------------------------------------------

    async def seek(self, player: PlayerRow, message: Seek, ref: Ref) -> None:
        """``player`` presses Play now: he waits in the pool (out of any other), and is told so."""
        pool = self.checked(message, ref)
        await self.check_free(player, ref)
        seeker = await self.seeker(player, read_pool(pool)[0], message.choice)
        left = await self.seekers.add(pool, seeker)
        self._kept(player.id)
        await self.tell(pool, {player.id: ref}, only=player.id)
        self.refresh(pool)  # (the others: one more waiting, told with the pool's other news)
        if left is not None:
            self.refresh(left)
        self.matchmaker.poke()

    async def check_free(self, player: PlayerRow, ref: Ref) -> None:
        """Refuse (``already_playing``) a person who plays a match under way (a seat he has not left) at
        a table of this process, or of another as the hall's seated index had it at its last beat (one
        read of the directory), or was promised a bot's seat: the queue would seat him twice."""
        if player.id in self._promised:
            raise ProtocolError(
                "already_playing", "you take a bot's seat at a table at its next deal: play there", ref
            )
        for table in sorted(self.ctx.seated.tables_of(player.id)):  # (this process's: kept as seats change)
            raise ProtocolError(
                "already_playing", f"you play at table {table}: finish or leave it before Play now", ref
            )
        if self.views is not None:
            for entry in (await self.views.seated([player.id])).get(player.id, []):
                if entry.get("status") == "playing":
                    raise ProtocolError(
                        "already_playing",
                        f"you play at table {entry.get('table')}: finish or leave it before Play now",
                        ref,
                    )

    async def unseek(self, player: PlayerRow, ref: Ref) -> UnseekedFrame:
        """``player`` leaves the queue, or gives up the bot's seat he was promised (before its deal)."""
        promised = self._promised.pop(player.id, None)
        if promised is not None:
            host = self.ctx.lobby.hosts.get(promised[2])
            if host is not None and await host.cancel_seat(player):
                return UnseekedFrame(pool=promised[0], reason="left", ref=ref)
            return UnseekedFrame(pool=None, reason="left", ref=ref)  # (the deal started: seated)
        pool = await self.seekers.remove(str(player.id))
        self._kept(player.id)
        if pool is not None:
            self.refresh(pool)
        return UnseekedFrame(pool=pool, reason="left", ref=ref)

    async def seeker(self, player: PlayerRow, game_text: str, choice: Any) -> Seeker:
        """``player`` as the matcher sees him (see the module's docstring)."""
        game = load_game(game_text)
        at = datetime.now(UTC)
        facts = await self.ctx.store.seeker(
            player.id,
            game.name,
            at - timedelta(seconds=RECENT_WINDOW),
            RECENT_MATCHES,
            at - timedelta(seconds=LEAVE_WINDOW),
        )
        rating = float(SHOWN_START if facts.mu is None else shown(facts.mu))
        return Seeker(
            str(player.id),
            rating,
            now(),
            choice,
            frozenset(str(p) for p in facts.blocks | facts.blockers),
            frozenset(str(p) for p in facts.recent),
            facts.leaves,
        )

    # --- telling people --------------------------------------------------------------------------

    def refresh(self, pool: str) -> None:
        """Everyone waiting in ``pool`` is told its news (:meth:`tell`) :data:`TELL_GAP` from now, with
        whatever else changes meanwhile (once, however many came, went or were seated)."""
        if pool not in self._refreshing:
            self._refreshing[pool] = asyncio.create_task(self._refresh_later(pool))

    async def _refresh_later(self, pool: str) -> None:
        try:
            await asyncio.sleep(TELL_GAP)
        finally:
            del self._refreshing[pool]
        try:
            await self.tell(pool)
        except Exception:  # (the queue unreadable: the next change tells them)
            log.exception("the people waiting in pool %s could not be told", pool)

    async def tell(self, pool: str, refs: dict[int, Ref] | None = None, only: int | None = None) -> None:
        """A fresh ``seeking`` to everyone waiting in ``pool``, or to ``only`` him (``refs``: the reply's
        ``ref`` for some)."""
        waiting = await self.seekers.waiting(pool)
        usual = await self.seekers.usual_wait(pool)
        at = now()
        game = read_pool(pool)[0]
        for seeker in waiting:
            if only is not None and seeker.player != str(only):
                continue
            ends = bound(seeker, at, self.bot_wait)
            frame = SeekingFrame(
                pool=pool,
                game=game,
                choice=seeker.choice,
                waiting=len(waiting),
                seats=self.seats(pool),
                bots_in=None if ends == float("inf") else round(max(0.0, ends - at), 3),
                usual_wait=None if usual is None else round(usual, 3),
            )
            player = int(seeker.player)
            if refs and player in refs:
                frame.ref = refs[player]
            await self.ctx.social.presence.send(player, frame)

    # --- a dropped connection --------------------------------------------------------------------

    def departed(self, player: int) -> None:
        """A connection of ``player`` closed: if he waits and none of his stays open, he leaves the queue
        after the pool's ``away_seconds``, unless one opens meanwhile (anywhere in the hall)."""
        self._kept(player)  # (the grace counts from his last connection's close)
        self._drops[player] = asyncio.create_task(self._drop_later(player))

    def _kept(self, player: int) -> None:
        task = self._drops.pop(player, None)
        if task is not None:
            task.cancel()

    async def _drop_later(self, player: int) -> None:
        try:
            pool = await self.seekers.pool_of(str(player))
            if pool is None:
                return
            grace = float(read_pool(pool)[1].get("away_seconds", 20))
            await asyncio.sleep(grace)
            if await self.ctx.social.presence.online([player]):
                return
            if await self.seekers.pool_of(str(player)) == pool:
                await self.seekers.claim(pool, [str(player)])
                self.refresh(pool)
        except Exception:
            log.exception("player %d's place in the queue could not be checked", player)
        finally:
            if self._drops.get(player) is asyncio.current_task():
                del self._drops[player]

    # --- the waves' callbacks --------------------------------------------------------------------

    async def _make_table(self, pool: str, table: NewTable, people: list[Seeker]) -> str:
        game, settings, level = read_pool(pool)
        ids = [int(p) for p in table.players]
        rows = await self.ctx.store.players(ids)
        seated = {seat: rows[p] for seat, p in enumerate(ids)}
        bot = bot_for_level(level)
        bots = {seat: bot for seat in range(len(ids), len(ids) + table.bots)}
        host = await self.ctx.lobby.create(
            seated[0], game, settings, bots, seated, owner_checked=True, play_now=pool
        )
        host.takeovers = self
        self._people[host.id] = list(people)
        at = now()
        since = {s.player: s.since for s in people}
        for seat, p in enumerate(ids):
            waited = round(max(0.0, at - since.get(str(p), at)), 3)
            await self.ctx.social.presence.send(
                p, SeatedFrame(table=host.id, seat=seat, game=game, waited=waited)
            )
        self.refresh(pool)  # (those still waiting: one fewer table's worth)
        return host.id

    def adopted(self, host: TableHost) -> None:
        """A Play now table brought back here (a restart, a takeover): its bots' seats are offered again
        once its people are read as the matcher sees them (until then, none)."""
        host.takeovers = self
        self.ctx.spawn(self._adopt(host))

    async def _adopt(self, host: TableHost) -> None:
        try:
            game = host.row.game
            ids = [s.player_id for s in host.row.seats if s.kind == SeatKind.PERSON and s.player_id]
            rows = await self.ctx.store.players(ids)
            people = [await self.seeker(rows[p], game, "after_wait") for p in ids if p in rows]
        except Exception:  # (the store down at the start: this table offers no seat)
            log.exception("Play now table %s: its people could not be read", host.id)
            return
        self._people[host.id] = people

    def _play_now_hosts(self, pool: str) -> list[TableHost]:
        """The Play now tables of ``pool`` held by this process (those gone or ended are forgotten)."""
        hosts = self.ctx.lobby.hosts
        found = []
        for table in list(self._people):
            host = hosts.get(table)
            if host is None or not host.status.is_open:
                del self._people[table]
            elif host.play_now == pool:
                found.append(host)
        return found

    async def _open_tables(self, pool: str) -> list[OpenTable]:
        """The Play now tables of ``pool`` on this process with bots' seats to give; their next deal's
        start is not known (a deal's length is the players'): 0, which every bound passes (the time
        of this call came after the wave's own, and so missed by microseconds the bound of a person
        due his bots in that wave: he got a table of bots instead of the seat)."""
        out = []
        for host in self._play_now_hosts(pool):
            free = len(host.machine.bot_seats_free())
            staying = {str(s.player_id) for s in host.row.seats if s.kind == SeatKind.PERSON and not s.left}
            people = tuple(p for p in self._people[host.id] if p.player in staying)
            if free and people:  # (a table every person left is the stand-ins': nobody to meet there)
                out.append(OpenTable(host.id, people, free, 0.0))
        return out

    async def _give_seat(self, table: str, person: Seeker) -> bool:
        """Promise ``person`` a bot's seat at ``table`` from its next deal's start (False: the table is
        not here, is over, or has no bot's seat left to give: he waits again, at the front)."""
        host = self.ctx.lobby.hosts.get(table)
        if host is None or host.play_now is None:
            return False
        player = (await self.ctx.store.players([int(person.player)])).get(int(person.player))
        seat = None if player is None else await host.take_seat_later(player)
        if player is None or seat is None:
            return False
        self._promised[player.id] = (host.play_now, person, host.id)
        waited = round(max(0.0, now() - person.since), 3)
        frame = SeatedFrame(table=host.id, seat=seat, game=host.row.game, waited=waited, next_deal=True)
        await self.ctx.social.presence.send(player.id, frame)  # (he watches until the deal starts)
        self.refresh(host.play_now)  # (those still waiting: one fewer)
        return True

    def taken(self, host: TableHost, player: int, seat: int, there: bool) -> None:
        """``player`` took a bot's seat at ``host``'s deal's start (``there``: watching it, now seated;
        else his page opens the table)."""
        promised = self._promised.pop(player, None)
        waited = 0.0
        if promised is not None:
            self._people.setdefault(host.id, []).append(promised[1])
            waited = round(max(0.0, now() - promised[1].since), 3)
        if not there:
            frame = SeatedFrame(table=host.id, seat=seat, game=host.row.game, waited=waited)
            self.ctx.spawn(self.ctx.social.presence.send(player, frame))

    def untaken(self, host: TableHost, player: int) -> None:
        """``player`` will not get the seat he was promised (the match ended first): back to his pool,
        his wait kept (so at its front)."""
        promised = self._promised.pop(player, None)
        if promised is not None:
            self.ctx.spawn(self._put_back(promised[0], promised[1]))

    async def _put_back(self, pool: str, person: Seeker) -> None:
        await self.seekers.put_back(pool, [person])
        self.refresh(pool)
        self.matchmaker.poke()

    # --- the lobby -------------------------------------------------------------------------------

    async def pools(self) -> list[dict[str, Any]]:
        """Each pool with people waiting: its game string, settings and bots' level, how many wait, the
        usual wait (``GET /api/playnow``)."""
        out = []
        for pool, waiting in sorted((await self.seekers.counts()).items()):
            game, settings, level = read_pool(pool)
            out.append(
                {
                    "pool": pool,
                    "game": game,
                    "settings": settings,
                    "level": level,
                    "waiting": waiting,
                    "usual_wait": await self.seekers.usual_wait(pool),
                }
            )
        return out
