"""Pack & Stack: provably optimal truck loading, best-truck queries and exact odds.

>>> from packing import Cargo, Truck, solve, verify
>>> plan = solve(Cargo.from_roll([3, 2, 3, 0, 1]), Truck.parse("#####/###../#####", height=3))
>>> verify(plan).penalty, plan.optimal
(18, True)
"""

from typing import TYPE_CHECKING, Any

from arena import __version__ as __version__
from packing.bots import BOT_NAMES, OPENSPIEL_BOTS, SEARCH_SIMULATIONS, bot, greedy_load, tournament
from packing.deck import SAMPLE_DECK, format_deck, load_deck, parse_deck, save_deck
from packing.errors import DeckError, InternalError, InvalidPlan, PackingError, ParseError
from packing.game import Game, Grab, Observation, RoundRecord, play_game
from packing.model import Cargo, Engine, LoadPlan, Placement, Status, Truck
from packing.odds import ROLLS, roll_counts, roll_distribution, volume_distribution
from packing.queries import best_truck, expected_penalty, rank_trucks
from packing.residues import residue_bound
from packing.rules import DICE, LENGTHS, SUPPLY, penalty, penalty_floor
from packing.solver import DEFAULT_STRATEGY, PLAIN_STRATEGY, Strategy, solve, upper_bound
from packing.verify import problems, verify

if TYPE_CHECKING:
    from collections.abc import Sequence

    from arena.pettingzoo import SeatEnv
    from arena.protocol import Policy

__all__ = [
    "BOT_NAMES",
    "DEFAULT_STRATEGY",
    "DICE",
    "LENGTHS",
    "OPENSPIEL_BOTS",
    "PLAIN_STRATEGY",
    "SAMPLE_DECK",
    "SEARCH_SIMULATIONS",
    "SUPPLY",
    "Cargo",
    "DeckError",
    "Engine",
    "Game",
    "Grab",
    "InternalError",
    "InvalidPlan",
    "LoadPlan",
    "Observation",
    "PackingError",
    "ROLLS",
    "ParseError",
    "Placement",
    "RoundRecord",
    "Status",
    "Strategy",
    "Truck",
    "best_truck",
    "bot",
    "expected_penalty",
    "format_deck",
    "greedy_load",
    "load_deck",
    "parse_deck",
    "penalty",
    "penalty_floor",
    "play_game",
    "problems",
    "rank_trucks",
    "residue_bound",
    "roll_counts",
    "roll_distribution",
    "save_deck",
    "solve",
    "tournament",
    "upper_bound",
    "verify",
    "volume_distribution",
    "gym_env",
]


def gym_env(
    opponents: "Sequence[str | Policy]" = ("optimal", "capacity", "random"), **options: Any
) -> "SeatEnv":
    """One learning seat of Pack & Stack against ``opponents`` (bot names or policies) as a
    Gymnasium environment: :func:`packing.pettingzoo.gym_env` (options: deck, start_points,
    max_rounds, seat, reward, illegal, render_mode), imported here only when called — it needs the ``rl`` extra, and
    without it raises :class:`arena.MissingExtraError` naming it. The multi-agent PettingZoo
    environment is :func:`packing.pettingzoo.env`."""
    from packing.pettingzoo import gym_env as make

    return make(opponents, **options)
