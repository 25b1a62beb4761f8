"""Bad input to the ``packing`` command, called in-process through ``main(argv)``: exit status 2,
exactly one line on stderr quoting the input (or a JSON object with ``error`` on stdout under
``--json``), no traceback, nothing half-written; and the round trip of ``packing deck``. Ctrl-C
is checked on a real process."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import packing.table.registry as table_module
from packing import SAMPLE_DECK, Truck, load_deck, parse_deck
from packing.cli import main
from packing.table import OptimalTable, build_table, table_filename
from tests.cli import Done, Run, assert_usage_error

ROOT = Path(__file__).resolve().parents[2]
SMALL_DECK_TEXT = "a height 1\n###\n###\n\nb height 3\n##\n##\n"
SMALL_DECK = parse_deck(SMALL_DECK_TEXT)
PLAN = ["--roll", "3,2,3,0,1", "--truck", "#####/###../#####", "--height", "3"]


@pytest.fixture
def packing(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Iterator[Run]:
    """``packing ARGV`` in this process, with ``env`` set and in ``cwd``; every call starts with
    no table registered (as a fresh process would)."""

    def run(*argv: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> Done:
        with monkeypatch.context() as patch:
            patch.setattr(table_module, "_known", {})
            for name, value in (env or {}).items():
                patch.setenv(name, value)
            if cwd is not None:
                patch.chdir(cwd)
            code = main(list(argv))
        out, err = capsys.readouterr()
        return Done(code, out, err)

    yield run


def assert_error(result: Done, *quoted: str) -> str:
    """Exit 2, nothing on stdout, one ``packing: error:`` line quoting the input; the line."""
    return assert_usage_error(result, "packing", *quoted)


def assert_json_error(result: Done, *quoted: str) -> str:
    """Exit 2, nothing on stderr, a JSON object with an ``error`` quoting the input on stdout."""
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 2 and result.stderr == ""
    error = json.loads(result.stdout)["error"]
    assert isinstance(error, str) and "\n" not in error
    for text in quoted:
        assert text in error
    return error


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """An environment whose table folder is empty (tables built here stay here)."""
    return {"PACKING_TABLE_DIR": str(tmp_path / "tables")}


@pytest.fixture(scope="module")
def small_table() -> OptimalTable:
    return build_table(SMALL_DECK).table


# --- option values ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "quoted"),
    [
        (["best", "--roll", "-1,2,3,0,1"], "'-1,2,3,0,1'"),
        (["best", "--cargo", "1"], "'1'"),
        (["best", "--cargo", ""], "''"),
        (["best", "--cargo", ","], "','"),
        (["best", "--cargo", "1,2,3,4,5,6"], "'1,2,3,4,5,6'"),
        (["best", "--cargo", "-1,0,0,0,0"], "'-1,0,0,0,0'"),
        (["stats", "--samples", "0"], "'0'"),
        (["stats", "--samples", "-1"], "'-1'"),
        (["solve", *PLAN, "--time-limit", "-1"], "'-1'"),
        (["solve", *PLAN, "--time-limit", "0"], "'0'"),
        (["solve", *PLAN, "--time-limit", "nan"], "'nan'"),
        (["solve", *PLAN, "--time-limit", "inf"], "'inf'"),
        (["best", "--roll", "3,2,3,0,1", "--top", "0"], "'0'"),
        (["table", "build", "--workers", "-2"], "'-2'"),
    ],
)
def test_bad_option_values(argv: list[str], quoted: str, packing: Run) -> None:
    assert_error(packing(*argv), quoted, argv[-2])


@pytest.mark.parametrize(
    ("argv", "quoted"),
    [
        (["--revealed", "S03,S17,S03"], "'S03'"),
        (["--pile", "S01,S02,S01"], "'S01'"),
        (["--revealed", "S03,S17", "--pile", "S01,S17"], "'S17'"),
    ],
)
def test_grab_refuses_a_truck_named_twice(argv: list[str], quoted: str, packing: Run) -> None:
    assert_error(packing("grab", "--roll", "3,2,3,0,1", *argv), quoted)


def test_json_errors_go_to_stdout(packing: Run) -> None:
    assert_json_error(packing("best", "--roll", "9,9,9,9,9", "--json"), "'9,9,9,9,9'")
    assert_json_error(packing("stats", "--samples", "0", "--json"), "'0'")
    assert_json_error(packing("best", "--roll", "3,2,3,0,1", "--deck", "", "--json"), "deck ''")


# --- deck files -------------------------------------------------------------------------------


def _bad_deck(kind: str) -> bytes:
    if kind == "random":
        return bytes(random.Random(7).randrange(128, 256) for _ in range(400))
    if kind == "zeros":
        return bytes(400)
    if kind == "latin-1":
        return "é height 1\n###\n".encode("latin-1")
    return SMALL_DECK_TEXT.encode("utf-16")


@pytest.mark.parametrize("kind", ["random", "zeros", "latin-1", "utf-16"])
def test_binary_or_non_utf8_deck(tmp_path: Path, kind: str, packing: Run) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_bytes(_bad_deck(kind))
    assert_error(packing("best", "--roll", "3,2,3,0,1", "--deck", str(deck)), repr(str(deck)))


@pytest.mark.parametrize(
    "argv",
    [
        ["stats"],
        ["grab", "--roll", "3,2,3,0,1", "--revealed", "a"],
        ["table", "build"],
        pytest.param(["plot", "deck", "--out", "pictures"], marks=pytest.mark.extra("plot")),
        ["deck"],
    ],
)
def test_every_command_reading_a_deck_refuses_a_binary_one(
    tmp_path: Path, env: dict[str, str], argv: list[str], packing: Run
) -> None:
    deck = tmp_path / "deck.bin"
    deck.write_bytes(_bad_deck("random"))
    assert_error(packing(*argv, "--deck", str(deck), env=env, cwd=tmp_path), "'" + str(deck))
    assert not (tmp_path / "tables").exists() and not (tmp_path / "pictures").exists()


def test_binary_deck_under_json(tmp_path: Path, packing: Run) -> None:
    deck = tmp_path / "deck.bin"
    deck.write_bytes(_bad_deck("zeros"))
    assert_json_error(
        packing("best", "--roll", "3,2,3,0,1", "--deck", str(deck), "--json"), str(deck)
    )


def test_a_byte_order_mark_is_accepted(tmp_path: Path, packing: Run) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_bytes(b"\xef\xbb\xbf" + SMALL_DECK_TEXT.encode())
    assert load_deck(deck) == SMALL_DECK
    result = packing("best", "--roll", "3,2,3,0,1", "--deck", str(deck), "--json")
    assert result.returncode == 0
    assert [r["truck"] for r in json.loads(result.stdout)["ranking"]] == ["b", "a"]


# --- damaged tables ---------------------------------------------------------------------------


def _damage(path: Path, kind: str) -> None:
    data = path.read_bytes()
    damaged = {
        "truncated": data[: len(data) // 2],
        "empty": b"",
        "random": random.Random(3).randbytes(len(data)),
        "zeros": bytes(len(data)),
    }[kind]
    path.write_bytes(damaged)


DAMAGE = ["truncated", "empty", "random", "zeros"]


@pytest.mark.parametrize("kind", DAMAGE)
def test_a_damaged_table_names_the_file_and_the_rebuild(
    tmp_path: Path, env: dict[str, str], small_table: OptimalTable, kind: str, packing: Run
) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text(SMALL_DECK_TEXT)
    table = Path(env["PACKING_TABLE_DIR"]) / table_filename(SMALL_DECK)
    small_table.save(table)
    _damage(table, kind)
    line = assert_error(
        packing("stats", "--deck", str(deck), "--samples", "2", env=env),
        repr(str(table)),
        "damaged",
        f"packing table build --deck {deck}",
    )
    assert "pickle" not in line
    assert_json_error(
        packing("best", "--roll", "3,2,3,0,1", "--deck", str(deck), "--json", env=env),
        str(table),
        "damaged",
    )
    # The command it names rebuilds the table.
    rebuilt = packing("table", "build", "--deck", str(deck), "--workers", "1", env=env)
    assert rebuilt.returncode == 0 and "replacing" in rebuilt.stderr
    assert "1800 solved in this run" in rebuilt.stdout
    assert (
        OptimalTable.load(table, deck=SMALL_DECK).penalties.tolist()
        == small_table.penalties.tolist()
    )


@pytest.mark.parametrize("kind", DAMAGE)
def test_a_damaged_checkpoint_is_refused_as_a_tournaments_is_until_deleted(
    tmp_path: Path, kind: str, small_table: OptimalTable, packing: Run
) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text(SMALL_DECK_TEXT)
    out = tmp_path / "out"
    checkpoint = out / table_filename(SMALL_DECK).replace(".npz", ".partial.npz")
    small_table.save(checkpoint)
    _damage(checkpoint, kind)
    build = ("table", "build", "--deck", str(deck), "--out", str(out), "--workers", "1")
    result = packing(*build)
    assert result.returncode == 2 and result.stdout == ""
    assert_error(result, f"checkpoint {str(checkpoint)!r} is damaged", "delete it to build afresh")
    assert checkpoint.exists() and not (out / table_filename(SMALL_DECK)).exists()
    checkpoint.unlink()
    result = packing(*build)
    assert result.returncode == 0 and "Traceback" not in result.stderr
    rebuilt = OptimalTable.load(out / table_filename(SMALL_DECK), deck=SMALL_DECK)
    assert rebuilt.penalties.tolist() == small_table.penalties.tolist()


def test_rebuilding_a_current_table_says_so(
    tmp_path: Path, small_table: OptimalTable, packing: Run
) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text(SMALL_DECK_TEXT)
    table = small_table.save(tmp_path / table_filename(SMALL_DECK))
    before = table.stat().st_mtime_ns
    result = packing("table", "build", "--deck", str(deck), "--out", str(tmp_path))
    assert result.returncode == 0 and "complete and current" in result.stdout
    assert table.stat().st_mtime_ns == before
    data = json.loads(
        packing("table", "build", "--deck", str(deck), "--out", str(tmp_path), "--json").stdout
    )
    assert data["up_to_date"] is True and data["entries"] == 1800


# --- outputs that cannot be written -----------------------------------------------------------


@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    path = tmp_path / "a-file"
    path.write_text("not a folder\n")
    return path


def test_table_build_out_is_a_file(a_file: Path, packing: Run) -> None:
    assert_error(packing("table", "build", "--out", str(a_file)), repr(str(a_file)), "is a file")
    assert_error(packing("table", "build", "--out", str(a_file / "sub")), repr(str(a_file / "sub")))
    assert a_file.read_text() == "not a folder\n"


def test_table_build_out_is_a_folder_where_the_table_goes(tmp_path: Path, packing: Run) -> None:
    (tmp_path / table_filename(SAMPLE_DECK)).mkdir()
    assert_error(packing("table", "build", "--out", str(tmp_path)), "is a folder")


def test_stats_with_a_table_folder_under_a_file(tmp_path: Path, a_file: Path, packing: Run) -> None:
    """Fails before building: one line, no "building it once" note, nothing written."""
    deck = tmp_path / "deck.txt"
    deck.write_text(SMALL_DECK_TEXT)
    env = {"PACKING_TABLE_DIR": str(a_file / "tables")}
    assert_error(
        packing("stats", "--deck", str(deck), env=env),
        "PACKING_TABLE_DIR",
        repr(str(a_file / "tables")),
    )


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder nobody may write into: its permission bits say so, and for root (who writes
    through permission bits) the file system's immutable attribute too."""
    folder = tmp_path / "read-only"
    folder.mkdir(mode=0o555)
    if os.geteuid() != 0:
        yield folder
        return
    made = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"root, and chattr +i failed: {made.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def test_read_only_folder(read_only_folder: Path, packing: Run) -> None:
    folder = read_only_folder
    assert_error(
        packing("plot", "plan", *PLAN, "--out", str(folder / "plan.png")), "permission denied"
    )
    assert_error(packing("table", "build", "--out", str(folder)), "permission denied")


