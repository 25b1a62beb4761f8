"""Links and signatures of the reference: every project name links, no private name shows.

- A cross-reference Sphinx cannot resolve by name alone (``:class:`Truck``` written in
  ``packing.table.store``, ``:func:`packing.rules.penalty_floor``` whose entry is
  ``packing.penalty_floor``) is looked up as Python would: the name in the module (and class)
  where it is written, or its dotted path; it then links to the entry that documents that very
  object, the shortest path first. A type variable (``S`` of ``arena.play``) has no entry and
  stays plain text. What is still not found is a broken reference: the build runs
  ``nitpicky`` with warnings as errors.
- A default written as a private name (``rounds=_ROUNDS``) shows its value when that is a short
  literal, else ``...``; a private function's repr (``<function _always>``) shows as ``...``.
- ``Bases:`` with nothing after it (a class whose only base is ``object``) is dropped.
"""

from __future__ import annotations

import importlib
import re
from typing import Any, TypeVar

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.nodes import make_refnode

PACKAGES = ("arena", "packing", "express", "webapp")
_MISSING = object()
_PRIVATE_DEFAULT = re.compile(r"=\s*(_[A-Za-z]\w*)\b")
_PRIVATE_FUNCTION = re.compile(r"<function _\w+(?: at 0x[0-9a-f]+)?>")
_LITERALS = (int, float, str, bool, type(None))


def _attribute(value: Any, path: list[str]) -> Any:
    for part in path:
        value = getattr(value, part, _MISSING)
        if value is _MISSING:
            break
    return value


def _lookup(target: str, module: str | None, klass: str | None) -> Any:
    """The object ``target`` names, written in ``module`` (inside ``klass``), or ``_MISSING``."""
    parts = target.split(".")
    if parts[0] in PACKAGES:
        for split in range(len(parts), 0, -1):
            try:
                found = importlib.import_module(".".join(parts[:split]))
            except ImportError:
                continue
            return _attribute(found, parts[split:])
        return _MISSING
    if not module or module.split(".")[0] not in PACKAGES:
        return _MISSING
    try:
        home = importlib.import_module(module)
    except ImportError:
        return _MISSING
    if klass:
        found = _attribute(home, [*klass.split("."), *parts])
        if found is not _MISSING:
            return found
    return _attribute(home, parts)


def _documented(env: BuildEnvironment, value: Any, last: str) -> tuple[str, str, str] | None:
    """(docname, node id, name) of the entry documenting ``value``, the shortest path first."""
    domain: Any = env.get_domain("py")
    if isinstance(value, type(re)):
        entry = domain.modules.get(value.__name__)
        return (entry.docname, entry.node_id, value.__name__) if entry else None
    names = sorted(
        (name for name in domain.objects if name == last or name.endswith("." + last)),
        key=lambda name: (domain.objects[name].aliased, name.count("."), name),
    )
    for name in names:
        if _lookup(name, None, None) is value:
            entry = domain.objects[name]
            return entry.docname, entry.node_id, name
    return None


def _resolve(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.TextElement
) -> nodes.Element | None:
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip("~.")
    value = _lookup(target, node.get("py:module"), node.get("py:class"))
    if value is _MISSING:
        return None
    if isinstance(value, TypeVar):
        return contnode  # a type variable is not a name the reference documents
    found = _documented(env, value, target.split(".")[-1])
    if found is None:
        return None
    docname, node_id, name = found
    return make_refnode(app.builder, node["refdoc"], docname, node_id, contnode, name)


def _public_defaults(
    app: Sphinx,
    what: str,
    name: str,
    obj: Any,
    options: Any,
    signature: str | None,
    return_annotation: str | None,
) -> tuple[str | None, str | None] | None:
    if not signature or "_" not in signature:
        return None
    module = importlib.import_module(getattr(obj, "__module__", None) or name.rsplit(".", 1)[0])

    def shown(match: re.Match[str]) -> str:
        value = getattr(module, match[1], _MISSING)
        text = repr(value) if isinstance(value, _LITERALS) and len(repr(value)) < 40 else "..."
        return match[0].replace(match[1], text)

    signature = _PRIVATE_FUNCTION.sub("...", _PRIVATE_DEFAULT.sub(shown, signature))
    return signature, return_annotation


def _drop_empty_bases(app: Sphinx, doctree: nodes.document) -> None:
    for paragraph in list(doctree.findall(nodes.paragraph)):
        if paragraph.astext().strip() == "Bases:":
            paragraph.parent.remove(paragraph)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the handlers."""
    app.connect("missing-reference", _resolve)
    app.connect("autodoc-process-signature", _public_defaults)
    app.connect("doctree-read", _drop_empty_bases)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
