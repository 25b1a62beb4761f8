"""An independent scorer and brute-force enumerator for the express tests.

Written from the rules page alone: it reads cards as plain text (``"R3|G3"``) and knows
nothing of the package's classes, bound or memo. A play is ``(card_text, face_up)``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache

# (colour letter or None for wild, value)
PlainCar = tuple[str | None, int]
PlainPlay = tuple[str, bool]


@cache  # a pure function of the text, called at every node of the enumeration
def halves(card: str) -> tuple[PlainCar, PlainCar]:
    left, right = card.upper().split("|")
    return (left[0], int(left[1:])), (right[0], int(right[1:]))


def cars(plays: Sequence[PlainPlay]) -> list[PlainCar]:
    """The cars after the engine; a face-down card is two wild cars worth 2."""
    row: list[PlainCar] = []
    for card, face_up in plays:
        row.extend(halves(card) if face_up else [(None, 2), (None, 2)])
    return row


def after(last: PlainCar, card: str, face_up: bool) -> PlainCar | None:
    """The train's last car once ``card`` is added after ``last``, or None if it may not be."""
    if not face_up:
        return (None, 2)
    left, right = halves(card)
    if last[0] is not None and left[0] != last[0] and left[1] != last[1]:
        return None
    return right


def last_car(plays: Sequence[PlainPlay]) -> PlainCar | None:
    """The last car of the train ``plays`` make after the engine, or None if one is illegal."""
    last: PlainCar = (None, 0)  # the engine
    for card, face_up in plays:
        follows = after(last, card, face_up)
        if follows is None:
            return None
        last = follows
    return last


def legal(plays: Sequence[PlainPlay]) -> bool:
    return last_car(plays) is not None


def longest_run(row: Sequence[PlainCar]) -> int:
    best = run = 0
    previous: str | None = None
    for color, _ in row:
        if color is None:
            run = 0
        elif color == previous:
            run += 1
        else:
            run = 1
        previous = color
        best = max(best, run)
    return best


def solo_score(
    plays: Sequence[PlainPlay],
    *,
    bonus: bool = True,
    caboose: Callable[[list[PlainCar]], bool] | None = None,
    caboose_points: int = 0,
) -> int:
    row = cars(plays)
    score = sum(value for _, value in row)
    if bonus:
        score += longest_run(row)
    if caboose is not None and caboose(row):
        score += caboose_points
    return score


def brute_best(
    pool: Sequence[str],
    length: int,
    *,
    start: Sequence[PlainPlay] = (),
    bonus: bool = True,
    caboose: Callable[[list[PlainCar]], bool] | None = None,
    caboose_points: int = 0,
) -> tuple[int, int, list[PlainPlay]]:
    """(best solo score, number of distinct optimal trains, one optimal train's added plays).

    Enumerates every order of every choice of ``length`` cards, each face up (when legal) or
    face down; identical cards are one choice, so each distinct train is visited once.
    """
    left = Counter(card.upper() for card in pool)
    best = -1
    count = 0
    best_plays: list[PlainPlay] = []
    path: list[PlainPlay] = list(start)

    # Each play is checked against the last car of the legal path before it, which is what
    # ``legal`` checks of the whole path, so the same trains are visited.
    def visit(k: int, last: PlainCar) -> None:
        nonlocal best, count, best_plays
        if k == 0:
            score = solo_score(path, bonus=bonus, caboose=caboose, caboose_points=caboose_points)
            if score > best:
                best, count, best_plays = score, 1, path[len(start) :]
            elif score == best:
                count += 1
            return
        for card in sorted(left):
            if not left[card]:
                continue
            left[card] -= 1
            for face_up in (True, False):
                new_last = after(last, card, face_up)
                if new_last is not None:
                    path.append((card, face_up))
                    visit(k - 1, new_last)
                    path.pop()
            left[card] += 1

    last = last_car(path)
    if last is None:
        raise ValueError("illegal start")
    visit(length, last)
    return best, count, best_plays
