"""Pack & Stack in OpenSpiel (``packing.openspiel``): the registered game, its ids, limits,
observations, the round cap, and OpenSpiel's MCTS as a ``packing`` bot."""

from __future__ import annotations

import itertools
import math
import pickle
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is part of the test extra")

import arena  # noqa: E402
from arena.openspiel import SearchPolicy, arena_state, wrap  # noqa: E402
from packing import SAMPLE_DECK, Cargo, Game, PackingError, bot, format_deck, play_game  # noqa: E402
from packing.cli import main  # noqa: E402
from packing.codec import DICE_STAGES  # noqa: E402
from packing.game import (  # noqa: E402
    PILE,
    Draw,
    Grab,
    GrabOrder,
    Observation,
    RoundRecord,
    game_from_observation,
    roll_outcomes,
)  # noqa: E402
from packing.openspiel import CODEC, deck_from_parameter, deck_parameter  # noqa: E402
from packing.rules import DEFAULT_MAX_ROUNDS, ROUND_WIN_BONUS, START_POINTS  # noqa: E402
from packing.table import find_table  # noqa: E402

SMALL_DECK = SAMPLE_DECK[:12]  # no table: penalties are solved, limits are bounds


class Recording:
    """A game that records every action applied to it (and is the game in every other way)."""

    def __init__(self, state: Game) -> None:
        self.state = state
        self.actions: list[Any] = []

    def apply_action(self, action: Any) -> None:
        self.actions.append(action)
        self.state.apply_action(action)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.state, name)


def _game(state: Any) -> Game:
    """The ``packing.Game`` inside a pyspiel state."""
    inner = arena_state(state)
    assert isinstance(inner, Game)
    return inner


def random_walk(spec: str, seed: int) -> Iterator[Any]:
    """Every state of one game of ``spec`` through pyspiel, random ids chosen by ``seed``."""
    rng = np.random.default_rng(seed)
    state = pyspiel.load_game(spec).new_initial_state()
    while not state.is_terminal():
        yield state
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(ids, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    yield state


# --- OpenSpiel's own checks -------------------------------------------------------------------


def test_random_simulation_passes_openspiel_checks_with_serialization() -> None:
    for spec in (
        "python_pack_and_stack(max_rounds=2)",
        "python_pack_and_stack(players=5,max_rounds=2)",
    ):
        pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=2, serialize=True, verbose=False)
    # A deck of one's own: deck-file text, on one line (line breaks as "|") so that it
    # survives OpenSpiel's line-based serialization.
    text = deck_parameter(SMALL_DECK)
    assert "\n" not in text and deck_from_parameter(text) == SMALL_DECK == deck_from_parameter(
        format_deck(SMALL_DECK)
    )
    game = pyspiel.load_game(f"python_pack_and_stack(players=2,max_rounds=2,deck={text})")
    assert _game(game.new_initial_state()).setup.deck == SMALL_DECK
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_a_state_within_a_roll_clones_and_serializes_with_its_dice() -> None:
    game = pyspiel.load_game("python_pack_and_stack(players=3,max_rounds=2)")
    state = game.new_initial_state()
    first, second = DICE_STAGES.ids_of(Cargo((2, 0, 1, 1, 2)))
    state.apply_action(first)  # dice 1 and 2 of P0's roll
    inner = arena_state(state)
    assert state.chance_so_far == (first,) and state.is_chance_node()
    assert inner.observation(0).cargos == (None, None, None)  # the game still awaits the roll
    known = "\nchance so far: die 1 shows 2, die 2 shows 0"
    assert str(state).endswith(known)
    assert state.observation_string(1) == CODEC.observation_string(inner.observation(1)) + known
    # The tensor: P0's cargo (after player 3, round 1, first roller 3, start points 1, points
    # 3) shows 2 of 5 dice known, and their rods.
    assert state.observation_tensor(1)[11:17] == pytest.approx([0.4, 2, 0, 0, 0, 0])
    copies = [
        state.clone(),
        game.deserialize_state(state.serialize()),
        pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
    ]
    for copy in copies:
        assert copy.chance_so_far == (first,) and copy.history() == state.history()
        assert str(copy) == str(state) and copy.chance_outcomes() == state.chance_outcomes()
        assert [copy.observation_string(p) for p in range(3)] == [
            state.observation_string(p) for p in range(3)
        ]
        assert copy.observation_tensor(0) == state.observation_tensor(0)
        assert len(copy.chance_outcomes()) == 36  # dice 3, 4 and 5
        copy.apply_action(second)
        assert copy.chance_so_far == () and arena_state(copy).observation(0).cargos == (
            Cargo((2, 0, 1, 1, 2)),
            None,
            None,
        )
        assert copy.observation_tensor(1)[11:17] == [1, 2, 0, 1, 1, 2]
    # The copies were the state's own: it still waits for dice 3 to 5.
    assert state.chance_so_far == (first,) and arena_state(state).observation(0).cargos[0] is None


