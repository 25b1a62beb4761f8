"""Long work on both command lines: --checkpoint resumes a tournament to the uninterrupted output
byte for byte, an interrupted tournament exits 130, worker counts are bounded, the shipped table
is not rebuilt."""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

import express.cli
import packing.cli
from arena.executors import MAX_WORKERS, usable_cores
from packing.table import SHIPPED_DIR

Main = Callable[[Sequence[str] | None], int]
COMMANDS: list[tuple[Main, str, tuple[str, ...]]] = [
    (packing.cli.main, "packing", ("tournament", "--players", "optimal,capacity", "--games", "6")),
    (express.cli.main, "express", ("tournament", "--players", "greedy,random", "--games", "6")),
]
IDS = ["packing", "express"]


def run(capsys: pytest.CaptureFixture[str], main: Main, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def stop_after(monkeypatch: pytest.MonkeyPatch, deals: int) -> None:
    """Ctrl-C (a KeyboardInterrupt) when the tournament starts its deal number ``deals + 1``,
    on either engine (the batched one playing a deal a batch)."""
    module = sys.modules["arena.tournament"]  # the module (arena.tournament is the function)
    left = [deals]

    def fragile(play: Callable[..., Any]) -> Callable[..., Any]:
        def play_or_stop(*args: Any) -> Any:
            if left[0] == 0:
                raise KeyboardInterrupt
            left[0] -= 1
            return play(*args)

        return play_or_stop

    monkeypatch.setattr(module, "_play_deal", fragile(module._play_deal))
    monkeypatch.setattr(module, "_play_block", fragile(module._play_block))
    monkeypatch.setattr(module, "BATCH_DEALS", 1)


@pytest.mark.parametrize("engine", ["auto", "scalar"])
@pytest.mark.parametrize("output", [(), ("--json",)], ids=["text", "json"])
@pytest.mark.parametrize("command", COMMANDS, ids=IDS)
def test_an_interrupted_tournament_resumes_to_the_uninterrupted_output(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    command: tuple[Main, str, tuple[str, ...]],
    output: tuple[str, ...],
    engine: str,
) -> None:
    main, prog, words = command
    words = (*words, "--seed", "5", "--workers", "1", "--engine", engine, *output)
    code, whole, err = run(capsys, main, *words)
    assert code == 0, err
    checkpoint = os.fspath(tmp_path / "deals.ckpt")
    rng = random.Random(len(output))
    with monkeypatch.context() as patch:
        stop_after(patch, rng.randrange(1, 5))
        code, out, err = run(capsys, main, *words, "--checkpoint", checkpoint)
    assert code == 130 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"{prog}: interrupted: ")
    assert "of 6 deals completed" in err and repr(checkpoint) in err
    with monkeypatch.context() as patch:
        stop_after(patch, 1)  # one more deal, then Ctrl-C again
        assert run(capsys, main, *words, "--checkpoint", checkpoint)[0] == 130
    code, resumed, err = run(capsys, main, *words, "--checkpoint", checkpoint)
    assert code == 0, err
    assert resumed == whole


@pytest.mark.parametrize("engine", ["auto", "scalar"])
@pytest.mark.parametrize("command", COMMANDS, ids=IDS)
def test_an_interrupted_tournament_without_checkpoint_exits_130(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: tuple[Main, str, tuple[str, ...]],
    engine: str,
) -> None:
    main, prog, words = command
    stop_after(monkeypatch, 2)
    code, out, err = run(capsys, main, *words, "--workers", "1", "--engine", engine)
    assert code == 130 and out == ""
    assert (
        err
        == f"{prog}: interrupted: 2 of 6 deals completed (--checkpoint FILE keeps them for a rerun)\n"
    )


