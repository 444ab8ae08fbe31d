"""What the store raises: :class:`StoreError` (it cannot be opened), :class:`StoreUnavailableError` (a
call failed: the database down, its file gone, the disk full), :class:`FencedError` (a write for a
table another process owns now) and :class:`NameTakenError` (an account name another account has).

Durability, the promise every writing method of every part of the store keeps: when it returns, what
it wrote is committed (the server broadcasts an action only after that). A write whose commit was cut
off may still have landed, which the caller can tell with
:meth:`~cardhall.store.action_log.ActionLog.last_action`.
"""

from __future__ import annotations

from collections.abc import Sequence


class StoreError(RuntimeError):
    """A store that cannot be opened: the message names the URL (without its password) and why."""


class StoreUnavailableError(StoreError):
    """The store failed to read or write: nothing of that call was committed (for a write whose commit
    was cut off: perhaps it was). The message names the store and the reason."""


class NameTakenError(ValueError):
    """An account name whose key (:func:`cardhall.server.names.name_key`) another account has."""


class FencedError(StoreError):
    """A write for a table this process no longer owns: another process took the table (its fencing
    number in the store is higher than the writer's), and nothing of the write was committed.
    :attr:`tables` are the ids refused."""

    def __init__(self, tables: Sequence[str], message: str) -> None:
        super().__init__(message)
        self.tables = tuple(tables)


def fenced(tables: Sequence[str], what: str = "no action was written") -> FencedError:
    """The error of a write refused because ``tables`` moved to another process (the same words from
    every part of the store that checks fences)."""
    return FencedError(
        tables, f"tables {', '.join(tables)} belong to another process now (their fences moved on): {what}"
    )