@pytest.mark.parametrize(
    ("out", "quoted"),
    [
        ("plan.jpg", "'plan.jpg'"),
        ("plan", "'plan'"),
        ("a-file/plan.png", "a-file/plan.png"),
        ("folder.png", "folder.png"),
    ],
)
def test_plot_plan_out(tmp_path: Path, a_file: Path, out: str, quoted: str, packing: Run) -> None:
    (tmp_path / "folder.png").mkdir()
    assert_error(packing("plot", "plan", *PLAN, "--out", out, cwd=tmp_path), quoted)
    assert not (tmp_path / "plan.jpg").exists() and not (tmp_path / "plan").exists()


def test_plot_deck_out_is_a_file(
    tmp_path: Path, a_file: Path, env: dict[str, str], packing: Run
) -> None:
    """Checked before the deck's missing table is built: no table folder appears."""
    deck = tmp_path / "deck.txt"
    deck.write_text(SMALL_DECK_TEXT)
    assert_error(
        packing("plot", "deck", "--deck", str(deck), "--out", str(a_file), env=env),
        repr(str(a_file)),
    )
    assert_error(
        packing("plot", "deck", "--deck", str(deck), "--out", str(a_file / "pics"), env=env),
        repr(str(a_file / "pics")),
    )
    assert not Path(env["PACKING_TABLE_DIR"]).exists()


