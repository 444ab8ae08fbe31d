"""What the tables and connections ask about people who know each other (issue 25, part B): whether a
person may sit at or watch a private table, may talk, may be there at all (bans), and who should not
hear a chat line (blocks). The HTTP routes that change these relations are in
:mod:`cardhall.server.social`; presence (who is online) in :mod:`cardhall.server.presence`.

Choices:

- **A private table is reached by its invitation**, a 22-character random token (128 bits) in its
  link, ``/#invite/{table}/{invitation}``: the table id alone (48 bits, and shown to everyone at the
  table, in frames and in logs) does not open it. The token is in the link's fragment, which a
  browser never sends in a request, so it stays out of every access log.
- **Without the right invitation a private table does not exist**: a ``join`` or ``watch`` of it is
  refused ``no_such_table``, word for word as a table that does not exist, and so is one of a person
  its creator blocks, even with the link: neither a guessed id nor a blocked person learns that the
  table is there (a 403 would say so). Its seated people, its creator and anyone already at it need
  no invitation to come back.
- **Checks read the store** (a ban, a mute, a block), so they hold at once on every server process
  sharing the store, and nothing grows in memory; each is one indexed read per join or chat line.
- **A banned person** is refused at ``hello`` and at every route that asks who he is (``banned``),
  and his open connections are closed when the ban is given.
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from cardhall.server.presence import MemoryPresence, Presence
from cardhall.server.protocol import ProtocolError
from cardhall.server.rates import Limiter
from cardhall.store import PlayerRow, SeatKind, StoreUnavailableError

if TYPE_CHECKING:
    from cardhall.store import Store, TableRow


class HeldTable(Protocol):
    """What the checks here read of a table the server holds (a :class:`~cardhall.server.host.TableHost`;
    named by its parts, so this module needs nothing of the host package, which needs it)."""

    @property
    def id(self) -> str: ...

    invitation: str | None
    row: TableRow


log = logging.getLogger(__name__)

WS_BANNED = 4003  # close code of a connection whose player was banned (the 4000s are the application's)


def same(given: str | None, expected: str) -> bool:
    """Whether ``given`` is the invitation ``expected``, compared in constant time."""
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())


def _refuse_ban(player: int, reason: str | None, ref: Any) -> None:
    if reason is not None:
        log.warning("refused banned player %d (%s)", player, reason)
        raise ProtocolError("banned", f"this account is banned: {reason}", ref)


class Relations:
    def __init__(self, store: Store, limiter: Limiter, presence: Presence | None = None) -> None:
        self.store = store
        self.limiter = limiter  # the chat's rate, friend requests', invitations', reports'
        self.presence: Presence = presence if presence is not None else MemoryPresence()

    def restore(self, hosts: Iterable[HeldTable], invitations: dict[str, str]) -> None:
        """After a restart: the private tables brought back get their ``invitations`` (read before
        the tables came back, so nothing awaits between their return and this: no table moves, and
        no request is served, before each private one is private again)."""
        for host in hosts:
            host.invitation = invitations.get(host.id)

    async def invitations(self, table_ids: Iterable[str]) -> dict[str, str]:
        """The invitations of those of ``table_ids`` that are private (the store keeps them): what a
        process taking tables over from another gives them back with :meth:`restore`, so a private
        table stays private on its new owner. Raises when the store fails (then the tables are not
        taken: one brought back open to all would be reached without its invitation)."""
        ids = list(table_ids)
        return await self.store.private_tables(ids) if ids else {}

    # --- who may be here ------------------------------------------------------------------------

    async def refuse_banned(self, player: PlayerRow, ref: Any = None) -> None:
        """Refuse ``player`` if the store says he is banned now."""
        _refuse_ban(player.id, await self.store.banned(player.id), ref)

    @staticmethod
    def refuse_if_banned(player: PlayerRow, ref: Any = None) -> None:
        """Refuse ``player`` if his row, as a credential's lookup read it, says he is banned (a hello,
        a signed request: the ban came with the player, in the same query)."""
        _refuse_ban(player.id, player.banned, ref)

    async def check_table(self, host: HeldTable, player: PlayerRow, invitation: str | None, ref: Any) -> None:
        """``player`` may take a seat at (or watch) ``host``'s table: for a private table one of its
        people, its creator, or holding its invitation and not blocked by its creator (refused as a
        table that does not exist).

        Bans are not read here: ``hello`` refuses a banned player, and a ban closes every connection of
        his on every process (``presence.end``), so a connection that asks is one whose player was not
        banned when it said hello nor since. (Read at each join, the ban was one more query in every
        table's first steps: a sixth of the server's time while people arrived in numbers.)"""
        if host.invitation is None:
            return
        seated = any(s.kind == SeatKind.PERSON and s.player_id == player.id for s in host.row.seats)
        owner = host.row.owner_id
        if seated or owner == player.id:
            return
        try:
            blocked = owner is not None and await self.store.blocks(owner, player.id)
        except StoreUnavailableError:
            raise ProtocolError("store_unavailable", "the server's storage failed: try again", ref) from None
        if same(invitation, host.invitation) and not blocked:
            return
        log.warning(
            "refused player %d at private table %s (%s)",
            player.id,
            host.id,
            "no invitation" if invitation is None else "wrong invitation or blocked",
        )
        raise ProtocolError("no_such_table", f"no open or running table {host.id!r}", ref)

    async def check_chat(self, player: PlayerRow, ref: Any) -> None:
        """``player`` may talk: not banned, not muted by a moderator."""
        await self.refuse_banned(player, ref)
        until = await self.store.chat_muted_until(player.id)
        if until is not None and until > datetime.now(UTC):
            log.info("refused a chat line of muted player %d", player.id)
            raise ProtocolError("muted", f"a moderator muted your chat until {until.isoformat()}", ref)

    async def deaf_to(self, speaker: int) -> set[int]:
        """The people who block ``speaker``: his chat lines do not reach them."""
        return set(await self.store.blockers(speaker))
