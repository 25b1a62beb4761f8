"""Files a user keeps or hands over: one bounded reader of text files and one writer that
replaces a file whole or not at all, for both games and every kind of file they write.

Reading is bounded (a device such as ``/dev/zero`` or a huge file is refused after the limit,
not read to the end), refuses what is not UTF-8 text (a byte-order mark is fine) and what holds
NUL bytes (a binary file that happens to decode), and names the file in every message. Writing
goes to a temporary file in the same folder that replaces the target at once (``os.replace``):
an interrupted or failed write leaves the old file, never half a new one, and no temporary file
behind. Every problem is raised as the caller's error class, in one line quoting the path, so
each game keeps its own root error.

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "deck.txt")
>>> write_text(path, "S01 height 1\\n###\\n", what="deck", error=ValueError)
>>> read_text(path, what="deck", limit=1_000, error=ValueError)
'S01 height 1\\n###\\n'
>>> read_text(os.path.join(folder, "nothing.txt"), what="deck", limit=1_000, error=ValueError)
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: cannot read deck '.../nothing.txt': No such file or directory
"""

from __future__ import annotations

import codecs
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

__all__ = ["atomic_writer", "checked_path", "read_text", "write_text"]


def checked_path(
    path: object, caller: str, error: Callable[[str], Exception], what: str = "file"
) -> str:
    """``path`` as a string, when it is one: a ``str`` or any :class:`os.PathLike` naming a
    file. Another type raises :class:`TypeError` starting with ``caller`` (the public function
    that was given it); an empty path raises ``error`` naming ``what`` kind of file it is."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(
            f"{caller}: path must be a file path (str or os.PathLike), not "
            f"{type(path).__name__} {path!r}"
        )
    name = os.fspath(path)
    if not isinstance(name, str):
        raise TypeError(f"{caller}: path must be a file path (str), not bytes {name!r}")
    if not name:
        raise error(f"{what} '' is an empty path: it names no file")
    return name


def read_text(
    path: str | os.PathLike[str],
    *,
    what: str,
    limit: int,
    error: Callable[[str], Exception],
    caller: str = "read_text",
) -> str:
    """The text of the file at ``path``: at most ``limit`` bytes of UTF-8 (a byte-order mark is
    dropped), holding no NUL byte. ``what`` names the kind of file in messages (``"deck"``);
    every problem raises ``error`` quoting the path (``caller``: see :func:`checked_path`)."""
    name = checked_path(path, caller, error, what)
    try:
        with open(name, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as failure:
        raise error(f"cannot read {what} {name!r}: {failure.strerror or failure}") from None
    if len(data) > limit:
        raise error(f"{what} {name!r} is larger than {limit:,} bytes: not a {what} file")
    # NUL bytes mean a binary file, unless a UTF-16 byte-order mark says it is text saved in
    # another encoding: that is worth its own message.
    if b"\0" in data and not data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise error(f"{what} {name!r} is a binary file, not a text {what} file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as failure:
        raise error(
            f"{what} {name!r} is not UTF-8 text (byte {data[failure.start]:#04x} at offset "
            f"{failure.start}): save it as UTF-8"
        ) from None
    if "\0" in text:  # valid UTF-8, but no text file holds NUL bytes
        raise error(f"{what} {name!r} is a binary file, not a text {what} file")
    return text


@contextmanager
def atomic_writer(
    path: str | os.PathLike[str],
    *,
    what: str,
    error: Callable[[str], Exception],
    caller: str = "atomic_writer",
    make_folders: bool = False,
    mode: int = 0o644,
) -> Iterator[BinaryIO]:
    """A binary handle whose bytes become the file at ``path`` when the block ends, at once
    (permissions ``mode``; with ``make_folders``, its missing folders made first); an error or
    Ctrl-C inside the block leaves the old file as it was and removes the temporary one. A file
    that cannot be written raises ``error`` quoting the path (``caller``: see
    :func:`checked_path`)."""
    name = checked_path(path, caller, error, what)
    target = Path(name)
    try:
        if make_folders:
            target.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
        )
    except OSError as failure:
        raise error(f"cannot write {what} {name!r}: {failure.strerror or failure}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
        os.chmod(temporary, mode)  # mkstemp makes it private; what a user keeps is ordinary data
        os.replace(temporary, target)
    except BaseException as failure:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(failure, OSError):
            raise error(f"cannot write {what} {name!r}: {failure.strerror or failure}") from None
        raise


def write_text(
    path: str | os.PathLike[str],
    text: str,
    *,
    what: str,
    error: Callable[[str], Exception],
    caller: str = "write_text",
    make_folders: bool = False,
) -> None:
    """Write ``text`` (UTF-8) as the whole file at ``path``, through :func:`atomic_writer`."""
    with atomic_writer(
        path, what=what, error=error, caller=caller, make_folders=make_folders
    ) as handle:
        handle.write(text.encode("utf-8"))
