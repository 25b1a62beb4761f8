"""Pack & Stack as PettingZoo and Gymnasium environments (``packing.pettingzoo``): PettingZoo's
own conformance tests for 2 to 6 players, Gymnasium's checker, and what the environments
promise (observations from the codec, seeded chance, rewards, the round cap, the text)."""

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

import packing  # noqa: E402
from packing import Game, PackingError, bot  # noqa: E402
from packing.codec import CODEC  # noqa: E402
from packing.pettingzoo import GYM_ID, NAME, env, gym_env, raw_env  # noqa: E402
from packing.report import play_text  # noqa: E402


def quiet(check: Callable[[], object]) -> None:
    """PettingZoo's checks print their progress, and warn that a dict observation (the
    observation and its mask, the layout of PettingZoo's own board games) is not an array."""
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation (is not|space for)")
        check()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_pettingzoo_api_seed_and_render_tests_pass(players: int) -> None:
    quiet(lambda: pettingzoo_test.api_test(env(players=players), num_cycles=1000))
    quiet(lambda: pettingzoo_test.seed_test(lambda: env(players=players), num_cycles=1000))
    quiet(lambda: pettingzoo_test.render_test(lambda **k: env(players=players, **k)))


def test_the_names_follow_pettingzoo() -> None:
    game = env(players=3)
    assert NAME == game.metadata["name"] == "pack_and_stack_v0"
    assert game.metadata["render_modes"] == ["ansi", "human"]
    assert game.possible_agents == ["player_0", "player_1", "player_2"]
    deck = len(packing.SAMPLE_DECK)
    # A truck of the deck, or the pile.
    assert game.action_space("player_0") == gymnasium.spaces.Discrete(deck + 1)
    assert type(game.unwrapped) is type(raw_env(players=3))
    assert type(game.unwrapped).__name__ == "CodecEnv"


def play_out(game: Any, seed: int, pick: Callable[[np.ndarray], int]) -> dict[str, float]:
    """Play to the end; each agent's summed rewards. Every observation is checked on the way."""
    game.reset(seed=seed)
    state = game.unwrapped.state
    totals: dict[str, float] = dict.fromkeys(game.possible_agents, 0.0)
    size = CODEC.tensor_size(game.unwrapped._t.params)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        totals[agent] += reward
        player = game.possible_agents.index(agent)
        # The observation is the codec's tensor of what the player may know, nothing else.
        expected = np.zeros(size, np.float32)
        CODEC.fill_tensor(state.observation(player), expected)
        assert np.array_equal(observation["observation"], expected)
        if terminated or truncated:
            game.step(None)
            continue
        mask = observation["action_mask"]
        legal = sorted(CODEC.encode(state, action) for action in state.legal_actions())
        assert np.flatnonzero(mask).tolist() == legal
        game.step(pick(mask))
    return totals


def random_pick(seed: int) -> Callable[[np.ndarray], int]:
    rng = np.random.default_rng(seed)
    return lambda mask: int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize("players", [2, 4])
def test_rewards_sum_to_the_points_won_or_lost(players: int) -> None:
    for seed in range(3):
        game = env(players=players)
        totals = play_out(game, seed, random_pick(seed))
        state = game.unwrapped.state
        assert isinstance(state, Game) and state.is_terminal()
        assert list(totals.values()) == [float(x - 75) for x in state.points]


def test_win_rewards_are_the_win_shares() -> None:
    game = env(players=3, reward="win")
    totals = play_out(game, 4, random_pick(4))
    winners = game.unwrapped.state.winners()
    assert list(totals.values()) == [1 / len(winners) if p in winners else 0.0 for p in range(3)]


def test_equal_seeds_give_equal_episodes() -> None:
    def text(seed: int) -> str:
        game = env(players=4, render_mode="ansi")
        play_out(game, seed, lambda mask: int(np.flatnonzero(mask)[0]))
        return str(game.render())

    assert text(7) == text(7)
    assert text(7) != text(8)


def test_the_round_cap_truncates_and_the_rules_terminate() -> None:
    capped = env(players=2, max_rounds=1)
    capped.reset(seed=1)
    for _agent in capped.agent_iter():
        observation, _, terminated, truncated, _ = capped.last()
        if terminated or truncated:
            assert truncated and not terminated  # everyone still has points after one round
            capped.step(None)
        else:
            capped.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert len(capped.unwrapped.state.round_records) == 1
    # The rules' end (a player at 0 or below): terminated.
    low = env(players=2, start_points=1)
    low.reset(seed=1)
    for _agent in low.agent_iter():
        observation, _, terminated, truncated, _ = low.last()
        if terminated or truncated:
            assert terminated and not truncated
            low.step(None)
        else:
            low.step(int(np.flatnonzero(observation["action_mask"])[0]))


