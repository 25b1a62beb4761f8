"""A tiny game for testing ``arena`` itself: a dice race with a choice and shared wins.

Each turn a die is rolled (a chance node, 1..6 uniform); the player then keeps the roll or
banks a safe 3. After ``rounds`` turns each, the highest total wins; ties share the win.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Self

import numpy as np

from arena import CHANCE, TERMINAL, Action

DIE: tuple[tuple[int, Fraction], ...] = tuple((face, Fraction(1, 6)) for face in range(1, 7))


@dataclass
class DiceRace:
    players: int = 2
    rounds: int = 3
    totals: list[int] = field(default_factory=list)
    turn: int = 0
    rolled: int | None = None
    log: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.totals:
            self.totals = [0] * self.players

    @property
    def num_players(self) -> int:
        return self.players

    def is_terminal(self) -> bool:
        return self.turn >= self.players * self.rounds

    def is_chance_node(self) -> bool:
        return not self.is_terminal() and self.rolled is None

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        if self.rolled is None:
            return CHANCE
        return self.turn % self.players

    def chance_outcomes(self) -> Sequence[tuple[int, Fraction]]:
        return DIE

    def legal_actions(self) -> Sequence[str]:
        if self.is_terminal():
            return []
        if self.rolled is None:
            return [face for face, _ in DIE]  # type: ignore[misc]
        return ["keep", "bank"]

    def apply_action(self, action: object) -> None:
        if self.rolled is None:
            assert isinstance(action, int) and 1 <= action <= 6, action
            self.rolled = action
            self.log.append(f"roll {action}")
            return
        player = self.turn % self.players
        if action == "keep":
            self.totals[player] += self.rolled
        elif action == "bank":
            self.totals[player] += 3
        else:
            raise ValueError(f"illegal action: {action!r}")
        self.log.append(f"player {player} {action}s")
        self.rolled = None
        self.turn += 1

    def returns(self) -> list[int]:
        """The totals at the end; zeros before (the protocol's meaning: ``totals`` is the
        standing so far)."""
        if not self.is_terminal():
            return [0] * self.players
        return list(self.totals)

    def winners(self) -> frozenset[int]:
        if not self.is_terminal():
            return frozenset()
        best = max(self.totals)
        return frozenset(p for p, t in enumerate(self.totals) if t == best)

    def clone(self) -> Self:
        return replace(self, totals=list(self.totals), log=list(self.log))

    def observation(self, player: int) -> tuple[tuple[int, ...], int | None, int, int]:
        """Everything: the totals, the roll on the table, the turn and the rounds."""
        return tuple(self.totals), self.rolled, self.turn, self.rounds

    def action_to_string(self, action: object) -> str:
        return str(action)

    @property
    def events(self) -> Sequence[str]:
        return tuple(self.log)


@dataclass(frozen=True)
class AlwaysKeep:
    """Keeps every roll (3.5 a turn on average: the stronger play)."""

    name: str = "keep"

    def act(
        self, observation: object, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        return "keep"


@dataclass(frozen=True)
class AlwaysBank:
    """Banks a safe 3 every turn."""

    name: str = "bank"

    def act(
        self, observation: object, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        return "bank"
