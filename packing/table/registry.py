"""Where tables are found: registered in this process, shipped inside the package
(``packing/data``), or in the user's table folder (:func:`~packing.table.user_table_dir`).

What a lookup finds is remembered, within bounds, so that a long-running process (the web
companion answers a trainer question or a grab with every request) stays the same size however
many decks and sets of trucks it is asked about:

- a registered table stays registered (:func:`register` is an explicit request);
- the :data:`FOUND_KEPT` decks looked up last are remembered (found in a folder, or found to
  have no table), the least recently used forgotten first;
- the :data:`PARTS_KEPT` sets of trucks asked about last keep their slice of a table
  (:func:`table_holding`), the least recently used forgotten first.

:func:`forget_tables` empties that memory.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from packing.model import Truck
from packing.table.files import SHIPPED_DIR, table_filename, user_table_dir
from packing.table.optimal import OptimalTable

FOUND_KEPT = 8
"""How many decks looked up (and not registered) are remembered: a table of 30 trucks read from
a file is about 0.5 MB; a deck found to have no table costs its key only. The sample deck's,
asked for by every query that slices it, is never the least recently used."""

PARTS_KEPT = 32
"""How many slices of a table (one per distinct set of trucks asked about, about 0.2 MB for a
pile of 26 trucks) are kept: a page asking again about the trucks on the table reads the slice
back; a trainer or practice game, whose pile differs at every grab, cuts a new one (about a
millisecond)."""

# Each dictionary is kept in order of use, the least recently used first (a hit is moved to the
# end): plain dictionaries, so a test may swap in an empty one, as a fresh process has.
_known: dict[tuple[Truck, ...], OptimalTable | None] = {}
_registered: set[tuple[Truck, ...]] = set()
_parts: dict[tuple[Truck, ...], OptimalTable | None] = {}
# The web companion looks tables up from several threads at once.
_lock = threading.Lock()


def _recall(
    memory: dict[tuple[Truck, ...], OptimalTable | None], key: tuple[Truck, ...]
) -> tuple[bool, OptimalTable | None]:
    """Whether ``key`` is remembered and what for, marking it the most recently used."""
    with _lock:
        if key not in memory:
            return False, None
        value = memory.pop(key)
        memory[key] = value
        return True, value


def _remember(
    memory: dict[tuple[Truck, ...], OptimalTable | None],
    key: tuple[Truck, ...],
    value: OptimalTable | None,
    kept: int,
    pinned: set[tuple[Truck, ...]] | None = None,
) -> None:
    """Remember ``key`` as the most recently used, forgetting the least recently used entries
    past ``kept`` of them, except the ``pinned`` ones."""
    with _lock:
        memory.pop(key, None)
        memory[key] = value
        forgettable = [k for k in memory if pinned is None or k not in pinned]
        for old in forgettable[: max(0, len(forgettable) - kept)]:
            del memory[old]


def register(table: OptimalTable) -> None:
    """Make ``table`` answer queries for its deck in this process (until
    :func:`forget_tables`)."""
    with _lock:
        _registered.add(table.deck)
        _known.pop(table.deck, None)
        _known[table.deck] = table
        _parts.clear()  # a part found missing before may be part of this table


def find_table(deck: Sequence[Truck]) -> OptimalTable | None:
    """The table of this exact deck (registered, shipped, or in the user's table folder)."""
    key = deck if isinstance(deck, tuple) else tuple(deck)
    remembered, table = _recall(_known, key)
    if remembered:
        return table
    found = None
    for folder in (SHIPPED_DIR, user_table_dir()):
        path = folder / table_filename(key)
        if path.exists():
            found = OptimalTable.load(path, deck=key)
            break
    _remember(_known, key, found, FOUND_KEPT, _registered)
    return found


def table_holding(trucks: Sequence[Truck]) -> OptimalTable | None:
    """A table of these trucks, cut from the table of a deck that holds every one of them (the
    sample deck's, or one found before): each truck's column is its own optimal loadings,
    whatever the other trucks. The trucks a query asks about are often part of a deck (the
    revealed trucks of a grab, the pile): their penalties are then read, not solved."""
    key = trucks if isinstance(trucks, tuple) else tuple(trucks)
    remembered, part = _recall(_parts, key)
    if remembered:
        return part
    from packing.deck import SAMPLE_DECK

    found = None
    if key and len(set(key)) == len(key):
        sample = find_table(SAMPLE_DECK)
        with _lock:
            known = [t for t in _known.values() if t is not None and t is not sample]
        for table in (sample, *known):
            if table is None:
                continue
            columns = {truck: j for j, truck in enumerate(table.deck)}
            if all(truck in columns for truck in key):
                found = OptimalTable(key, table.loaded[:, [columns[truck] for truck in key]])
                break
    _remember(_parts, key, found, PARTS_KEPT)
    return found


def forget_tables() -> None:
    """Forget every table registered or found in this process, so the next lookup reads the
    folders again (after tables were built or removed behind the process's back; tests)."""
    with _lock:
        _known.clear()
        _registered.clear()
        _parts.clear()
