"""The browser client's unit tests (``tests/web/unit/*.test.mjs``), run by Node's own test runner: the
pure parts of the page's modules (texts and plural forms, addresses and the history's entries, cards'
and moves' texts, the games' catalogue, the chat's lines, the connection's back-off) and the page's
import graph, without a browser. This wrapper puts them in ``make test`` and ``make quick``.

Decisions: the page's modules are plain ``.js`` ES modules with no ``package.json`` (no build step), so
Node must tell an ES module by its syntax: 20.19+ or 22.7+ do by default; an older Node, or none, skips
with the reason, as a missing browser skips the browser tests. The files are named one by one (Node's
reading of a directory argument differs between versions), and the run must report every file's tests
passed: a test file that fails to load fails here with Node's own output."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent / "unit"
NODE = shutil.which("node")


def node_version(node: str) -> tuple[int, int]:
    text = subprocess.run([node, "--version"], capture_output=True, text=True, check=True).stdout
    found = re.match(r"v(\d+)\.(\d+)", text.strip())
    assert found, f"node --version said {text!r}"
    return int(found[1]), int(found[2])


def loads_es_modules_by_syntax(version: tuple[int, int]) -> bool:
    major, minor = version
    return major >= 23 or (major == 22 and minor >= 7) or (major == 20 and minor >= 19)


def test_the_page_modules_unit_tests_pass() -> None:
    if NODE is None:
        pytest.skip("node is not installed: the browser client's unit tests (tests/web/unit) need it")
    version = node_version(NODE)
    if not loads_es_modules_by_syntax(version):
        found = f"{version[0]}.{version[1]}"
        pytest.skip(f"node {found} loads no .js ES module without package.json (20.19+, 22.7+ do)")
    files = sorted(HERE.glob("*.test.mjs"))
    assert len(files) >= 10, f"the unit tests are in {HERE}"
    written = sum(len(re.findall(r"^test\(", f.read_text("utf-8"), re.M)) for f in files)
    run = subprocess.run(
        [NODE, "--test", "--test-reporter=tap", *map(str, files)],
        cwd=HERE,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = run.stdout + run.stderr
    passed = re.search(r"^# pass (\d+)$", run.stdout, re.M)
    failed = re.search(r"^# fail (\d+)$", run.stdout, re.M)
    assert run.returncode == 0 and failed and failed[1] == "0", f"node --test failed:\n{output}"
    assert passed and int(passed[1]) >= written, f"fewer tests ran than the {written} written:\n{output}"
