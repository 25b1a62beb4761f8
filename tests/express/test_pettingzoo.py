"""Yardmaster Express as PettingZoo and Gymnasium environments (``express.pettingzoo``):
PettingZoo's own conformance tests for 2 to 5 players with and without a caboose, Gymnasium's
checker, and what the environments promise (observations hide what a player may not know,
seeded chance, rewards, the text)."""

from __future__ import annotations

import contextlib
import io
import warnings
from collections.abc import Callable
from typing import Any

# The rl extra: without it the root conftest.py skips this file (NEEDS_EXTRA), naming it.
import gymnasium
import gymnasium.utils.env_checker as env_checker
import numpy as np
import pettingzoo.test as pettingzoo_test
import pytest

import express  # noqa: E402
from express import CABOOSES, Game, RulesError, bot  # noqa: E402
from express.codec import CODEC  # noqa: E402
from express.pettingzoo import GYM_ID, NAME, env, gym_env  # noqa: E402
from express.report import play_text  # noqa: E402
from express.worlds import resample  # noqa: E402


def quiet(check: Callable[[], object]) -> None:
    """PettingZoo's checks print their progress, and warn that a dict observation (the
    observation and its mask, the layout of PettingZoo's own board games) is not an array."""
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation (is not|space for)")
        check()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("caboose", [None, "random", CABOOSES[3].name])
def test_pettingzoo_api_seed_and_render_tests_pass(players: int, caboose: str | None) -> None:
    def make(**options: Any) -> Any:
        return env(players=players, caboose=caboose, **options)

    quiet(lambda: pettingzoo_test.api_test(make(), num_cycles=1000))
    quiet(lambda: pettingzoo_test.seed_test(make, num_cycles=1000))
    quiet(lambda: pettingzoo_test.render_test(make))


def test_the_names_follow_pettingzoo() -> None:
    game = env(players=4)
    assert NAME == game.metadata["name"] == "yardmaster_express_v0"
    assert game.possible_agents == [f"player_{p}" for p in range(4)]
    # Each kind face up or face down.
    assert game.action_space("player_0") == gymnasium.spaces.Discrete(2 * 27)


def play_out(game: Any, seed: int, pick: Callable[[np.ndarray], int]) -> dict[str, float]:
    """Play to the end; each agent's summed rewards. Every observation is checked on the way:
    the codec's tensor of the player's own observation, unchanged in a world the player cannot
    tell from this one."""
    game.reset(seed=seed)
    state = game.unwrapped.state
    totals: dict[str, float] = dict.fromkeys(game.possible_agents, 0.0)
    size = CODEC.tensor_size(game.unwrapped._t.params)
    rng = np.random.default_rng(seed)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        totals[agent] += reward
        player = game.possible_agents.index(agent)
        expected = np.zeros(size, np.float32)
        CODEC.fill_tensor(state.observation(player), expected)
        assert np.array_equal(observation["observation"], expected)
        if terminated or truncated:
            game.step(None)
            continue
        world = resample(state, player, rng)
        hidden = np.zeros(size, np.float32)
        CODEC.fill_tensor(world.observation(player), hidden)
        assert np.array_equal(observation["observation"], hidden)
        mask = observation["action_mask"]
        legal = sorted(CODEC.encode(state, action) for action in state.legal_actions())
        assert np.flatnonzero(mask).tolist() == legal
        game.step(pick(mask))
    return totals


def random_pick(seed: int) -> Callable[[np.ndarray], int]:
    rng = np.random.default_rng(seed)
    return lambda mask: int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize(("players", "caboose"), [(2, None), (3, "random"), (5, None)])
def test_rewards_sum_to_the_final_score(players: int, caboose: str | None) -> None:
    game = env(players=players, caboose=caboose)
    totals = play_out(game, 1, random_pick(1))
    state = game.unwrapped.state
    assert isinstance(state, Game) and state.is_terminal()
    assert list(totals.values()) == [float(p.total) for p in state.score().players]


def test_win_rewards_are_the_win_shares() -> None:
    game = env(players=3, reward="win")
    totals = play_out(game, 2, random_pick(2))
    (winner,) = game.unwrapped.state.winners()
    assert list(totals.values()) == [1.0 if p == winner else 0.0 for p in range(3)]


