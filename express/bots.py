"""Players for :class:`express.Game` and :class:`express.Match`, by name: ``express.bot(name)``.

>>> from arena import play
>>> from express.game import Game
>>> game = play(Game(3), [bot("search"), bot("greedy"), bot("random")], seed=1)
>>> game.is_terminal(), len(game.score().players)
(True, 3)

- ``random``: any legal play, uniformly.
- ``greedy``: the play with the highest immediate gain in train value plus longest run (ties:
  face up first, then the first in the legal order).
- ``search``: a determinised look-ahead. For each candidate play it samples deals of the cards
  it has not seen, consistent with its observation, plays the rest of the game's card flow
  forward in each, and scores the candidate by :func:`express.best_train` over the cards that
  would still pass through its hands (see :class:`SearchBot`).

A bot sees only its observation (an :class:`express.Observation`, or a match's, whose game
observation it reads) and the legal actions; it draws any randomness from the generator it is
given, so a seeded game replays exactly. Bots are frozen values: they pickle and never change
from game to game.
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from arena import Action, Policy
from arena.play import RandomPolicy
from arena.protocol import build_bot
from arena.search_bots import openspiel_bot
from arena.values import whole_number
from express.batch import VectorGreedy, VectorRandom
from express.cabooses import Caboose, caboose_named
from express.cards import ENGINE, Car, Card
from express.errors import ExpressError
from express.exact import PerfectPolicy
from express.game import Observation
from express.match import MatchObservation
from express.search import best_train
from express.train import Play, Train, connects

if TYPE_CHECKING:  # the openspiel extra is imported only when an mcts bot is made
    from arena.openspiel import SearchPolicy

__all__ = [
    "RandomBot",
    "GreedyBot",
    "SearchBot",
    "bot",
    "BOT_NAMES",
    "OPENSPIEL_BOTS",
    "SEARCH_SIMULATIONS",
]


def _view(observation: object) -> Observation:
    """The game observation inside a match's, or the observation itself."""
    if isinstance(observation, MatchObservation):
        return observation.current
    if isinstance(observation, Observation):
        return observation
    raise TypeError(f"an express observation is expected, not {type(observation).__name__}")


def _plays(legal_actions: Sequence[Action]) -> list[Play]:
    plays = [action for action in legal_actions if isinstance(action, Play)]
    if not plays or len(plays) != len(legal_actions):
        raise ExpressError("an express bot is asked only for plays")
    return plays


def _absolute(name: str | None) -> Caboose | None:
    """The caboose in play when a single train can meet it (relative ones need every train)."""
    if name is None:
        return None
    caboose = caboose_named(name)
    return None if caboose.is_relative else caboose


@dataclass(frozen=True)
class RandomBot(RandomPolicy):
    """Any legal play, uniformly (arena's baseline, by the name the other express bots share)."""

    def batched(self) -> VectorRandom | None:
        """This bot over a batch of games (:mod:`express.batch`); None for a subclass, which
        may play otherwise."""
        return VectorRandom(self.name) if type(self) is RandomBot else None


def _gain(train: Train, play: Play) -> int:
    """What ``play`` adds to the train's value plus its longest run."""
    after = train.add_play(play)
    return after.value + after.longest_run - train.value - train.longest_run


