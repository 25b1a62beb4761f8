"""Progress of long work, the same rule whatever is installed.

Every long computation of the library (tournaments, table builds, deck studies, searches) reports
its progress through :func:`progress`, and the rule is one:

- progress goes to stderr (never stdout, which holds the answer) unless the caller turns it off
  (``progress=False`` in Python);
- nothing at all is shown for work that ends within :data:`DELAY` seconds, so quick commands
  stay quiet;
- on a terminal or in a notebook, with ``tqdm`` installed (the ``progress`` extra), it is a
  ``tqdm.auto`` bar (a widget in a notebook with ipywidgets, a text bar redrawn in place in
  one without); anywhere else — a log, CI, a pipe, or a terminal without tqdm — it is a plain
  line at every tenth of the work and at least every :data:`EVERY` seconds, so a log shows
  the same progress whether or not tqdm is installed.

>>> import io
>>> ticks = iter(range(0, 100, 3))  # a clock that moves 3 s per reading
>>> out = io.StringIO()
>>> with progress(4, desc="demo", unit="deal", file=out, clock=lambda: next(ticks)) as bar:
...     for _ in range(4):
...         bar.update()
>>> print(out.getvalue(), end="")
demo: 1/4 deals (25%), 3 s elapsed, about 9 s left
demo: 2/4 deals (50%), 6 s elapsed, about 6 s left
demo: 3/4 deals (75%), 9 s elapsed, about 3 s left
demo: 4/4 deals (100%), 12 s elapsed
"""

from __future__ import annotations

import contextvars
import importlib
import importlib.util
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import IO, Any

from arena.text import plural

__all__ = ["DELAY", "EVERY", "Progress", "progress", "silenced"]

DELAY = 2.0
"""Seconds of work before any progress is shown: quicker work prints nothing."""

EVERY = 30.0
"""The longest gap, in seconds, between two plain progress lines."""


_silenced: contextvars.ContextVar[bool] = contextvars.ContextVar("silenced", default=False)


@contextmanager
def silenced() -> Iterator[None]:
    """No progress is shown for work started within this block, in this thread or task: a
    server answering a request (the web API runs the commands) has no terminal to show it on.

    >>> with silenced():
    ...     progress(10, desc="quiet", unit="step").enabled
    False
    """
    token = _silenced.set(True)
    try:
        yield
    finally:
        _silenced.reset(token)


def _interactive(file: IO[str]) -> bool:
    """Whether ``file`` is shown live: a terminal, or a notebook's output."""
    if "ipykernel" in sys.modules:
        return True
    isatty = getattr(file, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except ValueError:  # a closed stream
        return False


def _tqdm() -> Any:
    """``tqdm.auto.tqdm``, or ``None`` without the progress extra. In a Jupyter kernel without
    ipywidgets, ``tqdm.std.tqdm``: ``tqdm.auto`` would fall back to it too, but only after a
    ``TqdmWarning`` ("IProgress not found") in the user's notebook."""
    try:
        if "ipykernel" in sys.modules and importlib.util.find_spec("ipywidgets") is None:
            return importlib.import_module("tqdm.std").tqdm
        return importlib.import_module("tqdm.auto").tqdm
    except ImportError:
        return None


def _duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds // 60} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.0f} days"


class Progress:
    """The progress of one piece of work (also called :data:`progress`): call :meth:`update` as
    the work advances and :meth:`close` at the end (or use it as a context manager).

    ``total`` may be ``None`` when the amount of work is not known in advance (the lines then
    give the count only); ``unit`` is what is counted, in the singular."""

    def __init__(
        self,
        total: int | None,
        *,
        desc: str,
        unit: str,
        enabled: bool = True,
        file: IO[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        initial: int = 0,
    ) -> None:
        self.total = total
        self.desc = desc
        self.unit = unit
        self.enabled = enabled and not _silenced.get()
        self.done = initial
        self._file = file if file is not None else sys.stderr
        self._clock = clock
        self._started = clock()
        self._start_count = initial
        self._bar: Any = None
        self._tqdm = _tqdm() if self.enabled and _interactive(self._file) else None
        self._shown = False
        self._last_line = self._started
        self._last_tenth = -1
        self._printed = -1
        self._closed = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def update(self, count: int = 1) -> None:
        """``count`` more units of work are done."""
        self.advance_to(self.done + count)

    def advance_to(self, done: int) -> None:
        """``done`` units of work are done in all."""
        self.done = done
        if not self.enabled or self._closed:
            return
        now = self._clock()
        if self._bar is not None:
            self._bar.update(done - self._bar.n)
            return
        if now - self._started < DELAY:
            return
        if self._tqdm is not None:
            self._bar = self._tqdm(
                total=self.total,
                initial=done,
                desc=self.desc,
                unit=self.unit,
                file=self._file,
                leave=False,
            )
            self._shown = True
            return
        tenth = done * 10 // self.total if self.total else -1
        if not self._shown or tenth > self._last_tenth or now - self._last_line >= EVERY:
            self._line(now)
            self._last_tenth = tenth

    def _line(self, now: float) -> None:
        elapsed = now - self._started
        if self.total is not None:
            percent = 100 * self.done // self.total if self.total else 100
            count = f"{self.done:,}/{plural(self.total, self.unit)} ({percent}%)"
        else:
            count = plural(self.done, self.unit)
        text = f"{self.desc}: {count}, {_duration(elapsed)} elapsed"
        made = self.done - self._start_count
        if self.total is not None and 0 < made and self.done < self.total:
            left = elapsed * (self.total - self.done) / made
            text += f", about {_duration(left)} left"
        try:
            print(text, file=self._file, flush=True)
        except (OSError, ValueError):  # stderr gone: the work matters more than its progress
            self.enabled = False
        self._shown = True
        self._last_line = now
        self._printed = self.done

    def callback(self) -> Callable[[int, int], None]:
        """A ``progress(done, total)`` function for the library's long work that reports that
        way (:func:`packing.table.build_table`), feeding this object."""

        def report(done: int, total: int) -> None:
            self.total = total
            self.advance_to(done)

        return report

    def close(self) -> None:
        """The work is over (done, stopped or failed): a plain last line when lines were shown."""
        if self._closed:
            return
        self._closed = True
        if self._bar is not None:
            self._bar.close()
        elif self.enabled and self._shown and self._printed != self.done:
            self._line(self._clock())


progress = Progress
"""The name the progress of long work is made by: :class:`Progress` itself (``progress(total,
desc=..., unit=...)``), for ``total`` units of ``unit`` (``None``: unknown), shown on ``file``
(default stderr) as the module docstring says; ``enabled=False`` shows nothing, ``initial``
units are already done (a resumed run)."""
