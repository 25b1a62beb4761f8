"""The generic OpenSpiel adapter on arena's toy dice race (the games' own tests are in their packages)."""

from __future__ import annotations

import importlib
import pickle
import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is part of the test extra")

from arena import (  # noqa: E402
    ArenaError,
    play,  # noqa: E402
    tournament,
)
from arena.openspiel import SearchPolicy, arena_state, wrap  # noqa: E402
from tests.arena.toy import AlwaysBank, AlwaysKeep, DiceRace  # noqa: E402
from tests.arena.toy_openspiel import CODEC  # noqa: E402


def test_random_simulation_passes_openspiel_checks_with_serialization() -> None:
    for spec in ("python_arena_dice_race", "python_arena_dice_race(players=3,rounds=2)"):
        pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=20, serialize=True, verbose=False)


def test_game_info_comes_from_the_codec() -> None:
    game = pyspiel.load_game("python_arena_dice_race(players=3,rounds=4)")
    assert (game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()) == (
        3,
        2,
        6,
    )
    assert (game.min_utility(), game.max_utility(), game.max_game_length()) == (4.0, 24.0, 12)
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


def test_unknown_parameter_is_refused() -> None:
    with pytest.raises(Exception, match="colour"):
        pyspiel.load_game("python_arena_dice_race(colour=2)")


def test_steps_through_pyspiel_agree_with_arena_action_for_action() -> None:
    game = pyspiel.load_game("python_arena_dice_race")
    direct = play(DiceRace(), [AlwaysKeep(), AlwaysBank()], seed=7)
    # Replay the same actions through pyspiel, by their ids.
    replay = DiceRace()
    state = game.new_initial_state()
    for event in direct.events:  # "roll 4", "player 0 keeps"
        if event.startswith("roll"):
            number = CODEC.encode(replay, int(event.split()[1]))
        else:
            number = CODEC.encode(replay, "keep" if event.endswith("keeps") else "bank")
        assert number in state.legal_actions()
        assert CODEC.decode(replay, number) == CODEC.decode(arena_state(state), number)
        replay.apply_action(CODEC.decode(replay, number))
        state.apply_action(number)
        assert arena_state(state) == replay
    assert state.is_terminal() and state.returns() == [float(r) for r in direct.returns()]


def test_ids_round_trip_at_every_state_of_random_games() -> None:
    rng = np.random.default_rng(3)
    game = pyspiel.load_game("python_arena_dice_race")
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            inner = arena_state(state)
            ids = state.legal_actions()
            assert ids == sorted(ids) and len(set(ids)) == len(ids)
            assert [CODEC.encode(inner, CODEC.decode(inner, i)) for i in ids] == ids
            assert sorted(map(str, (CODEC.decode(inner, i) for i in ids))) == sorted(
                map(str, inner.legal_actions())
            )
            if state.is_chance_node():
                assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0, abs=1e-12)
            state.apply_action(int(rng.choice(ids)))


def test_an_id_applies_alike_listed_first_or_not_and_an_illegal_one_is_refused() -> None:
    # A state keeps the actions it listed until its next action (OpenSpiel lists, then
    # applies); a clone has listed nothing and decodes the id.
    rng = np.random.default_rng(5)
    game = pyspiel.load_game("python_arena_dice_race(players=3)")
    for _ in range(5):
        state = game.new_initial_state()
        step = 0
        while not state.is_terminal():
            if step % 2 == 0:  # the state lists at every other node: a listing lasts one node
                state.legal_actions()
            step += 1
            listed, unlisted = state.clone(), state.clone()
            ids = listed.legal_actions()
            for copy in (listed.clone(), unlisted.clone()):
                with pytest.raises(Exception):  # noqa: B017  (the toy codec's own error)
                    copy.apply_action(7)  # no id of the race is 7: faces 0..5, actions 0..1
            listed.legal_actions()  # listed again: the clones above did not share it
            number = int(rng.choice(ids))
            listed.apply_action(number)
            unlisted.apply_action(number)
            state.apply_action(number)
            assert arena_state(listed) == arena_state(unlisted) == arena_state(state)
            assert listed.history() == unlisted.history() == state.history()


def test_observations_and_wrapping() -> None:
    game = pyspiel.load_game("python_arena_dice_race")
    inner = DiceRace(totals=[4, 2], turn=2, rolled=5)
    state = wrap(game, inner)
    assert state.observation_string(1) == str(inner.observation(1))
    assert state.observation_tensor(0) == [4.0, 2.0, 5.0]
    assert state.history() == [] and state.current_player() == 0
    assert pickle.loads(pickle.dumps(state)).history() == []
    with pytest.raises(TypeError, match="not a state"):
        arena_state(object())


def test_mcts_policy_plays_in_arena_and_prefers_keeping_high_rolls() -> None:
    mcts = SearchPolicy(CODEC, "mcts", simulations=200)
    assert pickle.loads(pickle.dumps(mcts)) == mcts
    # On a 6 keeping is worth 3 more than banking: the search must find that.
    rng = np.random.default_rng(0)
    assert mcts.act(DiceRace(turn=0, rolled=6).observation(0), ["keep", "bank"], rng) == "keep"
    assert mcts.act(DiceRace(turn=0, rolled=1).observation(0), ["keep", "bank"], rng) == "bank"
    result = tournament(DiceRace, [mcts, AlwaysBank()], games=3, seed=1, workers=1, progress=False)
    assert [stats.games for stats in result.stats] == [6, 6]  # 3 deals, 2 seatings each


def test_search_policy_refuses_bad_options() -> None:
    with pytest.raises(ArenaError, match="'alphabeta'"):
        SearchPolicy(CODEC, "alphabeta")
    with pytest.raises(ArenaError, match="perfect information"):
        SearchPolicy(CODEC, "ismcts")
    with pytest.raises(ArenaError, match="simulations: 0"):
        SearchPolicy(CODEC, simulations=0)


def test_without_the_extra_the_import_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from arena import MissingExtraError

    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.delitem(sys.modules, "arena.openspiel")
    with pytest.raises(MissingExtraError, match=r"openspiel extra \(pip install") as caught:
        importlib.import_module("arena.openspiel")
    assert (caught.value.module, caught.value.extra) == ("pyspiel", "openspiel")
