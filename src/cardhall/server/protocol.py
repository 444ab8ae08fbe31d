"""The websocket protocol: every message a client may send, validated on arrival, every frame the server
sends, and the error codes.

Each client message is a JSON object whose ``type`` names it; ``msgspec`` checks it against the
structures below (unknown fields, wrong types and unknown types are refused) before anything acts on
it. Each server frame is a struct here too (:data:`ServerFrame`), tagged with its ``type`` the same
way, encoded by :func:`encode`; a field left :data:`msgspec.UNSET` is not sent (``seats`` of an
``update`` when they did not change, ``ref`` of a ``rematch`` sent to a whole table). What a table's
frames hold is built in :mod:`cardhall.server.host.frames`. ``docs/protocol.md`` documents every
message in both directions (a test reads the structs).

Reading JSON (websocket messages here, HTTP bodies through :func:`decode_as`), in this order:

- Nesting deeper than :data:`MAX_DEPTH` is refused (``bad_message``) before msgspec sees the text.
  msgspec descends into nested arrays and objects recursively, the values of ``Any`` fields and the
  unknown fields it skips included, and counts its depth against Python's recursion limit on top of
  whatever stack the caller already has: about 1,000 levels (fewer inside the server's middleware)
  ended in ``RecursionError``. No message of this protocol nests more than 2 levels.
- Text that is not JSON at all is ``bad_json``, JSON of the wrong shape ``bad_message``. msgspec checks
  the shape as it reads, so ``[`` fails as "expected an object" before the missing end is seen; only a
  refused message is read a second time, untyped, to tell the two apart.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Callable
from typing import Any, Final, TypeVar

import msgspec

T = TypeVar("T")

# The largest client frame read (characters); anything longer gets ``too_large``.
MAX_FRAME: Final = 4096
# The deepest nesting of arrays and objects read in a message or a request body.
MAX_DEPTH: Final = 32
MAX_CHAT: Final = 500
CHAT_HISTORY: Final = 50  # a table's last chat lines, sent to a connection that joins or watches it
MAX_NAME: Final = 40


class _Message(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, kw_only=True):
    """Every client message may carry ``id``, which the server's reply or error quotes as ``ref``."""

    id: int | str | None = None


class Hello(_Message, tag="hello"):
    token: str | None = None  # None: the session cookie of the websocket's handshake


class Join(_Message, tag="join"):
    table: str
    seat: int | None = None
    since: int = 0
    invitation: str | None = None  # a private table's invitation (its link's last part)


class Watch(_Message, tag="watch"):
    table: str
    since: int = 0
    invitation: str | None = None


class Leave(_Message, tag="leave"):
    table: str


class Act(_Message, tag="act"):
    table: str
    action: int | str
    n: int


class Back(_Message, tag="back"):
    table: str


class Chat(_Message, tag="chat"):
    table: str
    text: str


class AddBot(_Message, tag="bot"):
    table: str
    seat: int
    level: str = "normal"


class Rematch(_Message, tag="rematch"):
    table: str
    decline: bool = False  # decline the offer to play again (default: offer it, or accept it)


class Ping(_Message, tag="ping"):
    pass


class Hint(_Message, tag="hint"):
    table: str
    n: int


class Seek(_Message, tag="seek"):
    """Play now (issue 49): wait in the hall's queue for a table of ``game`` with these ``settings``,
    bots of ``level`` filling the seats nobody comes for (when ``choice`` lets them)."""

    game: str
    settings: dict[str, Any] = {}
    level: str = "normal"
    choice: str = "after_wait"  # after_wait, now, people_only


class Unseek(_Message, tag="unseek"):
    pass


class FollowEvent(_Message, tag="follow_event"):
    """Tournaments (issue 50): follow an event's standings (an ``event`` frame now, and again after each
    of its tables ends); ``token``: a private event's (its link's)."""

    event: str
    token: str | None = None


class UnfollowEvent(_Message, tag="unfollow_event"):
    event: str


