"""The package's boundaries: no import cycle, each layer imports only from below it, a Game is a value,
every registered game brings every piece (``docs/adding-a-game.md``: its registration's modules, each in
its own layer, and the files found by its name), and nothing above the games keeps a list of them."""

from __future__ import annotations

import ast
import copy
import functools
import importlib
import json
import random
import re
from pathlib import Path

import pytest

import cardhall
from cardhall.bots import make_bot
from cardhall.bots.base import BaseBot
from cardhall.engine_build import COMPILED_MODULES
from cardhall.errors import CardhallError
from cardhall.games import PIECE_PACKAGES, GameEntry
from cardhall.registry import entries, game_classes
from cardhall.rl.encoders import Encoder
from cardhall.rulebook import LANGUAGES, option_text, phase_hint, rules_text
from cardhall.server.bounds import MAX_ACTIONS
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
    # The encoders read a game's observation keys; gin's bit encoder reads its state (compiled with it).
    "cardhall.rl": (
        *ENGINE,
        "cardhall.games",
        "cardhall.registry",
        "cardhall.bots",
        "cardhall.table",
        "cardhall.rl",
    ),
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

# The websocket client of the tests and the load benchmark knows the protocol only, like a browser.
LAYERS["cardhall.loadclient"] = ()

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


@functools.cache
def conformance_games() -> frozenset[str]:
    """The games some test file runs the conformance suite on (read when first asked: importing every
    test module at collection would let one module's skip skip this whole file)."""
    found = set()
    for path in TESTS.glob("test_*.py"):
        module = importlib.import_module(f"tests.{path.stem}")
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, ConformanceSuite) and value.game_strings:
                found |= {cardhall.load_game(g).name for g in value.game_strings}
    return frozenset(found)


def piece_problems(name: str, entry: GameEntry) -> list[str]:
    """What the registered game ``name`` lacks of the pieces docs/adding-a-game.md lists."""
    problems = []
    if entry.game.name != name:
        problems.append(f"its entry's game is named {entry.game.name!r}")
    if entry.game.__module__ not in COMPILED_MODULES:
        problems.append(f"{entry.game.__module__} is not in the compiled engine")
    # The modules it names, each in the package of its layer, each with what its layer reads.
    for kind, package in PIECE_PACKAGES.items():
        path = getattr(entry, kind)
        if not path.startswith(package + "."):
            problems.append(f"its {kind} {path} is not in {package}")
            continue
        try:
            importlib.import_module(path)
        except ImportError as e:
            problems.append(f"its {kind} {path} does not import: {e}")
    if problems:
        return problems
    bot = importlib.import_module(entry.rules_bot)
    if not (isinstance(getattr(bot, "RULES_BOT", None), type) and issubclass(bot.RULES_BOT, BaseBot)):
        problems.append(f"{entry.rules_bot} has no RULES_BOT")
    game = cardhall.load_game(name)
    limits = bot.review_thresholds(game) if hasattr(bot, "review_thresholds") else ()
    if not (len(limits) == 3 and 0 < limits[0] < limits[1] < limits[2]):
        problems.append(f"{entry.rules_bot} has no review_thresholds (three rising losses)")
    encoder = importlib.import_module(entry.encoder)
    if not (isinstance(getattr(encoder, "ENCODER", None), type) and issubclass(encoder.ENCODER, Encoder)):
        problems.append(f"{entry.encoder} has no ENCODER")
    screen = importlib.import_module(entry.terminal)
    for function in ("seat_stats", "table_lines", "deal_scored"):
        if not callable(getattr(screen, function, None)):
            problems.append(f"{entry.terminal} has no {function}")
    if not entry.bench or any(cardhall.load_game(g).name != name for g in entry.bench):
        problems.append(f"its bench game strings {entry.bench} are not game strings of {name}")
    # The files found by the game's name.
    if f"{name}.json" not in schemas.documents():
        problems.append(f"no schema (docs/schema/{name}.json)")
    for lang in LANGUAGES:
        try:
            rules_text(name, lang)
            option_text(name, lang)
            phase_texts = [phase_hint(name, phase, lang) for phase in schema_phases(name)]
            assert all(phase_texts)
        except (CardhallError, KeyError, AssertionError, OSError):
            problems.append(f"no rules text, option texts or phase hints in {lang} (src/cardhall/rulebook/)")
    client = SRC / "web" / "games" / f"{name}.js"
    if not client.exists() or f"export const {name} = " not in client.read_text(encoding="utf-8"):
        problems.append(f"no browser module exporting `{name}` (src/cardhall/web/games/{name}.js)")
    for lang in LANGUAGES:
        catalogue = json.loads((SRC / "web" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        if not {f"game.{name}.title", f"game.{name}.blurb"} <= set(catalogue):
            problems.append(f"no title and blurb in the browser's {lang} catalogue (web/i18n/{lang}.json)")
    if name not in conformance_games():
        problems.append("no test file runs the conformance suite on it")
    for kind in ("rules", "events"):
        if not (TESTS / f"test_{name}_{kind}.py").exists():
            problems.append(f"no {kind} tests (tests/test_{name}_{kind}.py)")
    if not list((TESTS / "playthroughs").glob(f"{name}-*.txt")):
        problems.append(f"no golden playthrough (tests/playthroughs/{name}-*.txt)")
    if name not in MAX_ACTIONS:
        problems.append("no cap on a server table's actions (cardhall.server.bounds.MAX_ACTIONS)")
    if f"`{name}`" not in (SRC.parent.parent / "docs" / "rl.md").read_text(encoding="utf-8"):
        problems.append("docs/rl.md does not name it")
    return problems


def schema_phases(name: str) -> list[str]:
    """The phases the game's schema lists for its observation's ``phase`` (tests/test_rulebook.py
    holds every hint to its text; here only that the game has them)."""
    from tests.test_rulebook import phases

    return phases(name)


@pytest.mark.parametrize("name", sorted(entries()))
def test_every_registered_game_brings_every_piece(name: str) -> None:
    problems = piece_problems(name, entries()[name])
    assert not problems, f"{name}: " + "; ".join(problems)


def test_the_piece_check_fails_for_a_game_missing_a_piece() -> None:
    # The check above must be able to fail: an entry naming a missing bot and a foreign encoder.
    hokm = entries()["hokm"]
    broken = hokm._replace(rules_bot="cardhall.bots.rules_nothing", encoder="cardhall.table")
    problems = piece_problems("hokm", broken)
    assert any("rules_nothing" in p for p in problems) and any("cardhall.table" in p for p in problems)


# Above the games, a game is found by its name through the registry; a literal game name compared or
# used as a key beside another is a hand-kept list. The server's bounds are its own per-game data,
# checked per game above (MAX_ACTIONS) and explained in its docstring.
LISTS_ALLOWED = {"cardhall.server.bounds"}


def game_name_lists(tree: ast.AST, names: set[str]) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for operand in [node.left, *node.comparators]:
                if isinstance(operand, ast.Constant) and operand.value in names:
                    found.append(f"line {node.lineno}: compares with {operand.value!r}")
        elif isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant) and k.value in names}
            if len(keys) >= 2:
                found.append(f"line {node.lineno}: a dict keyed by {sorted(keys)}")
    return found


