"""The conformance check every game passes: random playouts through the :mod:`arena` protocol.

Whoever adds a game calls :func:`check_random_playouts` from their tests, as OpenSpiel's games
pass ``pyspiel.random_sim_test`` and PettingZoo's environments ``pettingzoo.test.api_test``.
It plays random games — chance sampled with its exact probabilities, players choosing
uniformly among the legal actions — and after every action checks:

- ``current_player()`` agrees with ``is_chance_node()`` and ``is_terminal()``;
- chance outcomes are distinct, their probabilities positive :class:`~fractions.Fraction`\\ s
  summing to exactly 1;
- legal actions are distinct, hashable and non-empty until the end, empty at the end, and
  each reads as a non-empty string;
- before the end, ``returns()`` is all zeros and ``winners()`` empty (the protocol's meaning
  before the end, see :meth:`arena.protocol.GameState.returns`);
- at the end, ``returns()`` has one number per player and ``winners()`` is a non-empty set
  of seats;
- the game's own ``invariant(state)`` holds (conservation of cards, points, …);

and, after every ``deep_every``-th action (these cost most):

- the state pickles and unpickles equal, and so does every player's observation;
- ``legal_actions()`` at a chance node lists the chance outcomes;
- ``clone()`` is independent both ways: acting on the clone leaves the original unchanged,
  acting on the original leaves another clone unchanged, and the clone given the same action
  equals the original;

and at the end of each game: the game ended within ``max_actions``, and replaying the recorded
actions on a fresh state gives an equal state with the same events.

A state must compare by value (``==``) for the pickle, clone and replay checks. A failure
raises :class:`ProtocolError` (an :class:`AssertionError`, so test runners report it as a
failed check) naming the seed, the game and the number of actions played::

    from arena.testing import check_random_playouts

    def test_my_game_keeps_the_protocol():
        check_random_playouts(lambda: MyGame(players=3), games=50, seed=1)
"""

from __future__ import annotations

import math
import pickle
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any, TypeVar

import numpy as np

from arena.errors import ArenaError
from arena.memo import IdentityMemo
from arena.protocol import CHANCE, TERMINAL, Action, GameState
from arena.sampling import sample_outcome

__all__ = ["ProtocolError", "check_random_playouts"]

S = TypeVar("S", bound=GameState)
T = TypeVar("T")


class ProtocolError(ArenaError, AssertionError):
    """A game broke the :mod:`arena` protocol; the message says where and how."""


# Games return one cached tuple at recurring chance nodes (the 900 cargos of a roll, a pile's
# draws): a tuple of (action, Fraction) pairs cannot change, so each is checked once, not at
# every node.
_CHECKED_OUTCOMES: IdentityMemo[tuple[Any, ...], bool] = IdentityMemo(limit=4096)


def _fail(message: str) -> None:
    raise ProtocolError(message)


def _check_outcomes(state: GameState) -> None:
    given = state.chance_outcomes()
    if isinstance(given, tuple) and _CHECKED_OUTCOMES.get(given):
        return
    outcomes = list(given)
    if not outcomes:
        _fail("a chance node without outcomes")
    actions = [action for action, _ in outcomes]
    if len(set(actions)) != len(actions):
        _fail("a repeated chance outcome")
    for action, p in outcomes:
        if not isinstance(p, Fraction) or p <= 0:
            _fail(f"chance outcome {action!r} has probability {p!r}, not a positive Fraction")
    total = sum(p for _, p in outcomes)
    if total != 1:
        _fail(f"chance probabilities sum to {total}, not 1")
    if isinstance(given, tuple):
        _CHECKED_OUTCOMES.put(given, True)


def _check_node(state: GameState, *, pre_terminal: bool) -> None:
    player = state.current_player()
    players = state.num_players
    if (player == CHANCE) != state.is_chance_node():
        _fail(f"current_player() is {player} but is_chance_node() is {state.is_chance_node()}")
    if (player == TERMINAL) != state.is_terminal():
        _fail(f"current_player() is {player} but is_terminal() is {state.is_terminal()}")
    returns = list(state.returns())
    winners = state.winners()
    if len(returns) != players:
        _fail(f"returns() has {len(returns)} numbers for {players} players")
    if state.is_terminal():
        if list(state.legal_actions()):
            _fail("legal actions at the end")
        if not all(isinstance(r, int | float) and math.isfinite(r) for r in returns):
            _fail(f"returns() at the end are not finite numbers: {returns!r}")
        if not winners or not set(winners) <= set(range(players)):
            _fail(f"winners() at the end is {winners!r}, not a non-empty set of seats")
        return
    if pre_terminal and (any(r != 0 for r in returns) or winners):
        _fail(
            f"before the end returns() is {returns!r} and winners() {winners!r}: "
            "the protocol wants zeros and no winners until is_terminal()"
        )
    if player == CHANCE:
        _check_outcomes(state)
    else:
        if not 0 <= player < players:
            _fail(f"current_player() is {player}: neither a seat, CHANCE nor TERMINAL")
        legal = list(state.legal_actions())
        if not legal:
            _fail("no legal action before the end")
        if not all(isinstance(action, Hashable) for action in legal):
            _fail("an unhashable legal action")
        if len(set(legal)) != len(legal):
            _fail("a repeated legal action")
        for action in legal:
            text = state.action_to_string(action)
            if not isinstance(text, str) or not text:
                _fail(f"action_to_string({action!r}) is {text!r}, not a non-empty string")


