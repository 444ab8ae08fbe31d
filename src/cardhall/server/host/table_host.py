"""One table on the server: its parts put together (seating, play, bots, finishing, hints; see the package's
docstring), bringing a table back after a restart, and its chat: each line stored, then sent to those at
the table, and the last :data:`~cardhall.server.protocol.CHAT_HISTORY` lines sent to whoever arrives (a
reload, a new visit, a person coming later: the waiting room is the same table), blocks applied."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from cardhall.server.host.audience import Listener
from cardhall.server.host.base import STORE_UNAVAILABLE
from cardhall.server.host.bots import Bots
from cardhall.server.host.finishing import Finishing
from cardhall.server.host.hints import Hints
from cardhall.server.host.play import Play
from cardhall.server.host.seating import Seating
from cardhall.server.protocol import CHAT_HISTORY, ChatFrame, ProtocolError
from cardhall.server.settings import who_may_chat
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
        one line), from a person the table lets talk (its ``chat`` setting: everyone, its seated
        people, or accounts; ``chat_closed`` otherwise) who may talk (not banned, not muted by a
        moderator), within his chat rate, his address's and the table's; stored, then sent to every
        connection at the table except those of people who block the speaker."""
        player = listener.player
        assert player is not None
        if listener not in self.audience:
            raise ProtocolError("not_seated", f"join or watch table {self.id} to talk there", ref)
        if not text.isprintable():
            raise ProtocolError("bad_message", "a chat line holds printable characters only (one line)", ref)
        who = who_may_chat(self.row.settings)
        if who == "seated" and self.audience.seat_of(listener) is None:
            raise ProtocolError("chat_closed", f"only the players seated at table {self.id} talk there", ref)
        if who == "accounts" and player.guest:
            raise ProtocolError("chat_closed", f"only people with an account talk at table {self.id}", ref)
        try:
            await self.ctx.social.check_chat(player, ref)
            address = getattr(listener, "address", None)
            self.ctx.social.limiter.chat(player.id, ref, address=address or "?", table=self.id)
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
            guest=player.guest,
        )
        if self.chat_lines is not None:  # (not read yet: the store has this line for when it is)
            self.chat_lines.append(frame)
        for other, _ in self.audience:
            if other.player is None or other.player.id not in deaf:
                other.send(frame)

    async def chat_history(self, listener: Listener) -> None:
        """Send a connection that arrives at the table (joining or watching it) what was said there last
        (:data:`CHAT_HISTORY` lines), as ``chat`` frames, oldest first, except the lines of the
        people its player blocks (as :meth:`chat` never sends them). Kept in memory from the table's
        start; read from the store once for a table brought back after a restart or taken over.
        Nothing is sent when the store cannot be read: the table goes on without its history."""
        try:
            if self.chat_lines is None:
                self.chat_lines = await self._stored_chat()
            if not self.chat_lines:
                return
            player = listener.player
            hidden = set(await self.ctx.store.blocked_by(player.id)) if player is not None else set()
        except StoreUnavailableError:
            return
        for frame in list(self.chat_lines):
            if frame.player not in hidden:
                listener.send(frame)

    async def _stored_chat(self) -> deque[ChatFrame]:
        rows = await self.ctx.store.chat(self.id, CHAT_HISTORY)
        speakers = await self.ctx.store.players([r.player_id for r in rows if r.player_id is not None])
        return deque(
            (
                ChatFrame(
                    table=self.id,
                    n=self.number,
                    sender=r.name,
                    text=r.text,
                    at=r.at.isoformat(),
                    line=r.id,
                    player=r.player_id,
                    guest=None if r.player_id not in speakers else speakers[r.player_id].guest,
                )
                for r in rows
            ),
            maxlen=CHAT_HISTORY,
        )
