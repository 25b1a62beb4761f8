"""The ``public-api`` directive: a module's whole ``__all__``, documented by autodoc.

``.. public-api:: packing`` writes one autodoc entry for every name in ``packing.__all__``,
under the public path (``packing.Truck``, never ``packing.model.Truck``), grouped by the module
that defines each name (``:order:`` lists the modules to show first, in that order). The page therefore cannot miss
a public name, and a name added to ``__all__`` appears without editing the page.

On a package's page, each group is also where its module is documented: the module's own
public names that the package does not export follow under the module's path
(``packing.game.Draw``), and ``:mod:`` links to the module land on the group, unless the
module has a section of its own (an ``.. automodule::`` in docs/api).

Constants carry their documentation as ``#:`` comments in the module that defines them; autodoc
only reads such comments in the module it documents, so the directive finds the defining module
and passes the comment on. Type aliases (``arena.Action``, ``express.Row``) are constants here.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path
from types import ModuleType
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.pycode import ModuleAnalyzer
from sphinx.util.docutils import SphinxDirective
from sphinx.util.parsing import nested_parse_to_nodes

# A value whose repr is longer than this is shown without it (the sample deck is 30 trucks).
_LONGEST_VALUE = 70
_PACKAGES = ("arena", "packing", "express", "webapp")


def _submodules(package: ModuleType) -> list[ModuleType]:
    """The package and every module under it, except ``__main__`` (importing it runs the CLI)."""
    found = [package]
    for info in pkgutil.walk_packages(getattr(package, "__path__", []), package.__name__ + "."):
        if not info.name.endswith("__main__"):
            found.append(importlib.import_module(info.name))
    return found


def _comment(module: ModuleType, name: str) -> list[str]:
    try:
        docs = ModuleAnalyzer.for_module(module.__name__).find_attr_docs()
    except Exception:  # a module without source (compiled): no comments to read
        return []
    return [line for line in docs.get(("", name), []) if line.strip() or line == ""]


def _is_routine_or_class(value: Any, package: str) -> bool:
    """A class or function of this project (a ``typing`` alias is a constant here)."""
    if not (inspect.isclass(value) or callable(value)):  # callable: a functools.cache too
        return False
    return str(getattr(value, "__module__", "")).split(".")[0] == package.split(".")[0]


def _public_names(module: ModuleType) -> list[str]:
    """``__all__``, or for a module without one, the names it defines and documents itself:
    its classes and functions, and the constants with a ``#:`` comment or a docstring."""
    if hasattr(module, "__all__"):
        return list(module.__all__)
    names = []
    for name, value in vars(module).items():
        if name.startswith("_") or inspect.ismodule(value):
            continue
        if _is_routine_or_class(value, module.__name__):
            if value.__module__ == module.__name__:
                names.append(name)
        elif _comment(module, name):
            names.append(name)
    return names


def _entry(
    module: ModuleType, name: str, candidates: list[ModuleType], *, index: bool
) -> tuple[str, list[str]]:
    """(defining module, rst lines) of ``module.name`` (``index``: a link target even when the
    name is defined elsewhere)."""
    root = importlib.import_module(module.__name__.split(".")[0])
    value = getattr(module, name)
    if _is_routine_or_class(value, module.__name__):
        home = value.__module__
        kind = "class" if inspect.isclass(value) else "function"
        if kind == "class" and issubclass(value, BaseException):
            kind = "exception"
        lines = [f".. auto{kind}:: {module.__name__}.{name}"]
        # A name from elsewhere, or one the package itself exports (indexed on its page), is
        # shown here too, but a link to it goes to that entry.
        reexport = not (home + ".").startswith(module.__name__ + ".") or (
            home != module.__name__ and getattr(root, name, None) is value
        )
        if not index and reexport:
            lines.append("   :no-index:")
        return home, [*lines, ""]
    home, comment = module.__name__, []
    for candidate in [module, *candidates]:
        if getattr(candidate, name, None) is value and (found := _comment(candidate, name)):
            home, comment = candidate.__name__, found
            break
    lines = [f".. autodata:: {module.__name__}.{name}"]
    if len(repr(value)) > _LONGEST_VALUE:
        lines.append("   :no-value:")
    return home, [*lines, "", *("   " + line if line else "" for line in comment), ""]


