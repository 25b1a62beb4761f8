"""The generic PettingZoo and Gymnasium adapters (``arena.pettingzoo``) on arena's toy dice race,
and the codec's independence of every extra (the games' environments are tested in their
packages)."""

from __future__ import annotations

import contextlib
import importlib
import io
import pickle
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any

# The rl extra: without it the root conftest.py skips this file (NEEDS_EXTRA), naming it.
import gymnasium
import gymnasium.utils.env_checker as env_checker
import numpy as np
import pettingzoo.test as pettingzoo_test
import pytest

import arena  # noqa: E402
from arena import ArenaError, GameState, MissingExtraError  # noqa: E402
from arena.pettingzoo import CodecEnv, SeatEnv, agent_name  # noqa: E402
from tests.arena.toy import AlwaysBank, AlwaysKeep, DiceRace  # noqa: E402
from tests.arena.toy_codec import CODEC  # noqa: E402


def toy_text(state: GameState, names: Sequence[str], seed: int | None) -> str:
    assert isinstance(state, DiceRace)
    return f"dice race, seed {seed}: " + ", ".join(
        f"{name} {total}" for name, total in zip(names, state.totals)
    )


def toy_env(render_mode: str | None = None, **options: Any) -> CodecEnv:
    params: dict[str, Any] = {k: options.pop(k) for k in ("players", "rounds") if k in options}
    return CodecEnv(
        CODEC, params, name="dice_race_v0", render_text=toy_text, render_mode=render_mode, **options
    )


def quiet(check: Callable[[], object]) -> None:
    """PettingZoo's checks print their progress, and warn that a dict observation (the
    observation and its mask, the layout of PettingZoo's own board games) is not an array."""
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation (is not|space for)")
        check()


def episode(env: CodecEnv, seed: int | None, pick: Callable[[np.ndarray], int]) -> list[Any]:
    """Every (agent, observation, reward, done) seen through ``last()`` until all agents leave."""
    env.reset(seed=seed)
    seen: list[Any] = []
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        seen.append((agent, observation["observation"].tolist(), reward, terminated, truncated))
        if terminated or truncated:
            env.step(None)
        else:
            env.step(pick(observation["action_mask"]))
    return seen


def first_legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize("players", [1, 2, 4])
def test_the_toy_game_passes_pettingzoo_own_tests(players: int) -> None:
    quiet(lambda: pettingzoo_test.api_test(toy_env(players=players), num_cycles=50))
    quiet(lambda: pettingzoo_test.seed_test(lambda: toy_env(players=players), num_cycles=50))
    quiet(lambda: pettingzoo_test.render_test(lambda **k: toy_env(players=players, **k)))


def test_observations_masks_and_spaces_come_from_the_codec() -> None:
    env = toy_env(players=3, rounds=2)
    assert (
        env.possible_agents
        == ["player_0", "player_1", "player_2"]
        == [agent_name(p) for p in range(3)]
    )
    env.reset(seed=5)
    state = env.state
    assert env.agent_selection == "player_0" and not state.is_chance_node()
    for p, agent in enumerate(env.possible_agents):
        seen = env.observe(agent)
        expected = np.zeros(CODEC.tensor_size(env._t.params), np.float32)
        CODEC.fill_tensor(state.observation(p), expected)
        assert np.array_equal(seen["observation"], expected)
        assert seen["action_mask"].dtype == np.int8
        # Only the agent to act has legal actions: keep (0) and bank (1).
        assert seen["action_mask"].tolist() == ([1, 1] if p == 0 else [0, 0])
        assert env.observation_space(agent) is env.observation_space(agent)
        assert env.observation_space(agent).contains(seen)
        assert env.action_space(agent) == gymnasium.spaces.Discrete(2)
    # Separate space objects per agent: seeding one agent's sampling leaves the others'.
    assert env.action_space("player_0") is not env.action_space("player_1")


def test_equal_seeds_give_equal_episodes_and_unseeded_resets_go_on() -> None:
    env, other = toy_env(), toy_env()
    assert episode(env, 11, first_legal) == episode(other, 11, first_legal)
    runs = {str(episode(env, seed, first_legal)) for seed in range(8)}
    assert len(runs) > 1  # chance really is drawn from the seed
    # reset() without a seed continues the generator: the next episode is not a replay.
    first = episode(env, 3, first_legal)
    assert [episode(env, None, first_legal) for _ in range(4)] != [first] * 4


@pytest.mark.parametrize("reward", ["score", "win"])
def test_rewards_add_up_to_the_score_or_the_win_shares(reward: str) -> None:
    for seed in range(10):
        env = toy_env(players=3, reward=reward)
        env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            observation, got, terminated, truncated, _ = env.last()
            totals[agent] += got
            env.step(None if terminated or truncated else first_legal(observation["action_mask"]))
        state = env.state
        assert state.is_terminal()
        winners = state.winners()
        expected = (
            [float(x) for x in state.returns()]
            if reward == "score"
            else [1 / len(winners) if p in winners else 0.0 for p in range(3)]
        )
        assert list(totals.values()) == pytest.approx(expected)


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = toy_env()
    env.reset(seed=1)
    before = env.state.clone()
    for bad in (2, -1, "keep", 1.5e9):
        with pytest.raises(ArenaError, match="illegal action"):
            env.step(bad)
        assert env.state == before and env.agent_selection == "player_0"


