"""Pack & Stack: provably optimal truck loading, best-truck queries and exact odds.

>>> from packing import Cargo, Truck, solve, verify
>>> plan = solve(Cargo.from_roll([3, 2, 3, 0, 1]), Truck.parse("#####/###../#####", height=3))
>>> verify(plan).penalty, plan.optimal
(18, True)
"""

from packing.deck import SAMPLE_DECK, dump_deck, load_deck, parse_deck, save_deck
from packing.errors import DeckError, InternalError, InvalidPlan, PackingError, ParseError
from packing.model import Cargo, Engine, LoadPlan, Placement, Status, Truck
from packing.odds import ROLLS, roll_counts, roll_distribution, volume_distribution
from packing.queries import best_truck, expected_penalty, rank_trucks
from packing.rules import DICE, LENGTHS, SUPPLY, penalty, penalty_floor
from packing.solver import solve, upper_bound
from packing.verify import problems, verify

__all__ = [
    "DICE",
    "LENGTHS",
    "SAMPLE_DECK",
    "SUPPLY",
    "Cargo",
    "DeckError",
    "Engine",
    "InternalError",
    "InvalidPlan",
    "LoadPlan",
    "PackingError",
    "ROLLS",
    "ParseError",
    "Placement",
    "Status",
    "Truck",
    "best_truck",
    "dump_deck",
    "expected_penalty",
    "load_deck",
    "parse_deck",
    "penalty",
    "penalty_floor",
    "problems",
    "rank_trucks",
    "roll_counts",
    "roll_distribution",
    "save_deck",
    "solve",
    "upper_bound",
    "verify",
    "volume_distribution",
]