def test_equal_seeds_give_equal_episodes() -> None:
    def text(seed: int) -> str:
        game = env(players=3, caboose="random", render_mode="ansi")
        game.reset(seed=seed)
        for _agent in game.agent_iter():
            observation, _, terminated, truncated, _ = game.last()
            done = terminated or truncated
            game.step(None if done else int(np.flatnonzero(observation["action_mask"])[0]))
        return str(game.render())

    assert text(5) == text(5)
    assert text(5) != text(6)


def test_ansi_render_is_the_play_text(capsys: pytest.CaptureFixture[str]) -> None:
    game = env(players=2, caboose="random", render_mode="ansi", rounds=3)
    play_out(game, 4, random_pick(4))
    text = game.render()
    assert text == play_text(game.unwrapped.state, ["player_0", "player_1"], 4)
    lines = text.splitlines()
    assert lines[0].startswith(
        "Yardmaster Express, 2 players (player_0, player_1), seed 4, caboose"
    )
    assert "final scoring (trains in full, ~ = face down)" in lines
    assert lines[-1].startswith("winner: player")
    shown = env(players=2, render_mode="human")
    shown.reset(seed=4)
    capsys.readouterr()
    assert shown.render() is None
    out, _ = capsys.readouterr()
    assert out.startswith("Yardmaster Express, 2 players") and "final scoring" not in out


def test_options_reach_the_game() -> None:
    game = env(players=3, caboose=CABOOSES[0], rounds=2, deck=express.deck_for(3))
    game.reset(seed=0)
    state = game.unwrapped.state
    assert state.rounds == 2 and state.caboose == CABOOSES[0]
    with pytest.raises(RulesError, match="invalid rounds: 0"):
        env(rounds=0)
    with pytest.raises(RulesError):
        env(players=6)
    with pytest.raises(RulesError, match="opponents is a list of bot names"):
        gym_env("greedy")


# --- one seat against the bots (Gymnasium) -----------------------------------------------------


@pytest.mark.parametrize(
    ("opponents", "seat", "caboose"),
    [
        (["greedy", "greedy"], 0, None),
        (["random"], 1, "random"),
        (["greedy", "random", "greedy", "random"], 4, CABOOSES[7].name),
    ],
)
def test_gymnasium_checker_passes(opponents: list[str], seat: int, caboose: str | None) -> None:
    # Through Gymnasium's registry, so the checker also tries every render mode.
    made = gymnasium.make(
        GYM_ID, opponents=opponents, seat=seat, caboose=caboose, render_mode="ansi"
    )
    env_checker.check_env(made.unwrapped)


def test_one_seat_against_the_bots() -> None:
    single = express.gym_env(["greedy", "random"], seat=1, caboose="random")
    observation, info = single.reset(seed=3)
    assert single.observation_space.contains(observation)
    total, done, steps = 0.0, False, 0
    while not done:
        mask = single.action_masks()
        assert mask.any() and np.array_equal(mask, info["action_mask"] == 1)
        observation, reward, terminated, truncated, info = single.step(int(np.flatnonzero(mask)[0]))
        total += reward
        done = terminated or truncated
        steps += 1
    state = single.state
    assert isinstance(state, Game)
    assert terminated and not truncated and steps == state.rounds
    assert total == state.score().players[1].total


def test_one_seat_replays_a_seed() -> None:
    def run(seed: int) -> list[Any]:
        single = gym_env([bot("search"), "greedy"], seat=2)
        observation, _ = single.reset(seed=seed)
        seen, done = [observation.tolist()], False
        while not done:
            observation, reward, terminated, truncated, _ = single.step(
                int(np.flatnonzero(single.action_masks())[-1])
            )
            seen.append((observation.tolist(), reward))
            done = terminated or truncated
        return seen

    assert run(8) == run(8)


def test_gymnasium_make_builds_the_single_seat_environment() -> None:
    made = gymnasium.make(GYM_ID, opponents=["greedy"], caboose="random", render_mode="ansi")
    assert made.spec is not None and made.spec.id == "tabletop/YardmasterExpress-v0"
    observation, _ = made.reset(seed=0)
    assert made.observation_space.contains(observation)
    assert made.unwrapped.spec is not None  # what the checker reads to try each render mode
