"""The search of :mod:`express.endgame` as loops over arrays, compiled by numba (the ``compiled``
extra) where the pure search would take seconds.

:func:`express.endgame.expected_values` is the reference: this module runs the same
expectiminimax — the same values, the same integer scaling, the same shortcut at the last
turn — over tables it is given instead of Python objects, so that numba can compile it. The
tables come from the reference's own :class:`express.exact_multi.World`: every position each
train can reach within the search, its successors by card face up and face down, and the end
terms of every pair of final positions from :func:`express.score_game` (grouped by what they
depend on, see :meth:`express.exact_multi.World.end_key`), so no rule is written again here.
The tests compare the two searches on many positions.

The tables are ``(up0, down0, up1, down1, final0, final1, ends, values, powers)``: for each
seat's train (seat 0 the start player), the local id after each card face up (-1 where it
does not connect) and after a card face down; each final position's end-term group and the
end terms of seat 0 less seat 1's for each pair of groups; each card's value, and last the
value of a card face down (:data:`express.rules.FACE_DOWN_VALUE`); each card's weight in the
code of the cards left. The last turn is seat 1's: two players play the same number of rounds.

A state is kept in an open-addressing hash table of two 64-bit words (turn, hand, positions;
the cards left and, for the win objective, the lead) — numba's own dictionaries are slower to
build and to probe.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from arena.extras import compile_loops, has_extra

__all__ = ["available", "compiled_search"]

Ints = npt.NDArray[np.int64]

_EMPTY: Final = -1
"""A free slot of the hash table (no real key word is negative)."""

# Where the search's counters live in its ``counters`` array.
_NODES, _STORED, _LIMIT, _STOPPED = range(4)


def available() -> bool:
    """Whether numba is installed (the ``compiled`` extra)."""
    return has_extra("compiled")


def _scale(t: int, left: int, turns: int) -> int:
    """The product of the numbers of cards left at each draw after turn ``t``'s play."""
    scale = 1
    for turn in range(t + 1, turns):
        scale *= left - (turn - t - 1)
    return scale


def _final(
    p0: int, p1: int, lead: int, final0: Ints, final1: Ints, ends: Ints, win: bool, tie0: bool
) -> int:
    """Seat 0's value at the end: its margin, or 1 if it wins (``tie0``: a tie is its win)."""
    margin = int(lead + ends[final0[p0], final1[p1]])
    if not win:
        return margin
    if margin > 0 or (margin == 0 and tie0):
        return 1
    return 0


def _last_turn(
    r0: int,
    r1: int,
    pile: Ints,
    p0: int,
    p1: int,
    lead: int,
    tables: tuple[Ints, Ints, Ints, Ints, Ints, Ints, Ints, Ints, Ints],
    win: bool,
    tie0: bool,
) -> int:
    """The chance node before the last turn (played by seat 1): its best play among the cards
    passed to it face up, any card face down, and the drawn card face up."""
    _, _, up1, down1, final0, final1, ends, values, _ = tables
    position = p1
    anyway = _final(p0, down1[position], lead - values[-1], final0, final1, ends, win, tie0)
    for card in (r0, r1):
        moved = up1[position, card]
        if moved >= 0:
            value = _final(p0, moved, lead - values[card], final0, final1, ends, win, tie0)
            anyway = min(anyway, value)
    total = 0
    for card in range(pile.shape[0]):
        copies = pile[card]
        if copies:
            moved = up1[position, card]
            best = anyway
            if moved >= 0:
                value = _final(p0, moved, lead - values[card], final0, final1, ends, win, tie0)
                best = min(anyway, value)
            total += copies * best
    return total


def _probe(keys: Ints, k1: int, k2: int) -> int:
    """The slot of key ``(k1, k2)`` in the table: where it is, or the free slot it would take."""
    mask = keys.shape[0] - 1
    # Multipliers below 2**63: numba's int64 products wrap, Python's grow; the mask keeps both.
    slot = ((k1 * 0x2545F4914F6CDD1D) ^ (k2 * 0x1B873593)) & mask
    while keys[slot, 0] != _EMPTY and (keys[slot, 0] != k1 or keys[slot, 1] != k2):
        slot = (slot + 1) & mask
    return int(slot)


