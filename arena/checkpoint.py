"""Checkpoints of long runs: finished work saved as it is done, so a rerun continues.

A checkpoint file belongs to one run: its header holds the run's *kind* (``"tournament"``,
``"deck search"``) and a *fingerprint* of the arguments that decide its results (see
:func:`fingerprint`). Opening it for a run with other arguments raises
:class:`CheckpointMismatch` in one line, so work is never mixed between runs.

The file is written so that it is never half-written: opening a checkpoint rewrites what it
holds into a temporary file that replaces the old one (``os.replace``), and each later batch of
finished work is appended as one record, written in one call. A record torn by a crash (power
loss, ``kill -9``) is dropped on the next opening; the work it held is simply done again.

Every record carries its length and a BLAKE2b digest of its bytes, checked before anything is
read from it: a file damaged anywhere else (a changed byte on a disk or in a copy) is refused as
damaged, in one line, and never turned into a result. The records are pickles, as the finished
work is any picklable value: open only checkpoints your own runs wrote (as with any pickle).

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

Given the arguments by name, a refusal names the first one that differs:

>>> Checkpoint(path, kind="demo", fingerprint={"seed": 1})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
arena.checkpoint.CheckpointMismatch: checkpoint '...run.ckpt' was made by a demo with other arguments: ...
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import stat
import struct
import time
import types
from collections.abc import Callable, Hashable, Iterator, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, BinaryIO

from arena.errors import ArenaError
from arena.files import atomic_writer

__all__ = ["Checkpoint", "CheckpointError", "CheckpointMismatch", "SAVE_EVERY", "fingerprint"]

_MAGIC = b"tabletop-solvers checkpoint 2\n"
_ANY_VERSION = b"tabletop-solvers checkpoint "
#: Each record's frame: its length and the BLAKE2b digest of its bytes.
_FRAME = struct.Struct(">Q32s")

SAVE_EVERY = 1.0
"""Seconds between two appends of finished work (it is also saved on closing, on Ctrl-C)."""


class CheckpointError(ArenaError):
    """A checkpoint that cannot be used: not a checkpoint, damaged, unreadable or unwritable."""


class CheckpointMismatch(CheckpointError):
    """A checkpoint made by a run with other arguments (or another kind of run)."""


def fingerprint(*parts: object) -> str:
    """A SHA-256 of the *values* of ``parts``: equal for equal arguments in every process,
    however the values were made (plain values, containers, dataclasses, NumPy values,
    module-level functions and classes, ``functools.partial`` of them).

    >>> fingerprint("a", 1) == fingerprint("a", 1) != fingerprint("a", 2)
    True
    >>> fingerprint(["greedy", "random"]) == fingerprint("greedy random".split())
    True
    """
    return _digest(parts)


def _digest(value: object) -> str:
    return hashlib.sha256(_canonical(value).encode()).hexdigest()


def _canonical(value: object, depth: int = 0) -> str:
    """A text naming ``value`` by what it holds, never by where it lives: pickles are not used
    for this, as their bytes depend on which equal objects are the same object."""
    if depth > 64:
        raise CheckpointError(f"cannot fingerprint {value!r}: nested too deeply")
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        return f"{type(value).__name__}:{value!r}"
    if isinstance(value, (tuple, list)):
        items = ",".join(_canonical(item, depth + 1) for item in value)
        return f"{type(value).__qualname__}[{items}]"
    if isinstance(value, (set, frozenset)):
        items = ",".join(sorted(_canonical(item, depth + 1) for item in value))
        return f"{type(value).__qualname__}{{{items}}}"
    if isinstance(value, dict):
        pairs = sorted(
            f"{_canonical(key, depth + 1)}:{_canonical(item, depth + 1)}"
            for key, item in value.items()
        )
        return f"{type(value).__qualname__}{{{','.join(pairs)}}}"
    if isinstance(value, (type, types.FunctionType, types.BuiltinFunctionType)):
        return f"{value.__module__}.{value.__qualname__}"
    reduced = value.__reduce_ex__(4)
    kind = f"{type(value).__module__}.{type(value).__qualname__}"
    if isinstance(reduced, str):  # a module-level singleton, named by pickle itself
        return f"{kind}:{reduced}"
    parts = [
        list(part) if isinstance(part, Iterator) else part for part in reduced[1:]
    ]  # list and dict items come as iterators
    return f"{kind}({_canonical(reduced[0], depth + 1)},{_canonical(parts, depth + 1)})"


def _arguments(named: Mapping[str, object]) -> dict[str, str]:
    """Each named argument's fingerprint."""
    return {name: _digest(value) for name, value in named.items()}


#: What unpickling a record raises when its bytes are intact but its objects cannot be made
#: (a class renamed since): the pickle module documents "other exceptions" too.
_UNREADABLE = (
    pickle.UnpicklingError,
    EOFError,
    AttributeError,
    ImportError,
    IndexError,
    KeyError,
    TypeError,
    ValueError,
)


