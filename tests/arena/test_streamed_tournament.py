"""Tournaments keep sums, not games: flat memory, the same statistics as the records give, the
ratings fitted to the records' comparisons, summaries counted, checkpoints of the earlier
format resumed, and the pieces (DealSet, Counts, Tally) as values."""

from __future__ import annotations

import gc
import pickle
import tracemalloc
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import packing
from arena import GameRecord, Policy, TournamentResult, tournament
from arena.checkpoint import Checkpoint
from arena.ratings import Comparisons, fit_ratings
from arena.standings import Counts, DealSet, Tally
from arena.stats import mean_interval, sums_interval
from tests.arena.toy import AlwaysBank, AlwaysKeep, DiceRace

KEEP_BANK: dict[str, Policy] = {"keep": AlwaysKeep(), "bank": AlwaysBank()}


def dice(state: DiceRace) -> int:
    """A summarise hook with few values: the winner's total."""
    return max(state.totals)


def peak_bytes(run: Callable[[], object]) -> int:
    run()  # whatever is imported or cached on a first run is not the tournament's
    gc.collect()
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_ten_times_the_deals_take_the_same_memory_one_game_at_a_time() -> None:
    def deals(n: int) -> Callable[[], object]:
        return lambda: tournament(DiceRace, KEEP_BANK, games=n, seed=1, progress=False)

    small, large = peak_bytes(deals(300)), peak_bytes(deals(3000))
    assert large <= small * 1.1 + 64 * 1024, (small, large)
    # Keeping the records is what grows: the check above would see it.
    kept = peak_bytes(
        lambda: tournament(DiceRace, KEEP_BANK, games=3000, seed=1, progress=False, records=True)
    )
    assert kept > 2 * large


def test_ten_times_the_deals_take_the_same_memory_in_batches() -> None:
    def deals(n: int) -> Callable[[], object]:
        return lambda: packing.tournament(["optimal", "random"], games=n, seed=1, engine="batched")

    small, large = peak_bytes(deals(2500)), peak_bytes(deals(25_000))
    assert large <= small * 1.1 + 64 * 1024, (small, large)


def comparisons_of(records: tuple[GameRecord, ...], names: tuple[str, ...]) -> Comparisons:
    """The comparisons counted from the records' own ranks, deal by deal."""
    index = {name: i for i, name in enumerate(names)}
    table = Comparisons.empty(len(names))
    by_deal: dict[int, np.ndarray] = {}
    for record in records:
        beats = by_deal.setdefault(record.deal, np.zeros((len(names), len(names)), np.int64))
        ranks = record.ranks()
        for s, a in enumerate(record.seating):
            for t, b in enumerate(record.seating):
                if s != t:
                    beats[index[a], index[b]] += 2 * (ranks[s] < ranks[t]) + (ranks[s] == ranks[t])
    for deal in sorted(by_deal):
        table.add_deal(by_deal[deal])
    return table


@pytest.mark.parametrize("engine", ["scalar", "batched"])
def test_the_sums_give_what_the_records_give(engine: str) -> None:
    kept = packing.tournament(
        ["optimal", "bonus-aware", "capacity", "random"],
        games=60,
        seed=3,
        engine=engine,
        records=True,
    )
    streamed = packing.tournament(
        ["optimal", "bonus-aware", "capacity", "random"], games=60, seed=3, engine=engine
    )
    assert streamed.stats == kept.stats and streamed.records == ()
    fit = fit_ratings(comparisons_of(kept.records, kept.policies))
    assert [s.rating for s in kept.stats] == list(fit.ratings)
    assert [s.rating_interval for s in kept.stats] == list(fit.intervals)
    for s in kept.stats:
        points = [r.returns[r.seating.index(s.name)] for r in kept.records]
        assert s.mean_points == sum(points) / len(points)


