"""The 95 % intervals the library reports, without SciPy: a sample mean's (a bot's or an
advisor's mean over sampled worlds, a tournament's win shares over its deals) and a
proportion's (a tournament's wins when the deals show no spread).

The one quantile they need is small enough to hold here: Student's t at 0.975 (a two-sided
95 % interval), tabulated for 1 to 30 degrees of freedom, beyond that the Cornish–Fisher
expansion around the normal quantile (error under 1e-6 from 30 on). The Wilson score interval
is closed-form. The tests compare all three with SciPy, which the library itself never needs.

>>> [round(x, 3) for x in mean_interval([1.0, 2.0, 3.0])]
[2.0, -0.484, 4.484]
>>> counted_mean_interval({1.0: 1, 2.0: 1, 3.0: 1}) == mean_interval([1.0, 2.0, 3.0])
True
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction

from arena.values import whole_number

__all__ = [
    "CONFIDENCE",
    "counted_mean_interval",
    "mean_interval",
    "sums_interval",
    "t_quantile",
    "wilson_interval",
]

CONFIDENCE = 0.95
"""The confidence of :func:`mean_interval`'s intervals."""

# Student's t quantile at 0.975 for 1..30 degrees of freedom (standard tables).
_T975 = (
    12.706205,
    4.302653,
    3.182446,
    2.776445,
    2.570582,
    2.446912,
    2.364624,
    2.306004,
    2.262157,
    2.228139,
    2.200985,
    2.178813,
    2.160369,
    2.144787,
    2.131450,
    2.119905,
    2.109816,
    2.100922,
    2.093024,
    2.085963,
    2.079614,
    2.073873,
    2.068658,
    2.063899,
    2.059539,
    2.055529,
    2.051831,
    2.048407,
    2.045230,
    2.042272,
)
_Z975 = 1.959963984540054


def t_quantile(df: int) -> float:
    """Student's t quantile at 0.975 for ``df`` ≥ 1 degrees of freedom (the half-width of a
    95 % interval in standard errors).

    >>> round(t_quantile(10), 3), round(t_quantile(1000), 3)
    (2.228, 1.962)
    """
    df = whole_number(df, "degrees of freedom", low=1, error=ValueError)
    if df <= len(_T975):
        return _T975[df - 1]
    z = _Z975
    # Cornish–Fisher expansion of t in powers of 1/df.
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
        + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * df**4)
    )


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95 % interval ``(mean, low, high)`` (Student's t, from the
    sample's standard deviation). One value, or values all equal, give a zero-width interval:
    nothing in the sample measures its spread."""
    n = len(values)
    if n == 0:
        raise ValueError("the mean of no values")
    return _interval(lambda: values, n)


def counted_mean_interval(counts: Mapping[float, int]) -> tuple[float, float, float]:
    """:func:`mean_interval` of a sample given as how often each value occurs (``{value:
    count}``): the same three numbers as of the values listed out, for a memory that holds the
    distinct values only (a mean over any number of worlds whose values are a few dozen
    scores). The same because ``math.fsum`` rounds the exact sum once, whatever the order
    of its terms.

    >>> counted_mean_interval({2.0: 3, 5.0: 0}) == mean_interval([2.0, 2.0, 2.0])
    True
    """
    n = 0
    for value, count in counts.items():
        count = whole_number(count, f"the count of {value!r}")
        if count < 0:
            raise ValueError(f"the count of {value!r} is negative: {count!r}")
        n += count
    if n == 0:
        raise ValueError("the mean of no values")

    def listed() -> Iterable[float]:
        return itertools.chain.from_iterable(
            itertools.repeat(value, count) for value, count in counts.items()
        )

    return _interval(listed, n)


def _interval(listed: Callable[[], Iterable[float]], n: int) -> tuple[float, float, float]:
    """The mean and its interval of the ``n`` values ``listed()`` gives (each time the same)."""
    mean = math.fsum(listed()) / n
    if n == 1:
        return (mean, mean, mean)
    variance = math.fsum((x - mean) ** 2 for x in listed()) / (n - 1)
    half = t_quantile(n - 1) * math.sqrt(variance / n)
    return (mean, mean - half, mean + half)


def sums_interval(
    count: int, total: Fraction | int, squares: Fraction | int
) -> tuple[float, float, float]:
    """:func:`mean_interval` of ``count`` values known by their exact ``total`` and the exact
    sum of their ``squares`` — what a stream of values keeps instead of the values. The
    variance is computed exactly (``count * squares - total ** 2`` has no cancellation), then
    rounded once.

    >>> [round(x, 3) for x in sums_interval(3, 6, 14)]
    [2.0, -0.484, 4.484]
    """
    count = whole_number(count, "count", low=1, error=ValueError)
    mean = Fraction(total) / count
    if count == 1:
        return (float(mean), float(mean), float(mean))
    spread = count * Fraction(squares) - Fraction(total) ** 2  # count * (count - 1) * variance
    if spread < 0:
        raise ValueError(f"no {count} values have sum {total} and sum of squares {squares}")
    half = t_quantile(count - 1) * math.sqrt(spread / (count * count * (count - 1)))
    return (float(mean), float(mean) - half, float(mean) + half)


def wilson_interval(successes: int, trials: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion, ``successes`` out of ``trials`` (without
    continuity correction): it stays inside ``[0, 1]`` and is sound at 0 and at ``trials``,
    where the normal approximation's collapses to a point.

    >>> [round(x, 4) for x in wilson_interval(12, 25)]
    [0.3003, 0.665]
    >>> [round(x, 4) for x in wilson_interval(0, 10)]
    [0.0, 0.2775]
    """
    trials = whole_number(trials, "trials", low=1, error=ValueError)
    successes = whole_number(successes, "successes", error=ValueError)
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must lie in [0, {trials}], not {successes}")
    z2 = _Z975 * _Z975
    p = successes / trials
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = _Z975 / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials**2))
    return (max(0.0, centre - half), min(1.0, centre + half))
