"""The browser client as the server hands it out: the page (one HTML shell for every screen's address),
the client's static files, and its service worker.

Choices:

- **An address per screen.** The page is served at ``/`` (the lobby, or the first page for someone new)
  and at the address of every screen the client draws: ``/tables/{table}`` (a table, or its waiting
  room), ``/tables/{table}/replay`` (a finished match's replay and review), ``/players/{player}`` (a
  person's page), ``/rules/{game}`` (a game's rules) and the tournaments' ``/events``,
  ``/events/{event}`` and ``/events/{event}/players/{player}``. The client reads the address and draws that
  screen; Back and Forward move between them (``web/router.js``). Any other path stays 404: a table
  id must look like one (letters, digits, ``-`` and ``_``), a player is a number, a game one the server
  has. A table's address answers the same whether the table exists or not, and whether it is private
  or not: the address tells nobody which private tables exist (the websocket refuses one without its
  invitation with ``no_such_table``, as before).
- **Kept, and revalidated.** The page and every static file are sent with ``Cache-Control: no-cache``
  and an ETag (Starlette's: the file's size and time): a browser keeps them and asks each time whether
  they changed (304 when not).
- **The service worker** (``/sw.js``, at the root so that it may answer for every address of the
  site) is ``web/sw.js`` with two things filled in by the server: the list of the client's files to
  keep, and the client's *version*, a hash of every file's path, size and time. A file changed on the
  server changes the version, so the browser, which asks for ``/sw.js`` again at each visit, installs
  the new worker, which keeps the new files in a cache of their own; ``web/offline.js`` says when it is
  used (the files of one version are never mixed with another's).
- **A game's files from its folder.** Its table (``/static/games/<name>.js``) and its texts (merged into
  ``/static/i18n/<lang>.json``) are in the game's folder, served by :mod:`cardhall.server.client_games`
  at the addresses the page has always asked for.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from cardhall.registry import game_classes
from cardhall.server import client_games

WEB = Path(__file__).resolve().parent.parent / "web"
INDEX = WEB / "index.html"
WORKER = WEB / "sw.js"

REVALIDATE = {"Cache-Control": "no-cache"}  # kept by the browser, checked with the server each time
TABLE_ID = re.compile(r"[\w-]{1,64}", re.ASCII)  # (a table's id: 8 URL-safe characters today)
PLAYER_ID = re.compile(r"[0-9]{1,18}")
# What the worker keeps besides the files: nothing the client does not load (the worker's own source).
NOT_KEPT = {"sw.js"}


class ClientFiles(StaticFiles):
    """The client's static files, with ETags (Starlette's) and ``Cache-Control: no-cache``; the catalogues
    and the games' tables from the games' folders (:mod:`cardhall.server.client_games`)."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        served = client_games.response(path, Headers(scope=scope))  # a catalogue, a game's table
        response = served if served is not None else await super().get_response(path, scope)
        if response.status_code in (200, 304):
            response.headers.update(REVALIDATE)
        return response


def page() -> Response:
    if INDEX.exists():
        return HTMLResponse(INDEX.read_text(encoding="utf-8"), headers=REVALIDATE)
    return HTMLResponse(
        "<!doctype html><title>cardhall</title><p>cardhall server: the API is at /api/games.</p>"
    )


def not_found() -> Response:
    return PlainTextResponse("Not Found", status_code=404)


async def index(request: Request) -> Response:
    return page()


async def table_page(request: Request) -> Response:
    """A table's address (its waiting room, the table, or its replay: the client decides which)."""
    return page() if TABLE_ID.fullmatch(request.path_params["table"]) else not_found()


async def player_page(request: Request) -> Response:
    return page() if PLAYER_ID.fullmatch(request.path_params["player"]) else not_found()


async def events_page(request: Request) -> Response:
    """The events list, an event (an id as a table's looks), or a person's results in one."""
    event = request.path_params.get("event")
    player = request.path_params.get("player")
    if event is not None and not TABLE_ID.fullmatch(event):
        return not_found()
    if player is not None and not PLAYER_ID.fullmatch(player):
        return not_found()
    return page()


async def rules_page(request: Request) -> Response:
    return page() if request.path_params["game"] in game_classes() else not_found()


def client_files(web: Path = WEB) -> list[str]:
    """The client's files the worker keeps, as the page asks for them: ``/`` (the page) and each
    ``/static/...`` file, in a stable order."""
    files = sorted(
        p.relative_to(web).as_posix() for p in web.rglob("*") if p.is_file() and not p.name.startswith(".")
    )
    kept = [f"/static/{name}" for name in files if name not in NOT_KEPT]
    return ["/", *sorted([*kept, *client_games.client_files()])]


def client_version(web: Path = WEB) -> str:
    """A hash of every client file's path, size and time (as Starlette's ETags): it changes with any
    file, so a browser installs the worker of the new version (16 hex digits)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in web.rglob("*") if p.is_file()):
        stat = path.stat()
        digest.update(f"{path.relative_to(web).as_posix()} {stat.st_size} {stat.st_mtime_ns}\n".encode())
    for path in client_games.files_for_version():  # each game's table and texts, from its folder
        stat = path.stat()
        digest.update(f"games/{path.parent.name}/{path.name} {stat.st_size} {stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def worker_source(web: Path = WEB) -> str:
    """``web/sw.js`` with its version and its list of files filled in."""
    source = (web / WORKER.name).read_text(encoding="utf-8")
    return source.replace('"__VERSION__"', json.dumps(client_version(web))).replace(
        '["__FILES__"]', json.dumps(client_files(web))
    )


async def service_worker(request: Request) -> Response:
    if not WORKER.exists():
        return not_found()
    return Response(worker_source(), media_type="text/javascript", headers=REVALIDATE)


def page_routes() -> list[Route]:
    """The page at each screen's address, and the service worker."""
    return [
        Route("/", index),
        Route("/tables/{table}", table_page),
        Route("/tables/{table}/replay", table_page),
        Route("/players/{player}", player_page),
        Route("/rules/{game}", rules_page),
        Route("/events", events_page),
        Route("/events/{event}", events_page),
        Route("/events/{event}/players/{player}", events_page),
        Route("/sw.js", service_worker),
    ]
