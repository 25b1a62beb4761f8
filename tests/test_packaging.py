"""The distribution's promises: its extras, its dependency floors, and the suite's skip machinery.

The floors themselves are proven by ``make test-floors`` (an install of every declared minimum),
the core-only suite by ``make test-core`` and the sdist by ``make sdist-check``; these tests
keep the tables those steps read honest.
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import arena.extras
from tests.test_layers import FOR_EXTRA
from tools.constraints_from_pyproject import constraints, floor_of, floors, main

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
OPTIONAL = PYPROJECT["project"]["optional-dependencies"]
#: The extras that are tools for working on the project, not features of the library.
TOOL_EXTRAS = {"all", "test", "test-core", "docs", "examples", "dev"}


def own_extras(group: list[str]) -> set[str]:
    """The project's own extras a group names (``tabletop-solvers[plot,dask]``)."""
    found: set[str] = set()
    for requirement in group:
        match = re.fullmatch(r"tabletop-solvers\[([^\]]*)\]", requirement.replace(" ", ""))
        if match:
            found |= set(match.group(1).split(","))
    return found


def test_all_lists_every_runtime_extra() -> None:
    runtime = set(OPTIONAL) - TOOL_EXTRAS
    assert own_extras(OPTIONAL["all"]) == runtime
    # The library knows every runtime extra: its error names the extra, has_extra finds it.
    assert set(arena.extras.EXTRAS) == runtime == set(arena.extras.EXTRA_MODULES)


def test_the_readmes_install_table_names_every_runtime_extra() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    install = readme[readme.index("## Install") : readme.index("## Environment")]
    rows = set(re.findall(r"^\| `([a-z-]+)` \|", install, re.MULTILINE))
    assert rows == set(OPTIONAL) - TOOL_EXTRAS | {"all"}


def test_the_test_extra_is_the_runners_and_every_runtime_extra() -> None:
    assert own_extras(OPTIONAL["test"]) == {"test-core", "all"}
    runners = {floor_of(requirement)[0] for requirement in OPTIONAL["test-core"]}
    assert runners == {"pytest", "pytest-xdist", "hypothesis"}


def test_every_direct_dependency_declares_one_floor() -> None:
    pins = floors(PYPROJECT)
    assert {"ortools", "numpy", "matplotlib", "scipy", "tqdm", "dask"} <= set(pins)
    # The floors CI proves, where an older release is known to break (see pyproject's comments).
    assert pins["ortools"] == "9.9.3963" and pins["matplotlib"] == "3.10"


def test_the_licence_is_declared_and_shipped() -> None:
    assert PYPROJECT["project"]["license"] == "Apache-2.0"
    assert PYPROJECT["project"]["license-files"] == ["LICENSE"]
    assert "Apache License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert not any(c.startswith("License ::") for c in PYPROJECT["project"]["classifiers"])


def test_constraints_pin_each_floor_and_refuse_what_has_none() -> None:
    optional: dict[str, list[str]] = {
        "dask": ["dask[distributed]>=2024.1"],
        "all": ["tabletop-solvers[dask]"],
        "test": ["Open_Spiel>=2.0.2; python_version < '4'"],
    }
    project: dict[str, object] = {
        "name": "tabletop-solvers",
        "dependencies": ["ortools>=9.9.3963", "numpy >= 1.26, <3"],
        "optional-dependencies": optional,
    }
    assert list(constraints(floors({"project": project}))) == [
        "dask==2024.1",
        "numpy==1.26",
        "open-spiel==2.0.2",
        "ortools==9.9.3963",
    ]
    optional["plot"] = ["numpy>=2"]
    with pytest.raises(ValueError, match="numpy has two floors: 1.26 and 2"):
        floors({"project": project})
    with pytest.raises(ValueError, match="'scipy<2' declares no minimum"):
        floor_of("scipy<2")


def test_the_constraints_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(ROOT / "pyproject.toml")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("# generated") and "ortools==9.9.3963" in out
    broken = tmp_path / "pyproject.toml"
    broken.write_text('[project]\nname = "x"\ndependencies = ["numpy"]\n', encoding="utf-8")
    assert main([str(broken)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert main([str(tmp_path / "missing.toml")]) == 2


def test_what_needs_an_extra_exists() -> None:
    conftest = importlib.import_module("conftest")
    for path in conftest.NEEDS_EXTRA:
        assert (ROOT / path).is_file(), f"conftest.NEEDS_EXTRA names {path}, which does not exist"
    for module, extras in FOR_EXTRA.items():
        path = module.replace(".", "/") + ".py"
        assert set(conftest.NEEDS_EXTRA.get(path, ())) == extras, path
    for extras in [*conftest.NEEDS_EXTRA.values(), *conftest.DOCTESTS_NEED_EXTRA.values()]:
        assert set(extras) <= set(arena.extras.EXTRAS)
    for name in conftest.DOCTESTS_NEED_EXTRA:
        assert ">>>" in (doctest_owner(name).__doc__ or ""), f"{name} has no doctest"


def doctest_owner(name: str) -> object:
    """The module, or the object inside a module, a doctest's dotted name designates."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:
        module, _, attribute = name.rpartition(".")
        return getattr(importlib.import_module(module), attribute)


def test_a_skip_names_each_missing_extra_and_its_install_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    conftest = importlib.import_module("conftest")
    monkeypatch.setattr(conftest, "has_extra", lambda extra: extra == "plot")
    assert conftest.skip_reason(["plot"]) is None
    assert conftest.skip_reason(["plot", "dask", "openspiel"]) == (
        "needs the 'dask' extra: pip install 'tabletop-solvers[dask]'; "
        "needs the 'openspiel' extra: pip install 'tabletop-solvers[openspiel]'"
    )


def test_has_extra_finds_modules_without_importing_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(arena.extras.EXTRA_MODULES, "plot", ("json", "no_such_module_anywhere"))
    assert not arena.extras.has_extra("plot")
    monkeypatch.setitem(arena.extras.EXTRA_MODULES, "plot", ("json",))
    assert arena.extras.has_extra("plot")


_WITHOUT_OPENSPIEL = """
import importlib, sys
from arena.extras import MissingExtraError
sys.modules["pyspiel"] = None  # as if the openspiel extra were not installed
for name in ("arena.openspiel", "packing.openspiel", "express.openspiel"):
    try:
        importlib.import_module(name)
    except MissingExtraError as error:
        assert isinstance(error, ImportError) and error.extra == "openspiel", name
        print(name, error)
    else:
        raise SystemExit(f"{name} imported without pyspiel")
"""


def test_each_openspiel_module_without_openspiel_raises_the_missing_extra_error() -> None:
    """A fresh interpreter: the modules must not be imported already (sys.modules is shared)."""
    done = subprocess.run(
        [sys.executable, "-c", _WITHOUT_OPENSPIEL],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines] == [
        "arena.openspiel",
        "packing.openspiel",
        "express.openspiel",
    ]
    assert all("pip install 'tabletop-solvers[openspiel]'" in line for line in lines)
