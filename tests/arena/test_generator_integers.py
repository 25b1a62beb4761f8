"""arena.batch.GeneratorIntegers draws what ``Generator.integers(count)`` draws, game by game:
the same half-words in the same order, Lemire's rejections and a half kept before it took the
generator over included."""

from __future__ import annotations

import numpy as np
import pytest

from arena.batch import GeneratorIntegers

# Counts near 2**31 reject about half their half-words; small ones almost never; 1 draws
# nothing; 2**32 and more are drawn by integers itself.
COUNTS = [1, 2, 3, 7, 24, 31, 2**31 + 5, 3_000_000_000, 2**32, 2**40]


def _draws(bit_generator: type[np.random.BitGenerator]) -> None:
    games = 6
    expected = [np.random.Generator(bit_generator(seed)) for seed in range(games)]
    mine = [np.random.Generator(bit_generator(seed)) for seed in range(games)]
    for generator in expected[::2] + mine[::2]:  # a half kept in the bit generator, for some
        generator.integers(5)
    integers = GeneratorIntegers(mine)
    rng = np.random.default_rng(0)
    for _ in range(300):
        games_asked = np.flatnonzero(rng.random(games) < 0.7)
        counts = rng.choice(COUNTS, len(games_asked))
        got = integers.below(games_asked, counts)
        want = [int(expected[g].integers(c)) for g, c in zip(games_asked.tolist(), counts.tolist())]
        assert got.tolist() == want


@pytest.mark.parametrize(
    "bit_generator", [np.random.PCG64, np.random.PCG64DXSM, np.random.SFC64, np.random.MT19937]
)
def test_the_draws_are_integers_draws(bit_generator: type[np.random.BitGenerator]) -> None:
    _draws(bit_generator)


def test_a_replaced_generator_is_drawn_from_where_it_is() -> None:
    first = [np.random.default_rng(1), np.random.default_rng(2)]
    integers = GeneratorIntegers(first)
    integers.below(np.array([0, 1]), np.array([10, 10]))  # each keeps a half
    fresh, expected = np.random.default_rng(9), np.random.default_rng(9)
    fresh.integers(3)
    expected.integers(3)
    integers.replace(np.array([1]), [fresh])
    picks = integers.below(np.array([1]), np.array([1000]))
    assert picks.tolist() == [int(expected.integers(1000))]