# --- the limits of the game, and Ctrl-C ---------------------------------------------------------


def test_variants_are_accepted_and_labelled(tmp_path: Path, packing: Run) -> None:
    assert "variant" in packing("solve", "--help").stdout
    result = packing("solve", "--cargo", "0,0,0,0,2", "--truck", "######", "--height", "5")
    assert result.returncode == 0 and result.stdout.startswith("variant truck: 1×6 grid, height 5")
    deck = tmp_path / "deck.txt"
    deck.write_text("big height 6\n#####\n#####\n#####\n#####\n\nsmall height 1\n##\n")
    ranked = packing("best", "--roll", "3,2,3,0,1", "--deck", str(deck))
    lines = {
        line.split()[1]: line for line in ranked.stdout.splitlines() if line[:4].strip().isdigit()
    }
    assert lines["big"].endswith("(variant)") and "variant" not in lines["small"]
    data = json.loads(packing("best", "--roll", "3,2,3,0,1", "--deck", str(deck), "--json").stdout)
    assert {r["truck"]: r["variant"] for r in data["ranking"]} == {"big": True, "small": False}


def test_plurals_for_one(tmp_path: Path, packing: Run) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("only height 1\n###\n")
    assert "on 1 truck\n" in packing("best", "--roll", "3,2,3,0,1", "--deck", str(deck)).stdout
    grab = packing("grab", "--roll", "3,2,3,0,1", "--revealed", "S01", "--pile", "S02")
    assert "pile of 1 truck\n" in grab.stdout


