"""Friends and blocks in the SQL store (:class:`~cardhall.store.social.Social`): every change of a
relation is one transaction that reads what is there first (see the interface's module); the tables are
:mod:`cardhall.store.sql.schema`'s social ones."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import and_, delete, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection

from cardhall.store.social import Social
from cardhall.store.sql.connection import SqlBase
from cardhall.store.sql.schema import SOCIAL


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


class SqlSocial(SqlBase, Social):
    async def _friends(self, c: AsyncConnection, a: int, b: int) -> bool:
        friends = SOCIAL["friends"]
        low, high = _pair(a, b)
        query = select(friends.c.low_id).where(friends.c.low_id == low, friends.c.high_id == high)
        return (await c.execute(query)).first() is not None

    async def _request_exists(self, c: AsyncConnection, sender: int, recipient: int) -> bool:
        requests = SOCIAL["requests"]
        query = select(requests.c.sender_id).where(
            requests.c.sender_id == sender, requests.c.recipient_id == recipient
        )
        return (await c.execute(query)).first() is not None

    async def _befriend(self, c: AsyncConnection, a: int, b: int) -> None:
        requests = SOCIAL["requests"]
        await c.execute(
            delete(requests).where(
                or_(
                    and_(requests.c.sender_id == a, requests.c.recipient_id == b),
                    and_(requests.c.sender_id == b, requests.c.recipient_id == a),
                )
            )
        )
        low, high = _pair(a, b)
        await c.execute(SOCIAL["friends"].insert().values(low_id=low, high_id=high, since=datetime.now(UTC)))

    async def _blocks(self, c: AsyncConnection, blocker: int, blocked: int) -> bool:
        blocks = SOCIAL["blocks"]
        query = select(blocks.c.blocker_id).where(
            blocks.c.blocker_id == blocker, blocks.c.blocked_id == blocked
        )
        return (await c.execute(query)).first() is not None

    async def request_friend(self, sender: int, recipient: int) -> str:
        """``sender`` asks ``recipient`` to be friends: ``requested`` (stored), ``accepted`` (he had
        asked first: they are friends now), ``pending`` (asked already), ``friends`` (they are), or
        ``blocked`` (the sender blocks the recipient: nothing stored). A request to someone who blocks
        the sender is stored as any other and answered ``requested`` (he is never told of the block,
        not even by his own list of requests sent); the recipient never sees it
        (:meth:`friend_requests`)."""
        async with self._writing() as c:
            if await self._blocks(c, sender, recipient):
                return "blocked"
            if await self._blocks(c, recipient, sender):
                if not await self._request_exists(c, sender, recipient):
                    await c.execute(
                        SOCIAL["requests"]
                        .insert()
                        .values(sender_id=sender, recipient_id=recipient, created_at=datetime.now(UTC))
                    )
                return "requested"
            if await self._friends(c, sender, recipient):
                return "friends"
            if await self._request_exists(c, recipient, sender):
                await self._befriend(c, sender, recipient)
                return "accepted"
            if await self._request_exists(c, sender, recipient):
                return "pending"
            await c.execute(
                SOCIAL["requests"]
                .insert()
                .values(sender_id=sender, recipient_id=recipient, created_at=datetime.now(UTC))
            )
            return "requested"

    async def answer_request(self, sender: int, recipient: int, accept: bool) -> bool:
        """``recipient`` accepts (or refuses) ``sender``'s request; False when there is none."""
        requests = SOCIAL["requests"]
        async with self._writing() as c:
            if not await self._request_exists(c, sender, recipient):
                return False
            if accept:
                await self._befriend(c, sender, recipient)
            else:
                await c.execute(
                    delete(requests).where(
                        requests.c.sender_id == sender, requests.c.recipient_id == recipient
                    )
                )
            return True

    async def _unfriend(self, c: AsyncConnection, a: int, b: int) -> bool:
        requests, friends = SOCIAL["requests"], SOCIAL["friends"]
        low, high = _pair(a, b)
        gone = await c.execute(delete(friends).where(friends.c.low_id == low, friends.c.high_id == high))
        asked = await c.execute(
            delete(requests).where(
                or_(
                    and_(requests.c.sender_id == a, requests.c.recipient_id == b),
                    and_(requests.c.sender_id == b, requests.c.recipient_id == a),
                )
            )
        )
        return bool(gone.rowcount or asked.rowcount)

    async def remove_friend(self, a: int, b: int) -> bool:
        """End the friendship of ``a`` and ``b``, or any request between them; False when none was."""
        async with self._writing() as c:
            return await self._unfriend(c, a, b)

    async def friends(self, player: int) -> list[int]:
        friends = SOCIAL["friends"]
        query = select(friends.c.low_id, friends.c.high_id).where(
            or_(friends.c.low_id == player, friends.c.high_id == player)
        )
        async with self._reading() as c:
            rows = (await c.execute(query)).all()
        return sorted(r.high_id if r.low_id == player else r.low_id for r in rows)

    async def are_friends(self, a: int, b: int) -> bool:
        async with self._reading() as c:
            return await self._friends(c, a, b)

    async def friend_requests(self, player: int) -> tuple[list[int], list[int]]:
        """The requests ``player`` received (their senders, but those he blocks) and sent (their
        recipients), oldest first."""
        requests, blocks = SOCIAL["requests"], SOCIAL["blocks"]
        query = (
            select(requests.c.sender_id, requests.c.recipient_id)
            .where(or_(requests.c.sender_id == player, requests.c.recipient_id == player))
            .order_by(requests.c.created_at)
        )
        blocked = select(blocks.c.blocked_id).where(blocks.c.blocker_id == player)
        async with self._reading() as c:
            rows = (await c.execute(query)).all()
            hidden = set((await c.execute(blocked)).scalars())
        incoming = [r.sender_id for r in rows if r.recipient_id == player and r.sender_id not in hidden]
        outgoing = [r.recipient_id for r in rows if r.sender_id == player]
        return incoming, outgoing

    async def block(self, blocker: int, blocked: int) -> None:
        """``blocker`` blocks ``blocked``: their friendship and every request between them end."""
        blocks = SOCIAL["blocks"]
        async with self._writing() as c:
            await self._unfriend(c, blocker, blocked)
            found = select(blocks.c.blocker_id).where(
                blocks.c.blocker_id == blocker, blocks.c.blocked_id == blocked
            )
            if (await c.execute(found)).first() is None:
                await c.execute(
                    blocks.insert().values(
                        blocker_id=blocker, blocked_id=blocked, created_at=datetime.now(UTC)
                    )
                )

    async def unblock(self, blocker: int, blocked: int) -> bool:
        blocks = SOCIAL["blocks"]
        async with self._writing() as c:
            result = await c.execute(
                delete(blocks).where(blocks.c.blocker_id == blocker, blocks.c.blocked_id == blocked)
            )
        return bool(result.rowcount)

    async def blocked_by(self, player: int) -> list[int]:
        """The people ``player`` blocks."""
        blocks = SOCIAL["blocks"]
        query = select(blocks.c.blocked_id).where(blocks.c.blocker_id == player).order_by(blocks.c.created_at)
        async with self._reading() as c:
            return [r.blocked_id for r in await c.execute(query)]

    async def blockers(self, player: int) -> list[int]:
        """The people who block ``player``."""
        blocks = SOCIAL["blocks"]
        query = select(blocks.c.blocker_id).where(blocks.c.blocked_id == player)
        async with self._reading() as c:
            return [r.blocker_id for r in await c.execute(query)]

    async def blocks(self, blocker: int, blocked: int) -> bool:
        """Whether ``blocker`` blocks ``blocked``."""
        blocks = SOCIAL["blocks"]
        query = select(blocks.c.blocker_id).where(
            blocks.c.blocker_id == blocker, blocks.c.blocked_id == blocked
        )
        async with self._reading() as c:
            return (await c.execute(query)).first() is not None
