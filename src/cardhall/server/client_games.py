"""The browser client's per-game files, served from each game's folder at the addresses the page asks.

A game keeps its browser texts and its table in its own folder (``games/<name>/i18n.<lang>.json``,
``games/<name>/web.js``: :mod:`cardhall.games.pieces`), and the page asks for them where it always has
(the static files' mount asks :func:`response` first, so no route is added):

- ``/static/i18n/<lang>.json`` is the client's catalogue (``web/i18n/<lang>.json``, the texts of no
  game) with every registered game's texts after it, by game name (:func:`catalogue`). Choice: merged
  on the server rather than fetched per game by the page, so the page still loads one catalogue (one
  request, and what it receives is the same texts as when they were one file).
- ``/static/games/<name>.js`` is the game's ``web.js`` (:func:`game_module`). ``web/games/index.js``
  imports it by the name ``GET /api/games`` lists; a game without one gets the shared table
  (``base.js``), as before.

Both are sent as the other static files are: ``Cache-Control: no-cache`` and an ETag (of the content),
answered 304 when the browser's copy is current. The service worker keeps them too
(:func:`client_files`), and its version changes with them (:func:`files_for_version`).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from starlette.datastructures import Headers
from starlette.responses import Response

from cardhall.registry import entries, folder

WEB = Path(__file__).resolve().parent.parent / "web"
LANGUAGES = tuple(sorted(p.stem for p in (WEB / "i18n").glob("*.json")))
REVALIDATE = {"Cache-Control": "no-cache"}


def game_folder(name: str) -> Path:
    return Path(str(folder(name)))


def game_module_path(name: str) -> Path | None:
    """The game's browser table (its folder's ``web.js``), or None when it has none."""
    path = game_folder(name) / "web.js"
    return path if path.is_file() else None


def catalogue(lang: str, web: Path = WEB) -> dict[str, str]:
    """The client's catalogue in ``lang``: the texts of no game, then each game's, by game name. KeyError
    for a language the client has no catalogue in."""
    if lang not in LANGUAGES:
        raise KeyError(lang)
    texts: dict[str, str] = json.loads((web / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    for name in entries():
        path = game_folder(name) / f"i18n.{lang}.json"
        if path.is_file():
            own: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
            texts.update(own)
    return texts


def files_for_version() -> list[Path]:
    """Every game's files the page receives, for the client's version (a change of one is a new version)."""
    found = []
    for name in entries():
        base = game_folder(name)
        found += [
            p for p in (base / "web.js", *(base / f"i18n.{lang}.json" for lang in LANGUAGES)) if p.is_file()
        ]
    return found


def client_files() -> list[str]:
    """The per-game addresses the service worker keeps (the catalogues are kept as ``web/i18n``'s files)."""
    return [f"/static/games/{name}.js" for name in entries() if game_module_path(name) is not None]


def _catalogue_files(lang: str) -> list[Path]:
    found = [WEB / "i18n" / f"{lang}.json"]
    return found + [p for name in entries() if (p := game_folder(name) / f"i18n.{lang}.json").is_file()]


# Each language's merged catalogue (its body and ETag), kept while none of its files changed: merging
# is some 15 ms of the server's time, asking the files' sizes and times some 30 µs.
_MERGED: dict[str, tuple[tuple[tuple[str, int, int], ...], bytes, str]] = {}


def _merged(lang: str) -> tuple[bytes, str]:
    stats = [(p, p.stat()) for p in _catalogue_files(lang)]
    signature = tuple((str(p), st.st_size, st.st_mtime_ns) for p, st in stats)
    kept = _MERGED.get(lang)
    if kept is None or kept[0] != signature:
        body = json.dumps(catalogue(lang), ensure_ascii=False, indent=2).encode()
        kept = _MERGED[lang] = (signature, body, _tag(body))
    return kept[1], kept[2]


def _tag(body: bytes) -> str:
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def _send(headers: Headers, body: bytes, media_type: str, tag: str | None = None) -> Response:
    tag = tag or _tag(body)
    sent = {**REVALIDATE, "ETag": tag}
    if tag in headers.get("if-none-match", ""):
        return Response(status_code=304, headers=sent)
    return Response(body, media_type=media_type, headers=sent)


def response(path: str, headers: Headers) -> Response | None:
    """The answer to ``/static/<path>`` when it is a catalogue or a game's table (None: any other file,
    which the static files answer)."""
    lang = path.removeprefix("i18n/").removesuffix(".json")
    if path == f"i18n/{lang}.json" and lang in LANGUAGES:
        body, tag = _merged(lang)  # (merged again once a file changed: an edited text is served at once)
        return _send(headers, body, "application/json", tag)
    name = path.removeprefix("games/").removesuffix(".js")
    if path == f"games/{name}.js" and name in entries():
        module = game_module_path(name)
        if module is not None:
            return _send(headers, module.read_bytes(), "text/javascript")
    return None
