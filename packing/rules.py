"""The rules data of Pack & Stack, in one place.

Provenance: ``docs/rules/pack-and-stack.md`` (gathered from public rule texts and reviews
of Bernd Eisenstein's *Zack & Pack*, 2008; the original Chinese rules summary is
cited on that page). The dice faces are rated medium-high confidence
there: with them a load ranges from 1 to 40 cubes, as reviews report.
"""

from __future__ import annotations

from typing import Final

#: Rod lengths, one die each. Everything in the library is keyed by length.
LENGTHS: Final = (1, 2, 3, 4, 5)

#: The six faces of each die: how many rods of that length a roll gives.
DICE: Final[dict[int, tuple[int, ...]]] = {
    1: (1, 1, 2, 3, 4, 5),  # white
    2: (0, 1, 2, 2, 3, 4),  # grey
    3: (0, 1, 1, 2, 2, 3),  # orange
    4: (0, 0, 1, 1, 2, 2),  # blue
    5: (0, 0, 1, 1, 2, 2),  # black
}

#: Pieces in the box: six times each die's largest face, so the supply never runs out.
SUPPLY: Final[dict[int, int]] = {1: 30, 2: 24, 3: 18, 4: 12, 5: 12}

#: Display colours of the seed's edition (Kosmos uses white, grey, brown, green, violet).
COLORS: Final[dict[int, str]] = {1: "white", 2: "grey", 3: "orange", 4: "blue", 5: "black"}

#: The largest load a roll can give: every die on its largest face (40 cubes).
MAX_LOAD: Final = sum(length * max(DICE[length]) for length in LENGTHS)

#: The players a game takes ("2–6 players").
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6


def draws_per_player(players: int) -> int:
    """How many trucks each player draws face down in a round: 2 with 2–4 players, 1 with 5–6
    (the rules give no 2-player count: the project decision is 2, as with 3 or 4).

    >>> [draws_per_player(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]
    [2, 2, 2, 1, 1]
    """
    return 1 if players >= 5 else 2


#: The printed truck cards show a loading area inside this grid and a height of 1..4.
GRID_ROWS: Final = 3
GRID_COLUMNS: Final = 5
MAX_HEIGHT: Final = 4

#: The 30 printed trucks by height: 9 of height 1, 10 of 2, 6 of 3, 5 of 4 (medium confidence).
DECK_HEIGHTS: Final[dict[int, int]] = {1: 9, 2: 10, 3: 6, 4: 5}
#: The smallest printed truck holds exactly this many cubes.
SMALLEST_CAPACITY: Final = 9

#: Scoring: points lost per empty cube of capacity and per cube of cargo left over.
EMPTY_COST: Final = 1
LEFT_OVER_COST: Final = 2
#: Points gained by the player(s) with the smallest loss in a round.
ROUND_WIN_BONUS: Final = 10
#: Points each player starts with.
START_POINTS: Final = 75


def penalty(*, capacity: int, volume: int, loaded: int) -> int:
    """Points lost for loading ``loaded`` cubes of a ``volume``-cube cargo onto a truck.

    >>> penalty(capacity=15, volume=12, loaded=12)
    3
    """
    return EMPTY_COST * (capacity - loaded) + LEFT_OVER_COST * (volume - loaded)


def penalty_floor(*, capacity: int, volume: int) -> int:
    """The penalty of loading as much as could ever fit: min(capacity, volume).

    No loading does better, so a loading that reaches it is proven optimal.

    >>> penalty_floor(capacity=12, volume=15)
    6
    """
    return penalty(capacity=capacity, volume=volume, loaded=min(capacity, volume))


#: The round cap of the OpenSpiel game ``python_pack_and_stack`` (its ``max_rounds`` default).
#: Not a rule: the printed game has no fixed end, but OpenSpiel needs a bounded game. A project
#: decision, chosen from measured game lengths (``python -m benchmarks game-lengths``; see
#: docs/rules/pack-and-stack.md): about twice the longest game seen, so it essentially never ends
#: a game the rules would have continued. ``packing.Game`` itself has no cap unless given one.
DEFAULT_MAX_ROUNDS: Final = 40