def test_bad_options_are_refused_in_one_line() -> None:
    with pytest.raises(ArenaError, match="unknown reward: 'points'"):
        toy_env(reward="points")
    with pytest.raises(ArenaError, match="unknown render_mode: 'rgb_array'"):
        toy_env(render_mode="rgb_array")
    with pytest.raises(ArenaError, match="unknown parameter 'colour'"):
        CodecEnv(CODEC, {"colour": 1}, name="x_v0", render_text=toy_text)


def test_render_modes() -> None:
    env = toy_env(render_mode="ansi")
    env.reset(seed=4)
    assert env.render() == "dice race, seed 4: player_0 0, player_1 0"
    human = toy_env(render_mode="human")
    human.reset(seed=4)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert human.render() is None
    assert out.getvalue() == "dice race, seed 4: player_0 0, player_1 0\n"


# --- one seat as a Gymnasium environment -------------------------------------------------------


def seat_env(**options: Any) -> SeatEnv:
    return SeatEnv(
        CODEC,
        {"players": 3},
        opponents=[AlwaysKeep(), AlwaysBank()],
        render_text=toy_text,
        **options,
    )


@pytest.mark.parametrize("seat", [0, 2])
def test_one_seat_passes_gymnasium_checker(seat: int) -> None:
    env_checker.check_env(seat_env(seat=seat, render_mode="ansi"))


def test_one_seat_plays_against_the_policies_with_masks_and_rewards() -> None:
    env = seat_env(seat=1)
    observation, info = env.reset(seed=2)
    assert env.state.current_player() == 1
    assert env.action_masks().tolist() == [True, True]
    assert info["action_mask"].tolist() == [1, 1]
    assert env.observation_space.contains(observation)
    total, done = 0.0, False
    while not done:
        observation, reward, terminated, truncated, info = env.step(1)  # bank
        total += reward
        done = terminated or truncated
    assert terminated and not truncated
    state = env.state
    assert isinstance(state, DiceRace) and total == state.totals[1] == 3 * 3
    assert env.action_masks().tolist() == [False, False]
    with pytest.raises(ArenaError, match="after the episode ended"):
        env.step(0)


def test_one_seat_penalises_or_refuses_an_illegal_action() -> None:
    env = seat_env(illegal_reward=-5)
    env.reset(seed=1)
    before = env.state.clone()
    _, reward, terminated, truncated, info = env.step(7)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-5.0, True, False, 7)
    assert env.state == before
    strict = seat_env(illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(ArenaError, match=r"illegal action 7 \(legal now: \[0, 1\]\)"):
        strict.step(7)


def test_one_seat_refuses_bad_options() -> None:
    for options, words in (
        ({"seat": 3}, "invalid seat: 3"),
        ({"illegal": "ignore"}, "unknown illegal: 'ignore'"),
        ({"reward": "money"}, "unknown reward"),
    ):
        with pytest.raises(ArenaError, match=words):
            seat_env(**options)
    with pytest.raises(TypeError, match="^seat must be a whole number, not bool True$"):
        seat_env(seat=True)
    assert seat_env(seat=np.int64(1)).seat == 1
    with pytest.raises(ArenaError, match="1 opponents for 3 players"):
        SeatEnv(CODEC, {"players": 3}, opponents=[AlwaysKeep()], render_text=toy_text)


def test_one_seat_replays_a_seed() -> None:
    def run(seed: int) -> list[Any]:
        env = SeatEnv(CODEC, {"players": 2}, opponents=[arena.RandomPolicy()], render_text=toy_text)
        observation, _ = env.reset(seed=seed)
        seen = [observation.tolist()]
        done = False
        while not done:
            observation, reward, terminated, truncated, _ = env.step(0)
            seen.append((observation.tolist(), reward))
            done = terminated or truncated
        return seen

    assert run(9) == run(9)
    assert len({str(run(seed)) for seed in range(6)}) > 1


# --- the codec without any extra ---------------------------------------------------------------


def _hide(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)  # as if not installed


def _forget(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    for name in modules:
        monkeypatch.delitem(sys.modules, name, raising=False)
        package, _, module = name.rpartition(".")
        if package in sys.modules:
            monkeypatch.delattr(sys.modules[package], module, raising=False)


def test_the_codecs_need_no_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    _hide(monkeypatch, "pyspiel", "open_spiel", "pettingzoo", "gymnasium")
    _forget(monkeypatch, "arena.codec", "packing.codec", "express.codec")
    for name in ("arena.codec", "packing.codec", "express.codec"):
        module = importlib.import_module(name)
        assert module.__name__ == name
    codec = importlib.import_module("packing.codec").CODEC
    params = codec.merged({"players": 3})
    state = codec.new_state(params)
    assert codec.limits(params).num_distinct_actions == len(state.setup.deck) + 1
    # A codec pickles and compares equal as the same translation.
    assert pickle.loads(pickle.dumps(codec)) == codec


def test_a_missing_rl_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    _hide(monkeypatch, "pettingzoo", "gymnasium", "gymnasium.spaces")
    _forget(monkeypatch, "arena.pettingzoo", "packing.pettingzoo", "express.pettingzoo")
    import express
    import packing

    for name in ("arena.pettingzoo", "packing.pettingzoo", "express.pettingzoo"):
        with pytest.raises(MissingExtraError) as raised:
            importlib.import_module(name)
        assert raised.value.extra == "rl"
        assert "pip install 'tabletop-solvers[rl]'" in str(raised.value)
    for make in (packing.gym_env, express.gym_env):
        with pytest.raises(MissingExtraError, match=r"the rl extra"):
            make()