@dataclass(frozen=True)
class GreedyBot:
    """The play with the highest immediate gain in value plus longest run; ties: face up first,
    then the first legal one."""

    name: str = "greedy"

    def act(
        self, observation: Any, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        train = _view(observation).train
        plays = _plays(legal_actions)
        return max(plays, key=lambda play: (_gain(train, play), play.face_up))

    def batched(self) -> VectorGreedy | None:
        """This bot over a batch of games (:mod:`express.batch`); None for a subclass, which
        may play otherwise."""
        return VectorGreedy(self.name) if type(self) is GreedyBot else None


@dataclass(frozen=True)
class SearchBot:
    """A determinised look-ahead: samples the unseen cards, scores each play by ``best_train``.

    For each of ``samples`` deals and for each candidate play (common deals for all candidates,
    so the comparison is fair):

    1. *The deal.* The cards this player cannot place — the deck minus its hand, every face-up
       card in the trains, its own face-down cards, and the cards it saw pass that must now lie
       face down in another train — are shuffled; the first ones are the draws to come.
    2. *The card flow.* The hand left after the candidate travels on; every player draws one
       card a turn and takes one: the others the most valuable card that connects face up to
       their train (any card after a face-down one), this player a random one. The cards this
       player would hold on its later turns are what it could still get.
    3. *The value.* ``best_train`` over those cards, extending the train with the candidate, for
       the next ``horizon`` cards still to add, with at most ``node_limit`` states per search;
       the train it finds is worth its value + its longest run (see below) + an absolute
       caboose it meets.

    The candidates are every face-up play and the face-down plays of the most and the least
    valuable card (every face-down play makes the same train). The candidate with the best mean
    wins (ties: the first in the legal order). On a player's last turn the value is exact: the
    worth of the finished train. The pool ignores that one card is taken per turn and the
    others' picks are a crude model, so the value is optimistic; what matters is the comparison.
    The defaults (8 samples, a horizon of 1 card: the best next card in reach) keep a decision
    within the 20 ms target (``python -m benchmarks express-games``; figures in benchmarks/README.md)
    and played best against ``greedy`` among the settings tried (longer horizons make the
    optimistic pool count for more and did worse per millisecond).

    The value counts the train's longest run only when it reaches the longest run in the other
    players' trains (all in sight: a face-down card is two wild cars whatever it hides) — the
    award goes to the longest run of the game alone.
    """

    samples: int = 8
    horizon: int = 1
    node_limit: int = 400
    name: str = "search"

    def __post_init__(self) -> None:
        for what, value in (
            ("samples", self.samples),
            ("horizon", self.horizon),
            ("node_limit", self.node_limit),
        ):
            number = whole_number(value, what)
            if number < 1:
                raise ExpressError(f"invalid {what}: {number!r} (at least 1)")
            object.__setattr__(self, what, number)

    def act(
        self, observation: Any, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        view = _view(observation)
        plays = _plays(legal_actions)
        caboose = _absolute(view.caboose)
        train = view.train
        later = view.rounds - len(train) - 1  # cards to add after this one
        rival = view.rivals_longest_run()

        def worth(after: Train) -> int:
            # The run counts only while it can win the award: the rivals' runs are in sight.
            longest = after.longest_run
            met = caboose is not None and caboose.met_by(after)
            return (
                after.value
                + (longest if longest >= rival else 0)
                + (caboose.points if met and caboose else 0)
            )

        if later == 0 or len(plays) == 1:
            return max(plays, key=lambda play: worth(train.add_play(play)))
        candidates = _candidates(plays)
        unknown = view.unknown_cards()
        seeds = [int(seed) for seed in rng.integers(2**63, size=self.samples)]
        totals = [0] * len(candidates)
        for seed in seeds:
            deal = list(unknown)
            generator = _random.Random(seed)
            generator.shuffle(deal)
            # Plays that leave the same cards to come and the same train are worth the same. The
            # cards are the objects of ``deal``, alive for the whole loop: their ids name them
            # faithfully here, and sort faster than cards (not a memo kept across calls).
            cache: dict[tuple[Play, tuple[int, ...]], int] = {}
            ahead = min(later, self.horizon)
            for index, play in enumerate(candidates):
                pool = _future_cards(view, play.card, deal, ahead, _random.Random(seed))
                key = (play, tuple(sorted(id(card) for card in pool)))
                value = cache.get(key)
                if value is None:
                    result = best_train(
                        pool,
                        ahead,
                        start=train.add_play(play),
                        caboose=caboose,
                        node_limit=self.node_limit,
                    )
                    value = cache[key] = worth(result.train)
                totals[index] += value
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]


def _candidates(plays: list[Play]) -> list[Play]:
    """The plays worth a look-ahead: every face-up play, and the face-down plays of the most and
    the least valuable card (every face-down play makes the same train; they differ only in
    the card kept from the others, so the extremes stand for the rest)."""
    face_up = [play for play in plays if play.face_up]
    face_down = [play for play in plays if not play.face_up]
    extremes = [
        min(face_down, key=lambda play: play.card.value),
        max(face_down, key=lambda play: play.card.value),
    ]
    return face_up + [play for i, play in enumerate(extremes) if play not in extremes[:i]]


def _future_cards(
    view: Observation, taken: Card, deal: list[Card], later: int, rng: _random.Random
) -> tuple[Card, ...]:
    """The cards this player would hold on its ``later`` turns after playing ``taken`` now, in one
    sampled deal: the others take the most valuable card that connects face up, it takes a
    random one. Each physical card is listed once (in an order that does not matter)."""
    players = view.players
    # Physical cards are (number, card): a card back in this player's hands is not a new one.
    hand = list(enumerate(view.hand))
    hand.pop(next(i for i, (_, card) in enumerate(hand) if card == taken))
    step = 1 if view.pass_left else -1
    # The car each other player's train ends on, as the rest of the flow goes (wild when hidden).
    last: dict[int, Car] = {}
    for seat, plays in enumerate(view.trains):
        if seat != view.player:
            final = plays[-1] if plays else None
            last[seat] = ENGINE if final is None or not final.face_up else final.card.right
    held: dict[int, Card] = {}
    number = len(hand) + 1
    draws = iter(deal)
    seat = view.player
    for _ in range(players * later):
        seat = (seat + step) % players
        card = next(draws, None)
        if card is not None:
            hand.append((number, card))
            number += 1
        if seat == view.player:
            held.update(hand)
            hand.pop(rng.randrange(len(hand)))
            continue
        end = last[seat]
        choice = max(
            range(len(hand)), key=lambda i: (connects(end, hand[i][1].left), hand[i][1].value, -i)
        )
        _, picked = hand.pop(choice)
        last[seat] = picked.right if connects(end, picked.left) else ENGINE
    return tuple(held.values())


def _perfect(order: Iterable[Card] | None = None, **options: Any) -> Policy:
    if order is None:
        raise ExpressError(
            "the perfect bot knows the deck order: give it (bot('perfect', order=...)); "
            "express solve plays a deal perfectly"
        )
    return PerfectPolicy(tuple(order), **options)


def _pimc(**options: Any) -> Policy:
    from express.pimc import PimcBot  # pimc builds on this module's neighbours, not the reverse

    return PimcBot(**options)


SEARCH_SIMULATIONS = 100
"""The default simulations per decision of OpenSpiel's ``mcts`` and ``ismcts``."""


def _search_policy(search: str, **options: Any) -> SearchPolicy:
    from arena.openspiel import SearchPolicy  # the openspiel extra, needed from here on
    from express.openspiel import CODEC

    return SearchPolicy(CODEC, search, **options)


def _openspiel(search: str, *, simulations: int = SEARCH_SIMULATIONS, **options: Any) -> Policy:
    """OpenSpiel's ``search`` bot on ``python_yardmaster_express`` (the ``openspiel`` extra,
    imported only here: the package never needs OpenSpiel otherwise)."""
    return openspiel_bot(_search_policy, search, ExpressError, simulations=simulations, **options)


_FACTORIES: dict[str, Callable[..., Policy]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "search": SearchBot,
    "mcts": partial(_openspiel, "mcts"),
    "ismcts": partial(_openspiel, "ismcts"),
    "perfect": _perfect,
    "pimc": _pimc,
}

BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)
"""Every name :func:`bot` accepts: the core's ``random``, ``greedy`` and ``search``, which play
any game; OpenSpiel's ``mcts`` and ``ismcts`` (the :data:`~express.bots.OPENSPIEL_BOTS`); and ``perfect``,
which needs the deck order."""

OPENSPIEL_BOTS: tuple[str, ...] = ("mcts", "ismcts")
"""OpenSpiel's search bots (the ``openspiel`` extra; option ``simulations``, default
:data:`SEARCH_SIMULATIONS`, and ``rollouts``, ``uct_c``)."""


def bot(name: str, **options: Any) -> Policy:
    """The bot called ``name`` (``random``, ``greedy``, ``search``, ``perfect``, and with the
    ``openspiel`` extra ``mcts`` and ``ismcts``), built with ``options``.

    ``perfect`` is the yardstick of two-player games: it plays :func:`express.solve_deal`'s
    optimal line, so it must be told the deck order (``order=``) — a cheat, not a player.

    >>> bot("search", samples=4)
    SearchBot(samples=4, horizon=1, node_limit=400, name='search')
    """
    if not isinstance(name, str):
        raise TypeError(f"a bot name must be a str, not {type(name).__name__}")
    factory = _FACTORIES.get(name.strip().lower())
    if factory is None:
        raise ExpressError(f"unknown bot: {name!r} (choose from {', '.join(_FACTORIES)})")
    return build_bot(factory, name, options)
