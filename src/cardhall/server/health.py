"""Health and metrics routes, for load balancers, orchestrators and Prometheus.

- ``GET /healthz/live``: 200 while the process serves at all (its event loop answers): restart it
  when this fails.
- ``GET /healthz/ready``: 200 when it should be sent players: its store answers a read and knows of no
  problem (an SQLite file deleted under it), and (many processes) its bus is up; 503 otherwise. Both
  answer JSON: ``status`` (``alive``, ``ready`` or ``not_ready``), ``node`` (this process's name in
  the hall, null on one process), ``tables`` (held here), ``paused`` (tables waiting for the store)
  and, when not ready, ``problems``. A load balancer
  takes a process that is not ready out of rotation; its players are reconnected elsewhere by their
  clients.
- ``GET /metrics``: Prometheus' text format (:mod:`cardhall.server.metrics`).

None of them touches the store's writes, and none needs a token (they say nothing of any player).
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from cardhall.server import metrics
from cardhall.server.context import ServerContext
from cardhall.server.protocol import encode

STORE_CHECK_SECONDS = 2.0


def _ctx(request: Request) -> ServerContext:
    ctx: ServerContext = request.app.state.ctx
    return ctx


def _body(ctx: ServerContext, status: str) -> dict[str, Any]:
    return {
        "status": status,
        "node": ctx.node,
        "tables": len(ctx.lobby.hosts),
        "paused": len(ctx.store_watch.paused),
    }


def _json(data: dict[str, Any], status: int = 200) -> Response:
    return Response(encode(data), status_code=status, media_type="application/json")


async def live(request: Request) -> Response:
    return _json(_body(_ctx(request), "alive"))


async def ready(request: Request) -> Response:
    ctx = _ctx(request)
    problems = []
    try:
        await asyncio.wait_for(ctx.store.table(""), STORE_CHECK_SECONDS)
    except Exception as e:
        problems.append(f"the store does not answer: {type(e).__name__}: {e}")
    problems.extend(ctx.store.problems())
    problems.extend(ctx.hall.problems())  # (many processes: the bus down)
    if problems:
        return _json({**_body(ctx, "not_ready"), "problems": problems}, 503)
    return _json(_body(ctx, "ready"))


async def prometheus(request: Request) -> Response:
    data, content_type = metrics.exposition()
    return Response(data, media_type=content_type)
