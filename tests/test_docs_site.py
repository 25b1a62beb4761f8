"""Every public name of ``arena``, ``packing``, ``express`` and ``webapp`` has an entry in the built API
reference, with a description.

The site is built by ``make docs`` (Sphinx, the ``docs`` extra), which then runs this module as
a script on the build: ``python -m tests.test_docs_site docs/_build/html`` lists every name of
a package's ``__all__`` whose entry is missing from ``api/<package>.html`` or has no text, and
exits with status 1 when there is one. The tests below check that checker on small pages made
here, so the suite needs no Sphinx.
"""

from __future__ import annotations

import importlib
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

PACKAGES = ("arena", "packing", "express", "webapp")
DOCS = Path(__file__).resolve().parent.parent / "docs"


class _Entries(HTMLParser):
    """The text of each entry's own description: Sphinx writes an object as
    ``<dt id="packing.Truck">signature</dt><dd>description, then nested <dl> members</dd>``."""

    def __init__(self) -> None:
        super().__init__()
        self.text: dict[str, str] = {}
        self._pending: str | None = None  # the id of the last <dt>, until its <dd> opens
        self._open: list[tuple[str, int]] = []  # (id, depth) of the <dd>s being read
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "dt" and (ident := dict(attrs).get("id")):
            self._pending = ident
        elif tag == "dd":
            self._depth += 1
            if self._pending is not None:
                self._open.append((self._pending, self._depth))
                self.text.setdefault(self._pending, "")
                self._pending = None
        elif tag == "dl" and self._open and self._open[-1][1] == self._depth:
            self._open.append(("", self._depth))  # a nested list: members, not this description

    def handle_endtag(self, tag: str) -> None:
        if tag == "dd":
            while self._open and self._open[-1][1] == self._depth:
                self._open.pop()
            self._depth -= 1

    def handle_data(self, data: str) -> None:
        if self._open and self._open[-1][0]:
            ident = self._open[-1][0]
            self.text[ident] += data


def entries(page: str) -> dict[str, str]:
    """Each documented object's id and the stripped text of its own description."""
    parser = _Entries()
    parser.feed(page)
    return {ident: " ".join(text.split()) for ident, text in parser.text.items()}


def reference_problems(html: Path, packages: dict[str, list[str]]) -> list[str]:
    """One line per public name without an entry, or with an empty one, in the build ``html``."""
    problems = []
    for package, names in packages.items():
        page = html / "api" / f"{package}.html"
        if not page.is_file():
            problems.append(f"{page}: no such page")
            continue
        found = entries(page.read_text(encoding="utf-8"))
        for name in names:
            ident = f"{package}.{name}"
            if ident not in found:
                problems.append(f"{ident}: not in {page.name}")
            elif not found[ident]:
                problems.append(f"{ident}: no description")
    return problems


def public_names() -> dict[str, list[str]]:
    """Each package's ``__all__``."""
    return {name: list(importlib.import_module(name).__all__) for name in PACKAGES}


def _entry(ident: str, description: str, members: str = "") -> str:
    return (
        f'<dl class="py"><dt class="sig sig-object py" id="{ident}">sig</dt>'
        f"<dd>{description}{members}</dd></dl>"
    )


def _site(tmp_path: Path, pages: dict[str, str]) -> Path:
    (tmp_path / "api").mkdir()
    for package, body in pages.items():
        (tmp_path / "api" / f"{package}.html").write_text(f"<html><body>{body}</body></html>")
    return tmp_path


def test_a_complete_reference_has_no_problem(tmp_path: Path) -> None:
    names = public_names()
    site = _site(
        tmp_path,
        {
            p: "".join(_entry(f"{p}.{n}", f"<p>What {n} is.</p>") for n in ns)
            for p, ns in names.items()
        },
    )
    assert reference_problems(site, names) == []


def test_a_missing_name_and_an_empty_entry_are_reported(tmp_path: Path) -> None:
    # The empty class still documents a member: only its own text counts.
    member = _entry("packing.Truck.parse", "<p>Parse a mask.</p>")
    page = (
        _entry("packing.solve", "<p>Solve.</p>")
        + _entry("packing.Truck", "", members=member)
        + _entry("packing.LoadPlan", "<p>A plan.</p>", members=member)
    )
    site = _site(tmp_path, {"packing": page})
    problems = reference_problems(
        site, {"packing": ["solve", "Truck", "LoadPlan", "verify"], "express": ["Card"]}
    )
    assert problems == [
        "packing.Truck: no description",
        "packing.verify: not in packing.html",
        f"{site / 'api' / 'express.html'}: no such page",
    ]


def test_every_package_has_its_reference_page() -> None:
    for package in PACKAGES:
        source = (DOCS / "api" / f"{package}.rst").read_text(encoding="utf-8")
        assert f".. public-api:: {package}\n" in source


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_exists(package: str) -> None:
    # The reference imports each name from the package: a name in __all__ must be there.
    module = importlib.import_module(package)
    assert [name for name in module.__all__ if not hasattr(module, name)] == []


def main(argv: list[str]) -> int:
    """``python -m tests.test_docs_site BUILD_DIR``: 0 when every public name is documented."""
    if len(argv) != 1:
        print("usage: python -m tests.test_docs_site BUILD_DIR", file=sys.stderr)
        return 2
    names = public_names()
    problems = reference_problems(Path(argv[0]), names)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print(f"API reference: all {sum(map(len, names.values()))} public names documented")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


#: Modules users import names from besides the packages themselves (the library's docs and
#: docstrings point to them); each has a section in the reference.
IMPORTED_FROM = [
    "arena.checkpoint",
    "arena.stats",
    "arena.progress",
    "express.pimc",
    "express.worlds",
    "express.table_view",
]


@pytest.mark.parametrize("module", IMPORTED_FROM)
def test_modules_users_import_from_have_a_reference_section(module: str) -> None:
    source = "".join(
        path.read_text(encoding="utf-8") for path in sorted((DOCS / "api").glob("*.rst"))
    )
    assert f".. automodule:: {module}\n" in source and f".. public-api:: {module}\n" in source
    assert importlib.import_module(module).__all__
