"""Where tables are found: registered in this process, shipped inside the package
(``packing/data``), or in the user's table folder (:func:`~packing.table.user_table_dir`).
Each deck is looked up once per process; :func:`forget_tables` empties that memory."""

from __future__ import annotations

from collections.abc import Sequence

from packing.model import Truck
from packing.table.files import SHIPPED_DIR, table_filename, user_table_dir
from packing.table.optimal import OptimalTable

_known: dict[tuple[Truck, ...], OptimalTable | None] = {}
_parts: dict[tuple[Truck, ...], OptimalTable | None] = {}


def register(table: OptimalTable) -> None:
    """Make ``table`` answer queries for its deck in this process."""
    _known[table.deck] = table
    _parts.clear()  # a part found missing before may be part of this table


def find_table(deck: Sequence[Truck]) -> OptimalTable | None:
    """The table of this exact deck (registered, shipped, or in the user's table folder)."""
    key = deck if isinstance(deck, tuple) else tuple(deck)
    try:
        return _known[key]
    except KeyError:
        pass
    found = None
    for folder in (SHIPPED_DIR, user_table_dir()):
        path = folder / table_filename(key)
        if path.exists():
            found = OptimalTable.load(path, deck=key)
            break
    _known[key] = found
    return found


def table_holding(trucks: Sequence[Truck]) -> OptimalTable | None:
    """A table of these trucks, cut from the table of a deck that holds every one of them (the
    sample deck's, or one found before): each truck's column is its own optimal loadings,
    whatever the other trucks. The trucks a query asks about are often part of a deck (the
    revealed trucks of a grab, the pile): their penalties are then read, not solved."""
    key = trucks if isinstance(trucks, tuple) else tuple(trucks)
    try:
        return _parts[key]
    except KeyError:
        pass
    from packing.deck import SAMPLE_DECK

    found = None
    if key and len(set(key)) == len(key):
        sample = find_table(SAMPLE_DECK)
        known = [t for t in _known.values() if t is not None and t is not sample]
        for table in (sample, *known):
            if table is None:
                continue
            columns = {truck: j for j, truck in enumerate(table.deck)}
            if all(truck in columns for truck in key):
                found = OptimalTable(key, table.loaded[:, [columns[truck] for truck in key]])
                break
    _parts[key] = found
    return found


def forget_tables() -> None:
    """Forget every table registered or found in this process, so the next lookup reads the
    folders again (after tables were built or removed behind the process's back; tests)."""
    _known.clear()
    _parts.clear()
