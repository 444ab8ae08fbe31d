"""The lobby: the server's tables by id, creating them (from a game string, with bots by level), quick
play, play again with the same people, and bringing unfinished tables back after a restart.

Choices:

- A table id is 8 URL-safe random characters; a seed is drawn for each table (63 bits).
- Quick play seats the person at seat 0 of a new table and fills every other seat with a bot of the
  level asked for; the match starts at once.
- Play again (``rematch``) makes a new table with the same game, settings and seats (people and bots)
  once the match is over; its people are seated already and have ``away_seconds`` to join it. Asking
  twice gives the same new table.
- Finished and abandoned tables leave memory (their rows and records stay in the store).
- A restart brings back every waiting and playing table that replays under this server's rules; one
  that does not (another rules version, a gap in its actions, an action that is not legal) is kept as
  ``broken`` with the reason, and the server starts with the others.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping, Sequence

from cardhall.errors import CardhallError, InvalidOptionError
from cardhall.registry import load_game
from cardhall.server.host import Services, TableHost
from cardhall.server.protocol import ProtocolError
from cardhall.server.settings import bot_for_level, table_settings
from cardhall.store import ActionRow, PlayerRow, SeatRow, TableRow

log = logging.getLogger(__name__)


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


class Lobby:
    def __init__(self, ctx: Services) -> None:
        self.ctx = ctx
        self.hosts: dict[str, TableHost] = {}
        self._rematches: dict[str, str] = {}

    async def restore(self) -> int:
        """Bring back every waiting and playing table from the store; how many. A table that cannot
        be brought back (see :func:`restore_problem`, or its actions do not replay) is logged, kept
        in the store as ``broken`` with the reason, and skipped: the others are served."""
        for row, actions in await self.ctx.store.unfinished():
            problem = restore_problem(row, actions)
            host = None
            if problem is None:
                host = TableHost(self.ctx, row)
                try:
                    host.restore([(a.seat, a.action) for a in actions])
                except Exception as e:
                    problem = f"its stored actions do not replay: {type(e).__name__}: {e}"
                    await host.stop()
                    host = None
            if host is not None:
                self.hosts[row.id] = host
                continue
            log.error("table %s cannot be brought back: %s", row.id, problem)
            try:
                await self.ctx.store.mark_broken(row.id, str(problem))
            except Exception:
                log.exception("table %s: marking it broken failed (tried again at the next start)", row.id)
        return len(self.hosts)

    async def stop(self) -> None:
        for host in list(self.hosts.values()):
            await host.stop()
        self.hosts.clear()

    def host(self, table_id: object, ref: object = None) -> TableHost:
        host = self.hosts.get(table_id) if isinstance(table_id, str) else None
        if host is None:
            raise ProtocolError("no_such_table", f"no open or running table {table_id!r}", ref)  # type: ignore[arg-type]
        return host

    def listing(self) -> dict[str, list[dict[str, object]]]:
        """Open tables (seats to take) and running games, for the lobby."""
        hosts = list(self.hosts.values())
        return {
            "open": [h.summary() for h in hosts if h.row.status == "waiting"],
            "running": [h.summary() for h in hosts if h.row.status == "playing"],
        }

    def forget_finished(self) -> None:
        for table_id, host in list(self.hosts.items()):
            if host.row.status in ("finished", "abandoned") and not host.listeners:
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
    ) -> TableHost:
        """A new table: ``bots`` seats bots (by bot string) and ``people`` seats people at once."""
        try:
            game = load_game(game_text if isinstance(game_text, str) else "")
            if not isinstance(game_text, str):
                raise InvalidOptionError(f"a game string is text, got {game_text!r}")
            checked = table_settings(settings)
        except CardhallError as e:
            raise ProtocolError("bad_game", str(e)) from None
        seats = [SeatRow(s) for s in range(game.num_players)]
        for seat, spec in (bots or {}).items():
            seats[self._seat(game.num_players, seat)] = SeatRow(seat, "bot", spec, None, spec)
        for seat, player in (people or {}).items():
            seats[self._seat(game.num_players, seat)] = SeatRow(seat, "person", player.name, player.id)
        row = TableRow(
            id=secrets.token_urlsafe(6),
            game=str(game),
            rules_version=game.rules_version,
            seed=secrets.randbelow(2**63),
            settings=dict(checked),
            seats=seats,
            owner_id=None if owner is None else owner.id,
            rematch_of=rematch_of,
        )
        host = TableHost(self.ctx, row)
        self.hosts[row.id] = host
        try:
            await host.call(host.open)
        except BaseException:
            del self.hosts[row.id]  # (never stored: the store failed)
            await host.stop()
            raise
        return host

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
        return await self.create(player, game_text, settings, bots, {0: player})

    async def rematch(self, player: PlayerRow, table_id: str, ref: object = None) -> TableHost:
        known = self.hosts.get(self._rematches.get(table_id, ""))
        # (the old table may have left memory already: the new one has the same people)
        old = known if known is not None else self.host(table_id, ref)
        if all(s.player_id != player.id for s in old.row.seats):
            raise ProtocolError("not_seated", f"you did not play at table {table_id}", ref)  # type: ignore[arg-type]
        if known is not None:
            return known
        if old.row.status != "finished":
            raise ProtocolError("not_over", f"the match at table {table_id} is not over", ref)  # type: ignore[arg-type]
        bots = {s.seat: s.bot for s in old.row.seats if s.kind == "bot" and s.bot}
        ids = [s.player_id for s in old.row.seats if s.kind == "person" and s.player_id is not None]
        found = await self.ctx.store.players(ids)
        people = {s.seat: found[s.player_id] for s in old.row.seats if s.player_id in found}
        host = await self.create(player, old.row.game, old.row.settings, bots, people, rematch_of=table_id)
        self._rematches[table_id] = host.id
        old.send_all(
            {
                "type": "rematch",
                "table": table_id,
                "n": 0 if old.table is None else old.table.number,
                "new": host.id,
            }
        )
        return host
