"""Play again (``rematch``): an offer the people of a finished match answer, and the new table it makes.

"Play again" used to seat everyone at once and run the clocks of people who had gone (issue 46, D5).
Now it is an offer.

Choices:

- **An offer.** The first ``rematch`` of a finished table opens an offer by its sender (asking is his
  acceptance); a ``rematch`` while it is open accepts it, one with ``decline`` declines it (a person may
  change his answer while it is open). Every connection at the old table gets a ``rematch`` frame at
  each change: who offered, who accepted, who declined, when it lapses.
- **When it starts.** The new table is made when every person of the match has answered (those who
  left the match are not waited for), or when the offer lapses, :data:`OFFER_SECONDS` after it was
  made, without those who did not accept. The people who accepted sit at their seats; every other
  seat holds a bot: the match's bots at theirs, the table's ``stand_in`` bot in the seat of a person
  who did not accept. Nobody is seated, nor timed, at a table he did not accept; those who accepted
  are taken there by their page. An offer nobody accepts any more (its maker declined it) ends
  without a table.
- **One table.** However many ask at once, one table is made (one making per offer: whoever asks
  while it is being made waits for it); asking after it is made answers with it.
- **Who owns it.** The offer's maker: the caps on his tables and his rate of new tables
  (:mod:`cardhall.server.rates`) are checked when he makes the offer, so a refused offer is never
  opened; the table is then made under his name (under an acceptor's, if he declined after all).
- **Private stays private.** A private table's rematch is private too, with an invitation of its own.
- The offer lives in the memory of the process that owns the old table (its messages come there) and
  a restart forgets it: asking again makes a new one.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from cardhall.server.protocol import ProtocolError, RematchFrame
from cardhall.store import PlayerRow, SeatKind, TableStatus

if TYPE_CHECKING:
    from cardhall.server.host import TableHost

log = logging.getLogger(__name__)

OFFER_SECONDS: Final = 30  # how long an offer waits for the people who have not answered


@dataclass(eq=False)
class Offer:
    """An open offer to play ``old`` again, made by the person in seat ``by``."""

    old: TableHost
    by: int
    owner: PlayerRow
    address: str | None
    until: float  # when it lapses (epoch seconds)
    accepted: set[int] = field(default_factory=set)
    declined: set[int] = field(default_factory=set)
    timer: asyncio.TimerHandle | None = None
    making: asyncio.Future[TableHost | None] | None = None

    def waiting_for(self) -> list[int]:
        """The seats of the people who have not answered (those who left the match are not asked)."""
        answered = self.accepted | self.declined
        return [
            s.seat
            for s in self.old.row.seats
            if s.kind == SeatKind.PERSON and not s.left and s.seat not in answered
        ]


@dataclass(frozen=True)
class Made:
    """A rematch made: the frame that announced it, and the people of the old match (who may ask)."""

    frame: RematchFrame
    players: frozenset[int]


# Makes the new table: (the offer, its owner, bots by seat, people by seat, invitation) -> the table.
Maker = Callable[[Offer, PlayerRow, dict[int, str], dict[int, PlayerRow], str | None], Awaitable["TableHost"]]


class Rematches:
    def __init__(self, make: Maker, players: Callable[[list[int]], Awaitable[dict[int, PlayerRow]]]) -> None:
        """``make`` creates a table (the lobby's), ``players`` reads players by id (the store's)."""
        self._make_table = make
        self._players = players
        self.offers: dict[str, Offer] = {}  # old table id -> its open offer
        self.made: dict[str, Made] = {}  # old table id -> its rematch
        self._lapsing: set[asyncio.Task[None]] = set()  # (kept until done: a task nobody holds may go)

    def stop(self) -> None:
        for offer in self.offers.values():
            if offer.timer is not None:
                offer.timer.cancel()

    def answer_made(self, table_id: str, player: PlayerRow, ref: object) -> RematchFrame | None:
        """The rematch of ``table_id`` if it is made (``player`` must have played the old match)."""
        made = self.made.get(table_id)
        if made is None:
            return None
        if player.id not in made.players:
            raise ProtocolError("not_seated", f"you did not play at table {table_id}", ref)  # type: ignore[arg-type]
        return made.frame

    async def answer(
        self,
        old: TableHost,
        player: PlayerRow,
        decline: bool,
        ref: object,
        address: str | None,
        check_owner: Callable[[PlayerRow, str | None], None],
    ) -> RematchFrame:
        """``player``'s ``rematch`` (or its ``decline``) of the finished table ``old``: opens the offer,
        or answers it; makes the table once everyone has answered. The frame every connection at the old
        table was sent (the asker's reply)."""
        seat = next(s.seat for s in old.row.seats if s.kind == SeatKind.PERSON and s.player_id == player.id)
        offer = self.offers.get(old.id)
        if offer is None:
            if decline:
                raise ProtocolError("bad_request", f"no offer to play table {old.id} again is open", ref)  # type: ignore[arg-type]
            try:
                check_owner(player, address)  # (may refuse: then no offer is opened)
            except ProtocolError as e:
                e.ref = ref  # type: ignore[assignment]  # (the check knows no message to quote)
                raise
            offer = Offer(old, seat, player, address, time.time() + OFFER_SECONDS)
            self.offers[old.id] = offer
            offer.timer = asyncio.get_running_loop().call_later(OFFER_SECONDS, self._lapse, offer)
        if offer.making is not None:  # (being made: everyone gets the one table)
            await asyncio.shield(offer.making)
            return self._frame(old)
        (offer.declined if decline else offer.accepted).add(seat)
        (offer.accepted if decline else offer.declined).discard(seat)
        if not offer.accepted or not offer.waiting_for():
            await self._make(offer, ref)
        else:
            old.send_all(self._frame(old))
        return self._frame(old)

    def _frame(self, old: TableHost) -> RematchFrame:
        made = self.made.get(old.id)
        if made is not None:
            return made.frame
        offer = self.offers.get(old.id)
        if offer is None:  # (withdrawn, or its table could not be made)
            return RematchFrame(
                table=old.id, n=old.number, new=None, by=None, accepted=[], declined=[], until=None
            )
        return RematchFrame(
            table=old.id,
            n=old.number,
            new=None,
            by=offer.by,
            accepted=sorted(offer.accepted),
            declined=sorted(offer.declined),
            until=int(offer.until * 1000),
        )

    def _lapse(self, offer: Offer) -> None:
        """The offer's time ran out: the table is made with those who accepted (from the loop)."""
        offer.timer = None
        if self.offers.get(offer.old.id) is offer and offer.making is None:
            task = asyncio.get_running_loop().create_task(self._make_logged(offer))
            self._lapsing.add(task)
            task.add_done_callback(self._lapsing.discard)

    async def _make_logged(self, offer: Offer) -> None:
        try:
            await self._make(offer, None)
        except ProtocolError as e:
            log.warning("table %s: its rematch was not made when its offer lapsed: %s", offer.old.id, e)
        except Exception:
            log.exception("table %s: its rematch was not made when its offer lapsed", offer.old.id)

    async def _make(self, offer: Offer, ref: object) -> None:
        """Make the offer's table (none when nobody accepts any more), tell the old table, and forget
        the offer. A failure forgets it too (the old table is told: ask again) and is raised."""
        old = offer.old
        offer.making = asyncio.get_running_loop().create_future()
        if offer.timer is not None:
            offer.timer.cancel()
            offer.timer = None
        host: TableHost | None = None
        try:
            if offer.accepted:
                host = await self._create(offer)
        except BaseException as e:
            if isinstance(e, ProtocolError):
                e.ref = ref  # type: ignore[assignment]  # (the create knows no message to quote)
            raise
        finally:
            del self.offers[old.id]
            if host is not None:
                players = frozenset(s.player_id for s in old.row.seats if s.player_id is not None)
                frame = RematchFrame(
                    table=old.id,
                    n=old.number,
                    new=host.id,
                    by=offer.by,
                    accepted=sorted(offer.accepted),
                    declined=sorted(offer.declined),
                    until=None,
                )
                self.made[old.id] = Made(frame, players)
            offer.making.set_result(host)
            old.send_all(self._frame(old))

    async def _create(self, offer: Offer) -> TableHost:
        old = offer.old
        stand_in = str(old.row.settings["stand_in"])
        bots: dict[int, str] = {}
        wanted: dict[int, int] = {}
        for s in old.row.seats:
            if s.kind == SeatKind.BOT and s.bot:
                bots[s.seat] = s.bot
            elif s.kind == SeatKind.PERSON and s.player_id is not None and s.seat in offer.accepted:
                wanted[s.seat] = s.player_id
            else:
                bots[s.seat] = stand_in  # a person who did not accept: never seated there
        found = await self._players(list(wanted.values()))
        people = {seat: found[pid] for seat, pid in wanted.items() if pid in found}
        owner = offer.owner if offer.by in offer.accepted else next(iter(people.values()), offer.owner)
        invitation = None if old.invitation is None else secrets.token_urlsafe(16)
        return await self._make_table(offer, owner, bots, people, invitation)


def check_over(old: TableHost, ref: object) -> None:
    """Refuse a rematch of a table whose match is not over (``not_over``)."""
    if old.row.status != TableStatus.FINISHED:
        raise ProtocolError("not_over", f"the match at table {old.id} is not over", ref)  # type: ignore[arg-type]