def _entries(
    module_name: str, order: list[str], *, index_reexports: bool, sections: frozenset[str]
) -> list[tuple[str, list[str]]]:
    """(defining module, rst lines) for each group of ``module_name.__all__``, the modules in
    ``order`` first (in that order), then the others by name. Without ``index_reexports``, a
    class or function defined outside ``module_name`` gets no index entry (no link target).

    With it (a package's page), a group also documents its module's own public names that the
    package does not export (``packing.game.Draw``), under the module's path, unless the module
    has a section of its own (``sections``)."""
    module = importlib.import_module(module_name)
    candidates = _submodules(importlib.import_module(module_name.split(".")[0]))
    groups: dict[str, list[str]] = {}
    exported = _public_names(module)
    for name in exported:
        home, lines = _entry(module, name, candidates, index=index_reexports)
        groups.setdefault(home, []).extend(lines)
    for home in list(groups) if index_reexports else []:
        if home == module_name or home in sections:
            continue
        own = importlib.import_module(home)
        for name in _public_names(own):
            value = getattr(own, name)
            if name in exported and getattr(module, name) is value:
                continue  # documented above, under the package's path
            if _is_routine_or_class(value, home) and value.__module__ != home:
                continue  # another module's name: documented with that module
            where, lines = _entry(own, name, candidates, index=True)
            if where == home:
                groups[home].extend(lines)
    rank = {name: i for i, name in enumerate(order)}
    return sorted(groups.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0]))


def _summary(module_name: str) -> str:
    doc = inspect.getdoc(importlib.import_module(module_name)) or ""
    return doc.split("\n\n")[0].replace("\n", " ")


class PublicApi(SphinxDirective):
    """``.. public-api:: MODULE``: every name of ``MODULE.__all__``, grouped by home module
    (``:flat:``: one list without the groups' headings, for a module whose own page is not the
    home of the names it re-exports)."""

    required_arguments = 1
    option_spec = {"order": directives.unchanged, "flat": directives.flag}

    def _api_sources(self) -> list[Path]:
        return sorted((Path(self.env.srcdir) / "api").glob("*.rst"))

    def run(self) -> list[nodes.Node]:
        module_name = self.arguments[0]
        order = self.options.get("order", "").split()
        text: list[str] = []
        flat = "flat" in self.options
        pages = "".join(path.read_text(encoding="utf-8") for path in self._api_sources())
        sections = frozenset(re.findall(r"^\.\. automodule:: (\S+)$", pages, re.MULTILINE))
        for home, lines in _entries(
            module_name, order, index_reexports=not flat, sections=sections
        ):
            if not flat:
                title = f"From ``{home}``" if home != module_name else f"``{module_name}`` itself"
                text += [title, "-" * len(title), "", _summary(home), ""]
                # No module target where the module's name is also a name the package
                # exports (``arena.play``, a function): the two would be one target.
                package, _, last = home.rpartition(".")
                clash = bool(package) and not inspect.ismodule(
                    getattr(importlib.import_module(package), last)
                )
                if home != module_name and home not in sections and not clash:
                    text += [f".. py:module:: {home}", "", f".. py:currentmodule:: {module_name}"]
                    text += [""]
            text += [*lines, ""]
        return (
            nested_parse_to_nodes(
                self.state, "\n".join(text), source=self.get_source_info()[0], offset=self.lineno
            )
            if text
            else []
        )


def _drop_type_docstring(
    app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    """A constant is not its type: ``DICE`` gets no text from ``dict.__doc__``."""
    if what == "data" and not inspect.isclass(obj):
        own = inspect.getdoc(type(obj)) or ""
        if own and "\n".join(lines).strip() == own.strip():
            lines.clear()


def _drop_object_base(app: Sphinx, name: str, obj: Any, options: Any, bases: list[Any]) -> None:
    """``Bases: object`` says nothing; an exception's or an enum's bases are worth showing. A
    base from another library shows its whole path: ``pyspiel.Game``, not ``Game`` (which
    reads as :class:`packing.Game`)."""
    if bases == [object]:
        bases.clear()
    for i, base in enumerate(bases):
        module = getattr(base, "__module__", "builtins")
        if inspect.isclass(base) and module.split(".")[0] not in ("builtins", *_PACKAGES):
            bases[i] = f":py:class:`{module}.{base.__qualname__}`"


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directive."""
    app.add_directive("public-api", PublicApi)
    app.connect("autodoc-process-docstring", _drop_type_docstring)
    app.connect("autodoc-process-bases", _drop_object_base)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
