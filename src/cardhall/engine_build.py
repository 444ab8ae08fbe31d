"""Which modules the optional compiled engine covers, and the guard against a stale build.

The rules engine is plain Python (standard library only). ``make setup`` also compiles its hot modules
with mypyc (``python src/cardhall/engine_build.py``: run as a script, as importing
the package would stop at the guard below) into extension modules next to the sources; Python
imports an extension module in preference to the ``.py`` of the same name, so a compiled build runs the
same code 2-3x faster. Without a C compiler the build is skipped and everything runs as Python.

The danger of that arrangement is a stale build: an edited ``rules.py`` next to an older ``rules.*.so``
would silently run the old rules. So the build writes a manifest of the sources' hashes, and
:func:`check_compiled` (run when ``cardhall`` is imported) refuses to start when a compiled module does
not match its source. This module itself is never compiled.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

SRC_DIR = Path(__file__).resolve().parent.parent  # the directory that holds the cardhall package

# The engine's hot paths: cards, the Game API, every module of every game (found in ``games/``, so a new
# game is compiled without an edit here), and the code above the rules that reads states in a hot loop:
# the random-playout loop, and gin's RL bit encoder (standard library only, like the rest).
ENGINE_CORE: tuple[str, ...] = ("cardhall.cards", "cardhall.core")
ENGINE_DRIVERS: tuple[str, ...] = ("cardhall.sim.playout", "cardhall.rl.encoders.gin_bits")


# Modules of the games package that are no engine: the list of a game's pieces, read by the tests and
# run as ``python -m cardhall.games.pieces`` (which a compiled module cannot be).
NOT_COMPILED: tuple[str, ...] = ("cardhall.games.pieces",)


def game_modules(src: Path = SRC_DIR) -> tuple[str, ...]:
    """Every module of the ``cardhall.games`` package and of each game's folder in it, but the
    ``__init__`` ones (the package's docstring and each game's registration: read once, not hot) and
    :data:`NOT_COMPILED`."""
    folder = src / "cardhall" / "games"
    found = sorted(p.relative_to(src).with_suffix("") for p in folder.rglob("*.py") if p.stem != "__init__")
    return tuple(m for path in found if (m := ".".join(path.parts)) not in NOT_COMPILED)


COMPILED_MODULES: tuple[str, ...] = (*ENGINE_CORE, *game_modules(), *ENGINE_DRIVERS)


def source_path(module: str, src: Path = SRC_DIR) -> Path:
    return src.joinpath(*module.split(".")).with_suffix(".py")


def extension_paths(module: str, src: Path = SRC_DIR) -> list[Path]:
    source = source_path(module, src)
    return [p for suffix in EXTENSION_SUFFIXES if (p := source.with_suffix(suffix)).exists()]


def source_hash(module: str, src: Path = SRC_DIR) -> str:
    return hashlib.sha256(source_path(module, src).read_bytes()).hexdigest()


def manifest_path(src: Path = SRC_DIR) -> Path:
    return src / "cardhall" / "_compiled.json"


class StaleBuildError(ImportError):
    """A compiled engine module does not match its source."""


def check_compiled(src: Path = SRC_DIR) -> None:
    """Raise :class:`StaleBuildError` if any compiled module was built from a different source."""
    built = [m for m in COMPILED_MODULES if extension_paths(m, src)]
    if not built:
        return
    try:
        manifest: dict[str, str] = json.loads(manifest_path(src).read_text())["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        manifest = {}
    stale = [m for m in built if manifest.get(m) != source_hash(m, src)]
    if stale:
        raise StaleBuildError(
            f"cardhall: the compiled engine is out of date for {', '.join(stale)} (its source changed "
            "since the build); rebuild it with `make setup` (or `python src/cardhall/engine_build.py`), or "
            "remove it with `python src/cardhall/engine_build.py --clean` to run as plain Python"
        )


def is_compiled() -> bool:
    """Whether the Game API in use is the compiled build."""
    core = sys.modules.get("cardhall.core")
    return core is not None and not str(getattr(core, "__file__", "")).endswith(".py")


def clean(src: Path = SRC_DIR) -> int:
    doomed = [*(src / "cardhall").rglob("*.so"), *src.glob("*__mypyc*.so"), manifest_path(src)]
    removed = [path for path in doomed if path.exists()]
    for path in removed:
        path.unlink()
    return len(removed)


def build(src: Path = SRC_DIR) -> bool:
    """Compile :data:`COMPILED_MODULES` in place; False (and plain Python) when no compiler works.

    Either way a manifest is written, so ``make`` does not try again until a source changes.
    """
    clean(src)
    # Paths relative to src/, run from there: mypyc names the modules after them, setuptools puts the
    # extension modules next to them, and no pyproject.toml is in the way.
    sources = [str(source_path(m, src).relative_to(src)) for m in COMPILED_MODULES]
    # The modules the compiled ones import are read for their types, never compiled: their errors are
    # not the build's (run from src/, mypy has no project config, so the rl extra's untyped PettingZoo,
    # imported by cardhall.rl beside gin's bit encoder, failed the whole build once it was installed).
    sources.append("--follow-imports=silent")
    script = (
        "import sys\n"
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        "setup(name='cardhall-engine', packages=[],\n"
        "      script_args=['build_ext', '--inplace', '--build-temp', sys.argv[1]],\n"
        "      ext_modules=mypycify(sys.argv[2:], opt_level='3', group_name='cardhall_engine'))\n"
    )
    with tempfile.TemporaryDirectory() as temp:
        cmd = [sys.executable, "-c", script, temp, *sources]
        done = subprocess.run(cmd, cwd=src, capture_output=True, text=True)
    shutil.rmtree(src / "build", ignore_errors=True)  # mypyc's C sources
    hashes = {m: source_hash(m, src) for m in COMPILED_MODULES}
    if done.returncode != 0:
        clean(src)
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        print(f"cardhall: compiling the engine failed; it runs as plain Python.\n{tail}", file=sys.stderr)
        manifest_path(src).write_text(json.dumps({"modules": {}, "failed": hashes}, indent=1))
        return False
    manifest_path(src).write_text(json.dumps({"modules": hashes}, indent=1))
    return True


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--clean"]:
        print(f"cardhall: removed {clean()} compiled files; the engine runs as plain Python")
        return 0
    if args == ["--sources"]:  # for the Makefile: rebuild when one of these changes
        print(" ".join(str(source_path(m).relative_to(SRC_DIR.parent)) for m in COMPILED_MODULES))
        return 0
    if args:
        print("usage: python src/cardhall/engine_build.py [--clean | --sources]", file=sys.stderr)
        return 2
    if build():
        print(f"cardhall: compiled {len(COMPILED_MODULES)} engine modules with mypyc")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
