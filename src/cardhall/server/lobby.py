"""The lobby: the server's tables by id, creating them (from a game string, with bots by level), quick
play, play again with the same people, and bringing unfinished tables back after a restart.

Choices:

- A table id is 8 URL-safe random characters; a seed is drawn for each table (63 bits).
- Quick play seats the person at seat 0 of a new table and fills every other seat with a bot of the
  level asked for; the match starts at once.
- Play again (``rematch``) is an offer the people of the finished match accept or decline; the new
  table, with the same game and settings, seats those who accepted and bots elsewhere, and is made
  once (:mod:`cardhall.server.rematch`, which says when).
- Finished and abandoned tables leave memory (their rows and records stay in the store) at the next
  change of the lobby once nobody is connected to them. The lobby keeps the ids of the tables that
  ended (``finished``) and looks at those alone: walking every table at every change made seating N
  people cost N² steps. For the same reason a player's tables are found through an index of the
  tables he owns, not by walking the hall's.
- The lobby's listing shows every open table (seats to take) and the running matches people are playing
  (:func:`people_playing`): one whose people all left, or all have stand-ins playing for them, is not
  listed.
- A restart brings back every waiting and playing table that replays under this server's rules; one
  that does not (another rules version, a gap in its actions, an action that is not legal) is kept as
  ``broken`` with the reason, and the server starts with the others.

A guest cannot start work without end:

- Every table a player creates seats at least one person before it starts: ``POST /api/tables`` with
  bots in every seat, and a ``bot`` that would fill the last seat of a table with bots alone, are refused
  (``no_person``). (Tables the server makes itself, with no owner, may be bots alone: tests, benchmarks.)
- A match's length is bounded (:mod:`cardhall.server.bounds`): options that set it (Hokm's, Hearts' and
  gin's ``target``, Svara's stack in antes) at most 3 times their default, refused (``bad_game``)
  beyond; and a table that reaches the cap on actions of its game is stopped (``abandoned``). The
  engine's own option ranges stay wide, for simulations.
- Creating tables (``POST /api/tables``, quick play, a rematch that makes a new table) is rated per
  player and per address (:mod:`cardhall.server.rates`), and a player may own at most
  ``waiting_tables_per_player`` waiting tables and ``unfinished_tables_per_player`` waiting or playing
  ones at once (``too_many_tables``): so a guest keeps a bounded number of bounded matches going. A
  refused request creates nothing and costs no token.
- The operator stops any table (``cardhall admin stop``: :meth:`TableHost.halt`).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cardhall.errors import CardhallError, InvalidOptionError
from cardhall.registry import load_game
from cardhall.server import bounds
from cardhall.server.host import Services, TableHost
from cardhall.server.protocol import ProtocolError, RematchFrame
from cardhall.server.rates import Limiter
from cardhall.server.rematch import Offer, Rematches, check_over
from cardhall.server.settings import bot_for_level, table_settings
from cardhall.store import ActionRow, PlayerRow, SeatKind, SeatRow, TableRow, TableStatus

log = logging.getLogger(__name__)
ENDED = (TableStatus.FINISHED, TableStatus.ABANDONED)  # a table in memory whose match is over


def restore_problem(row: TableRow, actions: Sequence[ActionRow]) -> str | None:
    """Why a stored table cannot be brought back as it was (None: it can): its game unknown, its
    record made under other rules than this server's, or its actions not numbered 1, 2, ... in a row
    (a gap would replay another match)."""
    try:
        game = load_game(row.game)
    except CardhallError as e:
        return f"its game cannot be loaded: {e}"
    if row.rules_version != game.rules_version:
        return (
            f"its match was played under rules version {row.rules_version!r} of {game.name}; "
            f"this server plays version {game.rules_version!r}"
        )
    for expected, action in enumerate(actions, 1):
        if action.number != expected:
            return f"its stored actions go from number {expected - 1} to {action.number}"
    return None


def people_playing(summary: dict[str, Any]) -> bool:
    """Whether a running table's people are playing it (the lobby lists it only then, issue 46 D22): one
    of them has a connection to it, or went away less than the table's ``away_seconds`` ago (his seat
    not yet handed to a stand-in, and not left). A match whose people have all left, or all have
    stand-ins playing for them, is the bots' alone to finish: listing it offered nobody to watch.
    (Its people still find it under their own tables, ``GET /api/players/me/tables``.) In a hall of
    many processes another process's tables are as of its last listing (it publishes one when its
    lobby changes: a seat taken or left, a match over), so one may stay listed a while longer."""
    seats: list[dict[str, Any]] = summary["seats"]
    return any(
        s["kind"] == "person" and (s["connected"] or (not s["left"] and s["stand_in"] is None)) for s in seats
    )


class Lobby:
    def __init__(self, ctx: Services, limiter: Limiter | None = None) -> None:
        self.ctx = ctx
        self.limiter = limiter if limiter is not None else Limiter()
        self.hosts: dict[str, TableHost] = {}
        # Tables whose match ended (finished, abandoned) and may still be in memory: what
        # forget_finished looks at. (Ids of tables gone from ``hosts`` another way are dropped there.)
        self.finished: set[str] = set()
        # Owner id -> ids of the tables he made (some perhaps gone from ``hosts``: pruned when read).
        self._owned: dict[int, set[str]] = {}
        # Play again: the offers open and the rematches made (cardhall.server.rematch).
        self.rematches = Rematches(self._make_rematch, self._players)
        # Told of each Play now table brought back (a restart, a takeover): Play now offers its bots'
        # seats again (cardhall.server.playnow; set by the server).
        self.play_now_adopted: Callable[[TableHost], None] | None = None

    async def _players(self, ids: list[int]) -> dict[int, PlayerRow]:
        """Players by id, from the store (read when asked: a lobby is made before its store is open)."""
        return await self.ctx.store.players(ids)

    async def restore(self) -> int:
        """Bring back every waiting and playing table from the store; how many. A table that cannot
        be brought back (see :func:`restore_problem`, or its actions do not replay) is logged, kept
        in the store as ``broken`` with the reason, and skipped: the others are served."""
        for row, actions in await self.ctx.store.unfinished():
            await self.adopt(row, actions)
        return len(self.hosts)

    async def adopt(self, row: TableRow, actions: Sequence[ActionRow | tuple[int, int]]) -> TableHost | None:
        """Bring back one stored table (a restart's, or one this process took over from another:
        :mod:`cardhall.server.cluster`) with its actions in order; None when it cannot be (it is then
        kept as ``broken``)."""
        numbered: list[ActionRow] = []
        for n, a in enumerate(actions, 1):
            numbered.append(a if isinstance(a, ActionRow) else ActionRow(row.id, n, *a))
        problem = restore_problem(row, numbered)
        host = None
        if problem is None:
            host = TableHost(self.ctx, row)
            try:
                host.restore(numbered)
            except Exception as e:
                problem = f"its stored actions do not replay: {type(e).__name__}: {e}"
                await host.stop()
                host = None
        if host is not None:
            self._hold(host)
            if row.play_now is not None and self.play_now_adopted is not None:
                self.play_now_adopted(host)
            return host
        log.error("table %s cannot be brought back: %s", row.id, problem)
        try:
            await self.ctx.store.mark_broken(row.id, str(problem))
        except Exception:
            log.exception("table %s: marking it broken failed (tried again at the next start)", row.id)
        return None

    async def stop(self) -> None:
        self.rematches.stop()
        for host in list(self.hosts.values()):
            await host.stop()
        self.hosts.clear()

    def host(self, table_id: object, ref: object = None) -> TableHost:
        host = self.hosts.get(table_id) if isinstance(table_id, str) else None
        if host is None:
            raise ProtocolError("no_such_table", f"no open or running table {table_id!r}", ref)  # type: ignore[arg-type]
        return host

    def own_listing(self) -> dict[str, list[dict[str, Any]]]:
        """This process's open tables (seats to take) and the running games people are playing at
        them, for the lobby (a private table is not listed: its invitation's link leads there); the
        hall's listing puts every process's together
        (:meth:`cardhall.server.cluster.views.HallViews.listing`). See :func:`people_playing` for
        which running games those are."""
        hosts = [h for h in self.hosts.values() if h.invitation is None]
        running = [h.summary() for h in hosts if h.row.status == "playing"]
        return {
            "open": [h.summary() for h in hosts if h.row.status == "waiting"],
            "running": [summary for summary in running if people_playing(summary)],
        }

    def _hold(self, host: TableHost) -> None:
        self.hosts[host.id] = host
        if host.row.owner_id is not None:
            self._owned.setdefault(host.row.owner_id, set()).add(host.id)

    def ended(self, host: TableHost) -> None:
        """``host``'s status changed: note it when its match is over (then forget_finished sees it)."""
        if host.row.status in ENDED:
            self.finished.add(host.id)

    def forget_finished(self) -> None:
        """Drop from memory every ended table nobody is connected to (see :meth:`ended`)."""
        for table_id in list(self.finished):
            host = self.hosts.get(table_id)
            if host is None or host.row.status not in ENDED:
                self.finished.discard(table_id)  # (gone another way, or not ended after all)
            elif not host.listeners:
                self.finished.discard(table_id)
                del self.hosts[table_id]
                self.ctx.spawn(host.retire())  # (after what its owner task is doing now)

    async def create(
        self,
        owner: PlayerRow | None,
        game_text: object,
        settings: Mapping[str, object] | None = None,
        bots: Mapping[int, str] | None = None,
        people: Mapping[int, PlayerRow] | None = None,
        rematch_of: str | None = None,
        address: str | None = None,
        invitation: str | None = None,
        owner_checked: bool = False,
        seed: int | None = None,
        play_now: str | None = None,
    ) -> TableHost:
        """A new table: ``bots`` seats bots (by bot string) and ``people`` seats people at once;
        ``invitation``: a private table's (:mod:`cardhall.server.relations`), held from its first
        moment and stored with its row, so it is never listed nor joined without it.
        ``owner`` (a player: every table but the server's own) is held to the rules of the module's
        docstring, ``address`` (his client's) to its rates (``owner_checked``: they were, when he
        offered to play again). ``seed``: the deals' (an event's round deals the same cards at every
        table: :mod:`cardhall.server.events`); drawn at random when None. ``play_now``: the pool of
        Play now that made it (stored with it: :mod:`cardhall.server.playnow`)."""
        try:
            game = load_game(game_text if isinstance(game_text, str) else "")
            if not isinstance(game_text, str):
                raise InvalidOptionError(f"a game string is text, got {game_text!r}")
            bounds.check(game)
            checked = table_settings(settings, private=invitation is not None)
        except CardhallError as e:
            raise ProtocolError("bad_game", str(e)) from None
        seats = [SeatRow(s) for s in range(game.num_players)]
        for seat, spec in (bots or {}).items():
            seats[self._seat(game.num_players, seat)] = SeatRow(seat, SeatKind.BOT, spec, None, spec)
        for seat, player in (people or {}).items():
            seats[self._seat(game.num_players, seat)] = SeatRow(
                seat, SeatKind.PERSON, player.name, player.id, guest=player.guest
            )
        if owner is not None and not owner_checked:
            self._check_owner(owner, seats, address)
        row = TableRow(
            id=secrets.token_urlsafe(6),
            game=str(game),
            rules_version=game.rules_version,
            seed=secrets.randbelow(2**63) if seed is None else seed,
            settings=dict(checked),
            seats=seats,
            owner_id=None if owner is None else owner.id,
            rematch_of=rematch_of,
            node=self.ctx.node,
            play_now=play_now,
        )
        host = TableHost(self.ctx, row)
        host.invitation = invitation
        self._hold(host)
        try:
            await host.call(host.open)
        except BaseException:
            del self.hosts[row.id]  # (never stored: the store failed; its id in _owned is pruned)
            await host.stop()
            raise
        self.ctx.table_owned(row.id)
        return host

    def _check_owner(self, owner: PlayerRow, seats: list[SeatRow], address: str | None) -> None:
        """A player's new table: someone plays at it, he does not own too many waiting tables, and he
        is within his rates (checked last: a table refused for another reason costs no token)."""
        if all(s.kind == "bot" for s in seats):
            raise ProtocolError(
                "no_person", "a table of bots alone is not played here: leave a seat for a person"
            )
        limits = self.limiter.limits
        mine = [h.row.status for h in self.owned_by(owner.id) if h.row.owner_id == owner.id]
        waiting = mine.count(TableStatus.WAITING)
        unfinished = waiting + mine.count(TableStatus.PLAYING)
        cap = limits.waiting_tables_per_player
        if cap is not None and waiting >= cap and any(s.kind == "empty" for s in seats):
            raise ProtocolError(
                "too_many_tables",
                f"you have {waiting} tables waiting for players, the most one player may have: "
                "start or leave one first",
            )
        cap = limits.unfinished_tables_per_player
        if cap is not None and unfinished >= cap:
            raise ProtocolError(
                "too_many_tables",
                f"you have {unfinished} tables waiting or playing, the most one player may have: "
                "finish one first",
            )
        self.limiter.new_table(owner.id, address)

    def owned_by(self, owner_id: int) -> list[TableHost]:
        """The tables in memory that ``owner_id`` made (his ids of tables gone are dropped here)."""
        ids = self._owned.get(owner_id)
        if not ids:
            return []
        found = []
        for table_id in list(ids):
            host = self.hosts.get(table_id)
            if host is None:
                ids.discard(table_id)
            else:
                found.append(host)
        if not ids:
            del self._owned[owner_id]
        return found

    @staticmethod
    def _seat(players: int, seat: object) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ProtocolError("no_such_seat", f"seats are 0..{players - 1}, got {seat!r}")
        return seat

    async def quick_play(
        self,
        player: PlayerRow,
        game_text: object,
        level: object,
        settings: Mapping[str, object] | None = None,
        address: str | None = None,
    ) -> TableHost:
        try:
            bot = bot_for_level(level)
        except CardhallError as e:
            raise ProtocolError("bad_request", str(e)) from None
        try:
            players = load_game(game_text if isinstance(game_text, str) else "").num_players
        except CardhallError as e:
            raise ProtocolError("bad_game", str(e)) from None
        bots = {seat: bot for seat in range(1, players)}
        return await self.create(player, game_text, settings, bots, {0: player}, address=address)

    async def rematch(
        self,
        player: PlayerRow,
        table_id: str,
        ref: object = None,
        address: str | None = None,
        decline: bool = False,
    ) -> RematchFrame:
        """``player``'s ``rematch`` of ``table_id`` (or his ``decline``): an offer opened or answered,
        the new table made once everyone has (:mod:`cardhall.server.rematch`); the frame to reply."""
        made = self.rematches.answer_made(table_id, player, ref)
        if made is not None:
            return made
        # (an open offer holds its table, which may have left memory meanwhile: nobody was at it)
        offer = self.rematches.offers.get(table_id)
        old = offer.old if offer is not None else self.host(table_id, ref)
        if all(s.player_id != player.id for s in old.row.seats):
            raise ProtocolError("not_seated", f"you did not play at table {table_id}", ref)  # type: ignore[arg-type]
        check_over(old, ref)
        return await self.rematches.answer(
            old, player, decline, ref, address, lambda owner, at: self._check_owner(owner, old.row.seats, at)
        )

    async def _make_rematch(
        self,
        offer: Offer,
        owner: PlayerRow,
        bots: dict[int, str],
        people: dict[int, PlayerRow],
        invitation: str | None,
    ) -> TableHost:
        old = offer.old
        return await self.create(
            owner,
            old.row.game,
            old.row.settings,
            bots,
            people,
            rematch_of=old.id,
            address=offer.address,
            invitation=invitation,
            owner_checked=True,
        )
