"""arena.checkpoint: finished work kept across runs, never half-written, never mixed between
runs; and tournaments resumed from one give the uninterrupted result, byte for byte."""

from __future__ import annotations

import json
import os
import pickle
import random
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pytest

import arena.checkpoint
from arena import Policy, TournamentResult, tournament
from arena.checkpoint import Checkpoint, CheckpointError, CheckpointMismatch, fingerprint
from tests.arena.toy import AlwaysBank, AlwaysKeep, DiceRace

T = TypeVar("T")


def test_entries_survive_and_later_values_win(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    with Checkpoint(path, kind="test", fingerprint="f") as saved:
        assert saved.entries == {}
        saved.add(1, "one")
        saved.add(2, "two")
        saved.flush()
        saved.add(1, "uno")
    again = Checkpoint(path, kind="test", fingerprint="f")
    assert again.entries == {1: "uno", 2: "two"}
    again.close()


def test_a_torn_last_record_is_dropped_and_the_rest_kept(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    with Checkpoint(path, kind="test", fingerprint="f") as saved:
        saved.add(1, "one")
        saved.flush()
        saved.add(2, "two" * 100)
    whole = path.read_bytes()
    path.write_bytes(whole[:-50])  # a crash in the middle of the last append
    with Checkpoint(path, kind="test", fingerprint="f") as resumed:
        assert resumed.entries == {1: "one"}
        resumed.add(3, "three")
    assert Checkpoint(path, kind="test", fingerprint="f").entries == {1: "one", 3: "three"}


def test_a_file_cut_anywhere_loads_a_prefix_of_its_entries_or_is_refused(tmp_path: Path) -> None:
    # Whatever byte a crash stops the file at, opening it is a prefix of the work or one error.
    path = tmp_path / "run.ckpt"
    with Checkpoint(path, kind="test", fingerprint="f") as saved:
        for k in range(4):
            saved.add(k, ("value", k, "x" * k))
            saved.flush()
    whole = path.read_bytes()
    full = {k: ("value", k, "x" * k) for k in range(4)}
    for cut in range(len(whole)):
        path.write_bytes(whole[:cut])
        try:
            with Checkpoint(path, kind="test", fingerprint="f") as resumed:
                entries = resumed.entries
        except CheckpointError as error:
            assert "\n" not in str(error)
            continue
        assert entries == {k: full[k] for k in range(len(entries))}, cut


@pytest.mark.parametrize(
    ("kind", "mark", "message"),
    [
        ("test", "other", "was made by a test with other arguments"),
        ("tournament", "f", "is a test's, not a tournament's"),
    ],
)
def test_a_checkpoint_of_another_run_is_refused_in_one_line(
    tmp_path: Path, kind: str, mark: str, message: str
) -> None:
    path = tmp_path / "run.ckpt"
    with Checkpoint(path, kind="test", fingerprint="f") as saved:
        saved.add(1, "one")
    before = path.read_bytes()
    with pytest.raises(CheckpointMismatch, match=message) as refused:
        Checkpoint(path, kind=kind, fingerprint=mark)
    assert "\n" not in str(refused.value) and repr(os.fspath(path)) in str(refused.value)
    assert path.read_bytes() == before  # refused, and left as it was


def test_files_that_are_not_checkpoints_are_refused(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    with pytest.raises(CheckpointError, match="is not a checkpoint file"):
        Checkpoint(text, kind="test", fingerprint="f")
    assert text.read_text() == "hello\n"
    with pytest.raises(CheckpointError, match="it is a folder"):
        Checkpoint(tmp_path, kind="test", fingerprint="f")


def test_fingerprints_are_equal_in_a_process_with_another_hash_seed() -> None:
    here = fingerprint(DiceRace, ("keep", "bank"), (AlwaysKeep(), AlwaysBank()), 3)
    code = (
        "from arena.checkpoint import fingerprint\n"
        "from tests.arena.toy import AlwaysBank, AlwaysKeep, DiceRace\n"
        "print(fingerprint(DiceRace, ('keep', 'bank'), (AlwaysKeep(), AlwaysBank()), 3))\n"
    )
    root = Path(__file__).resolve().parents[2]
    env = os.environ | {"PYTHONHASHSEED": "12345"}
    there = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, env=env, check=True
    ).stdout.strip()
    assert here == there


# --- tournaments --------------------------------------------------------------------------------


_DECISIONS_LEFT: list[int] = []


@dataclass(frozen=True)
class Fragile:
    """Keeps every roll, like AlwaysKeep, but raises KeyboardInterrupt (as Ctrl-C would) when
    the decisions of ``_DECISIONS_LEFT`` run out. It pickles the same in every run, so every
    run has the same fingerprint."""

    name: str = "keep"

    def act(self, observation: Any, legal_actions: Sequence[Any], rng: np.random.Generator) -> Any:
        if _DECISIONS_LEFT:
            _DECISIONS_LEFT[0] -= 1
            if _DECISIONS_LEFT[0] == 0:
                raise KeyboardInterrupt
        return "keep"


def same(result: TournamentResult, full: TournamentResult) -> None:
    assert result == full
    assert str(result) == str(full)
    assert json.dumps(result.to_dict(records=True)) == json.dumps(full.to_dict(records=True))


@pytest.mark.extra("tournament")
def test_interrupted_at_random_points_and_resumed_gives_the_uninterrupted_result(
    tmp_path: Path,
) -> None:
    full = tournament(DiceRace, [AlwaysKeep(), AlwaysBank()], games=30, seed=4, progress=False)
    rng = random.Random(19)
    for attempt in range(4):
        path = tmp_path / f"run{attempt}.ckpt"
        calls = 0
        # Interrupt at random decisions, resuming each time, until a run completes.
        while True:
            _DECISIONS_LEFT[:] = [rng.randrange(1, 200)]
            calls += 1
            policies: list[Policy] = [Fragile(), AlwaysBank()]
            result = tournament(
                DiceRace, policies, games=30, seed=4, progress=False, checkpoint=path
            )
            if not result.interrupted:
                break
            assert 0 <= result.deals < 30
        same(result, full)
        assert calls > 1  # it was interrupted at least once
        _DECISIONS_LEFT.clear()
        again = tournament(
            DiceRace,
            [Fragile(), AlwaysBank()],
            games=30,
            seed=4,
            progress=False,
            checkpoint=path,
        )
        same(again, full)  # a finished checkpoint gives the result at once


class StopAtSubmit(Executor):
    """Runs each task at submit; the ``fail_at``-th submit raises KeyboardInterrupt instead."""

    def __init__(self, fail_at: int) -> None:
        self.fail_at = fail_at
        self.submitted = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.submitted += 1
        if self.submitted == self.fail_at:
            raise KeyboardInterrupt
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


@pytest.mark.extra("tournament")
def test_resuming_through_an_executor_and_extending_a_tournament(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    options: dict[str, Any] = {"seed": 2, "progress": False, "checkpoint": path, "chunk": 3}
    stopped = tournament(
        DiceRace, [AlwaysKeep(), AlwaysBank()], games=40, executor=StopAtSubmit(4), **options
    )
    assert stopped.interrupted and stopped.deals == 9
    resumed = tournament(DiceRace, [AlwaysKeep(), AlwaysBank()], games=40, workers=2, **options)
    same(
        resumed,
        tournament(DiceRace, [AlwaysKeep(), AlwaysBank()], games=40, seed=2, progress=False),
    )
    fewer = tournament(DiceRace, [AlwaysKeep(), AlwaysBank()], games=10, **options)
    same(
        fewer, tournament(DiceRace, [AlwaysKeep(), AlwaysBank()], games=10, seed=2, progress=False)
    )
    more = tournament(DiceRace, [AlwaysKeep(), AlwaysBank()], games=50, **options)
    same(more, tournament(DiceRace, [AlwaysKeep(), AlwaysBank()], games=50, seed=2, progress=False))


@pytest.mark.parametrize(
    "change",
    [
        {"seed": 3},
        {"new_game": DiceRace(rounds=4).__class__},
        {"policies": [AlwaysBank(), AlwaysKeep()]},
    ],
)
@pytest.mark.extra("tournament")
def test_a_tournament_checkpoint_of_other_arguments_is_refused(
    tmp_path: Path, change: dict[str, Any]
) -> None:
    path = tmp_path / "run.ckpt"
    base: dict[str, Any] = {
        "new_game": DiceRace,
        "policies": [AlwaysKeep(), AlwaysBank()],
        "games": 3,
        "seed": 2,
        "progress": False,
    }
    tournament(**base, checkpoint=path)
    if "new_game" in change:
        change = {"new_game": _four_rounds}
    with pytest.raises(CheckpointMismatch, match="with other arguments"):
        tournament(**(base | change), checkpoint=path)


def _four_rounds() -> DiceRace:
    return DiceRace(rounds=4)


@pytest.mark.extra("tournament")
def test_a_billion_deals_start_at_once() -> None:
    # Seeds are made as deals are handed out: stopping after a few deals takes no time at all.
    result = tournament(
        DiceRace,
        [AlwaysKeep(), AlwaysBank()],
        games=10**9,
        seed=0,
        progress=False,
        executor=StopAtSubmit(3),
        chunk=2,
    )
    assert result.interrupted and result.deals == 4 and result.deals_requested == 10**9


def test_checkpoint_module_constants() -> None:
    assert arena.checkpoint.SAVE_EVERY > 0
    assert pickle.loads(pickle.dumps(CheckpointMismatch("x"))).args == ("x",)
