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
from cardhall.games.pieces import KINDS, PIECES, Piece, with_table
from cardhall.registry import entries, folder, game_classes, package
from cardhall.rl.encoders import Encoder
from cardhall.rulebook import LANGUAGES, option_text, phase_hint, rules_text
from tests.games import schemas

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


@functools.cache
def graph() -> dict[str, set[str]]:
    """What each module imports (read once, by the first test that asks: not when the tests are
    collected, where every worker of a run would parse the whole package for nothing)."""
    return {name: imports_of(path) - {name} for name, path in MODULES.items()}


def test_no_import_cycle_anywhere_in_the_package() -> None:
    # Tarjan's strongly connected components: any component of more than one module is a cycle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph().get(v, ()):
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

# Tournaments' formats (issue 50), pure: beside the Table, below the front ends; they need no game, no
# Table and no server (the server's director reads the store and calls them).
LAYERS["cardhall.events"] = ("cardhall.errors", "cardhall.events")

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
        for name, targets in graph().items()
        if name == layer or name.startswith(layer + ".")
        for target in targets
        if not any(target == a or target.startswith(a + ".") for a in allowed)
    }
    assert not wrong, f"{layer} reaches above itself: {sorted(wrong)}"


def test_the_engine_uses_only_the_standard_library() -> None:
    import sys

    # (and tournaments' formats, cardhall.events: pure values; only its schedules read RRULEs with
    # python-dateutil, a package of the server's extra)
    formats = [m for m in MODULES if m.startswith("cardhall.events") and m != "cardhall.events.schedule"]
    engine = [m for m in MODULES if m.startswith(("cardhall.games", *ENGINE))] + formats
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


HOST = [m for m in MODULES if m.startswith("cardhall.server.host")]
# The machine's modules: what a table does, decided without asyncio, a store or a socket.
PURE_HOST = (
    *(m for m in HOST if (m + ".").startswith("cardhall.server.host.machine.")),
    "cardhall.server.host.status",
    "cardhall.server.host.effects",
)


def test_the_tables_host_has_no_stubs_and_no_mixins() -> None:
    """The table's owner is one machine and one actor: no part leaves a method for another to fill
    (``raise NotImplementedError``), and the actor the server holds is no stack of mixins."""
    from cardhall.server.host import TableHost
    from cardhall.server.host.machine import TableMachine

    stubs = [m for m in HOST if "NotImplementedError" in MODULES[m].read_text(encoding="utf-8")]
    assert not stubs, f"stubs for another part to fill in {stubs}"
    assert TableHost.__bases__ == (object,) and TableMachine.__bases__ == (object,)


