"""Long packing answers show their progress on stderr (arena.progress) and print the same
answer: ``packing best`` and ``grab`` the trucks solved (a deck without a table), ``packing
stats`` the heuristic's revealed sets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import arena.progress
from packing import Cargo, load_deck
from packing.cli import main
from packing.queries import best_truck

TRUCKS = 6


@pytest.fixture
def deck(tmp_path: Path) -> Path:
    """A deck no table knows: every truck is solved."""
    path = tmp_path / "deck.txt"
    path.write_text(
        "\n".join(
            f"t{i} height {1 + i % 2}\n{'#' * (3 + i)}\n{'#' * (2 + i)}.\n" for i in range(TRUCKS)
        )
    )
    return path


def quiet_then_shown(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str
) -> tuple[str, str]:
    """The command's stdout with the progress rule's delay (quick: nothing on stderr), then
    its stdout and stderr with no delay (every bit of work shows); both stdouts must match."""
    assert main(list(argv)) == 0
    quiet, err = capsys.readouterr()
    assert err == ""
    with monkeypatch.context() as patch:
        patch.setattr(arena.progress, "DELAY", 0.0)
        assert main(list(argv)) == 0
    out, err = capsys.readouterr()
    assert out == quiet
    return out, err


def test_best_shows_the_trucks_solved(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, deck: Path
) -> None:
    _, err = quiet_then_shown(
        capsys, monkeypatch, "best", "--roll", "1,1,0,0,0", "--deck", str(deck)
    )
    lines = err.splitlines()
    assert lines and all(line.startswith("solving trucks: ") for line in lines)
    # Ranked, then solved again for the blind draw: each time up to all of them.
    assert (
        sum(line.startswith(f"solving trucks: {TRUCKS}/{TRUCKS} trucks (100%)") for line in lines)
        == 2
    )
    _, err = quiet_then_shown(
        capsys, monkeypatch, "best", "--roll", "1,1,0,0,0", "--deck", str(deck), "--top", "2"
    )
    assert re.search(r"solving trucks: \d+ trucks, \d+ s elapsed", err)  # top: no total known


def test_grab_shows_the_trucks_solved(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, deck: Path
) -> None:
    out, err = quiet_then_shown(
        capsys,
        monkeypatch,
        "grab",
        "--roll",
        "1,1,0,0,0",
        "--deck",
        str(deck),
        "--revealed",
        "t0,t1",
    )
    assert "best choice:" in out
    lines = err.splitlines()
    assert "solving trucks: 2/2 trucks (100%)" in err  # the revealed ones
    assert f"solving trucks: {TRUCKS - 2}/{TRUCKS - 2} trucks (100%)" in err  # the pile
    assert all(line.startswith("solving trucks: ") for line in lines)


def test_stats_shows_the_revealed_sets(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, err = quiet_then_shown(capsys, monkeypatch, "stats", "--samples", "7")
    lines = err.splitlines()
    total = 1 + 7 + 7  # the whole deck open, then 4 and 6 revealed, 7 sets each
    assert lines and all(line.startswith("heuristic loss: ") for line in lines)
    assert lines[-1].startswith(f"heuristic loss: {total}/{total} revealed sets (100%)")


def test_the_library_shows_progress_only_when_asked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, deck: Path
) -> None:
    monkeypatch.setattr(arena.progress, "DELAY", 0.0)
    trucks, cargo = load_deck(str(deck)), Cargo.from_roll([1, 1, 0, 0, 0])
    quiet = best_truck(cargo, trucks)
    assert capsys.readouterr().err == ""
    shown = best_truck(cargo, trucks, progress=True)
    assert capsys.readouterr().err.startswith("solving trucks: 1/6 trucks")
    assert [(p.truck, p.penalty) for p in shown] == [(p.truck, p.penalty) for p in quiet]
