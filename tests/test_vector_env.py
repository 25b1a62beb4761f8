"""The vector environments: Gymnasium's ``VectorEnv`` over a game's batched engine gives the
episodes ``SyncVectorEnv`` of the single environment gives, for the same seeds and actions —
illegal ids, autoreset, truncation and both reward schemes included."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode, SyncVectorEnv

from arena import ArenaError
from arena.vector_env import SeatVectorEnv
from express.pettingzoo import gym_env as express_gym_env
from express.pettingzoo import gym_vector_env as express_gym_vector_env
from packing.pettingzoo import GYM_ID, gym_env, gym_vector_env


def _compare(
    vector: SeatVectorEnv, single: Callable[[], gymnasium.Env[Any, Any]], steps: int, seed: int
) -> int:
    """Step the vector environment and SyncVectorEnv of ``single`` with the same actions:
    random ids half the time (illegal ones included), a legal one otherwise. Episodes ended."""
    sync = SyncVectorEnv([single for _ in range(vector.num_envs)])
    rng = np.random.default_rng(seed)
    first, expected_first = vector.reset(seed=seed), sync.reset(seed=seed)
    assert data_equivalence(first, expected_first)
    masks = first[1]["action_mask"].astype(bool)
    ids = vector.actions
    ended = 0
    for step in range(steps):
        legal = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        anything = rng.integers(0, ids, vector.num_envs)
        actions = np.where(rng.random(vector.num_envs) < 0.1, anything, legal)
        got, expected = vector.step(actions), sync.step(actions)
        assert data_equivalence(got, expected), (step, got, expected)
        assert vector.observation_space.contains(got[0])
        ended += int(got[2].sum() + got[3].sum())
        masks = got[4]["action_mask"].astype(bool)
    return ended


@pytest.mark.parametrize("reward", ["score", "win"])
def test_the_vector_environment_gives_the_single_environments_episodes(reward: str) -> None:
    opponents = ["optimal", "random", "bonus-aware"]
    vector = gym_vector_env(opponents, num_envs=6, seat=1, max_rounds=4, reward=reward)
    ended = _compare(
        vector, lambda: gym_env(opponents, seat=1, max_rounds=4, reward=reward), 200, seed=3
    )
    assert ended > 20  # episodes ended by the rules, by the cap and by illegal ids, then reset


def test_every_player_count_and_seat_matches() -> None:
    for players in range(2, 7):
        opponents = ["capacity", "random", "optimal", "bonus-aware", "random"][: players - 1]
        seat = players - 1
        vector = gym_vector_env(opponents, num_envs=3, seat=seat)
        _compare(vector, partial(gym_env, opponents, seat=seat), 40, seed=players)


def test_reset_without_a_seed_goes_on_with_the_generators() -> None:
    vector = gym_vector_env(["random"], num_envs=4)
    sync = SyncVectorEnv([lambda: gym_env(["random"]) for _ in range(4)])
    assert data_equivalence(vector.reset(seed=9), sync.reset(seed=9))
    for _ in range(3):
        assert data_equivalence(vector.reset(), sync.reset())


def test_it_declares_what_gymnasium_asks_of_a_vector_environment() -> None:
    vector = gym_vector_env(["optimal"], num_envs=5)
    assert vector.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert vector.observation_space == gymnasium.vector.utils.batch_space(
        vector.single_observation_space, 5
    )
    assert vector.action_space == gymnasium.vector.utils.batch_space(vector.single_action_space, 5)
    observations, info = vector.reset(seed=0)
    assert observations.dtype == np.float32 and vector.observation_space.contains(observations)
    assert (vector.action_masks() == info["action_mask"].astype(bool)).all()
    made = gymnasium.make_vec(
        GYM_ID, num_envs=3, vectorization_mode="vector_entry_point", opponents=["random"]
    )
    assert made.num_envs == 3
    # Gymnasium's own vector wrappers run over it.
    wrapped = gymnasium.wrappers.vector.RecordEpisodeStatistics(vector)
    wrapped.reset(seed=1)
    for _ in range(30):
        wrapped.step(np.argmax(vector.action_masks(), axis=1))


def test_bad_arguments_are_refused_when_made() -> None:
    with pytest.raises(ArenaError, match="opponent 'greedy-loader' cannot be batched"):
        gym_vector_env(["greedy-loader"], num_envs=2)
    with pytest.raises(ArenaError, match="invalid seat: 5"):
        gym_vector_env(["random"], num_envs=2, seat=5)
    with pytest.raises(ArenaError, match="invalid num_envs 0"):
        gym_vector_env(["random"], num_envs=0)
    vector = gym_vector_env(["random"], num_envs=2)
    with pytest.raises(ArenaError, match="call reset"):
        vector.step(np.zeros(2, np.int64))
    vector.reset(seed=0)
    with pytest.raises(ArenaError, match="2 integer ids"):
        vector.step(np.zeros(3, np.int64))


@pytest.mark.parametrize("caboose", [None, "random"])
def test_the_express_vector_environment_gives_the_single_environments_episodes(
    caboose: str | None,
) -> None:
    opponents = ["greedy", "random"]
    vector = express_gym_vector_env(opponents, num_envs=5, seat=2, caboose=caboose)
    ended = _compare(
        vector, partial(express_gym_env, opponents, seat=2, caboose=caboose), 120, seed=4
    )
    assert ended > 20


def test_every_express_player_count_matches() -> None:
    for players in range(2, 6):
        opponents = ["random", "greedy", "random", "greedy"][: players - 1]
        vector = express_gym_vector_env(opponents, num_envs=3, reward="win")
        _compare(vector, partial(express_gym_env, opponents, reward="win"), 30, seed=players)


@pytest.mark.parametrize("make", [gym_vector_env, express_gym_vector_env])
def test_shared_chance_is_reproducible_and_plays_whole_episodes(make: Any) -> None:
    def episode_ends(seed: int) -> tuple[list[Any], int]:
        vector = make(num_envs=8, chance="shared")
        observations, info = vector.reset(seed=seed)
        seen, ended = [observations], 0
        for _ in range(60):
            actions = np.argmax(info["action_mask"], axis=1)
            observations, rewards, terminated, truncated, info = vector.step(actions)
            assert vector.observation_space.contains(observations)
            assert (info["action_mask"].any(axis=1) | terminated | truncated).all()
            seen.append(observations)
            ended += int(terminated.sum() + truncated.sum())
        return seen, ended

    first, ended = episode_ends(5)
    again, _ = episode_ends(5)
    other, _ = episode_ends(6)
    assert all((a == b).all() for a, b in zip(first, again))
    assert any((a != b).any() for a, b in zip(first, other))
    assert ended > 8
    with pytest.raises(ArenaError, match="unknown chance: 'fast'"):
        make(num_envs=2, chance="fast")