@pytest.mark.parametrize("command", COMMANDS, ids=IDS)
def test_a_checkpoint_of_other_arguments_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: tuple[Main, str, tuple[str, ...]]
) -> None:
    main, prog, words = command
    checkpoint = os.fspath(tmp_path / "deals.ckpt")
    assert run(capsys, main, *words, "--workers", "1", "--checkpoint", checkpoint)[0] == 0
    code, out, err = run(capsys, main, *words, "--seed", "9", "--checkpoint", checkpoint)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert repr(checkpoint) in err and "other arguments" in err
    code, out, _ = run(capsys, main, *words, "--seed", "9", "--checkpoint", checkpoint, "--json")
    assert code == 2 and "other arguments" in json.loads(out)["error"]
    code, _, err = run(capsys, main, *words, "--checkpoint", os.fspath(tmp_path))
    assert code == 2 and "it is a folder" in err and err.count("\n") == 1


@pytest.mark.parametrize("command", COMMANDS, ids=IDS)
def test_a_checkpoint_that_cannot_be_written_is_refused_before_any_deal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: tuple[Main, str, tuple[str, ...]]
) -> None:
    main, prog, words = command
    places = [("", "''"), (os.fspath(tmp_path / "missing" / "deals.ckpt"), "no folder")]
    if Path("/proc/self").is_dir():  # root passes every permission check there; writing fails
        places.append(("/proc/deals.ckpt", "'/proc/deals.ckpt'"))
    for place, said in places:
        code, out, err = run(capsys, main, *words, "--checkpoint", place)
        assert code == 2 and out == "" and err.count("\n") == 1, (place, err)
        assert err.startswith(f"{prog}: error: argument --checkpoint: ") and said in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", COMMANDS, ids=IDS)
def test_simulations_are_bounded_on_both_sides_whatever_the_bots(
    capsys: pytest.CaptureFixture[str], command: tuple[Main, str, tuple[str, ...]]
) -> None:
    main, prog, words = command
    for value, said in (("1", "at least 2"), ("0", "at least 1"), ("100001", "at most 100,000")):
        code, out, err = run(capsys, main, *words, "--simulations", value)
        assert code == 2 and out == "" and err.count("\n") == 1, (value, err)
        assert f"{prog}: error: argument --simulations: invalid value '{value}'" in err
        assert said in err, err


@pytest.mark.parametrize("command", COMMANDS, ids=IDS)
def test_worker_counts_are_bounded_and_default_to_the_usable_cores(
    capsys: pytest.CaptureFixture[str], command: tuple[Main, str, tuple[str, ...]]
) -> None:
    main, _, words = command
    code, out, err = run(capsys, main, *words, "--workers", "100000")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "'100000'" in err and f"at most {MAX_WORKERS}" in err
    code, out, _ = run(capsys, main, words[0], "--help")
    assert code == 0 and f"the usable cores, {usable_cores()} here" in " ".join(out.split())


@pytest.mark.parametrize(
    "words",
    [
        ("table", "build"),
        ("decks", "compare", "a.txt"),
        ("decks", "optimize", "--objective", "coverage"),
    ],
)
def test_packing_long_commands_bound_their_workers(
    capsys: pytest.CaptureFixture[str], words: tuple[str, ...]
) -> None:
    code, _, err = run(capsys, packing.cli.main, *words, "--workers", str(MAX_WORKERS + 1))
    assert code == 2 and f"'{MAX_WORKERS + 1}'" in err and err.count("\n") == 1


def test_table_build_without_a_deck_says_the_sample_table_ships(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PACKING_TABLE_DIR", os.fspath(tmp_path / "tables"))
    code, out, err = run(capsys, packing.cli.main, "table", "build")
    assert code == 0 and err == ""
    assert "ships with the library" in out and os.fspath(SHIPPED_DIR) in out and "--force" in out
    code, out, _ = run(capsys, packing.cli.main, "table", "build", "--json")
    data = json.loads(out)
    assert code == 0 and data["shipped"] is True and Path(data["path"]).is_file()
    assert not (tmp_path / "tables").exists()  # nothing built, nothing written
