"""The rules data of Yardmaster Express, in one place.

Provenance: ``docs/rules/yardmaster-express.md`` (the project's statement of the rules, gathered
from public rule texts and reviews, the translated "V.3" rules of the 2014 Kickstarter campaign
and a mid-2014 prototype card list). Every other module reads these numbers from here; the deck
itself is in :mod:`express.cards`, each caboose's facts in :mod:`express.cabooses`.

>>> hand_size_for(3), rounds_for(3), FACE_DOWN_VALUE
(3, 6, 4)
"""

from __future__ import annotations

from typing import Final

from arena.values import whole_number
from express.errors import RulesError

__all__ = [
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "PLAYER_COUNTS",
    "CAR_VALUES",
    "WILD_CAR_VALUE",
    "ENGINE_VALUE",
    "FACE_DOWN_VALUE",
    "ROUNDS_PLUS_PLAYERS",
    "TWO_PLAYER_LEFT_OUT",
    "check_players",
    "hand_size_for",
    "rounds_for",
    "left_out_colors",
]

#: "Yardmaster Express is for 2 to 5 players" (Setup: five engine cards, one per player).
MIN_PLAYERS: Final = 2
#: The most players a game takes (one engine card each).
MAX_PLAYERS: Final = 5
PLAYER_COUNTS: Final = range(MIN_PLAYERS, MAX_PLAYERS + 1)

#: Components: a car of a railcar card is worth 2, 3 or 4.
CAR_VALUES: Final = (2, 3, 4)
#: Components: a card back shows two wild cars worth 2 each ...
WILD_CAR_VALUE: Final = 2
#: ... so a card played face down is worth 4 (Scoring: "a face-down card counts 2 + 2").
FACE_DOWN_VALUE: Final = 2 * WILD_CAR_VALUE
#: Components: the engine, the first car of every train, is wild and worth 0.
ENGINE_VALUE: Final = 0

#: A turn: "the game lasts 9 − N rounds" for N players (7 with 2, 6 with 3, 5 with 4, 4 with 5).
ROUNDS_PLUS_PLAYERS: Final = 9

#: Setup: "With 2 players, remove the 8 purple cards" (the letter of the colour; every card
#: showing it, on either car, is left out).
TWO_PLAYER_LEFT_OUT: Final = "P"


def check_players(players: object, where: str = "players") -> int:
    """``players`` when it is a player count the rules allow (2 to 5), else the error saying so.

    >>> check_players(4)
    4
    """
    players = whole_number(players, where)
    if players not in PLAYER_COUNTS:
        raise RulesError(
            f"invalid player count: {players!r} "
            f"(Yardmaster Express is for {MIN_PLAYERS} to {MAX_PLAYERS} players)"
        )
    return players


def hand_size_for(players: int) -> int:
    """The start player's hand for ``players`` players: N cards (2 → 2, …, 5 → 5).

    Setup: "The start player is dealt a hand of N cards for N players".
    """
    return check_players(players, "hand_size_for: players")


def rounds_for(players: int) -> int:
    """The number of rounds for ``players`` players: 9 − N (2p: 7, 3p: 6, 4p: 5, 5p: 4)."""
    return ROUNDS_PLUS_PLAYERS - check_players(players, "rounds_for: players")


def left_out_colors(players: int) -> frozenset[str]:
    """The letters of the colours whose cards are out of the deck for ``players`` players.

    >>> sorted(left_out_colors(2)), sorted(left_out_colors(3))
    (['P'], [])
    """
    check_players(players, "left_out_colors: players")
    return frozenset({TWO_PLAYER_LEFT_OUT}) if players == 2 else frozenset()
