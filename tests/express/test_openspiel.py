"""Yardmaster Express in OpenSpiel (``express.openspiel``): the registered game, its ids, limits,
observations that never leak, hidden worlds through ``resample_from_infostate``, and OpenSpiel's
search bots as ``express`` bots. The world search itself is tested without OpenSpiel in
``test_worlds.py``."""

from __future__ import annotations

import pickle
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is part of the test extra")

import arena  # noqa: E402
from arena.openspiel import SearchPolicy, arena_state, wrap  # noqa: E402
from express import ExpressError, Game, Play, bot  # noqa: E402
from express.cli import main  # noqa: E402
from express.openspiel import CODEC  # noqa: E402

SHORT = "python_yardmaster_express(players=3,rounds=3)"
SPECS = (
    "python_yardmaster_express(players=2,rounds=3)",
    SHORT,
    "python_yardmaster_express(players=3,caboose=random,rounds=2)",
    "python_yardmaster_express(players=4,caboose=Lightweight,rounds=2)",
)


def _game(state: Any) -> Game:
    inner = arena_state(state)
    assert isinstance(inner, Game)
    return inner


def random_walk(spec: str, seed: int) -> Iterator[Any]:
    """Every state of one game of ``spec`` through pyspiel, random ids chosen by ``seed`` (one
    state object, moved on after each yield: clone one to keep it)."""
    rng = np.random.default_rng(seed)
    state = pyspiel.load_game(spec).new_initial_state()
    while not state.is_terminal():
        yield state
        if state.is_chance_node():
            ids, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(ids, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    yield state


def test_random_simulation_passes_openspiel_checks_with_serialization() -> None:
    for spec in SPECS:
        pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=3, serialize=True, verbose=False)
    pyspiel.random_sim_test(
        pyspiel.load_game("python_yardmaster_express"), num_sims=2, serialize=True, verbose=False
    )


def test_game_type_is_imperfect_information_general_sum() -> None:
    kind = pyspiel.load_game(SHORT).get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert (kind.min_num_players, kind.max_num_players) == (2, 5)


def test_ids_are_a_bijection_at_every_state() -> None:
    for seed, spec in enumerate(SPECS * 3):
        for state in random_walk(spec, seed):
            if state.is_terminal():
                assert state.legal_actions() == []
                continue
            inner = _game(state)
            ids = state.legal_actions()
            assert ids == sorted(set(ids))
            values = [CODEC.decode(inner, i) for i in ids]
            assert [CODEC.encode(inner, v) for v in values] == ids
            legal = list(inner.legal_actions())
            assert len(values) == len(legal) and all(v in legal for v in values)
            if state.is_chance_node():
                probabilities = dict(state.chance_outcomes())
                exact = {CODEC.encode(inner, a): p for a, p in inner.chance_outcomes()}
                assert probabilities == {i: float(p) for i, p in exact.items()}
                assert sum(probabilities.values()) == pytest.approx(1.0, abs=1e-12)
            else:
                game = state.get_game()
                assert all(0 <= i < game.num_distinct_actions() for i in ids)


def test_bad_ids_are_refused() -> None:
    state = pyspiel.load_game(SHORT).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    inner = _game(state)
    illegal = sorted(
        set(range(state.get_game().num_distinct_actions())) - set(state.legal_actions())
    )
    for number in (illegal[0], -1, 10_000):
        with pytest.raises(ValueError):
            CODEC.decode(inner, number)


def test_pyspiel_and_arena_agree_action_for_action() -> None:
    for seed in range(4):
        direct = arena.play(
            Game(3, caboose="random"), [bot("greedy"), bot("random"), bot("greedy")], seed
        )
        # Replay the same game through pyspiel: every turn's draw and play, by id.
        state = pyspiel.load_game(
            "python_yardmaster_express(players=3,caboose=random)"
        ).new_initial_state()
        replay = Game(3, caboose="random")
        for action in _actions_of(direct):
            number = CODEC.encode(replay, action)
            assert number in state.legal_actions()
            replay.apply_action(action)
            state.apply_action(number)
            assert _game(state).observation(0) == replay.observation(0)
        assert state.is_terminal()
        assert state.returns() == direct.returns() == replay.returns()


def _actions_of(game: Game) -> list[Any]:
    """The actions of a finished game, in order, read back from its events and draws."""
    from express.game import CabooseDraw, CabooseShown, Dealt, Turn

    actions: list[Any] = []
    drawn = iter(game.drawn)
    for event in game.events:
        if isinstance(event, CabooseShown):
            actions.append(CabooseDraw(event.caboose))
        elif isinstance(event, Dealt):
            actions.extend(next(drawn) for _ in event.cards)
        elif isinstance(event, Turn):
            actions += [next(drawn), event.play]
    return actions


def test_utilities_stay_within_the_limits() -> None:
    for spec in SPECS:
        game = pyspiel.load_game(spec)
        for seed in range(15):
            *_, end = random_walk(spec, seed)
            assert all(game.min_utility() <= r <= game.max_utility() for r in end.returns())
            assert len([a for a in end.full_history() if a.player >= 0]) <= game.max_game_length()


