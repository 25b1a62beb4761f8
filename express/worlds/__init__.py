"""Hidden worlds: complete games a player cannot tell from the one it is in.

A player of Yardmaster Express sees its own hand while it holds it, every train with the other
players' face-down cards hidden (its own in full) and the cards that have passed through its
hands; it does not see the deck's order, the others' face-down cards, nor the cards the others
drew that never reached it. A *world* is a complete :class:`express.Game` — every card dealt and
drawn, every face-down card — consistent with all the player saw. Search bots that see only an
observation play in such worlds (determinisation), and OpenSpiel's information-set MCTS
samples one per simulation.

>>> import numpy as np
>>> from arena import sample_outcome
>>> from express import Game
>>> game, rng = Game(3, rounds=2), np.random.default_rng(4)
>>> while game.turn < 4:  # four turns, each playing its last legal action
...     if game.is_chance_node():
...         game.apply_action(sample_outcome(game.chance_outcomes(), rng))
...     else:
...         game.apply_action(game.legal_actions()[-1])
>>> view = game.observation(1)
>>> world = sample_world(view, np.random.default_rng(1))
>>> world.observation(1) == view
True
>>> same = resample(game, 1, np.random.default_rng(2))
>>> same.observation(1) == view, seen_history(same, 1) == seen_history(game, 1)
(True, True)

What a world is, and the law it is drawn from
---------------------------------------------
An :class:`express.Observation` tells what one player may know: its hand while it holds it,
every train with the others' face-down cards hidden (its own in full), the cards that passed
through its hands (``seen``, a multiset: not when), the deck's composition and how many cards
have been drawn. A *world* is a complete game consistent with it, at the level a game tells
cards apart: **the order of the whole deck as a sequence of card kinds** (identical cards are
one kind) **and the kind of every face-down card of another player**. Replayed through
:class:`express.Game` (a play takes the first card of its kind in the hand), a world fixes
everything, and it is consistent when the observation it gives the player is the one given.

The target law is **uniform over the consistent worlds**. Why:

- The shuffle is the rules' only chance: every order of the physical cards is equally likely,
  and each kind sequence stands for the same number (∏ copies!) of them, so every kind
  sequence of the whole deck is equally likely a priori. The observation is a function of the
  world, so conditioning on it keeps the consistent sequences, each as likely as the others.
- The others' face-down cards are choices, not chance: their probability is the other
  players' policies, which nothing here knows. The convention taken counts each hidden choice
  once — each distinct card the hand could have hidden, as the game lists its actions — which
  treats the likelihood of the observed plays as the same in every world. Weighting by a
  uniformly random opponent instead (1 / its legal actions at each turn) would model a player
  nobody faces; this convention assumes the least, and a bot can reweight the worlds by an
  opponent model (what a player would choose to hide) on top of exact draws.

What it does not model, then: the other players' policies (a face-down card is as likely to
be a card they would never hide as the one they would), and nothing about them enters.

:func:`count_worlds` counts the consistent worlds exactly and :func:`sample_worlds` draws them
uniformly (:mod:`express.worlds.census` says how). :func:`resample` ``(game, player, rng)`` does
the same for the worlds that also keep what the
player saw *when* it saw it (its :func:`seen_history`: the hand it held and the cards new to it
at each of its turns, its own draws, its deal): uniform over the worlds with the same
observation and the same seen history. Its worlds are shuffled-deck games (no ``order``), like
the games OpenSpiel's information-set MCTS resamples.

Every sampler consumes ``rng`` (a NumPy :class:`numpy.random.Generator`) deterministically: the
same generator state gives the same worlds, so seeded games replay. An observation no game leads
to raises :class:`express.InconsistentObservation` (one line saying why).

The package
-----------
:mod:`express.worlds.kinds` (a deck's card kinds, the game view of an observation),
:mod:`express.worlds.seen` (a player's history as it saw it), :mod:`express.worlds.census` (the
exact count and the uniform draw) and :mod:`express.worlds.approximate` (the fallback past the
count's budget: consistent worlds, but not uniform; :func:`count_worlds` never falls back). The
functions here choose between the last two.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import numpy as np

from arena.values import generator, whole_number
from express.errors import ExpressError, InconsistentObservation
from express.game import Game, Observation
from express.match import MatchObservation
from express.worlds.approximate import approximate_resample, approximate_world_stream
from express.worlds.census import Census, census_for
from express.worlds.kinds import Kinds, deck_kinds, game_view
from express.worlds.seen import (
    CabooseSeen,
    DealSeen,
    OtherTurnSeen,
    OwnTurnSeen,
    SeenEvent,
    seen_history,
)

__all__ = [
    "CabooseSeen",
    "DealSeen",
    "Kinds",
    "OtherTurnSeen",
    "OwnTurnSeen",
    "SeenEvent",
    "game_view",
    "count_worlds",
    "iter_worlds",
    "worlds_are_uniform",
    "deck_kinds",
    "resample",
    "sample_world",
    "sample_worlds",
    "seen_history",
]


def count_worlds(observation: Observation | MatchObservation) -> int:
    """How many worlds are consistent with ``observation`` (a :class:`express.MatchObservation`
    is read through its current game): the distinct kind sequences of the whole deck, each with
    the kind of every face-down card its player could have hidden, that lead to exactly what the
    observing player sees (see the module docstring). 0 when no game leads to it.

    >>> from express import Game
    >>> game = Game(2, deck="B2|B2,B2|B2,R2|R2,Y2|Y2,G2|G2,R3|R3", rounds=1)
    >>> count_worlds(game.observation(1))  # nothing drawn: every deck order, 6! / 2!
    360
    """
    view = game_view(observation)
    try:
        census = Census(view)
        if not census.total:
            return 0
        census.world(random.Random(0), with_order=True)  # the rules the counting leaves aside
    except InconsistentObservation:
        return 0
    return census.total


def sample_worlds(
    observation: Observation | MatchObservation, count: int, rng: np.random.Generator
) -> list[Game]:
    """``count`` worlds drawn independently, each with its probability given ``observation``
    (uniform over the consistent worlds, see the module docstring), sharing one counting of
    them. Each is a complete :class:`express.Game` with :attr:`~express.Game.order` set (the
    whole deck, the undrawn rest in a uniformly random order) played to the observation's point:
    its observation for the observing player is ``observation``'s game view. ``rng`` is a
    ``numpy.random.Generator`` or a seed (:func:`arena.values.generator`). Raises
    :class:`express.InconsistentObservation` when no game leads to the observation."""
    count = whole_number(count, "count", low=0, error=ExpressError, where="sample_worlds")
    rng = generator(rng, where="sample_worlds")
    return list(itertools.islice(iter_worlds(observation, rng), count))


def iter_worlds(
    observation: Observation | MatchObservation, rng: np.random.Generator
) -> Iterator[Game]:
    """The worlds of :func:`sample_worlds`, drawn one at a time as they are asked for, without
    end: its first ``count`` are ``sample_worlds(observation, count, rng)``. Work with a time
    limit draws only the worlds it values, and holds one at a time."""
    rng = generator(rng, where="iter_worlds")
    view = game_view(observation)
    census = census_for(view, ())
    if census is None:
        yield from approximate_world_stream(view, rng)
        return
    if not census.total:
        raise InconsistentObservation(census.failure())
    chooser = random.Random(int(rng.integers(2**63)))
    while True:
        yield census.world(chooser, with_order=True)


def worlds_are_uniform(observation: Observation | MatchObservation) -> bool:
    """Whether :func:`sample_worlds` draws ``observation``'s worlds uniformly (counted), or
    falls back on the randomized search, whose worlds are consistent but not uniform."""
    return census_for(game_view(observation), ()) is not None


def sample_world(observation: Observation | MatchObservation, rng: np.random.Generator) -> Game:
    """One world drawn with its probability given ``observation``: ``sample_worlds(observation,
    1, rng)[0]`` (see :func:`sample_worlds`)."""
    return sample_worlds(observation, 1, rng)[0]


def resample(game: Game, player: int, rng: np.random.Generator) -> Game:
    """A complete game ``player`` cannot tell from ``game`` — the same observation and the same
    :func:`seen_history` (which also fixes the hand it held and the cards new to it at each of
    its turns, and its own draws) — drawn uniformly over all such worlds, as :func:`sample_world`
    draws over the worlds of an observation. The world is a shuffled-deck game like ``game``
    (no :attr:`~express.Game.order`: its later draws are chance). A game in which nothing has
    been drawn yet, or whose caboose is still to be drawn, hides nothing: its copy."""
    view = game.observation(player)  # also checks the player
    rng = generator(rng, where="resample")
    if game.caboose_pending or not game.drawn:
        return game.clone()
    census = census_for(view, seen_history(game, player))
    if census is None:
        return approximate_resample(game, player, rng)
    if not census.total:
        raise ExpressError(
            "no history of the game matches what the player saw (a bug: please report it)"
        )
    return census.world(random.Random(int(rng.integers(2**63))), with_order=False)
