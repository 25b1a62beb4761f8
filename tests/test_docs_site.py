"""The built API reference is complete: every public name of ``arena``, ``packing``, ``express``
and ``webapp`` has an entry with a description, every public module a section, every reference
to a project name links, and no signature shows a private name.

The site is built by ``make docs`` (Sphinx, the ``docs`` extra), which then runs this module as
a script on the build: ``python -m tests.test_docs_site docs/_build/html`` lists every name of
a package's ``__all__`` whose entry is missing from ``api/<package>.html`` or has no text, and
every problem of the pages' HTML (:func:`html_problems`: an unlinked reference to a project
name, an empty "Bases:", a private name in a signature), and exits with status 1 when there is
one. The tests below check that checker on small pages made here, so the suite needs no Sphinx.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
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


class _Page(HTMLParser):
    """What :func:`html_problems` looks at: the text of every cross-reference that is not inside a
    link (``<code class="xref">`` in text, ``<span class="pre">`` in a signature's types), each
    "Bases:" paragraph's text, and each signature's text outside its name."""

    def __init__(self) -> None:
        super().__init__()
        self.unlinked: list[str] = []
        self.bases: list[str] = []
        self.signatures: list[tuple[str, str]] = []  # (id, text)
        self._stack: list[tuple[str, str]] = []  # (tag, class) of the open elements
        self._links = 0
        self._xref: list[str] | None = None
        self._paragraph: list[str] | None = None
        self._signature: tuple[str, list[str]] | None = None
        self._parameter = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        kind = attributes.get("class") or ""
        if tag in ("br", "img", "meta", "link", "input", "hr", "wbr"):
            return
        self._stack.append((tag, kind))
        if tag == "a":
            self._links += 1
        elif tag == "code" and "xref" in kind.split() and not self._links:
            self._xref = []
        elif tag == "p":
            self._paragraph = []
        elif tag == "dt" and "sig" in kind.split():
            self._signature = (attributes.get("id") or "", [])
        elif tag == "em" and "sig-param" in kind.split():
            self._parameter = True  # its first name is the parameter's, not a type

    def handle_endtag(self, tag: str) -> None:
        while self._stack:
            open_tag, kind = self._stack.pop()
            self._close(open_tag, kind)
            if open_tag == tag:
                break

    def _close(self, tag: str, kind: str) -> None:
        if tag == "em":
            self._parameter = False
        if tag == "a":
            self._links -= 1
        elif tag == "code" and self._xref is not None:
            self.unlinked.append("".join(self._xref).strip())
            self._xref = None
        elif tag == "p" and self._paragraph is not None:
            text = " ".join("".join(self._paragraph).split())
            if text.startswith("Bases:"):
                self.bases.append(text)
            self._paragraph = None
        elif tag == "dt" and self._signature is not None:
            self.signatures.append((self._signature[0], "".join(self._signature[1])))
            self._signature = None

    def handle_data(self, data: str) -> None:
        if self._xref is not None:
            self._xref.append(data)
        if self._paragraph is not None:
            self._paragraph.append(data)
        if self._signature is not None:
            classes = {name for _, kind in self._stack for name in kind.split()}
            if not classes & {"sig-name", "sig-prename", "headerlink", "viewcode-link"}:
                self._signature[1].append(data)
                in_type = classes & {"n", "sig-return-typehint"}  # a parameter's or a type
                if in_type and data.strip() and self._parameter:
                    self._parameter = False
                elif in_type and not self._links and data.strip():
                    self.unlinked.append(data.strip())


_PRIVATE = re.compile(r"(?<![\w.])_[A-Za-z]\w*")

#: The private names ``numpy.typing.ArrayLike`` renders as (it is a union of NumPy's own
#: protocols): NumPy's, not the project's, and a signature taking "anything that becomes an
#: array" cannot show it otherwise.
NUMPY_ARRAY_LIKE = frozenset({"_Buffer", "_SupportsArray", "_NestedSequence"})


def html_problems(page: str, names: set[str]) -> list[str]:
    """One line per problem of a built page: an unlinked reference to a project name (``names``,
    or a dotted name in a package), a "Bases:" with nothing after it, a private name
    (``_Option``, ``_always``) in a signature."""
    parser = _Page()
    parser.feed(page)
    problems = [
        f"unlinked reference: {text}"
        for text in parser.unlinked
        if (bare := text.removesuffix("()")).partition(".")[0] in PACKAGES or bare in names
    ]
    problems += [f"empty {text!r}" for text in parser.bases if text == "Bases:"]
    problems += [
        f"private name in the signature of {ident or '?'}: {', '.join(found)}"
        for ident, text in parser.signatures
        if (found := [name for name in _PRIVATE.findall(text) if name not in NUMPY_ARRAY_LIKE])
    ]
    return problems


def project_names() -> set[str]:
    """The bare names a reference to the project shows: the classes of each public module's
    ``__all__`` (a function's name may also be a parameter's, ``deck``; a dotted name of a
    package is a project name anyway)."""
    found = set()
    for module in public_modules():
        try:
            imported = importlib.import_module(module)
        except ImportError:  # a module of a missing extra; the docs build has every extra
            continue
        for name in getattr(imported, "__all__", []):
            if inspect.isclass(getattr(imported, name, None)):
                found.add(name)
    return found


def public_modules() -> list[str]:
    """Every module of the packages whose dotted name has no part starting with ``_`` (so not
    ``packing.__main__``, which runs the command when imported)."""
    found = []
    for package in PACKAGES:
        found.append(package)
        path = importlib.import_module(package).__path__
        for info in pkgutil.walk_packages(path, package + "."):
            if not any(part.startswith("_") for part in info.name.split(".")):
                found.append(info.name)
    return found


def command_line_modules() -> list[str]:
    """The command-line programs' modules (a package's ``cli``, and ``arena.cli``, their shared
    contract): a section each from the module's docstring, in docs/api/commands.rst, and no
    entries. They are not a library API: the commands are the interface (``--help``, the
    guide), and the functions behind them change freely."""
    return [name for name in public_modules() if "cli" in name.split(".")]


def documented_modules() -> dict[str, str]:
    """Each module the reference documents, and where: the package's page for a module that
    defines names of the package's ``__all__`` (a "From ..." group), else the ``.. automodule::``
    of its section in docs/api/*.rst."""
    where = {}
    for path in sorted((DOCS / "api").glob("*.rst")):
        for module in re.findall(r"^\.\. automodule:: (\S+)$", path.read_text(), re.MULTILINE):
            where[module] = path.name
    for package in PACKAGES:
        imported = importlib.import_module(package)
        for name in imported.__all__:
            value = getattr(imported, name)
            if inspect.isclass(value) or inspect.isfunction(value):
                where.setdefault(value.__module__, f"{package}.rst")
            else:  # a constant: its module is the one that assigns it
                for module in public_modules():
                    if module.startswith(package + ".") and _assigns(module, name, value):
                        where.setdefault(module, f"{package}.rst")
    return where


def _assigns(module: str, name: str, value: object) -> bool:
    try:
        imported = importlib.import_module(module)
    except ImportError:  # a module of an extra (missing here): a package's names need none
        return False
    if getattr(imported, name, None) is not value or not hasattr(imported, "__file__"):
        return False
    source = Path(str(imported.__file__)).read_text(encoding="utf-8")
    return re.search(rf"^{re.escape(name)}\b\s*[:=]", source, re.MULTILINE) is not None


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


def test_unlinked_references_empty_bases_and_private_names_are_reported() -> None:
    page = (
        '<p>See <a href="#packing.Truck"><code class="xref py py-class">'
        '<span class="pre">Truck</span></code></a>, <code class="xref py py-class">'
        '<span class="pre">Truck</span></code>, <code class="xref py py-func">'
        '<span class="pre">packing.rules.penalty()</span></code> and <code class="xref py">'
        '<span class="pre">Sequence</span></code>.</p>'
        '<dl><dt class="sig sig-object py" id="webapp.Session.options_now">'
        '<span class="sig-name descname"><span class="pre">options_now</span></span>('
        '<em class="sig-param"><span class="n"><span class="pre">deck</span></span>: '
        '<span class="n"><span class="pre">Truck</span></span></em>, '
        '<em class="sig-param"><span class="n"><span class="pre">cargo</span></span>: '
        '<span class="n"><a href="#packing.Cargo"><span class="pre">Cargo</span></a></span></em>)'
        '<span class="sig-return"><span class="sig-return-typehint">'
        '<span class="pre">list</span>[<span class="pre">_Option</span>]</span></span></dt>'
        '<dd><p>Bases:</p><p>Bases: <code class="xref py py-class">'
        '<span class="pre">Exception</span></code></p></dd></dl>'
    )
    assert html_problems(page, {"Truck", "Cargo"}) == [
        "unlinked reference: Truck",
        "unlinked reference: packing.rules.penalty()",
        "unlinked reference: Truck",
        "empty 'Bases:'",
        "private name in the signature of webapp.Session.options_now: _Option",
    ]


def test_every_public_module_is_documented() -> None:
    # A new module fails here until it has a section (or defines names of its package's
    # __all__, which its package's page then groups under it).
    documented = documented_modules()
    assert [module for module in public_modules() if module not in documented] == []
    commands = command_line_modules()
    assert {documented[module] for module in commands} == {"commands.rst"}
    assert "commands.rst" not in {documented[m] for m in public_modules() if m not in commands}


def test_a_module_section_lists_the_module_names() -> None:
    # Every section but a command's documents the module's names as well as its docstring.
    source = "".join(path.read_text() for path in sorted((DOCS / "api").glob("*.rst")))
    for module, page in documented_modules().items():
        if page != "commands.rst" and f".. automodule:: {module}\n" in source:
            assert f".. public-api:: {module}\n" in source, module


def main(argv: list[str]) -> int:
    """``python -m tests.test_docs_site BUILD_DIR``: 0 when every public name is documented and
    no page has a problem of :func:`html_problems`."""
    if len(argv) != 1:
        print("usage: python -m tests.test_docs_site BUILD_DIR", file=sys.stderr)
        return 2
    names = public_names()
    problems = reference_problems(Path(argv[0]), names)
    project = project_names()
    pages = sorted((Path(argv[0]) / "api").glob("*.html"))
    for page in pages:
        found = html_problems(page.read_text(encoding="utf-8"), project)
        problems += [f"{page.name}: {problem}" for problem in found]
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print(
        f"API reference: all {sum(map(len, names.values()))} public names documented; "
        f"{len(documented_modules())} modules; {len(pages)} pages without an unlinked project "
        "name, an empty Bases: or a private name in a signature"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


def test_numpys_array_like_is_not_a_private_name_of_the_project() -> None:
    page = (
        '<dl><dt class="sig sig-object py" id="packing.batch.Engine.play">'
        '<span class="sig-name descname"><span class="pre">play</span></span>('
        '<em class="sig-param"><span class="n"><span class="pre">seating</span></span>: '
        '<span class="n"><span class="pre">_Buffer | _SupportsArray | _NestedSequence</span>'
        '</span></em>, <em class="sig-param"><span class="n"><span class="pre">hook</span>'
        '</span>: <span class="n"><span class="pre">_Hook</span></span></em>)</dt></dl>'
    )
    assert html_problems(page, set()) == [
        "private name in the signature of packing.batch.Engine.play: _Hook"
    ]
