"""Exact odds of the dice: every distinct cargo a roll can give, with its probability."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction
from functools import cache

from packing.model import Cargo
from packing.rules import DICE, LENGTHS

#: Equally likely outcomes of rolling the five six-sided dice (6^5 = 7,776).
ROLLS = math.prod(len(DICE[length]) for length in LENGTHS)


@cache
def roll_counts() -> dict[Cargo, int]:
    """How many of the 7,776 equally likely rolls give each distinct cargo (900 of them).

    Ordered by the cargo's counts, so the order is the same on every run.

    >>> counts = roll_counts()
    >>> len(counts), sum(counts.values()), counts[Cargo((1, 0, 0, 0, 0))]
    (900, 7776, 8)
    """
    ways = Counter(itertools.product(*(DICE[length] for length in LENGTHS)))
    return {Cargo(faces): ways[faces] for faces in sorted(ways)}


def roll_distribution() -> dict[Cargo, Fraction]:
    """Each distinct cargo with its exact probability (the values sum to 1).

    >>> roll_distribution()[Cargo((1, 0, 0, 0, 0))]
    Fraction(1, 972)
    """
    return {cargo: Fraction(n, ROLLS) for cargo, n in roll_counts().items()}


@cache
def roll_outcomes() -> tuple[tuple[Cargo, Fraction], ...]:
    """The outcomes of one player's roll: the 900 cargos with their exact probabilities.

    One cached tuple, so a chance node hands over the same objects every time (a sampler is
    built once for it, and its cargos can be found again by identity).

    >>> len(roll_outcomes()), sum(p for _, p in roll_outcomes())
    (900, Fraction(1, 1))
    """
    return tuple(roll_distribution().items())


def volume_distribution() -> dict[int, Fraction]:
    """The probability of each load volume (1..40 cubes); the mean is about 20.2.

    >>> dist = volume_distribution()
    >>> min(dist), max(dist), round(float(sum(v * p for v, p in dist.items())), 2)
    (1, 40, 20.17)
    """
    out: dict[int, Fraction] = {}
    for cargo, p in roll_distribution().items():
        out[cargo.volume] = out.get(cargo.volume, Fraction(0)) + p
    return dict(sorted(out.items()))
