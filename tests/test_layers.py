"""The arrows of docs/ARCHITECTURE.md, read from the source: a wrong-way import fails here.

Every ``import`` in arena/, packing/, express/, webapp/ and benchmarks/ is read with :mod:`ast` (at
module level and inside functions; an ``if TYPE_CHECKING:`` block never runs, so it does not
count as an import at run time) and checked against these rules:

- ``arena`` imports neither game; ``packing`` and ``express`` never import each other;
- an optional extra (matplotlib, dask/distributed, pyspiel/open_spiel, tqdm, numba,
  pettingzoo, gymnasium) is imported at module level, directly or through the modules it
  imports at module level, only by the modules that exist for that extra (:data:`FOR_EXTRA`);
- within each game the layers point down: rules and values import no solver, the solver
  imports no queries, tables, game or CLI, and so on (:data:`LAYERS`);
- no library module imports a CLI module.

The checker itself is tested on synthetic trees at the end, so a rule that silently matched
nothing would fail too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("arena", "packing", "express", "webapp", "benchmarks")

#: Each optional extra's top-level modules, and the extra that brings them (pyproject's
#: [project.optional-dependencies]).
EXTRA_MODULES: Mapping[str, str] = {
    "matplotlib": "plot",
    "mpl_toolkits": "plot",
    "dask": "dask",
    "distributed": "dask",
    "pyspiel": "openspiel",
    "open_spiel": "openspiel",
    "tqdm": "progress",
    "pettingzoo": "rl",
    "gymnasium": "rl",
    "numba": "compiled",
    "llvmlite": "compiled",
    "fastapi": "web",
    "starlette": "web",
    "uvicorn": "web",
    "segno": "web",
}

#: The modules that exist for an extra, and the extras each may import at module level: a user
#: who imports one of them has asked for its extra. Every other module imports an extra only
#: inside the function that needs it (through arena.extras.import_extra).
FOR_EXTRA: Mapping[str, frozenset[str]] = {
    "arena.openspiel": frozenset({"openspiel"}),
    "packing.openspiel": frozenset({"openspiel"}),
    "express.openspiel": frozenset({"openspiel"}),
    "arena.pettingzoo": frozenset({"rl"}),
    "arena.vector_env": frozenset({"rl"}),
    "packing.pettingzoo": frozenset({"rl"}),
    "express.pettingzoo": frozenset({"rl"}),
    "packing.plot": frozenset({"plot"}),
    "packing.designplot": frozenset({"plot"}),
    # The web companion's server modules (the routers and the application).
    "webapp.app": frozenset({"web"}),
    "webapp.api": frozenset({"web"}),
    "webapp.practice_api": frozenset({"web"}),
    "webapp.designer": frozenset({"web"}),
    "webapp.progress_api": frozenset({"web"}),
    "webapp.guard": frozenset({"web"}),
    "webapp.pairing_api": frozenset({"web"}),
}

#: Each game's layers, lowest first: a module imports only modules of its own layer or below
#: (a module of a package of that name counts: ``packing.table`` covers ``packing.table.build``).
#: The package's own ``__init__`` (its public face, importing everything) is above every layer.
LAYERS: Mapping[str, tuple[tuple[str, frozenset[str]], ...]] = {
    "packing": (
        (
            "rules and values",
            frozenset(
                {
                    "rules",
                    "errors",
                    "model",
                    "render",
                    "deck",
                    "odds",
                    "checks",
                    "verify",
                    "svg",
                    "tensor_layout",
                }
            ),
        ),
        ("the solver", frozenset({"solver", "layered", "residues", "cp_solver"})),
        ("queries and tables", frozenset({"table", "queries", "stats"})),
        (
            "the game and its tools",
            frozenset(
                {
                    "game",
                    "batch",
                    "batch_loops",
                    "report",
                    "bots",
                    "design",
                    "designplot",
                    "plot",
                    "codec",
                    "openspiel",
                    "pettingzoo",
                }
            ),
        ),
        ("the CLI", frozenset({"cli", "__main__"})),
    ),
    "express": (
        (
            "rules and values",
            frozenset(
                {
                    "rules",
                    "errors",
                    "cards",
                    "deck",
                    "train",
                    "cabooses",
                    "caboose_bounds",
                    "scoring",
                    "svg",
                }
            ),
        ),
        ("the search", frozenset({"search"})),
        (
            "the game and its tools",
            frozenset(
                {
                    "game",
                    "batch",
                    "match",
                    "exact",
                    "exact_multi",
                    "endgame",
                    "endgame_loops",
                    "worlds",
                    "pimc",
                    "bots",
                    "review",
                    "report",
                    "tournament",
                    "table_view",
                    "codec",
                    "openspiel",
                    "pettingzoo",
                }
            ),
        ),
        ("the CLI", frozenset({"cli", "__main__"})),
    ),
}

#: The command-line modules: only they (and the entry points) may import one another.
CLI_MODULES = (
    "arena.cli",
    "packing.cli",
    "packing.gamecli",
    "packing.__main__",
    "express.cli",
    "express.cli_games",
    "express.__main__",
    "webapp.cli",
    "webapp.__main__",
)

#: Front ends that run a game's command line itself: the web API answers exactly what a command
#: prints with --json by running that command (one contract, so no rule is written twice).
FRONT_ENDS = ("webapp.contract",)


@dataclass(frozen=True)
class Import:
    """One imported module, as read from the importing module's source."""

    importer: str
    target: str
    line: int
    at_import: bool  # runs when the importer is imported (not in a function nor TYPE_CHECKING)
    typing_only: bool = False  # under TYPE_CHECKING: never runs, for the type checker alone

    def __str__(self) -> str:
        where = "at module level" if self.at_import else "inside a function"
        return f"{self.importer} imports {self.target} {where} (line {self.line})"


