"""Decks of trucks: the sample deck and a plain-text deck format.

The deck file format, one truck per block (blocks separated by blank lines; ``;`` starts a
comment line)::

    ; my transcription of the printed cards
    T01 height 1
    ###..
    ###..
    ###..

The first line of a block is the truck's name (no spaces) and ``height N``; the following
lines are the mask rows, ``#`` usable and ``.`` not. ``format_deck`` writes this format and
``load_deck`` reads it back. Files are UTF-8 text; a byte-order mark at the start is allowed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from arena.deprecation import aliases
from packing.errors import DeckError, ParseError
from packing.model import Truck

_HEADER = re.compile(r"^(\S+)\s+height\s+(\S+)$")
_BOM = "\ufeff"
#: Starts a comment line in a deck file (the Express card format uses the same character).
COMMENT = ";"

# (name, height, mask). Designed by this project — NOT the printed cards, whose masks are not
# in any public text (see docs/rules/pack-and-stack.md). It honours every published fact:
# heights 9×1, 10×2, 6×3, 5×4; masks inside 3×5 and all different; pre-filled cells, odd and
# split areas; no height-4 truck uses all 15 cells; the smallest holds 9 cubes; some trucks
# have no straight run of 5; capacities spread over the whole range of loads (1..40).
_SAMPLE = (
    ("S01", 1, "###../###../###.."),
    ("S02", 1, "####./###../###.."),
    ("S03", 1, "#####/###../###.."),
    ("S04", 1, "####./####./####."),
    ("S05", 1, "##.##/##.##/##.##"),
    ("S06", 1, "#####/####./####."),
    ("S07", 1, "#####/#####/.###."),
    ("S08", 1, "#####/##.##/#####"),
    ("S09", 1, "#####/#####/#####"),
    ("S10", 2, "##.../###../#...."),
    ("S11", 2, "###../.###./..#.."),
    ("S12", 2, "#####/###../....."),
    ("S13", 2, ".###./.###./.###."),
    ("S14", 2, "#####/...../#####"),
    ("S15", 2, "#####/##.##/##..."),
    ("S16", 2, "#####/#...#/#####"),
    ("S17", 2, "#####/#####/###.."),
    ("S18", 2, "#####/#####/####."),
    ("S19", 2, "#####/#####/#.###"),
    ("S20", 3, "#..../##.../##..."),
    ("S21", 3, "###../##.../##..."),
    ("S22", 3, "##.##/##.##/....."),
    ("S23", 3, "#####/#####/....."),
    ("S24", 3, "#####/#...#/####."),
    ("S25", 3, "#####/#.#.#/#####"),
    ("S26", 4, "##.../##.../....."),
    ("S27", 4, "###../###../....."),
    ("S28", 4, "#####/..#../..##."),
    ("S29", 4, "#####/#...#/#...#"),
    ("S30", 4, "#####/#...#/#.#.#"),
)

#: A sample deck of 30 trucks. **Not the printed cards** (their masks are not public): a deck
#: designed to honour every published fact about them. Transcribe the real cards into a deck
#: file and pass ``load_deck(path)`` wherever a deck is accepted.
SAMPLE_DECK: tuple[Truck, ...] = tuple(
    Truck.parse(mask, height=height, name=name) for name, height, mask in _SAMPLE
)


def parse_deck(text: str, *, source: str = "<deck>") -> tuple[Truck, ...]:
    """Read trucks from deck-file text; errors name ``source`` and the line.

    >>> [str(t) for t in parse_deck("A height 2\\n##.\\n.##\\n")]
    ['##./.##']
    """
    trucks: list[Truck] = []
    block: list[tuple[int, str]] = []
    text = text.removeprefix(_BOM)  # editors on Windows start UTF-8 files with one

    def close() -> None:
        if block:
            trucks.append(_parse_block(block, source))
            block.clear()

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith(COMMENT):
            continue
        if not line:
            close()
        else:
            block.append((number, line))
    close()
    if not trucks:
        raise DeckError(f"{source}: no trucks in the deck")
    names = [t.name for t in trucks]
    for name in names:
        if names.count(name) > 1:
            raise DeckError(f"{source}: truck name {name!r} is used twice")
    return tuple(trucks)


def _parse_block(block: Sequence[tuple[int, str]], source: str) -> Truck:
    number, header = block[0]
    match = _HEADER.match(header)
    if not match:
        raise DeckError(f"{source}:{number}: expected 'NAME height N', got {header!r}")
    name, height_text = match.groups()
    if not height_text.isdigit() or int(height_text) < 1:
        raise DeckError(f"{source}:{number}: invalid height {height_text!r} (an integer ≥ 1)")
    rows = block[1:]
    if not rows:
        raise DeckError(f"{source}:{number}: truck {name!r} has no mask rows")
    for row_number, row in rows:
        if set(row) - {"#", "."}:
            raise DeckError(f"{source}:{row_number}: invalid mask row {row!r} (use '#' and '.')")
        if len(row) != len(rows[0][1]):
            raise DeckError(f"{source}:{row_number}: mask row {row!r} differs in length")
    try:
        return Truck.parse("/".join(r for _, r in rows), height=int(height_text), name=name)
    except ParseError as error:
        raise DeckError(f"{source}:{number}: {error}") from None


def format_deck(trucks: Iterable[Truck]) -> str:
    """The deck-file text of ``trucks`` (unnamed trucks are named T01, T02, …).

    ``parse_deck`` reads it back equal (for trucks named without spaces, as every truck read
    from a deck file is):

    >>> parse_deck(format_deck(SAMPLE_DECK)) == SAMPLE_DECK
    True
    """
    blocks = []
    for i, truck in enumerate(trucks, start=1):
        name = truck.name or f"T{i:02d}"
        rows = str(truck).split("/")
        blocks.append("\n".join([f"{name} height {truck.height}", *rows]))
    return "\n\n".join(blocks) + "\n"


def load_deck(path: str | os.PathLike[str]) -> tuple[Truck, ...]:
    """Read a deck file (see the module docstring for the format).

    Raises :class:`DeckError`, naming the file, for a file that cannot be read, is not UTF-8
    text (a binary file, another encoding) or does not describe a deck.
    """
    source = os.fspath(path)
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise DeckError(f"cannot read deck {source!r}: {error.strerror or error}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise DeckError(
            f"deck {source!r} is not UTF-8 text (byte {data[error.start]:#04x} at offset "
            f"{error.start}): save it as UTF-8"
        ) from None
    if "\0" in text:  # valid UTF-8, but no text file holds NUL bytes
        raise DeckError(f"deck {source!r} is a binary file, not a text deck file")
    return parse_deck(text, source=source)


def save_deck(trucks: Iterable[Truck], path: str | os.PathLike[str]) -> None:
    """Write ``trucks`` to a deck file."""
    Path(path).write_text(format_deck(trucks), encoding="utf-8")


__getattr__ = aliases(__name__, {"dump_deck": "format_deck"})