def test_game_type_and_parameters() -> None:
    game = pyspiel.load_game("python_pack_and_stack")
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (2, 6)
    assert game.get_parameters() == {
        "players": 4,
        "start_points": START_POINTS,
        "deck": "",
        "max_rounds": DEFAULT_MAX_ROUNDS,
    }
    inner = _game(game.new_initial_state())
    assert inner.setup.deck == SAMPLE_DECK and inner.setup.max_rounds == DEFAULT_MAX_ROUNDS
    for spec, words in (
        ("python_pack_and_stack(players=7)", "2 to 6 players"),
        ("python_pack_and_stack(max_rounds=0)", "invalid max_rounds 0: at least 1"),
        ("python_pack_and_stack(start_points=0)", "start_points"),
        ("python_pack_and_stack(deck=nonsense)", "the deck parameter"),
    ):
        with pytest.raises(Exception, match=words):
            pyspiel.load_game(spec)


# --- limits -----------------------------------------------------------------------------------


def test_game_info_is_derived_from_the_rules() -> None:
    table = find_table(SAMPLE_DECK)
    assert table is not None
    rolled = {cargo for cargo, _ in roll_outcomes()}
    rows = [i for i, cargo in enumerate(table.cargos) if cargo in rolled]
    worst, best = int(table.penalties[rows].max()), int(table.penalties[rows].min())
    for players, rounds in ((2, 3), (4, DEFAULT_MAX_ROUNDS), (6, 7)):
        game = pyspiel.load_game(f"python_pack_and_stack(players={players},max_rounds={rounds})")
        draws = 2 if players < 5 else 1
        assert game.num_distinct_actions() == len(SAMPLE_DECK) + 1
        # A roll's larger stage (dice 3 to 5: 4 × 3 × 3 faces), a draw from the deck, the
        # grab orders.
        assert game.max_chance_outcomes() == max(36, len(SAMPLE_DECK), math.factorial(players))
        assert game.min_utility() == 1 - worst  # a player enters a round with ≥ 1 point
        assert game.max_utility() == START_POINTS + rounds * (ROUND_WIN_BONUS - best)
        assert game.max_game_length() == players * rounds
        assert game.max_chance_nodes_in_history() == rounds * (
            2 * players + players * draws + 1 + players
        )
    assert (worst, best) == (62, 0)  # the sample deck's: the numbers below rest on them
    # Without a table the limits are the rules' bounds: nothing loaded, as much as fits.
    game = pyspiel.load_game(
        "python_pack_and_stack", {"players": 2, "deck": deck_parameter(SMALL_DECK)}
    )
    volumes = {cargo.volume for cargo in rolled}
    assert game.min_utility() == 1 - (max(t.capacity for t in SMALL_DECK) + 2 * max(volumes))
    assert game.num_distinct_actions() == 13


def test_limits_hold_in_random_games() -> None:
    spec = "python_pack_and_stack(players=3,max_rounds=6)"
    game = pyspiel.load_game(spec)
    for seed in range(4):
        decisions = chance = 0
        for state in random_walk(spec, seed):
            if state.is_terminal():
                assert all(game.min_utility() <= r <= game.max_utility() for r in state.returns())
            elif state.is_chance_node():
                chance += 1
                assert len(state.chance_outcomes()) <= game.max_chance_outcomes()
            else:
                decisions += 1
                assert all(0 <= i < game.num_distinct_actions() for i in state.legal_actions())
        assert decisions <= game.max_game_length() and chance <= game.max_chance_nodes_in_history()


