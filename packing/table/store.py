"""A table file of the user's: built into a file (resuming its checkpoint) and
built at most once per deck, so "a missing table is built once" is a library call."""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.executors import check_workers, usable_cores
from packing.model import Truck
from packing.table.build import BuildReport, Progress, build_table
from packing.table.files import table_filename, user_table_dir
from packing.table.optimal import OptimalTable
from packing.table.registry import find_table, register


def checkpoint_for(path: str | os.PathLike[str]) -> Path:
    """Where :func:`build_table_file` keeps the finished work of the table file ``path``."""
    return Path(path).with_suffix(".partial.npz")


@dataclass(frozen=True)
class TableBuild:
    """What :func:`build_table_file` did: the file it wrote, whether it resumed from a
    checkpoint, and the build's report."""

    path: Path
    report: BuildReport
    workers: int
    resumed: bool

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready summary (``up_to_date`` is False: the table was built)."""
        where = {"path": os.fspath(self.path), "up_to_date": False, "resumed": self.resumed}
        return where | {"workers": self.workers} | self.report.to_dict()


def build_table_file(
    deck: Sequence[Truck],
    path: str | os.PathLike[str],
    *,
    workers: int = 1,
    executor: Executor | None = None,
    progress: Progress | None = None,
) -> TableBuild:
    """Build the table of ``deck`` into the file ``path``, save and :func:`register` it.

    Finished work is saved in :func:`checkpoint_for` ``(path)`` as it goes (and on Ctrl-C), and
    the next call resumes from it. A checkpoint that cannot resume this build (damaged, another
    deck's) is refused before any work starts, as a tournament's is
    (:class:`arena.checkpoint.CheckpointError`, saying to delete it).
    """
    check_workers(workers)
    target = Path(path)
    checkpoint = checkpoint_for(target)
    resumed = checkpoint.exists()
    options: dict[str, Any] = {"workers": workers, "executor": executor, "progress": progress}
    report = build_table(deck, checkpoint=checkpoint, **options)
    report.table.save(target)
    register(report.table)
    return TableBuild(target, report, workers, resumed)


def ensure_table(
    deck: Sequence[Truck],
    *,
    folder: str | os.PathLike[str] | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
) -> OptimalTable:
    """The table of ``deck``: the one :func:`find_table` finds, else built once into ``folder``
    (default :func:`user_table_dir`) by :func:`build_table_file` on ``workers`` processes
    (default :func:`arena.executors.usable_cores`), so that every later query of this deck, in
    this process or the next, finds it."""
    if workers is not None:
        check_workers(workers)
    table = find_table(deck)
    if table is not None:
        return table
    where = Path(folder) if folder is not None else user_table_dir()
    path = where / table_filename(deck)
    count = workers if workers is not None else usable_cores()
    return build_table_file(deck, path, workers=count, progress=progress).report.table