def test_ctrl_c_is_one_line_and_exit_130(tmp_path: Path) -> None:
    """Interrupt a real build once it has saved work: one line naming the checkpoint, 130."""
    environment = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
    )
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "packing",
            "table",
            "build",
            "--out",
            str(tmp_path),
            "--workers",
            "1",
            "--force",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    checkpoint = tmp_path / table_filename(SAMPLE_DECK).replace(".npz", ".partial.npz")
    deadline = time.monotonic() + 240
    while not checkpoint.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert checkpoint.exists(), "the build saved no checkpoint to interrupt"
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130 and out == ""
    progress = [line for line in err.splitlines() if line.startswith("building table: ")]
    assert [line for line in err.splitlines() if line not in progress] == [
        f"packing: interrupted: finished work is saved in "
        f"{str(checkpoint)!r}; run the same command to resume"
    ]


# --- the main(argv) -> int contract, in process ------------------------------------------------


def test_main_returns_the_status_and_never_raises(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert main(["best", "--roll", "x"]) == 2
    assert main([]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("packing: error:") == 2


# --- packing deck: a round trip -----------------------------------------------------------------


def test_packing_deck_prints_the_sample_deck_loadably(tmp_path: Path, packing: Run) -> None:
    result = packing("deck")
    assert result.returncode == 0 and result.stdout.startswith("; ")
    assert "NOT the printed cards" in result.stdout
    assert parse_deck(result.stdout) == SAMPLE_DECK
    saved = tmp_path / "sample.txt"
    saved.write_text(result.stdout)
    again = packing("deck", "--deck", str(saved))
    assert parse_deck(again.stdout) == SAMPLE_DECK
    # Apart from the line naming the source, the output is a fixed point.
    assert again.stdout.splitlines()[1:] == result.stdout.splitlines()[1:]


def test_packing_deck_round_trips_a_deck_file(tmp_path: Path, packing: Run) -> None:
    deck = tmp_path / "mine.txt"
    deck.write_bytes(
        b"\xef\xbb\xbf; my cards\n\nwide height 6\n######\n.####.\n\nT2 height 2\n#.#\n"
    )
    result = packing("deck", "--deck", str(deck))
    assert result.returncode == 0
    loaded = parse_deck(result.stdout)
    assert loaded == load_deck(deck)
    assert loaded[0] == Truck.parse("######/.####.", height=6, name="wide")
    assert "; wide is a variant" in result.stdout


def test_table_of_a_damaged_file_never_unpickles(tmp_path: Path) -> None:
    """A table file holding a pickled object array is refused, not loaded."""
    path = tmp_path / "table.npz"
    np.savez(path, format=np.array(1), deck=np.array([object()], dtype=object))
    with pytest.raises(ValueError, match="damaged"):
        OptimalTable.load(path)


def test_decks_optimize_refuses_a_bad_checkpoint_before_printing_anything(
    tmp_path: Path, packing: Run
) -> None:
    garbage = tmp_path / "notes.txt"
    garbage.write_text("hello\n")
    base = ["decks", "optimize", "--objective", "balance", "--rounds", "1", "--workers", "1"]
    assert_error(packing(*base, "--checkpoint", str(garbage)), "is not a checkpoint file")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert_error(packing(*base, "--checkpoint", str(fifo)), repr(str(fifo)), "not a regular file")
    assert_error(packing(*base, "--checkpoint", "/dev/null"), "'/dev/null'", "not a regular file")
    same = tmp_path / "search.ckpt"
    spelled_otherwise = tmp_path / "sub" / ".." / "search.ckpt"
    (tmp_path / "sub").mkdir()
    assert_error(
        packing(*base, "--checkpoint", str(same), "--out", str(spelled_otherwise)),
        repr(str(spelled_otherwise)),
        "is the --checkpoint file",
    )
    assert not same.exists()


@pytest.mark.skipif(not os.path.exists("/proc/version"), reason="needs Linux's /proc")
def test_a_checkpoint_where_nothing_can_be_written_does_not_say_missing(packing: Run) -> None:
    line = assert_error(packing("tournament", "--checkpoint", "/proc/version"), "'/proc/version'")
    assert "No such file" not in line


def test_the_deck_decks_optimize_prints_is_a_deck_file(tmp_path: Path, packing: Run) -> None:
    empty = tmp_path / "made-by-mktemp"
    empty.write_bytes(b"")  # an empty file holds no work yet: it is accepted as a checkpoint
    argv = ["decks", "optimize", "--objective", "balance", "--rounds", "1", "--batch", "1"]
    result = packing(*argv, "--workers", "1", "--checkpoint", str(empty))
    assert result.returncode == 0, result.stderr
    printed = tmp_path / "printed.txt"
    printed.write_text(result.stdout)
    assert len(parse_deck(result.stdout)) == len(SAMPLE_DECK)
    assert load_deck(printed) == parse_deck(result.stdout)
    assert result.stdout.startswith("; ")


def test_decks_random_writes_nothing_when_a_later_file_cannot_be_written(
    tmp_path: Path, packing: Run
) -> None:
    blocked = tmp_path / "random-1-002.txt"
    blocked.mkdir()
    result = packing("decks", "random", "--count", "3", "--seed", "1", "--out", str(tmp_path))
    assert_error(result, repr(str(blocked)), "it is a folder")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["random-1-002.txt"]
