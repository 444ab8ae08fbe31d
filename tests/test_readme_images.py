"""The pictures the README shows (the browser client's screenshots, copied to ``docs/screenshots/`` from
``tests/screenshots/``) are files of the repository."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_readme_images_exist() -> None:
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", README.read_text(encoding="utf-8"))
    assert len(images) >= 2
    for image in images:
        assert (README.parent / image).is_file(), image
