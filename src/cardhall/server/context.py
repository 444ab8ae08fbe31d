"""What every part of the server shares: the store, the group committer, the watch over a store that
fails, the lobby, the worker processes for bots that search, the ratings update, the rates per person
and per address, the operator's token, and (a hall on many processes) this process's place in it:
:attr:`ServerContext.cluster` (None: the one process of the embedded default, whose tables are all
its own). Opened and closed by the application's lifespan."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any

from cardhall.core import Game
from cardhall.server import ratings
from cardhall.server.collector import ShortPauses
from cardhall.server.committer import Committer
from cardhall.server.lobby import Lobby
from cardhall.server.outage import StoreWatch
from cardhall.server.rates import Limiter, Limits
from cardhall.store import RatingRow, Store

if TYPE_CHECKING:
    from cardhall.server.cluster import ClusterOptions, Member

log = logging.getLogger(__name__)
CHECKPOINT_SECONDS = 1.0


class ServerContext:
    def __init__(
        self,
        store: Store,
        bot_workers: int = 1,
        limits: Limits | None = None,
        admin_token: str | None = None,
        cluster: ClusterOptions | None = None,
    ) -> None:
        self.store = store
        self.committer = Committer(store)
        self.store_watch = StoreWatch(store)
        self.limiter = Limiter(limits)
        self.lobby = Lobby(self, self.limiter)
        self.admin_token = admin_token  # None: no admin routes (never logged)
        self.bot_workers = bot_workers
        self._bot_pool: ProcessPoolExecutor | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.collector = ShortPauses()
        self.lobby_version = 0  # bumped whenever the lobby's listing changes
        self.node: str | None = None if cluster is None else cluster.node
        self.fencing = cluster is not None  # every write carries the owner's fence
        self.cluster: Member | None = None  # (set by the application: cardhall.server.cluster.node)

    @property
    def bot_pool(self) -> ProcessPoolExecutor:
        """Worker processes for searching bots, started at the first search."""
        if self._bot_pool is None:
            self._bot_pool = ProcessPoolExecutor(max_workers=self.bot_workers)
        return self._bot_pool

    async def start(self) -> None:
        self.committer.start()
        if self.cluster is not None:
            await self.cluster.start()  # (its leases bring back the tables nobody holds)
        else:
            restored = await self.lobby.restore()
            if restored:
                log.info("brought back %d unfinished tables", restored)
        self.collector.start()
        self.spawn(self._checkpoints())

    async def stop(self) -> None:
        await self.collector.stop()
        if self.cluster is not None:
            await self.cluster.stop()
        await self.lobby.stop()
        await self.store_watch.stop()
        await self.committer.stop()
        for task in list(self._tasks):
            task.cancel()
        if self._bot_pool is not None:
            self._bot_pool.shutdown(wait=False, cancel_futures=True)
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
        if self.cluster is not None:
            self.cluster.lost(table_id)

    def table_owned(self, table_id: str) -> None:
        """A table made here was stored: this process holds its lease."""
        if self.cluster is not None:
            self.cluster.took(table_id)

    def lobby_changed(self) -> None:
        self.lobby_version += 1
        self.lobby.forget_finished()

    async def rate(self, game: Game, players: Sequence[int | None], scores: Sequence[int]) -> list[RatingRow]:
        """The new ratings of the people of a finished match (see :mod:`cardhall.server.ratings`)."""
        people = [p for p in players if p is not None]
        if not people:
            return []
        pool = "people" if len(people) == len(players) else "bots"
        current = await self.store.ratings(game.name, pool, people)
        return ratings.update(game.name, pool, players, scores, game.lowest_score_wins, current)
