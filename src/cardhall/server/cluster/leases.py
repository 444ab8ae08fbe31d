"""Table ownership across processes: each server process holds one lease in the store (its ``nodes``
row, renewed by it), and an open table is owned by the process its row names (``node``) while that
process's lease runs; another process takes the table over (raising its ``fence``) when it does not.

Choices:

- **The lease is in the store (PostgreSQL), not in Redis.** The fence must be checked in the same
  transaction as the writes it guards (:meth:`~cardhall.store.Store.append_actions` reads the row's
  fence ``FOR SHARE`` before inserting; a seat change or a match's end is an upsert conditional on
  it); taking a table and raising its fence is one ``UPDATE`` of its row, checked against the
  owner's lease in the same statement, so there is no moment when Redis says one owner and the
  store another, and a Redis outage never moves a table. Time is the database's clock, never a
  machine's.
- **One lease per process, not per table.** Renewing is one row written and the ids of the
  process's tables read, whatever their number; no table's row is written or locked. (A lease in
  each table's row made a renewal update and lock every row of its process, and the group commit's
  fence checks, share locks on those rows, waited behind it: ``benchmarks/load.md``, ninth session.)
  A process's tables move together, which they did anyway: one renewal renewed them all.
  The lease is held before the process serves anything (:meth:`LeaseKeeper.start`), and a claim
  renews it in the claim's own transaction, so a table made or taken here is this process's from
  its first moment.
- **The floor of a failover** (a dead owner's table accepting actions again) is the lease
  (:data:`~cardhall.store.LEASE_SECONDS`, 2 s), less the time since its owner's last renewal, plus
  the wait for the next sweep (:data:`SWEEP_SECONDS`) and the restore. How short each may be:
  **the fence, not the clock, is what keeps a stale owner from writing**, so no length of lease is
  unsafe for the record; a short lease only moves the tables of an owner that is alive but could
  not renew for that long (its event loop held up, the store slow to answer) when it need not have.
  Renewals come every :data:`RENEW_SECONDS` (a quarter of the lease: three in a row can fail, or
  come late, before it runs out; they are one row a process, so four a lease cost little), from a
  task of their own, so that a sweep restoring many tables it took never holds them up. A new table
  is its maker's for no longer than its maker's lease runs (a table of a process cut off from the
  store right after making it is free once that lease runs out). A sweep every :data:`SWEEP_SECONDS`
  is a read (:meth:`~cardhall.store.Store.expired`), not a write, and takes (``claim``, one
  ``UPDATE``) only when it found something. It reads by index only the tables of no process and of
  processes whose lease ran out, however many tables the live ones hold (a table's ``node`` refers
  to its process's lease row): read in full, every process's sweeps grew with the hall's tables.
- A sweep takes at most :data:`CLAIM_LIMIT` tables at a time (``FOR UPDATE SKIP LOCKED``: the
  survivors of a dead process share its tables rather than queue on them), the tables that
  connections of this process are at first (``prefer``), then the oldest. It restores them from the
  store (dealt again and replayed, as a restart does) with their actions read in one query, those
  with people connected here first, then those whose people are online here, then the rest:
  tables whose people are gone (their matches wait for a person who left) never hold up the
  people who are there.
- A table missing from a renewal's answer whose row names another process was taken by it (its
  lease had run out: the owner was paused, or cut off from the store): the owner drops it at once (no
  timers, no bots), and its writes would be refused anyway. Missing from the answer alone is not
  enough: a renewal also skips a table whose match has just ended here (its end stored, its host not
  yet told), so the row is read first.
- **An outage every process sees moves no table** (issue 47: PostgreSQL stopped for 5 s, longer than
  a lease, and the first process to reach it again took the others' tables, which had died no more
  than it had). A process whose renewal failed takes nothing until it has renewed again and then a
  whole lease has passed (:meth:`LeaseKeeper.may_claim`): every other process that is alive renews
  within that time (a renewal every :data:`RENEW_SECONDS`), and what is still lapsed after it belongs
  to a process that did not come back. The price: the tables of a process that died during an outage
  move a lease later.
- A process that stops (SIGTERM: a rolling restart) finishes the work its tables hold, releases its
  leases (its tables' ``node`` cleared, its lease deleted) and says so on the bus: the others take
  its tables at once, not after the lease.
- A restart of the whole hall: the first processes up take the tables nobody holds, at
  :data:`CLAIM_LIMIT` a sweep, so those that start together share them.
- Tables whose people left are not parked: a person's ``away_seconds`` (20 s by default) after his
  last connection dropped, his seat's stand-in bot plays on, so such a match ends by itself, and a
  table holds a process's memory and a share of every takeover's restore only that long.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Collection, Sequence

from cardhall.server import metrics
from cardhall.server.stopping import cancel_and_wait
from cardhall.store import LEASE_SECONDS, Store, TableRow

log = logging.getLogger(__name__)

__all__ = ["CLAIM_LIMIT", "LEASE_SECONDS", "RENEW_SECONDS", "SWEEP_SECONDS", "LeaseKeeper"]

RENEW_SECONDS = LEASE_SECONDS / 4
SWEEP_SECONDS = 0.25
CLAIM_LIMIT = 50
EXPIRED_LOOK = 1000  # how many free tables a sweep looks at to find those wanted here


class LeaseKeeper:
    """Keeps the leases of one process (``node``): ``owned`` are the ids of the tables it holds;
    ``adopt(rows)`` is given the tables it takes, ``lose(table_id)`` each table it holds no more
    (whether it was taken: False for one that finished here); ``wanted()`` names the tables that
    connections of this process are at (taken first when free)."""

    def __init__(
        self,
        store: Store,
        node: str,
        adopt: Callable[[Sequence[TableRow]], Awaitable[None]],
        lose: Callable[[str], bool],
        lease_seconds: float = LEASE_SECONDS,
        wanted: Callable[[], Collection[str]] = tuple,
    ) -> None:
        self.store = store
        self.node = node
        self.adopt = adopt
        self.lose = lose
        self.wanted = wanted
        self.lease_seconds = lease_seconds
        self.owned: set[str] = set()
        self._tasks: list[asyncio.Task[None]] = []
        self._sweep_now = asyncio.Event()
        self.renewed_at = 0.0  # time.monotonic() of the last renewal that worked
        # time.monotonic() before which nothing is taken: set after a renewal failed (module docstring)
        self.claims_from = 0.0
        self._renewal_failed = False

    async def start(self) -> None:
        """Hold this process's lease before anything else (a table made here is its own only while it
        runs), then renew it and sweep for free tables in the background."""
        await self._renew()
        self._tasks = [
            asyncio.create_task(self._renewals(), name=f"lease renewals of {self.node}"),
            asyncio.create_task(self._sweeps(), name=f"lease sweeps of {self.node}"),
        ]

    def sweep_soon(self) -> None:
        """Look for tables to take now (another process released its own)."""
        self._sweep_now.set()

    def took(self, table_id: str) -> None:
        """A table this process made: it holds its lease from its first write."""
        self.owned.add(table_id)
        metrics.LEASES.labels("taken").inc()

    def dropped(self, table_id: str) -> None:
        """A table finished or abandoned here: no lease to keep."""
        self.owned.discard(table_id)

    async def stop(self) -> None:
        await cancel_and_wait(self._tasks)
        self._tasks = []

    async def release(self) -> None:
        """Give up every lease now (the process stops)."""
        try:
            await self.store.release(self.node)
        except Exception as e:
            log.warning("releasing the leases of %s failed (they run out instead): %s", self.node, e)
            return
        metrics.LEASES.labels("released").inc(len(self.owned))
        self.owned.clear()

    async def _renewals(self) -> None:
        # A task of its own: a sweep restoring many tables it took (each replayed on this loop) never
        # holds up the renewal of the tables held already.
        started = time.monotonic()  # (the first renewal was start's)
        while True:
            await asyncio.sleep(max(0.0, RENEW_SECONDS - (time.monotonic() - started)))
            started = time.monotonic()
            await self._renew()

    async def _sweeps(self) -> None:
        while True:
            await self._claim()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._sweep_now.wait(), SWEEP_SECONDS)
            self._sweep_now.clear()

    async def _renew(self) -> None:
        # What was held when the renewal went out: a table made or taken while it was on its way is
        # not in its answer, and not lost.
        before = set(self.owned)
        try:
            held = await self.store.renew(self.node, self.lease_seconds)
        except Exception as e:
            log.warning("renewing the leases of %s failed: %s", self.node, e)
            self._renewal_failed = True
            return
        self.renewed_at = time.monotonic()
        if self._renewal_failed:  # (back from an outage: the others renew too before anything is taken)
            self._renewal_failed = False
            self.claims_from = self.renewed_at + self.lease_seconds
            log.warning(
                "%s renewed its lease after an outage: it takes no table for %.1f s, while the other "
                "processes renew theirs",
                self.node,
                self.lease_seconds,
            )
        missing = sorted((before & self.owned) - held)
        if missing:
            await self._confirm_lost(missing)

    async def _confirm_lost(self, table_ids: Sequence[str]) -> None:
        """Tables held here that a renewal did not renew: each is lost only when its row names another
        process. A renewal skips a table whose match ended here (its end was stored while its host,
        on this loop, had not yet noted it: dropping it then cancelled the move that ended the match,
        and its frames never went out) or whose row changed under it; those stay this process's."""
        rows = {}
        for table_id in table_ids:
            try:
                rows[table_id] = await self.store.table(table_id)
            except Exception as e:
                log.warning(
                    "reading the lease of table %s failed (asked again next renewal): %s", table_id, e
                )
                return
        for table_id, row in rows.items():
            if table_id not in self.owned:
                continue  # (dropped meanwhile)
            if row is not None and row.node == self.node:
                if not row.status.is_open:
                    self.owned.discard(table_id)  # (its match ended here: no lease to keep)
                continue
            self.owned.discard(table_id)
            if self.lose(table_id):
                log.warning("table %s: its lease was taken by another process", table_id)
                metrics.LEASES.labels("lost").inc()

    def may_claim(self) -> bool:
        """Whether this process may take tables now: its last renewal worked, and if one failed before
        it, a whole lease has passed since (the module's docstring: an outage every process sees)."""
        return not self._renewal_failed and time.monotonic() >= self.claims_from

    async def _claim(self) -> None:
        if not self.may_claim():
            return
        try:
            free = await self.store.expired(EXPIRED_LOOK)
            if not free:
                return
            wanted = self.wanted()
            prefer = [t for t in free if t in wanted]
            rows = await self.store.claim(self.node, self.lease_seconds, CLAIM_LIMIT, prefer)
        except Exception as e:
            log.warning("looking for tables to take failed: %s", e)
            return
        if not rows:
            return
        log.warning("%s takes %d tables: %s", self.node, len(rows), ", ".join(r.id for r in rows))
        for row in rows:
            self.owned.add(row.id)
        metrics.LEASES.labels("taken").inc(len(rows))
        await self.adopt(rows)
