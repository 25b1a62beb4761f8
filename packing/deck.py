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

from arena.files import checked_path, read_text, write_text
from packing.errors import DeckError, ParseError
from packing.model import LARGEST_HEIGHT, Truck

_HEADER = re.compile(r"^(\S+)\s+height\s+(\S+)$")
#: The largest deck file :func:`load_deck` reads, in bytes: far above any deck (the sample
#: deck's file takes about 900; 10,000 game-sized trucks about 300,000), and a bound on what a
#: device such as /dev/zero or a wrong file can make it read.
LARGEST_DECK_FILE = 16_000_000
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
    if not isinstance(text, str):
        raise TypeError(f"parse_deck takes the text of a deck file, not {type(text).__name__}")
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
    if "," in name:  # the command lines name trucks in comma-separated lists
        raise DeckError(
            f"{source}:{number}: truck name {name!r} holds a comma, which lists of trucks "
            "(--revealed, --pile) use between names: rename it"
        )
    # Only ASCII digits: str.isdigit() and int() also take other scripts' digits ('٣', '²').
    if not re.fullmatch(r"[0-9]+", height_text) or not 1 <= int(height_text) <= LARGEST_HEIGHT:
        raise DeckError(
            f"{source}:{number}: invalid height {height_text!r} "
            f"(a whole number from 1 to {LARGEST_HEIGHT:,})"
        )
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
    if isinstance(trucks, (str, bytes, Truck)) or not isinstance(trucks, Iterable):
        raise TypeError(
            f"format_deck takes a sequence of trucks, not {type(trucks).__name__} {trucks!r}"
        )
    blocks = []
    names: set[str] = set()
    for i, truck in enumerate(trucks, start=1):
        if not isinstance(truck, Truck):
            raise TypeError(f"a deck holds Trucks, not {type(truck).__name__} {truck!r}")
        name = truck.name or f"T{i:02d}"
        _check_name(name)
        if name in names:
            raise DeckError(f"cannot write the deck: truck name {name!r} is used twice")
        names.add(name)
        rows = str(truck).split("/")
        blocks.append("\n".join([f"{name} height {truck.height}", *rows]))
    if not blocks:
        raise DeckError("cannot write the deck: it holds no truck")
    return "\n\n".join(blocks) + "\n"


def _check_name(name: str) -> None:
    """A name :func:`parse_deck` reads back: one word, not starting a comment."""
    if name.startswith(COMMENT) or any(c.isspace() for c in name):
        raise DeckError(
            f"cannot write the deck: truck name {name!r} would not read back "
            f"(a name is one word, not starting with {COMMENT!r})"
        )


def load_deck(path: str | os.PathLike[str]) -> tuple[Truck, ...]:
    """Read a deck file (see the module docstring for the format).

    Raises :class:`DeckError`, naming the file, for a file that cannot be read, is not UTF-8
    text (a binary file, another encoding) or does not describe a deck.
    """
    text = read_text(
        path, what="deck", limit=LARGEST_DECK_FILE, error=DeckError, caller="load_deck"
    )
    return parse_deck(text, source=os.fspath(path))


def save_deck(trucks: Iterable[Truck], path: str | os.PathLike[str]) -> None:
    """Write ``trucks`` to a deck file that :func:`load_deck` reads back equal.

    Refuses, with a :class:`DeckError`, what the file could not hold (no truck, a name used
    twice, a name of more than one word) and a file it cannot write, quoting the path; the
    file is replaced whole or not at all.
    """
    checked_path(path, "save_deck", DeckError, "deck")
    write_text(path, format_deck(trucks), what="deck", error=DeckError, caller="save_deck")