def module_name(path: Path, root: Path) -> tuple[str, bool]:
    """The dotted name of the module at ``path`` and whether it is a package's ``__init__``."""
    parts = path.relative_to(root).with_suffix("").parts
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def within(name: str, prefix: str) -> bool:
    """True when ``name`` is the module ``prefix`` or inside it."""
    return name == prefix or name.startswith(prefix + ".")


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def read_imports(
    source: str, module: str, *, is_package: bool, known: Iterable[str] = ()
) -> list[Import]:
    """Every module ``source`` imports; ``from x import y`` names ``x.y`` when that is one of
    the ``known`` modules, else ``x``."""
    modules = set(known)
    package = module if is_package else module.rpartition(".")[0]
    found: list[Import] = []

    def absolute(node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        base = package.split(".")
        base = base[: len(base) - (node.level - 1)]
        return ".".join([*base, *([node.module] if node.module else [])])

    def visit(node: ast.AST, at_import: bool, typing_only: bool = False) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Import(module, alias.name, node.lineno, at_import, typing_only))
        elif isinstance(node, ast.ImportFrom):
            base = absolute(node)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                target = sub if sub in modules else base
                found.append(Import(module, target, node.lineno, at_import, typing_only))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            for child in ast.iter_child_nodes(node):
                visit(child, False, typing_only)
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, False, True)
            for child in node.orelse:
                visit(child, at_import, typing_only)
        else:
            for child in ast.iter_child_nodes(node):
                visit(child, at_import, typing_only)

    visit(ast.parse(source), True)
    return found


def read_tree(root: Path, packages: Iterable[str] = PACKAGES) -> dict[str, list[Import]]:
    """Every module of ``packages`` under ``root``, with its imports."""
    files = {
        path: module_name(path, root)
        for package in packages
        if (root / package).is_dir()
        for path in sorted((root / package).rglob("*.py"))
    }
    known = {name for name, _ in files.values()}
    return {
        name: read_imports(path.read_text(), name, is_package=is_package, known=known)
        for path, (name, is_package) in files.items()
    }


def _top(name: str) -> str:
    return name.partition(".")[0]


def nothing_imports_the_web_app(tree: Mapping[str, list[Import]]) -> list[str]:
    """The web companion is the top floor: no library package imports it (the benchmarks,
    beside it on that floor, may)."""
    return [
        f"{found}: {_top(found.importer)} must not import the web app"
        for imports in tree.values()
        for found in imports
        if _top(found.target) == "webapp"
        and _top(found.importer) in ("arena", "packing", "express")
    ]