def test_ansi_render_is_the_play_report_and_human_prints_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    game = env(players=2, render_mode="ansi")
    play_out(game, 3, random_pick(3))
    text = game.render()
    state = game.unwrapped.state
    assert text == play_text(state, ["player_0", "player_1"], 3)
    assert text.startswith("Pack & Stack: 2 players, 75 points each, seed 3\nplayers: P0 player_0")
    assert "game over after" in text.splitlines()[-1]
    shown = env(players=2, render_mode="human")
    shown.reset(seed=3)
    capsys.readouterr()
    assert shown.render() is None
    out, _ = capsys.readouterr()
    assert out.startswith("Pack & Stack: 2 players") and "under way: Pack & Stack" in out


def test_the_deck_is_a_parameter() -> None:
    deck = packing.SAMPLE_DECK[:6]
    game = env(players=2, deck=deck)
    assert game.action_space("player_0") == gymnasium.spaces.Discrete(len(deck) + 1)
    game.reset(seed=2)
    observation, *_ = game.last()
    assert game.observation_space("player_0").contains(observation)
    assert set(np.flatnonzero(observation["action_mask"])) <= set(range(len(deck) + 1))


def test_bad_options_are_one_line_errors() -> None:
    with pytest.raises(PackingError, match="players"):
        env(players=7)
    with pytest.raises(ValueError, match="unknown reward"):
        env(reward="points")
    with pytest.raises(PackingError, match="opponents is a list of bot names"):
        gym_env("optimal")
    with pytest.raises(PackingError, match="unknown bot"):
        gym_env(["optimal", "fastest"])
    with pytest.raises(PackingError, match="a bot name or a policy"):
        gym_env([3])  # type: ignore[list-item]


# --- one seat against the bots (Gymnasium) -----------------------------------------------------


@pytest.mark.parametrize(
    ("opponents", "seat"),
    [(["optimal", "capacity", "random"], 0), (["optimal"], 1), (["random"] * 5, 3)],
)
def test_gymnasium_checker_passes(opponents: list[str], seat: int) -> None:
    # Through Gymnasium's registry, so the checker also tries every render mode.
    made = gymnasium.make(GYM_ID, opponents=opponents, seat=seat, render_mode="ansi")
    env_checker.check_env(made.unwrapped)


def test_one_seat_against_the_bots() -> None:
    single = packing.gym_env(["optimal", "capacity"], seat=2)
    observation, info = single.reset(seed=5)
    state = single.state
    assert state.current_player() == 2 and observation.shape == single.observation_space.shape
    total, done, steps = 0.0, False, 0
    while not done:
        mask = single.action_masks()
        assert mask.dtype == bool and mask.any() and np.array_equal(mask, info["action_mask"] == 1)
        observation, reward, terminated, truncated, info = single.step(
            int(np.flatnonzero(mask)[-1])
        )
        total += reward
        done = terminated or truncated
        steps += 1
    assert isinstance(state, Game)
    assert state.is_terminal() and total == state.points[2] - 75
    assert steps == len(state.round_records)  # one grab a round
    # The opponents are the named bots, seated with their loaders.
    assert [type(p).__name__ for p in single._policies] == ["OptimalBot", "CapacityBot", "_Learner"]


def test_one_seat_replays_a_seed_and_penalises_an_illegal_grab() -> None:
    def run(seed: int) -> list[float]:
        single = gym_env(["optimal", "random"], seat=1)
        single.reset(seed=seed)
        rewards, done = [], False
        while not done:
            _, reward, terminated, truncated, _ = single.step(
                int(np.flatnonzero(single.action_masks())[0])
            )
            rewards.append(reward)
            done = terminated or truncated
        return rewards

    assert run(2) == run(2)
    single = gym_env(["optimal"])
    single.reset(seed=1)
    illegal = int(np.flatnonzero(~single.action_masks())[0])
    _, reward, terminated, _, info = single.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, illegal)


def test_bot_policies_can_be_given_as_values() -> None:
    single = gym_env([bot("capacity")], seat=0)
    observation, _ = single.reset(seed=0)
    assert single.observation_space.contains(observation)


def test_gymnasium_make_builds_the_single_seat_environment() -> None:
    made = gymnasium.make(GYM_ID, opponents=["optimal", "random"], seat=1, render_mode="ansi")
    assert made.spec is not None and made.spec.id == "tabletop/PackAndStack-v0"
    observation, _ = made.reset(seed=0)
    assert made.observation_space.contains(observation)
    assert made.unwrapped.spec is not None  # what the checker reads to try each render mode