ClientMessage = (
    Hello
    | Join
    | Watch
    | Leave
    | Act
    | Back
    | Chat
    | AddBot
    | Rematch
    | Ping
    | Hint
    | Seek
    | Unseek
    | FollowEvent
    | UnfollowEvent
)
_DECODER: Final = msgspec.json.Decoder(ClientMessage)

MESSAGE_TYPES: Final = tuple(
    str(cls.__struct_config__.tag)
    for cls in (
        Hello,
        Join,
        Watch,
        Leave,
        Act,
        Back,
        Chat,
        AddBot,
        Rematch,
        Ping,
        Hint,
        Seek,
        Unseek,
        FollowEvent,
        UnfollowEvent,
    )
)

# Error codes of ``error`` frames (docs/protocol.md explains each).
ERROR_CODES: Final = (
    "too_large",
    "bad_json",
    "bad_message",
    "unknown_type",
    "not_authenticated",
    "bad_token",
    "no_such_table",
    "no_such_game",
    "no_such_seat",
    "seat_taken",
    "not_seated",
    "not_started",
    "table_over",
    "not_over",
    "illegal_action",
    "stale",
    "bad_game",
    "bad_request",
    "rate_limited",
    "store_unavailable",
    "table_moved",
    "no_person",
    "too_many_tables",
    "not_admin",
    "cross_site",
    "no_hints",
    "not_a_player",
    "reviews_busy",
    "passwords_busy",
    "not_your_turn",
    "bad_content_type",
    # playing with people one knows (issue 25, part B: cardhall.server.social)
    "no_such_player",
    "no_such_request",
    "no_such_line",
    "not_friends",
    "already_friends",
    "already_asked",
    "blocking",
    "not_online",
    "not_your_table",
    "not_moderator",
    "banned",
    "muted",
    "chat_closed",
    "bad_name",
    "bad_password",
    "bad_credentials",
    "name_taken",
    "not_an_account",
    "already_an_account",
    # Play now (issue 49: cardhall.server.playnow)
    "bad_choice",
    # tournaments (issue 50: cardhall.server.events)
    "no_such_event",
    "event_closed",
    "bad_event",
)


class ProtocolError(Exception):
    """A client message the server refuses: ``code`` (one of :data:`ERROR_CODES`) and why."""

    def __init__(self, code: str, message: str, ref: int | str | None = None) -> None:
        assert code in ERROR_CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref

    def frame(self) -> ErrorFrame:
        return ErrorFrame(code=self.code, message=self.message, ref=self.ref)


# --- server frames ---------------------------------------------------------------------------------


class _Frame(msgspec.Struct, tag_field="type", kw_only=True, omit_defaults=False):
    """Every server frame; its ``type`` is its tag."""


Ref = int | str | None


class PlayerInfo(msgspec.Struct):
    id: int
    name: str
    guest: bool = True  # a guest (no account): shown as one


class WelcomeFrame(_Frame, tag="welcome"):
    ref: Ref
    player: PlayerInfo


class PongFrame(_Frame, tag="pong"):
    ref: Ref


class SeatEntry(msgspec.Struct, kw_only=True):
    """One seat as the ``seats`` of ``table`` and ``update`` frames show it."""

    seat: int
    kind: str  # empty, person, bot
    name: str
    bot: str | None
    connected: bool | None  # for a person: whether a connection is joined to the seat
    stand_in: str | None  # the bot playing for him while he is away
    left: bool
    player: int | None = None  # a person's player id (his page: GET /api/players/{id}); null otherwise
    guest: bool | None = None  # a person without an account when he sat down (shown as a guest)


class TableFrame(_Frame, tag="table"):
    table: str
    n: int
    game: str
    status: str
    you: int | None
    seats: list[SeatEntry]
    settings: dict[str, Any]
    rematch_of: str | None
    deadlines: dict[str, int]
    spectators: int
    paused: str | None
    events: list[dict[str, Any]]
    observation: dict[str, Any] | None
    legal: list[msgspec.Raw]  # each a legal entry (action, label, action_info), encoded once: host/frames.py
    to_act: list[int]


