"""The game-state protocol every game implements, in OpenSpiel's names.

A game is a *state* object that moves forward by ``apply_action``. Whose turn it is comes from
``current_player()``: a player index ``0..num_players-1``, :data:`CHANCE` when the next action
is a chance outcome (a roll, a draw, a shuffle step), or :data:`TERMINAL` when the game is over.
Chance is explicit data: ``chance_outcomes()`` lists every outcome with its *exact* probability
(a :class:`fractions.Fraction`), and nothing inside a game ever calls a random generator — so
the same outcomes give the same game, and a tournament can replay a deal's luck for every
seating.

The names follow OpenSpiel's ``pyspiel.State`` so an adapter is thin; two additions serve the
rules of real games: ``winners()`` (the rules' winners: shared wins and tie-breaks that
``returns()`` alone cannot express) and ``events`` (a readable log of what happened). One part
is optional (:class:`SeatsPolicies`): a game whose players bring more than ``act`` is shown
who sits where before the first action.

Before the end, ``returns()`` is all zeros and ``winners()`` empty: the game's result exists
only once ``is_terminal()``. That is OpenSpiel's meaning for games that reward only at the end
(the adapter in :mod:`arena.openspiel` declares ``TERMINAL`` rewards), and it keeps a
half-played game from reading as won. A game's standing so far (the points on the table) is
its own named method or property, outside the protocol.

Actions are small immutable, hashable values with a readable ``str`` (games define their own
types). An observation is whatever a player may know, as an immutable value that pickles.

:func:`arena.testing.check_random_playouts` checks all of this on random games; every game's
tests call it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Protocol, Self, TypeVar, runtime_checkable

import numpy as np

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "GameState",
    "Policy",
    "SeatsPolicies",
    "build_bot",
    "show_seating",
]

CHANCE = -1
"""``current_player()`` at a chance node (OpenSpiel's ``kChancePlayerId``)."""

TERMINAL = -4
"""``current_player()`` once the game is over (OpenSpiel's ``kTerminalPlayerId``)."""

Action = Any
"""An action or chance outcome: an immutable, hashable value whose ``str`` reads well.

Typed ``Any`` on purpose: each game has its own action types, and a game's methods taking its
own type (``apply_action(self, action: Play)``) must still satisfy the protocol."""


@runtime_checkable
class GameState(Protocol):
    """One state of a game; ``apply_action`` moves it forward in place (as in OpenSpiel)."""

    @property
    def num_players(self) -> int:
        """How many players sit at the table."""
        ...

    def current_player(self) -> int:
        """The player to act, :data:`CHANCE` at a chance node, :data:`TERMINAL` at the end."""
        ...

    def is_chance_node(self) -> bool:
        """True when the next action is a chance outcome."""
        ...

    def chance_outcomes(self) -> Sequence[tuple[Action, Fraction]]:
        """Every chance outcome with its exact probability (they sum to exactly 1)."""
        ...

    def legal_actions(self) -> Sequence[Action]:
        """The current player's legal actions (the chance outcomes at a chance node);
        empty only at the end."""
        ...

    def apply_action(self, action: Action) -> None:
        """Play ``action`` (or resolve a chance node with that outcome); raises on an illegal one."""
        ...

    def is_terminal(self) -> bool:
        """True once the game is over."""
        ...

    def returns(self) -> Sequence[float]:
        """Each player's final points (the game's own score, not a +1/−1 utility); all zeros
        until :meth:`is_terminal`."""
        ...

    def winners(self) -> frozenset[int]:
        """The players the rules declare winners (several when the rules share a win); empty
        until :meth:`is_terminal`, never empty after."""
        ...

    def clone(self) -> Self:
        """An independent copy: acting on it never changes this state."""
        ...

    def observation(self, player: int) -> Any:
        """What ``player`` may know now, as an immutable value that pickles."""
        ...

    def action_to_string(self, action: Action) -> str:
        """A readable form of ``action`` in this state."""
        ...

    @property
    def events(self) -> Sequence[object]:
        """The log of what happened so far, oldest first; each event reads well as ``str``."""
        ...


@runtime_checkable
class Policy(Protocol):
    """A player: sees only its observation and the legal actions, never the full state."""

    def act(
        self, observation: Any, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        """Choose one of ``legal_actions``; ``rng`` is the players' seeded generator (chance
        draws from another)."""
        ...


@runtime_checkable
class SeatsPolicies(Protocol):
    """The protocol's optional part: a game whose players bring more than ``act`` to it.

    In Pack & Stack a player also loads their truck, and how (optimally, or by a bot's own
    heuristic) is part of the player, not a decision the game asks for: the policy in each seat
    carries it (``loader``). Whoever seats policies at such a game — :func:`arena.play`, a
    tournament's every rotation, the PettingZoo and Gymnasium environments — calls
    ``seat_policies(policies)`` once before the first action (:func:`~arena.protocol.show_seating`), so what a
    player brings follows it to whichever seat it takes. A game without the method is played
    through ``act`` alone.
    """

    def seat_policies(self, policies: Sequence[Policy]) -> None:
        """Take from ``policies`` (one per seat, in seat order) what the players bring."""
        ...


def show_seating(state: object, policies: Sequence[Policy]) -> None:
    """Show ``state`` who sits where, when it takes that (:class:`SeatsPolicies`); else
    nothing: most games need only the policies' ``act``."""
    if isinstance(state, SeatsPolicies):
        state.seat_policies(policies)


B = TypeVar("B")

#: Python's words for a keyword argument a function does not take.
_UNEXPECTED = re.compile(r"got an unexpected keyword argument '(\w+)'")


def build_bot(make: Callable[..., B], name: str, options: Mapping[str, Any]) -> B:
    """``make(**options)``: the bot a game's ``bot(name, **options)`` names. An option the bot
    does not take is a ``TypeError`` naming the bot and the option, rather than Python's words
    about a class or a helper the user never named.

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Cautious:
    ...     margin: int = 1
    >>> build_bot(Cautious, "cautious", {"margin": 2})
    Cautious(margin=2)
    >>> build_bot(Cautious, "cautious", {"seed": 2})
    Traceback (most recent call last):
    ...
    TypeError: bot 'cautious' takes no option 'seed'
    """
    try:
        return make(**options)
    except TypeError as refused:
        unknown = _UNEXPECTED.search(str(refused))
        if unknown is None or unknown.group(1) not in options:
            raise
        raise TypeError(f"bot {name!r} takes no option {unknown.group(1)!r}") from None
