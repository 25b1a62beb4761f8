"""arena.executors: one Executor from --workers / --scheduler / --cluster, clear errors."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from arena.executors import ExecutorError, executor_from, parse_cluster, process_pool, stop_pool
from arena.extras import MissingExtraError


def test_workers_give_a_process_pool() -> None:
    with executor_from(workers=2) as pool:
        assert isinstance(pool, ProcessPoolExecutor)
        assert list(pool.map(pow, [2, 3], [5, 2])) == [32, 9]


def test_a_stopped_pool_leaves_none_of_its_threads_running() -> None:
    # A manager thread still closing its wake-up pipe when the interpreter's exit hook writes
    # to it is an EBADF traceback at exit (seen after a Ctrl-C). Several pools in a row: the
    # thread used to outlive the stop most of the time, not every time.
    for _ in range(5):
        pool = process_pool(2)
        futures = [pool.submit(time.sleep, 30) for _ in range(4)]
        deadline = time.monotonic() + 10
        while not any(future.running() for future in futures) and time.monotonic() < deadline:
            time.sleep(0.01)
        manager: threading.Thread | None = getattr(pool, "_executor_manager_thread", None)
        stop_pool(pool)
        assert manager is None or not manager.is_alive()


def test_a_pool_stopped_while_its_workers_send_large_results_lets_the_process_exit(
    tmp_path: Path,
) -> None:
    # A result of 400 kB goes down the pipe in several writes: a worker ended in the middle
    # left the pool's manager thread reading the rest for ever, and the interpreter's exit
    # waited for it (a batched tournament hung after its "interrupted" line). Ended, that
    # thread must not fail the futures already cancelled (a traceback on stderr).
    script = tmp_path / "stop_during_results.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import sys, time
            from concurrent.futures import FIRST_COMPLETED, wait
            sys.path.insert(0, {str(Path(__file__).parents[2])!r})
            from arena.executors import process_pool, stop_pool

            if __name__ == "__main__":
                for run in range(3):
                    pool = process_pool(2)
                    pending = {{pool.submit(bytes, 400_000) for _ in range(4)}}
                    deadline = time.monotonic() + 0.2 + 0.1 * run
                    while time.monotonic() < deadline:
                        finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                        pending |= {{pool.submit(bytes, 400_000) for _ in finished}}
                    for future in pending:  # as an interrupted tournament does first
                        future.cancel()
                    stop_pool(pool)
                print("exiting")
            """
        )
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "exiting\n", "")


def test_parse_cluster() -> None:
    assert parse_cluster("local:3") == 3
    bad_inputs = ("local:0", "local:", "remote:2", "3", "local:x")
    # Digits 0-9 only, as every count of the command lines; nothing around the value.
    for bad in bad_inputs + ("local:\u0663", "local:\uff13", "local:2\n", "local:1_0"):
        with pytest.raises(ExecutorError, match=re.escape(repr(bad))):
            parse_cluster(bad)


def test_bad_choices_are_refused_before_any_work() -> None:
    with pytest.raises(ExecutorError, match="not workers and scheduler"):
        with executor_from(workers=2, scheduler="tcp://127.0.0.1:9"):
            pass
    with pytest.raises(ExecutorError, match="at least 1"):
        with executor_from(workers=0):
            pass
    with pytest.raises(TypeError, match="workers must be a whole number, not str '2'"):
        with executor_from(workers="2"):  # type: ignore[arg-type]
            pass
    with pytest.raises(ExecutorError, match="'local:none'"):
        with executor_from(cluster="local:none"):
            pass


@pytest.mark.extra("dask")
def test_an_unreachable_scheduler_is_one_clear_error_soon() -> None:
    start = time.monotonic()
    with pytest.raises(ExecutorError, match="cannot reach the Dask scheduler 'tcp://127.0.0.1:9'"):
        with executor_from(scheduler="tcp://127.0.0.1:9", connect_timeout=0.5):
            pass
    assert time.monotonic() - start < 30


def test_a_missing_dask_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now fails
    with pytest.raises(
        MissingExtraError, match=r"dask extra \(pip install 'tabletop-solvers\[dask\]'\)"
    ):
        with executor_from(cluster="local:1"):
            pass
