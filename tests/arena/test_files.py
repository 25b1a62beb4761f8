"""One bounded reader and one atomic writer for every file both games read and write."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from arena.files import atomic_writer, read_text, write_text


class GameError(Exception):
    """Stands for a game's root error: every message comes back as this class."""


def read(path: object, limit: int = 100) -> str:
    return read_text(path, what="deck", limit=limit, error=GameError, caller="load_deck")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"\x00\x01\x02 text", "is a binary file, not a text deck file"),
        (
            codecs.BOM_UTF16_LE + "deck".encode("utf-16-le"),
            "is not UTF-8 text (byte 0xff at offset 0)",
        ),
        (b"caf\xe9", "is not UTF-8 text (byte 0xe9 at offset 3)"),
        (b"x" * 101, "is larger than 100 bytes: not a deck file"),
    ],
)
def test_what_is_not_a_small_utf8_text_is_refused_quoting_the_file(
    tmp_path: Path, data: bytes, says: str
) -> None:
    path = tmp_path / "deck.txt"
    path.write_bytes(data)
    with pytest.raises(GameError) as refused:
        read(path)
    assert str(refused.value) == f"deck {str(path)!r} {says}" + (
        ": save it as UTF-8" if "UTF-8" in says else ""
    )


def test_text_reads_back_without_its_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "deck.txt"
    path.write_bytes(codecs.BOM_UTF8 + "héllo\n".encode())
    assert read(path) == read(str(path)) == "héllo\n"


def test_paths_of_every_kind_and_what_is_not_a_path(tmp_path: Path) -> None:
    with pytest.raises(GameError, match="deck '' is an empty path"):
        read("")
    with pytest.raises(TypeError, match=r"^load_deck: path must be a file path .* not int 3$"):
        read(3)
    with pytest.raises(GameError, match="cannot read deck .*missing.txt'. No such file"):
        read(tmp_path / "missing.txt")


def test_a_write_replaces_the_file_whole_or_not_at_all(tmp_path: Path) -> None:
    path = tmp_path / "deck.txt"
    write_text(path, "first\n", what="deck", error=GameError)
    with pytest.raises(KeyboardInterrupt):
        with atomic_writer(path, what="deck", error=GameError) as handle:
            handle.write(b"half of the sec")
            raise KeyboardInterrupt
    assert path.read_text() == "first\n"
    assert [p.name for p in tmp_path.iterdir()] == ["deck.txt"]  # no temporary file is left
    write_text(path, "second\n", what="deck", error=GameError)
    assert path.read_text() == "second\n" and len(list(tmp_path.iterdir())) == 1


def test_folders_are_made_only_when_asked(tmp_path: Path) -> None:
    inside = tmp_path / "new" / "deck.txt"
    with pytest.raises(GameError, match=f"cannot write deck {str(inside)!r}: No such file"):
        write_text(inside, "x", what="deck", error=GameError)
    write_text(inside, "x", what="deck", error=GameError, make_folders=True)
    assert inside.read_text() == "x"
