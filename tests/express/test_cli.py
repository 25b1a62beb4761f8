"""The command line: output, JSON, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from express import Train, best_train, deck_for
from express.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_best_prints_row_breakdown_and_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "best", "--length", "7")
    assert code == 0 and err == ""
    assert "engine > " in out and "score 56" in out and "optimal (proven)" in out and "states searched" in out


def test_best_json_matches_the_api(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "best", "--length", "6", "--players", "2", "--no-bonus", "--count", "--json")
    assert code == 0
    data = json.loads(out)
    expected = best_train(deck_for(2), 6, bonus=False, count_optimal=True)
    assert data["score"] == expected.score and data["count"] == expected.count and data["optimal"] is True
    assert Train.parse(data["train"]).value == data["value"] == data["score"]


def test_best_with_cards_start_and_caboose(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "best", "--length", "2", "--cards", "R4|G3,G3|G3,B2|B2", "--start", "R3|R3", "--caboose", "end of line",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["train"].startswith("R3|R3,") and data["caboose"] == "End of Line"
    assert data["caboose_points"] == 4 and data["train"] == "R3|R3,R4|G3,G3|G3" and data["score"] == 26
    # With a standard deck the start train's cards come out of the pool.
    code, out, _ = run(capsys, "best", "--length", "1", "--players", "2", "--start", "B4|G4", "--json")
    assert code == 0 and "B4|G4" not in json.loads(out)["plays"]


def test_best_from_a_deck_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("# my printed edition\nR4|B4, B4|G4\nG4|Y4\n", encoding="utf-8")
    code, out, _ = run(capsys, "best", "--length", "3", "--deck-file", str(deck), "--json")
    assert code == 0 and json.loads(out)["score"] == 24 + 2


def test_score_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    trains = ["--train", "R4|B4,B4|G4,G4|Y4,Y4|R4", "--train", "B2|B2,B2|B3,~R3|G3,Y3|B3", "--train", ""]
    code, out, _ = run(capsys, "score", *trains, "--start-player", "1", "--caboose", "Buried Alive")
    assert code == 0 and "winner: player 0 with 32" in out and "Buried Alive" in out
    code, out, _ = run(capsys, "score", *trains, "--json")
    data = json.loads(out)
    assert [p["total"] for p in data["players"]] == [32, 23, 0] and data["winner"] == 0
    assert data["trains"][2] == ""


def test_listings(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "cabooses", "--json")
    assert code == 0 and len(json.loads(out)) == 16
    code, out, _ = run(capsys, "deck")
    assert code == 0 and "inferred" in out and out.strip().endswith("32 cards")
    code, out, _ = run(capsys, "deck", "--players", "2", "--json")
    assert len(json.loads(out)) == 24


@pytest.mark.parametrize(
    ("argv", "quoted"),
    [
        (["best", "--length", "3", "--cards", "R4|B4,X4|G4,G3|G3"], "'X4'"),
        (["best", "--length", "3", "--cards", "R4|B4,B5|G4,G3|G3"], "'B5'"),
        (["best", "--length", "4", "--cards", "R4|B4,B4|G4,G3|G3"], "4"),
        (["best", "--length", "25", "--players", "2"], "25"),
        (["best", "--length", "3", "--players", "7"], "7"),
        (["best", "--length", "3", "--caboose", "Red Caboose"], "'Red Caboose'"),
        (["best", "--length", "three"], "'three'"),
        (["best", "--length", "3", "--start", "R3|G3,B2|B2"], "B2"),
        (["score", "--train", "R3|G3,B2|B2"], "'B2|B2'"),
        (["score", "--train", "R3|Q3"], "'Q3'"),
        (["score", "--train", "R3|G3", "--start-player", "4"], "4"),
        (["best", "--length", "3", "--deck-file", "/nonexistent/deck.txt"], "'/nonexistent/deck.txt'"),
    ],
)
def test_bad_input_is_one_line_quoting_it_with_status_2(argv: list[str], quoted: str) -> None:
    # A real process: checks the exit status, that stderr is one line, and that no traceback leaks.
    done = subprocess.run(
        [sys.executable, "-m", "express", *argv], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and quoted in lines[0] and "Traceback" not in done.stderr
