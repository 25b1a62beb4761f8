"""One server per data folder: ``tabletop-web`` holds a lock on its folder while it serves, so a
second one started on the same folder is refused at once instead of overwriting the first one's
moves.

The lock is the operating system's (``flock`` on POSIX, ``msvcrt.locking`` on Windows) on the
file :data:`LOCK_NAME` in the folder: it ends with the process however the process ends (Ctrl-C,
``kill -9``, a crash), so a stale lock never blocks the next start. The file holds the serving
process's id, which the refusal names.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from types import TracebackType

from webapp.store import StoreUnavailable

__all__ = ["LOCK_NAME", "FolderInUse", "FolderLock"]

LOCK_NAME = "tabletop-web.lock"


class FolderInUse(StoreUnavailable):
    """Another ``tabletop-web`` serves from the folder."""


class FolderLock:
    """The lock on ``folder`` (a context manager): :meth:`acquire` raises :class:`FolderInUse`
    when another process holds it, :class:`~webapp.store.StoreUnavailable` when the folder
    cannot be written."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> None:
        shown = repr(os.fspath(self.folder))
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise StoreUnavailable(
                f"the data folder {shown} cannot be written ({error.strerror}): make it "
                "writable, or start tabletop-web with --data and a folder it can write"
            ) from None
        try:
            _lock(fd)
        except OSError:
            holder = _read(fd)
            os.close(fd)
            who = f"another tabletop-web (process {holder})" if holder else "another tabletop-web"
            raise FolderInUse(
                f"{who} is serving from the data folder {shown}: use that one, stop it first, "
                "or start this one with --data and another folder"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, 0)
            os.close(self._fd)  # closing the file lets the lock go
            self._fd = None

    def __enter__(self) -> FolderLock:
        self.acquire()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.release()


def _lock(fd: int) -> None:
    """Take the lock on ``fd`` at once, or raise OSError when another process holds it."""
    if sys.platform == "win32":  # pragma: no cover - the tests run on Linux
        import msvcrt

        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _read(fd: int) -> str:
    """The process id the holder wrote, or "" when it cannot be read."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except (OSError, AttributeError):  # no pread on Windows
        return ""
    return text if text.isdigit() else ""
