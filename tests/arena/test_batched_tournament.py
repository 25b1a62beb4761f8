"""Tournaments on a game's batched engine: chosen by ``engine``, refused in one line where it does
not apply, independent of workers and checkpoints, and in agreement with the scalar engine."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest

import arena
from arena import ArenaError
from arena.checkpoint import CheckpointMismatch
from packing import Game, bot, tournament
from packing.cli import main
from tests.cli import Done, Run, assert_usage_error

FOUR = ["optimal", "bonus-aware", "capacity", "random"]


def test_auto_batches_what_it_can_and_says_so() -> None:
    batched = tournament(FOUR, games=20, seed=1)
    assert batched.engine == "batched" and batched.to_dict()["engine"] == "batched"
    assert "batched engine" in str(batched).splitlines()[0]
    scalar = tournament(["optimal", "greedy-loader"], games=3, seed=1)  # a loader of its own
    assert scalar.engine == "scalar" and "batched" not in str(scalar)
    forced = tournament(FOUR, games=3, seed=1, engine="scalar")
    assert forced.engine == "scalar"


def test_batched_refuses_in_one_line_what_it_cannot_play() -> None:
    with pytest.raises(ArenaError, match=r"^engine 'batched' cannot play 'greedy-loader' \("):
        tournament(["optimal", "greedy-loader"], games=3, seed=1, engine="batched")
    with pytest.raises(
        ArenaError, match=r"unknown engine 'fast' \(choose from auto, scalar, batched\)"
    ):
        tournament(FOUR, games=3, seed=1, engine="fast")
    speeds = partial(Game, 2, speeds=[1, 2])
    with pytest.raises(ArenaError, match="no batched engine"):
        arena.tournament(speeds, [bot("optimal"), bot("random")], games=2, seed=0, engine="batched")


def test_a_batched_result_depends_on_the_seed_alone() -> None:
    one = tournament(FOUR, games=40, seed=5, records=True)
    two = tournament(FOUR, games=40, seed=5, workers=2, records=True)
    assert one.records == two.records and one.stats == two.stats
    assert tournament(FOUR, games=40, seed=5, workers=2).stats == one.stats
    other = tournament(FOUR, games=40, seed=6, records=True)
    assert other.records != one.records
    assert [r.seed for r in one.records[:4]] == [arena.deal_seed(5, 0)] * 4


def test_the_rotations_of_a_deal_share_its_luck() -> None:
    """Two copies of one deterministic bot: both rotations of a deal seat the same bots in the
    same seats, so with the deal's chance shared they are the same game."""
    result = tournament(["optimal", "optimal"], games=30, seed=2, records=True)
    for deal in range(30):
        first, second = (r for r in result.records if r.deal == deal)
        assert first.seating == ("optimal", "optimal#2")
        assert second.seating == ("optimal#2", "optimal")
        assert first.returns == second.returns


def test_a_batched_checkpoint_resumes_to_the_uninterrupted_result(tmp_path: Path) -> None:
    saved = tmp_path / "t.ckpt"
    tournament(FOUR, games=30, seed=3, checkpoint=saved)
    resumed = tournament(FOUR, games=60, seed=3, checkpoint=saved)
    assert resumed == tournament(FOUR, games=60, seed=3)
    scalar = tmp_path / "s.ckpt"
    tournament(FOUR, games=2, seed=3, checkpoint=scalar, engine="scalar")
    with pytest.raises(CheckpointMismatch):
        tournament(FOUR, games=4, seed=3, checkpoint=scalar)


def test_the_engines_agree_within_their_intervals() -> None:
    """300 deals each: every bot's two win-rate intervals overlap (the engines draw chance
    differently, so they agree in distribution, not game for game)."""
    batched = tournament(FOUR, games=300, seed=7)
    scalar = tournament(FOUR, games=300, seed=7, engine="scalar")
    assert batched.engine == "batched" and scalar.engine == "scalar"
    for name in FOUR:
        a, b = batched.stat(name).win_interval, scalar.stat(name).win_interval
        assert a[0] <= b[1] and b[0] <= a[1], (name, a, b)


@pytest.fixture
def packing(capsys: pytest.CaptureFixture[str]) -> Iterator[Run]:
    def run(*argv: str) -> Done:
        code = main(list(argv))
        out, err = capsys.readouterr()
        return Done(code, out, err)

    yield run


def test_the_command_takes_an_engine_and_names_it(packing: Run) -> None:
    done = packing("tournament", "--players", "optimal,random", "--games", "5", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["engine"] == "batched"
    done = packing(
        "tournament", "--players", "optimal,random", "--games", "5", "--engine", "scalar"
    )
    assert done.returncode == 0 and "batched" not in done.stdout
    refused = packing(
        "tournament", "--players", "optimal,greedy-loader", "--games", "5", "--engine", "batched"
    )
    assert_usage_error(refused, "packing", "engine 'batched' cannot play 'greedy-loader'")
    bad = packing("tournament", "--players", "optimal,random", "--engine", "fast")
    assert_usage_error(bad, "packing", "--engine", "'fast'")


def test_an_express_tournament_batches_with_its_summaries() -> None:
    import express

    batched = express.tournament(["greedy", "random", "greedy"], games=200, seed=4, records=True)
    scalar = express.tournament(["greedy", "random", "greedy"], games=200, seed=4, engine="scalar")
    assert batched.engine == "batched" and scalar.engine == "scalar"
    assert all(record.summary is not None for record in batched.records)
    assert batched.summaries == Counter(record.summary for record in batched.records)
    for name in ("greedy", "random", "greedy#2"):
        a, b = batched.stat(name).win_interval, scalar.stat(name).win_interval
        assert a[0] <= b[1] and b[0] <= a[1], (name, a, b)
    runs = [express.decided(r).run_award / express.decided(r).games for r in (batched, scalar)]
    assert abs(runs[0] - runs[1]) < 0.1
    with pytest.raises(ArenaError, match="cannot play 'pimc'"):
        express.tournament(["greedy", "pimc"], games=2, seed=0, engine="batched")
    match = express.tournament(["greedy", "random"], games=2, seed=0, match=True)
    assert match.engine == "scalar"  # the strategic variant has no batched engine
