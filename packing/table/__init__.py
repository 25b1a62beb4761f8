"""The optimal penalty of every distinct roll on every truck of a deck, built once, then instant.

6^5 = 7,776 rolls collapse to 900 distinct cargos, so a 30-truck deck has 27,000 entries, each
solved (and validated) by :func:`packing.solve`. A table is saved as a small ``.npz`` file
keyed by the SHA-256 of the deck's canonical text (:func:`packing.format_deck`), so a changed
deck never reuses a stale table.

Where tables are found (:func:`find_table`): tables registered in this process, the tables
shipped inside the package (``packing/data``; the sample deck's is regenerated with
``make table``), and the user's table folder (:func:`user_table_dir`: ``$PACKING_TABLE_DIR``,
else the platform's user cache folder from ``platformdirs``, e.g.
``~/.cache/tabletop-solvers`` on Linux), where ``packing table build`` writes.

One job per module: :mod:`~packing.table.optimal` (the type), :mod:`~packing.table.files`
(the file format, its errors and folders), :mod:`~packing.table.registry` (finding tables)
and :mod:`~packing.table.build` (the parallel build), :mod:`~packing.table.store` (a table
file built, resumed, built once); this package re-exports their names.
"""

from packing.table.build import BuildReport, Progress, SolvedColumn, build_table, solve_column
from packing.table.files import (
    SHIPPED_DIR,
    TABLE_FORMAT,
    DamagedTableError,
    TableError,
    deck_key,
    rebuild_command,
    table_filename,
    user_table_dir,
)
from packing.table.optimal import OptimalTable
from packing.table.registry import find_table, forget_tables, register, table_holding
from packing.table.store import TableBuild, build_table_file, checkpoint_for, ensure_table

__all__ = [
    "SHIPPED_DIR",
    "TABLE_FORMAT",
    "BuildReport",
    "DamagedTableError",
    "OptimalTable",
    "Progress",
    "SolvedColumn",
    "TableBuild",
    "TableError",
    "build_table",
    "build_table_file",
    "checkpoint_for",
    "deck_key",
    "ensure_table",
    "find_table",
    "forget_tables",
    "rebuild_command",
    "register",
    "solve_column",
    "table_filename",
    "table_holding",
    "user_table_dir",
]
