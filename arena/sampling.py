"""Exact sampling of chance outcomes from a seeded generator: no float rounding, so the same
generator state gives the same outcome on every machine.

>>> import numpy as np
>>> from fractions import Fraction
>>> sample_outcome([("heads", Fraction(1, 2)), ("tails", Fraction(1, 2))], np.random.default_rng(0))
'tails'
"""

from __future__ import annotations

import itertools
import math
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction

import numpy as np

from arena.errors import ArenaError
from arena.memo import IdentityMemo
from arena.protocol import Action

__all__ = [
    "RESIDUE_TABLE_LIMIT",
    "RESIDUE_TABLE_PER_OUTCOME",
    "Sampler",
    "known_sampler",
    "outcome_drawer",
    "raw_words",
    "sample_outcome",
    "sampler_for",
]


#: A sampler keeps the outcome of every residue when its common denominator is at most this
#: and at most ``RESIDUE_TABLE_PER_OUTCOME`` times its number of outcomes: the table then costs
#: about what the outcomes' fractions cost to read, and a cache of samplers stays small.
RESIDUE_TABLE_LIMIT = 1 << 13
RESIDUE_TABLE_PER_OUTCOME = 16


class Sampler:
    """Exact sampling from one list of outcomes: an integer draw below the common denominator.

    Drawing an integer in ``[0, lcm of denominators)`` and walking the cumulative numerators
    gives each outcome exactly its probability — no float rounding, so the same generator state
    gives the same outcome on every machine. The integer comes from the generator's raw 64-bit
    words by rejection (words below the largest multiple of the denominator are kept, so every
    residue is equally likely): exact for any denominator, and several times cheaper than
    ``Generator.integers`` per call, which matters at a hundred chance nodes a game.
    """

    __slots__ = ("actions", "cumulative", "denominator", "words", "limit", "by_residue")

    def __init__(self, outcomes: Sequence[tuple[Action, Fraction]]) -> None:
        if not outcomes:
            raise ArenaError("a chance node with no outcomes")
        denominator = math.lcm(*(Fraction(p).denominator for _, p in outcomes))
        cumulative: list[int] = []
        total = 0
        for _, probability in outcomes:
            p = Fraction(probability)
            if p < 0:
                raise ArenaError(f"negative chance probability: {p}")
            total += p.numerator * (denominator // p.denominator)
            cumulative.append(total)
        if total != denominator:
            raise ArenaError(f"chance probabilities sum to {Fraction(total, denominator)}, not 1")
        self.actions = [action for action, _ in outcomes]
        self.cumulative = cumulative
        self.denominator = denominator
        self.words = max(1, -(-denominator.bit_length() // 64))
        span = 1 << (64 * self.words)
        self.limit = span - span % denominator
        # For a small denominator, the walk's answer for every residue, worked out once: a
        # draw is then one index (the 7,776 equally likely rolls of five dice, a pile's trucks).
        self.by_residue: list[Action] | None = None
        if denominator <= min(RESIDUE_TABLE_LIMIT, RESIDUE_TABLE_PER_OUTCOME * len(cumulative)):
            self.by_residue = [
                self.actions[bisect_right(cumulative, r)] for r in range(denominator)
            ]

    def draw(self, rng: np.random.Generator) -> Action:
        return self.draw_from(rng.bit_generator.random_raw)

    def draw_from(self, raw: Callable[[], int]) -> Action:
        """The draw, from a source of the generator's raw 64-bit words, one per call (its bound
        ``random_raw``, or :func:`raw_words`)."""
        if self.denominator == 1:
            return self.actions[0]
        limit = self.limit
        if self.words == 1:  # the usual case: one word (an int already), no loop to build one
            r = raw()
            while r >= limit:
                r = raw()
        else:
            while True:
                r = int(raw())
                for _ in range(self.words - 1):
                    r = (r << 64) | int(raw())
                if r < limit:
                    break
        r %= self.denominator
        if self.by_residue is not None:
            return self.by_residue[r]
        return self.actions[bisect_right(self.cumulative, r)]


def raw_words(bit_generator: np.random.BitGenerator, batch: int = 64) -> Iterator[int]:
    """The bit generator's raw 64-bit words, in the order successive ``random_raw()`` calls
    give them, fetched ``batch`` at a time: the same words, so the same draws, for a fraction
    of the cost of one call per word (``random_raw()`` parses its arguments and builds its
    result every time; ``next`` on this chain of lists runs in C between batches)."""
    batches = map(lambda _: bit_generator.random_raw(batch).tolist(), itertools.repeat(None))
    return itertools.chain.from_iterable(batches)


# Games return the same outcome tuple at recurring chance nodes (the 900 cargos of a roll, the 16
# cabooses), and a sampler for 900 fractions costs far more to build than to use: samplers are
# kept across games, found again by the tuple's identity. Only tuples (immutable) are kept.
_KNOWN: IdentityMemo[Sequence[tuple[Action, Fraction]], Sampler] = IdentityMemo(limit=256)


def known_sampler(outcomes: Sequence[tuple[Action, Fraction]]) -> Sampler | None:
    """The sampler kept for this very outcome tuple (by identity), or None."""
    return _KNOWN.get(outcomes)


def sampler_for(outcomes: Sequence[tuple[Action, Fraction]]) -> Sampler:
    """The sampler of ``outcomes``: the one kept for this tuple, or a new one (kept when
    ``outcomes`` is a tuple)."""
    sampler = _KNOWN.get(outcomes)
    if sampler is not None:
        return sampler
    sampler = Sampler(outcomes)
    if isinstance(outcomes, tuple):  # a list may change in place: only tuples are kept
        _KNOWN.put(outcomes, sampler)
    return sampler


def sample_outcome(outcomes: Sequence[tuple[Action, Fraction]], rng: np.random.Generator) -> Action:
    """One outcome drawn with exactly its probability (the same draw as :func:`play` makes)."""
    return sampler_for(outcomes).draw(rng)


def outcome_drawer(
    rng: np.random.Generator,
) -> Callable[[Sequence[tuple[Action, Fraction]]], Action]:
    """A function that draws one outcome of the outcomes it is given, as successive
    :func:`sample_outcome` calls with ``rng`` would (the same draws), for less: it reads the
    generator's words in batches. So the generator must serve the drawer alone from then on —
    the generator itself runs ahead of the draws.

    >>> import numpy as np
    >>> from fractions import Fraction
    >>> coin = (("heads", Fraction(1, 2)), ("tails", Fraction(1, 2)))
    >>> draw = outcome_drawer(np.random.default_rng(0))
    >>> [draw(coin) for _ in range(4)] == [
    ...     sample_outcome(coin, rng) for rng in [np.random.default_rng(0)] for _ in range(4)
    ... ]
    True
    """
    return _Drawer(rng.bit_generator)


class _Words:
    """The bit generator's raw words as :func:`raw_words` gives them, as a callable that pickles
    and deep-copies with the words fetched and not used yet (an environment that copies
    itself must copy its chance too)."""

    __slots__ = ("_bit_generator", "_batch", "_words", "_next")

    def __init__(self, bit_generator: np.random.BitGenerator, batch: int = 64) -> None:
        self._bit_generator = bit_generator
        self._batch = batch
        self._refill([])

    def _refill(self, words: list[int]) -> None:
        self._words = words
        self._next = iter(words).__next__

    def __call__(self) -> int:
        try:
            return self._next()
        except StopIteration:
            self._refill(self._bit_generator.random_raw(self._batch).tolist())
            return self._next()

    def __getstate__(self) -> tuple[np.random.BitGenerator, int, list[int]]:
        left = []
        while True:  # the unused words, read off a copy of the iterator's list
            try:
                left.append(self._next())
            except StopIteration:
                break
        self._refill(left)
        return self._bit_generator, self._batch, list(left)

    def __setstate__(self, state: tuple[np.random.BitGenerator, int, list[int]]) -> None:
        self._bit_generator, self._batch, words = state
        self._refill(list(words))


class _Drawer:
    """:func:`outcome_drawer`'s function, as an object so that it pickles."""

    __slots__ = ("_raw",)

    def __init__(self, bit_generator: np.random.BitGenerator) -> None:
        self._raw = _Words(bit_generator)

    def __call__(self, outcomes: Sequence[tuple[Action, Fraction]]) -> Action:
        # The memo's lookup first, inline: one call per chance node when the sampler is known.
        return (_KNOWN.get(outcomes) or sampler_for(outcomes)).draw_from(self._raw)

    def __getstate__(self) -> _Words:
        return self._raw

    def __setstate__(self, state: _Words) -> None:
        self._raw = state
