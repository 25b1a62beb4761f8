"""What a careless or hostile new user tried on the ``packing`` command and the library: each
gives one line quoting the input and status 2, an answer at a cost in proportion to the work,
or a documented limit — never a traceback, a hang or silently accepted nonsense.

Commands are called in-process through ``main(argv)``.
"""

from __future__ import annotations

import importlib
import json
import math
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

import packing.deck as deck_module
import packing.table.registry as table_module
from packing import (
    SAMPLE_DECK,
    Cargo,
    PackingError,
    Strategy,
    Truck,
    load_deck,
    parse_deck,
    save_deck,
)
from packing.cli import main
from packing.deck import LARGEST_DECK_FILE, format_deck
from packing.design import DesignError, optimize
from packing.errors import DeckError, ParseError
from packing.game import play_game
from packing.model import LARGEST_HEIGHT, LARGEST_SIDE, Engine, LoadPlan, Placement, Status
from packing.render import labels
from packing.solver import LARGEST_MODEL, model_size, solve
from packing.table import find_table
from packing.verify import verify
from tests.cli import Done, Run, assert_usage_error

#: A variant truck far beyond the cards whose capacity (45,000) passes int16's 32,767.
WIDE_MASK = "/".join(["#" * 30] * 30)
WIDE_DECK_TEXT = "V1 height 50\n" + "\n".join(["#" * 30] * 30) + "\n"


@pytest.fixture
def packing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[Run]:
    """``packing ARGV`` in this process, with an empty table folder of its own."""
    monkeypatch.setenv("PACKING_TABLE_DIR", str(tmp_path / "tables"))

    def run(*argv: str) -> Done:
        with monkeypatch.context() as patch:
            patch.setattr(table_module, "_known", {})
            code = main(list(argv))
        out, err = capsys.readouterr()
        return Done(code, out, err)

    yield run


def assert_error(result: Done, *quoted: str) -> str:
    """Exit 2, nothing on stdout, one ``packing: error:`` line quoting the input; the line."""
    return assert_usage_error(result, "packing", *quoted)


# --- crashes: a variant truck's capacity past int16 -------------------------------------------


def test_a_capacity_past_int16_gives_stats_and_comparisons(packing: Run, tmp_path: Path) -> None:
    deck = tmp_path / "wide.txt"
    deck.write_text(WIDE_DECK_TEXT, encoding="utf-8")
    done = packing("stats", "--deck", str(deck), "--json")
    assert done.returncode == 0, done.stderr
    truck = json.loads(done.stdout)["trucks"][0]
    # Every roll leaves most of the 45,000 cubes empty: the penalty is past int16's range.
    assert truck["expected_penalty"] > 32_767
    table = find_table(load_deck(deck))  # the one stats built into the folder
    assert table is not None
    roll = Cargo.from_roll([3, 2, 3, 0, 1])
    assert table.penalty(roll, 0) == 45_000 - roll.volume
    done = packing("decks", "compare", str(deck), "--workers", "1")
    assert done.returncode == 0 and "44991.00" in done.stdout, done.stderr


# --- runaway resources: limits that quote the value -------------------------------------------


def test_a_height_past_the_limit_is_refused_quoting_it(packing: Run) -> None:
    assert_error(
        packing("solve", "--roll", "3,2,3,0,1", "--truck", "#####", "--height", "10000000"),
        "10000000",
        f"{LARGEST_HEIGHT:,}",
    )
    with pytest.raises(ParseError, match="10000000"):
        Truck.parse("#####", height=10_000_000)


def test_a_tall_trucks_picture_grows_with_its_load_not_its_height() -> None:
    truck = Truck.parse("#####", height=LARGEST_HEIGHT)
    picture = solve(Cargo({1: 2}), truck).render()
    assert f"levels 1-{LARGEST_HEIGHT - 1}: empty" in picture
    assert "level 1 " not in picture and len(picture) < 400


def test_a_long_row_is_refused_past_the_limit_and_the_longest_row_solves(packing: Run) -> None:
    assert_error(
        packing("solve", "--roll", "3,2,3,0,1", "--truck", "#" * 100_000, "--height", "1"),
        "100,000 columns",
        f"{LARGEST_SIDE:,}",
    )
    row = Truck.parse("#" * LARGEST_SIDE, height=1)
    plan = verify(solve(Cargo({5: 20}), row))
    assert plan.optimal and plan.loaded == 100


