"""The rules pages in docs/rules state the same data the code uses, and the project is self-contained.

The pages are written for people, so the tables are read loosely (one row per line, cells split
on ``|``); what must agree is the data: dice faces, the sample deck, the Express deck and the
cabooses.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from express import CABOOSES, DECK, Card
from packing import DICE, SAMPLE_DECK

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"


def table_rows(path: Path, heading: str) -> list[list[str]]:
    """The body rows of the first table after the line ``heading``, as stripped cells."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = lines.index(heading)
    rows: list[list[str]] = []
    for line in lines[start + 1 :]:
        if line.startswith("|"):
            # A cell may hold an escaped bar (``B2\|B2``): split only on unescaped ones.
            cells = [
                cell.strip().replace("\\|", "|")
                for cell in re.split(r"(?<!\\)\|", line.strip())[1:-1]
            ]
            if not all(set(cell) <= {"-", ":"} for cell in cells):  # skip the |---| line
                rows.append(cells)
        elif rows:
            break
    return rows[1:]  # without the header row


def test_dice_faces_match_the_code() -> None:
    rows = table_rows(RULES / "pack-and-stack.md", "### The dice (`packing.rules.DICE`)")
    faces = {int(row[0]): tuple(int(face) for face in row[2].split(",")) for row in rows}
    assert faces == DICE


def test_sample_deck_table_matches_the_code() -> None:
    rows = table_rows(
        RULES / "pack-and-stack.md",
        "The sample deck (mask rows top to bottom, separated by `/`; `#` loadable, `.` not):",
    )
    stated = [
        (name, int(height), mask.strip("`"), int(capacity)) for name, height, mask, capacity in rows
    ]
    assert stated == [(t.name, t.height, str(t), t.capacity) for t in SAMPLE_DECK]


def test_express_deck_table_matches_the_code() -> None:
    rows = table_rows(
        RULES / "yardmaster-express.md", "### The deck (`express.DECK`, `express.DECK_ENTRIES`)"
    )
    stated: Counter[Card] = Counter()
    for cards, copies, _provenance in rows:
        count = sum(int(n) for n in copies.split("+"))
        for text in cards.split(","):
            stated[Card.parse(text)] += count
    assert stated == Counter(DECK)
    assert sum(stated.values()) == 32


def test_caboose_table_matches_the_code() -> None:
    rows = table_rows(RULES / "yardmaster-express.md", "## Cabooses (`express.CABOOSES`)")
    stated = [(name, int(points), kind) for name, points, _condition, kind in rows]
    assert stated == [
        (c.name, c.points, "relative" if c.is_relative else "absolute") for c in CABOOSES
    ]


def test_nothing_points_outside_the_repository() -> None:
    """The rules live in docs/rules: no file may send a reader to a folder beside the clone."""
    outside = re.compile(r"\.\./shared|shared/(rules|seeds)")
    offenders = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        hidden = parts[0].startswith(".") and parts[0] != ".ci"  # .git, .venv, caches
        generated = parts[0] == "build" or any(part.endswith(".egg-info") for part in parts)
        if hidden or generated or not path.is_file():
            continue
        if path.suffix not in {".py", ".md", ".toml", ".txt", ".cfg", ""}:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        offenders += [
            f"{path.relative_to(ROOT)}:{n}"
            for n, line in enumerate(text.splitlines(), 1)
            if outside.search(line)
        ]
    assert offenders == []
