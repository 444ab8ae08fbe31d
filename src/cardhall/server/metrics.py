"""The server's metrics, in the Prometheus text format at ``GET /metrics`` (``prometheus-client``).

What is counted: connections open, tables owned, actions committed (a counter: actions/s is its rate),
commit latency (a histogram of the group commit's transactions), lease changes (tables taken, lost to
another process, released at shutdown), bus latency (a histogram of the time from publishing a message
on the bus to its arrival, by the sender's and the receiver's clocks: on one machine exact, across
machines as good as their clock sync) and the bot moves under way or waiting (sampled every second).

Choices:

- **One process**: the default registry, served by the process itself.
- **N workers on one machine** (``cardhall serve --workers N``): Prometheus' multiprocess mode. The
  supervisor gives every worker the same fresh directory in ``PROMETHEUS_MULTIPROC_DIR`` before any of
  them imports ``prometheus_client``; each writes its values there, and whichever worker answers a
  scrape (they share one port) sums them all (``MultiProcessCollector``; gauges ``livesum``: the
  values of the workers alive). A scrape therefore sees the machine, not the one worker it reached.
- **Several machines**: each is scraped on its own, like any fleet; the ``node`` of
  ``/healthz`` says which process answered.
"""

from __future__ import annotations

import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

MULTIPROCESS = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))
_GAUGE = {"multiprocess_mode": "livesum"} if MULTIPROCESS else {}
# Milliseconds matter: a frame's latency budget is 100 ms at p99.
_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)

CONNECTIONS = Gauge("cardhall_connections", "websocket connections open", **_GAUGE)  # type: ignore[arg-type]
TABLES = Gauge("cardhall_tables", "tables this process owns", **_GAUGE)  # type: ignore[arg-type]
BOT_QUEUE = Gauge("cardhall_bot_queue", "bot moves under way or waiting their pace", **_GAUGE)  # type: ignore[arg-type]
ACTIONS = Counter("cardhall_actions", "actions committed to the store")
COMMIT_SECONDS = Histogram(
    "cardhall_commit_seconds", "seconds a group commit's transaction took", buckets=_BUCKETS
)
LEASES = Counter("cardhall_lease_changes", "tables taken, lost or released by this process", ["change"])
BUS_SECONDS = Histogram(
    "cardhall_bus_seconds", "seconds from publishing a bus message to its arrival", buckets=_BUCKETS
)


def exposition() -> tuple[bytes, str]:
    """The metrics as Prometheus' text format, and its content type."""
    if MULTIPROCESS:
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(), CONTENT_TYPE_LATEST