def test_summaries_are_counted_and_records_refused_when_not_kept() -> None:
    streamed = tournament(DiceRace, KEEP_BANK, games=40, seed=2, progress=False, summarise=dice)
    kept = tournament(
        DiceRace, KEEP_BANK, games=40, seed=2, progress=False, summarise=dice, records=True
    )
    assert streamed.summaries == kept.summaries == Counter(r.summary for r in kept.records)
    assert sum(streamed.summaries.values()) == 80  # type: ignore[union-attr]
    assert tournament(DiceRace, KEEP_BANK, games=2, seed=2, progress=False).summaries is None
    with pytest.raises(Exception, match="kept no records of its games: run it with records=True"):
        streamed.to_dict(records=True)
    assert "records" not in streamed.to_dict()
    again: TournamentResult = pickle.loads(pickle.dumps(streamed))
    assert again == streamed and hash(again) == hash(streamed)


def test_a_checkpoint_that_keeps_each_deals_games_resumes(tmp_path: Path) -> None:
    """The earlier format: one entry per deal, its records. It continues to the full result."""
    full = tournament(DiceRace, KEEP_BANK, games=20, seed=6, progress=False, records=True)
    path = tmp_path / "old.ckpt"
    fingerprint: dict[str, object] = {
        "new_game": DiceRace,
        "policies": tuple(KEEP_BANK.values()),
        "names": tuple(KEEP_BANK),
        "seed": 6,
        "summarise": None,
    }
    with Checkpoint(path, kind="tournament", fingerprint=fingerprint) as saved:
        for deal in range(8):
            saved.add(deal, tuple(r for r in full.records if r.deal == deal))
    resumed = tournament(DiceRace, KEEP_BANK, games=20, seed=6, progress=False, checkpoint=path)
    assert resumed.stats == full.stats and resumed.deals == 20


@given(st.lists(st.integers(0, 60), max_size=80), st.integers(0, 70))
def test_a_deal_set_is_a_set(deals: list[int], games: int) -> None:
    done, plain = DealSet(), set()
    for deal in deals:
        done.add(deal)
        plain.add(deal)
    assert len(done) == len(plain) and all((d in done) == (d in plain) for d in range(-1, 70))
    assert list(done.missing(games)) == [d for d in range(games) if d not in plain]
    assert done.last() == max(plain, default=-1)
    starts = [a for a, _ in done.ranges]
    stops = [b for _, b in done.ranges]
    assert all(b < a for b, a in zip(stops, starts[1:]))  # disjoint, apart, sorted
    assert pickle.loads(pickle.dumps(done)) == done


def test_missing_deals_are_those_of_the_moment_it_is_asked() -> None:
    done = DealSet()
    done.add(1)
    missing = done.missing(5)
    done.add(3)  # finished while the missing ones are handed out: it was missing then
    assert list(missing) == [0, 2, 3, 4]


def test_counts_and_tallies_are_values() -> None:
    counts = Counts({("a", 1): 2, None: 1})
    assert pickle.loads(pickle.dumps(counts)) == counts and hash(counts) == hash(Counts(counts))
    assert dict(counts) == {("a", 1): 2, None: 1}
    one, two = Tally(("a", "b"), 2), Tally(("a", "b"), 2)
    seating = np.array([[0, 1], [1, 0]])
    for tally in (one, two):
        tally.add_games(seating, np.array([[3.0, 1.0], [2.0, 2.0]]), np.array([[1, 0], [1, 1]]))
    assert one == two and hash(one) == hash(two) and pickle.loads(pickle.dumps(one)) == one
    assert one.wins == [3, 1] and one.deals == 1  # in halves: a won once alone, once shared
    with pytest.raises(ValueError, match="3 games are not whole deals of 2 games"):
        one.add_games(np.zeros((3, 2), int), np.zeros((3, 2)), np.zeros((3, 2), bool))


@given(st.lists(st.fractions(-5, 5, max_denominator=7), min_size=1, max_size=30))
def test_the_interval_from_sums_is_the_interval_of_the_values(values: list[Any]) -> None:
    expected = mean_interval([float(v) for v in values])
    found = sums_interval(len(values), sum(values), sum(v * v for v in values))
    assert found == pytest.approx(expected, abs=1e-9)
