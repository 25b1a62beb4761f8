"""An independent scorer and brute-force enumerator for the express tests.

Written from the rules page alone: it reads cards as plain text (``"R3|G3"``) and knows
nothing of the package's classes, bound or memo. A play is ``(card_text, face_up)``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

# (colour letter or None for wild, value)
PlainCar = tuple[str | None, int]
PlainPlay = tuple[str, bool]


def halves(card: str) -> tuple[PlainCar, PlainCar]:
    left, right = card.upper().split("|")
    return (left[0], int(left[1:])), (right[0], int(right[1:]))


def cars(plays: Sequence[PlainPlay]) -> list[PlainCar]:
    """The cars after the engine; a face-down card is two wild cars worth 2."""
    row: list[PlainCar] = []
    for card, face_up in plays:
        row.extend(halves(card) if face_up else [(None, 2), (None, 2)])
    return row


def legal(plays: Sequence[PlainPlay]) -> bool:
    last: PlainCar = (None, 0)  # the engine
    for card, face_up in plays:
        left, right = halves(card)
        if face_up:
            if last[0] is not None and left[0] != last[0] and left[1] != last[1]:
                return False
            last = right
        else:
            last = (None, 2)
    return True


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

    def visit(k: int) -> None:
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
                path.append((card, face_up))
                if not face_up or legal(path):
                    visit(k - 1)
                path.pop()
            left[card] += 1

    if not legal(path):
        raise ValueError("illegal start")
    visit(length)
    return best, count, best_plays
