"""The group committer's batches at least ``spacing`` apart (:data:`cardhall.server.committer.
COMMIT_SPACING` on a server): what is handed in while the committer waits out the rest goes in one
batch, and a batch after a quiet spell is written as soon as it is handed in."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from cardhall.server.committer import COMMIT_SPACING, Committer
from cardhall.store import ActionRow
from tests.server_helpers import server


class Recording:
    """A store that only records when each batch of actions began and what it held."""

    def __init__(self) -> None:
        self.batches: list[tuple[float, list[str]]] = []

    async def append_actions(
        self, actions: Sequence[ActionRow], fences: Mapping[str, int] | None = None
    ) -> None:
        self.batches.append((asyncio.get_running_loop().time(), [a.table_id for a in actions]))


def spaced(spacing: float, gaps: Sequence[float]) -> tuple[list[tuple[float, list[str]]], list[float]]:
    """Commit one action, then one after each of ``gaps`` seconds without waiting for the commits;
    the batches and the times each commit was handed in."""

    async def scenario() -> tuple[list[tuple[float, list[str]]], list[float]]:
        store = Recording()
        committer = Committer(store, spacing)  # type: ignore[arg-type]
        committer.start()
        loop = asyncio.get_running_loop()
        handed: list[float] = []
        try:
            handed.append(loop.time())
            await committer.commit([ActionRow("a", 1, 0, 0)])
            waiting: list[Any] = []
            for k, gap in enumerate(gaps):
                await asyncio.sleep(gap)
                handed.append(loop.time())
                waiting.append(asyncio.create_task(committer.commit([ActionRow(f"t{k}", 1, 0, 0)])))
            await asyncio.gather(*waiting)
            return store.batches, handed
        finally:
            await committer.stop()

    return asyncio.run(scenario())


def test_what_is_handed_in_while_the_committer_waits_goes_in_one_batch() -> None:
    batches, _ = spaced(0.5, [0.0, 0.1, 0.1])
    assert [tables for _, tables in batches] == [["a"], ["t0", "t1", "t2"]]
    (first, _), (second, _) = batches
    assert second - first >= 0.5  # (a lower bound: a slow machine only makes it later)


def test_without_spacing_each_commit_is_a_batch_of_its_own() -> None:
    batches, _ = spaced(0.0, [0.05, 0.05, 0.05])
    assert [tables for _, tables in batches] == [["a"], ["t0"], ["t1"], ["t2"]]


def test_the_first_batch_after_a_quiet_spell_is_not_held_back() -> None:
    # A spacing of 30 s: a batch held back to the spacing would not be written before the 20 s this
    # test waits at most.
    async def scenario() -> list[tuple[float, list[str]]]:
        store = Recording()
        committer = Committer(store, 30.0)  # type: ignore[arg-type]
        committer.start()
        try:
            await asyncio.wait_for(committer.commit([ActionRow("a", 1, 0, 0)]), 20)
            return store.batches
        finally:
            await committer.stop()

    assert [tables for _, tables in asyncio.run(scenario())] == [["a"]]


def test_the_server_spaces_its_batches() -> None:
    with server() as client:
        ctx = client.app.state.ctx  # type: ignore[attr-defined]
        assert ctx.committer.spacing == COMMIT_SPACING > 0