@pytest.mark.parametrize("name", PURE_HOST)
def test_the_tables_machine_is_pure(name: str) -> None:
    """The machine imports no asyncio, no store and no connection: it is driven by hand in tests."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    impure = {"asyncio", "cardhall.server.committer", "cardhall.server.host.table_host", "starlette"}
    assert not imported & impure, f"{name} imports {sorted(imported & impure)}"
    assert not any(isinstance(n, ast.AsyncFunctionDef | ast.Await) for n in ast.walk(tree))


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


def piece_problems(name: str, entry: GameEntry) -> list[str]:
    """What the registered game ``name`` lacks of the pieces ``cardhall.games.pieces`` lists (and
    docs/adding-a-game.md shows): each piece of the list is checked by its kind, and a kind or a piece
    this check does not know fails it, so the list and the check cannot drift apart."""
    problems = []
    if entry.game.name != name:
        problems.append(f"its entry's game is named {entry.game.name!r}")
    if entry.game.__module__ not in COMPILED_MODULES:
        problems.append(f"{entry.game.__module__} is not in the compiled engine")
    checks = {"file": file_problems, "entry": entry_problems, "module": module_problems}
    checks |= {"test": missing_test_file, "written": written_problems}
    assert set(checks) == set(KINDS), "a kind of piece that nothing checks"
    for piece in PIECES:
        if piece.required or piece.kind == "module":
            problems += checks[piece.kind](name, entry, piece)
    return problems


def folder_path(name: str) -> Path:
    return Path(str(folder(name)))


def file_problems(name: str, entry: GameEntry, piece: Piece) -> list[str]:
    where = f"src/cardhall/games/{name}/{piece.where}"
    base = folder_path(name)
    if piece.where == "playthroughs/<name>-*.txt":
        found = {p.name for p in (base / "playthroughs").glob(f"{name}-*.txt")}
        wanted = {f"{p.name}.txt" for p in entry.playthroughs}
        return [] if wanted and found == wanted else [f"its playthroughs ({where}) are not its entry's"]
    paths = [base / piece.where.replace("<lang>", lang) for lang in LANGUAGES]
    if not all(p.is_file() for p in paths):
        return [f"no {where}"]
    if piece.where == "rules.py":
        return (
            [] if entry.game.__module__ == f"{package(name)}.rules" else [f"its game class is not in {where}"]
        )
    if piece.where == "schema.json":
        return [] if f"{name}.json" in schemas.documents() else [f"{where} is not a schema"]
    if piece.where == "i18n.<lang>.json":
        for path in paths:
            texts = json.loads(path.read_text(encoding="utf-8"))
            if not {f"game.{name}.title", f"game.{name}.blurb"} <= set(texts):
                return [f"no title and blurb in {path.name}"]
    if piece.where in ("rulebook.<lang>.md", "hints.<lang>.json", "options.<lang>.json"):
        for lang in LANGUAGES:
            try:
                rules_text(name, lang)
                option_text(name, lang)
                assert all(phase_hint(name, phase, lang) for phase in schema_phases(name))
            except (CardhallError, KeyError, AssertionError, OSError):
                return [f"no rules text, option texts or phase hints in {lang} ({where})"]
    if piece.where == "web.js":
        text = paths[0].read_text(encoding="utf-8")
        if f"export const {name} = " not in text:
            return [f"{where} does not export `{name}`"]
    return []


def entry_problems(name: str, entry: GameEntry, piece: Piece) -> list[str]:
    value = getattr(entry, piece.where)
    if piece.where in ("bench", "conformance"):
        if not value or any(cardhall.load_game(g).name != name for g in value):
            return [f"its {piece.where} game strings {value} are not game strings of {name}"]
    elif piece.where == "playthroughs":
        if not value or any(cardhall.load_game(p.game).name != name for p in value):
            return [f"its playthroughs {value} are not of {name}"]
    elif piece.where == "max_actions":
        if not (isinstance(value, int) and value > 0):
            return ["no cap on a server table's actions (its entry's max_actions)"]
    elif piece.where == "decision_weights":
        phases = set(schema_phases(name))
        if (
            not value
            or not set(value) <= phases
            or any(not isinstance(w, int) or w < 1 for w in value.values())
        ):
            return [f"its decision_weights {value} are not positive weights of its phases {sorted(phases)}"]
    elif piece.where != "game":
        return [f"no check of its entry's {piece.where}"]
    return []


def module_problems(name: str, entry: GameEntry, piece: Piece) -> list[str]:
    kind, package = piece.where, PIECE_PACKAGES[piece.where]
    path = getattr(entry, kind)
    if not path.startswith(package + "."):
        return [f"its {kind} {path} is not in {package}"]
    try:
        module = importlib.import_module(path)
    except ImportError as e:
        return [f"its {kind} {path} does not import: {e}"]
    if kind == "rules_bot":
        problems = []
        bot = module.RULES_BOT if hasattr(module, "RULES_BOT") else None
        if not (isinstance(bot, type) and issubclass(bot, BaseBot)):
            problems.append(f"{path} has no RULES_BOT")
        game = cardhall.load_game(name)
        limits = module.review_thresholds(game) if hasattr(module, "review_thresholds") else ()
        if not (len(limits) == 3 and 0 < limits[0] < limits[1] < limits[2]):
            problems.append(f"{path} has no review_thresholds (three rising losses)")
        return problems
    if kind == "encoder":
        encoder = getattr(module, "ENCODER", None)
        ok = isinstance(encoder, type) and issubclass(encoder, Encoder)
        return [] if ok else [f"{path} has no ENCODER"]
    missing = [
        f for f in ("seat_stats", "table_lines", "deal_scored") if not callable(getattr(module, f, None))
    ]
    return [f"{path} has no {f}" for f in missing]


def missing_test_file(name: str, entry: GameEntry, piece: Piece) -> list[str]:
    path = piece.where.replace("<name>", name)
    return [] if (SRC.parent.parent / path).exists() else [f"no {path}"]


def written_problems(name: str, entry: GameEntry, piece: Piece) -> list[str]:
    assert piece.where == "docs/rl.md", piece
    text = (SRC.parent.parent / piece.where).read_text(encoding="utf-8")
    return (
        []
        if f"`{name}`" in text
        else ["docs/rl.md does not name it (python -m cardhall.rl --docs docs/rl.md)"]
    )


def schema_phases(name: str) -> list[str]:
    """The phases the game's schema lists for its observation's ``phase`` (tests/rulebook/test_rulebook.py
    holds every hint to its text; here only that the game has them)."""
    from tests.rulebook.test_rulebook import phases

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
    # ... and for a game whose entry's data is wrong.
    broken = hokm._replace(max_actions=0, decision_weights={"bidding": 3, "dreaming": 1}, conformance=())
    problems = piece_problems("hokm", broken)
    assert len(problems) == 3, problems


def test_the_adding_a_game_document_shows_the_pieces_the_check_enforces() -> None:
    doc = (SRC.parent.parent / "docs" / "adding-a-game.md").read_text(encoding="utf-8")
    assert with_table(doc) == doc, "run python -m cardhall.games.pieces docs/adding-a-game.md"
    for named in ("sample_state", "decision_weights", "DECISION_WEIGHTS", "`deal`", "`deal_scored`"):
        assert named in doc, named
    assert "400 to 900 words" in doc and "python -m cardhall.rl --docs docs/rl.md" in doc
    assert "cardhall new-game" in doc


# Above the games, a game is found by its name through the registry; a literal game name compared or
# used as a key beside another is a hand-kept list. (The server's bounds read each game's entry.)
LISTS_ALLOWED: set[str] = set()


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


def test_no_shared_data_file_holds_a_part_of_a_game() -> None:
    """A game's texts, browser table and data are in its folder: no data file outside the games'
    folders is named after a game (``web/games/hokm.js``, ``rulebook/hokm.en.md``), and none keys
    anything by a game's name (``{"hokm": ...}``, ``"game.hokm.title"``, ``"hokm.bid"``)."""
    names = set(entries())
    folders = [folder_path(name) for name in names]
    wrong = []
    for path in SRC.rglob("*"):
        if path.suffix not in (".json", ".md", ".js", ".txt") or any(path.is_relative_to(f) for f in folders):
            continue
        if path.name.split(".")[0] in names:
            wrong.append(f"{path.relative_to(SRC)} is named after a game")
        if path.suffix == ".json":
            keys = json.loads(path.read_text(encoding="utf-8"))
            keys = keys if isinstance(keys, dict) else {}
            for key in keys:
                if key.removeprefix("game.").split(".")[0] in names:
                    wrong.append(f"{path.relative_to(SRC)} has {key!r}")
                    break
    assert not wrong, wrong


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


# The store by aggregate (issue 48): one small module a part, none over about 400 lines.
STORE_MODULE_LINES = 420


def long_modules(package: Path, limit: int) -> dict[str, int]:
    """The modules under ``package`` longer than ``limit`` lines, with their lengths."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found[str(path.relative_to(package))] = lines
    return found


def test_no_module_of_the_store_is_over_420_lines(tmp_path: Path) -> None:
    assert not long_modules(SRC / "store", STORE_MODULE_LINES)
    # The check finds what it looks for.
    (tmp_path / "sql").mkdir()
    (tmp_path / "sql" / "big.py").write_text("x = 1\n" * (STORE_MODULE_LINES + 1), encoding="utf-8")
    (tmp_path / "small.py").write_text("x = 1\n" * STORE_MODULE_LINES, encoding="utf-8")
    assert long_modules(tmp_path, STORE_MODULE_LINES) == {"sql/big.py": STORE_MODULE_LINES + 1}


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
    into_context = {m for m in hall if "cardhall.server.context" in graph()[m]}
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
