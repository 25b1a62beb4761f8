"""arena.stats against SciPy (the tests' reference; the library never needs SciPy)."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.stats import counted_mean_interval, mean_interval, t_quantile, wilson_interval


@pytest.mark.parametrize("df", [*range(1, 41), 50, 75, 100, 1000, 10**6])
def test_the_quantile_is_scipys(df: int, scipy_stats: Any) -> None:
    assert t_quantile(df) == pytest.approx(float(scipy_stats.t.ppf(0.975, df)), abs=2e-6)


def test_the_interval_is_scipys(scipy_stats: Any) -> None:
    values = [3.0, -1.0, 4.0, 1.0, 5.0, -9.0, 2.0, 6.0]
    mean, low, high = mean_interval(values)
    expected = scipy_stats.t.interval(
        0.95, len(values) - 1, loc=mean, scale=scipy_stats.sem(values)
    )
    assert (low, high) == pytest.approx(expected)
    assert mean == pytest.approx(sum(values) / len(values))


def test_no_spread_no_width_and_bad_input() -> None:
    assert mean_interval([2.5]) == (2.5, 2.5, 2.5)
    assert mean_interval([1.0, 1.0, 1.0]) == (1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="no values"):
        mean_interval([])
    for df in (0, -1):
        with pytest.raises(ValueError, match="degrees of freedom"):
            t_quantile(df)
    for wrong in (1.5, True):
        with pytest.raises(TypeError, match="degrees of freedom must be a whole number"):
            t_quantile(wrong)  # type: ignore[arg-type]
    assert math.isfinite(t_quantile(31))


@given(
    st.dictionaries(
        st.integers(-60, 60).map(float) | st.floats(-1e6, 1e6, allow_nan=False),
        st.integers(0, 40),
        min_size=1,
    ).filter(lambda counts: sum(counts.values()) > 0)
)
def test_a_counted_sample_has_the_interval_of_its_values_listed_out(
    counts: dict[float, int],
) -> None:
    # Exactly equal, not approximately: the advisor's answer must not change with how it keeps
    # its values. The listed values go in sorted, another order than the counts give them.
    listed = sorted(value for value, count in counts.items() for _ in range(count))
    assert counted_mean_interval(counts) == mean_interval(listed)


def test_a_counted_sample_refuses_what_counts_nothing() -> None:
    for empty in ({}, {1.0: 0, 2.0: 0}):
        with pytest.raises(ValueError, match="the mean of no values"):
            counted_mean_interval(empty)
    with pytest.raises(ValueError, match=r"the count of 2\.0 is negative: -1"):
        counted_mean_interval({1.0: 3, 2.0: -1})
    with pytest.raises(
        TypeError, match=r"the count of 1\.0 must be a whole number, not float 2\.5"
    ):
        counted_mean_interval({1.0: 2.5})  # type: ignore[dict-item]


@pytest.mark.parametrize(
    ("successes", "trials"), [(0, 1), (1, 1), (12, 25), (0, 10), (10, 10), (3, 1000)]
)
def test_the_wilson_interval_is_scipys(successes: int, trials: int, scipy_stats: Any) -> None:
    expected = scipy_stats.binomtest(successes, trials).proportion_ci(method="wilson")
    assert wilson_interval(successes, trials) == pytest.approx((expected.low, expected.high))


def test_the_wilson_interval_refuses_what_is_no_proportion() -> None:
    for successes, trials in ((1, 0), (-1, 4), (5, 4)):
        with pytest.raises(ValueError):
            wilson_interval(successes, trials)
    with pytest.raises(TypeError, match="successes must be a whole number, not bool True"):
        wilson_interval(True, 4)