def test_the_utility_limits_are_attained() -> None:
    table = find_table(SAMPLE_DECK)
    assert table is not None
    deck = SAMPLE_DECK
    # The lowest: a player enters a round with 1 point and takes the worst truck for its cargo.
    row, column = np.unravel_index(int(np.argmax(table.penalties)), table.penalties.shape)
    worst_cargo, j = table.cargos[int(row)], int(column)
    assert worst_cargo in {cargo for cargo, _ in roll_outcomes()}
    kept = [k for k in range(len(deck)) if k != j]
    seen = Observation(
        player=0,
        round=3,
        first_roller=0,
        start_points=START_POINTS,
        points=(1, 40),
        cargos=(worst_cargo, Cargo((5, 0, 0, 0, 0))),
        revealed_at=((kept[0], kept[1]), (j, kept[2])),
        taken_at=(None, None),
        grab_order=(0, 1),
        grabbed=0,
        pile_at=tuple(kept[3:]),
        discards_at=(),
        deck=deck,
    )
    game = pyspiel.load_game("python_pack_and_stack(players=2)")
    state = wrap(game, game_from_observation(seen, max_rounds=DEFAULT_MAX_ROUNDS))
    state.apply_action(j)  # P0 takes the worst truck; P1 must take the pile
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.returns()[0] == game.min_utility()
    # The highest, one round: a cargo on a truck it fills exactly, taken from the other player.
    game = pyspiel.load_game("python_pack_and_stack(players=2,max_rounds=1)")
    i, j = map(int, np.argwhere(table.penalties == 0)[0])
    state = game.new_initial_state()
    inner = arena_state(state)
    for cargo in (table.cargos[i], table.cargos[i]):
        for i in DICE_STAGES.ids_of(cargo):  # dealt in two stages of dice
            state.apply_action(i)
    for _ in range(2):  # P0 draws two trucks other than j, then P1 draws j and another
        state.apply_action(0 if inner.observation(0).pile_at[0] != j else 1)
    state.apply_action(CODEC.encode(inner, Draw(inner.observation(1).pile_at.index(j))))
    state.apply_action(0)
    assert j in inner.observation(0).revealed_at[1]
    state.apply_action(CODEC.encode(inner, GrabOrder((0, 1))))
    state.apply_action(j)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.returns()[0] == game.max_utility() == START_POINTS + ROUND_WIN_BONUS


# --- ids --------------------------------------------------------------------------------------


def test_ids_round_trip_at_every_state_of_random_games() -> None:
    for spec, seed in (
        ("python_pack_and_stack(players=2,max_rounds=8)", 1),
        ("python_pack_and_stack(players=4,max_rounds=4)", 2),
        ("python_pack_and_stack(players=6,max_rounds=3)", 3),
    ):
        for state in random_walk(spec, seed):
            if state.is_terminal():
                continue
            inner = arena_state(state)
            ids = state.legal_actions()
            assert ids == sorted(ids) and len(set(ids)) == len(ids)
            if state.is_chance_node() and isinstance(inner.chance_outcomes()[0][0], Cargo):
                # A roll, a group of dice a node: stage k = the stages known so far.
                k = len(state.chance_so_far)
                assert ids == list(range(len(DICE_STAGES.outcomes[k])))
                assert state.chance_outcomes() == [
                    (i, float(p)) for i, p in DICE_STAGES.outcomes[k]
                ]
                assert [state.action_to_string(i) for i in ids] == [
                    DICE_STAGES.describe(k, i) for i in ids
                ]
                with pytest.raises(Exception, match="no outcome of chance stage"):
                    state.clone().apply_action(99)
                continue
            assert state.chance_so_far == ()
            assert [CODEC.encode(inner, CODEC.decode(inner, i)) for i in ids] == ids
            actions = inner.legal_actions()
            assert sorted(CODEC.encode(inner, a) for a in actions) == ids
            assert all(CODEC.decode(inner, CODEC.encode(inner, a)) == a for a in actions)
            if state.is_chance_node():
                probabilities = dict(state.chance_outcomes())
                assert math.isclose(sum(probabilities.values()), 1.0, abs_tol=1e-12)
                assert ids == list(range(len(ids)))  # rolls, positions and orders are indices
                kind = type(actions[0])
                expected = {
                    Draw: len(inner.observation(0).draw_pool_at),
                    GrabOrder: math.factorial(inner.num_players),
                }[kind]
                assert len(ids) == expected
                for action, p in inner.chance_outcomes():
                    assert probabilities[CODEC.encode(inner, action)] == float(p)
            else:
                assert set(ids) <= set(range(len(SAMPLE_DECK) + 1))
            with pytest.raises(ValueError):
                CODEC.decode(inner, 10**6)