class UpdateFrame(_Frame, tag="update"):
    table: str
    n: int
    status: str
    events: list[dict[str, Any]]
    deadlines: dict[str, int]
    spectators: int
    observation: dict[str, Any] | None
    legal: list[msgspec.Raw]  # each a legal entry (action, label, action_info), encoded once: host/frames.py
    to_act: list[int]
    seats: list[SeatEntry] | msgspec.UnsetType = msgspec.UNSET


class ChatFrame(_Frame, tag="chat"):
    table: str
    n: int
    sender: str = msgspec.field(name="from")
    text: str
    at: str
    line: int  # the stored line's id (a report names it)
    player: int | None  # the speaker's player id (his profile: /players/{id})
    guest: bool | None = None  # the speaker is a guest (shown as one, with his number)


class InvitedFrame(_Frame, tag="invited"):
    """A friend invites this person to a table (sent to each of his connections, on any page)."""

    table: str
    game: str
    sender: PlayerInfo = msgspec.field(name="from")
    invitation: str | None  # the private table's invitation; null for a table open to all


class FriendsFrame(_Frame, tag="friends"):
    """Something changed among this person's friends: a request came, or his was accepted."""

    event: str  # request, accepted
    player: PlayerInfo


class RematchFrame(_Frame, tag="rematch"):
    """An offer to play a finished table again, as it stands (cardhall.server.rematch), or the new
    table it made (``new``)."""

    table: str
    n: int
    new: str | None  # the new table, once made
    by: int | None  # the seat of the person who offered (null: no offer open)
    accepted: list[int]  # the seats whose people accepted
    declined: list[int]
    until: int | None  # when the open offer lapses, epoch milliseconds (null once made or withdrawn)
    ref: Ref | msgspec.UnsetType = msgspec.UNSET


class PausedFrame(_Frame, tag="paused"):
    table: str
    n: int
    reason: str


class ResumedFrame(_Frame, tag="resumed"):
    table: str
    n: int


class StoppedFrame(_Frame, tag="stopped"):
    table: str
    n: int
    reason: str


class HintFrame(_Frame, tag="hint"):
    """The search's suggestion for a person's move (only to him): ``action`` is the label of one of
    his legal actions at event number ``n``."""

    table: str
    n: int
    action: str
    ref: Ref


class SeekingFrame(_Frame, tag="seeking"):
    """Play now: this person waits in a pool (the reply to ``seek``, and again to everyone of the pool
    whenever someone comes or goes)."""

    pool: str  # the pool's name (its game string, settings and bots' level)
    game: str
    choice: str
    waiting: int  # people waiting in the pool, him included
    seats: int  # a table's seats
    bots_in: float | None  # seconds until bots fill the empty seats (null: people only)
    usual_wait: float | None  # the median of the pool's last waits, seconds (null: none yet)
    ref: Ref | msgspec.UnsetType = msgspec.UNSET


class SeatedFrame(_Frame, tag="seated"):
    """Play now: the queue seated this person at a table (``join`` it)."""

    table: str
    seat: int
    game: str
    waited: float  # seconds from "Play now" (or, in an event, from his last table's end) to this table
    event: str | None = None  # the event (tournament) that seated him; null: Play now


class UnseekedFrame(_Frame, tag="unseeked"):
    """Play now: this person left the queue (the reply to ``unseek``)."""

    pool: str | None  # the pool he left (null: he was in none)
    reason: str  # left (he asked)
    ref: Ref | msgspec.UnsetType = msgspec.UNSET


class EventFrame(_Frame, tag="event"):
    """Tournaments: an event's standings and tables as they stand (the reply to ``follow_event``, and
    again to its followers after each of its tables ends or a round starts)."""

    event: str
    status: str  # upcoming, running, finished, cancelled
    round: int | None  # the round being played (duplicate; null: arena, or not started)
    standings: list[dict[str, Any]]  # as GET /api/events/{event} gives them
    tables: list[dict[str, Any]]
    ref: Ref | msgspec.UnsetType = msgspec.UNSET


