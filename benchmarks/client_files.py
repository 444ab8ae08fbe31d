"""What the server spends on the client's per-game files: ``GET /static/i18n/bn.json`` (the catalogue,
merged from each game's folder since the games live in folders) and ``GET /static/games/hokm.js`` (a
game's table, read from its folder), through Starlette's test client (gzip included), best of 5 runs of
200 requests each. Run it on two trees back to back (``PYTHONPATH=<tree>/src:<tree>``) and compare;
results in ``benchmarks/client_files.md``."""

from __future__ import annotations

import time

from tests.server_helpers import server

PATHS = ("/static/i18n/bn.json", "/static/games/hokm.js")


def main() -> None:
    with server() as client:
        for path in PATHS:
            client.get(path)
            runs = []
            for _ in range(5):
                start = time.perf_counter()
                for _ in range(200):
                    response = client.get(path)
                runs.append((time.perf_counter() - start) / 200 * 1000)
            size = len(response.content)
            print(f"{path}: {min(runs):.2f} ms a request ({response.status_code}, {size} bytes)")


if __name__ == "__main__":
    main()