def test_id_rules_as_documented() -> None:
    state = Game(3)
    rolls = roll_outcomes()
    assert [CODEC.encode(state, c) for c, _ in rolls] == list(range(900))
    assert CODEC.encode(state, Cargo(rolls[17][0].counts)) == 17  # an equal cargo, another object
    orders = list(itertools.permutations(range(3)))
    assert [CODEC.encode(state, GrabOrder(o)) for o in orders] == list(range(6))
    assert CODEC.encode(state, Draw(11)) == 11
    assert CODEC.encode(state, PILE) == len(SAMPLE_DECK)
    assert CODEC.encode(state, Grab(SAMPLE_DECK[4], 2)) == 4
    with pytest.raises(ValueError):
        CODEC.encode(state, Cargo((9, 0, 0, 0, 0)))
    with pytest.raises(ValueError):
        CODEC.encode(state, "the pile")
    with pytest.raises(ValueError):
        CODEC.encode(state, GrabOrder((0, 1)))


# --- arena and pyspiel agree ------------------------------------------------------------------


@pytest.mark.parametrize("players, seed", [(2, 5), (4, 11), (5, 3)])
def test_steps_through_pyspiel_agree_with_arena_action_for_action(players: int, seed: int) -> None:
    game = pyspiel.load_game(f"python_pack_and_stack(players={players})")
    policies = [bot("optimal"), bot("random"), bot("capacity"), bot("bonus-aware"), bot("random")][
        :players
    ]
    direct = Recording(Game(players, max_rounds=DEFAULT_MAX_ROUNDS))
    arena.play(direct, policies, seed)
    replay = Game(players, max_rounds=DEFAULT_MAX_ROUNDS)
    state = game.new_initial_state()
    for action in direct.actions:
        if isinstance(action, Cargo):  # a roll: its stages, the arena state moves at the last
            for i in DICE_STAGES.ids_of(action):
                assert arena_state(state) == replay and state.is_chance_node()
                assert i in [i for i, _ in state.chance_outcomes()]
                state.apply_action(i)
            replay.apply_action(action)
            assert arena_state(state) == replay and state.chance_so_far == ()
            continue
        number = CODEC.encode(replay, action)
        ids = (
            [i for i, _ in state.chance_outcomes()]
            if state.is_chance_node()
            else state.legal_actions()
        )
        assert number in ids
        assert CODEC.decode(arena_state(state), number) == action
        replay.apply_action(action)
        state.apply_action(number)
        assert arena_state(state) == replay
    assert state.is_terminal() and arena_state(state) == direct.state
    assert state.returns() == list(direct.state.returns())
    assert state.history() == [
        number
        for s, a in _states_and_actions(players, direct.actions)
        for number in (DICE_STAGES.ids_of(a) if isinstance(a, Cargo) else (CODEC.encode(s, a),))
    ]


def _states_and_actions(players: int, actions: list[Any]) -> Iterator[tuple[Game, Any]]:
    state = Game(players, max_rounds=DEFAULT_MAX_ROUNDS)
    for action in actions:
        yield state.clone(), action
        state.apply_action(action)


# --- observations -----------------------------------------------------------------------------


def _observed_states(seed: int) -> list[Any]:
    return [
        state.clone()
        for state in random_walk("python_pack_and_stack(players=3,max_rounds=4)", seed)
    ]


