"""Small decks several test modules share; their tables are session fixtures in conftest.py.

Each builds its optimal table in a few seconds (900 cargos x 3 trucks), so the modules that
need one share a single build per test process instead of building their own.
"""

from __future__ import annotations

from packing import Truck

#: Three small trucks of different heights (a two-row floor, a tall square, a floor with a gap).
SMALL_DECK = (
    Truck.parse("###/###", height=1, name="a"),
    Truck.parse("##/##", height=3, name="b"),
    Truck.parse("#####/#...#", height=2, name="c"),
)

#: "#.#" height 1 takes no length-2 rod (no run of 2, too low to stand one up): it makes the
#: volume-3 cargos differ, which hand computations rely on; B is the sample's T07 shape.
SPLIT_DECK = (
    Truck.parse("#.#", height=1, name="A"),
    Truck.parse("#####/###../#####", height=3, name="B"),
    Truck.parse("###/###", height=2, name="C"),
)
