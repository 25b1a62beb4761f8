"""The command line: output, JSON, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from express import DECK, Train, best_train, deck_for, load_deck, parse_deck
from express.cli import EXIT_INTERRUPTED, main
from tests.cli import Done, Run

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_best_prints_row_breakdown_and_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "best", "--length", "7")
    assert code == 0 and err == ""
    assert (
        "engine > " in out
        and "score 56" in out
        and "optimal (proven)" in out
        and "states searched" in out
    )


def test_best_json_matches_the_api(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "best", "--length", "6", "--players", "2", "--no-bonus", "--count", "--json"
    )
    assert code == 0
    data = json.loads(out)
    expected = best_train(deck_for(2), 6, bonus=False, count_optimal=True)
    assert (
        data["score"] == expected.score
        and data["count"] == expected.count
        and data["optimal"] is True
    )
    assert Train.parse(data["train"]).value == data["value"] == data["score"]


def test_best_with_cards_start_and_caboose(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "best",
        "--length",
        "2",
        "--cards",
        "R3|R3,R4|G3,G3|G3,B2|B2",
        "--start",
        "R3|R3",
        "--caboose",
        "end of line",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["train"].startswith("R3|R3,") and data["caboose"] == "End of Line"
    assert (
        data["caboose_points"] == 4 and data["train"] == "R3|R3,R4|G3,G3|G3" and data["score"] == 26
    )
    # Whatever the deck, the start train's cards come out of it: the pool is the cards left.
    code, out, _ = run(
        capsys, "best", "--length", "1", "--players", "2", "--start", "B4|G4", "--json"
    )
    assert code == 0 and "B4|G4" not in json.loads(out)["plays"]
    code, out, _ = run(
        capsys, "best", "--length", "1", "--cards", "B4|G4,R3|G3", "--start", "B4|G4", "--json"
    )
    assert code == 0 and json.loads(out)["plays"] == ["~R3|G3"]  # B4|G4 is not in the pool


def test_best_from_a_deck_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("; my printed edition\nR4|B4, B4|G4\nG4|Y4\n", encoding="utf-8")
    code, out, err = run(capsys, "best", "--length", "3", "--deck", str(deck), "--json")
    assert code == 0 and json.loads(out)["score"] == 24 + 2 and err == ""


def test_score_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    trains = [
        "--train",
        "R4|B4,B4|G4,G4|Y4,Y4|R4",
        "--train",
        "B2|B2,B2|B3,~R3|G3,Y3|B3",
        "--train",
        "",
    ]
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
    assert (
        code == 0
        and "inferred" in out
        and out.startswith("; Yardmaster Express, the full deck: 32 cards")
    )
    code, out, _ = run(capsys, "deck", "--players", "2", "--json")
    assert len(json.loads(out)) == 24


def test_main_returns_the_exit_status_instead_of_exiting(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["deck", "--players", "2"]) == 0
    assert main(["best", "--length", "three"]) == 2
    assert main(["best"]) == 2
    assert main(["--help"]) == 0
    _, err = capsys.readouterr()
    assert err.splitlines() == [
        "express: error: argument --length: invalid value 'three': a whole number is needed",
        "express: error: the following arguments are required: --length",
    ]


@pytest.mark.parametrize("players", [None, 2, 4])
def test_deck_prints_a_deck_file_that_loads_back(
    players: int | None, tmp_path: Path, express: Run
) -> None:
    option = [] if players is None else ["--players", str(players)]
    deck = DECK if players is None else deck_for(players)
    printed = express("deck", *option)
    assert printed.returncode == 0 and printed.stderr == ""
    assert parse_deck(printed.stdout) == deck  # same cards, same order
    assert printed.stdout.startswith(";") and "inferred" in printed.stdout
    path = tmp_path / "deck.txt"
    path.write_text(printed.stdout, encoding="utf-8")
    assert load_deck(path) == deck
    # The file, read back by the command line, is the deck it was printed from.
    from_file = express("best", "--length", "6", "--deck", str(path), "--start", "R4|B4", "--json")
    from_deck = express("best", "--length", "6", *option, "--start", "R4|B4", "--json")
    assert from_file.returncode == from_deck.returncode == 0, from_file.stderr
    keys = ("train", "score", "nodes")
    assert [json.loads(from_file.stdout)[k] for k in keys] == [
        json.loads(from_deck.stdout)[k] for k in keys
    ]


def test_deck_file_with_a_byte_order_mark_is_read(tmp_path: Path, express: Run) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes("\ufeffR4|B4 ; first\r\nB4|G4\r\n".encode())
    done = express("best", "--length", "2", "--deck", str(path), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["train"] == "R4|B4,B4|G4"


def test_start_takes_the_cards_out_of_the_deck_file_too(tmp_path: Path, express: Run) -> None:
    path = tmp_path / "deck.txt"
    path.write_text("R4|B4\nB4|G4\nG4|Y4\n", encoding="utf-8")
    done = express("best", "--length", "2", "--deck", str(path), "--start", "R4|B4", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["plays"] == ["B4|G4", "G4|Y4"] and data["train"] == "R4|B4,B4|G4,G4|Y4"


def bad_deck_files(folder: Path) -> dict[str, Path]:
    """Deck files a command must refuse in one line: name -> path."""
    files = {
        "zeros": b"\0" * 4096,
        "random": bytes(range(256)) * 8,
        "latin1": "R4|B4 ; caf\xe9\n".encode("latin-1"),
        "empty": b"",
        "comments": b"; only a comment\n",
        "bad-card": b"R4|B4\nR4|Q4\n",
        "hash-comment": b"# old style comment\nR4|B4\n",
        "count-line": b"2 x B2|B2\n",
        "huge-token": b"R" * 100_000,
    }
    paths = {}
    for name, data in files.items():
        path = folder / f"{name}.txt"
        path.write_bytes(data)
        paths[name] = path
    paths["too-large"] = folder / "too-large.txt"
    paths["too-large"].write_bytes(b"R4|B4\n" * 200_000)
    paths["folder"] = folder
    paths["missing"] = folder / "missing.txt"
    return paths


BAD_DECK_REASONS = {
    "zeros": "binary",
    "random": "binary",
    "latin1": "not UTF-8 text (byte 0xe9",
    "empty": "holds no card",
    "comments": "holds no card",
    "bad-card": "line 2: invalid car: 'Q4'",
    "hash-comment": "comments in deck text start with ';'",
    "count-line": "line 1: invalid card: '2' (a deck lists each copy of a card again",
    "huge-token": "invalid card: 'RRRRRRRRRRRRRRRRRRRRRRRR'...",
    "too-large": "larger than 1,000,000 bytes",
    "folder": "cannot read deck file",
    "missing": "cannot read deck file",
}


BAD_ARGUMENTS = [
    (["best", "--length", "3", "--cards", "R4|B4,X4|G4,G3|G3"], "'X4'"),
    (["best", "--length", "3", "--cards", "R4|B4,B5|G4,G3|G3"], "'B5'"),
    (["best", "--length", "4", "--cards", "R4|B4,B4|G4,G3|G3"], "4"),
    (["best", "--length", "25", "--players", "2"], "25"),
    (["best", "--length", "3", "--players", "7"], "7"),
    (["best", "--length", "3", "--caboose", "Red Caboose"], "'Red Caboose'"),
    (["best", "--length", "three"], "'three'"),
    (["best", "--length", "3", "--start", "R3|G3,B2|B2"], "B2"),
    (["best", "--length", "3", "--start", "R3|R3"], "card not in the deck: 'R3|R3'"),
    (["best", "--length", "3", "--start", "R4|B4,B4|R4", "--players", "2"], "'B4|R4'"),
    (
        ["best", "--length", "3", "--cards", "R4|B4,B4|G4", "--start", "R4|B4,~R4|B4"],
        "'R4|B4' (2 used",
    ),
    (["best", "--length", "3", "--time-limit", "-1"], "'-1'"),
    (["best", "--length", "3", "--time-limit", "0"], "'0'"),
    (["best", "--length", "3", "--time-limit", "nan"], "'nan'"),
    (["best", "--length", "3", "--time-limit", "inf"], "'inf'"),
    (["best", "--length", "3", "--time-limit", "soon"], "'soon'"),
    (["best", "--length", "3", "--time-limit", "-1e-3"], "'-1e-3'"),
    (["best", "--length", "3", "--start", "-R3"], "'-R3'"),
    (["best", "--length", "3", "--node-limit", "-1"], "'-1'"),
    (["best", "--length", "3", "--node-limit", "0"], "'0'"),
    (["best", "--length", "3", "--node-limit", "nan"], "'nan'"),
    (["best", "--length", "3", "--node-limit", "2.5"], "'2.5'"),
    (["score", "--train", "R3|G3,B2|B2"], "'B2|B2'"),
    (["score", "--train", "R3|Q3"], "'Q3'"),
    (["score", "--train", "R3|G3", "--train", "", "--start-player", "4"], "4"),
    (["score", *(["--train", ""] * 6)], "too many trains: 6"),
    (["score", "--train", "R4|B4", "--train", "~R4|B4"], "'R4|B4' (2 used, the deck holds 1)"),
    (
        ["score", "--train", "B2|B2,B2|B2", "--train", "B2|B2", "--train", ""],
        "'B2|B2' (3 used, the deck holds 2)",
    ),
    (["score", "--train", "P4|P4", "--train", ""], "'P4|P4' (checked against the 2-player deck"),
    (["score", "--train", "R4|B4", "--train", "", "--cards", "B4|G4"], "'R4|B4'"),
    (["best", "--length", "3", "--deck", "/nonexistent/deck.txt"], "'/nonexistent/deck.txt'"),
    (["deck", "--players", "6"], "6"),
]


def assert_one_line_error(done: Done, quoted: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert done.stdout == "" and "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("express: error: ") and quoted in lines[0], lines


def assert_json_error(done: Done, quoted: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert done.stderr == ""
    data = json.loads(done.stdout)
    assert set(data) == {"error"} and quoted in data["error"]


@pytest.mark.parametrize(("argv", "quoted"), BAD_ARGUMENTS)
def test_bad_input_is_one_line_quoting_it_with_status_2(
    argv: list[str], quoted: str, express: Run
) -> None:
    assert_one_line_error(express(*argv), quoted)


@pytest.mark.parametrize(("argv", "quoted"), BAD_ARGUMENTS)
def test_bad_input_under_json_is_a_json_error_with_status_2(
    argv: list[str], quoted: str, express: Run
) -> None:
    assert_json_error(express(*argv, "--json"), quoted)


BAD_DECK_CASES = [("best", name) for name in sorted(BAD_DECK_REASONS)] + [
    ("score", name) for name in ("zeros", "latin1", "bad-card", "missing")
]


@pytest.mark.parametrize(("command", "name"), BAD_DECK_CASES)
def test_bad_deck_files_are_one_line_naming_the_file(
    command: str, name: str, tmp_path: Path, express: Run
) -> None:
    path = bad_deck_files(tmp_path)[name]
    argv = (
        ["best", "--length", "1"] if command == "best" else ["score", "--train", "", "--train", ""]
    )
    done = express(*argv, "--deck", str(path))
    assert_one_line_error(done, BAD_DECK_REASONS[name])
    assert repr(str(path)) in done.stderr
    assert len(done.stderr) < 300  # a damaged file is quoted by its name, not dumped
    assert_json_error(express(*argv, "--deck", str(path), "--json"), BAD_DECK_REASONS[name])


def _cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process, from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="reads a process's CPU time from /proc"
)
def test_ctrl_c_is_one_line_and_status_130() -> None:
    # A search that runs for minutes (counting every optimal train); the time limit only keeps
    # a broken test from hanging.
    argv = ["best", "--length", "12", "--no-bonus", "--count", "--time-limit", "120"]
    child = subprocess.Popen(
        [sys.executable, "-m", "express", *argv],
        cwd=ROOT,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        # Interrupt once the child is searching: importing the package takes far less CPU than this.
        deadline = time.monotonic() + 60
        while (
            _cpu_seconds(child.pid) < 1.5 and child.poll() is None and time.monotonic() < deadline
        ):
            time.sleep(0.05)
        assert child.poll() is None, "the search ended before it could be interrupted"
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == EXIT_INTERRUPTED
    # On a loaded machine the search may have shown its progress lines before the interrupt.
    lines = [line for line in err.splitlines() if not line.startswith("best train: ")]
    assert out == "" and lines == ["express: interrupted"]
