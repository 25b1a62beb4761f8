"""arena.progress: one rule whatever is installed — quiet for quick work, plain lines in logs,
a tqdm bar on a terminal when tqdm is there."""

from __future__ import annotations

import io
import sys
import types
import warnings
from collections.abc import Iterator

import pytest

import arena.progress
from arena.progress import DELAY, EVERY, progress


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def lines(text: str) -> list[str]:
    return text.splitlines()


def test_quick_work_prints_nothing() -> None:
    clock, out = Clock(), io.StringIO()
    with progress(100, desc="quick", unit="deal", file=out, clock=clock) as bar:
        for _ in range(100):
            clock.now += (DELAY - 0.5) / 100
            bar.update()
    assert out.getvalue() == ""


def test_plain_lines_at_every_tenth_and_at_least_every_so_often() -> None:
    clock, out = Clock(), io.StringIO()
    with progress(1000, desc="work", unit="task", file=out, clock=clock) as bar:
        clock.now = DELAY  # the first update after the delay shows the first line
        for _ in range(1000):
            bar.update()
        assert len(lines(out.getvalue())) == 11  # 0.1 %, then each tenth up to 100 %
    shown = lines(out.getvalue())
    assert shown[0].startswith("work: 1/1,000 tasks (0%)")
    assert shown[-1].startswith("work: 1,000/1,000 tasks (100%)")
    clock, out = Clock(), io.StringIO()
    with progress(10**6, desc="slow", unit="deal", file=out, clock=clock) as bar:
        for _ in range(5):
            clock.now += EVERY
            bar.update()  # far below a tenth each time, but EVERY seconds apart
    assert len(lines(out.getvalue())) == 5  # one per update: EVERY seconds apart
    assert "about" in lines(out.getvalue())[1] and "left" in lines(out.getvalue())[1]


def test_unknown_totals_resumed_work_and_callbacks() -> None:
    clock, out = Clock(), io.StringIO()
    bar = progress(None, desc="search", unit="round", file=out, clock=clock, initial=7)
    clock.now = DELAY
    bar.update()
    bar.close()
    bar.update()  # after close: nothing more
    assert lines(out.getvalue()) == ["search: 8 rounds, 2 s elapsed"]
    clock, out = Clock(), io.StringIO()
    report = progress(None, desc="table", unit="entry", file=out, clock=clock).callback()
    clock.now = DELAY
    report(450, 900)
    assert lines(out.getvalue())[0].startswith("table: 450/900 entries (50%)")


def test_disabled_shows_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    clock, out = Clock(), Terminal()
    with progress(3, desc="off", unit="deal", file=out, clock=clock, enabled=False) as bar:
        clock.now = 10 * DELAY
        bar.update(3)
    assert out.getvalue() == ""


@pytest.fixture
def without_tqdm(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    yield


@pytest.mark.extra("progress")
def test_a_terminal_gets_a_tqdm_bar_when_tqdm_is_installed() -> None:
    clock, out = Clock(), Terminal()
    with progress(4, desc="bar", unit="deal", file=out, clock=clock) as bar:
        clock.now = DELAY
        for _ in range(4):
            bar.update()
    assert "bar" in out.getvalue() and "\r" in out.getvalue()  # tqdm redraws in place


@pytest.mark.usefixtures("without_tqdm")
def test_a_terminal_without_tqdm_and_a_log_get_the_same_plain_lines() -> None:
    shown = []
    for out in (Terminal(), io.StringIO()):
        clock = Clock()
        with progress(4, desc="same", unit="deal", file=out, clock=clock) as bar:
            clock.now = DELAY
            for _ in range(4):
                bar.update()
        shown.append(out.getvalue())
    assert shown[0] == shown[1] and len(lines(shown[0])) == 4


def test_a_log_gets_plain_lines_even_with_tqdm_installed() -> None:
    clock, out = Clock(), io.StringIO()
    with progress(2, desc="log", unit="deal", file=out, clock=clock) as bar:
        clock.now = DELAY
        bar.update(2)
    assert lines(out.getvalue()) == ["log: 2/2 deals (100%), 2 s elapsed"]


def test_a_closed_stderr_does_not_stop_the_work() -> None:
    clock, out = Clock(), io.StringIO()
    bar = progress(2, desc="gone", unit="deal", file=out, clock=clock)
    out.close()
    clock.now = DELAY
    bar.update(2)
    bar.close()
    assert not bar.enabled


def test_durations_read_naturally() -> None:
    assert arena.progress._duration(59.6) == "60 s"
    assert arena.progress._duration(600) == "10 min"
    assert arena.progress._duration(3 * 3600) == "3.0 h"
    assert arena.progress._duration(10 * 86400) == "10 days"


@pytest.fixture
def kernel_without_ipywidgets(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """What a Jupyter kernel without ipywidgets looks like to tqdm: ipykernel's shell loaded,
    ``ipywidgets`` not importable, and tqdm's notebook modules imported afresh."""
    shell = type("ZMQInteractiveShell", (), {})()
    ipython = types.ModuleType("IPython")
    ipython.get_ipython = lambda: shell  # type: ignore[attr-defined]
    for name in ("ipykernel", "ipykernel.zmqshell"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, "IPython", ipython)
    monkeypatch.setitem(sys.modules, "ipywidgets", None)
    fresh = ("tqdm.auto", "tqdm.autonotebook", "tqdm.notebook")
    before = {name: sys.modules.pop(name) for name in fresh if name in sys.modules}
    yield
    for name in fresh:
        sys.modules.pop(name, None)
    sys.modules.update(before)


@pytest.mark.extra("progress")
@pytest.mark.usefixtures("kernel_without_ipywidgets")
def test_a_notebook_without_ipywidgets_gets_a_text_bar_and_no_warning() -> None:
    clock, out = Clock(), io.StringIO()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with progress(4, desc="kernel", unit="deal", file=out, clock=clock) as bar:
            clock.now = DELAY
            for _ in range(4):
                bar.update()
    assert [str(warning.message) for warning in caught] == []
    assert "kernel" in out.getvalue() and "\r" in out.getvalue()  # a text bar, redrawn
