"""The lobby's bookkeeping of the tables in memory: an ended table leaves memory without the lobby
walking every table at each change (seating N people once cost N² steps: every seat taken is a change),
and a player's own tables are found without walking the hall's."""

from __future__ import annotations

from collections.abc import Coroutine
from types import SimpleNamespace
from typing import Any

import pytest

from cardhall.server.lobby import Lobby
from cardhall.store import PlayerRow, SeatKind, SeatRow, TableStatus


class Row:
    """A table's row that counts how often its status or its owner is read."""

    def __init__(self, status: TableStatus, owner_id: int | None = None) -> None:
        self._status = status
        self._owner_id = owner_id
        self.reads = 0

    @property
    def owner_id(self) -> int | None:
        self.reads += 1
        return self._owner_id

    @property
    def status(self) -> TableStatus:
        self.reads += 1
        return self._status

    @status.setter
    def status(self, value: TableStatus) -> None:
        self._status = value


class Host:
    def __init__(self, table_id: str, status: TableStatus, owner_id: int | None = None) -> None:
        self.id = table_id
        self.row = Row(status, owner_id)
        self.listeners: list[object] = []
        self.retired = False

    async def retire(self) -> None:
        self.retired = True


class Context:
    def __init__(self) -> None:
        self.spawned: list[Coroutine[Any, Any, Any]] = []

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        self.spawned.append(work)
        work.close()  # (what it would do is not the question here)


def hall(tables: int, owner_id: int | None = None) -> tuple[Lobby, Context, list[Host]]:
    ctx = Context()
    lobby = Lobby(ctx)  # type: ignore[arg-type]
    hosts = [Host(f"t{k}", TableStatus.PLAYING, owner_id) for k in range(tables)]
    for host in hosts:
        lobby._hold(host)  # type: ignore[arg-type]
    return lobby, ctx, hosts


def test_an_ended_table_leaves_memory_and_the_playing_ones_are_not_looked_at() -> None:
    lobby, ctx, hosts = hall(1000)
    done = hosts[7]
    done.row.status = TableStatus.FINISHED
    lobby.ended(done)  # type: ignore[arg-type]
    for host in hosts:
        host.row.reads = 0
    lobby.forget_finished()
    assert "t7" not in lobby.hosts and len(lobby.hosts) == 999
    assert lobby.finished == set()
    assert len(ctx.spawned) == 1  # its retirement
    # The 999 tables still playing were not read: the change cost the ended table alone.
    assert sum(h.row.reads for h in hosts if h is not done) == 0


def test_a_playing_table_is_not_noted_as_ended() -> None:
    lobby, _, hosts = hall(3)
    lobby.ended(hosts[0])  # type: ignore[arg-type]
    lobby.forget_finished()
    assert lobby.finished == set() and len(lobby.hosts) == 3


def test_an_ended_table_someone_watches_stays_until_a_change_after_he_left() -> None:
    lobby, _, hosts = hall(2)
    done = hosts[1]
    done.listeners.append(object())
    done.row.status = TableStatus.ABANDONED
    lobby.ended(done)  # type: ignore[arg-type]
    lobby.forget_finished()
    assert "t1" in lobby.hosts and lobby.finished == {"t1"}
    done.listeners.clear()
    lobby.forget_finished()
    assert "t1" not in lobby.hosts and lobby.finished == set()


def test_an_ended_table_gone_from_memory_another_way_is_dropped_from_the_finished_set() -> None:
    lobby, ctx, hosts = hall(2)
    hosts[0].row.status = TableStatus.FINISHED
    lobby.ended(hosts[0])  # type: ignore[arg-type]
    del lobby.hosts["t0"]  # (moved to another process, say)
    lobby.forget_finished()
    assert lobby.finished == set() and ctx.spawned == []


def test_a_players_tables_are_found_without_walking_the_hall() -> None:
    lobby, _, others = hall(500, owner_id=2)
    mine = Host("m0", TableStatus.WAITING, owner_id=1)
    lobby._hold(mine)  # type: ignore[arg-type]
    for host in others:
        host.row.reads = 0
    lobby.limiter.limits = SimpleNamespace(  # type: ignore[assignment]
        waiting_tables_per_player=1, unfinished_tables_per_player=None
    )
    from cardhall.server.protocol import ProtocolError

    with pytest.raises(ProtocolError) as refused:
        lobby._check_owner(PlayerRow(1, "me"), [SeatRow(0, SeatKind.PERSON, "me", 1), SeatRow(1)], None)
    assert refused.value.code == "too_many_tables"
    assert sum(h.row.reads for h in others) == 0
    # A table gone from memory no longer counts, and its id leaves the index.
    del lobby.hosts["m0"]
    assert lobby.owned_by(1) == [] and 1 not in lobby._owned
