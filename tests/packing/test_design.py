"""The deck designer: the facts checker, random decks, compare's numbers against a direct count
over the 7,776 rolls, the local search, and the ``packing decks`` commands."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import packing.design as design
from arena.checkpoint import CheckpointMismatch
from packing import (
    DICE,
    LENGTHS,
    SAMPLE_DECK,
    Cargo,
    Truck,
    format_deck,
    load_deck,
    save_deck,
    solve,
    verify,
)
from packing.design import (
    HEIGHT_COUNTS,
    ColumnCache,
    DeckReport,
    DesignError,
    check_facts,
    compare,
    objective,
    optimize,
    random_deck,
    shape_key,
)
from packing.stats import heuristic_loss
from packing.table import OptimalTable
from tests.decks import SMALL_DECK

TINY_DECK = SMALL_DECK


def replaced(deck: tuple[Truck, ...], i: int, truck: Truck) -> tuple[Truck, ...]:
    return deck[:i] + (truck,) + deck[i + 1 :]


# --- facts ------------------------------------------------------------------------------------


def test_the_sample_deck_honours_every_fact() -> None:
    assert check_facts(SAMPLE_DECK) == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d[:-1], "heights are"),
        (lambda d: replaced(d, 0, d[0].with_height(2)), "heights are"),
        (
            lambda d: replaced(d, 28, Truck.parse("##.../###../.....", height=4, name="S29")),
            "within 2 of loads 36",
        ),
        (
            lambda d: replaced(d, 29, Truck.parse("####./#...#/#...#", height=4, name="S30")),
            "no truck holds 40",
        ),
        (
            lambda d: replaced(d, 1, Truck.parse("###../###../###..", height=1, name="S02")),
            "same truck as S01",
        ),
        (
            lambda d: replaced(d, 1, Truck.parse("..###/..###/..###", height=1, name="S02")),
            "same truck as S01",
        ),
        (lambda d: replaced(d, 0, Truck.parse("####/####", height=1, name="S01")), "fewer than 9"),
        (
            lambda d: replaced(d, 29, Truck.parse("#####/#####/#####", height=4, name="S30")),
            "full floor",
        ),
        (
            lambda d: replaced(d, 29, Truck.parse("######/#...#./#.#.#.", height=4, name="S30")),
            "larger than 3×5",
        ),
        (
            lambda d: replaced(d, 29, Truck.parse("#.#.#/#...#/#.#.#", height=4, name="S30")),
            "more than two separate parts",
        ),
        (
            lambda d: replaced(d, 0, Truck.parse("#####/#####", height=1, name="S01")),
            "smallest truck holds 10",
        ),
    ],
)
def test_each_broken_fact_is_reported(change: object, expected: str) -> None:
    deck = change(SAMPLE_DECK)  # type: ignore[operator]
    problems = check_facts(deck)
    assert any(expected in p for p in problems), problems


def test_decks_without_split_areas_or_short_runs_are_reported() -> None:
    full_runs = tuple(t for t in SAMPLE_DECK if t.longest_run() >= 5)
    assert "every truck has a straight run of 5 cells" in check_facts(full_runs)
    joined = tuple(t for t in SAMPLE_DECK if t.name not in ("S05", "S14", "S22", "S30"))
    assert "no truck's area is split in two" in check_facts(joined)


def test_shape_key_ignores_shifts_turns_and_mirrors_but_not_height() -> None:
    t = Truck.parse("##.../.#...", height=2)
    for other in ("...##/...#.", ".#.../##...", "#./##", ".##/.#."):
        assert shape_key(Truck.parse(other, height=2)) == shape_key(t), other
    assert shape_key(t.with_height(3)) != shape_key(t)
    assert shape_key(Truck.parse("###/#..", height=2)) != shape_key(t)


# --- random decks -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2, "x"])
def test_random_decks_honour_the_facts(seed: int | str) -> None:
    deck = random_deck(seed=seed)
    assert check_facts(deck) == []
    assert [t.name for t in deck] == [f"R{i:02d}" for i in range(1, 31)]
    assert {h: sum(t.height == h for t in deck) for h in HEIGHT_COUNTS} == HEIGHT_COUNTS
    assert parse_back(deck) == deck


def parse_back(deck: tuple[Truck, ...]) -> tuple[Truck, ...]:
    from packing import parse_deck

    return parse_deck(format_deck(deck))


def test_random_decks_are_reproducible_in_a_fresh_process() -> None:
    # An interpreter of its own: a seed must name the same deck under another hash seed.
    code = (
        "from packing import format_deck; from packing.design import random_deck; "
        "print(format_deck(random_deck(seed=11)), end='')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == format_deck(random_deck(seed=11))
    assert random_deck(seed=11) != random_deck(seed=12)


# --- compare ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_reports(small_deck_table: OptimalTable) -> tuple[list[DeckReport], OptimalTable]:
    cache = ColumnCache()
    reports = compare([TINY_DECK, TINY_DECK[:2]], labels=["three", "two"], cache=cache)
    assert cache.solved == 3  # the two decks share trucks: each column is solved once
    return reports, small_deck_table


def test_columns_equal_the_table_build(tiny_reports: tuple[list[DeckReport], OptimalTable]) -> None:
    table = tiny_reports[1]
    cache = ColumnCache()
    assert np.array_equal(cache.table(TINY_DECK).loaded, table.loaded)
    rng = np.random.default_rng(5)
    for i in rng.choice(900, size=20, replace=False):
        cargo = table.cargos[i]
        for j, truck in enumerate(TINY_DECK):
            assert table.loaded[i, j] == verify(solve(cargo, truck)).loaded


def test_compare_matches_a_direct_count_over_every_roll(
    tiny_reports: tuple[list[DeckReport], OptimalTable],
) -> None:
    reports, table = tiny_reports
    report = reports[0]
    # Independent of the numpy code: walk all 7,776 rolls of the dice, with exact fractions.
    by_volume_sum: dict[int, int] = {}
    by_volume_count: dict[int, int] = {}
    expected = [Fraction(0)] * 3
    best_count = [0] * 3
    strictly_best = [False] * 3
    for faces in itertools.product(*(DICE[n] for n in LENGTHS)):
        cargo = Cargo.from_roll(list(faces))
        row = [table.penalty(cargo, j) for j in range(3)]
        least = min(row)
        by_volume_sum[cargo.volume] = by_volume_sum.get(cargo.volume, 0) + least
        by_volume_count[cargo.volume] = by_volume_count.get(cargo.volume, 0) + 1
        for j in range(3):
            expected[j] += Fraction(row[j], 7776)
            best_count[j] += row[j] == least
            strictly_best[j] |= row[j] == least and row.count(least) == 1
    assert list(report.best_by_volume) == [
        Fraction(by_volume_sum[v], by_volume_count[v]) for v in range(1, 41)
    ]
    assert list(report.expected_penalty) == expected
    assert list(report.p_best) == [Fraction(c, 7776) for c in best_count]
    assert [t for t, s in zip(TINY_DECK, strictly_best) if not s] == list(report.dominated)
    assert report.heuristic_loss == heuristic_loss(table, revealed=0).mean_loss
    assert report.coverage == max(report.best_by_volume[8:])
    assert report.facts  # a three-truck deck is not a real deck
    assert reports[1].deck == TINY_DECK[:2]


def test_objectives_of_the_sample_deck() -> None:
    table = ColumnCache().table(SAMPLE_DECK)
    report = compare([SAMPLE_DECK])[0]
    # Worst served: loads of 17 cubes (the shipped table's figures).
    assert report.coverage == report.best_by_volume[16] == Fraction(101, 50)
    assert objective(table, "coverage") == float(report.coverage)
    assert objective(table, "balance") == float(report.balance) == float(Fraction(91, 486))
    assert objective(table, "skill") == heuristic_loss(table, revealed=0).mean_loss
    with pytest.raises(DesignError, match="'fairness'"):
        objective(table, "fairness")


# --- optimize ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cache() -> ColumnCache:
    return ColumnCache()


def test_optimize_improves_or_keeps_the_objective_and_keeps_the_facts() -> None:
    # A cache of its own: it counts the columns solved, which the tests sharing the module's
    # cache (in whatever order they run) may already have solved.
    cache = ColumnCache()
    seen: list[float] = []
    result = optimize(
        SAMPLE_DECK,
        objective_name="balance",
        seed=3,
        rounds=2,
        batch=2,
        cache=cache,
        report=lambda step: seen.append(step.value),
    )
    assert check_facts(result.deck) == []
    assert result.value <= result.start_value
    assert result.value == pytest.approx(objective(cache.table(result.deck), "balance"))
    assert seen == sorted(seen, reverse=True) and (not seen or seen[-1] == result.value)
    assert result.rounds == 2 and 0 < result.candidates <= 4
    assert 0 < result.solved <= 2 * result.candidates  # only the changed trucks were solved
    again = optimize(SAMPLE_DECK, objective_name="balance", seed=3, rounds=2, batch=2, cache=cache)
    assert again.deck == result.deck and again.solved == 0  # reproducible, and all cached


def test_optimize_can_maximize(cache: ColumnCache) -> None:
    result = optimize(
        SAMPLE_DECK, objective_name="balance", seed=3, rounds=2, batch=2, cache=cache, maximize=True
    )
    assert result.value >= result.start_value and result.maximize
    assert check_facts(result.deck) == []


def test_optimize_refuses_bad_requests() -> None:
    with pytest.raises(DesignError, match="'speed'"):
        optimize(objective_name="speed", rounds=1)
    with pytest.raises(DesignError, match="budget"):
        optimize(objective_name="coverage")
    with pytest.raises(DesignError, match="breaks the facts"):
        optimize(TINY_DECK, objective_name="coverage", rounds=1)


# --- the commands -----------------------------------------------------------------------------


def cli(*argv: str) -> subprocess.CompletedProcess[str]:
    """``packing ARGV`` called in-process (its exit status and what it printed)."""
    from packing.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return subprocess.CompletedProcess(["packing", *argv], code, out.getvalue(), err.getvalue())


def test_decks_random_writes_valid_reproducible_decks(tmp_path: Path) -> None:
    from packing.cli import main

    assert (
        main(["decks", "random", "--count", "2", "--seed", "4", "--out", str(tmp_path / "a")]) == 0
    )
    assert (
        main(["decks", "random", "--count", "2", "--seed", "4", "--out", str(tmp_path / "b")]) == 0
    )
    files = sorted((tmp_path / "a").iterdir())
    assert [f.name for f in files] == ["random-4-001.txt", "random-4-002.txt"]
    for f in files:
        assert check_facts(load_deck(f)) == []
        assert f.read_text() == (tmp_path / "b" / f.name).read_text()
    assert load_deck(files[0]) != load_deck(files[1])


@pytest.mark.extra("plot")
def test_decks_compare_json_and_picture(tmp_path: Path) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    save_deck(TINY_DECK, a)
    save_deck(TINY_DECK[:2], b)
    done = cli(
        "decks",
        "compare",
        str(a),
        str(b),
        "--json",
        "--workers",
        "1",
        "--out",
        str(tmp_path / "cmp.png"),
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert [d["deck"] for d in data["decks"]] == [str(a), str(b)]
    assert [t["truck"] for t in data["decks"][0]["trucks"]] == ["a", "b", "c"]
    assert len(data["decks"][0]["best_by_volume"]) == 40
    assert (tmp_path / "cmp.png").read_bytes()[:4] == b"\x89PNG"


def test_decks_optimise_writes_a_deck_that_keeps_the_facts(tmp_path: Path) -> None:
    out = tmp_path / "best.txt"
    done = cli(
        "decks",
        "optimise",
        "--objective",
        "coverage",
        "--seed",
        "1",
        "--rounds",
        "1",
        "--batch",
        "1",
        "--workers",
        "1",
        "--out",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    assert "coverage: 2.0200 ->" in done.stdout
    assert check_facts(load_deck(out)) == []


@pytest.mark.parametrize(
    ("argv", "quoted"),
    [
        (["decks", "compare", "/no/such/deck.txt"], "'/no/such/deck.txt'"),
        (["decks", "random", "--count", "0", "--seed", "1", "--out", "x"], "--count"),
        (["decks", "random", "--count", "many", "--seed", "1", "--out", "x"], "'many'"),
        (["decks", "random", "--count", "1", "--seed", "1", "--out", "/proc/no"], "'/proc/no'"),
        (["decks", "optimise", "--objective", "beauty"], "'beauty'"),
        (["decks", "optimise", "--objective", "skill", "--budget", "-1"], "--budget"),
        (["decks", "optimise", "--objective", "skill", "--cluster", "remote:3"], "'remote:3'"),
        pytest.param(
            [
                "decks",
                "optimise",
                "--objective",
                "skill",
                "--rounds",
                "1",
                "--scheduler",
                "tcp://127.0.0.1:9",
            ],
            "'tcp://127.0.0.1:9'",
            marks=pytest.mark.extra("dask"),
        ),
        pytest.param(
            ["table", "build", "--force", "--scheduler", "tcp://127.0.0.1:9"],
            "'tcp://127.0.0.1:9'",
            marks=pytest.mark.extra("dask"),
        ),
    ],
)
@pytest.mark.usefixtures("quick_unreachable_scheduler")
def test_bad_input_is_one_line_and_exit_2(argv: list[str], quoted: str) -> None:
    done = cli(*argv)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and quoted in lines[0] and "Traceback" not in done.stderr, done.stderr


# --- interrupted and resumed searches -----------------------------------------------------------


def test_an_interrupted_search_keeps_its_best_deck_and_resumes_to_the_same_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Fresh caches: each resumed run takes the columns of the earlier ones from the checkpoint.
    options: dict[str, Any] = {"objective_name": "coverage", "seed": 1, "batch": 1}
    whole = optimize(SAMPLE_DECK, rounds=3, progress=False, cache=ColumnCache(), **options)
    checkpoint = tmp_path / "search.ckpt"
    propose = design._proposals
    calls = [0]

    def ctrl_c_in_the_second_round(*args: Any) -> Any:
        calls[0] += 1
        if calls[0] == 2:  # Ctrl-C in each run's second round
            calls[0] = 0
            raise KeyboardInterrupt
        return propose(*args)

    monkeypatch.setattr(design, "_proposals", ctrl_c_in_the_second_round)
    runs = []
    for _ in range(4):
        calls[0] = 0
        runs.append(
            optimize(
                SAMPLE_DECK,
                rounds=3,
                checkpoint=checkpoint,
                progress=False,
                cache=ColumnCache(),
                **options,
            )
        )
        if not runs[-1].interrupted:
            break
    assert [r.interrupted for r in runs] == [True, True, False]
    assert [r.rounds for r in runs] == [1, 2, 3]
    assert all(not check_facts(r.deck) for r in runs)
    assert runs[-1] == whole
    with pytest.raises(CheckpointMismatch, match="other arguments"):
        optimize(SAMPLE_DECK, rounds=3, checkpoint=checkpoint, **(options | {"seed": 6}))
