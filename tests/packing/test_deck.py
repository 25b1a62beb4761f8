"""The sample deck honours every published fact; the deck file format round-trips."""

from collections import Counter
from pathlib import Path

import pytest

from packing import SAMPLE_DECK, DeckError, format_deck, load_deck, parse_deck, save_deck


def test_sample_deck_honours_the_published_facts() -> None:
    assert len(SAMPLE_DECK) == 30
    assert Counter(t.height for t in SAMPLE_DECK) == {1: 9, 2: 10, 3: 6, 4: 5}
    assert all((t.rows, t.columns) == (3, 5) for t in SAMPLE_DECK)
    assert len({str(t) for t in SAMPLE_DECK}) == 30  # all masks different
    assert len({t.name for t in SAMPLE_DECK}) == 30
    assert all(len(t.cells) < 15 for t in SAMPLE_DECK if t.height == 4)
    assert min(t.capacity for t in SAMPLE_DECK) == 9
    assert any(not t.fits(5) for t in SAMPLE_DECK)
    assert sum(len(t.cells) < 15 for t in SAMPLE_DECK) >= 5  # pre-filled cells
    # Capacities cover the loads 1..40: no load is more than 4 cubes from some capacity.
    capacities = sorted(t.capacity for t in SAMPLE_DECK)
    assert capacities[-1] >= 40
    assert all(min(abs(c - load) for c in capacities) <= 4 for load in range(9, 41))


def test_split_and_odd_areas_exist() -> None:
    def components(truck) -> int:  # type: ignore[no-untyped-def]
        cells, seen, count = set(truck.cells), set(), 0
        for start in cells:
            if start in seen:
                continue
            count += 1
            todo = [start]
            while todo:
                x, y = todo.pop()
                if (x, y) in seen or (x, y) not in cells:
                    continue
                seen.add((x, y))
                todo += [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
        return count

    assert any(components(t) > 1 for t in SAMPLE_DECK)


def test_deck_text_round_trip(tmp_path: Path) -> None:
    assert parse_deck(format_deck(SAMPLE_DECK)) == SAMPLE_DECK
    path = tmp_path / "deck.txt"
    save_deck(SAMPLE_DECK, path)
    assert load_deck(path) == SAMPLE_DECK


def test_comments_and_blank_lines() -> None:
    deck = parse_deck("; a comment\n\nA height 2\n##.\n.##\n\n\nB height 1\n#\n")
    assert [(t.name, str(t), t.height) for t in deck] == [("A", "##./.##", 2), ("B", "#", 1)]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("A height 2\n##x\n", "deck.txt:2"),
        ("A height two\n##\n", "deck.txt:1"),
        ("A height 0\n##\n", "deck.txt:1"),
        ("A\n##\n", "deck.txt:1"),
        ("A height 1\n##\n#\n", "deck.txt:3"),
        ("A height 1\n##\n\nB height 1\n", "deck.txt:4"),
        ("A height 1\n..\n", "deck.txt:1"),
        ("A height 1\n#\n\nA height 2\n#\n", "'A'"),
        ("; nothing\n", "no trucks"),
        ("A,B height 1\n#\n", "deck.txt:1: truck name 'A,B' holds a comma"),
    ],
)
def test_bad_deck_files_name_the_line(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "deck.txt"
    path.write_text(text)
    with pytest.raises(DeckError, match=where):
        load_deck(path)


def test_missing_deck_file(tmp_path: Path) -> None:
    with pytest.raises(DeckError, match="cannot read deck"):
        load_deck(tmp_path / "nope.txt")


def test_a_byte_order_mark_is_not_part_of_the_first_name(tmp_path: Path) -> None:
    assert parse_deck("\ufeffA height 1\n#\n")[0].name == "A"
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbfA height 1\n#\n")
    assert load_deck(path)[0].name == "A"


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"\x00" * 64, "binary file"),
        (bytes(range(128, 256)), "not UTF-8"),
        ("A height 1\n#\n".encode("utf-16"), "not UTF-8"),
        ("é height 1\n#\n".encode("latin-1"), "byte 0xe9 at offset 0"),
    ],
)
def test_binary_and_non_utf8_deck_files(tmp_path: Path, data: bytes, says: str) -> None:
    path = tmp_path / "deck.bin"
    path.write_bytes(data)
    with pytest.raises(DeckError, match=says) as raised:
        load_deck(path)
    assert repr(str(path)) in str(raised.value) and "\n" not in str(raised.value)
