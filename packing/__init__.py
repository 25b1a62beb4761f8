"""Pack & Stack: provably optimal truck loading, best-truck queries and exact odds.

>>> from packing import Cargo, Truck, solve, verify
>>> plan = solve(Cargo.from_roll([3, 2, 3, 0, 1]), Truck.parse("#####/###../#####", height=3))
>>> verify(plan).penalty, plan.optimal
(18, True)
"""

from arena import __version__ as __version__
from packing.bots import BOTS, bot, greedy_load, tournament
from packing.deck import SAMPLE_DECK, dump_deck, load_deck, parse_deck, save_deck
from packing.errors import DeckError, InternalError, InvalidPlan, PackingError, ParseError
from packing.game import Game, Grab, Observation, RoundRecord, play_game
from packing.model import Cargo, Engine, LoadPlan, Placement, Status, Truck
from packing.odds import ROLLS, roll_counts, roll_distribution, volume_distribution
from packing.queries import best_truck, expected_penalty, rank_trucks
from packing.rules import DICE, LENGTHS, SUPPLY, penalty, penalty_floor
from packing.solver import solve, upper_bound
from packing.verify import problems, verify

__all__ = [
    "BOTS",
    "DICE",
    "LENGTHS",
    "SAMPLE_DECK",
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
    "Truck",
    "best_truck",
    "bot",
    "dump_deck",
    "expected_penalty",
    "greedy_load",
    "load_deck",
    "parse_deck",
    "penalty",
    "penalty_floor",
    "play_game",
    "problems",
    "rank_trucks",
    "roll_counts",
    "roll_distribution",
    "save_deck",
    "solve",
    "tournament",
    "upper_bound",
    "verify",
    "volume_distribution",
]
