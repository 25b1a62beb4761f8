"""What every game shares: one game-state protocol (OpenSpiel's names), seeded play.

``arena`` knows no game: ``packing`` and ``express`` implement :class:`GameState` and bring
their own policies.

>>> from arena import CHANCE, TERMINAL
>>> CHANCE, TERMINAL
(-1, -4)
"""

from arena.errors import ArenaError
from arena.play import RandomPolicy, play, sample_outcome, seat_streams
from arena.protocol import CHANCE, TERMINAL, Action, GameState, Policy

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "ArenaError",
    "GameState",
    "Policy",
    "RandomPolicy",
    "play",
    "sample_outcome",
    "seat_streams",
]