def games_apart(tree: Mapping[str, list[Import]]) -> list[str]:
    """``arena`` imports neither game; the two games never import each other."""
    forbidden = {"arena": ("packing", "express"), "packing": ("express",), "express": ("packing",)}
    return [
        f"{found}: {_top(found.importer)} must not import {_top(found.target)}"
        for imports in tree.values()
        for found in imports
        if _top(found.target) in forbidden.get(_top(found.importer), ())
    ]


def _imported_at_import(found: Import) -> list[str]:
    """The modules Python runs for ``found``: each package on the way, then the module."""
    parts = found.target.split(".")
    return [".".join(parts[: k + 1]) for k in range(len(parts))]


def extras_at_module_level(tree: Mapping[str, list[Import]]) -> list[str]:
    """Importing a module imports no optional extra, unless the module exists for it."""
    problems = []
    for module in tree:
        allowed = FOR_EXTRA.get(module, frozenset())
        # Breadth first through the imports that run when ``module`` is imported, keeping the
        # way each module was reached, to name the chain that brings an extra in.
        via: dict[str, str | None] = {module: None}
        queue = [module]
        while queue:
            current = queue.pop(0)
            for found in tree.get(current, ()):
                if not found.at_import:
                    continue
                extra = EXTRA_MODULES.get(_top(found.target))
                if extra is not None:
                    if extra not in allowed:
                        chain = [current]
                        while via[chain[-1]] is not None:
                            chain.append(via[chain[-1]])  # type: ignore[arg-type]
                        problems.append(
                            f"importing {module} imports {found.target} (the {extra} extra) "
                            f"through {' -> '.join(reversed(chain))} -> {found.target}"
                        )
                    continue
                for step in _imported_at_import(found):
                    if step in tree and step not in via:
                        via[step] = current
                        queue.append(step)
    return problems


def _layer(module: str) -> tuple[str, int] | None:
    """The game and the index of the layer ``module`` belongs to (None: the package itself,
    or not a game's module)."""
    game, _, rest = module.partition(".")
    if game not in LAYERS or not rest:
        return None
    head = rest.partition(".")[0]
    for index, (_, names) in enumerate(LAYERS[game]):
        if head in names:
            return game, index
    return None


def layers_point_down(tree: Mapping[str, list[Import]]) -> list[str]:
    """Within each game, a module imports nothing from a layer above its own; every module of
    a game belongs to a layer (a new module is placed in :data:`LAYERS` on purpose)."""
    problems = []
    for module, imports in tree.items():
        game, _, rest = module.partition(".")
        if game not in LAYERS or not rest:
            continue
        placed = _layer(module)
        if placed is None:
            problems.append(f"{module} is in none of {game}'s layers (add it to LAYERS)")
            continue
        index = placed[1]
        for found in imports:
            if _top(found.target) != game:
                continue
            target = _layer(found.target)
            top_layer = len(LAYERS[game])
            above = top_layer if target is None else target[1]
            if above > index:
                name = "the package itself" if target is None else LAYERS[game][above][0]
                problems.append(f"{found}: {LAYERS[game][index][0]} must not import {name}")
    return problems


def _is_cli(module: str) -> bool:
    return any(within(module, cli) for cli in CLI_MODULES)


def no_library_imports_a_cli(tree: Mapping[str, list[Import]]) -> list[str]:
    """Only command-line modules (and the front ends that run them) import command-line
    modules."""
    return [
        f"{found}: a library module must not import a CLI module"
        for module, imports in tree.items()
        if not _is_cli(module) and module not in FRONT_ENDS
        for found in imports
        if _is_cli(found.target)
    ]


#: The modules that draw pictures. A value may import its picture module inside the method
#: that draws it (``plan.svg()``): the picture module imports the value's module to read it,
#: and the method's import is the one circle the library keeps (the picture is the value's,
#: yet drawing is a job of its own).
PICTURE_MODULES = ("packing.svg", "packing.plot", "express.svg")

#: The library's packages: no import circle among their modules.
LIBRARY = ("arena", "packing", "express", "webapp")


