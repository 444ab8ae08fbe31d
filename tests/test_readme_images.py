"""The pictures the README and the documentation site show (the browser client's screenshots, copied to
``docs/screenshots/`` from ``tests/screenshots/``) are files of the repository, and the README shows a
table on its first screen."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)]+)\)")


def test_the_readme_images_exist() -> None:
    images = IMAGE.findall(README.read_text(encoding="utf-8"))
    assert len(images) >= 1
    for image in images:
        assert (README.parent / image).is_file(), image


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_images_of_every_page_exist(page: Path) -> None:
    for image in IMAGE.findall(page.read_text(encoding="utf-8")):
        assert (page.parent / image).is_file(), f"{page.relative_to(ROOT)}: {image}"


def test_the_docs_show_the_screenshots() -> None:
    shown = {Path(i).name for page in PAGES for i in IMAGE.findall(page.read_text(encoding="utf-8"))}
    assert len(shown) >= 6, shown


def test_the_readme_is_a_front_door() -> None:
    """Issue 51: at most about 12 KB, with a table's screenshot within its first 40 lines."""
    text = README.read_text(encoding="utf-8")
    assert len(text.encode()) <= 12 * 1024, len(text.encode())
    first = "\n".join(text.splitlines()[:40])
    assert "docs/screenshots/table-en-desktop.png" in IMAGE.findall(first)
    assert "Play now" in first
