"""Who plays where on this process: each person's tables at which he holds a seat (not left) in a match
under way (playing or paused). Play now asks it for every ``seek`` (``already_playing``, issue 49): a
person is never queued while he plays. It was a walk over every table of the process for each seek
(3,200 tables: 7-9 ms a seek, benchmarks/matching.md); the index answers in O(1).

Choices:

- **Kept by the tables themselves.** A table's seats and status change only through its machine, and
  its actor carries out what every command did (:meth:`TableHost._carry_out`, also after a restart's
  replay, a fenced write and a process's stop). There the actor compares the row's seat list (a new
  list whenever a seat changes: the machine never changes one in place) and the status with those it
  last indexed: two identity checks per command, and the table's people read again only when one
  changed. So a seat taken, left, given from a bot, a match finished, stopped, moved to another
  process or stopped here is indexed by the command that did it, with no call to remember elsewhere.
- **Ids, not hosts.** The index holds table ids: a table that leaves memory (finished, moved) has left
  the index before (its status is no longer under way).
"""

from __future__ import annotations

from collections.abc import Collection


class SeatIndex:
    """Player id -> the ids of the tables of this process he plays at (a seat not left, under way)."""

    def __init__(self) -> None:
        self._tables: dict[int, set[str]] = {}

    def tables_of(self, player: int) -> frozenset[str]:
        return frozenset(self._tables.get(player, ()))

    def update(self, table: str, before: Collection[int], after: Collection[int]) -> None:
        """``table``'s people playing were ``before`` and are ``after``."""
        for player in before:
            if player not in after:
                tables = self._tables.get(player)
                if tables is not None:
                    tables.discard(table)
                    if not tables:
                        del self._tables[player]
        for player in after:
            if player not in before:
                self._tables.setdefault(player, set()).add(table)

    def __len__(self) -> int:
        """How many people play at a table of this process."""
        return len(self._tables)
