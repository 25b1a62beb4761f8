"""A real Ctrl-C (SIGINT to the whole process group, as a terminal sends it) during long work:
exit status 130 in moments, one line, no traceback, no worker process left behind, and the
finished work kept."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from packing.deck import load_deck, save_deck
from packing.design import random_deck

ROOT = Path(__file__).resolve().parents[1]
PROGRESS = re.compile(r"^[a-z ]+: [\d,]+(/[\d,]+)? \w+.* elapsed")  # arena.progress's lines
pytestmark = pytest.mark.skipif(
    not Path("/proc/self/task").is_dir(), reason="reads worker processes from /proc (Linux)"
)


def children(pid: int) -> set[int]:
    """The child processes of ``pid`` (its workers)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found.update(int(word) for word in (task / "children").read_text().split())
        except OSError:
            pass
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not reaped, does not count)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def start(tmp_path: Path, *argv: str) -> subprocess.Popen[str]:
    env = os.environ | {"PACKING_TABLE_DIR": os.fspath(tmp_path / "tables")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [os.fspath(ROOT), env.get("PYTHONPATH")]))
    return subprocess.Popen(
        [sys.executable, "-m", "packing", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=env,
        start_new_session=True,  # its own process group, which Ctrl-C reaches as a whole
        preexec_fn=_default_ctrl_c,
    )


def _default_ctrl_c() -> None:
    # A command started in the background of a shell inherits Ctrl-C ignored, and Python
    # keeps it so: the command under test must handle it as in a terminal.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def workers_of(process: subprocess.Popen[str], count: int) -> set[int]:
    """Wait until ``process`` runs ``count`` workers (then a moment more, so they are busy)."""
    deadline = time.monotonic() + 60
    while len(children(process.pid)) < count:
        if process.poll() is not None or time.monotonic() > deadline:
            out, err = process.communicate()
            pytest.fail(f"no {count} workers started: {process.returncode} {out!r} {err!r}")
        time.sleep(0.05)
    time.sleep(0.5)
    return children(process.pid)


def ctrl_c(process: subprocess.Popen[str], times: int = 1, gap: float = 0.1) -> tuple[str, str]:
    for _ in range(times):
        os.killpg(process.pid, signal.SIGINT)
        time.sleep(gap)
    try:
        return process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # the workers too: they hold its pipes
        out, err = process.communicate()
        pytest.fail(f"still running 30 s after Ctrl-C: {err[-2000:]!r}")


def assert_stopped(process: subprocess.Popen[str], err: str, workers: set[int]) -> None:
    # 130, the command's own status: a second Ctrl-C during its exit is ignored, not an
    # end by SIGINT (which a shell would report as 130 too, after a traceback).
    assert process.returncode == 130, err
    lines = [line for line in err.splitlines() if not PROGRESS.match(line)]  # progress lines
    assert (
        "Traceback" not in err and len(lines) == 1 and lines[0].startswith("packing: interrupted")
    )
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in workers), "a worker outlived its parent"


def test_ctrl_c_stops_a_billion_deal_tournament_and_keeps_its_deals(tmp_path: Path) -> None:
    process = start(
        tmp_path,
        *("tournament", "--players", "optimal,random", "--games", "1000000000"),
        *("--workers", "2", "--checkpoint", "deals.ckpt"),
    )
    workers = workers_of(process, 2)
    out, err = ctrl_c(process)
    assert_stopped(process, err, workers)
    assert out == "" and "of 1000000000 deals completed, saved in 'deals.ckpt'" in err
    assert (tmp_path / "deals.ckpt").stat().st_size > 0


def test_two_quick_ctrl_c_during_a_tournament_keep_its_report_and_deals(tmp_path: Path) -> None:
    # The second press lands while the first one's deals are saved and their result is made.
    process = start(
        tmp_path,
        *("tournament", "--players", "random,greedy-loader", "--games", "100000"),
        *("--workers", "2", "--checkpoint", "deals.ckpt"),
    )
    workers = workers_of(process, 2)
    time.sleep(2)  # a few thousand deals done: the result takes a while to make
    out, err = ctrl_c(process, times=2, gap=0.03)
    assert_stopped(process, err, workers)
    assert out == "" and "of 100000 deals completed, saved in 'deals.ckpt'" in err


def test_two_quick_ctrl_c_during_a_table_build_do_not_hang(tmp_path: Path) -> None:
    process = start(tmp_path, "table", "build", "--force", "--out", "out", "--workers", "2")
    workers = workers_of(process, 2)
    _, err = ctrl_c(process, times=2)
    assert_stopped(process, err, workers)
    assert "run the same command to resume" in err
    assert list((tmp_path / "out").glob("*.partial.npz"))  # the finished work is kept


def test_two_quick_ctrl_c_during_decks_compare_do_not_hang(tmp_path: Path) -> None:
    for i in (1, 2):
        save_deck(random_deck(seed=f"interrupt {i}"), tmp_path / f"deck{i}.txt")
    assert load_deck(tmp_path / "deck1.txt")
    process = start(tmp_path, "decks", "compare", "deck1.txt", "deck2.txt", "--workers", "2")
    workers = workers_of(process, 2)
    out, err = ctrl_c(process, times=2)
    assert_stopped(process, err, workers)
    assert out == ""


def test_ctrl_c_in_decks_optimise_keeps_the_best_deck_without_a_worker_traceback(
    tmp_path: Path,
) -> None:
    process = start(
        tmp_path,
        *("decks", "optimise", "--objective", "coverage", "--rounds", "100000"),
        *("--workers", "2", "--out", "best.txt", "--checkpoint", "search.ckpt"),
    )
    workers = workers_of(process, 2)
    out, err = ctrl_c(process)
    assert_stopped(process, err, workers)
    assert "the best deck so far is saved in 'best.txt'" in err
    assert len(load_deck(tmp_path / "best.txt")) == 30
    assert "best deck: best.txt" in out