def _decide(
    t: int,
    h0: int,
    h1: int,
    h2: int,
    pile: Ints,
    pile_code: int,
    p0: int,
    p1: int,
    lead: int,
    tables: tuple[Ints, Ints, Ints, Ints, Ints, Ints, Ints, Ints, Ints],
    turns: int,
    win: bool,
    tie0: bool,
    keys: Ints,
    stored: Ints,
    counters: Ints,
) -> int:
    """Seat 0's scaled value of the decision at turn ``t`` with the hand ``h0 <= h1 <= h2``."""
    if counters[_STOPPED]:
        return 0
    left = 0
    for card in range(pile.shape[0]):
        left += pile[card]
    offset = 0 if win else lead * _scale(t, left, turns)
    kept = lead + 512 if win else 0
    k1 = ((t * 32 + h0) * 32 + h1) * 32 + h2
    k1 = (k1 * 1048576 + p0) * 1048576 + p1
    k2 = pile_code * 1024 + kept
    slot = _probe(keys, k1, k2)
    if keys[slot, 0] != _EMPTY:
        return int(stored[slot]) + offset
    counters[_NODES] += 1
    if counters[_LIMIT] >= 0 and counters[_NODES] > counters[_LIMIT]:
        counters[_STOPPED] = 1
        return 0
    up0, down0, up1, down1, _, _, _, values, _ = tables
    seat1 = t % 2 == 1
    position = p1 if seat1 else p0
    hand = (h0, h1, h2)
    best = 0
    first = True
    for i in range(3):
        card = hand[i]
        if i and hand[i - 1] == card:
            continue  # identical cards are one choice
        r0 = hand[1] if i == 0 else hand[0]
        r1 = hand[1] if i == 2 else hand[2]
        for face_up in (True, False):
            if face_up:
                moved = up1[position, card] if seat1 else up0[position, card]
                if moved < 0:
                    continue
                gain = values[card]
            else:
                moved = down1[position] if seat1 else down0[position]
                gain = values[-1]  # the last entry: a card face down
            q0 = p0 if seat1 else moved
            q1 = moved if seat1 else p1
            after = lead - gain if seat1 else lead + gain
            value = _after_play(
                t, r0, r1, pile, pile_code, q0, q1, after,
                tables, turns, win, tie0, keys, stored, counters,
            )  # fmt: skip
            if first or (value < best if seat1 else value > best):
                best = value
                first = False
    if counters[_STOPPED]:
        return 0
    slot = _probe(keys, k1, k2)  # the table may have grown past the slot found above
    keys[slot, 0] = k1
    keys[slot, 1] = k2
    stored[slot] = best - offset
    counters[_STORED] += 1
    if 10 * counters[_STORED] > 7 * keys.shape[0]:
        counters[_STOPPED] = 2  # too full: the caller starts again with a larger table
    return best


def _sorted3(a: int, b: int, c: int) -> tuple[int, int, int]:
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return a, b, c


def _after_play(
    t: int,
    r0: int,
    r1: int,
    pile: Ints,
    pile_code: int,
    p0: int,
    p1: int,
    lead: int,
    tables: tuple[Ints, Ints, Ints, Ints, Ints, Ints, Ints, Ints, Ints],
    turns: int,
    win: bool,
    tie0: bool,
    keys: Ints,
    stored: Ints,
    counters: Ints,
) -> int:
    """Seat 0's scaled value once turn ``t``'s play is made (``r0``, ``r1`` passed on)."""
    _, _, _, _, final0, final1, ends, _, powers = tables
    if t + 1 == turns:
        return _final(p0, p1, lead, final0, final1, ends, win, tie0)
    if t + 2 == turns:
        return _last_turn(r0, r1, pile, p0, p1, lead, tables, win, tie0)
    total = 0
    for drawn in range(pile.shape[0]):
        copies = pile[drawn]
        if not copies:
            continue
        pile[drawn] -= 1
        a, b, c = _sorted3(r0, r1, drawn)
        total += copies * _decide(
            t + 1, a, b, c, pile, pile_code - powers[drawn], p0, p1, lead,
            tables, turns, win, tie0, keys, stored, counters,
        )  # fmt: skip
        pile[drawn] += 1
    return total


_LOOPS: Final = ("_scale", "_final", "_last_turn", "_probe", "_sorted3", "_decide", "_after_play")


@cache
def _compiled() -> Callable[..., int]:
    """The loops compiled (:func:`arena.extras.compile_loops`), each calling the others'
    compiled forms."""
    # Not cached on disk: numba's cache of recursive functions crashes the process that loads
    # it (numba issue 6061), and the search recurses. Compiling takes a few seconds a process.
    compile_loops(globals(), _LOOPS, lambda name: {"cache": False})
    after_play: Callable[..., int] = globals()["_after_play"]
    return after_play


def compiled_search(
    moves: list[tuple[int, int, int, int, int, int]],
    t: int,
    pile: Ints,
    tables: tuple[Ints, ...],
    turns: int,
    win: bool,
    tie0: bool,
    node_limit: int | None,
) -> tuple[list[int], int] | None:
    """Seat 0's scaled value after each root move ``(r0, r1, q0, q1, lead, _)`` of turn ``t``
    and the states searched, or None when ``node_limit`` stopped it. Raises
    :class:`arena.MissingExtraError` without numba."""
    after_play = _compiled()
    powers = tables[-1]
    pile_code = int(np.dot(pile, powers))
    size = 1 << 16
    while True:
        keys = np.full((size, 2), _EMPTY, np.int64)
        stored = np.zeros(size, np.int64)
        counters = np.array([0, 0, -1 if node_limit is None else node_limit, 0], np.int64)
        work = pile.copy()
        values = []
        for r0, r1, q0, q1, lead, _ in moves:
            values.append(
                int(
                    after_play(
                        t,
                        r0,
                        r1,
                        work,
                        pile_code,
                        q0,
                        q1,
                        lead,
                        tables,
                        turns,
                        win,
                        tie0,
                        keys,
                        stored,
                        counters,
                    )  # fmt: skip
                )
            )
            if counters[_STOPPED]:
                break
        if counters[_STOPPED] == 2:
            size *= 4
            continue
        if counters[_STOPPED] == 1:
            return None
        return values, int(counters[_NODES])