def _cycle_edges(tree: Mapping[str, list[Import]]) -> dict[str, dict[str, list[Import]]]:
    """The imports that can close a circle: between two library modules, run at some point
    (not for the type checker alone), other than a method importing its picture module."""
    edges: dict[str, dict[str, list[Import]]] = {}
    for module, imports in tree.items():
        if _top(module) not in LIBRARY:
            continue
        for found in imports:
            if (
                found.target == module
                or found.target not in tree
                or _top(found.target) not in LIBRARY
                or found.typing_only
                or (found.target in PICTURE_MODULES and not found.at_import)
            ):
                continue
            edges.setdefault(module, {}).setdefault(found.target, []).append(found)
    return edges


def no_import_circles(tree: Mapping[str, list[Import]]) -> list[str]:
    """No two library modules import each other, directly or around a longer circle (at
    module level or inside a function alike: either way neither can be read, tested or moved
    without the other), except a method importing its picture module (:data:`PICTURE_MODULES`).
    Each circle found is named with the imports that close it."""
    edges = _cycle_edges(tree)
    # Tarjan's strongly connected components, iteratively (no recursion limit to meet).
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, {}))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, {})))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    circles.append(sorted(component))
    problems = []
    for circle in circles:
        inside = [
            str(found)
            for module in circle
            for target, imports in sorted(edges.get(module, {}).items())
            if target in circle
            for found in imports[:1]
        ]
        problems.append(f"an import circle among {', '.join(circle)}: {'; '.join(inside)}")
    return problems


RULES = (
    games_apart,
    nothing_imports_the_web_app,
    extras_at_module_level,
    layers_point_down,
    no_library_imports_a_cli,
    no_import_circles,
)


@pytest.fixture(scope="module")
def tree() -> dict[str, list[Import]]:
    return read_tree(ROOT)


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.__name__)
def test_the_tree_keeps_the_arrows(tree: dict[str, list[Import]], rule: object) -> None:
    assert callable(rule)
    assert rule(tree) == []


def test_the_tree_is_read(tree: dict[str, list[Import]]) -> None:
    # The checks above pass trivially on an empty tree: make sure they saw the real one.
    assert {"arena.play", "packing.solver", "express.game", "benchmarks.solve"} <= set(tree)
    assert any(found.target == "arena.protocol" for found in tree["arena.play"])
    assert any(not found.at_import for found in tree["arena.tournament"])


def test_the_modules_for_an_extra_exist_and_import_it(tree: dict[str, list[Import]]) -> None:
    for module, extras in FOR_EXTRA.items():
        assert module in tree, f"FOR_EXTRA names {module}, which does not exist"
        assert extras <= set(EXTRA_MODULES.values()), extras


# --- the checker on synthetic trees -----------------------------------------------------------


def synthetic(tmp_path: Path, files: Mapping[str, str]) -> dict[str, list[Import]]:
    for name, source in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    return read_tree(tmp_path)


CLEAN = {
    "arena/__init__.py": "from arena.play import play\n",
    "arena/play.py": "import math\n",
    "arena/tournament.py": "def progress():\n    import tqdm\n",
    "packing/__init__.py": "from packing.game import Game\n",
    "packing/model.py": "from packing import render\nfrom . import rules\n",
    "packing/render.py": "",
    "packing/rules.py": "",
    "packing/solver.py": "from packing.model import Cargo\n",
    "packing/game.py": (
        "from typing import TYPE_CHECKING\nimport arena\nfrom packing.solver import solve\n"
        "if TYPE_CHECKING:\n    import matplotlib\n"
    ),
    "packing/plot.py": "import matplotlib\n",
    "packing/cli.py": "from packing.game import Game\n",
    "express/__init__.py": "",
    "express/cards.py": "",
    "webapp/__init__.py": "",
    "webapp/contract.py": "def answer():\n    from packing.cli import main\n",
    "webapp/app.py": "import fastapi\nfrom webapp import contract\n",
}


def test_the_checker_passes_a_clean_tree(tmp_path: Path) -> None:
    tree = synthetic(tmp_path, CLEAN)
    assert {found.target for found in tree["packing.model"]} == {"packing.render", "packing.rules"}
    for rule in RULES:
        assert rule(tree) == [], rule.__name__


