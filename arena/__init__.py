"""What every game shares: one game-state protocol (OpenSpiel's names), seeded play, tournaments.

``arena`` knows no game: ``packing`` and ``express`` implement :class:`GameState` and bring
their own policies.

>>> from arena import CHANCE, TERMINAL
>>> CHANCE, TERMINAL
(-1, -4)
"""

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

from arena.errors import ArenaError
from arena.extras import MissingExtraError, import_extra
from arena.play import RandomPolicy, play, seat_streams
from arena.protocol import CHANCE, TERMINAL, Action, GameState, Policy, SeatsPolicies
from arena.sampling import outcome_drawer, sample_outcome
from arena.tournament import (
    GameRecord,
    PolicyStats,
    TournamentResult,
    bot_tournament,
    deal_seed,
    seat_labels,
    tournament,
)

try:
    __version__ = _version("tabletop-solvers")
except PackageNotFoundError:  # a checkout on the path that was never installed
    __version__ = "0+unknown"
"""The installed ``tabletop-solvers`` distribution's version (``packing`` and ``express``
report the same one)."""

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "ArenaError",
    "GameRecord",
    "GameState",
    "MissingExtraError",
    "Policy",
    "PolicyStats",
    "RandomPolicy",
    "SeatsPolicies",
    "TournamentResult",
    "bot_tournament",
    "deal_seed",
    "import_extra",
    "outcome_drawer",
    "play",
    "sample_outcome",
    "seat_labels",
    "seat_streams",
    "tournament",
]
