"""Both games' environments behave as environments: they pickle and deep-copy (the copy steps as
the original does), refuse what is not an action id, follow PettingZoo's order after the end and
before the first reset, and refuse bad arguments when they are made."""

from __future__ import annotations

import copy
import pickle
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any, cast

# The rl extra: without it the root conftest.py skips this file (NEEDS_EXTRA), naming it.
import numpy as np
import pettingzoo.test  # noqa: F401
import pytest

import express
import express.pettingzoo
import packing
import packing.pettingzoo
from arena import ArenaError

GAMES = [packing.pettingzoo, express.pettingzoo]
NOT_IDS: list[Any] = [10.7, "10", b"10", True, None, np.float64(3.0), np.bool_(True)]


def _random_action(env: Any, rng: np.random.Generator) -> int | None:
    _, _, terminated, truncated, _ = env.last()
    if terminated or truncated:
        return None
    mask = env.observe(env.agent_selection)["action_mask"]
    return int(rng.choice(np.flatnonzero(mask)))


def _view(env: Any) -> tuple[Any, ...]:
    agent = env.agent_selection
    observation = env.observe(agent)["observation"].tolist() if env.agents else None
    return agent, observation, dict(env.rewards), dict(env.terminations), dict(env.truncations)


@pytest.mark.parametrize("game", GAMES, ids=lambda m: m.__name__)
@pytest.mark.parametrize("copier", [pickle.loads.__name__, copy.deepcopy.__name__])
def test_an_environment_copies_and_the_copy_steps_as_the_original(
    game: ModuleType, copier: str
) -> None:
    def duplicate(env: Any) -> Any:
        return pickle.loads(pickle.dumps(env)) if copier == "loads" else copy.deepcopy(env)

    env = game.raw_env()
    duplicate(env)  # before reset too
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    steps = 0
    for checkpoint in (0, 7, 25):
        while steps < checkpoint and env.agents:
            env.step(_random_action(env, rng))
            steps += 1
        twin = duplicate(env)
        replay = np.random.default_rng(checkpoint)
        for _ in range(2000):
            if not env.agents:
                break
            action = _random_action(env, replay)
            env.step(action)
            twin.step(action)
            assert _view(env) == _view(twin)
        assert not env.agents and not twin.agents
        env.reset(seed=3)
        steps = 0


@pytest.mark.parametrize("game", GAMES, ids=lambda m: m.__name__)
def test_a_one_seat_view_copies_and_the_copy_steps_as_the_original(game: ModuleType) -> None:
    env = game.gym_env()
    pickle.loads(pickle.dumps(env))
    observation, info = env.reset(seed=5)
    rng = np.random.default_rng(1)
    env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    for twin in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        original = copy.deepcopy(env)
        moves = np.random.default_rng(2)
        done = False
        while not done:
            mask = original.action_masks()
            action = int(moves.choice(np.flatnonzero(mask)))
            first, second = original.step(action), twin.step(action)
            assert first[0].tolist() == second[0].tolist() and first[1:4] == second[1:4]
            done = first[2] or first[3]


@pytest.mark.parametrize("game", GAMES, ids=lambda m: m.__name__)
@pytest.mark.parametrize("action", NOT_IDS, ids=repr)
def test_what_is_not_an_action_id_is_illegal(game: ModuleType, action: Any) -> None:
    env = game.raw_env()
    env.reset(seed=1)
    before = _view(env)
    with pytest.raises(ArenaError, match="illegal action"):
        env.step(action)
    assert _view(env) == before
    view = game.gym_env()
    view.reset(seed=1)
    _, reward, terminated, _, info = view.step(action)
    assert reward == view.illegal_reward and terminated and info["illegal_action"] is action


@pytest.mark.parametrize("game", GAMES, ids=lambda m: m.__name__)
@pytest.mark.parametrize("wrap", [np.int64, np.int32, np.array], ids=lambda f: f.__name__)
def test_numpy_integers_are_action_ids(game: ModuleType, wrap: Callable[[int], Any]) -> None:
    env, twin = game.raw_env(), game.raw_env()
    env.reset(seed=1)
    twin.reset(seed=1)
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    env.step(wrap(legal))
    twin.step(legal)
    assert _view(env) == _view(twin)
    assert game.gym_env(seat=np.int64(1)).seat == 1


@pytest.mark.parametrize("game", GAMES, ids=lambda m: m.__name__)
def test_after_the_end_and_before_reset_as_pettingzoo_orders(
    game: ModuleType, caplog: pytest.LogCaptureFixture
) -> None:
    env = game.raw_env()
    for call in (env.last, lambda: env.observe("player_0"), lambda: env.step(0)):
        with pytest.raises(ArenaError, match=r"call reset\(\) first"):
            call()
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    while env.agents:
        env.step(_random_action(env, rng))
    final = _view(env)
    env.step(0)  # PettingZoo's own warning, through its logger
    _, reward, terminated, _, _ = env.last()
    warned = [r.getMessage() for r in caplog.records if "after all agents" in r.getMessage()]
    assert len(warned) == 2
    assert reward == 0.0 and terminated and _view(env) == final


@pytest.mark.parametrize(
    ("make", "named"),
    [
        (lambda: packing.pettingzoo.raw_env(deck=cast(Any, "S01")), "deck"),
        (lambda: packing.pettingzoo.raw_env(deck=[]), "deck"),
        (lambda: express.pettingzoo.raw_env(deck=[]), "deck"),
        (lambda: express.pettingzoo.raw_env(players=cast(Any, 2.5)), "players"),
        (lambda: packing.pettingzoo.raw_env(players=cast(Any, 2.5)), "players"),
        (lambda: packing.pettingzoo.raw_env().reset(seed=cast(Any, "x")), "seed"),
        (lambda: express.pettingzoo.gym_env().reset(seed=-1), "seed"),
        (lambda: packing.pettingzoo.gym_env(illegal_reward=float("nan")), "illegal_reward"),
        (lambda: express.pettingzoo.gym_env(illegal_reward=float("inf")), "illegal_reward"),
        (lambda: packing.pettingzoo.gym_env(opponents=[express.bot("greedy")] * 3), "opponent"),
        (lambda: express.pettingzoo.gym_env(opponents=[packing.bot("optimal")] * 2), "opponent"),
    ],
)
def test_bad_arguments_are_refused_when_the_environment_is_made(
    make: Callable[[], Any], named: str
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(Exception, match=named) as refused:
            make()
    # A wrong kind of value is a TypeError (arena.values' rule), but one naming the argument,
    # never an error from deep inside the first step.
    assert not isinstance(refused.value, (AttributeError, KeyError))
    assert "\n" not in str(refused.value)