def _hide_face_down(game: Game, player: int) -> tuple[Game, int] | None:
    """``game`` with another player's face-down card swapped for a different card of the deck
    that nobody holds or has played (None when there is no such pair): the same game for
    ``player``, who cannot see it, and the seat whose card it is."""
    from express.train import Train

    for seat, train in enumerate(game.trains):
        if seat == player:
            continue
        for place, play in enumerate(train.plays):
            if play.face_up:
                continue
            used = [p.card for t in game.trains for p in t.plays] + list(game.hand_cards())
            spare = [
                c for c in game.deck if c != play.card and c not in game.drawn and c not in used
            ]
            if not spare:
                continue
            copy = game.clone()
            plays = list(train.plays)
            plays[place] = Play(spare[0], face_up=False)
            copy.trains[seat] = Train(tuple(plays))
            return copy, seat
    return None


def test_observations_never_leak_hidden_cards() -> None:
    swapped = 0
    for seed in range(40):
        for state in random_walk(SHORT, seed):
            inner = _game(state)
            if state.is_chance_node() or state.is_terminal():
                continue
            player = state.current_player()
            watcher = (player + 1) % 3
            hidden = _hide_face_down(inner, watcher)
            if hidden is None:
                continue
            other, owner = hidden
            twin = wrap(state.get_game(), other)
            # The watcher cannot see the other seats' face-down cards: nothing of it changes ...
            assert owner != watcher and _game(twin).trains != inner.trains
            swapped += 1
            assert twin.observation_string(watcher) == state.observation_string(watcher)
            assert twin.observation_tensor(watcher) == state.observation_tensor(watcher)
            assert twin.information_state_string(watcher) == state.information_state_string(watcher)
            # ... and the one who played it can.
            assert twin.observation_string(owner) != state.observation_string(owner)
            assert twin.observation_tensor(owner) != state.observation_tensor(owner)
            break
    assert swapped >= 10


def test_resample_keeps_what_the_player_knows_and_varies_the_rest() -> None:
    varied = 0
    for seed in range(12):
        states = [
            s.clone()
            for s in random_walk(SHORT, seed)
            if not s.is_chance_node() and not s.is_terminal()
        ]
        state = states[-1]  # the last decision: the most hidden
        player = state.current_player()
        seen = {state.information_state_string(player)}
        worlds = set()
        for k in range(8):
            world = state.resample_from_infostate(
                player, pyspiel.UniformProbabilitySampler(k, 0.0, 1.0)
            )
            assert world.information_state_string(player) == state.information_state_string(player)
            assert world.observation_string(player) == state.observation_string(player)
            assert world.observation_tensor(player) == state.observation_tensor(player)
            assert world.legal_actions() == state.legal_actions()
            inner = _game(world)
            worlds.add(tuple(str(t) for t in inner.trains))
            seen.add(world.information_state_string(player))
        assert len(seen) == 1
        varied += len(worlds) > 1
    assert varied >= 3  # hidden face-down cards do get redrawn


def test_openspiel_bots_finish_games_through_pyspiel() -> None:
    from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

    game = pyspiel.load_game("python_yardmaster_express(players=2,rounds=3)")
    random_state = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(1, random_state)
    searcher = mcts.MCTSBot(game, 2.0, 30, evaluator, random_state=random_state)
    returns = evaluate_bots.evaluate_bots(
        game.new_initial_state(), [searcher, pyspiel.make_uniform_random_bot(1, 4)], random_state
    )
    assert len(returns) == 2 and all(game.min_utility() <= r <= game.max_utility() for r in returns)
    # OpenSpiel's Python ISMCTSBot has no restart_at, which evaluate_bots calls: the loop by hand.
    information_set = ismcts.ISMCTSBot(game, evaluator, 2.0, 30, random_state=random_state)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(random_state.choice(ids, p=probabilities)))
        elif state.current_player() == 0:
            state.apply_action(information_set.step(state))
            decisions += 1
        else:
            state.apply_action(int(random_state.choice(state.legal_actions())))
    assert decisions == 3 and all(
        game.min_utility() <= r <= game.max_utility() for r in state.returns()
    )


def test_search_bots_play_in_arena_and_travel() -> None:
    for name in ("mcts", "ismcts"):
        policy = bot(name, simulations=20)
        assert isinstance(policy, SearchPolicy) and policy.name == name
        assert pickle.loads(pickle.dumps(policy)) == policy
        state = arena.play(Game(2, rounds=3), [policy, bot("greedy")], seed=2)
        assert state.is_terminal()


def test_search_bot_options_are_checked() -> None:
    with pytest.raises(ExpressError, match="simulations"):
        bot("ismcts", simulations=0)


def test_without_the_extra_the_bot_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.delitem(sys.modules, "arena.openspiel")
    monkeypatch.delitem(sys.modules, "express.openspiel")
    with pytest.raises(ExpressError, match=r"bot 'ismcts' needs OpenSpiel: .*openspiel extra"):
        bot("ismcts")


def test_tournament_command_takes_openspiel_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["tournament", "--players", "ismcts,greedy", "--games", "1", "--simulations", "10"])
        == 0
    )
    assert "ismcts" in capsys.readouterr().out
    assert (
        main(["tournament", "--players", "ismcts,greedy", "--games", "1", "--simulations", "0"])
        == 2
    )
    assert "--simulations" in capsys.readouterr().err


def test_search_bots_replay_from_a_seed() -> None:
    for name in ("mcts", "ismcts"):
        seats = [bot(name, simulations=15), bot("greedy")]
        first = arena.play(Game(2, rounds=3), seats, seed=9)
        again = arena.play(Game(2, rounds=3), seats, seed=9)
        assert [str(e) for e in first.events] == [str(e) for e in again.events]
