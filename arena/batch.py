"""Batched engines: many games of one setup held as NumPy arrays and stepped together.

A game's scalar state (:class:`arena.GameState`) plays one game, asking a policy object at
every decision; that costs tens of microseconds of Python per decision. A *batched engine*
plays thousands of games of the same setup at once, each array operation serving every game,
with *vector policies*: the bots whose choice is a formula of arrays (Pack & Stack's
``random``, ``capacity``, ``optimal``, ``bonus-aware``; Express's ``random``, ``greedy``).

A game state offers its engine through a ``batch_engine()`` method (:func:`engine_for` asks
it); the engine says which policies it can play (:meth:`BatchEngine.vector_policy`) and plays
a batch (:meth:`BatchEngine.play`). Games that share a *deal* share its chance (the same rolls,
draws and shuffles, as far as their own decisions ask the same questions), so duplicate-deal
tournaments keep cancelling luck. The engines use the same rules modules as the scalar games,
and their tests prove them exact: given the same chance outcomes a batched game and a scalar
game record the same rounds, points and winners.

The chance of a batch comes from one generator, so a batched game is not the game
:func:`arena.play` gives for the same seed: the two engines agree in distribution (tested),
and each is reproducible from its own seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from arena.protocol import Policy

__all__ = [
    "ENGINES",
    "Batch",
    "BatchEngine",
    "BatchResult",
    "VectorPolicy",
    "engine_for",
]

#: The engines a tournament can be asked for: ``auto`` (batched when every seat's bot can be
#: batched, else scalar), ``scalar`` (:func:`arena.play`, one game at a time), ``batched``.
ENGINES: tuple[str, ...] = ("auto", "scalar", "batched")


@runtime_checkable
class VectorPolicy(Protocol):
    """A bot as a batched engine plays it: its ``name``, and whatever the engine reads from it
    (each engine defines its own vector policies; they are values that pickle)."""

    @property
    def name(self) -> str:
        """The bot's name."""
        ...


@dataclass(frozen=True, eq=False)
class BatchResult:
    """The end of a batch of games: ``returns[g, s]`` is seat ``s``'s final points in game
    ``g`` (as the scalar game's ``returns()``), ``winners[g, s]`` whether ``s`` is among the
    rules' winners of game ``g``."""

    returns: npt.NDArray[np.float64]
    winners: npt.NDArray[np.bool_]

    def __post_init__(self) -> None:
        if self.returns.shape != self.winners.shape or self.returns.ndim != 2:
            raise ValueError(
                f"returns {self.returns.shape} and winners {self.winners.shape} "
                "must be arrays of one shape (games, players)"
            )


class Batch(Protocol):
    """Games in progress, stepped together (a :class:`BatchEngine` makes them). Chance is
    resolved inside: a game of a batch waits at a player's decision or is over.

    Actions are the ids of the game's codec (:class:`arena.codec.Codec`), the numbers the
    OpenSpiel, PettingZoo and Gymnasium adapters use, so a batch and an environment agree.
    """

    @property
    def num_games(self) -> int:
        """The games of the batch."""
        ...

    def to_play(self) -> npt.NDArray[np.intp]:
        """Each game's seat to act, or :data:`arena.TERMINAL` where the game is over."""
        ...

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """``(games, actions)``: the legal action ids of the player to act in each game (a
        finished game's row is all False)."""
        ...

    def apply(self, actions: npt.NDArray[np.intp], where: npt.NDArray[np.bool_]) -> None:
        """The player to act in each game ``g`` with ``where[g]`` plays ``actions[g]`` (an
        illegal id raises, naming the game); chance then runs on to the next decision."""
        ...

    def observations(self, seat: int) -> npt.NDArray[np.float32]:
        """``(games, size)``: the codec's observation tensor of ``seat`` in every game (what
        the single environment shows that seat)."""
        ...

    def returns(self) -> npt.NDArray[np.float64]:
        """``(games, players)``: final points, zeros where a game is not over."""
        ...

    def winners(self) -> npt.NDArray[np.bool_]:
        """``(games, players)``: the rules' winners, all False where a game is not over."""
        ...


class BatchEngine(Protocol):
    """A game's batched engine, for the setup of the state that made it."""

    @property
    def num_players(self) -> int:
        """The players of every game of a batch."""
        ...

    def vector_policy(self, policy: Policy) -> VectorPolicy | None:
        """The batched form of ``policy``, or None when this engine cannot play it (a search
        bot, a bot with options the engine does not model)."""
        ...

    def play(
        self,
        seating: npt.NDArray[np.intp],
        policies: Sequence[VectorPolicy],
        deals: npt.NDArray[np.intp],
        rng: np.random.Generator,
    ) -> BatchResult:
        """Play ``len(seating)`` games to the end: in game ``g`` seat ``s`` is played by
        ``policies[seating[g, s]]``; games with equal ``deals[g]`` share their chance draws;
        ``rng`` serves chance and the policies' own randomness."""
        ...


def engine_for(state: object) -> BatchEngine | None:
    """The batched engine of ``state``'s game and setup, or None when the game has none (or
    none for these options, such as a Pack & Stack deck without an optimal table)."""
    make = getattr(state, "batch_engine", None)
    if make is None:
        return None
    engine: BatchEngine | None = make()
    return engine