def test_observation_string_and_tensor_carry_exactly_the_observation() -> None:
    game = pyspiel.load_game("python_pack_and_stack(players=3,max_rounds=4)")
    by_observation: dict[tuple[Observation, tuple[int, ...]], tuple[str, tuple[float, ...]]] = {}
    for seed in (1, 2):
        for state in _observed_states(seed):
            inner = arena_state(state)
            known = state.chance_so_far  # the stages of a roll dealt so far
            for p in range(3):
                seen = inner.observation(p)
                text, tensor = state.observation_string(p), tuple(state.observation_tensor(p))
                assert len(tensor) == game.observation_tensor_size()
                if (seen, known) in by_observation:  # a function of the observation ...
                    assert by_observation[seen, known] == (text, tensor)
                by_observation[seen, known] = (text, tensor)
                # ... however the state came about: a state rebuilt from the observation alone
                # (no history, no records), the same dice dealt, looks the same.
                rebuilt = wrap(game, game_from_observation(seen, max_rounds=4))
                for i in known:
                    rebuilt.apply_action(i)
                assert (rebuilt.observation_string(p), tuple(rebuilt.observation_tensor(p))) == (
                    text,
                    tensor,
                )
    # ... and nothing is lost: different observations, different strings and tensors.
    assert len(by_observation) > 200
    assert len({text for text, _ in by_observation.values()}) == len(by_observation)
    assert len({tensor for _, tensor in by_observation.values()}) == len(by_observation)


def test_the_tensor_layout() -> None:
    seen = Observation(
        player=1,
        round=2,
        first_roller=1,
        start_points=75,
        points=(60, 52),
        cargos=(Cargo((3, 2, 3, 0, 1)), None),
        revealed_at=((4, 7), (9,)),
        taken_at=(None, 2),
        grab_order=(1, 0),
        grabbed=1,
        pile_at=tuple(range(10, 30)),
        discards_at=(0, 1, 3, 5, 6, 8),
        deck=SAMPLE_DECK,
    )
    tensor = np.zeros(CODEC.tensor_size({"players": 2, "deck": ""}), np.float32)
    CODEC.fill_tensor(seen, tensor)
    # player, round, first roller, start points, points, cargos (rolled, rods of 1..5), the
    # grab order (known, then position × player), grabbed
    head = [0, 1, 2, 0, 1, 75, 60, 52, 1, 3, 2, 3, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0, 1]
    assert tensor[: len(head)].tolist() == head
    trucks = tensor[len(head) :].reshape(
        30, 6
    )  # in front of P0, P1; taken by P0, P1; pile; discards
    assert trucks.sum(axis=1).tolist() == [1.0] * 30  # every truck is in one place
    assert trucks[4].tolist() == [1, 0, 0, 0, 0, 0] and trucks[9].tolist() == [0, 1, 0, 0, 0, 0]
    assert trucks[2].tolist() == [0, 0, 0, 1, 0, 0] and trucks[12].tolist() == [0, 0, 0, 0, 1, 0]
    assert trucks[8].tolist() == [0, 0, 0, 0, 0, 1]
    text = CODEC.observation_string(seen)
    assert "P1 observes round 2" in text and "P0 3,2,3,0,1" in text and "P1 S03" in text


def test_states_from_observations_observe_the_same_for_every_player() -> None:
    for seed in (3, 4):
        for state in _observed_states(seed):
            inner = arena_state(state)
            if state.is_terminal():
                continue
            seen = inner.observation(0)
            rebuilt = CODEC.state_from_observation(seen, np.random.default_rng(0))
            assert all(rebuilt.observation(p) == inner.observation(p) for p in range(3))
            assert rebuilt.round_records == () and rebuilt.events == ()
            if not state.is_chance_node():
                assert list(rebuilt.legal_actions()) == list(inner.legal_actions())
                assert rebuilt.current_player() == inner.current_player()
            params = CODEC.params_from_observation(seen)
            assert params == {
                "players": 3,
                "start_points": START_POINTS,
                "deck": "",
                "max_rounds": seen.round,
            }
            assert rebuilt.setup.max_rounds == seen.round  # the search's horizon: this round
            # What the search values: played out, the rebuilt game ends with this round, and
            # its returns are the points after this round's scoring (the standings then).
            rng = np.random.default_rng(seed)
            while not rebuilt.is_terminal():
                assert rebuilt.returns() == [0.0] * 3 and rebuilt.winners() == frozenset()
                if rebuilt.is_chance_node():
                    outcomes = rebuilt.chance_outcomes()
                    rebuilt.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
                else:
                    legal = rebuilt.legal_actions()
                    rebuilt.apply_action(legal[int(rng.integers(len(legal)))])
            records: list[RoundRecord] = list(rebuilt.round_records)
            assert len(records) == 1 and records[0].number == seen.round
            record = records[0]
            assert rebuilt.returns() == [float(x) for x in record.points]
            assert rebuilt.returns() == [float(x) for x in rebuilt.points] != [0.0] * 3
    assert deck_parameter(SAMPLE_DECK) == ""
    odd = (SMALL_DECK[0].__class__.parse("##", height=1, name="a,b"),)
    with pytest.raises(PackingError, match="'a,b' cannot be a game parameter"):
        deck_parameter(odd)


