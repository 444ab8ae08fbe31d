"""The page at each screen's address, the web app manifests and icons, and the service worker, as the
server hands them out (:mod:`cardhall.server.pages`), in-process: every screen's address answers with the
page and any other path stays 404; the worker comes with the client's version and files filled in, and
its version changes with any client file."""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
from pathlib import Path

import pytest

import cardhall
from cardhall.registry import entries, folder
from cardhall.server.client_games import catalogue
from cardhall.server.pages import client_files, client_version, worker_source
from tests.server_helpers import server

WEB = Path(cardhall.__file__).parent / "web"
PAGES = ["/", "/tables/abc_-12", "/tables/abc_-12/replay", "/players/42", "/rules/hokm", "/rules/svara"]
NOT_PAGES = [
    "/nope",
    "/index.html",
    "/tables",
    "/tables/a.b",
    "/tables/abc/replays",
    "/tables/abc/replay/1",
    "/players/ann",
    "/players/4 2",
    "/rules/chess",
    "/rules",
    "/api/nope",
    "/static/nope.js",
]


def test_every_screens_address_answers_with_the_page_and_no_other_path_does() -> None:
    with server() as client:
        page = client.get("/").text
        assert '<main id="main"' in page
        for path in PAGES:
            response = client.get(path)
            assert response.status_code == 200, path
            assert response.text == page and response.headers["cache-control"] == "no-cache", path
        for path in NOT_PAGES:
            assert client.get(path).status_code == 404, path
        # The API is as it was: a table's address is the page, its summary the API's.
        assert client.get("/api/tables/abc").json()["error"] == "no_such_table"


def test_the_manifests_name_the_app_in_each_language_with_its_icons() -> None:
    with server() as client:
        page = client.get("/").text
        assert '<link rel="manifest" href="/static/manifest-en.webmanifest">' in page
        names = {}
        for lang in ("en", "bn"):
            response = client.get(f"/static/manifest-{lang}.webmanifest")
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("application/manifest+json")
            manifest = response.json()
            assert (
                manifest["lang"] == lang
                and manifest["start_url"] == "/"
                and manifest["display"] == "standalone"
            )
            names[lang] = manifest["name"]
            pngs = [i for i in manifest["icons"] if i["type"] == "image/png"]
            assert {i["sizes"] for i in pngs} == {"192x192", "512x512"}
            for icon in pngs:
                data = client.get(icon["src"]).content
                assert data[:8] == b"\x89PNG\r\n\x1a\n"
                assert "x".join(map(str, struct.unpack(">II", data[16:24]))) == icon["sizes"]
        assert names["en"].startswith("cardhall") and re.search("[\u0980-\u09ff]", names["bn"])


def test_the_worker_comes_with_the_clients_version_and_files() -> None:
    with server() as client:
        response = client.get("/sw.js")
        assert response.status_code == 200 and response.headers["cache-control"] == "no-cache"
        assert response.headers["content-type"].startswith("text/javascript")
        source = response.text
        assert "__VERSION__" not in source and "__FILES__" not in source
        version = re.search(r'const VERSION = "([0-9a-f]{16})";', source)
        assert version and version.group(1) == client_version()
        files = json.loads(re.search(r"const FILES = (\[.*?\]);", source).group(1))  # type: ignore[union-attr]
        assert files[0] == "/" and "/static/app.js" in files and "/static/icons/icon-512.png" in files
        assert "/static/sw.js" not in files
        for path in files:  # each file kept is one the server serves
            assert client.get(path).status_code == 200, path


def test_the_version_changes_with_any_client_file(tmp_path: Path) -> None:
    web = tmp_path / "web"
    shutil.copytree(WEB, web)
    first = client_version(web)
    assert client_version(web) == first  # (the same files, the same version)
    module = web / "games" / "base.js"
    module.write_text(module.read_text("utf-8") + "\n// changed\n", "utf-8")
    second = client_version(web)
    assert second != first
    stat = module.stat()
    os.utime(module, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))  # the same size, a new time
    assert client_version(web) != second
    (web / "new.js").write_text("export {};\n", "utf-8")
    assert "/static/new.js" in client_files(web) and client_version(web) not in (first, second)
    assert f'"{client_version(web)}"' in worker_source(web)


@pytest.mark.parametrize("path", ["/", "/tables/abc", "/sw.js"])
def test_the_page_and_the_worker_are_gzipped(path: str) -> None:
    with server() as client:
        response = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert response.headers["content-encoding"] == "gzip"


def test_the_catalogues_and_the_games_tables_come_from_the_games_folders() -> None:
    """The page asks where it always did; the answer is merged from (or read in) each game's folder, with
    an ETag that a browser's next request turns into a 304 while nothing changed."""
    with server() as client:
        for lang in ("en", "bn"):
            sent = client.get(f"/static/i18n/{lang}.json")
            assert sent.status_code == 200 and sent.json() == catalogue(lang)
            assert sent.headers["cache-control"] == "no-cache"
            again = client.get(f"/static/i18n/{lang}.json", headers={"If-None-Match": sent.headers["etag"]})
            assert again.status_code == 304
        for name in entries():
            module = client.get(f"/static/games/{name}.js")
            assert module.status_code == 200 and module.headers["content-type"].startswith("text/javascript")
            assert module.text == (Path(str(folder(name))) / "web.js").read_text("utf-8")
        assert client.get("/static/games/base.js").status_code == 200  # the shared table, as before
        assert client.get("/static/games/chess.js").status_code == 404
