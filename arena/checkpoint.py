"""Checkpoints of long runs: finished work saved as it is done, so a rerun continues.

A checkpoint file belongs to one run: its header holds the run's *kind* (``"tournament"``,
``"deck search"``) and a *fingerprint* of the arguments that decide its results (see
:func:`fingerprint`). Opening it for a run with other arguments raises
:class:`CheckpointMismatch` in one line, so work is never mixed between runs.

The file is written so that it is never half-written: opening a checkpoint rewrites what it
holds into a temporary file that replaces the old one (``os.replace``), and each later batch of
finished work is appended as one record, written in one call. A record torn by a crash (power
loss, ``kill -9``) is dropped on the next opening; the work it held is simply done again.

The records are pickles, as the finished work is any picklable value: open only checkpoints
your own runs wrote (as with any pickle).

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "run.ckpt")
>>> with Checkpoint(path, kind="demo", fingerprint=fingerprint("demo", 1)) as saved:
...     saved.add(0, "first deal")
>>> Checkpoint(path, kind="demo", fingerprint=fingerprint("demo", 1)).entries
{0: 'first deal'}
>>> Checkpoint(path, kind="demo", fingerprint=fingerprint("demo", 2))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
arena.checkpoint.CheckpointMismatch: checkpoint '...run.ckpt' was made by a demo with other arguments: ...
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import time
from collections.abc import Callable, Hashable
from pathlib import Path
from types import TracebackType
from typing import Any, BinaryIO

from arena.errors import ArenaError
from arena.files import atomic_writer

__all__ = ["Checkpoint", "CheckpointError", "CheckpointMismatch", "SAVE_EVERY", "fingerprint"]

_MAGIC = b"tabletop-solvers checkpoint 1\n"

SAVE_EVERY = 1.0
"""Seconds between two appends of finished work (it is also saved on closing, on Ctrl-C)."""


class CheckpointError(ArenaError):
    """A checkpoint that cannot be used: not a checkpoint, unreadable or unwritable."""


class CheckpointMismatch(CheckpointError):
    """A checkpoint made by a run with other arguments (or another kind of run)."""


def fingerprint(*parts: object) -> str:
    """The SHA-256 of the pickled ``parts``: equal for equal arguments in every process (the
    parts must pickle to the same bytes wherever they are pickled: plain values, tuples, frozen
    dataclasses, module-level functions and classes, ``functools.partial`` of them).

    >>> fingerprint("a", 1) == fingerprint("a", 1) != fingerprint("a", 2)
    True
    """
    return hashlib.sha256(pickle.dumps(parts, protocol=4)).hexdigest()


#: What unpickling damaged bytes raises (the pickle module documents "other exceptions" too:
#: a cut or garbled stream fails in the opcode reader, a lookup, or a constructor).
_DAMAGED = (
    pickle.UnpicklingError,
    EOFError,
    AttributeError,
    ImportError,
    IndexError,
    KeyError,
    TypeError,
    ValueError,
)


def _records(handle: BinaryIO, path: Path) -> tuple[dict[str, Any], dict[Hashable, Any]]:
    """The header and the entries of a checkpoint file (a torn last record is dropped)."""
    if handle.read(len(_MAGIC)) != _MAGIC:
        raise CheckpointError(f"{os.fspath(path)!r} is not a checkpoint file")
    try:
        header = pickle.load(handle)
    except _DAMAGED:
        raise CheckpointError(f"checkpoint {os.fspath(path)!r} is damaged") from None
    if not isinstance(header, dict) or "kind" not in header or "fingerprint" not in header:
        raise CheckpointError(f"checkpoint {os.fspath(path)!r} is damaged")
    entries: dict[Hashable, Any] = {}
    while True:
        try:
            batch = pickle.load(handle)
        except _DAMAGED:  # the end, or a record torn by a crash: its work is done again
            break
        if not isinstance(batch, list):
            break
        entries.update(batch)
    return header, entries


class Checkpoint:
    """The checkpoint file ``path`` of a run of ``kind`` with arguments ``fingerprint``: the
    work it already holds (:attr:`entries`, by key), and :meth:`add` to save more.

    A missing file is created; one of another run raises :class:`CheckpointMismatch`; one that
    is not a checkpoint, or a path that cannot be written, raises :class:`CheckpointError`.
    Added work is appended at most every :data:`SAVE_EVERY` seconds and on :meth:`close`.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        kind: str,
        fingerprint: str,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = Path(path)
        self.kind = kind
        self.fingerprint = fingerprint
        self.entries: dict[Hashable, Any] = {}
        self._pending: list[tuple[Hashable, Any]] = []
        self._clock = clock
        self._last = clock()
        where = os.fspath(self.path)
        if self.path.is_dir():
            raise CheckpointError(f"cannot use checkpoint {where!r}: it is a folder")
        if self.path.exists():
            try:
                with self.path.open("rb") as handle:
                    header, self.entries = _records(handle, self.path)
            except OSError as error:
                raise CheckpointError(
                    f"cannot read checkpoint {where!r}: {error.strerror or error}"
                ) from None
            if header["kind"] != kind:
                raise CheckpointMismatch(
                    f"checkpoint {where!r} is a {header['kind']}'s, not a {kind}'s: "
                    "choose another file"
                )
            if header["fingerprint"] != fingerprint:
                raise CheckpointMismatch(
                    f"checkpoint {where!r} was made by a {kind} with other arguments: "
                    "run it with those, or choose another file"
                )
        self._rewrite()
        try:
            self._handle: BinaryIO | None = self.path.open("ab")
        except OSError as error:
            raise CheckpointError(
                f"cannot write checkpoint {where!r}: {error.strerror or error}"
            ) from None

    def _rewrite(self) -> None:
        """Everything held so far, in a fresh file that replaces the old one at once."""
        data = io.BytesIO()
        data.write(_MAGIC)
        pickle.dump({"kind": self.kind, "fingerprint": self.fingerprint}, data, protocol=4)
        if self.entries:
            pickle.dump(list(self.entries.items()), data, protocol=4)
        with atomic_writer(
            self.path,
            what="checkpoint",
            error=CheckpointError,
            caller="Checkpoint",
            make_folders=True,
            mode=0o600,
        ) as handle:
            handle.write(data.getvalue())

    def __enter__(self) -> Checkpoint:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def add(self, key: Hashable, value: Any) -> None:
        """Finished work ``value`` under ``key`` (a later value under the same key wins)."""
        self.entries[key] = value
        self._pending.append((key, value))
        if self._clock() - self._last >= SAVE_EVERY:
            self.flush()

    def flush(self) -> None:
        """Append the work added since the last save, as one record."""
        if not self._pending or self._handle is None:
            return
        record = pickle.dumps(self._pending, protocol=4)
        try:
            self._handle.write(record)
            self._handle.flush()
        except OSError as error:
            raise CheckpointError(
                f"cannot write checkpoint {os.fspath(self.path)!r}: {error.strerror or error}"
            ) from None
        self._pending = []
        self._last = self._clock()

    def close(self) -> None:
        """Save what is pending and close the file."""
        if self._handle is None:
            return
        try:
            self.flush()
        finally:
            self._handle.close()
            self._handle = None