# --- bots -------------------------------------------------------------------------------------


def test_evaluate_bots_and_pyspiel_mcts_finish() -> None:
    from open_spiel.python.algorithms import evaluate_bots, mcts

    game = pyspiel.load_game("python_pack_and_stack(players=3,max_rounds=2)")
    rng = np.random.RandomState(4)
    search = mcts.MCTSBot(game, 2.0, 10, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    bots = [search, pyspiel.make_uniform_random_bot(1, 5), pyspiel.make_uniform_random_bot(2, 6)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == 3 and all(game.min_utility() <= r <= game.max_utility() for r in returns)


def test_mcts_bot_plays_in_arena_and_tournaments() -> None:
    search = bot("mcts", simulations=20)
    assert isinstance(search, SearchPolicy) and search.codec == CODEC and search.name == "mcts"
    assert pickle.loads(pickle.dumps(search)) == search
    state = play_game([search, bot("optimal"), bot("random")], seed=2)
    assert state.is_terminal() and state.setup.max_rounds is None
    again = play_game([search, bot("optimal"), bot("random")], seed=2)
    assert again.round_records == state.round_records  # seeded: the same game
    from packing import tournament

    result = tournament(
        ["mcts", "random"], games=1, seed=3, bot_options={"mcts": {"simulations": 10}}, records=True
    )
    assert result.policies == ("mcts", "random") and len(result.records) == 2


def test_mcts_search_prefers_the_obvious_grab() -> None:
    # P0 must choose between a truck its cargo fills exactly and one it overflows badly.
    table = find_table(SAMPLE_DECK)
    assert table is not None
    i, good = map(int, np.argwhere(table.penalties == 0)[0])
    bad = int(np.argmax(table.penalties[i]))
    rest = [k for k in range(30) if k not in (good, bad)]
    seen = Observation(
        player=0,
        round=1,
        first_roller=0,
        start_points=75,
        points=(75, 75),
        cargos=(table.cargos[i], table.cargos[i]),
        revealed_at=((rest[0], rest[1]), (good, bad)),
        taken_at=(None, None),
        grab_order=(0, 1),
        grabbed=0,
        pile_at=tuple(rest[2:]),
        discards_at=(),
        deck=SAMPLE_DECK,
    )
    legal = game_from_observation(seen).legal_actions()
    choice = bot("mcts", simulations=60).act(seen, legal, np.random.default_rng(1))
    assert choice == Grab(SAMPLE_DECK[good], 1)


def test_search_bot_errors_are_one_line_packing_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(PackingError, match="perfect information.*use mcts"):
        bot("ismcts")
    with pytest.raises(PackingError, match="invalid simulations: 0"):
        bot("mcts", simulations=0)
    # Without the extra: the adapter's import fails, and the bot says which extra to install.
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.delitem(sys.modules, "arena.openspiel")
    monkeypatch.delitem(sys.modules, "packing.openspiel")
    with pytest.raises(PackingError, match=r"bot 'mcts' needs OpenSpiel: .*openspiel extra"):
        bot("mcts")


def test_cli_plays_mcts_and_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "mcts,optimal", "--seed", "1", "--simulations", "5"]) == 0
    out, _ = capsys.readouterr()
    assert "P0 mcts" in out and "game over" in out
    for argv, words in (
        (["play", "--players", "ismcts,optimal"], "perfect information"),
        (
            ["play", "--players", "mcts,optimal", "--simulations", "0"],
            "--simulations: invalid value '0'",
        ),
        (
            ["tournament", "--players", "mcts,optimal", "--games", "1", "--simulations", "-3"],
            "--simulations",
        ),
    ):
        assert main(argv) == 2
        _, err = capsys.readouterr()
        assert words in err and len(err.strip().splitlines()) == 1
