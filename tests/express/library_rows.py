"""The brute force's plain rows handed to the package's caboose tests."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from express import WILD, Caboose, Car, Color
from tests.express import brute


@cache  # cars are immutable values; the brute force converts the same few again and again
def library_car(car: brute.PlainCar) -> Car:
    color, value = car
    return WILD if color is None else Car(Color(color), value)


def library_test(caboose: Caboose) -> Callable[[list[brute.PlainCar]], bool]:
    """``caboose.test`` on a plain row.

    A caboose's test is a predicate of the row alone, so a row the brute force meets again
    (face-down cards make the same wild cars) takes the answer it had.
    """

    @cache
    def met(row: tuple[brute.PlainCar, ...]) -> bool:
        return caboose.test(tuple(library_car(car) for car in row))

    def test(row: list[brute.PlainCar]) -> bool:
        return met(tuple(row))

    return test
