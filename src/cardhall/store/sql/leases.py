"""The leases of the SQL store (:class:`~cardhall.store.leases.Leases`): one row a process in ``nodes``
(its lease, until a time of the database's clock), a table's ``node`` the process that owns it, its
``fence`` raised by each takeover. Claims choose the free tables ``FOR UPDATE SKIP LOCKED``, so two
processes claiming at once take different tables and neither waits; a renewal writes one row whatever
the tables, so the group commit's fence checks never wait for it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Double, Integer, Text, bindparam, case, exists, literal_column, select
from sqlalchemy.sql.dml import Insert

from cardhall.store.leases import Leases
from cardhall.store.rows import TableRow
from cardhall.store.sql.connection import SqlBase
from cardhall.store.sql.dialect import Dialect
from cardhall.store.sql.schema import NODES, TABLES, UNFINISHED
from cardhall.store.sql.tables import table_row


class _Leasing:
    """The statements a process runs several times a second to keep its lease (a renewal every half
    second, a sweep every quarter), made once per store and run with parameters. Made anew for each
    call, each statement's SQLAlchemy expressions left a few reference cycles behind (an expression and
    its comparator refer to each other): garbage that only the collector frees, so the server's
    collector clock (:mod:`cardhall.server.collector`) never went quiet on PostgreSQL and scanned
    everything young four times a second (``benchmarks/load.md``, twelfth session)."""

    def __init__(self, dialect: Dialect) -> None:
        now = dialect.now
        insert = dialect.insert(NODES)
        until: Any = literal_column(now) + bindparam("seconds", type_=Double)
        self.upsert = insert.values(name=bindparam("node"), lease_until=until).on_conflict_do_update(
            index_elements=["name"], set_={"lease_until": until}
        )
        self.held = select(TABLES.c.id).where(
            TABLES.c.node == bindparam("node"), TABLES.c.status.in_(UNFINISHED)
        )
        # The sweep: the processes whose lease ran out (a few names, most often none), then the
        # unfinished tables with no node or one of those, found by the (node, status) index. In one
        # statement (``node IN (SELECT ...)``) PostgreSQL read every unfinished table instead, not
        # knowing how few the names would be (see SqlLeases._free).
        self.lapsed = select(NODES.c.name).where(NODES.c.lease_until < literal_column(now))
        self.expired = (
            select(TABLES.c.id)
            .where(
                TABLES.c.status.in_(UNFINISHED),
                TABLES.c.node.is_(None) | TABLES.c.node.in_(bindparam("lapsed", type_=Text, expanding=True)),
            )
            .order_by(TABLES.c.created_at)
            .limit(bindparam("limit", type_=Integer))
        )


class SqlLeases(SqlBase, Leases):
    _leasing_statements: _Leasing | None = None  # (see _leasing)

    def _alive(self) -> Any:
        """The condition that a table's ``node`` holds a lease running now (by the database's clock)."""
        return exists().where(
            NODES.c.name == TABLES.c.node, NODES.c.lease_until >= literal_column(self.dialect.now)
        )

    def _free(self) -> Any:
        """An unfinished table whose ``node`` holds no lease running now: no node, or one whose lease
        ran out. A table's node always has its row in ``nodes`` (a foreign key; a deleted row clears
        it), so this is ``_alive`` negated. The sweep (``_Leasing.expired``) asks the same with the
        lapsed processes' names read first, so that the ``(node, status)`` index finds these tables
        without reading the others: every process sweeps four times a second, and comparing every
        unfinished table's node with the live ones cost PostgreSQL 1.5 ms at 10,000 tables and
        10.8 ms at 100,000 a sweep (``benchmarks/load.md``, thirteenth session)."""
        lapsed = self._leasing().lapsed
        return TABLES.c.status.in_(UNFINISHED) & (TABLES.c.node.is_(None) | TABLES.c.node.in_(lapsed))

    def _lease(self, node: str, seconds: float) -> tuple[Insert, dict[str, Any]]:
        """The upsert of ``node``'s lease to ``seconds`` from now, with its parameters."""
        return self._leasing().upsert, {"node": node, "seconds": seconds}

    def _leasing(self) -> _Leasing:
        if self._leasing_statements is None:
            self._leasing_statements = _Leasing(self.dialect)
        return self._leasing_statements

    async def expired(self, limit: int) -> list[str]:
        leasing = self._leasing()
        async with self._reading() as c:
            lapsed = list((await c.execute(leasing.lapsed)).scalars())
            return [r.id for r in await c.execute(leasing.expired, {"lapsed": lapsed, "limit": limit})]

    async def claim(
        self, node: str, seconds: float, limit: int, prefer: Sequence[str] = ()
    ) -> list[TableRow]:
        """One ``UPDATE``: the free tables are chosen ``FOR UPDATE SKIP LOCKED`` (two processes
        claiming at once take different tables, neither waits), and the outer condition is checked
        again on the locked rows; ``node``'s lease is renewed in the same transaction (the tables it
        takes are its own from their first moment)."""
        free = self._free()
        order: list[Any] = [TABLES.c.created_at]
        if prefer:
            order.insert(0, case((TABLES.c.id.in_(list(prefer)), 0), else_=1))
        # A CTE: evaluated once (PostgreSQL may run a subquery of ``IN`` more than once, each time
        # skipping the rows the last run locked, and so take more than ``limit`` tables).
        chosen = (
            select(TABLES.c.id)
            .where(free)
            .order_by(*order)
            .limit(limit)
            .with_for_update(skip_locked=True, of=TABLES)
            .cte("chosen")
        )
        query = (
            TABLES.update()
            .where(TABLES.c.id.in_(select(chosen.c.id)), free)
            .values(node=node, fence=TABLES.c.fence + 1)
            .returning(*TABLES.c)
        )
        async with self._writing() as c:
            await c.execute(*self._lease(node, seconds))
            return [table_row(r) for r in await c.execute(query)]

    async def renew(self, node: str, seconds: float) -> set[str]:
        """One row written (the process's lease) and the ids of its tables read: no table's row is
        written or locked, so the group commit's fence checks (share locks on those rows) never wait
        for a renewal."""
        async with self._writing() as c:
            await c.execute(*self._lease(node, seconds))
            return {r.id for r in await c.execute(self._leasing().held, {"node": node})}

    async def release(self, node: str, table_ids: Sequence[str] | None = None) -> None:
        query = TABLES.update().where(TABLES.c.node == node).values(node=None)
        if table_ids is not None:
            query = query.where(TABLES.c.id.in_(list(table_ids)))
        async with self._writing() as c:
            await c.execute(query)
            if table_ids is None:
                await c.execute(NODES.delete().where(NODES.c.name == node))

    async def owner(self, table_id: str) -> str | None:
        query = select(TABLES.c.node).where(
            TABLES.c.id == table_id, TABLES.c.status.in_(UNFINISHED), self._alive()
        )
        async with self._reading() as c:
            row = (await c.execute(query)).first()
        return None if row is None else row.node
