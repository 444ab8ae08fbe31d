"""A bot tier worker (``cardhall bots --redis URL``): takes jobs from the tier's streams with the
consumer group (:mod:`cardhall.bot_tier.streams`), runs each (:mod:`cardhall.bot_tier.jobs`: a move cut
to its deadline, a review) and sends the answer to the requesting server's reply stream. Any number of
workers, on any machine that reaches Redis; each runs one job at a time on one core.

Before reading new jobs a worker claims (``XAUTOCLAIM``) entries left pending for
:data:`~cardhall.bot_tier.streams.CLAIM_IDLE_MS` by a worker that stopped (killed mid-think): that job
is run again here (a move with what is left of its deadline, or the rules move when nothing is). A
heartbeat thread says the worker lives (the servers count the slots from it) and keeps the idle time
of the entry it works on at zero, so a long review is never taken from a live worker.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
from typing import Any

import msgspec
import redis
from redis.exceptions import ResponseError

from cardhall.bot_tier import streams
from cardhall.bot_tier.jobs import MOVE, REVIEW, decode_move, encode_outcome, run_review, think

log = logging.getLogger(__name__)


def default_name() -> str:
    return f"{socket.gethostname()}-{os.getpid()}"


class Worker:
    def __init__(self, url: str, name: str | None = None, claim_idle_ms: int = streams.CLAIM_IDLE_MS) -> None:
        self.client: Any = redis.Redis.from_url(url)
        self.name = name or default_name()
        self.claim_idle_ms = claim_idle_ms
        self.current: tuple[str, bytes] | None = None  # (stream, entry id) being worked on
        self.stopping = threading.Event()
        self.done = 0

    def ensure_groups(self) -> None:
        for stream in (streams.JOBS, streams.OFFLINE):
            try:
                self.client.xgroup_create(stream, streams.GROUP, id="0", mkstream=True)
            except ResponseError as e:
                if "BUSYGROUP" not in str(e):
                    raise

    def heartbeat(self) -> None:
        """In its own thread: the worker's heartbeat, and its current entry's idle time reset."""
        while not self.stopping.is_set():
            try:
                self.client.zadd(streams.WORKERS, {self.name: time.time()})
                current = self.current
                if current is not None:
                    stream, entry = current
                    self.client.xclaim(stream, streams.GROUP, self.name, 0, [entry], justid=True)
            except redis.RedisError as e:
                log.warning("worker %s: heartbeat failed (%s)", self.name, e)
            self.stopping.wait(streams.HEARTBEAT_SECONDS)

    def next_entry(self) -> tuple[str, bytes, dict[bytes, bytes]] | None:
        """A job to run: one a dead worker left, else a move, else an offline job (waiting up to 1 s)."""
        for stream in (streams.JOBS, streams.OFFLINE):
            found = self.client.xautoclaim(
                stream, streams.GROUP, self.name, self.claim_idle_ms, "0-0", count=1
            )
            for entry, fields in found[1]:
                if fields:
                    log.info("worker %s: claimed %s, left by a worker that stopped", self.name, entry)
                    return stream, entry, fields
                self.client.xack(stream, streams.GROUP, entry)  # (deleted meanwhile)
        # A move first; an offline job only when no move waits; then wait (1 s) for a move.
        for keys, block in (
            ({streams.JOBS: ">"}, None),
            ({streams.OFFLINE: ">"}, None),
            ({streams.JOBS: ">"}, 1000),
        ):
            got = self.client.xreadgroup(streams.GROUP, self.name, keys, count=1, block=block)
            for stream, entries in got or []:
                for entry, fields in entries:
                    return stream.decode() if isinstance(stream, bytes) else stream, entry, fields
        return None

    def run_entry(self, stream: str, entry: bytes, fields: dict[bytes, bytes]) -> None:
        kind = fields[b"kind"].decode()
        ok, answer = b"1", b""
        try:
            if kind == MOVE:
                deadline = float(fields[b"deadline"])
                outcome = think(
                    decode_move(fields[b"payload"]), int(fields[b"budget_ms"]), deadline, self.name
                )
                answer = encode_outcome(outcome)
            elif kind == REVIEW:
                answer = msgspec.json.encode(run_review(msgspec.json.decode(fields[b"payload"])))
            else:
                raise ValueError(f"unknown job kind {kind!r}")
        except Exception as e:
            log.exception("worker %s: a %s job failed", self.name, kind)
            ok, answer = b"0", f"{type(e).__name__}: {e}".encode()
        reply = {"id": fields[b"id"], "kind": kind, "ok": ok, "payload": answer, "worker": self.name}
        pipe = self.client.pipeline()
        pipe.xadd(fields[b"reply"], reply, maxlen=streams.STREAM_LENGTH, approximate=True)
        pipe.xack(stream, streams.GROUP, entry)
        pipe.xdel(stream, entry)
        pipe.execute()
        self.done += 1

    def serve(self, max_jobs: int | None = None) -> None:
        """Take and run jobs until :attr:`stopping` is set (or ``max_jobs`` are done)."""
        self.ensure_groups()
        beat = threading.Thread(target=self.heartbeat, name=f"{self.name} heartbeat", daemon=True)
        beat.start()
        try:
            while not self.stopping.is_set() and (max_jobs is None or self.done < max_jobs):
                try:
                    found = self.next_entry()
                except redis.RedisError as e:
                    log.warning("worker %s: Redis failed (%s); trying again", self.name, e)
                    self.stopping.wait(1.0)
                    continue
                if found is None:
                    continue
                stream, entry, fields = found
                self.current = (stream, entry)
                try:
                    self.run_entry(stream, entry, fields)
                finally:
                    self.current = None
        finally:
            self.stopping.set()
            beat.join(timeout=2)
            with contextlib.suppress(redis.RedisError):
                self.client.zrem(streams.WORKERS, self.name)
