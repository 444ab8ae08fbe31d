"""The bot tier on Redis, the server's side (``cardhall serve --bots redis://host:6379/0``): the
moves are scheduled here as in-process (:mod:`cardhall.bot_tier.schedule`: deadlines, earliest first,
budgets under load), and each one given a slot is added to the ``jobs`` stream, where any
``cardhall bots`` worker (:mod:`cardhall.bot_tier.worker`) takes it; its answer comes back on this
server's reply stream. The number of slots is the number of live workers (their heartbeats), so the
stream holds little more than what the workers are thinking about: the order stays the scheduler's.
Several servers share the workers (each counts them all: the stream then holds a short backlog, which
the workers take in arrival order, each job's budget cut to its deadline).

A worker that dies mid-think loses nothing: its entry stays pending, another worker claims it
(``XAUTOCLAIM``) and answers; and whatever happens to the workers (none running, all killed, Redis
unreachable) the scheduler plays the rules move at the deadline. Deadlines are epoch seconds: the
machines' clocks must agree (NTP) to within the margin.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from typing import Any

import msgspec
import redis.asyncio as aioredis
from redis.exceptions import ResponseError

from cardhall.bot_tier import streams
from cardhall.bot_tier.jobs import MOVE, REVIEW, MoveOutcome, decode_outcome, encode_move
from cardhall.bot_tier.schedule import Scheduler, Ticket
from cardhall.table import BotJob

log = logging.getLogger(__name__)
ANSWER_GRACE = 2.0  # seconds past a move's deadline its slot is held for a late answer


class TierJobError(RuntimeError):
    """A worker could not run the job (its message is the worker's)."""


async def ensure_groups(client: Any) -> None:
    for stream in (streams.JOBS, streams.OFFLINE):
        try:
            await client.xgroup_create(stream, streams.GROUP, id="0", mkstream=True)
        except ResponseError as e:
            if "BUSYGROUP" not in str(e):
                raise


class RedisTier:
    def __init__(self, url: str) -> None:
        self.url = url
        self.client: Any = aioredis.from_url(url)
        self.server = uuid.uuid4().hex
        self.reply = streams.reply_stream(self.server)
        self.live = 1  # counted from the heartbeats once running (at least 1: a job may wait for one)
        self.scheduler = Scheduler(self._run, lambda: self.live)
        self._waiting: dict[str, asyncio.Future[Any]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._ready: asyncio.Task[None] | None = None

    async def _start(self) -> None:
        await ensure_groups(self.client)
        self._tasks = [asyncio.create_task(self._read_replies()), asyncio.create_task(self._count_workers())]

    async def _started(self) -> None:
        if self._ready is None:
            self._ready = asyncio.create_task(self._start())
        await asyncio.shield(self._ready)

    async def move(self, job: BotJob, deadline: float, nominal_ms: int) -> MoveOutcome:
        return await self.scheduler.move(job, deadline, nominal_ms)

    async def job(self, kind: str, payload: Any) -> Any:
        if kind != REVIEW:
            raise ValueError(f"the bot tier runs no offline job of kind {kind!r} (kinds: {REVIEW})")
        return await self.scheduler.job(kind, payload)

    def stats(self) -> dict[str, Any]:
        return {"workers": self.live, **self.scheduler.stats()}

    async def _run(self, ticket: Ticket, budget_ms: int) -> Any:
        await self._started()
        job_id = uuid.uuid4().hex
        if ticket.kind == MOVE:
            stream, payload, deadline = streams.JOBS, encode_move(ticket.payload), str(ticket.deadline)
        else:
            stream, payload, deadline = streams.OFFLINE, msgspec.json.encode(ticket.payload), ""
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[job_id] = answer
        fields = {
            "kind": ticket.kind,
            "id": job_id,
            "reply": self.reply,
            "deadline": deadline,
            "budget_ms": str(budget_ms),
            "payload": payload,
        }
        try:
            await self.client.xadd(stream, fields, maxlen=streams.STREAM_LENGTH, approximate=True)
            if ticket.kind != MOVE:
                return await answer
            # The scheduler answers the move at its deadline anyway; the slot is held a little longer
            # for the worker's answer, which then frees it.
            timeout = ticket.deadline + ANSWER_GRACE - time.time()
            return await asyncio.wait_for(answer, max(0.0, timeout))
        finally:
            self._waiting.pop(job_id, None)

    async def _read_replies(self) -> None:
        last = "0-0"  # (this server's own stream: every entry in it is an answer to it)
        while True:
            try:
                found = await self.client.xread({self.reply: last}, count=100, block=1000)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("bot tier: reading answers from Redis failed (%s); trying again", e)
                await asyncio.sleep(0.5)
                continue
            for _, entries in found or []:
                for entry_id, fields in entries:
                    last = entry_id
                    self._answer(fields)

    def _answer(self, fields: dict[bytes, bytes]) -> None:
        future = self._waiting.get(fields[b"id"].decode())
        if future is None or future.done():
            return  # (late, or a job answered twice after a retry)
        payload = fields[b"payload"]
        if fields[b"ok"] != b"1":
            future.set_exception(TierJobError(payload.decode()))
        elif fields[b"kind"] == MOVE.encode():
            future.set_result(decode_outcome(payload))
        else:
            future.set_result(msgspec.json.decode(payload))

    async def _count_workers(self) -> None:
        while True:
            try:
                since = time.time() - streams.LIVE_SECONDS
                self.live = max(1, int(await self.client.zcount(streams.WORKERS, since, "+inf")))
                self.scheduler.pump()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("bot tier: counting the workers failed (%s)", e)
            await asyncio.sleep(1.0)

    async def close(self) -> None:
        await self.scheduler.close()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        with contextlib.suppress(Exception):
            await self.client.delete(self.reply)
        await self.client.aclose()
