"""Every Python example of the README runs as pasted."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


def test_the_readme_has_examples() -> None:
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_a_readme_example_runs(number: int) -> None:
    exec(compile(BLOCKS[number], f"README.md example {number + 1}", "exec"), {})