def _payloads(data: bytes, where: str) -> list[bytes]:
    """The records of a checkpoint file's bytes, each checked against its digest. A torn last
    record (its frame runs past the end: a crash while appending) ends the list; a record whose
    bytes are not what was written makes the whole file refused."""
    if not data.startswith(_MAGIC):
        if data.startswith(_ANY_VERSION):
            raise CheckpointError(
                f"checkpoint {where!r} was written by another version of this library: "
                "delete it to start over"
            )
        raise CheckpointError(f"{where!r} is not a checkpoint file")
    payloads = []
    position = len(_MAGIC)
    while len(data) - position >= _FRAME.size:
        length, digest = _FRAME.unpack_from(data, position)
        start = position + _FRAME.size
        if length > len(data) - start:
            break
        payload = data[start : start + length]
        if hashlib.blake2b(payload, digest_size=32).digest() != digest:
            raise CheckpointError(
                f"checkpoint {where!r} is damaged (a record fails its checksum): "
                "delete it to start over"
            )
        payloads.append(payload)
        position = start + length
    return payloads


def _frame(value: object) -> bytes:
    """``value`` pickled, behind its length and digest."""
    payload = pickle.dumps(value, protocol=4)
    return _FRAME.pack(len(payload), hashlib.blake2b(payload, digest_size=32).digest()) + payload


def _records(data: bytes, where: str) -> tuple[dict[str, Any], dict[Hashable, Any]]:
    """The header and the entries of a checkpoint file's bytes."""
    payloads = _payloads(data, where)
    damaged = CheckpointError(f"checkpoint {where!r} is damaged: delete it to start over")
    if not payloads:
        raise damaged
    try:
        header = pickle.loads(payloads[0])
        batches = [pickle.loads(payload) for payload in payloads[1:]]
    except _UNREADABLE:
        raise damaged from None
    if not isinstance(header, dict) or "kind" not in header or "fingerprint" not in header:
        raise damaged
    entries: dict[Hashable, Any] = {}
    for batch in batches:
        if not isinstance(batch, list):
            raise damaged
        entries.update(batch)
    return header, entries


def _read_existing(path: Path, where: str) -> bytes:
    """The bytes of the checkpoint file at ``path``, or none when there is no file yet. Only a
    regular file is read: a FIFO or a device would block or never end."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return b""
    except OSError as error:
        raise CheckpointError(
            f"cannot read checkpoint {where!r}: {error.strerror or error}"
        ) from None
    if stat.S_ISDIR(mode):
        raise CheckpointError(f"cannot use checkpoint {where!r}: it is a folder")
    if not stat.S_ISREG(mode):
        raise CheckpointError(f"cannot use checkpoint {where!r}: it is not a regular file")
    try:
        return path.read_bytes()
    except OSError as error:
        raise CheckpointError(
            f"cannot read checkpoint {where!r}: {error.strerror or error}"
        ) from None


def _first_difference(saved: object, wanted: Mapping[str, str]) -> str:
    """The name of the first argument whose value differs from the saved one, if known."""
    if not isinstance(saved, dict):
        return ""
    for name, value in wanted.items():
        if saved.get(name) != value:
            return name
    return ""


class Checkpoint:
    """The checkpoint file ``path`` of a run of ``kind``: the work it already holds
    (``entries``, by key), and :meth:`add` to save more.

    ``fingerprint`` names the arguments that decide the run's results: either a
    :func:`fingerprint`, or the arguments themselves by name (then a refusal names the first
    one that differs). A missing or empty file is a new checkpoint; one of another run raises
    :class:`CheckpointMismatch`; one that is not a checkpoint, is damaged, is not a regular
    file, or a path that cannot be written, raises :class:`CheckpointError`. Added work is
    appended at most every :data:`SAVE_EVERY` seconds and on :meth:`close`.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        kind: str,
        fingerprint: str | Mapping[str, object],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = Path(path)
        self.kind = kind
        self.arguments = _arguments(fingerprint) if isinstance(fingerprint, Mapping) else None
        self.fingerprint = (
            _digest(sorted(self.arguments.items())) if self.arguments is not None else fingerprint
        )
        self.entries: dict[Hashable, Any] = {}
        self._pending: list[tuple[Hashable, Any]] = []
        self._clock = clock
        self._last = clock()
        where = os.fspath(self.path)
        data = _read_existing(self.path, where)
        if data:
            header, self.entries = _records(data, where)
            if header["kind"] != kind:
                raise CheckpointMismatch(
                    f"checkpoint {where!r} is a {header['kind']}'s, not a {kind}'s: "
                    "choose another file"
                )
            if header["fingerprint"] != self.fingerprint:
                differs = (
                    _first_difference(header.get("arguments"), self.arguments)
                    if self.arguments is not None
                    else ""
                )
                which = f" ({differs!r} differs)" if differs else ""
                raise CheckpointMismatch(
                    f"checkpoint {where!r} was made by a {kind} with other arguments{which}: "
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
        header = {"kind": self.kind, "fingerprint": self.fingerprint, "arguments": self.arguments}
        data.write(_frame(header))
        if self.entries:
            data.write(_frame(list(self.entries.items())))
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
        record = _frame(self._pending)
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