@pytest.mark.parametrize(
    ("file", "source", "rule", "expected"),
    [
        (
            "arena/play.py",
            "def f():\n    from packing import Game\n",
            games_apart,
            "arena must not",
        ),
        ("express/cards.py", "import packing.model\n", games_apart, "express must not"),
        ("packing/rules.py", "from ..express import cards\n", games_apart, "packing must not"),
        ("arena/play.py", "import tqdm\n", extras_at_module_level, "the progress extra"),
        (
            "packing/solver.py",
            "try:\n    import pyspiel\nexcept ImportError:\n    pyspiel = None\n",
            extras_at_module_level,
            "the openspiel extra",
        ),
        (
            "packing/game.py",
            "from packing import plot\n",
            extras_at_module_level,
            "packing.game -> packing.plot -> matplotlib",
        ),
        (
            "packing/rules.py",
            "from packing.solver import solve\n",
            layers_point_down,
            "rules and values must not import the solver",
        ),
        (
            "packing/solver.py",
            "def f():\n    from packing.table import OptimalTable\n",
            layers_point_down,
            "the solver must not import queries and tables",
        ),
        (
            "packing/model.py",
            "from packing import Game\n",
            layers_point_down,
            "must not import the package itself",
        ),
        ("packing/newthing.py", "", layers_point_down, "in none of packing's layers"),
        (
            "packing/game.py",
            "def main():\n    from packing.cli import main\n",
            no_library_imports_a_cli,
            "must not import a CLI module",
        ),
        (
            "arena/play.py",
            "from arena import cli\n",
            no_library_imports_a_cli,
            "must not import a CLI module",
        ),
        (
            "packing/game.py",
            "def f():\n    import webapp.contract\n",
            nothing_imports_the_web_app,
            "packing must not import the web app",
        ),
        ("webapp/store.py", "import uvicorn\n", extras_at_module_level, "the web extra"),
        (
            "packing/rules.py",
            "def f():\n    from packing.model import Cargo\n",
            no_import_circles,
            "an import circle among packing.model, packing.rules: packing.model imports "
            "packing.rules at module level",
        ),
        (
            "packing/render.py",
            "from packing.solver import solve\n",
            no_import_circles,
            "an import circle among packing.model, packing.render, packing.solver",
        ),
    ],
)
def test_the_checker_fails_a_wrong_way_import(
    tmp_path: Path, file: str, source: str, rule: object, expected: str
) -> None:
    files = dict(CLEAN)
    files[file] = files.get(file, "") + source
    files.setdefault("arena/cli.py", "")
    tree = synthetic(tmp_path, files)
    assert callable(rule)
    problems = rule(tree)
    assert any(expected in problem for problem in problems), problems


def test_a_method_may_import_its_picture_module_and_nothing_else_closes_a_circle(
    tmp_path: Path,
) -> None:
    files = dict(CLEAN)
    files["packing/model.py"] += "def svg():\n    from packing.svg import plan_svg\n"
    files["packing/svg.py"] = (
        "from typing import TYPE_CHECKING\nfrom packing.model import Cargo\n"
        "if TYPE_CHECKING:\n    from packing.game import Game\n"
    )
    tree = synthetic(tmp_path, files)
    assert no_import_circles(tree) == []
    files["packing/model.py"] += "from packing.svg import plan_svg\n"  # on import: a circle
    assert no_import_circles(synthetic(tmp_path, files)) == [
        "an import circle among packing.model, packing.svg: packing.model imports packing.svg "
        "at module level (line 5); packing.svg imports packing.model at module level (line 2)"
    ]


def private_imports(root: Path) -> list[str]:
    """Every ``from <project module> import _name`` (or from a ``_module``) in the tests under
    ``root``: a test checks what users can reach, so it goes through public names."""
    found = []
    for path in sorted((root / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not node.module:
                continue
            if node.module.split(".")[0] not in PACKAGES:
                continue
            parts = node.module.split(".")
            names = [alias.name for alias in node.names if alias.name.startswith("_")]
            if any(part.startswith("_") and not part.startswith("__") for part in parts):
                names.append(node.module)
            found += [f"{path.relative_to(root)}:{node.lineno} imports {name}" for name in names]
    return found


def test_no_test_imports_a_private_name() -> None:
    assert private_imports(ROOT) == []


def test_a_private_import_in_a_test_is_seen(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "from arena.play import _hidden, play\nfrom packing._inner import thing\nfrom os import _exit\n"
    )
    assert private_imports(tmp_path) == [
        "tests/test_x.py:1 imports _hidden",
        "tests/test_x.py:2 imports packing._inner",
    ]
