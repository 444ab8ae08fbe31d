"""The documentation site (``mkdocs.yml``, pages under ``docs/``) builds with ``mkdocs build --strict``:
a broken link or anchor, a page left out of the navigation or an unknown option fails the build, and any
warning fails this test.

MkDocs leaves a relative link that is no page (a folder such as ``schema/``, a JSON file) as it is and
says so at INFO level (``unrecognized_links: info``): such a link is checked here instead, against the
files of ``docs/``. A second build, of a copy of the site with an orphan page and a broken link, shows
that the strict build does refuse them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

pytestmark = [pytest.mark.slow, pytest.mark.process]


def _build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("material", reason="the docs extra (make setup installs it)")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # Material's banner about its successor
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--config-file",
            str(config),
            "--site-dir",
            str(site),
        ],
        cwd=config.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_the_site_builds_strict_without_a_warning(tmp_path: Path) -> None:
    done = _build(ROOT / "mkdocs.yml", tmp_path / "site")
    log = done.stdout + done.stderr
    assert done.returncode == 0, log
    assert not re.search(r"^WARNING", log, re.M), log
    assert (tmp_path / "site" / "index.html").is_file()
    assert (tmp_path / "site" / "bn" / "players-guide.html").is_file()
    for page, link in re.findall(r"Doc file '([^']+)' contains an unrecognized relative link '([^']+)'", log):
        target = (DOCS / page).parent / link.split("#")[0]
        assert target.exists(), f"docs/{page}: {link} leads nowhere"


def test_a_strict_build_refuses_an_orphan_page_and_a_broken_link(tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(DOCS, copy / "docs", ignore=shutil.ignore_patterns("screenshots", "schema"))
    (copy / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "mkdocs_hooks.py", copy / "scripts")
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    for page in (copy / "docs").rglob("*.md"):  # the pictures and schemas were left out of the copy
        text = re.sub(r"!\[[^\]]*\]\([^)]+\)", "", page.read_text(encoding="utf-8"))
        page.write_text(text.replace("](schema/", "](events.md#"), encoding="utf-8")
    (copy / "docs" / "orphan.md").write_text("# Not in the nav\n", encoding="utf-8")
    testing = copy / "docs" / "testing.md"
    testing.write_text(testing.read_text(encoding="utf-8") + "\n[gone](no-such-page.md)\n", encoding="utf-8")
    done = _build(copy / "mkdocs.yml", tmp_path / "site")
    log = done.stdout + done.stderr
    assert done.returncode != 0, log
    assert "orphan.md" in log and "no-such-page.md" in log, log
