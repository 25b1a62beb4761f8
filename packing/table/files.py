"""The table file format: an ``.npz`` of plain arrays keyed by the deck's text, its errors,
where tables live, and the checkpoint of an unfinished build.

A table is saved as a small ``.npz`` file keyed by the SHA-256 of the deck's canonical text
(:func:`packing.format_deck`), so a changed deck never reuses a stale table. Files are read
without unpickling and checked for format and dice, so a damaged or foreign file is refused
with the command that rebuilds it.
"""

from __future__ import annotations

import hashlib
import os
import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import platformdirs

from arena.checkpoint import CheckpointError, CheckpointMismatch
from arena.extras import DISTRIBUTION
from arena.files import atomic_writer
from packing.deck import format_deck, parse_deck
from packing.errors import PackingError
from packing.model import Truck
from packing.odds import roll_counts

#: Bumped whenever the file layout changes; older files are then rebuilt, never misread.
TABLE_FORMAT = 1
SHIPPED_DIR = Path(__file__).parent.parent / "data"


class TableError(PackingError):
    """A table file that is missing, damaged, or made for another deck or other dice."""


class DamagedTableError(TableError):
    """A table or checkpoint file that cannot be used: damaged (truncated, empty, random
    bytes), not a table file, made by another format version or for other dice. ``path``
    names the file and ``reason`` says what is wrong with it; rebuilding replaces it."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        self.path = Path(path)
        self.reason = reason
        super().__init__(
            f"table file {os.fspath(path)!r} is damaged ({reason}): rebuild it with "
            f"`{rebuild_command(self.path)}`"
        )


def rebuild_command(path: Path) -> str:
    """The shell command that rebuilds the sample deck's table at ``path`` (for another deck,
    add ``--deck FILE``)."""
    if path.parent == SHIPPED_DIR:
        return "make table"
    if path.parent == user_table_dir():
        return "packing table build"
    return f"packing table build --out {os.fspath(path.parent)!r}"


def deck_key(deck: Sequence[Truck]) -> str:
    """SHA-256 of the deck's canonical text: names, heights and masks, in order."""
    return hashlib.sha256(format_deck(deck).encode("utf-8")).hexdigest()


def table_filename(deck: Sequence[Truck]) -> str:
    return f"table-{deck_key(deck)[:16]}.npz"


def user_table_dir() -> Path:
    """Where ``packing table build`` saves tables by default: ``$PACKING_TABLE_DIR``, else the
    platform's user cache folder for the distribution (``platformdirs.user_cache_dir``:
    ``~/.cache/tabletop-solvers`` on Linux, ``~/Library/Caches/tabletop-solvers`` on macOS,
    ``%LOCALAPPDATA%\\tabletop-solvers\\Cache`` on Windows)."""
    if os.environ.get("PACKING_TABLE_DIR"):
        return Path(os.environ["PACKING_TABLE_DIR"])
    return Path(platformdirs.user_cache_dir(DISTRIBUTION, appauthor=False))


def cargo_matrix() -> npt.NDArray[np.uint8]:
    return np.array([c.counts for c in roll_counts()], dtype=np.uint8)


def save_npz(path: Path, **arrays: npt.NDArray[np.generic]) -> Path:
    with atomic_writer(
        path, what="table", error=TableError, caller="save_npz", make_folders=True
    ) as handle:
        np.savez_compressed(handle, **arrays)  # type: ignore[arg-type]
    return path


_ZIP_MAGIC = b"PK\x03\x04"  # every .npz is a zip archive; anything else is not a table


def load_npz(path: Path) -> dict[str, npt.NDArray[np.generic]]:
    """The arrays of a table or checkpoint file, checked for format and dice.

    Never unpickles (``allow_pickle=False``): a table is plain arrays, and a damaged or
    foreign file must not run code. Raises :class:`DamagedTableError` for a file that is not
    a usable table and :class:`TableError` for one that cannot be read at all.
    """
    try:
        with path.open("rb") as handle:
            head = handle.read(len(_ZIP_MAGIC))
            if head == _ZIP_MAGIC:
                handle.seek(0)
                with np.load(handle, allow_pickle=False) as npz:
                    data = {name: npz[name] for name in npz.files}
    except OSError as error:
        raise TableError(
            f"cannot read table {os.fspath(path)!r}: {error.strerror or error}"
        ) from None
    except (zipfile.BadZipFile, EOFError):
        raise DamagedTableError(path, "truncated or not a zip archive") from None
    except zlib.error:
        raise DamagedTableError(path, "corrupt compressed data") from None
    except (ValueError, KeyError):  # an object array (pickled data), a bad header, …
        raise DamagedTableError(path, "its arrays cannot be read without unpickling") from None
    if head != _ZIP_MAGIC:
        raise DamagedTableError(path, "empty file" if not head else "not a table file")
    missing = {"format", "deck", "cargos", "loaded"} - data.keys()
    if missing:
        raise DamagedTableError(path, f"it lacks {', '.join(sorted(missing))}")
    if data["format"].shape != () or data["format"].dtype.kind not in "iu":
        raise DamagedTableError(path, "its format number is not a number")
    if int(data["format"]) != TABLE_FORMAT:
        raise DamagedTableError(path, f"format {int(data['format'])}, not {TABLE_FORMAT}")
    if not np.array_equal(data["cargos"], cargo_matrix()):
        raise DamagedTableError(path, "built for other dice")
    if data["loaded"].ndim != 2 or data["loaded"].dtype.kind not in "iu":
        raise DamagedTableError(path, "its entries are not a table of whole numbers")
    return data


def deck_of(data: dict[str, npt.NDArray[np.generic]], path: Path) -> tuple[Truck, ...]:
    """The deck a table file was built for (its own copy of the deck text)."""
    if data["deck"].shape != () or data["deck"].dtype.kind != "U":
        raise DamagedTableError(path, "its deck is not text")
    try:
        return parse_deck(str(data["deck"]), source=os.fspath(path))
    except PackingError as error:
        raise DamagedTableError(path, f"its deck does not read: {error}") from None


_DELETE = "delete it to build afresh"


def read_checkpoint(
    path: Path, deck: tuple[Truck, ...]
) -> tuple[npt.NDArray[np.generic], npt.NDArray[np.generic], npt.NDArray[np.generic]]:
    """The (loaded, proven, done) arrays of a checkpoint of ``deck``'s build. One that cannot
    resume it is refused, as a tournament's is (:mod:`arena.checkpoint`): damaged
    (:class:`~arena.checkpoint.CheckpointError`) or another deck's
    (:class:`~arena.checkpoint.CheckpointMismatch`), the message saying to delete it — nothing
    is lost then but the work it held."""
    where = f"checkpoint {os.fspath(path)!r}"
    try:
        data = load_npz(path)
    except DamagedTableError as error:
        raise CheckpointError(f"{where} is damaged ({error.reason}): {_DELETE}") from None
    if "done" not in data or "proven" not in data:
        raise CheckpointError(f"{where} is a finished table, not a checkpoint: {_DELETE}")
    if data["deck"].shape != () or str(data["deck"]) != format_deck(deck):
        raise CheckpointMismatch(f"{where} was made for another deck: {_DELETE}")
    shape = (len(data["cargos"]), len(deck))
    if any(data[name].shape != shape for name in ("loaded", "proven", "done")):
        raise CheckpointError(f"{where} is damaged (its arrays do not match the deck): {_DELETE}")
    return data["loaded"], data["proven"].astype(bool), data["done"].astype(bool)