class ErrorFrame(_Frame, tag="error"):
    code: str
    message: str
    ref: Ref


ServerFrame = (
    WelcomeFrame
    | PongFrame
    | TableFrame
    | UpdateFrame
    | ChatFrame
    | InvitedFrame
    | FriendsFrame
    | RematchFrame
    | PausedFrame
    | ResumedFrame
    | StoppedFrame
    | HintFrame
    | SeekingFrame
    | SeatedFrame
    | UnseekedFrame
    | EventFrame
    | ErrorFrame
)
FRAME_STRUCTS: Final[tuple[type[msgspec.Struct], ...]] = typing.get_args(ServerFrame)
FRAME_TYPES: Final = tuple(str(cls.__struct_config__.tag) for cls in FRAME_STRUCTS)


# A string (closed or not) or one bracket: what the nesting scan looks at, strings skipped whole.
_STRUCTURE: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]')


def too_deep(text: str | bytes) -> bool:
    """Whether ``text`` nests arrays and objects deeper than :data:`MAX_DEPTH` (brackets inside strings
    do not count)."""
    if isinstance(text, bytes):
        # In UTF-8 a byte that reads as a bracket, quote or backslash is that ASCII character.
        text = text.decode("latin-1")
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False  # the common case, without a scan
    depth = 0
    for match in _STRUCTURE.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif token in "]}":
            depth -= 1
    return False


def _read(text: str | bytes, decode: Callable[[str | bytes], T], what: str) -> T:
    """``decode(text)``: ``bad_message`` when too deep, ``bad_json`` when not JSON; msgspec's
    ``ValidationError`` (JSON of the wrong shape) goes to the caller, which names it."""
    if too_deep(text):
        raise ProtocolError("bad_message", f"{what} nests arrays or objects deeper than {MAX_DEPTH} levels")
    try:
        return decode(text)
    except msgspec.ValidationError:  # (a DecodeError too: caught first)
        try:
            msgspec.json.decode(text)  # shallow, as checked: no recursion to fear
        except msgspec.DecodeError as e:
            raise ProtocolError("bad_json", f"{what} is not JSON: {e}") from None
        raise
    except msgspec.DecodeError as e:
        raise ProtocolError("bad_json", f"{what} is not JSON: {e}") from None


def decode_as(data: str | bytes, kind: type[T], what: str) -> T:
    """``data`` (an HTTP request body) read as ``kind``; ``bad_json`` or ``bad_message`` naming ``what``
    otherwise."""
    try:
        return _read(data, lambda text: msgspec.json.decode(text, type=kind), what)
    except msgspec.ValidationError as e:
        raise ProtocolError("bad_message", f"{what}: {e}") from None


def decode(text: str | bytes) -> ClientMessage:
    """The message a client frame holds; :class:`ProtocolError` naming what is wrong otherwise."""
    if len(text) > MAX_FRAME:
        raise ProtocolError("too_large", f"a frame holds at most {MAX_FRAME} characters, got {len(text)}")
    try:
        message: ClientMessage = _read(text, _DECODER.decode, "the message")
    except msgspec.ValidationError as e:
        text_error = str(e)
        if text_error.endswith("- at `$.type`") or "missing required field `type`" in text_error:
            known = ", ".join(MESSAGE_TYPES)
            raise ProtocolError("unknown_type", f"{text_error}; message types: {known}") from None
        raise ProtocolError("bad_message", text_error) from None
    if isinstance(message, Chat) and len(message.text) > MAX_CHAT:
        raise ProtocolError("bad_message", f"a chat line holds at most {MAX_CHAT} characters", message.id)
    return message


ENCODER: Final = msgspec.json.Encoder()


def encode(frame: object) -> str:
    """A server frame (or any JSON-ready value: the HTTP API's bodies) as JSON text."""
    return ENCODER.encode(frame).decode()


def encode_bytes(frame: object) -> bytes:
    """A server frame as JSON text in UTF-8 (what a websocket's text message carries)."""
    return ENCODER.encode(frame)
