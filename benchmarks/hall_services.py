"""A throwaway PostgreSQL and Redis for the benchmarks of a hall on many processes
(``load.py --servers N``, ``failover.py``), from the tests' own helpers (Debian's binaries): prints
the database URL and the Redis URL, one a line, and keeps both running until interrupted.

    .venv/bin/python benchmarks/hall_services.py [--durable]

Not durable by default (PostgreSQL without fsync, as in the tests): the figures then measure the
processes, not this shared machine's disk.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.postgres import postgres_server
from tests.redis_server import redis_server


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--durable", action="store_true", help="PostgreSQL with fsync on")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with postgres_server(durable=args.durable) as pg, redis_server() as redis:
        print(pg.create_database(), flush=True)
        print(redis.url, flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