def test_nothing_above_the_games_keeps_a_list_of_games() -> None:
    names = set(entries())
    wrong = {}
    for module, path in MODULES.items():
        if module.startswith(("cardhall.games", *ENGINE)) or module in LISTS_ALLOWED:
            continue
        found = game_name_lists(ast.parse(path.read_text(encoding="utf-8")), names)
        if found:
            wrong[module] = found
    assert not wrong, wrong
    # The detector finds what it looks for.
    planted = "if game == 'gin': pass\nLINES = {'hokm': 1, 'svara': 2}\n"
    assert len(game_name_lists(ast.parse(planted), names)) == 2


def test_the_web_client_keeps_no_list_of_games() -> None:
    # It loads each game's module by the name GET /api/games lists (web/games/index.js).
    for path in (SRC / "web").rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        for name in entries():
            assert f'from "./{name}.js"' not in text and f"from './{name}.js'" not in text, path
            assert not re.search(rf"\b{name}\s*:\s*{name}\b", text), path


@pytest.mark.parametrize("document", sorted(schemas.documents()))
def test_every_key_of_every_schema_is_explained(document: str) -> None:
    problems = schemas.undocumented(schemas.documents()[document])
    assert not problems, problems[:10]


SERVER = SRC / "server"


def test_one_process_and_many_run_one_seam() -> None:
    """Issue 48: the server never asks whether it is one process or many (what differs is a method of
    its place in the hall: cardhall.server.hall), and the server's context depends on the hall's
    interfaces only, never on the hall's modules (which depend on it through ``hall.Server``)."""
    branches = [
        f"{path.relative_to(SRC)}:{n}"
        for path in sorted(SRC.rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"cluster is (not )?None", line)
    ]
    assert not branches, f"one process and many tested apart: {branches}"
    context = imports_of(SERVER / "context.py")
    assert not {m for m in context if m.startswith("cardhall.server.cluster")}, sorted(context)
    hall = [m for m in MODULES if m.startswith("cardhall.server.cluster")]
    into_context = {m for m in hall if "cardhall.server.context" in GRAPH[m]}
    assert not into_context, f"the hall's modules import the server's context: {sorted(into_context)}"


def test_one_listing_of_the_lobby() -> None:
    """The hall's lobby is listed in one place (``HallViews.listing``, on one process and on many);
    what the lobby of this process and the directory hold are named for what they are."""
    defined = [
        f"{path.relative_to(SRC)}"
        for path in sorted(SERVER.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "listing"
    ]
    assert defined == [str(Path("server", "cluster", "views.py"))], defined
