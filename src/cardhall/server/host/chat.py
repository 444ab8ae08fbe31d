"""A table's chat: each line stored, then sent to those at the table, and the last
:data:`~cardhall.server.protocol.CHAT_HISTORY` lines sent to whoever arrives (a reload, a new visit, a
person coming later: the waiting room is the same table), blocks applied. Not part of the table's
machine: a line changes nothing of the match, and every check it needs reads the store."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from cardhall.server.host.audience import Audience, Listener
from cardhall.server.host.machine import STORE_UNAVAILABLE
from cardhall.server.protocol import CHAT_HISTORY, ChatFrame, ProtocolError
from cardhall.server.settings import who_may_chat
from cardhall.store import ChatRow, StoreUnavailableError, TableRow

if TYPE_CHECKING:
    from cardhall.server.relations import Relations
    from cardhall.store import Store


class TableChat:
    def __init__(self, store: Store, social: Relations, row: TableRow) -> None:
        self.store, self.social, self.row = store, social, row
        # The table's last chat lines, as their frames; None until read from the store (a table brought
        # back after a restart, or taken over), empty for a new table (:meth:`opened`).
        self.lines: deque[ChatFrame] | None = None

    @property
    def id(self) -> str:
        return self.row.id

    def opened(self) -> None:
        """A new table: nothing said yet, nothing to read."""
        self.lines = deque(maxlen=CHAT_HISTORY)

    async def say(self, audience: Audience, number: int, listener: Listener, text: str, ref: Any) -> None:
        """A chat line: from a connection at the table, printable (no control characters: a line is
        one line), from a person the table lets talk (its ``chat`` setting: everyone, its seated
        people, or accounts; ``chat_closed`` otherwise) who may talk (not banned, not muted by a
        moderator), within his chat rate, his address's and the table's; stored, then sent to every
        connection at the table except those of people who block the speaker."""
        player = listener.player
        assert player is not None
        if listener not in audience:
            raise ProtocolError("not_seated", f"join or watch table {self.id} to talk there", ref)
        if not text.isprintable():
            raise ProtocolError("bad_message", "a chat line holds printable characters only (one line)", ref)
        who = who_may_chat(self.row.settings)
        if who == "seated" and audience.seat_of(listener) is None:
            raise ProtocolError("chat_closed", f"only the players seated at table {self.id} talk there", ref)
        if who == "accounts" and player.guest:
            raise ProtocolError("chat_closed", f"only people with an account talk at table {self.id}", ref)
        try:
            await self.social.check_chat(player, ref)
            address = getattr(listener, "address", None)
            self.social.limiter.chat(player.id, ref, address=address or "?", table=self.id)
            deaf = await self.social.deaf_to(player.id)
            line = await self.store.add_chat(ChatRow(self.id, player.id, player.name, text))
        except StoreUnavailableError:
            raise ProtocolError(
                STORE_UNAVAILABLE, f"the chat of table {self.id} cannot be stored now: try again", ref
            ) from None
        frame = ChatFrame(
            table=self.id,
            n=number,
            sender=player.name,
            text=text,
            at=line.at.isoformat(),
            line=line.id,
            player=player.id,
            guest=player.guest,
        )
        if self.lines is not None:  # (not read yet: the store has this line for when it is)
            self.lines.append(frame)
        for other, _ in audience:
            if other.player is None or other.player.id not in deaf:
                other.send(frame)

    async def history(self, number: int, listener: Listener) -> None:
        """Send a connection that arrives at the table (joining or watching it) what was said there last
        (:data:`CHAT_HISTORY` lines), as ``chat`` frames, oldest first, except the lines of the
        people its player blocks (as :meth:`say` never sends them). Kept in memory from the table's
        start; read from the store once for a table brought back after a restart or taken over.
        Nothing is sent when the store cannot be read: the table goes on without its history."""
        try:
            if self.lines is None:
                self.lines = await self._stored(number)
            if not self.lines:
                return
            player = listener.player
            hidden = set(await self.store.blocked_by(player.id)) if player is not None else set()
        except StoreUnavailableError:
            return
        for frame in list(self.lines):
            if frame.player not in hidden:
                listener.send(frame)

    async def _stored(self, number: int) -> deque[ChatFrame]:
        rows = await self.store.chat(self.id, CHAT_HISTORY)
        speakers = await self.store.players([r.player_id for r in rows if r.player_id is not None])
        return deque(
            (
                ChatFrame(
                    table=self.id,
                    n=number,
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
