"""Links from the Markdown pages to repository files that are not pages of the site.

The README is the guide page as it stands, so its links are written for a reader of the
repository: ``[LICENSE](LICENSE)`` or a link to a source file. Such a link has no page to point
to, and MyST reports it as a missing cross-reference. When the target is a file of the
repository, the link points instead to a copy of that file in the build (``_repo/<path>``);
a target that is no file at all still fails the build.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.osutil import relative_uri

ROOT = Path(__file__).resolve().parent.parent.parent


def _repository_file(env: BuildEnvironment, node: pending_xref) -> Path | None:
    target = str(node.get("reftarget", "")).split("#")[0]
    if not target or "://" in target or target in env.all_docs:
        return None
    here = Path(env.doc2path(node.get("refdoc", env.docname))).parent
    for candidate in (here / target, ROOT / target):
        path = candidate.resolve()
        if path.suffix != ".md" and path.is_file() and path.is_relative_to(ROOT):
            return path
    return None


class RepositoryFileLinks(SphinxPostTransform):
    """Runs just before MyST's own resolver, which would report these links as missing."""

    default_priority = 8

    def run(self, **kwargs: Any) -> None:
        for node in list(self.document.findall(pending_xref)):
            if node.get("reftype") != "myst":
                continue
            path = _repository_file(self.env, node)
            if path is None:
                continue
            relative = path.relative_to(ROOT).as_posix()
            copy = Path(self.app.outdir) / "_repo" / relative
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, copy)
            base = self.app.builder.get_target_uri(node.get("refdoc", self.env.docname))
            uri = relative_uri(base, f"_repo/{relative}")
            reference = nodes.reference("", "", internal=False, refuri=uri)
            reference += node.children
            node.replace_self(reference)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the transform."""
    app.add_post_transform(RepositoryFileLinks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
