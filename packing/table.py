"""The optimal penalty of every distinct roll on every truck of a deck, built once, then instant.

6^5 = 7,776 rolls collapse to 900 distinct cargos, so a 30-truck deck has 27,000 entries, each
solved (and validated) by :func:`packing.solve`. A table is saved as a small ``.npz`` file
keyed by the SHA-256 of the deck's canonical text (:func:`packing.dump_deck`), so a changed deck
never reuses a stale table.

Where tables are found (:func:`find_table`): tables registered in this process, the tables
shipped inside the package (``packing/data``; the sample deck's is regenerated with
``make table``), and the user's table folder (``$PACKING_TABLE_DIR``, else
``$XDG_CACHE_HOME/packing`` or ``~/.cache/packing``), where ``packing table build`` writes.
"""

from __future__ import annotations

import hashlib
import os
import signal
import tempfile
import time
import zipfile
import zlib
from collections.abc import Callable, Sequence
from concurrent.futures import (
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    as_completed,
)
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from packing.deck import dump_deck, parse_deck
from packing.errors import PackingError
from packing.model import Cargo, Truck
from packing.odds import roll_counts
from packing.rules import EMPTY_COST, LEFT_OVER_COST
from packing.solver import solve
from packing.verify import verify

#: Bumped whenever the file layout changes; older files are then rebuilt, never misread.
TABLE_FORMAT = 1
SHIPPED_DIR = Path(__file__).parent / "data"

Progress = Callable[[int, int], None]


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
    return hashlib.sha256(dump_deck(deck).encode("utf-8")).hexdigest()


def table_filename(deck: Sequence[Truck]) -> str:
    return f"table-{deck_key(deck)[:16]}.npz"


def user_table_dir() -> Path:
    """Where ``packing table build`` saves tables by default."""
    if os.environ.get("PACKING_TABLE_DIR"):
        return Path(os.environ["PACKING_TABLE_DIR"])
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(cache) / "packing"


def _cargo_matrix() -> npt.NDArray[np.uint8]:
    return np.array([c.counts for c in roll_counts()], dtype=np.uint8)


