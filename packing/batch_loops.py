"""Pack & Stack's batched games as compiled loops: :meth:`packing.batch.Batch.run` with numba.

The NumPy engine pays a call per array operation over games × trucks, dozens of them a grab;
these loops play one game at a time to its end instead, compiled by numba (the
``compiled`` extra), with the same state arrays, the same shared chance (the same SplitMix64
answers to the same questions, :class:`arena.batch.SharedChance`) and the same bots. So a batch
ends the same either way, which the engine's tests check game by game; :meth:`Batch.run
<packing.batch.Batch.run>` takes these loops whenever numba is installed and the batch can be
played by them (shared chance, every seat a batched bot, no records).

The functions below are plain Python in the subset numba compiles; :func:`compiled_run`
compiles them at its first call (numba's cache keeps the machine code on disk, so later
processes load it in a fraction of a second). This module also holds the codes of the batch's
state that both engines read.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from arena.batch import GOLDEN, MIX1, MIX2
from arena.extras import compile_loops, has_extra
from packing.rules import ROUND_WIN_BONUS

__all__ = ["BOT_CODES", "STATE", "available", "compiled_run"]

Ints = npt.NDArray[np.int64]
Bytes = npt.NDArray[np.int8]
Words = npt.NDArray[np.uint64]
Flags = npt.NDArray[np.bool_]
Floats = npt.NDArray[np.float64]

#: Where a truck is (``Batch.place``): the pile, the discards, in front of player p (FRONT + p,
#: drawn and not taken), taken by player p (FRONT + n + p).
PILE: Final = 0
DISCARDS: Final = 1
FRONT: Final = 2

#: The batch's arrays the loops play on, by their names in :class:`packing.batch.Batch`, in the
#: order :func:`compiled_run` takes them.
STATE: Final = (
    "over",
    "round",
    "step",
    "cargo",
    "place",
    "pile",
    "pile_size",
    "pile_top",
    "shuffles",
    "drawn",
    "order",
    "taken",
    "source",
    "points",
)

#: Kinds of chance question, part of the key a shared answer is hashed from.
ROLL_QUESTION: Final = 0
ORDER_QUESTION: Final = 1

_RANDOM, _CAPACITY, _OPTIMAL, _BONUS_AWARE = range(4)

#: The bots the loops play, by their ``VectorBot.kind``, and the code each is passed as.
BOT_CODES: Final = {
    "random": _RANDOM,
    "capacity": _CAPACITY,
    "optimal": _OPTIMAL,
    "bonus-aware": _BONUS_AWARE,
}

_ROLL_COMBOS: Final = 7776  # the 6**5 equally likely faces of the five dice
_ALL_BITS: Final = np.uint64(0xFFFFFFFFFFFFFFFF)
_NO_TRUCK: Final = np.iinfo(np.int64).max


def available() -> bool:
    """Whether numba is installed (the ``compiled`` extra), so the loops can run."""
    return has_extra("compiled")


# --- chance: SharedChance's hash, one answer at a time ----------------------------------------


def _mix(x: np.uint64) -> np.uint64:
    x = x ^ (x >> np.uint64(30))
    x = x * MIX1
    x = x ^ (x >> np.uint64(27))
    x = x * MIX2
    return x ^ (x >> np.uint64(31))


def _below(key: np.uint64, size: int, tag: int) -> int:
    """SharedChance's answer below ``size`` to question ``tag`` for the game keyed ``key``."""
    return int(_mix(key + np.uint64(tag) * GOLDEN) % np.uint64(size))


def _shuffle(
    g: int,
    among: npt.NDArray[np.bool_],
    keys: Words,
    pile: Bytes,
    pile_top: Ints,
    shuffles: Ints,
    order_keys: Words,
) -> None:
    """Game ``g``'s pile: the trucks ``among`` in the order SharedChance.order hashes from its
    deal and its reshuffles so far, the others after them in deck order (``order_keys``: room
    for the keys sorted)."""
    trucks = pile.shape[1]
    salt = _mix(keys[g] ^ _mix(np.uint64(shuffles[g]) + GOLDEN))
    # A stable insertion sort by key (NumPy's stable argsort's order): a pile is a few dozen
    # trucks, where it beats a general sort.
    for i in range(trucks):
        key = _mix(salt + np.uint64(i) * GOLDEN) if among[i] else _ALL_BITS
        at = i
        while at > 0 and order_keys[at - 1] > key:
            order_keys[at] = order_keys[at - 1]
            pile[g, at] = pile[g, at - 1]
            at -= 1
        order_keys[at] = key
        pile[g, at] = i
    pile_top[g] = 0


