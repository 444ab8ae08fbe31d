"""The package's boundaries: no import cycle, each layer imports only from below it, a Game is a value,
and a registered game brings everything it needs (rules bot, conformance tests, schema, compiled build)."""

from __future__ import annotations

import ast
import copy
import importlib
import random
from pathlib import Path

import pytest

import cardhall
from cardhall.bots import make_bot
from cardhall.bots.rules import rules_games
from cardhall.engine_build import COMPILED_MODULES
from cardhall.registry import game_classes
from tests import schemas
from tests.conformance import ConformanceSuite

SRC = Path(cardhall.__file__).resolve().parent
TESTS = Path(__file__).resolve().parent


def module_name(path: Path) -> str:
    parts = ["cardhall", *path.relative_to(SRC).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """The cardhall modules a file imports anywhere in it (inside functions too), by explicit import:
    ``from cardhall.bots import x`` imports ``cardhall.bots`` (or ``cardhall.bots.x`` when x is a
    module)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.split(".")[0] == "cardhall"}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "cardhall":
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                out.add(sub if sub in MODULES else node.module)
    return out


MODULES = {module_name(p): p for p in sorted(SRC.rglob("*.py"))}
GRAPH = {name: imports_of(path) - {name} for name, path in MODULES.items()}


def test_no_import_cycle_anywhere_in_the_package() -> None:
    # Tarjan's strongly connected components: any component of more than one module is a cycle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in GRAPH.get(v, ()):
            if w not in MODULES:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in MODULES:
        if v not in index:
            visit(v)
    assert not cycles, f"import cycles: {cycles}"


# Each layer and what it may import (prefixes); everything not listed here sits above them all.
ENGINE = ("cardhall.cards", "cardhall.options", "cardhall.errors", "cardhall.compiled", "cardhall.core")
LAYERS = {
    "cardhall.cards": ("cardhall.errors",),
    "cardhall.options": ("cardhall.errors",),
    "cardhall.core": ENGINE,
    "cardhall.games": (*ENGINE, "cardhall.games"),
    "cardhall.registry": (*ENGINE, "cardhall.games"),
    "cardhall.records": (*ENGINE, "cardhall.registry"),
    "cardhall.rulebook": ("cardhall.errors", "cardhall.registry"),
    "cardhall.bots": (*ENGINE, "cardhall.games", "cardhall.registry", "cardhall.bots"),
    "cardhall.table": (*ENGINE, "cardhall.registry", "cardhall.records", "cardhall.bots"),
    "cardhall.rl": (*ENGINE, "cardhall.registry", "cardhall.bots", "cardhall.table", "cardhall.rl"),
    # Where bots think (the server's pool or workers over Redis): above the Table, below the front ends.
    "cardhall.bot_tier": (
        *ENGINE,
        "cardhall.registry",
        "cardhall.records",
        "cardhall.bots",
        "cardhall.table",
        "cardhall.review",
        "cardhall.bot_tier",
    ),
}

# The person's terminal front end: everything below the front ends, never another front end.
LAYERS["cardhall.terminal"] = (
    *ENGINE,
    "cardhall.registry",
    "cardhall.records",
    "cardhall.bots",
    "cardhall.table",
    "cardhall.rulebook",
    "cardhall.terminal",
)


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_each_layer_imports_only_from_below(layer: str) -> None:
    allowed = LAYERS[layer]
    wrong = {
        f"{name} -> {target}"
        for name, targets in GRAPH.items()
        if name == layer or name.startswith(layer + ".")
        for target in targets
        if not any(target == a or target.startswith(a + ".") for a in allowed)
    }
    assert not wrong, f"{layer} reaches above itself: {sorted(wrong)}"


def test_the_engine_uses_only_the_standard_library() -> None:
    import sys

    engine = [m for m in MODULES if m.startswith(("cardhall.games", *ENGINE))]
    for name in engine:
        tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            roots = []
            if isinstance(node, ast.Import):
                roots = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                roots = [node.module.split(".")[0]]
            for root in roots:
                # mypy_extensions only when compiled, with a fallback (cardhall.compiled).
                ok = root in sys.stdlib_module_names or root in ("cardhall", "mypy_extensions")
                assert ok, f"{name} imports {root}, outside the standard library"


@pytest.mark.parametrize("name", sorted(game_classes()))
def test_a_game_is_a_value_that_nothing_changes(name: str) -> None:
    """Observations, sampling, bots and searching leave the Game as it was: one Game can serve many
    tables and threads."""
    game = cardhall.load_game(name)
    before = copy.deepcopy(fields(game))
    rng = random.Random(1)
    state = game.new_game(seed=1)
    search = make_bot("search(iterations=3)", game)
    rules = make_bot("rules", game)
    for _ in range(60):
        if state.is_over:
            break
        seat = state.to_act[0]
        obs = state.observation(seat, ints=True)
        game.sample_state(obs, rng)
        legal = state.legal_actions(seat)
        bot = search if len(legal) > 1 and rng.random() < 0.3 else rules
        state.apply(seat, bot.act(obs, legal, rng))
    assert fields(game) == before


def fields(value: object) -> dict[str, object]:
    """Every attribute of an object, plain Python or compiled (a mypyc class lists its own)."""
    names = set(getattr(value, "__dict__", {}))
    for cls in type(value).__mro__:
        names |= set(getattr(cls, "__mypyc_attrs__", ())) - {"__dict__"}
    return {n: getattr(value, n) for n in sorted(names) if hasattr(value, n)}


def test_every_game_brings_its_rules_bot_tests_schema_and_build() -> None:
    conformance_suites = set()
    for path in TESTS.glob("test_*.py"):
        module = importlib.import_module(f"tests.{path.stem}")
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, ConformanceSuite) and value.game_strings:
                conformance_suites |= {cardhall.load_game(g).name for g in value.game_strings}
    for name, cls in game_classes().items():
        assert name in rules_games(), f"{name} has no rules bot (bots/rules_{name}.py)"
        assert name in conformance_suites, f"{name} runs no conformance suite"
        assert f"{name}.json" in schemas.documents(), f"{name} has no schema (docs/schema/{name}.json)"
        assert cls.__module__ in COMPILED_MODULES, f"{cls.__module__} is not in the compiled engine"


@pytest.mark.parametrize("document", sorted(schemas.documents()))
def test_every_key_of_every_schema_is_explained(document: str) -> None:
    problems = schemas.undocumented(schemas.documents()[document])
    assert not problems, problems[:10]
