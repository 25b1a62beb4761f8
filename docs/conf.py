"""Sphinx configuration of the documentation site (``make docs``).

Sphinx with autodoc rather than MkDocs with mkdocstrings: the docstrings are reStructuredText
(``:class:`` roles, ``>>>`` examples), autodoc imports the real objects so each package's
``__all__`` decides what the reference shows, and the Markdown pages (the README, the rules,
the architecture, the benchmarks, the changelog) go through MyST unchanged.
"""

from __future__ import annotations

import builtins
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the checkout's packages, also when not installed
sys.path.insert(0, str(ROOT / "docs" / "_ext"))  # the extensions of this site

from arena import __version__  # noqa: E402

project = "tabletop-solvers"
author = "the tabletop-solvers authors"
release = __version__
version = __version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.viewcode",
    "myst_parser",
    "public_api",
    "references",
    "repo_files",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
myst_heading_anchors = 3
html_theme = "furo"
html_title = f"tabletop-solvers {release}"

autodoc_default_options = {"members": True, "undoc-members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
# Defaults as written in the source (deck=SAMPLE_DECK), not 30 trucks spelled out.
autodoc_preserve_defaults = True

# Every cross-reference must find its target (the build treats warnings as errors), except the
# names of Python itself and of the libraries the packages use (cp_model: OR-Tools' CP-SAT as
# the packages import it): without internet there is no intersphinx inventory to link them to.
nitpicky = True
_FOREIGN = (
    "abc argparse asyncio collections concurrent contextlib cp_model dask dataclasses datetime "
    "enum fastapi fractions functools gymnasium io json matplotlib numpy ortools os pathlib "
    "pettingzoo pydantic pyspiel random re starlette time tqdm types typing typing_extensions"
).split()
_BUILTINS = [name for name in dir(builtins) if not name.startswith("_")]
nitpick_ignore_regex = [
    ("py:.*", rf"({'|'.join(_FOREIGN)})(\..+)?"),
    ("py:.*", rf"({'|'.join(_BUILTINS)})"),
    ("py:class", r"FastAPI|Request|Response|NDArray"),
]