def _draw(
    g: int,
    keys: Words,
    place: Bytes,
    pile: Bytes,
    pile_size: Ints,
    pile_top: Ints,
    shuffles: Ints,
    scratch: tuple[Flags, Words],
) -> int:
    """The top of game ``g``'s pile (the discards reshuffled into the pile when it is empty;
    ``scratch``: room for a reshuffle)."""
    if pile_size[g] == 0:
        discarded, order_keys = scratch
        size = 0
        for t in range(place.shape[1]):
            discarded[t] = place[g, t] == DISCARDS
            if discarded[t]:
                place[g, t] = PILE
                size += 1
        pile_size[g] = size
        shuffles[g] += 1
        _shuffle(g, discarded, keys, pile, pile_top, shuffles, order_keys)
    pile_size[g] -= 1
    top = pile_top[g]
    pile_top[g] = top + 1
    return int(pile[g, top])


# --- the rules ---------------------------------------------------------------------------------
# Each function takes the batch's arrays it reads or writes, by their names in packing.batch.Batch
# (numba passes an array argument without counting a reference to it, which a tuple of them
# would cost at every use).


def _start(
    g: int,
    keys: Words,
    round_: Ints,
    step: Ints,
    cargo: Ints,
    place: Bytes,
    pile: Bytes,
    pile_size: Ints,
    pile_top: Ints,
    shuffles: Ints,
    drawn: Ints,
    order: Ints,
    orders: Ints,
    faces: Ints,
    scratch: tuple[Flags, Words],
) -> None:
    """Game ``g``'s round: rolls, draws and the grab order, to its first grab."""
    n, d = cargo.shape[1], drawn.shape[2]
    first = (round_[g] - 1) % n
    question = round_[g] * 4
    for i in range(n):  # from the first roller on
        seat = (first + i) % n
        combo = _below(keys[g], _ROLL_COMBOS, (question + ROLL_QUESTION) * 256 + seat)
        cargo[g, seat] = faces[combo]
    rank = _below(keys[g], orders.shape[0], (question + ORDER_QUESTION) * 256)
    for k in range(n * d):  # draws, each player its d in turn
        seat = (first + k // d) % n
        j = _draw(g, keys, place, pile, pile_size, pile_top, shuffles, scratch)
        place[g, j] = FRONT + seat
        drawn[g, seat, k % d] = j
    for p in range(n):
        order[g, p] = orders[rank, p]
    step[g] = 0


def _score(
    g: int, cargo: Ints, place: Bytes, drawn: Ints, taken: Ints, points: Ints, penalties: Ints
) -> bool:
    """Load optimally (the table), score, discard the round's trucks; whether the game ends."""
    n, d = cargo.shape[1], drawn.shape[2]
    low = _NO_TRUCK
    for p in range(n):
        low = min(low, penalties[cargo[g, p], taken[g, p]])
    lowest_points = _NO_TRUCK
    for p in range(n):
        penalty = penalties[cargo[g, p], taken[g, p]]
        points[g, p] += -penalty + (ROUND_WIN_BONUS if penalty == low else 0)
        lowest_points = min(lowest_points, points[g, p])
    for p in range(n):
        for k in range(d):
            place[g, drawn[g, p, k]] = DISCARDS
    for p in range(n):
        place[g, taken[g, p]] = DISCARDS
    return lowest_points <= 0


def _take(
    g: int,
    grab: int,
    keys: Words,
    step: Ints,
    place: Bytes,
    pile: Bytes,
    pile_size: Ints,
    pile_top: Ints,
    shuffles: Ints,
    order: Ints,
    taken: Ints,
    source: Ints,
    scratch: tuple[Flags, Words],
) -> None:
    """Game ``g``'s player to act takes truck ``grab`` (the pile: the deck's size)."""
    n, trucks = order.shape[1], place.shape[1]
    player = order[g, step[g]]
    if grab < trucks:
        source[g, player] = place[g, grab] - FRONT
    else:
        grab = _draw(g, keys, place, pile, pile_size, pile_top, shuffles, scratch)
        source[g, player] = -1
    place[g, grab] = FRONT + n + player
    taken[g, player] = grab
    step[g] += 1


# --- the bots ----------------------------------------------------------------------------------


def _options(
    g: int, step: Ints, place: Bytes, drawn: Ints, order: Ints, options: Ints, open_: Flags
) -> None:
    """Into ``options``, the revealed trucks of game ``g`` in the scalar game's order (owners in
    seat order, each owner's as drawn), and into ``open_`` which of them its player may take."""
    n, d = drawn.shape[1], drawn.shape[2]
    player = order[g, step[g]]
    for s in range(n * d):
        owner = s // d
        options[s] = drawn[g, owner, s % d]
        # The last grabber must take the pile.
        open_[s] = place[g, options[s]] == FRONT + owner and owner != player and step[g] < n - 1


def _pool(g: int, place: Bytes) -> int:
    """Where the trucks the top of game ``g``'s pile may be are: the pile, or the discards when
    the pile is empty."""
    for t in range(place.shape[1]):
        if place[g, t] == PILE:
            return PILE
    return DISCARDS


def _pile_sum(g: int, place: Bytes, row: Ints) -> tuple[int, int]:
    """The sum of ``row`` over the trucks the top of game ``g``'s pile may be, and their number."""
    where = _pool(g, place)
    total, size = 0, 0
    for t in range(place.shape[1]):
        if place[g, t] == where:
            total += row[t]
            size += 1
    return total, size


def _random(g: int, own_keys: Words, round_: Ints, step: Ints, options: Ints, open_: Flags) -> int:
    """RandomPolicy's choice among the open options and the pile (the last)."""
    pick = _below(own_keys[g], open_.sum() + 1, round_[g] * 8 + step[g])
    for s in range(len(options)):
        if open_[s]:
            if pick == 0:
                return int(options[s])
            pick -= 1
    return -1


def _capacity(volume: int, capacities: Ints, options: Ints, open_: Flags) -> int:
    """CapacityBot's choice: the open truck nearest the cargo's volume; -1, the pile."""
    best, best_key = -1, _NO_TRUCK
    for s in range(len(options)):
        if open_[s]:
            capacity = capacities[options[s]]
            # capacity_preference: the distance, ties to the larger capacity, then the earlier.
            key = abs(capacity - volume) * 1024 - capacity
            if key < best_key:
                best, best_key = int(options[s]), key
    return best


def _optimal(g: int, place: Bytes, row: Ints, options: Ints, open_: Flags) -> int:
    """OptimalBot's choice for the cargo whose penalties are ``row``; -1, the pile."""
    best, low = -1, _NO_TRUCK
    for s in range(len(options)):
        if open_[s] and row[options[s]] < low:
            best, low = int(options[s]), row[options[s]]
    if best < 0:
        return -1
    total, size = _pile_sum(g, place, row)
    # The pile wins only strictly below every revealed truck (ties keep the earlier option):
    # total / size < low, compared exactly in integers.
    return -1 if total < low * size else best


def _bonus_aware(
    g: int,
    step: Ints,
    cargo: Ints,
    place: Bytes,
    drawn: Ints,
    order: Ints,
    taken: Ints,
    penalties: Ints,
    options: Ints,
    open_: Flags,
    room: tuple[Ints, Ints, Ints, Flags, Ints, Floats, Floats],
) -> int:
    """BonusAwareBot's choice, with the NumPy engine's arithmetic (``Batch._bonus_aware``); -1,
    the pile. ``room``: the arrays it fills, made once by :func:`_run`."""
    pool, at_least, pile_total, left, fixed, chances, values = room
    n, d, trucks = drawn.shape[1], drawn.shape[2], place.shape[1]
    slots, highest = n * d, at_least.shape[1] - 2
    now = step[g]
    if now == n - 1:  # the last grabber takes the pile
        return -1
    my_roll = cargo[g, order[g, now]]
    where = _pool(g, place)
    pool_size = 0
    for t in range(trucks):
        if place[g, t] == where:
            pool[pool_size] = t
            pool_size += 1
    # The players who grabbed before me: their penalties are known, only the lowest matters.
    known = _NO_TRUCK
    for i in range(now):
        q = order[g, i]
        known = min(known, penalties[cargo[g, q], taken[g, q]])
    for at in range(now + 1, n):
        roll = cargo[g, order[g, at]]
        total = 0
        for j in range(pool_size):
            total += penalties[roll, pool[j]]
        pile_total[at] = total
        at_least[at, 0] = -1  # not counted yet (see _count)
    # The players after me, each predicted to grab like ``optimal`` from what is left, if I take
    # the pile: row 0 of ``left``, ``fixed`` and ``chances``. A truck I take changes that
    # prediction only when one of them was predicted to take it (each one's first lowest is
    # still there otherwise): row 1, made again for each such truck.
    lowest = _predict(
        g, now, slots, place, cargo, order, penalties, options, pile_total, pool_size, room
    )
    floor = min(known, lowest)
    limit = min(floor, highest)
    _chances(g, now, 0, 0, limit, cargo, order, penalties, pool_size, room)
    # My choices: each open revealed truck, then the pile (slot ``slots``), valued by the chance
    # that no one's penalty is below mine (the bonus) and my expected penalty.
    best_value = -np.inf
    for a in range(slots + 1):
        values[a] = -np.inf
        if a < slots and not open_[a]:
            continue
        if a < slots:
            mine = penalties[my_roll, options[a]]
            if left[0, a]:  # the prediction stands (above ``limit``, the chance is 0)
                p_bonus = chances[0, min(mine, limit + 1)]
            else:  # someone after me was predicted to take it: they grab otherwise
                p_bonus = 0.0
                if mine <= known:
                    then = _predict(
                        g,
                        now,
                        a,
                        place,
                        cargo,
                        order,
                        penalties,
                        options,
                        pile_total,
                        pool_size,
                        room,
                    )
                    if mine <= then:  # the one chance needed, at my penalty
                        _chances(g, now, 1, mine, mine, cargo, order, penalties, pool_size, room)
                        p_bonus = chances[1, mine]
            # The NumPy engine's sum over the deck of a weight (1 on this truck, 0 elsewhere)
            # times the chance is this one term: the zeros it adds change no bit.
            expected = float(mine)
        else:
            # Each truck of the pool equally likely, summed in deck order as the NumPy engine's
            # ``weights * survive`` is: the trucks outside the pool add zeros there, and so do
            # those on which someone else is sure to do better here; a zero changes no bit.
            weight = 1.0 / pool_size
            p_bonus, expected = 0.0, 0.0
            for j in range(pool_size):
                mine = penalties[my_roll, pool[j]]
                p_bonus += weight * chances[0, min(mine, limit + 1)]
                expected += weight * mine
        values[a] = ROUND_WIN_BONUS * p_bonus - expected
        best_value = max(best_value, values[a])
    # The first option within 1e-12 of the best, as the scalar bot's ``> best + 1e-12``.
    for a in range(slots):
        if values[a] >= best_value - 1e-12:
            return int(options[a])
    return -1


def _predict(
    g: int,
    now: int,
    mine: int,
    place: Bytes,
    cargo: Ints,
    order: Ints,
    penalties: Ints,
    options: Ints,
    pile_total: Ints,
    pool_size: int,
    room: tuple[Ints, Ints, Ints, Flags, Ints, Floats, Floats],
) -> int:
    """The players after ``now`` grabbing like ``optimal`` once the player at ``now`` took slot
    ``mine`` (``slots``: the pile), into row ``k`` (0 for the pile, else 1) of ``left``, the
    revealed trucks still there after them, and of ``fixed``: ``fixed[k, at]``, the penalty the
    player grabbing at ``at`` takes (:data:`_NO_TRUCK`: one from the pile). Returns the lowest
    of those (:data:`_NO_TRUCK` when all take the pile)."""
    left, fixed = room[3], room[4]
    n, slots = order.shape[1], left.shape[1]
    d, k = slots // n, 0 if mine == slots else 1
    # Slot s is owner s // d's, found by counting (a division each would cost more than the rest).
    for owner in range(n):
        for s in range(owner * d, owner * d + d):
            left[k, s] = place[g, options[s]] == FRONT + owner and s != mine
    lowest = _NO_TRUCK
    for at in range(now + 1, n):
        q = order[g, at]
        best, low = -1, _NO_TRUCK
        if at < n - 1:  # the last grabber takes the pile
            for owner in range(n):
                if owner == q:
                    continue
                for s in range(owner * d, owner * d + d):
                    x = penalties[cargo[g, q], options[s]]
                    if left[k, s] and x < low:
                        best, low = s, x
        # As ``optimal``: the pile only when its mean is strictly below every revealed truck.
        if best < 0 or pile_total[at] < low * pool_size:
            fixed[k, at] = _NO_TRUCK
        else:
            left[k, best] = False
            fixed[k, at] = low
            lowest = min(lowest, low)
    return lowest


def _chances(
    g: int,
    now: int,
    k: int,
    first: int,
    limit: int,
    cargo: Ints,
    order: Ints,
    penalties: Ints,
    pool_size: int,
    room: tuple[Ints, Ints, Ints, Flags, Ints, Floats, Floats],
) -> None:
    """Into ``chances[k, m]`` for each penalty ``m`` from ``first`` to ``limit``, and 0 at
    ``limit + 1``: the chance that none of the players after ``now`` takes a penalty below
    ``m``, given that none of the penalties row ``k`` of ``fixed`` predicts is. That is the
    product of the pile's odds (a count over the pool's size) of those who take the pile,
    multiplied in grab order from 1.0, as the NumPy engine's ``survive`` is (its factors of 1.0
    change no bit)."""
    at_least, fixed, chances = room[1], room[4], room[5]
    chances[k, limit + 1] = 0.0
    if first > limit:
        return
    for m in range(first, limit + 1):
        chances[k, m] = 1.0
    for at in range(now + 1, order.shape[1]):
        if fixed[k, at] == _NO_TRUCK:
            _count(g, at, cargo, order, penalties, pool_size, room)
            for m in range(first, limit + 1):
                chances[k, m] *= at_least[at, m] / pool_size


def _count(
    g: int,
    at: int,
    cargo: Ints,
    order: Ints,
    penalties: Ints,
    pool_size: int,
    room: tuple[Ints, Ints, Ints, Flags, Ints, Floats, Floats],
) -> None:
    """Into ``at_least[at, v]``, unless it is there already, how many trucks of the pool give
    the player grabbing at ``at`` a penalty of at least ``v``, for every ``v``: a histogram
    summed from the top (penalties are never negative, and none is as high as the last ``v``)."""
    pool, at_least = room[0], room[1]
    if at_least[at, 0] >= 0:
        return
    top = at_least.shape[1] - 1
    roll = cargo[g, order[g, at]]
    for v in range(top + 1):
        at_least[at, v] = 0
    for j in range(pool_size):
        at_least[at, penalties[roll, pool[j]]] += 1
    for v in range(top - 1, -1, -1):
        at_least[at, v] += at_least[at, v + 1]


# --- the loop ----------------------------------------------------------------------------------


def _run(
    seating: Ints,
    codes: Ints,
    max_rounds: int,
    keys: Words,
    own_keys: Words,
    state: tuple[Any, ...],
    tables: tuple[Any, ...],
) -> None:
    """Every game of the batch to its end, seat ``s`` of game ``g`` by the bot of code
    ``codes[seating[g, s]]`` (the arguments of :func:`compiled_run`)."""
    over, round_, step, cargo, place, pile, pile_size, pile_top, shuffles = state[:9]
    drawn, order, taken, source, points = state[9:]
    penalties, capacities, volumes, orders, faces = tables
    n, d, trucks = drawn.shape[1], drawn.shape[2], place.shape[1]
    options = np.empty(n * d, np.int64)  # a decision's revealed trucks, and which are open
    open_ = np.empty(n * d, np.bool_)
    scratch = (np.empty(trucks, np.bool_), np.empty(trucks, np.uint64))  # room for a reshuffle
    # Room for the bonus-aware bot's decisions: the trucks of the pool; for each grabber, how
    # many of them give at least each penalty (up to one above the highest), and their sum;
    # two predictions of the revealed trucks left, the penalties taken and the chances of the
    # bonus by my penalty; each option's value.
    highest = penalties.max()
    room = (
        np.empty(trucks, np.int64),
        np.empty((n, highest + 2), np.int64),
        np.empty(n, np.int64),
        np.empty((2, n * d), np.bool_),
        np.empty((2, n), np.int64),
        np.empty((2, highest + 2)),
        np.empty(n * d + 1),
    )
    for g in range(len(over)):
        while not over[g]:
            player = order[g, step[g]]
            code = codes[seating[g, player]]
            _options(g, step, place, drawn, order, options, open_)
            if code == _RANDOM:
                grab = _random(g, own_keys, round_, step, options, open_)
            elif code == _CAPACITY:
                grab = _capacity(volumes[cargo[g, player]], capacities, options, open_)
            elif code == _OPTIMAL:
                grab = _optimal(g, place, penalties[cargo[g, player]], options, open_)
            else:
                grab = _bonus_aware(
                    g,
                    step,
                    cargo,
                    place,
                    drawn,
                    order,
                    taken,
                    penalties,
                    options,
                    open_,
                    room,
                )
            _take(
                g,
                trucks if grab < 0 else grab,
                keys,
                step,
                place,
                pile,
                pile_size,
                pile_top,
                shuffles,
                order,
                taken,
                source,
                scratch,
            )
            if step[g] < n:
                continue
            if _score(g, cargo, place, drawn, taken, points, penalties) or round_[g] == max_rounds:
                over[g] = True
                step[g] = 0
            else:
                round_[g] += 1
                _start(
                    g,
                    keys,
                    round_,
                    step,
                    cargo,
                    place,
                    pile,
                    pile_size,
                    pile_top,
                    shuffles,
                    drawn,
                    order,
                    orders,
                    faces,
                    scratch,
                )


_LOOPS: Final = (
    "_mix",
    "_below",
    "_shuffle",
    "_draw",
    "_start",
    "_score",
    "_take",
    "_options",
    "_pool",
    "_pile_sum",
    "_random",
    "_capacity",
    "_optimal",
    "_predict",
    "_count",
    "_chances",
    "_bonus_aware",
    "_run",
)


# The loops that allocate arrays (numba's runtime, with its reference counts, is on in them only).
_ALLOCATING: Final = ("_run",)

# The bonus-aware bot's helpers, compiled into it (numba calls a compiled function with every
# field of every array argument; inlined, they cost no call).
_INLINED: Final = ("_predict", "_chances", "_count")


@cache
def _compiled() -> Callable[..., None]:
    """The loops compiled (:func:`arena.extras.compile_loops`), each calling the others'
    compiled forms."""

    def options(name: str) -> dict[str, object]:
        # numba counts references to arrays (atomic operations) wherever its runtime is on:
        # off, where nothing is allocated, the loops run some 2.5 times as fast.
        return {"_nrt": name in _ALLOCATING, "inline": "always" if name in _INLINED else "never"}

    compile_loops(globals(), _LOOPS, options)
    run: Callable[..., None] = globals()["_run"]
    return run


def compiled_run(
    seating: Ints,
    codes: Ints,
    max_rounds: int | None,
    keys: Words,
    own_keys: Words,
    state: tuple[Any, ...],
    tables: tuple[Any, ...],
) -> None:
    """Play every game of a batch to its end, in place: ``state`` is the batch's arrays named
    in :data:`STATE`, in that order, ``tables`` the engine's ``(penalties, capacities, volumes,
    orders, rolls_of_faces)``, ``keys``/``own_keys`` the shared chance's, ``codes[k]`` the
    :data:`BOT_CODES` code of policy ``k``. Raises :class:`arena.MissingExtraError` without
    numba."""
    _compiled()(
        seating, codes, -1 if max_rounds is None else max_rounds, keys, own_keys, state, tables
    )
