"""arena.checkpoint: finished work kept across runs, never half-written, never mixed between
runs; and tournaments resumed from one give the uninterrupted result, byte for byte."""

from __future__ import annotations

import json
import os
import pickle
import random
import subprocess
import sys
import threading
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
    records = bool(full.records)
    assert json.dumps(result.to_dict(records=records)) == json.dumps(full.to_dict(records=records))


@pytest.mark.parametrize("records", [False, True])
def test_interrupted_at_random_points_and_resumed_gives_the_uninterrupted_result(
    tmp_path: Path, records: bool
) -> None:
    full = tournament(
        DiceRace, [AlwaysKeep(), AlwaysBank()], games=30, seed=4, progress=False, records=records
    )
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
                DiceRace,
                policies,
                games=30,
                seed=4,
                progress=False,
                checkpoint=path,
                records=records,
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
            records=records,
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
    with pytest.raises(CheckpointMismatch, match=r"holds deals up to 40: run at least that many"):
        tournament(DiceRace, [AlwaysKeep(), AlwaysBank()], games=10, **options)
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
    (differing,) = change
    with pytest.raises(
        CheckpointMismatch, match=f"with other arguments \\('{differing}' differs\\)"
    ):
        tournament(**(base | change), checkpoint=path)


def _four_rounds() -> DiceRace:
    return DiceRace(rounds=4)


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


def test_a_changed_byte_anywhere_is_refused_or_changes_nothing(tmp_path: Path) -> None:
    # Each record's digest is checked before it is read: a flipped bit either is refused in one
    # line or, in a torn-looking tail, drops work that is then done again — never other work.
    path = tmp_path / "run.ckpt"
    full = {k: ("value", k, "x" * k) for k in range(5)}
    with Checkpoint(path, kind="test", fingerprint="f") as saved:
        for key, value in full.items():
            saved.add(key, value)
            saved.flush()
    whole = path.read_bytes()
    refused = 0
    for offset in range(len(whole)):
        for bit in (0, 7):
            damaged = bytearray(whole)
            damaged[offset] ^= 1 << bit
            path.write_bytes(bytes(damaged))
            try:
                with Checkpoint(path, kind="test", fingerprint="f") as resumed:
                    entries = resumed.entries
            except CheckpointError as error:
                assert "\n" not in str(error)
                refused += 1
                continue
            assert entries == {k: full[k] for k in range(len(entries))}, (offset, bit)
    assert refused > len(whole)  # nearly every flip is caught, not quietly dropped


def test_a_damaged_tournament_checkpoint_never_changes_the_result(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    options: dict[str, Any] = {"games": 12, "seed": 5, "progress": False}
    players: list[Policy] = [AlwaysKeep(), AlwaysBank()]
    expected = tournament(DiceRace, players, **options, checkpoint=path)
    whole = path.read_bytes()
    for offset in range(0, len(whole), 29):
        damaged = bytearray(whole)
        damaged[offset] ^= 0x10
        path.write_bytes(bytes(damaged))
        try:
            again = tournament(DiceRace, players, **options, checkpoint=path)
        except CheckpointError as error:
            assert "\n" not in str(error) and repr(os.fspath(path)) in str(error)
            continue
        assert again == expected, offset


def test_an_empty_file_is_a_checkpoint_holding_no_work(tmp_path: Path) -> None:
    path = tmp_path / "made-by-mktemp"
    path.write_bytes(b"")
    with Checkpoint(path, kind="test", fingerprint="f") as saved:
        assert saved.entries == {}
        saved.add(1, "one")
    assert Checkpoint(path, kind="test", fingerprint="f").entries == {1: "one"}


def test_a_checkpoint_of_the_earlier_format_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "old.ckpt"
    path.write_bytes(b"tabletop-solvers checkpoint 1\n" + pickle.dumps({"kind": "test"}))
    with pytest.raises(CheckpointError, match="another version of this library"):
        Checkpoint(path, kind="test", fingerprint="f")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX feature")
def test_a_fifo_or_a_device_is_refused_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    outcome: list[BaseException] = []

    def open_it() -> None:
        try:
            Checkpoint(fifo, kind="test", fingerprint="f")
        except CheckpointError as error:
            outcome.append(error)

    # Opening a FIFO for reading waits for a writer: a thread keeps a regression from hanging.
    opener = threading.Thread(target=open_it, daemon=True)
    opener.start()
    opener.join(timeout=30)
    assert not opener.is_alive(), "opening a FIFO as a checkpoint waited for a writer"
    assert outcome and "not a regular file" in str(outcome[0])
    with pytest.raises(CheckpointError, match="not a regular file"):
        Checkpoint(os.devnull, kind="test", fingerprint="f")


def test_fingerprints_are_of_values_not_of_objects() -> None:
    assert fingerprint(["greedy", "random"]) == fingerprint("greedy random".split())
    word = "greedy"
    assert fingerprint([word, word]) == fingerprint(["gree" + "dy", "".join("greedy")])
    assert fingerprint({"a": 1, "b": 2}) == fingerprint({"b": 2, "a": 1})
    assert fingerprint(np.int64(3)) == fingerprint(np.int64(3))
    assert fingerprint([1]) != fingerprint((1,)) != fingerprint([True])
    assert fingerprint(AlwaysKeep()) == fingerprint(AlwaysKeep()) != fingerprint(AlwaysBank())


def test_an_express_checkpoint_resumes_from_equal_players_however_made(tmp_path: Path) -> None:
    import express

    path = tmp_path / "run.ckpt"
    first = express.tournament(["greedy", "random"], games=2, seed=4, checkpoint=path)
    resumed = express.tournament("greedy random".split(), games=2, seed=4, checkpoint=path)
    assert resumed == first
    with pytest.raises(CheckpointMismatch, match="'seed' differs"):
        express.tournament(["greedy", "random"], games=2, seed=5, checkpoint=path)


def test_an_express_checkpoint_is_shared_by_the_command_line_and_python(tmp_path: Path) -> None:
    """What ``express tournament --checkpoint`` wrote (in another process) Python resumes, and
    what Python wrote the command resumes: the fingerprint is of the arguments' values."""
    import express

    def command(path: Path) -> dict[str, Any]:
        done = subprocess.run(
            [sys.executable, "-m", "express", "tournament", "--players", "greedy,random"]
            + "--games 3 --seed 4 --workers 1 --json --checkpoint".split()
            + [str(path)],
            capture_output=True,
            text=True,
            env=os.environ | {"PYTHONHASHSEED": "12345"},  # another process, another hash seed
            check=False,
        )
        assert done.returncode == 0, done.stderr
        return dict(json.loads(done.stdout))

    by_command = tmp_path / "command.ckpt"
    written = command(by_command)
    resumed = express.tournament(["greedy", "random"], games=3, seed=4, checkpoint=by_command)
    assert resumed.to_dict()["policies"] == written["policies"]
    assert resumed.to_dict()["stats"] == written["stats"]

    by_python = tmp_path / "python.ckpt"
    first = express.tournament(["greedy", "random"], games=3, seed=4, checkpoint=by_python)
    assert command(by_python)["stats"] == first.to_dict()["stats"]
