"""Yardmaster Express: the rules engine, exact scoring, an exhaustive optimal-train search, and
the whole draft as an ``arena`` game (``Game``, the two-game ``Match``) with bots by name.

>>> from express import DECK, Card, Train, best_train, score_game
>>> Train().add(Card.parse("R4|B4")).add(Card.parse("B4|G4")).value
16
>>> best_train(DECK, 7).score
56
"""

from typing import TYPE_CHECKING, Any

from arena import __version__ as __version__
from express.batch import VectorGreedy, VectorRandom
from express.bots import BOT_NAMES, GreedyBot, RandomBot, SearchBot, bot
from express.cabooses import CABOOSES, Caboose, CabooseKind, Row, caboose_named
from express.cards import (
    DECK,
    DECK_ENTRIES,
    ENGINE,
    WILD,
    Car,
    Card,
    Color,
    DeckEntry,
    Provenance,
    deck_for,
    format_cards,
)
from express.deck import COMMENT, format_deck, load_deck, parse_deck, save_deck

# The draft on the arena protocol, the strategic variant, bots and reviews (they sit on the above).
from express.endgame import expected_values
from express.errors import (
    ExpressError,
    IllegalPlayError,
    InconsistentObservation,
    LimitError,
    ParseError,
    PoolError,
    RulesError,
)
from express.exact import (
    DealSolution,
    PerfectPolicy,
    SearchLimitReached,
    play_values,
    solve_deal,
    solve_order,
)
from express.game import CabooseDraw, CabooseShown, Dealt, Game, Observation, Turn
from express.match import Match, MatchEvent, MatchObservation
from express.pimc import Advice, PimcBot, PlayEstimate, advise
from express.review import Decisive, PlayerHindsight, decisive, hindsight
from express.scoring import (
    MAX_PLAYERS,
    GameScore,
    PlayerScore,
    score_game,
    solo_score,
    winner_of,
)
from express.search import TrainSolution, best_train
from express.table_view import table_observation
from express.tournament import Decided, decided, tournament
from express.train import Play, Run, Train, check_plays, connects, runs_of, without

if TYPE_CHECKING:
    from collections.abc import Sequence

    from arena.pettingzoo import SeatEnv
    from arena.protocol import Policy

__all__ = [
    "CABOOSES",
    "Caboose",
    "CabooseKind",
    "Row",
    "caboose_named",
    "DECK",
    "DECK_ENTRIES",
    "ENGINE",
    "WILD",
    "Car",
    "Card",
    "Color",
    "COMMENT",
    "DeckEntry",
    "Provenance",
    "deck_for",
    "format_cards",
    "format_deck",
    "save_deck",
    "load_deck",
    "parse_deck",
    "ExpressError",
    "IllegalPlayError",
    "InconsistentObservation",
    "LimitError",
    "ParseError",
    "PoolError",
    "RulesError",
    "MAX_PLAYERS",
    "GameScore",
    "PlayerScore",
    "score_game",
    "solo_score",
    "winner_of",
    "TrainSolution",
    "best_train",
    "Play",
    "Run",
    "Train",
    "check_plays",
    "connects",
    "runs_of",
    "without",
    "CabooseDraw",
    "CabooseShown",
    "Dealt",
    "Game",
    "Observation",
    "Turn",
    "Match",
    "MatchEvent",
    "MatchObservation",
    "BOT_NAMES",
    "GreedyBot",
    "RandomBot",
    "SearchBot",
    "VectorGreedy",
    "VectorRandom",
    "PimcBot",
    "bot",
    "Advice",
    "PlayEstimate",
    "advise",
    "Decisive",
    "PlayerHindsight",
    "decisive",
    "hindsight",
    "DealSolution",
    "PerfectPolicy",
    "SearchLimitReached",
    "play_values",
    "solve_deal",
    "solve_order",
    "expected_values",
    "Decided",
    "decided",
    "tournament",
    "table_observation",
    "gym_env",
]


def gym_env(
    opponents: "Sequence[str | Policy]" = ("greedy", "greedy"), **options: Any
) -> "SeatEnv":
    """One learning seat of Yardmaster Express against ``opponents`` (bot names or policies) as
    a Gymnasium environment: :func:`express.pettingzoo.gym_env` (options: caboose, deck, rounds,
    seat, reward, illegal, render_mode), imported here only when called — it needs the ``rl`` extra, and
    without it raises :class:`arena.MissingExtraError` naming it. The multi-agent PettingZoo
    environment is :func:`express.pettingzoo.env`."""
    from express.pettingzoo import gym_env as make

    return make(opponents, **options)
