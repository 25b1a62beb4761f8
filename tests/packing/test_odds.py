"""Exact odds of the dice, checked against enumerating all 7,776 rolls."""

import itertools
from collections import Counter
from fractions import Fraction

from packing import DICE, ROLLS, Cargo, roll_counts, roll_distribution, volume_distribution


def test_900_distinct_cargos_from_7776_rolls() -> None:
    rolls = list(itertools.product(*(DICE[n] for n in range(1, 6))))
    assert len(rolls) == ROLLS == 7776
    expected = Counter(Cargo(r) for r in rolls)
    assert roll_counts() == dict(expected)
    assert len(roll_counts()) == 900 == 5 * 5 * 4 * 3 * 3


def test_probabilities_are_exact() -> None:
    dist = roll_distribution()
    assert sum(dist.values()) == 1
    # Four faces of 1 on the white die... : (1,0,0,0,0) needs white 1 (2 faces), grey 0, orange 0,
    # blue 0 (2 faces), black 0 (2 faces): 2·1·1·2·2 = 8 rolls.
    assert dist[Cargo((1, 0, 0, 0, 0))] == Fraction(8, 7776)
    assert all(c.is_roll for c in dist)


def test_volume_distribution_mean() -> None:
    dist = volume_distribution()
    assert (min(dist), max(dist)) == (1, 40)
    assert sum(dist.values()) == 1
    # Linearity of expectation: the sum of each die's mean face times its length.
    mean_by_die = sum(Fraction(sum(DICE[n]), 6) * n for n in range(1, 6))
    assert sum(v * p for v, p in dist.items()) == mean_by_die == Fraction(121, 6)
