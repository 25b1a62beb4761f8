"""The compiled loops play the NumPy engine's games: given the same shared chance, a batch run by
:mod:`packing.batch_loops` ends in exactly the state the NumPy engine's run leaves — every array of
the batch, for every player count, every bot, other options and batches stepped part of the way.
And both play the scalar game: :class:`packing.Game` fed the same chance outcomes (each answer
of the deal's :class:`arena.batch.SharedChance` turned into the scalar game's chance action here,
without the engines' code) ends with the same points, rounds and winners."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from arena.batch import SharedChance, seeded
from arena.protocol import show_seating
from packing import SAMPLE_DECK, Cargo, Game, bot
from packing.batch import Batch, Engine, VectorBot, rolls_of_faces
from packing.batch_loops import PILE
from packing.errors import PackingError
from packing.game import Draw, GrabOrder
from packing.odds import roll_outcomes
from packing.table import register, table_holding

# The tests marked COMPILED need numba (the compiled extra); the others run without it too.
COMPILED = pytest.mark.extra("compiled")

BOTS = ("random", "capacity", "optimal", "bonus-aware")

#: Every array of a batch's state: all of them must agree, not only the scores.
STATE = (
    "over",
    "round",
    "step",
    "points",
    "cargo",
    "place",
    "pile",
    "pile_size",
    "pile_top",
    "shuffles",
    "drawn",
    "order",
    "taken",
    "source",
)


def _policies(engine: Engine) -> list[VectorBot]:
    policies = [engine.vector_policy(bot(name)) for name in BOTS]
    assert all(isinstance(p, VectorBot) for p in policies)
    return policies  # type: ignore[return-value]


def _twins(engine: Engine, games: int, seed: int) -> tuple[Batch, Batch]:
    """Two batches of the same deals (some shared by several games) and the same chance."""
    deals = np.random.default_rng(seed).integers(0, games // 2, games)
    return tuple(  # type: ignore[return-value]
        engine.new_batch(games, rng=np.random.default_rng(seed), deals=deals) for _ in range(2)
    )


def _assert_same_games(numpy_run: Batch, compiled_run: Batch) -> None:
    for field in STATE:
        assert np.array_equal(getattr(numpy_run, field), getattr(compiled_run, field)), field
    assert np.array_equal(numpy_run.returns(), compiled_run.returns())
    assert np.array_equal(numpy_run.winners(), compiled_run.winners())


def _play_both(engine: Engine, games: int, seed: int, seating: Any) -> tuple[Batch, Batch]:
    by_numpy, by_loops = _twins(engine, games, seed)
    policies = _policies(engine)
    result = by_numpy.run(seating, policies, compiled=False)
    compiled = by_loops.run(seating, policies, compiled=True)
    assert np.array_equal(result.returns, compiled.returns)
    _assert_same_games(by_numpy, by_loops)
    return by_numpy, by_loops


@COMPILED
@pytest.mark.parametrize("players", range(2, 7))
def test_the_compiled_loops_play_the_numpy_engines_games(players: int) -> None:
    """600 games per player count, every seat any of the four bots."""
    engine = Engine(players)
    seating = np.random.default_rng(players).integers(0, len(BOTS), (600, players))
    by_numpy, _ = _play_both(engine, 600, players, seating)
    # Long enough games that the pile runs out and is reshuffled, several times in some.
    assert by_numpy.round.sum() > 600 * 3 and by_numpy.shuffles.max() >= 2
    assert set(np.unique(seating)) == set(range(len(BOTS)))


@COMPILED
def test_other_options_play_alike() -> None:
    seating = np.random.default_rng(7).integers(0, len(BOTS), (300, 3))
    _play_both(Engine(3, start_points=30), 300, 1, seating)
    capped, _ = _play_both(Engine(3, max_rounds=2), 300, 2, seating)
    assert capped.round.max() == 2


@COMPILED
def test_a_variant_deck_plays_alike() -> None:
    deck = tuple(reversed(SAMPLE_DECK[::2])) + SAMPLE_DECK[1:7:2]
    table = table_holding(deck)
    assert table is not None
    register(table)
    seating = np.random.default_rng(3).integers(0, len(BOTS), (300, 4))
    _play_both(Engine(4, deck=deck), 300, 3, seating)


@COMPILED
def test_a_batch_stepped_part_of_the_way_ends_alike() -> None:
    """Grabs applied one by one first (a learner's steps), then the rest run either way."""
    engine = Engine(4)
    twins = _twins(engine, 200, 11)
    rng = np.random.default_rng(5)
    for _ in range(9):  # over two rounds' grabs, the same ones in both batches
        mask = twins[0].legal_mask()
        ids = np.argmax(rng.random(mask.shape) * mask, axis=1)
        for batch in twins:
            batch.apply(ids, ~batch.over)
    seating = rng.integers(0, len(BOTS), (200, 4))
    policies = _policies(engine)
    twins[0].run(seating, policies, compiled=False)
    twins[1].run(seating, policies, compiled=True)
    _assert_same_games(*twins)


@COMPILED
@pytest.mark.parametrize("players", range(2, 7))
def test_bonus_aware_everywhere_from_random_states_plays_alike(players: int) -> None:
    """Every seat ``bonus-aware``, from states reached by a different number of random grabs in
    each game (piles run down, some emptied and the discards the pool, trucks taken from anyone):
    thousands of its decisions per player count, from every seat, each of which the compared
    state would show if the loops chose another truck."""
    engine = Engine(players)
    games = 400
    twins = _twins(engine, games, 20 + players)
    rng = np.random.default_rng(players)
    grabs = rng.integers(0, 6 * players, games)  # up to six rounds' grabs
    for k in range(6 * players):
        mask = twins[0].legal_mask()
        ids = np.argmax(rng.random(mask.shape) * mask, axis=1)
        for batch in twins:
            batch.apply(ids, ~batch.over & (grabs > k))
    # Each grab of a round is to be decided somewhere, and some piles are empty.
    assert len(np.unique(twins[0].step[~twins[0].over])) == players
    assert not (twins[0].place == PILE).any(axis=1).all()
    seating = np.full((games, players), BOTS.index("bonus-aware"))
    policies = _policies(engine)
    twins[0].run(seating, policies, compiled=False)
    twins[1].run(seating, policies, compiled=True)
    _assert_same_games(*twins)
    assert twins[0].round.sum() > games * 4


def _scalar_game(engine: Engine, chance: SharedChance, g: int, seats: list[int]) -> Game:
    """Game ``g`` of a batch with ``chance`` played by the scalar game: each chance node given
    the outcome the deal's hash answers (the questions as :mod:`packing.batch` asks them: a
    roll per seat and round, the grab order per round, the pile shuffled by the deal and its
    reshuffles, a random bot's pick by its round and grab), each bot deciding as a scalar bot."""
    n, trucks = engine.players, len(engine.deck)
    game = Game(n, deck=engine.deck, start_points=engine.start_points, max_rounds=engine.max_rounds)
    bots = [bot(BOTS[k]) for k in seats]
    show_seating(game, bots)
    at = np.array([g])
    orders = list(itertools.permutations(range(n)))
    pile = chance.order(at, trucks, 0)[0].tolist()
    top = shuffles = rolled = 0
    rng = np.random.default_rng(0)  # unused: the deterministic bots draw nothing
    while not game.is_terminal():
        seen = game.observation(0)
        if not game.is_chance_node():
            player = game.current_player()
            legal = game.legal_actions()
            if BOTS[seats[player]] == "random":
                tag = game.round * 8 + seen.grabbed
                action = legal[int(chance.own_below(at, [len(legal)], [tag])[0])]
            else:
                action = bots[player].act(game.observation(player), legal, rng)
            game.apply_action(action)
            continue
        outcomes = [outcome for outcome, _ in game.chance_outcomes()]
        first = outcomes[0]
        if isinstance(first, Cargo):
            seat = (game.first_roller + rolled) % n
            rolled = (rolled + 1) % n
            combo = chance.below(at, [6**5], [(game.round * 4 + 0) * 256 + seat])[0]
            game.apply_action(roll_outcomes()[rolls_of_faces()[combo]][0])
        elif isinstance(first, GrabOrder):
            rank = chance.below(at, [len(orders)], [(game.round * 4 + 1) * 256])[0]
            game.apply_action(next(o for o in outcomes if o.order == orders[rank]))
        else:
            assert isinstance(first, Draw)
            if not seen.pile_at:  # the discards become the pile, shuffled again
                shuffles += 1
                among = np.isin(np.arange(trucks), seen.discards_at)[None, :]
                pile, top = chance.order(at, trucks, shuffles, among=among)[0].tolist(), 0
            position = seen.draw_pool_at.index(pile[top])
            top += 1
            game.apply_action(next(o for o in outcomes if o.position == position))
    return game


@pytest.mark.parametrize("compiled", [False, pytest.param(True, marks=COMPILED)])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_shared_chance_games_are_the_scalar_games(players: int, compiled: bool) -> None:
    """250 games per player count and engine, the four bots mixed, some deals shared."""
    engine = Engine(players)
    games = 250
    deals = np.random.default_rng(players).integers(0, games // 2, games)
    seating = np.random.default_rng(players + 1).integers(0, len(BOTS), (games, players))
    batch = engine.new_batch(games, rng=np.random.default_rng(players), deals=deals)
    batch.run(seating, _policies(engine), compiled=compiled)
    chance = SharedChance(np.random.default_rng(players), deals)  # the batch's, made again
    winners = batch.winners()
    for g in range(games):
        game = _scalar_game(engine, chance, g, seating[g].tolist())
        assert list(game.points) == batch.points[g].tolist(), (g, seating[g])
        assert game.round == batch.round[g]
        assert game.winners() == set(np.flatnonzero(winners[g]).tolist())
    assert batch.round.sum() > games * 3 and batch.shuffles.max() >= 2


@COMPILED
def test_the_comparison_can_fail() -> None:
    """Other deals give other games: the state compared tells games apart."""
    engine = Engine(4)
    seating = np.zeros((50, 4), np.int64)
    one = engine.new_batch(50, rng=np.random.default_rng(1))
    other = engine.new_batch(50, rng=np.random.default_rng(2))
    one.run(seating, _policies(engine), compiled=True)
    other.run(seating, _policies(engine), compiled=True)
    with pytest.raises(AssertionError):
        _assert_same_games(one, other)


@COMPILED
def test_batches_the_loops_cannot_play_are_refused_when_asked_for() -> None:
    engine = Engine(3)
    policies = _policies(engine)
    seating = np.zeros((4, 3), np.int64)
    with pytest.raises(PackingError, match="chance comes from streams"):
        engine.new_batch(streams=seeded(range(4), 3)).run(seating, policies, compiled=True)
    with pytest.raises(PackingError, match="it keeps records"):
        engine.new_batch(4, rng=np.random.default_rng(0), record=True).run(
            seating, policies, compiled=True
        )

    class Mine:
        name = "mine"

        def act(self, batch: Batch, where: np.ndarray) -> np.ndarray:
            return np.full(int(where.sum()), batch.trucks)

    with pytest.raises(PackingError, match="is not one of this engine's bots"):
        engine.new_batch(4, rng=np.random.default_rng(0)).run(seating, [Mine()], compiled=True)
    # A seat naming no policy is refused before either engine reads past the policies.
    for way in (False, True):
        with pytest.raises(PackingError, match="seating names policies 0 to 3, not 0 to 4"):
            engine.new_batch(4, rng=np.random.default_rng(0)).run(
                np.full((4, 3), 4) * np.eye(4, 3, dtype=np.int64), policies, compiled=way
            )
    # Unasked, such a batch is played by NumPy.
    played = engine.new_batch(4, rng=np.random.default_rng(0))
    played.run(seating, [Mine()])
    assert played.over.all()


def test_without_numba_the_engine_plays_with_numpy_and_names_the_extra_when_asked() -> None:
    script = """
import sys
sys.modules["numba"] = None  # as if the compiled extra were not installed
import numpy as np
from packing import bot
from packing.batch import Engine
from packing.batch_loops import available
engine = Engine(3)
seating = np.zeros((5, 3), np.int64)
policies = [engine.vector_policy(bot("optimal"))]
assert not available()
engine.new_batch(5, rng=np.random.default_rng(0)).run(seating, policies)
engine.new_batch(5, rng=np.random.default_rng(0)).run(seating, policies, compiled=True)
"""
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parents[2],
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        "arena.extras.MissingExtraError: numba is not installed: it comes with the compiled "
        "extra (pip install 'tabletop-solvers[compiled]')"
    )
