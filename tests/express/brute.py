"""An independent scorer and brute-force enumerator for the express tests.

Written from the rules page alone: it reads cards as plain text (``"R3|G3"``) and knows
nothing of the package's classes, bound or memo. A play is ``(card_text, face_up)``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from typing import NamedTuple

# (colour letter or None for wild, value)
PlainCar = tuple[str | None, int]
PlainPlay = tuple[str, bool]


@cache  # a pure function of the text, called at every node of the enumeration
def halves(card: str) -> tuple[PlainCar, PlainCar]:
    left, right = card.upper().split("|")
    return (left[0], int(left[1:])), (right[0], int(right[1:]))


def play_cars(card: str, face_up: bool) -> tuple[PlainCar, PlainCar]:
    """The two cars one play adds; a face-down card is two wild cars worth 2."""
    return halves(card) if face_up else ((None, 2), (None, 2))


def cars(plays: Sequence[PlainPlay]) -> list[PlainCar]:
    """The cars after the engine."""
    row: list[PlainCar] = []
    for card, face_up in plays:
        row.extend(play_cars(card, face_up))
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


class Tally(NamedTuple):
    """A row read from the engine on: its points, its longest colour run, the run it ends with."""

    points: int = 0
    longest: int = 0
    run: int = 0
    color: str | None = None

    def add(self, car: PlainCar) -> Tally:
        color, value = car
        if color is None:
            run = 0
        elif color == self.color:
            run = self.run + 1
        else:
            run = 1
        return Tally(self.points + value, max(self.longest, run), run, color)


def tally(row: Sequence[PlainCar]) -> Tally:
    total = Tally()
    for car in row:
        total = total.add(car)
    return total


def longest_run(row: Sequence[PlainCar]) -> int:
    return tally(row).longest


def _score(
    total: Tally,
    plays: Sequence[PlainPlay],
    bonus: bool,
    caboose: Callable[[list[PlainCar]], bool] | None,
    caboose_points: int,
) -> int:
    score = total.points + (total.longest if bonus else 0)
    if caboose is not None and caboose(cars(plays)):
        score += caboose_points
    return score


def solo_score(
    plays: Sequence[PlainPlay],
    *,
    bonus: bool = True,
    caboose: Callable[[list[PlainCar]], bool] | None = None,
    caboose_points: int = 0,
) -> int:
    return _score(tally(cars(plays)), plays, bonus, caboose, caboose_points)


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
    # ``legal`` checks of the whole path, so the same trains are visited. The tally grows a
    # play at a time, so at a leaf it is tally(cars(path)) and the score is solo_score(path).
    def visit(k: int, last: PlainCar, total: Tally) -> None:
        nonlocal best, count, best_plays
        if k == 0:
            score = _score(total, path, bonus, caboose, caboose_points)
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
                    first, second = play_cars(card, face_up)
                    path.append((card, face_up))
                    visit(k - 1, new_last, total.add(first).add(second))
                    path.pop()
            left[card] += 1

    last = last_car(path)
    if last is None:
        raise ValueError("illegal start")
    visit(length, last, tally(cars(path)))
    return best, count, best_plays
