"""One table on the server: its parts put together (seating, play, bots, finishing, hints; see the package's
docstring), bringing a table back after a restart, and its chat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardhall.server.host.audience import Listener
from cardhall.server.host.base import STORE_UNAVAILABLE
from cardhall.server.host.bots import Bots
from cardhall.server.host.finishing import Finishing
from cardhall.server.host.hints import Hints
from cardhall.server.host.play import Play
from cardhall.server.host.seating import Seating
from cardhall.server.protocol import ChatFrame, ProtocolError
from cardhall.store import ActionRow, ChatRow, SeatKind, StoreUnavailableError, TableStatus


class TableHost(Seating, Play, Bots, Finishing, Hints):
    def restore(self, actions: Sequence[ActionRow]) -> None:
        """After a restart: the match as it was (raises when its stored actions do not replay), with
        what its stand-ins played counted again; its people have ``away_seconds`` to come back."""
        if self.row.status != TableStatus.PLAYING:
            return
        self.table = self.deal(self.row.seats, [(a.seat, a.action) for a in actions])
        self.stored = len(actions)
        for a in actions:
            self.by_stand_in[a.seat] += a.stand_in
        away = int(self.row.settings["away_seconds"])
        for s in self.row.seats:
            if s.kind == SeatKind.PERSON and not s.left:
                self.timers.away_later(s.seat, away)
        self.post(self._resume)

    async def _resume(self) -> None:
        """Go on after a restart. A match whose last action was committed but not its end (the server
        stopped between the two: :meth:`stop` cancels the owner task wherever it waits) ends now."""
        if self.table is not None and self.table.is_over and self.row.status == TableStatus.PLAYING:
            self.finish_due = True
            if not await self.finish():
                return
        await self.advance()

    async def chat(self, listener: Listener, text: str, ref: Any) -> None:
        """A chat line: from a connection at the table, printable (no control characters: a line is
        one line), from a person who may talk (not banned, not muted by a moderator) and within his
        chat rate; stored, then sent to every connection at the table except those of people who
        block the speaker."""
        player = listener.player
        assert player is not None
        if listener not in self.audience:
            raise ProtocolError("not_seated", f"join or watch table {self.id} to talk there", ref)
        if not text.isprintable():
            raise ProtocolError("bad_message", "a chat line holds printable characters only (one line)", ref)
        try:
            await self.ctx.social.check_chat(player, ref)
            self.ctx.social.limiter.chat(player.id, ref)
            deaf = await self.ctx.social.deaf_to(player.id)
            line = await self.ctx.store.add_chat(ChatRow(self.id, player.id, player.name, text))
        except StoreUnavailableError:
            raise ProtocolError(
                STORE_UNAVAILABLE, f"the chat of table {self.id} cannot be stored now: try again", ref
            ) from None
        frame = ChatFrame(
            table=self.id,
            n=self.number,
            sender=player.name,
            text=text,
            at=line.at.isoformat(),
            line=line.id,
            player=player.id,
        )
        for other, _ in self.audience:
            if other.player is None or other.player.id not in deaf:
                other.send(frame)