@dataclass(frozen=True, eq=False)
class OptimalTable:
    """Optimal loaded volume and penalty of each distinct roll (rows) on each truck (columns).

    >>> from packing import SAMPLE_DECK, Cargo
    >>> table = OptimalTable.for_deck(SAMPLE_DECK)  # the shipped table of the sample deck
    >>> table.penalty(Cargo.from_roll([3, 2, 3, 0, 1]), 0), table.shape
    (24, (900, 30))
    """

    deck: tuple[Truck, ...]
    loaded: npt.NDArray[np.uint8]  # (900 cargos, trucks): the optimal loaded volume
    penalties: npt.NDArray[np.int16] = field(init=False, repr=False)
    _rows: dict[Cargo, int] = field(init=False, repr=False)
    _rankings: list[list[tuple[Truck, int]] | None] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        cargos = tuple(roll_counts())
        if self.loaded.shape != (len(cargos), len(self.deck)):
            raise TableError(
                f"table shape {self.loaded.shape} does not fit {len(self.deck)} trucks"
            )
        volumes = np.array([c.volume for c in cargos], dtype=np.int16)[:, None]
        capacities = np.array([t.capacity for t in self.deck], dtype=np.int16)[None, :]
        loaded = self.loaded.astype(np.int16)
        penalties = EMPTY_COST * (capacities - loaded) + LEFT_OVER_COST * (volumes - loaded)
        penalties.setflags(write=False)
        self.loaded.setflags(write=False)
        object.__setattr__(self, "penalties", penalties)
        object.__setattr__(self, "_rows", {c: i for i, c in enumerate(cargos)})
        object.__setattr__(self, "_rankings", [None] * len(cargos))

    # Equal when built for the same deck with the same entries, in any process; a pickle
    # carries only those (the caches are rebuilt on arrival).
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, OptimalTable):
            return NotImplemented
        return self.deck == other.deck and bool(np.array_equal(self.loaded, other.loaded))

    def __hash__(self) -> int:
        return hash(self.deck)

    def __reduce__(
        self,
    ) -> tuple[type[OptimalTable], tuple[tuple[Truck, ...], npt.NDArray[np.uint8]]]:
        return (OptimalTable, (self.deck, np.array(self.loaded)))

    @property
    def cargos(self) -> tuple[Cargo, ...]:
        """The rows: every distinct cargo a roll gives, in :func:`packing.roll_counts` order."""
        return tuple(self._rows)

    @property
    def shape(self) -> tuple[int, int]:
        return (len(self._rows), len(self.deck))

    @property
    def key(self) -> str:
        return deck_key(self.deck)

    def row(self, cargo: Cargo) -> int | None:
        """The row of ``cargo``, or None when no roll gives it (the table cannot answer)."""
        return self._rows.get(cargo)

    def penalty(self, cargo: Cargo, truck: int) -> int:
        """The optimal penalty of ``cargo`` on the deck's truck number ``truck``."""
        row = self._rows.get(cargo)
        if row is None:
            raise TableError(f"cargo {str(cargo)!r} is not a roll of the dice: solve it instead")
        return int(self.penalties[row, truck])

    def rank(self, cargo: Cargo) -> list[tuple[Truck, int]] | None:
        """The deck ranked by optimal penalty for ``cargo`` (ties keep deck order), or None
        when ``cargo`` is not a roll."""
        row = self._rows.get(cargo)
        if row is None:
            return None
        ranking = self._rankings[row]
        if ranking is None:
            penalties = self.penalties[row]
            order = np.argsort(penalties, kind="stable")
            ranking = [(self.deck[j], int(penalties[j])) for j in order]
            self._rankings[row] = ranking
        return list(ranking)

    def blind_draw(self, cargo: Cargo) -> Fraction | None:
        """The exact expected penalty of a truck drawn uniformly from the whole deck."""
        row = self._rows.get(cargo)
        if row is None:
            return None
        return Fraction(int(self.penalties[row].sum()), len(self.deck))

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the table atomically (a crash never leaves a half-written file).

        Raises :class:`TableError` naming the file when it cannot be written.
        """
        return _save_npz(
            Path(path),
            format=np.array(TABLE_FORMAT),
            deck=np.array(dump_deck(self.deck)),
            cargos=_cargo_matrix(),
            loaded=np.asarray(self.loaded),
        )

    @classmethod
    def load(
        cls, path: str | os.PathLike[str], *, deck: Sequence[Truck] | None = None
    ) -> OptimalTable:
        """Read a table; refuse one made for another deck (when ``deck`` is given) or dice."""
        data = _load_npz(Path(path))
        if "done" in data:
            raise TableError(f"{os.fspath(path)!r} is an unfinished build: run the build again")
        table_deck = _deck_of(data, Path(path))
        if deck is not None and tuple(deck) != table_deck:
            raise TableError(f"table {os.fspath(path)!r} was built for another deck")
        if data["loaded"].shape != (len(data["cargos"]), len(table_deck)):
            raise DamagedTableError(path, "its entries do not match its deck")
        return cls(table_deck, data["loaded"].astype(np.uint8))

    @classmethod
    def for_deck(cls, deck: Sequence[Truck]) -> OptimalTable | None:
        """The table of exactly this deck if one is registered, shipped or built; else None."""
        return find_table(deck)


def _save_npz(path: Path, **arrays: npt.NDArray[np.generic]) -> Path:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    except OSError as error:
        raise TableError(
            f"cannot write table {os.fspath(path)!r}: {error.strerror or error}"
        ) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            np.savez_compressed(handle, **arrays)  # type: ignore[arg-type]
        os.chmod(tmp, 0o644)  # mkstemp makes it private; a table is ordinary data
        os.replace(tmp, path)
    except OSError as error:
        Path(tmp).unlink(missing_ok=True)
        raise TableError(
            f"cannot write table {os.fspath(path)!r}: {error.strerror or error}"
        ) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


_ZIP_MAGIC = b"PK\x03\x04"  # every .npz is a zip archive; anything else is not a table


def _load_npz(path: Path) -> dict[str, npt.NDArray[np.generic]]:
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
    if not np.array_equal(data["cargos"], _cargo_matrix()):
        raise DamagedTableError(path, "built for other dice")
    if data["loaded"].ndim != 2 or data["loaded"].dtype.kind not in "iu":
        raise DamagedTableError(path, "its entries are not a table of whole numbers")
    return data


def _deck_of(data: dict[str, npt.NDArray[np.generic]], path: Path) -> tuple[Truck, ...]:
    """The deck a table file was built for (its own copy of the deck text)."""
    if data["deck"].shape != () or data["deck"].dtype.kind != "U":
        raise DamagedTableError(path, "its deck is not text")
    try:
        return parse_deck(str(data["deck"]), source=os.fspath(path))
    except PackingError as error:
        raise DamagedTableError(path, f"its deck does not read: {error}") from None


# --- finding tables ---------------------------------------------------------------------------

_known: dict[tuple[Truck, ...], OptimalTable | None] = {}


def register(table: OptimalTable) -> None:
    """Make ``table`` answer queries for its deck in this process."""
    _known[table.deck] = table


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


# --- building ---------------------------------------------------------------------------------


class CheckpointError(DamagedTableError):
    """A checkpoint that cannot resume this build (damaged, or made for another deck).
    Nothing is lost by deleting it: the build then starts afresh."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        TableError.__init__(
            self,
            f"checkpoint {os.fspath(path)!r} cannot be resumed ({reason}): "
            "delete it and build again",
        )
        self.path = Path(path)
        self.reason = reason


