"""What a table's frames hold, built as pure functions of the table at one moment (its row, its match,
its timers' deadlines, who watches), a seat and the last event number that seat's connection saw: no
asyncio, no connection, nothing sent. :mod:`cardhall.server.host` calls them and
:mod:`cardhall.server.host.audience` sends what they build.

- A seat's view: its observation, its legal actions (each the int to send, its label, and what it
  means: ``Game.action_info``) and whose turn it is; spectators (seat None) see the public
  observation and no legal actions; a match that is not ``playing`` (stopped) waits for nobody.
- Events come from ``Table.events(seat, since)``, redacted for that seat by the Table.
- What a frame repeats unchanged is encoded once: a legal entry once per action, and the entries of
  the observation's lists that the game shares between observations (``Game.shared_observation_lists``:
  Hearts' finished tricks, three quarters of a frame late in a hand) once per entry, kept by the table
  as ``msgspec.Raw`` JSON that the encoder copies as it is.
- For a connection that asked for them (``hello`` with ``deltas``), an ``update`` carries only the
  observation's entries that changed since that connection's previous frame of the table (``delta``:
  the keys gone, usually none; the page takes the rest from that frame), and of a list that only
  grew (the tricks taken, gin's log of moves) only its new entries (``grown``): the hand, the tricks
  and the scores are mostly the same from one action to the next, and each byte left out is one less
  to encode, compress and send. A value is compared with the one sent before (its type, then ``==``,
  which tries identity first: the shared lists' entries are the very same ``Raw`` objects); a
  connection with no previous observation, or one whose every entry changed, gets it whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from msgspec import UNSET, Raw, UnsetType

from cardhall.server.protocol import ENCODER, SeatEntry, TableFrame, UpdateFrame
from cardhall.store import SeatKind, SeatRow, TableRow, TableStatus
from cardhall.table import Table


class Picture(NamedTuple):
    """What every frame of a table shares at one moment (``seats``: the seat entries, built only for
    the frames that carry them)."""

    row: TableRow
    deadlines: dict[str, int]
    spectators: int
    paused: str | None
    seats: list[SeatEntry] | None
    encoded: Encoded  # what the table's frames repeat, encoded once (kept by the table)


class Encoded:
    """A table's cache of what its frames repeat, as JSON: each action's legal entry, and the shared
    entries of the observation's lists (per list, the entries of its last observation: by identity,
    each kept with its JSON so that no other object can take its id meanwhile)."""

    __slots__ = ("legal", "shared")

    def __init__(self) -> None:
        self.legal: dict[int, Raw] = {}
        self.shared: dict[str, dict[int, tuple[object, Raw]]] = {}

    def entries(self, key: str, entries: list[Any]) -> list[Raw]:
        """``entries`` (the observation's list ``key``, shared) as their JSON."""
        cache = self.shared.get(key)
        if cache is None or len(cache) > len(entries):  # (a new hand's: the old entries are let go)
            old = cache or {}
            cache = self.shared[key] = {id(e): old[id(e)] for e in entries if id(e) in old}
        out = []
        for entry in entries:
            known = cache.get(id(entry))
            if known is None:
                known = cache[id(entry)] = (entry, Raw(ENCODER.encode(entry)))
            out.append(known[1])
        return out


class SeatView(NamedTuple):
    observation: dict[str, Any] | None  # (the shared lists' entries as Raw JSON)
    legal: list[Raw]
    to_act: list[int]


NO_MATCH = SeatView(None, [], [])


def seat_entries(rows: Sequence[SeatRow], table: Table | None, connected: Sequence[int]) -> list[SeatEntry]:
    return [
        SeatEntry(
            seat=s.seat,
            kind=s.kind.value,
            name=s.name,
            bot=s.bot,
            connected=connected[s.seat] > 0 if s.kind == SeatKind.PERSON else None,
            stand_in=table.stand_in_for(s.seat) if table is not None else None,
            left=s.left,
            player=s.player_id if s.kind == SeatKind.PERSON else None,
            guest=s.guest if s.kind == SeatKind.PERSON else None,
        )
        for s in rows
    ]


def legal_entry(table: Table, action: int) -> dict[str, Any]:
    """An action as a legal entry: the int to send, its label, and what it means (``Game.action_info``:
    kind, card, amount...)."""
    game = table.game
    return {"action": action, "label": game.action_label(action), **game.action_info(action)}


def seat_view(table: Table | None, status: TableStatus, seat: int | None, encoded: Encoded) -> SeatView:
    """What ``seat`` sees of the match now, with what repeats taken from (and added to) ``encoded``
    (a legal entry depends on the action alone; a shared entry never changes)."""
    if table is None:
        return NO_MATCH
    # A stopped match still has seats to act, who may no longer act: it waits for nobody.
    to_act = list(table.to_act) if status == TableStatus.PLAYING else []
    legal: list[Raw] = []
    if seat is not None and seat in to_act:
        known = encoded.legal
        for a in table.legal_actions(seat):
            entry = known.get(a)
            if entry is None:
                entry = known[a] = Raw(ENCODER.encode(legal_entry(table, a)))
            legal.append(entry)
    observation = table.observation(seat)  # (its lists are new at each call: replaced, not changed)
    for key in table.game.shared_observation_lists:
        entries = observation.get(key)
        if entries is not None:  # (an empty one too: a new hand's lets the last hand's entries go)
            observation[key] = encoded.entries(key, entries)
    return SeatView(observation, legal, to_act)


def events(table: Table | None, seat: int | None, since: int) -> list[dict[str, Any]]:
    """The events after ``since`` as ``seat`` sees them (a ``since`` out of range is brought in)."""
    if table is None:
        return []
    number = table.number
    if since >= number:
        return []
    return table.events(seat, since=max(since, 0))


def table_frame(picture: Picture, table: Table | None, seat: int | None, since: int) -> TableFrame:
    """The whole table as ``seat`` may see it, with the events after ``since``."""
    row = picture.row
    view = seat_view(table, row.status, seat, picture.encoded)
    assert picture.seats is not None
    return TableFrame(
        table=row.id,
        n=0 if table is None else table.number,
        game=row.game,
        status=row.status.value,
        you=seat,
        seats=picture.seats,
        settings=row.settings,
        rematch_of=row.rematch_of,
        deadlines=picture.deadlines,
        spectators=picture.spectators,
        paused=picture.paused,
        events=events(table, seat, since),
        observation=view.observation,
        legal=view.legal,
        to_act=view.to_act,
    )


_ABSENT: Any = object()


class Delta(NamedTuple):
    """An observation as what changed since the one a connection was sent before."""

    changed: dict[str, Any]  # the entries changed or new; a list that only grew: its new entries alone
    gone: list[str]  # the keys of the one before that it no longer has
    grown: list[str]  # the keys whose entry in ``changed`` is to be appended to the one before


def delta(observation: dict[str, Any], base: dict[str, Any]) -> Delta | None:
    """``observation`` against ``base`` (the one the connection was sent before); None when nothing is
    the same or grew (the whole observation is as short)."""
    changed: dict[str, Any] = {}
    grown: list[str] = []
    same = 0
    for key, value in observation.items():
        # (== alone would keep a 1 where True is sent now: the type must be the same too; an entry
        # keeps its type inside, a list of cards stays a list of cards)
        before = base.get(key, _ABSENT)
        if type(before) is type(value):
            if before == value:  # (a list of another length is unequal at once)
                same += 1
                continue
            if type(value) is list and 0 < len(before) < len(value) and value[: len(before)] == before:
                changed[key] = value[len(before) :]  # (the tricks taken, a log of moves: only grew)
                grown.append(key)
                continue
        changed[key] = value
    if not same and not grown:
        return None
    return Delta(changed, [key for key in base if key not in observation], grown)


class Updates:
    """A builder of the ``update`` for each (seat, since, base): each seat's view is built once, and the
    frame once per seat, ``since`` and base (the connections of one seat have mostly seen the same
    events and been sent the same observation). ``base``: the observation the connection was sent in
    its previous frame, for one that takes deltas (see the module's docstring); None: whole."""

    def __init__(self, picture: Picture, table: Table | None, seats_changed: bool) -> None:
        self.picture = picture
        self.table = table
        self.number = 0 if table is None else table.number
        self.views: dict[int | None, SeatView] = {}
        self.built: dict[tuple[int | None, int, int], UpdateFrame] = {}
        self.seats: list[SeatEntry] | UnsetType = UNSET
        if seats_changed:
            assert picture.seats is not None
            self.seats = picture.seats

    def view(self, seat: int | None) -> SeatView:
        view = self.views.get(seat)
        if view is None:
            picture = self.picture
            view = self.views[seat] = seat_view(self.table, picture.row.status, seat, picture.encoded)
        return view

    def __call__(self, seat: int | None, since: int, base: dict[str, Any] | None = None) -> UpdateFrame:
        # (The bases of one broadcast are the connections' previous observations, all alive when it
        # starts: no two of them share an id, even if one is let go on the way.)
        key = (seat, since, 0 if base is None else id(base))
        frame = self.built.get(key)
        if frame is None:
            view = self.view(seat)
            observation = view.observation
            gone: list[str] | UnsetType = UNSET
            grown: list[str] | UnsetType = UNSET
            if base is not None and observation is not None:
                changes = delta(observation, base)
                if changes is not None:
                    observation, gone = changes.changed, changes.gone
                    if changes.grown:
                        grown = changes.grown
            row = self.picture.row
            frame = self.built[key] = UpdateFrame(
                table=row.id,
                n=self.number,
                status=row.status.value,
                events=events(self.table, seat, since),
                deadlines=self.picture.deadlines,
                spectators=self.picture.spectators,
                observation=observation,
                legal=view.legal,
                to_act=view.to_act,
                seats=self.seats,
                delta=gone,
                grown=grown,
            )
        return frame


def updates(picture: Picture, table: Table | None, seats_changed: bool) -> Updates:
    """The builder of this moment's ``update`` frames (see :class:`Updates`)."""
    return Updates(picture, table, seats_changed)