def test_a_deck_file_past_the_size_limit_is_refused_quoting_the_path(
    packing: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert LARGEST_DECK_FILE >= 1_000_000
    monkeypatch.setattr(deck_module, "LARGEST_DECK_FILE", 2_000)
    big = tmp_path / "big.txt"
    big.write_text(format_deck(SAMPLE_DECK) * 5, encoding="utf-8")
    assert_error(packing("deck", "--deck", str(big)), repr(str(big)), "2,000 bytes")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero on this system")
def test_a_deck_read_from_dev_zero_is_refused(packing: Run) -> None:
    assert_error(packing("deck", "--deck", "/dev/zero"), "'/dev/zero'", "bytes")


def test_a_large_cargo_that_plainly_fits_a_large_truck_is_answered_by_the_search() -> None:
    truck = Truck.parse(WIDE_MASK, height=50)
    for cargo in (Cargo({5: 520}), Cargo({1: 2_600}), Cargo((200, 200, 200, 100, 100))):
        plan = verify(solve(cargo, truck))
        assert plan.optimal and plan.loaded == cargo.volume
        assert plan.engine is Engine.BOUND  # no CP-SAT model of ~600,000 Booleans


def test_a_model_past_the_limit_is_refused_or_cut_short_by_a_time_limit() -> None:
    # Rods of 2 only, on a 41x41 floor of height 59 with two corner cells cut off by holes:
    # each cut-off column holds upright rods only, 58 of its 59 cubes, so no loading reaches
    # the bound (the odd capacity less one). Without the residue bound the search hands over,
    # and the exact model would be far past the limit.
    rows = [["#"] * 41 for _ in range(41)]
    for x, y in ((1, 0), (0, 1), (39, 40), (40, 39)):
        rows[y][x] = "."
    truck = Truck.parse("/".join("".join(row) for row in rows), height=59)
    cargo = Cargo({2: 50_000})
    assert model_size(cargo, truck) > LARGEST_MODEL
    no_residues = Strategy(residue_work=0.0)
    with pytest.raises(PackingError, match=f"{LARGEST_MODEL:,}"):
        solve(cargo, truck, strategy=no_residues)
    plan = verify(solve(cargo, truck, time_limit=60, strategy=no_residues))
    assert plan.status is Status.FEASIBLE and plan.bound == truck.capacity - 1
    assert 0 < plan.loaded <= truck.capacity - 3  # two cubes lost, and an even load
    # The residue bound (here the checkerboard of x + y + z: the rest of the floor has three
    # more cubes of one colour than of the other, and a 2-rod covers one of each) proves 5
    # cubes lost, and the search then meets it: no model.
    proven = verify(solve(cargo, truck))
    assert proven.optimal and proven.engine is Engine.BOUND
    assert proven.loaded == truck.capacity - 5


# --- broken promises: --out checked before the work -------------------------------------------


#: The commands whose --out is written after long work, each with what it needs but --out
#: (DECK: a small deck's file).
OUT_COMMANDS = [
    ["decks", "optimize", "--objective", "balance", "--rounds", "1"],
    ["decks", "compare", "DECK"],
    ["table", "build", "--deck", "DECK"],
    ["decks", "random", "--count", "1", "--seed", "1"],
    ["plot", "deck", "--deck", "DECK"],
]


def deck_and_no_work(tmp_path: Path, argv: list[str], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``argv`` with DECK a small deck's file in ``tmp_path``, and every command's work made to
    fail the test: nothing may start before the check."""
    deck = tmp_path / "deck.txt"
    deck.write_text("a height 1\n###\n###\n\nb height 3\n##\n##\n", encoding="utf-8")
    for work in (
        "packing.cli.design.compare",
        "packing.cli.design.optimize",
        "packing.cli.tables.build_table_file",
        "packing.cli.pictures.table_for",
        "packing.cli.pictures.best_truck",
    ):
        monkeypatch.setattr(work, _no_work)
    return [str(deck) if word == "DECK" else word for word in argv]


@pytest.mark.parametrize("argv", OUT_COMMANDS)
def test_an_unwritable_or_empty_out_fails_before_any_work(
    packing: Run, tmp_path: Path, argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = deck_and_no_work(tmp_path, argv, monkeypatch)
    deck = tmp_path / "deck.txt"
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    suffix = ".png" if argv[:2] in (["decks", "compare"], ["plot", "deck"]) else ".txt"
    if argv[0] == "plot" or argv[:2] == ["decks", "random"] or argv[0] == "table":
        suffix = ""
    assert_error(packing(*argv, "--out", str(blocker / f"out{suffix}")), repr(str(blocker)))
    assert_error(packing(*argv, "--out", ""), "''")
    assert list(tmp_path.iterdir()) == [deck, blocker] or sorted(tmp_path.iterdir()) == sorted(
        [deck, blocker, tmp_path / "tables"]
    )


@pytest.mark.parametrize(
    "argv",
    [*OUT_COMMANDS, ["plot", "plan", "--roll", "3,2,3,0,1", "--truck", "###", "--height", "1"]],
)
def test_an_out_where_nothing_can_be_written_fails_before_any_work(
    packing: Run, tmp_path: Path, argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # /proc lets root pass every permission check, yet takes no new file: only writing tells.
    if not Path("/proc/self").is_dir():
        pytest.skip("needs Linux's /proc")
    argv = deck_and_no_work(tmp_path, argv, monkeypatch)
    suffix = ".svg" if argv[0] == "plot" and argv[1] == "plan" else ""
    if argv[:2] == ["decks", "compare"]:
        suffix = ".png"
    elif argv[:2] == ["decks", "optimize"]:
        suffix = ".txt"
    assert_error(packing(*argv, "--out", f"/proc/tabletop-check{suffix}"), "'/proc")


@pytest.mark.parametrize(
    "argv",
    [
        ["decks", "optimize", "--objective", "balance", "--rounds", "1"],
        ["decks", "optimize", "--objective", "balance", "--rounds", "1", "--checkpoint", "OUT"],
    ],
)
def test_a_file_out_in_a_missing_folder_fails_before_any_work(
    packing: Run, tmp_path: Path, argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A deck file and a checkpoint are written into an existing folder (pictures make theirs).
    monkeypatch.setattr("packing.cli.design.optimize", _no_work)
    out = tmp_path / "missing" / "out.txt"
    if "OUT" in argv:
        argv = [str(out) if word == "OUT" else word for word in argv]
    else:
        argv = [*argv, "--out", str(out)]
    assert_error(packing(*argv), repr(str(out)), "no folder")
    assert list(tmp_path.iterdir()) == []  # no folder made, nothing written


def _no_work(*args: object, **kwargs: object) -> None:
    raise AssertionError("the work started before --out was checked")


def test_decks_compare_checks_the_pictures_suffix_first(
    packing: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("packing.cli.design.compare", _no_work)
    deck = tmp_path / "deck.txt"
    deck.write_text(format_deck(SAMPLE_DECK), encoding="utf-8")
    assert_error(packing("decks", "compare", str(deck), "--out", "cmp.txt"), "'cmp.txt'", ".png")


# --- nonsense accepted ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv, quoted",
    [
        (["best", "--roll", "٣,2,3,0,1"], "٣,2,3,0,1"),
        (["best", "--cargo", "1_0,0,0,0,0"], "1_0,0,0,0,0"),
        (["best", "--roll", "3,2,3,0,1", "--top", "٣"], "٣"),
        (["solve", "--roll", "3,2,3,0,1", "--truck", "###", "--height", "٣"], "٣"),
        (["tournament", "--players", "random,random", "--games", "٢"], "٢"),
        (["play", "--players", "random,random", "--seed", "١"], "١"),
        (["decks", "optimize", "--objective", "balance", "--budget", "٣"], "٣"),
        (["decks", "optimize", "--objective", "balance", "--budget", "nan"], "nan"),
    ],
)
def test_non_ascii_digits_and_nan_are_not_numbers(
    packing: Run, argv: list[str], quoted: str
) -> None:
    assert_error(packing(*argv), repr(quoted))


def test_a_deck_files_height_in_other_digits_is_refused(packing: Run, tmp_path: Path) -> None:
    for height in ("٣", "²"):
        deck = tmp_path / "deck.txt"
        deck.write_text(f"a height {height}\n###\n", encoding="utf-8")
        assert_error(packing("deck", "--deck", str(deck)), repr(height))
    with pytest.raises(ParseError):
        Placement.parse("٣x@0,0,0")


def test_the_design_api_refuses_a_budget_that_would_run_no_round() -> None:
    for options in ({"budget": math.nan}, {"budget": -1.0}, {"rounds": 0}):
        with pytest.raises(DesignError, match="invalid"):
            optimize(objective_name="balance", **options)
    with pytest.raises(TypeError, match="optimize: rounds must be a whole number, not float 1.5"):
        optimize(objective_name="balance", rounds=1.5)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [-1, True, 1.5])
def test_play_game_takes_seeds_by_the_command_lines_rule(seed: object) -> None:
    from packing import bot

    # The one rule for integers (arena.values): a wrong kind is a TypeError, a negative seed
    # the game's error, both naming the seed.
    error = PackingError if seed == -1 else TypeError
    with pytest.raises(error, match=r"play_game: (invalid )?seed .*(whole number|0 or more)"):
        play_game([bot("random"), bot("random")], seed=seed)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "trucks, why",
    [
        ((), "holds no truck"),
        ((Truck.parse("#", height=1, name="a"), Truck.parse("##", height=1, name="a")), "twice"),
        ((Truck.parse("#", height=1, name="my truck"),), "one word"),
        ((Truck.parse("#", height=1, name=";a"),), "one word"),
        # an unnamed truck is written as T02: the name of another truck in the deck
        ((Truck.parse("#", height=1, name="T02"), Truck.parse("##", height=1)), "twice"),
    ],
)
def test_save_deck_refuses_what_load_deck_would_refuse(
    tmp_path: Path, trucks: tuple[Truck, ...], why: str
) -> None:
    path = tmp_path / "deck.txt"
    with pytest.raises(DeckError, match=why):
        save_deck(trucks, path)
    assert not path.exists() and list(tmp_path.iterdir()) == []


def test_what_save_deck_writes_load_deck_reads_back_equal(tmp_path: Path) -> None:
    trucks = (
        Truck.parse("#", height=1, name="a"),
        Truck.parse("##/#.", height=2),
        Truck.parse("###", height=LARGEST_HEIGHT, name="Ünïcode-name"),
    )
    path = tmp_path / "deck.txt"
    save_deck(trucks, path)
    assert [(str(t), t.height) for t in load_deck(path)] == [(str(t), t.height) for t in trucks]
    assert [t.name for t in load_deck(path)] == ["a", "T02", "Ünïcode-name"]


def test_save_deck_into_an_unwritable_place_quotes_the_path(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(DeckError, match=repr(str(blocker / "deck.txt"))):
        save_deck(SAMPLE_DECK, blocker / "deck.txt")
    with pytest.raises(DeckError, match="''"):
        save_deck(SAMPLE_DECK, "")


@pytest.mark.parametrize("name", ["a\nb", "red\x1b[31m", "tab\there", "bell\a"])
def test_control_characters_in_truck_names_are_refused(
    packing: Run, tmp_path: Path, name: str
) -> None:
    with pytest.raises(ParseError, match="control character"):
        Truck.parse("###", height=1, name=name)
    done = packing(
        "solve", "--roll", "3,2,3,0,1", "--truck", "###", "--height", "1", "--name", name
    )
    assert_error(done, repr(name))
    if "\n" not in name and "\t" not in name:
        deck = tmp_path / "deck.txt"
        deck.write_text(f"{name} height 1\n###\n", encoding="utf-8")
        assert_error(packing("deck", "--deck", str(deck)), repr(name))


def test_the_statistics_refuse_what_is_not_a_table() -> None:
    from packing import stats

    for function in (stats.deck_stats, stats.truck_stats, stats.penalty_summaries):
        with pytest.raises(TypeError, match="OptimalTable"):
            function(None)  # type: ignore[arg-type]


# --- small things -----------------------------------------------------------------------------


def test_one_round_is_one_round(packing: Run) -> None:
    done = packing(
        "decks",
        "optimize",
        "--objective",
        "balance",
        "--rounds",
        "1",
        "--batch",
        "1",
        "--workers",
        "1",
    )
    assert done.returncode == 0, done.stderr
    assert "after 1 round (" in done.stdout and "1 rounds" not in done.stdout


def test_rod_labels_stay_distinct_past_62_rods() -> None:
    assert len(set(labels(62))) == 62 and {len(label) for label in labels(62)} == {1}
    assert len(set(labels(5_000))) == 5_000 and {len(label) for label in labels(5_000)} == {3}
    truck = Truck.parse("/".join(["#" * 10] * 7), height=1)
    plan = verify(solve(Cargo({1: 70}), truck))
    picture = plan.render()
    legend = picture.splitlines()[-1].split()
    assert len(legend) == 70 and len({entry.split("=")[0] for entry in legend}) == 70
    cells = [cell for line in picture.splitlines()[3:10] for cell in line.split()]
    assert sorted(cells) == sorted(entry.split("=")[0] for entry in legend)


def test_a_picture_of_a_by_hand_plan_with_many_rods_is_readable() -> None:
    truck = Truck.parse("#" * 70, height=1)
    plan = LoadPlan.from_placements(
        truck, Cargo({1: 70}), [Placement(1, x, 0, 0, "z") for x in range(70)]
    )
    row = plan.render().splitlines()[3]
    assert row.split() == labels(70)


@pytest.mark.parametrize("module", ["packing.__main__", "express.__main__"])
def test_importing_main_modules_runs_nothing(module: str) -> None:
    imported = importlib.import_module(module)
    assert callable(imported.main)


def test_load_deck_refuses_an_empty_path_and_a_non_path() -> None:
    with pytest.raises(DeckError, match="''"):
        load_deck("")
    with pytest.raises(TypeError, match="file path"):
        load_deck(None)  # type: ignore[arg-type]
    assert parse_deck(format_deck(SAMPLE_DECK)) == SAMPLE_DECK


@pytest.mark.parametrize(
    "argv, limit",
    [
        (["decks", "random", "--count", "100000000", "--seed", "1", "--out", "x"], "10,000"),
        (["decks", "optimize", "--objective", "balance", "--batch", "100000000"], "1,000"),
        (["stats", "--samples", "99999999999999999"], "100,000"),
    ],
)
def test_counts_whose_cost_grows_have_a_documented_limit(
    packing: Run, argv: list[str], limit: str
) -> None:
    line = assert_error(packing(*argv), f"at most {limit}")
    assert repr(argv[argv.index(next(w for w in argv if w.isdigit() and len(w) > 6))]) in line


def test_random_decks_are_written_one_by_one_each_whole(
    packing: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import packing.cli.design as design_cli
    from packing.design import random_deck

    made: list[str] = []

    def interrupting(*, seed: str) -> tuple[Truck, ...]:
        if len(made) == 2:
            raise KeyboardInterrupt
        made.append(seed)
        return random_deck(seed=seed)

    monkeypatch.setattr(design_cli, "random_deck", interrupting)
    out = tmp_path / "decks"
    done = packing("decks", "random", "--count", "5", "--seed", "7", "--out", str(out))
    assert done.returncode == 130
    # The progress lines aside, one line says what was kept.
    lines = [line for line in done.stderr.splitlines() if not line.startswith("random decks: ")]
    assert lines == [f"packing: interrupted: 2 decks of 5 written into {str(out)!r}"]
    assert done.stdout.split() == [str(out / f"random-7-00{i}.txt") for i in (1, 2)]
    assert sorted(p.name for p in out.iterdir()) == ["random-7-001.txt", "random-7-002.txt"]
    assert load_deck(out / "random-7-002.txt") == random_deck(seed="7.2")


def test_a_list_of_names_with_empty_names_is_refused(packing: Run) -> None:
    assert_error(packing("grab", "--roll", "3,2,3,0,1", "--revealed", ",,,"), "',,,'")
    assert_error(packing("grab", "--roll", "3,2,3,0,1", "--revealed", "S01,"), "'S01,'")


def test_the_game_api_refuses_what_is_not_a_deck_or_a_player() -> None:
    from packing import Game

    with pytest.raises(TypeError, match="deck: expected a sequence of trucks"):
        Game(2, deck=None)  # type: ignore[arg-type]
    game = Game(3)
    for player in (3, -1):
        with pytest.raises(
            PackingError, match=f"no player {player}: this game's players are 0 to 2"
        ):
            game.observation(player)
    with pytest.raises(TypeError, match="player must be a whole number, not str '0'"):
        game.observation("0")  # type: ignore[arg-type]
    import numpy as np

    assert game.observation(np.int64(2)) == game.observation(2)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text of a deck file"):
        parse_deck(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="sequence of trucks"):
        format_deck(None)  # type: ignore[arg-type]