def _read_checkpoint(
    path: Path, deck: tuple[Truck, ...]
) -> tuple[npt.NDArray[np.generic], npt.NDArray[np.generic], npt.NDArray[np.generic]]:
    """The (loaded, proven, done) arrays of a checkpoint of ``deck``'s build."""
    try:
        data = _load_npz(path)
    except DamagedTableError as error:
        raise CheckpointError(path, error.reason) from None
    if "done" not in data or "proven" not in data:
        raise CheckpointError(path, "a finished table, not a checkpoint")
    if data["deck"].shape != () or str(data["deck"]) != dump_deck(deck):
        raise CheckpointError(path, "made for another deck")
    shape = (len(data["cargos"]), len(deck))
    if any(data[name].shape != shape for name in ("loaded", "proven", "done")):
        raise CheckpointError(path, "its arrays do not match the deck")
    return data["loaded"], data["proven"].astype(bool), data["done"].astype(bool)


@dataclass(frozen=True)
class BuildReport:
    """What a build did: every entry must be proven optimal."""

    table: OptimalTable
    entries: int
    solved: int  # solved in this run (the rest came from a checkpoint)
    optimal: int
    wall_time: float

    @property
    def all_optimal(self) -> bool:
        return self.optimal == self.entries

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready summary (the table itself is saved, not printed)."""
        return {
            "deck_key": self.table.key,
            "entries": self.entries,
            "solved": self.solved,
            "optimal": self.optimal,
            "all_optimal": self.all_optimal,
            "wall_time": self.wall_time,
        }


def _solve_chunk(truck: Truck, cargos: Sequence[Cargo]) -> tuple[list[int], list[bool]]:
    """Worker task: solve and validate one truck for some cargos."""
    plans = [verify(solve(cargo, truck)) for cargo in cargos]
    return [p.loaded for p in plans], [p.optimal for p in plans]


def _quiet_worker() -> None:
    # Ctrl-C goes to the whole process group; only the parent should react (and checkpoint).
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def build_table(
    deck: Sequence[Truck],
    *,
    executor: Executor | None = None,
    workers: int = 1,
    checkpoint: str | os.PathLike[str] | None = None,
    progress: Progress | None = None,
    chunk_size: int = 900,
    save_every: float = 2.0,
) -> BuildReport:
    """Solve every distinct roll on every truck of ``deck``.

    Tasks (one truck × ``chunk_size`` cargos) go to ``executor`` — any
    :class:`concurrent.futures.Executor`, e.g. a process pool or a cluster's — or to a pool of
    ``workers`` processes created here (one worker runs in a thread, without process start-up).
    The default task is one truck's whole column (900 solves, 0.1–1.5 s of work): far above a
    cluster's per-task overhead. Tasks are all distinct (each its own truck and cargos) and
    deterministic, so the table is the same, bit for bit, whichever executor ran them, and a
    task a dying worker loses can simply run again.
    With ``checkpoint``, finished work is saved there every ``save_every`` seconds and on
    interruption (Ctrl-C), and a later build with the same checkpoint resumes from it; the
    checkpoint is removed when the build completes. A checkpoint that cannot be resumed
    (damaged, another deck's) raises :class:`CheckpointError` before any work starts.
    """
    deck = tuple(deck)
    if not deck:
        raise PackingError("cannot build a table for an empty deck")
    cargos = tuple(roll_counts())
    shape = (len(cargos), len(deck))
    loaded = np.zeros(shape, dtype=np.uint8)
    proven = np.zeros(shape, dtype=bool)
    done = np.zeros(shape, dtype=bool)
    ckpt = Path(checkpoint) if checkpoint is not None else None
    if ckpt is not None and ckpt.exists():
        loaded[:], proven[:], done[:] = _read_checkpoint(ckpt, deck)

    tasks = []
    for j in range(len(deck)):
        todo = [i for i in range(len(cargos)) if not done[i, j]]
        for start in range(0, len(todo), chunk_size):
            tasks.append((j, todo[start : start + chunk_size]))

    def save_checkpoint() -> None:
        if ckpt is not None:
            _save_npz(
                ckpt,
                format=np.array(TABLE_FORMAT),
                deck=np.array(dump_deck(deck)),
                cargos=_cargo_matrix(),
                loaded=loaded,
                proven=proven,
                done=done,
            )

    own = executor is None
    pool: Executor
    if executor is not None:
        pool = executor
    elif workers <= 1:
        pool = ThreadPoolExecutor(max_workers=1)
    else:
        pool = ProcessPoolExecutor(max_workers=workers, initializer=_quiet_worker)
    started = time.perf_counter()
    last_save = started
    solved = 0
    total = done.size
    finished = int(done.sum())
    if progress:
        progress(finished, total)
    try:
        futures: dict[Future[tuple[list[int], list[bool]]], tuple[int, list[int]]] = {
            pool.submit(_solve_chunk, deck[j], [cargos[i] for i in rows]): (j, rows)
            for j, rows in tasks
        }
        for future in as_completed(futures):
            j, rows = futures[future]
            values, flags = future.result()
            loaded[rows, j] = values
            proven[rows, j] = flags
            done[rows, j] = True
            solved += len(rows)
            finished += len(rows)
            if progress:
                progress(finished, total)
            if ckpt is not None and time.perf_counter() - last_save > save_every:
                save_checkpoint()
                last_save = time.perf_counter()
    except BaseException:
        save_checkpoint()
        if own:
            pool.shutdown(wait=False, cancel_futures=True)
        raise
    if own:
        pool.shutdown()
    table = OptimalTable(deck, loaded)
    if ckpt is not None:
        ckpt.unlink(missing_ok=True)
    return BuildReport(table, total, solved, int(proven.sum()), time.perf_counter() - started)


# --- a table file: built, resumed, found --------------------------------------------------------


def checkpoint_for(path: str | os.PathLike[str]) -> Path:
    """Where :func:`build_table_file` keeps the finished work of the table file ``path``."""
    return Path(path).with_suffix(".partial.npz")


@dataclass(frozen=True)
class TableBuild:
    """What :func:`build_table_file` did: the file it wrote, whether it resumed from a
    checkpoint, why it discarded one (``None`` when it did not), and the build's report."""

    path: Path
    report: BuildReport
    workers: int
    resumed: bool
    discarded: str | None = None

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
    note: Callable[[str], None] | None = None,
) -> TableBuild:
    """Build the table of ``deck`` into the file ``path``, save and :func:`register` it.

    Finished work is saved in :func:`checkpoint_for` ``(path)`` as it goes (and on Ctrl-C), and
    the next call resumes from it. A checkpoint that cannot resume this build (damaged, another
    deck's) is only saved work: it is deleted and the build starts afresh, after ``note(text)``
    says so.
    """
    target = Path(path)
    checkpoint = checkpoint_for(target)
    resumed, discarded = checkpoint.exists(), None
    options: dict[str, Any] = {"workers": workers, "executor": executor, "progress": progress}
    try:
        report = build_table(deck, checkpoint=checkpoint, **options)
    except CheckpointError as error:
        discarded, resumed = error.reason, False
        if note is not None:
            note(
                f"discarding checkpoint {os.fspath(checkpoint)!r} ({error.reason}); building afresh"
            )
        try:
            checkpoint.unlink(missing_ok=True)
        except OSError as failure:
            raise TableError(
                f"cannot delete checkpoint {os.fspath(checkpoint)!r}: {failure.strerror or failure}"
            ) from None
        report = build_table(deck, checkpoint=checkpoint, **options)
    report.table.save(target)
    register(report.table)
    return TableBuild(target, report, workers, resumed, discarded)


def ensure_table(
    deck: Sequence[Truck],
    *,
    folder: str | os.PathLike[str] | None = None,
    workers: int = 2,
    progress: Progress | None = None,
    note: Callable[[str], None] | None = None,
) -> OptimalTable:
    """The table of ``deck``: the one :func:`find_table` finds, else built once into ``folder``
    (default :func:`user_table_dir`) by :func:`build_table_file`, so that every later query of
    this deck, in this process or the next, finds it."""
    table = find_table(deck)
    if table is not None:
        return table
    where = Path(folder) if folder is not None else user_table_dir()
    path = where / table_filename(deck)
    return build_table_file(deck, path, workers=workers, progress=progress, note=note).report.table
