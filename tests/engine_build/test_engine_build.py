"""The compiled engine: the stale-build guard, and that compiled and plain Python play the same games.

The equivalence test runs a copy of the sources (``.py`` only) in a subprocess, so it compares the build
in use with plain Python; it is skipped when the engine in use is not compiled.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cardhall.engine_build import (
    COMPILED_MODULES,
    StaleBuildError,
    check_compiled,
    clean,
    extension_paths,
    is_compiled,
    manifest_path,
    source_hash,
    source_path,
)
from tests.helpers import MAX_STEPS

SRC = Path(__file__).resolve().parents[2] / "src"


def fake_tree(tmp_path: Path, compiled: tuple[str, ...]) -> Path:
    """A copy of the compiled modules' sources, with an (empty) extension file for ``compiled``."""
    for module in COMPILED_MODULES:
        target = source_path(module, tmp_path)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source_path(module, SRC), target)
    for module in compiled:
        source_path(module, tmp_path).with_suffix(".cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    return tmp_path


def write_manifest(src: Path, modules: dict[str, str]) -> None:
    manifest_path(src).write_text(json.dumps({"modules": modules}))


def test_plain_sources_pass_the_guard(tmp_path: Path) -> None:
    check_compiled(fake_tree(tmp_path, ()))


def test_a_build_matching_its_sources_passes(tmp_path: Path) -> None:
    src = fake_tree(tmp_path, ("cardhall.games.hokm.rules",))
    write_manifest(src, {m: source_hash(m, src) for m in COMPILED_MODULES})
    check_compiled(src)


def test_an_edited_source_makes_the_build_stale(tmp_path: Path) -> None:
    src = fake_tree(tmp_path, ("cardhall.games.hokm.rules", "cardhall.core"))
    write_manifest(src, {m: source_hash(m, src) for m in COMPILED_MODULES})
    with source_path("cardhall.games.hokm.rules", src).open("a") as f:
        f.write("\n# an edit\n")
    with pytest.raises(StaleBuildError, match=r"out of date for cardhall\.games\.hokm\.rules \(") as info:
        check_compiled(src)
    assert "cardhall.core" not in str(info.value)
    assert "make setup" in str(info.value)


def test_a_compiled_module_without_a_manifest_is_stale(tmp_path: Path) -> None:
    src = fake_tree(tmp_path, ("cardhall.core",))
    with pytest.raises(StaleBuildError, match=r"cardhall\.core"):
        check_compiled(src)
    manifest_path(src).write_text("not json")
    with pytest.raises(StaleBuildError):
        check_compiled(src)


def test_clean_removes_the_build(tmp_path: Path) -> None:
    src = fake_tree(tmp_path, ("cardhall.core", "cardhall.cards"))
    (src / "cardhall_engine__mypyc.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    write_manifest(src, {})
    assert clean(src) == 4
    assert not extension_paths("cardhall.core", src)
    assert not manifest_path(src).exists()
    check_compiled(src)


@pytest.mark.process
def test_the_command_lists_the_sources_for_make() -> None:
    out = subprocess.run(
        [sys.executable, str(SRC / "cardhall" / "engine_build.py"), "--sources"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert out == [f"src/{m.replace('.', '/')}.py" for m in COMPILED_MODULES]
    assert all((SRC.parent / path).is_file() for path in out)


def test_is_compiled_tells_which_engine_runs() -> None:
    import cardhall.core

    assert is_compiled() == (not str(cardhall.core.__file__).endswith(".py"))


# Plays seeded random matches (each within the tests' step bound) and prints one line per match: its
# record's actions, scores and winners.
PLAY_SCRIPT = textwrap.dedent(
    """
    import json, random, sys
    from cardhall import load_game
    from cardhall.engine_build import is_compiled
    out = []
    for text in sys.argv[1:]:
        game = load_game(text)
        for seed in range(3):
            state, rng = game.new_game(seed=seed), random.Random(seed)
            for _ in range(MAX_STEPS):
                if state.is_over:
                    break
                seat = rng.choice(state.to_act)
                state.apply(seat, rng.choice(state.legal_actions(seat)))
            else:
                sys.exit(f"{text} seed {seed}: still going after {MAX_STEPS} actions; never ends?")
            copy = state.clone()
            out.append([text, seed, state.record()["actions"], list(state.scores), list(copy.winners),
                        state.observation(0)])
    print(json.dumps({"compiled": is_compiled(), "matches": out}))
    """
).replace("MAX_STEPS", str(MAX_STEPS))
GAMES = (
    "hokm(max_hands=3)",
    "kierki(first_deal=5,last_deal=12)",
    "hearts(max_hands=2)",
    "hearts(decks=1,players=4,max_hands=2)",
    "svara(players=4,max_deals=3)",
    "gin(max_hands=2)",
    "gin(players=2,max_hands=2)",
)


@pytest.mark.process
@pytest.mark.skipif(not is_compiled(), reason="the engine in use is plain Python")
def test_compiled_and_plain_python_play_identical_matches(tmp_path: Path) -> None:
    plain = tmp_path / "src"
    shutil.copytree(
        SRC / "cardhall", plain / "cardhall", ignore=shutil.ignore_patterns("*.so", "_compiled.json")
    )
    assert not list(plain.rglob("*.so"))

    def run(src: Path) -> dict[str, object]:
        done = subprocess.run(
            [sys.executable, "-c", PLAY_SCRIPT, *GAMES],
            capture_output=True,
            text=True,
            env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"},
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stderr
        result: dict[str, object] = json.loads(done.stdout)
        return result

    compiled, interpreted = run(SRC), run(plain)
    assert compiled["compiled"] is True and interpreted["compiled"] is False
    matches = compiled["matches"]
    assert isinstance(matches, list) and len(matches) == 3 * len(GAMES)
    assert matches == interpreted["matches"]
