"""What every part of the server shares: the store, the group committer, the watch over a store that
fails, the lobby, the bot tier where bots that search think (:mod:`cardhall.bot_tier`: the server's
own worker processes, or ``cardhall bots`` workers over Redis), the ratings update, the rates per
person and per address, the reviews of finished matches, the operator's token, and this process's
place in its hall: :attr:`ServerContext.hall` (:mod:`cardhall.server.hall`: the embedded default's
one process, whose tables are all its own, or one process of a hall of many). Opened and closed by
the application's lifespan.

The context depends on the hall's interfaces only (:mod:`cardhall.server.hall`), never on the hall's
modules (:mod:`cardhall.server.cluster`), which depend on it through :class:`~cardhall.server.hall.Server`."""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Collection, Coroutine, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from cardhall.bot_tier import REVIEW, BotTier, InProcessTier
from cardhall.core import Game
from cardhall.review import DEFAULT_BUDGET
from cardhall.server import ratings
from cardhall.server.collector import ShortPauses
from cardhall.server.committer import COMMIT_SPACING, Committer
from cardhall.server.events.service import EventsService
from cardhall.server.hall import OneProcessOptions, Options, Place
from cardhall.server.host.seated import SeatIndex
from cardhall.server.lobby import Lobby
from cardhall.server.outage import StoreWatch
from cardhall.server.pacing import Pacing
from cardhall.server.playnow import PlayNow
from cardhall.server.rates import Limiter, Limits
from cardhall.server.relations import Relations
from cardhall.server.reviews import Reviews
from cardhall.server.sessions import Attached
from cardhall.store import Store
from cardhall.store.rows import RatingRequest

if TYPE_CHECKING:
    from cardhall.server.host import TableHost

log = logging.getLogger(__name__)
CHECKPOINT_SECONDS = 1.0
# When set, the server writes its bot tier's statistics (how moves were answered, the budgets granted)
# to this file as it stops: the load benchmark's workload (c) reads what "hard" got under load.
BOT_STATS_VARIABLE = "CARDHALL_BOT_STATS"


class ServerContext:
    def __init__(
        self,
        store: Store,
        bot_workers: int = 1,
        limits: Limits | None = None,
        admin_token: str | None = None,
        review_budget: int | None = None,
        bots_url: str | None = None,
        hall: Options | None = None,
    ) -> None:
        self.store = store
        self.committer = Committer(store, COMMIT_SPACING)
        self.store_watch = StoreWatch(store)
        self.limiter = Limiter(limits)
        self.seated = SeatIndex()  # who plays at which table here (kept by the tables; Play now reads it)
        self.lobby = Lobby(self, self.limiter)
        budget = DEFAULT_BUDGET if review_budget is None else review_budget
        # Reviews are the tier's offline jobs when its workers are their own (on Redis); see reviews.py.
        self.reviews = Reviews(store, budget, runner=self._review_on_tier if bots_url else None)
        self.social = Relations(store, self.limiter)  # private tables, bans, blocks; its .presence
        self.admin_token = admin_token  # None: no admin routes (never logged)
        self.bot_workers = bot_workers
        self.bots_url = bots_url  # None: the tier is this server's own bot_workers processes
        self._bot_tier: BotTier | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.collector = ShortPauses()
        self.pacing = Pacing()  # the bots' paces: one loop timer per pace, not per move
        self.lobby_version = 0  # bumped whenever the lobby's listing changes
        # The hall this process is in (the embedded default: one process, its seams in memory).
        self.hall_options: Options = hall if hall is not None else OneProcessOptions()
        self.node: str | None = self.hall_options.node  # its name in the tables' rows (None: one process)
        self.fencing = self.hall_options.fencing  # every write carries the owner's fence

        # Every open websocket connection that said hello (a session signed out closes those that
        # used it: accounts.py).
        self.connections: set[Attached] = set()
        self.hall: Place = self.hall_options.place(self)  # (last: it may read any of the above)
        # Play now (issue 49): the hall's queue and this process's waves of it.
        self.play_now = PlayNow(self, self.hall_options.seekers(), self.hall_options.name)
        self.lobby.play_now_adopted = self.play_now.adopted  # (its tables brought back offer seats)
        # Tournaments (issue 50): the events this process directs, and its followers of standings.
        self.events = EventsService(self)

    async def _review_on_tier(self, payload: dict[str, Any]) -> dict[str, Any]:
        result: dict[str, Any] = await self.bot_tier.job(REVIEW, payload)
        return result

    @property
    def bot_tier(self) -> BotTier:
        """Where searching bots think (made at the first search): ``bot_workers`` processes of this
        server, or the workers behind ``bots_url``."""
        if self._bot_tier is None:
            if self.bots_url:
                from cardhall.bot_tier.redis_tier import RedisTier

                self._bot_tier = RedisTier(self.bots_url)
            else:
                self._bot_tier = InProcessTier(self.bot_workers)
        return self._bot_tier

    async def start(self) -> None:
        self.committer.start()
        invitations = await self.store.open_private_tables()  # (read first: see Relations.restore)
        await self.hall.start()  # (the tables this process holds come back: all, or by their leases)
        self.social.restore(self.lobby.hosts.values(), invitations)
        self.collector.start()
        self.play_now.start()
        await self.events.start()
        self.spawn(self._checkpoints())

    async def stop(self) -> None:
        await self.collector.stop()
        await self.events.stop()
        await self.play_now.stop()
        await self.hall.stop()
        await self.lobby.stop()
        self.pacing.close()
        await self.store_watch.stop()
        await self.committer.stop()
        await self.reviews.stop()
        for task in list(self._tasks):
            task.cancel()
        if self._bot_tier is not None:
            stats_file = os.environ.get(BOT_STATS_VARIABLE)
            if stats_file:
                with open(stats_file, "w", encoding="utf-8") as f:
                    json.dump(self._bot_tier.stats(), f)
            await self._bot_tier.close()
        await self.store.close()

    async def _checkpoints(self) -> None:
        """The store's housekeeping, every second, off the path of the commits."""
        while True:
            await asyncio.sleep(CHECKPOINT_SECONDS)
            try:
                await self.store.checkpoint()
            except Exception:
                log.exception("checkpoint failed")

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` in the background, keeping a reference until it ends."""
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def table_lost(self, table_id: str) -> None:
        """A write found ``table_id`` taken by another process (many processes only)."""
        self.hall.lost(table_id)

    def table_owned(self, table_id: str) -> None:
        """A table made here was stored: this process holds it (its lease, in a hall of many)."""
        self.hall.took(table_id)

    def lobby_changed(self, host: TableHost | None = None) -> None:
        """The lobby's listing changed (``host``'s seats or status, when it says which table)."""
        self.lobby_version += 1
        if host is not None:
            self.lobby.ended(host)
            self.events.table_changed(host.id, host.row.status in ("finished", "abandoned"))
        self.lobby.forget_finished()

    def rating(
        self, game: Game, players: Sequence[int | None], scores: Sequence[int], absent: Collection[int] = ()
    ) -> RatingRequest | None:
        """The rating update of a finished match (see :mod:`cardhall.server.ratings`; ``absent``: the
        seats a stand-in played), which the store does in the transaction that stores the match's end."""
        now = datetime.now(UTC)
        return ratings.request(game.name, players, scores, game.lowest_score_wins, now, absent)
