"""The ``public-api`` directive: a module's whole ``__all__``, documented by autodoc.

``.. public-api:: packing`` writes one autodoc entry for every name in ``packing.__all__``,
under the public path (``packing.Truck``, never ``packing.model.Truck``), grouped by the module
that defines each name (``:order:`` lists the modules to show first, in that order). The page therefore cannot miss
a public name, and a name added to ``__all__`` appears without editing the page.

Constants carry their documentation as ``#:`` comments in the module that defines them; autodoc
only reads such comments in the module it documents, so the directive finds the defining module
and passes the comment on. Type aliases (``arena.Action``, ``express.Row``) are constants here.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
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


def _entries(
    module_name: str, order: list[str], *, index_reexports: bool
) -> list[tuple[str, list[str]]]:
    """(defining module, rst lines) for each group of ``module_name.__all__``, the modules in
    ``order`` first (in that order), then the others by name. Without ``index_reexports``, a
    class or function defined outside ``module_name`` gets no index entry (no link target)."""
    module = importlib.import_module(module_name)
    public = _public_names(module)
    candidates = _submodules(importlib.import_module(module_name.split(".")[0]))
    groups: dict[str, list[str]] = {}
    for name in public:
        value = getattr(module, name)
        if _is_routine_or_class(value, module_name):
            home = value.__module__
            kind = "class" if inspect.isclass(value) else "function"
            if kind == "class" and issubclass(value, BaseException):
                kind = "exception"
            lines = [f".. auto{kind}:: {module_name}.{name}"]
            if not index_reexports and not (home + ".").startswith(module_name + "."):
                # Shown here too, but a link to the name goes to its own module's entry.
                lines.append("   :no-index:")
            lines.append("")
        else:
            home, comment = module_name, []
            for candidate in [module, *candidates]:
                if getattr(candidate, name, None) is value and (found := _comment(candidate, name)):
                    home, comment = candidate.__name__, found
                    break
            lines = [f".. autodata:: {module_name}.{name}"]
            if len(repr(value)) > _LONGEST_VALUE:
                lines.append("   :no-value:")
            lines += ["", *("   " + line if line else "" for line in comment), ""]
        groups.setdefault(home, []).extend(lines)
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

    def run(self) -> list[nodes.Node]:
        module_name = self.arguments[0]
        order = self.options.get("order", "").split()
        text: list[str] = []
        flat = "flat" in self.options
        for home, lines in _entries(module_name, order, index_reexports=not flat):
            if not flat:
                title = f"From ``{home}``" if home != module_name else f"``{module_name}`` itself"
                text += [title, "-" * len(title), "", _summary(home), ""]
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


def _drop_object_base(app: Sphinx, name: str, obj: Any, options: Any, bases: list[type]) -> None:
    """``Bases: object`` says nothing; an exception's or an enum's bases are worth showing."""
    if bases == [object]:
        bases.clear()


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directive."""
    app.add_directive("public-api", PublicApi)
    app.connect("autodoc-process-docstring", _drop_type_docstring)
    app.connect("autodoc-process-bases", _drop_object_base)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