def _check_chance_legal_actions(state: GameState) -> None:
    outcomes = [action for action, _ in state.chance_outcomes()]
    if list(state.legal_actions()) != outcomes:
        _fail("legal_actions() at a chance node is not the list of chance outcomes")


def _round_trip(value: T, what: str) -> T:
    """``value`` pickled and unpickled, which must compare equal to it."""
    try:
        again: T = pickle.loads(pickle.dumps(value))
    except (pickle.PicklingError, AttributeError, TypeError) as error:
        raise ProtocolError(f"{what} does not pickle: {error}") from error
    if again != value:
        _fail(f"{what} does not survive pickling (unpickled, it compares unequal)")
    return again


def _check_pickle_and_clone(state: S, action: Action) -> tuple[S, S, S]:
    """The checks before acting; returns what the checks after acting compare with."""
    before = _round_trip(state, "the state")
    for seat in range(state.num_players):
        _round_trip(state.observation(seat), f"player {seat}'s observation")
    if state.is_chance_node():
        _check_chance_legal_actions(state)
    acted = state.clone()
    if acted != state:
        _fail("clone() is not equal to the state")
    acted.apply_action(action)
    if state != before:
        _fail("acting on a clone changed the original")
    untouched = state.clone()
    return before, acted, untouched


def _check_after_acting(state: S, before: S, acted: S, untouched: S) -> None:
    if untouched != before:
        _fail("acting on the original changed its clone")
    if acted != state:
        _fail("a clone given the same action differs from the original")


def _new_game(game: S | Callable[[], S]) -> Callable[[], S]:
    # A class is a factory even though its attributes satisfy the runtime protocol check.
    if isinstance(game, type) or not isinstance(game, GameState):
        return game
    start = game.clone()
    return start.clone


def check_random_playouts(
    game: S | Callable[[], S],
    *,
    games: int = 10,
    seed: int = 0,
    invariant: Callable[[S], object] | None = None,
    max_actions: int = 100_000,
    deep_every: int = 1,
    pre_terminal: bool = True,
) -> int:
    """Play ``games`` random games of ``game`` and check the protocol after every action.

    ``game`` is a state to start every game from (it is cloned, never played) or a function of
    no arguments returning a fresh state (a class with default arguments will do).
    ``invariant`` is called on every state and raises when the game's own rules are broken.
    ``deep_every`` spaces out the costly pickle and clone checks (1: after every action; a
    game whose observations are costly to pickle checks more games at a wider spacing).
    ``pre_terminal`` checks that ``returns()`` is all zeros and ``winners()`` empty before the
    end; turn it off only for a game that does not yet follow that part of the protocol.
    The same arguments check the same games. Returns the number of actions checked; raises
    :class:`ProtocolError` at the first violation.
    """
    if games < 1 or deep_every < 1 or max_actions < 1:
        raise ArenaError(
            f"games, deep_every and max_actions must be at least 1, not "
            f"{games}, {deep_every}, {max_actions}"
        )
    new_state = _new_game(game)
    rng = np.random.default_rng(seed)
    checked = 0
    for number in range(1, games + 1):
        state = new_state()
        history: list[Action] = []
        try:
            _play_one(state, rng, history, invariant, max_actions, deep_every, pre_terminal)
            replay = new_state()
            for action in history:
                replay.apply_action(action)
            if replay != state:
                _fail("replaying the actions on a fresh state gave another state")
            if [str(e) for e in replay.events] != [str(e) for e in state.events]:
                _fail("replaying the actions on a fresh state gave other events")
        except AssertionError as error:  # a ProtocolError, or the game's invariant failing
            where = (
                f"after {len(history)} actions (last: {history[-1]!r})"
                if history
                else "at the start"
            )
            raise ProtocolError(
                f"game {number} of check_random_playouts(seed={seed}), {where}: {error}"
            ) from error
        checked += len(history)
    return checked


def _play_one(
    state: S,
    rng: np.random.Generator,
    history: list[Action],
    invariant: Callable[[S], object] | None,
    max_actions: int,
    deep_every: int,
    pre_terminal: bool,
) -> None:
    for step in range(max_actions + 1):
        _check_node(state, pre_terminal=pre_terminal)
        if invariant is not None:
            invariant(state)
        if state.is_terminal():
            return
        if step == max_actions:
            _fail(f"the game did not end within {max_actions} actions")
        action: Action
        if state.is_chance_node():
            action = sample_outcome(state.chance_outcomes(), rng)
        else:
            legal = state.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
        if step % deep_every == 0:
            before, acted, untouched = _check_pickle_and_clone(state, action)
            state.apply_action(action)
            _check_after_acting(state, before, acted, untouched)
        else:
            state.apply_action(action)
        history.append(action)
