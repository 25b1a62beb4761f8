"""The generic protocol test every game must pass (after OpenSpiel's ``random_sim_test``).

``check_random_playouts(new_state, games=N, seed=S)`` plays N random games through the
:class:`arena.GameState` protocol — chance sampled with its exact probabilities, players
choosing uniformly among the legal actions — and after every action checks:

- ``current_player()`` agrees with ``is_chance_node()`` / ``is_terminal()``;
- chance outcomes are distinct, positive, and their probabilities sum to exactly 1;
- legal actions are distinct and non-empty until the end, empty at the end, each readable;
- ``clone()`` is independent: acting on the clone leaves the original unchanged;
- the state pickles and unpickles equal; every player's observation pickles equal too;
- the game ends within ``max_actions``;
- at the end ``returns()`` has one number per player and ``winners()`` is a non-empty set of seats;
- replaying the recorded actions on a fresh state gives an equal state with the same events;
- the game's own ``invariant(state)`` (conservation of cards, points, …) holds.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from arena import CHANCE, TERMINAL, GameState, sample_outcome
from arena.play import _Sampler

# Games return one cached tuple at recurring chance nodes (e.g. the 900 cargos of a roll). A tuple
# of (action, Fraction) pairs cannot change, so it is checked once per object, not at every node;
# each entry keeps its tuple alive so an id is never reused while remembered.
_checked: dict[int, tuple[Any, ...]] = {}
_samplers: dict[int, tuple[tuple[Any, ...], _Sampler]] = {}


def _already_checked(outcomes: object) -> bool:
    return isinstance(outcomes, tuple) and _checked.get(id(outcomes), (None,)) is outcomes


def _remember(outcomes: object) -> None:
    if isinstance(outcomes, tuple):
        if len(_checked) > 4096:
            _checked.clear()
        _checked[id(outcomes)] = outcomes


def _sample(outcomes: Any, rng: np.random.Generator) -> Any:
    """Exactly as :func:`arena.sample_outcome`, reusing the sampler of a recurring tuple."""
    if not isinstance(outcomes, tuple):
        return sample_outcome(outcomes, rng)
    cached = _samplers.get(id(outcomes))
    if cached is None or cached[0] is not outcomes:
        if len(_samplers) > 4096:
            _samplers.clear()
        cached = _samplers[id(outcomes)] = (outcomes, _Sampler(outcomes))
    return cached[1].draw(rng)


def _check_node(state: GameState) -> None:
    player = state.current_player()
    assert (player == CHANCE) == state.is_chance_node(), player
    assert (player == TERMINAL) == state.is_terminal(), player
    if state.is_terminal():
        assert list(state.legal_actions()) == []
        return
    if state.is_chance_node():
        given = state.chance_outcomes()
        if _already_checked(given):
            outcomes = list(given)
        else:
            outcomes = list(given)
            assert outcomes, "chance node without outcomes"
            actions = [a for a, _ in outcomes]
            assert len(set(actions)) == len(actions), "repeated chance outcome"
            assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
            assert sum(p for _, p in outcomes) == 1
            _remember(given)
    else:
        assert 0 <= player < state.num_players, player
        legal = list(state.legal_actions())
        assert legal, "no legal action before the end"
        assert len(set(legal)) == len(legal), "repeated legal action"
        for action in legal:
            assert isinstance(state.action_to_string(action), str) and state.action_to_string(
                action
            )
    for seat in range(state.num_players):
        seen = state.observation(seat)
        assert pickle.loads(pickle.dumps(seen)) == seen


def _check_clone_and_pickle(state: GameState, action: Any) -> None:
    assert pickle.loads(pickle.dumps(state)) == state, "state does not survive pickling"
    before = pickle.loads(pickle.dumps(state))
    copy = state.clone()
    assert copy == state
    copy.apply_action(action)
    assert state == before, "acting on a clone changed the original"


def check_random_playouts(
    new_state: Callable[[], GameState],
    *,
    games: int,
    seed: int,
    invariant: Callable[[GameState], None] | None = None,
    max_actions: int = 100_000,
    deep_every: int = 1,
) -> int:
    """Play ``games`` random games and check the protocol after every action.

    ``deep_every`` spaces out the costly clone/pickle checks (1 = after every action).
    Returns the number of actions checked.
    """
    rng = np.random.default_rng(seed)
    checked = 0
    for _ in range(games):
        state = new_state()
        history: list[Any] = []
        for step in range(max_actions + 1):
            _check_node(state)
            if invariant is not None:
                invariant(state)
            if state.is_terminal():
                break
            assert step < max_actions, f"the game did not end within {max_actions} actions"
            if state.is_chance_node():
                action = _sample(state.chance_outcomes(), rng)
            else:
                legal = state.legal_actions()
                action = legal[int(rng.integers(len(legal)))]
            if step % deep_every == 0:
                _check_clone_and_pickle(state, action)
            state.apply_action(action)
            history.append(action)
            checked += 1
        returns = list(state.returns())
        assert len(returns) == state.num_players
        winners = state.winners()
        assert winners and winners <= set(range(state.num_players)), winners
        replay = new_state()
        for action in history:
            replay.apply_action(action)
        assert replay == state, "replaying the actions gave another state"
        assert [str(e) for e in replay.events] == [str(e) for e in state.events]
    return checked
