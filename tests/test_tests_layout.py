"""The tests' layout: ``tests/`` mirrors ``src/cardhall`` in folders (``tests/README.md``), so that a new
test file lands beside the tests of what it tests.

The rule, by the test module's name first: ``test_NAME.py`` or ``test_NAME_*.py`` where NAME is a package
of ``src/cardhall`` (a folder with an ``__init__.py``, or a folder of data at its top such as ``web``)
belongs in that package's folder (``test_cluster_leases.py`` in ``tests/server/cluster/``); else, where
NAME is a module, in its package's folder (``test_connection_frames.py``, for ``server/connection.py``,
in ``tests/server/``), a module at cardhall's top in a folder of its own name (``test_table.py`` in
``tests/table/``). The longest NAME wins; a name that several packages or modules share (``social``:
the server's and the store's) may be in the folder of any of them. A test named after nothing of the
package (``test_readme.py``, ``test_playthroughs.py``) is at the top of ``tests/`` or in the folder of a
package it imports from."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cardhall

SRC = Path(cardhall.__file__).resolve().parent
TESTS = Path(__file__).resolve().parent


def _parts(path: Path) -> tuple[str, ...]:
    return path.relative_to(SRC).parts


PACKAGES = sorted(
    {_parts(p.parent) for p in SRC.rglob("__init__.py") if p.parent != SRC}
    | {_parts(p) for p in SRC.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))}
)
MODULES = sorted(
    _parts(p.with_suffix(""))
    for p in SRC.rglob("*.py")
    if p.name not in ("__init__.py", "__main__.py") and "migrations" not in _parts(p)
)


def named_homes(stem: str) -> set[str]:
    """The folders of ``tests/`` (``"a/b"``) a test module named ``stem`` belongs in by its name (empty:
    named after nothing of the package)."""
    name = stem.removeprefix("test_")

    def named(parts: tuple[str, ...]) -> bool:
        return name == parts[-1] or name.startswith(parts[-1] + "_")

    for kind, folder in ((PACKAGES, lambda p: p), (MODULES, lambda p: p[:-1] or p)):
        found = [parts for parts in kind if named(parts)]
        if found:
            longest = max(len(parts[-1]) for parts in found)
            return {"/".join(folder(parts)) for parts in found if len(parts[-1]) == longest}
    return set()


def imported_homes(source: str) -> set[str]:
    """The folders a test importing what ``source`` imports of cardhall may be in: each imported
    package's folder and their parents, a top-level module's own, and the top of ``tests/``."""
    homes = {""}
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            parts = name.split(".")
            if parts[0] != "cardhall":
                continue
            parts = parts[1:]
            for i in range(1, len(parts) + 1):
                homes.add("/".join(parts[:i]))
    return homes


def misplaced(relative: Path, source: str) -> str | None:
    """Why the test module at ``relative`` (to ``tests/``) is in the wrong folder (None: it is not)."""
    folder = relative.parent.as_posix().strip(".")
    homes = named_homes(relative.stem)
    if homes:
        if folder not in homes:
            wanted = " or ".join(f"tests/{h}/" for h in sorted(homes))
            return f"tests/{relative.as_posix()} is named after what {wanted} holds the tests of"
        return None
    if folder not in imported_homes(source):
        return (
            f"tests/{relative.as_posix()} is named after nothing of src/cardhall and imports nothing of "
            f"cardhall/{folder}: it belongs at the top of tests/ or in the folder of what it tests"
        )
    return None


TEST_MODULES = sorted(p.relative_to(TESTS) for p in TESTS.rglob("test_*.py"))


def test_every_test_module_is_in_the_folder_of_what_it_tests() -> None:
    wrong = [m for p in TEST_MODULES if (m := misplaced(p, (TESTS / p).read_text(encoding="utf-8")))]
    assert not wrong, "\n".join(wrong)


def test_every_folder_of_tests_is_a_package_of_the_tests() -> None:
    """``tests.server.helpers``-style imports need an ``__init__.py`` in every folder of test modules
    (and two test modules of one name in two folders would otherwise collide)."""
    folders = {(TESTS / p).parent for p in TEST_MODULES}
    missing = sorted(str(f.relative_to(TESTS.parent)) for f in folders if not (f / "__init__.py").exists())
    assert not missing, f"folders of tests without an __init__.py: {missing}"


@pytest.mark.parametrize(
    ("relative", "source", "wanted"),
    [
        ("test_store_faults.py", "", "tests/store/"),
        ("server/test_cluster_leases.py", "", "tests/server/cluster/"),
        ("test_connection_frames.py", "", "tests/server/"),
        ("games/test_table.py", "", "tests/table/"),
        ("games/test_gin_rules.py", "", "tests/games/gin/"),
        ("bots/test_odds.py", "from cardhall.games import registry", "the folder of what it tests"),
    ],
)
def test_a_test_module_in_the_wrong_folder_is_named(relative: str, source: str, wanted: str) -> None:
    why = misplaced(Path(relative), source)
    assert why is not None and wanted in why


@pytest.mark.parametrize(
    ("relative", "source"),
    [
        ("store/test_store_faults.py", ""),
        ("server/cluster/test_cluster_leases.py", ""),
        ("table/test_table.py", ""),
        ("server/test_social.py", ""),
        ("store/test_social.py", ""),
        ("test_readme.py", ""),
        ("games/test_odds.py", "from cardhall.games.gin import rules"),
    ],
)
def test_a_test_module_in_its_folder_passes(relative: str, source: str) -> None:
    assert misplaced(Path(relative), source) is None
