"""arena.stats against SciPy's Student t (the tournament extra)."""

from __future__ import annotations

import math

import pytest

from arena.stats import mean_interval, t_quantile


@pytest.mark.extra("tournament")
@pytest.mark.parametrize("df", [*range(1, 41), 50, 75, 100, 1000, 10**6])
def test_the_quantile_is_scipys(df: int) -> None:
    from scipy import stats

    assert t_quantile(df) == pytest.approx(float(stats.t.ppf(0.975, df)), abs=2e-6)


@pytest.mark.extra("tournament")
def test_the_interval_is_scipys() -> None:
    from scipy import stats

    values = [3.0, -1.0, 4.0, 1.0, 5.0, -9.0, 2.0, 6.0]
    mean, low, high = mean_interval(values)
    expected = stats.t.interval(0.95, len(values) - 1, loc=mean, scale=stats.sem(values))
    assert (low, high) == pytest.approx(expected)
    assert mean == pytest.approx(sum(values) / len(values))


def test_no_spread_no_width_and_bad_input() -> None:
    assert mean_interval([2.5]) == (2.5, 2.5, 2.5)
    assert mean_interval([1.0, 1.0, 1.0]) == (1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="no values"):
        mean_interval([])
    for df in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="degrees of freedom"):
            t_quantile(df)  # type: ignore[arg-type]
    assert math.isfinite(t_quantile(31))
