"""The browser client's first load and its time to the first card played, measured in Debian's headless
Chromium (Playwright) against ``cardhall serve`` in its own process (SQLite file).

Each round opens a fresh browser context (an empty cache), so every file is fetched:

- **first load**: the bytes on the wire (headers and encoded bodies, as Chromium counts them) and the
  requests made until the name form shows, and the same once the lobby is drawn after a name is entered;
- **time to the first card**: from opening the page to the first card of the player's own on the felt:
  enter a name, quick play Hokm against easy bots (fast pace), and click the first playable card when
  it is his turn (bids and trump too, the first of each). The bots' moves and the server's replies are
  part of it; the machine's load too (rounds are interleaved between the builds compared).

``--src PATH`` runs the server (and so the client it serves) from another checkout's ``src`` (for a
before/after comparison: ``git worktree add /tmp/before <commit>``). Results: ``benchmarks/web.md``.

    python benchmarks/web.py --rounds 5
    python benchmarks/web.py --rounds 5 --src /tmp/before/src --json
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serve(src: str | None) -> Iterator[str]:
    """A ``cardhall serve`` on a fresh SQLite file (from ``src`` when given); its base URL."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        if src:
            env["PYTHONPATH"] = src
        command = [sys.executable, "-m", "cardhall", "serve", "--port", str(port)]
        command += ["--db", f"sqlite+aiosqlite:///{tmp}/web.db"]
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=2).read()
                    break
                except OSError:
                    if time.monotonic() > deadline or process.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.1)
            yield f"http://127.0.0.1:{port}"
        finally:
            process.kill()
            process.wait()


class Wire:
    """The bytes and requests a page's responses took, as Chromium counts them (encoded bodies)."""

    def __init__(self) -> None:
        self.bytes = 0
        self.requests = 0
        self.urls: list[str] = []

    def on_finished(self, request: Any) -> None:
        sizes = request.sizes()
        self.bytes += sizes["responseBodySize"] + sizes["responseHeadersSize"]
        self.requests += 1
        self.urls.append(request.url.split("/", 3)[-1])


def first_card(page: Any) -> None:
    """Play the first playable thing until a card of the hand has been played to the felt."""
    while True:
        page.wait_for_selector(".hand .card.legal, .actions button.act:not([disabled])")
        card = page.locator(".hand .card.legal")
        if card.count():
            held = page.locator(".hand .card").count()
            try:
                card.first.click(timeout=2_000)
            except Exception:
                continue
            # played: the hand holds a card fewer (the trick it went to may be taken at once)
            page.wait_for_function(f"document.querySelectorAll('.hand .card').length === {held - 1}")
            return
        button = page.locator(".actions button.act:not([disabled])")
        if button.count():
            try:
                button.first.click(timeout=2_000)
            except Exception:
                continue


def one_round(browser: Any, base: str) -> dict[str, Any]:
    context = browser.new_context(viewport={"width": 1366, "height": 768}, base_url=base)
    context.set_default_timeout(120_000)
    page = context.new_page()
    wire = Wire()
    page.on("requestfinished", wire.on_finished)
    start = time.perf_counter()
    page.goto("/")
    page.wait_for_selector("#name")
    form_ms = (time.perf_counter() - start) * 1000
    page.wait_for_load_state("networkidle")
    form = (wire.bytes, wire.requests)
    page.fill("#name", "Ann")
    page.click("#enter")
    page.wait_for_selector("#quickplay")
    page.wait_for_load_state("networkidle")
    lobby = (wire.bytes, wire.requests)
    page.select_option("#qp-game", "hokm")
    page.select_option("#qp-level", "easy")
    page.select_option("#qp-pace", "0")
    page.click("#quickplay")
    first_card(page)
    card_ms = (time.perf_counter() - start) * 1000
    context.close()
    return {
        "form_bytes": form[0],
        "form_requests": form[1],
        "form_ms": form_ms,
        "lobby_bytes": lobby[0],
        "lobby_requests": lobby[1],
        "first_card_ms": card_ms,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--src", help="run the server from this checkout's src (before/after)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with serve(args.src) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        one_round(browser, base)  # warm the server (imports, the first table) once, not measured
        rounds = [one_round(browser, base) for _ in range(args.rounds)]
        browser.close()
    summary = {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}
    summary["first_card_ms_min"] = min(r["first_card_ms"] for r in rounds)
    summary["first_card_ms_max"] = max(r["first_card_ms"] for r in rounds)
    if args.json:
        print(json.dumps({"src": args.src or "this checkout", "rounds": rounds, "median": summary}, indent=1))
        return
    print(f"server from: {args.src or Path(__file__).resolve().parent.parent / 'src'}, {args.rounds} rounds")
    for label, key in (("first page (name form)", "form"), ("after entering (lobby)", "lobby")):
        kib, requests = summary[f"{key}_bytes"] / 1024, summary[f"{key}_requests"]
        print(f"{label}: {kib:.1f} KiB in {requests:.0f} requests")
    print(f"name form shown: {summary['form_ms']:.0f} ms (median)")
    print(
        f"first card played: {summary['first_card_ms']:.0f} ms median"
        f" ({summary['first_card_ms_min']:.0f}..{summary['first_card_ms_max']:.0f})"
    )


if __name__ == "__main__":
    main()
