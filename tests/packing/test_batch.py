"""The batched engine plays the scalar game exactly: given the same chance outcomes a batched game
records the same rounds, points and winners as :func:`arena.play` with :class:`packing.Game`, for
every player count, every bot it batches and other options; and its own chance is the rules'."""

from __future__ import annotations

import math
import os
import pickle
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from typing import overload

import numpy as np
import numpy.typing as npt
import pytest

import arena
from arena.batch import RawWords, Streams, engine_for, seeded
from packing import SAMPLE_DECK, Game, bot
from packing.batch import Engine, cargo_of, rolls_of_faces
from packing.codec import CODEC
from packing.errors import PackingError
from packing.odds import roll_outcomes
from packing.rules import DICE, LENGTHS
from packing.table import register, table_holding

BATCHED = ("random", "capacity", "optimal", "bonus-aware")


def _check_against_scalar(
    engine: Engine, seeds: list[int], seating: np.ndarray, **game: object
) -> int:
    """Play ``seeds`` both ways and compare every round; the rounds compared."""
    n = engine.players
    policies = [engine.vector_policy(bot(name)) for name in BATCHED]
    assert all(p is not None for p in policies)
    batch = engine.new_batch(streams=seeded(seeds, n), record=True)
    batch.run(seating, policies)  # type: ignore[arg-type]
    returns, winners = batch.returns(), batch.winners()
    compared = 0
    for g, seed in enumerate(seeds):
        state = arena.play(Game(n, **game), [bot(BATCHED[k]) for k in seating[g]], seed)  # type: ignore[arg-type]
        expected = state.round_records
        got = batch.records(g)
        assert len(got) == len(expected), (seed, seating[g])
        for record, mine in zip(expected, got):
            for field, value in mine.items():
                assert getattr(record, field) == value, (seed, record.number, field)
        assert returns[g].tolist() == state.returns()
        assert set(np.flatnonzero(winners[g]).tolist()) == set(state.winners())
        compared += len(expected)
    return compared


@pytest.mark.parametrize("players", range(2, 7))
def test_batched_games_are_the_scalar_games(players: int) -> None:
    """400 seeded games per player count, every seat any of the four batched bots."""
    seeds = list(range(1000 * players, 1000 * players + 400))
    seating = np.random.default_rng(players).integers(0, len(BATCHED), (len(seeds), players))
    rounds = _check_against_scalar(Engine(players), seeds, seating)
    assert rounds > 400 * 2  # games of several rounds: reshuffles and pile grabs happen


def test_batched_games_with_other_options_are_the_scalar_games() -> None:
    seating = np.random.default_rng(7).integers(0, len(BATCHED), (150, 3))
    seeds = list(range(150))
    _check_against_scalar(Engine(3, start_points=30), seeds, seating, start_points=30)
    _check_against_scalar(Engine(3, max_rounds=2), seeds, seating, max_rounds=2)


def test_a_variant_deck_plays_as_the_scalar_game() -> None:
    """A deck of 18 of the sample deck's trucks in another order, with its table cut from the
    sample deck's: the positions, draws and reshuffles all differ from the sample deck's."""
    deck = tuple(reversed(SAMPLE_DECK[::2])) + SAMPLE_DECK[1:7:2]
    table = table_holding(deck)
    assert table is not None
    register(table)
    engine = Game(4, deck=deck).batch_engine()
    assert engine is not None and engine == Engine(4, deck=deck)
    seating = np.random.default_rng(3).integers(0, len(BATCHED), (150, 4))
    _check_against_scalar(engine, list(range(150)), seating, deck=deck)


def test_the_records_differ_for_other_seeds() -> None:
    """The comparison can fail: the same batch against a scalar game of another seed."""
    engine = Engine(4)
    batch = engine.new_batch(streams=seeded([5], 4), record=True)
    batch.run(np.zeros((1, 4), np.int64), [engine.vector_policy(bot("optimal"))])  # type: ignore[list-item]
    other = arena.play(Game(4), [bot("optimal")] * 4, 6)
    assert batch.records(0)[0]["cargos"] != other.round_records[0].cargos


class _RejectedWordsFirst:
    """A game's raw words with ``2**64 - 1`` before each of the first two: a word every draw
    below 7,776 rejects (it is above the largest multiple of 7,776), so the first two rolls
    skip them and the game goes on as without them."""

    def __init__(self, words: RawWords) -> None:
        self._words = words
        first, second = words(2).tolist()
        self._ahead = [2**64 - 1, first, 2**64 - 1, second]

    @overload
    def __call__(self) -> int: ...

    @overload
    def __call__(self, size: int) -> npt.NDArray[np.uint64]: ...

    def __call__(self, size: int | None = None) -> int | npt.NDArray[np.uint64]:
        if size is None:
            return self._ahead.pop(0) if self._ahead else self._words()
        taken, self._ahead = self._ahead[:size], self._ahead[size:]
        return np.array(taken + self._words(size - len(taken)).tolist(), np.uint64)


def test_rejected_words_are_skipped_as_the_scalar_game_skips_them() -> None:
    """Words the sampler rejects in the first roll: the batch draws the same games (which
    are the scalar games, by the tests above) as from the streams without them."""
    engine, seeds = Engine(4), list(range(20))
    seating = np.random.default_rng(5).integers(0, len(BATCHED), (len(seeds), 4))
    policies = [engine.vector_policy(bot(name)) for name in BATCHED]
    plain = engine.new_batch(streams=seeded(seeds, 4), record=True)
    plain.run(seating, policies)  # type: ignore[arg-type]
    streams = seeded(seeds, 4)
    injected = Streams([_RejectedWordsFirst(words) for words in streams.chance], streams.policy)
    rejecting = engine.new_batch(streams=injected, record=True)
    rejecting.run(seating, policies)  # type: ignore[arg-type]
    for g in range(len(seeds)):
        assert rejecting.records(g) == plain.records(g), g


def _chi_square_limit(dof: int, z: float = 5.0) -> float:
    """The chi-square quantile at about 3e-7 upper probability (Wilson–Hilferty)."""
    return dof * (1 - 2 / (9 * dof) + z * math.sqrt(2 / (9 * dof))) ** 3


def _chi_square(counts: Counter[int], probabilities: dict[int, float]) -> float:
    total = sum(counts.values())
    return sum((counts[k] - total * p) ** 2 / (total * p) for k, p in probabilities.items())


def test_the_shared_chance_follows_the_rules() -> None:
    """Rolls (each die's count), draws (the first truck revealed) and grab orders of 40,000
    games drawn by the shared chance, against the rules' distributions."""
    engine = Engine(4)
    batch = engine.new_batch(40_000, rng=np.random.default_rng(11))
    counts = engine.counts[batch.cargo[:, 0]]  # (games, lengths): seat 0's first roll
    for k, length in enumerate(LENGTHS):
        faces = Counter(DICE[length])
        expected = {count: ways / 6 for count, ways in faces.items()}
        seen = Counter(counts[:, k].tolist())
        assert set(seen) <= set(expected)
        assert _chi_square(seen, expected) < _chi_square_limit(len(expected) - 1), length
    first = (batch.round[0] - 1) % 4
    drawn = Counter(batch.drawn[:, first, 0].tolist())
    uniform = {j: 1 / len(SAMPLE_DECK) for j in range(len(SAMPLE_DECK))}
    assert _chi_square(drawn, uniform) < _chi_square_limit(len(SAMPLE_DECK) - 1)
    orders = Counter(map(tuple, batch.order.tolist()))
    ranks = {order: i for i, order in enumerate(map(tuple, engine.orders.tolist()))}
    by_rank = Counter({ranks[o]: c for o, c in orders.items()})
    assert _chi_square(by_rank, {r: 1 / 24 for r in range(24)}) < _chi_square_limit(23)


def test_the_roll_table_gives_each_cargo_its_probability() -> None:
    """The 7,776 equally likely face combinations the shared chance draws from give each of the
    900 cargos exactly its probability."""
    rolls = rolls_of_faces()
    assert len(rolls) == 6 ** len(LENGTHS)
    ways = Counter(cargo_of(r) for r in rolls.tolist())
    for cargo, p in roll_outcomes():
        assert Fraction(ways[cargo], len(rolls)) == p


def test_games_of_one_deal_share_their_chance() -> None:
    """Two games of one deal, different bots: the same rolls per seat and the same first draws
    and grab order; another deal differs."""
    engine = Engine(4)
    batch = engine.new_batch(3, rng=np.random.default_rng(2), deals=[0, 0, 1])
    assert (batch.cargo[0] == batch.cargo[1]).all()
    assert (batch.drawn[0] == batch.drawn[1]).all() and (batch.order[0] == batch.order[1]).all()
    assert (batch.cargo[0] != batch.cargo[2]).any() or (batch.drawn[0] != batch.drawn[2]).any()


def test_a_batch_steps_as_the_codec_says() -> None:
    """Stepping a batch by ids, as an environment does: the player to act, the legal mask and
    every seat's observation tensor equal the codec's for the scalar game at each decision."""
    players, seeds = 3, list(range(40))
    engine = Engine(players, max_rounds=6)
    batch = engine.new_batch(streams=seeded(seeds, players))
    states = [Game(players, max_rounds=6) for _ in seeds]
    draws = [arena.outcome_drawer(arena.seat_streams(seed, players)[0]) for seed in seeds]
    rng = np.random.default_rng(0)
    size = CODEC.tensor_size({"players": players, "deck": "", "max_rounds": 6, "start_points": 75})
    actions = CODEC.limits({"players": players, "deck": "", "max_rounds": 6, "start_points": 75})
    steps = 0
    while True:
        for state, draw in zip(states, draws):
            while state.is_chance_node():
                state.apply_action(draw(state.chance_outcomes()))
        to_play = batch.to_play()
        assert to_play.tolist() == [s.current_player() for s in states]
        mask = batch.legal_mask()
        for seat in range(players):
            tensors = batch.observations(seat)
            for g, state in enumerate(states):
                expected = np.zeros(size, np.float32)
                CODEC.fill_tensor(state.observation(seat), expected)
                assert (tensors[g] == expected).all(), (g, seat, steps)
        live = to_play >= 0
        if not live.any():
            break
        chosen = np.zeros(len(states), np.int64)
        for g, state in enumerate(states):
            if live[g]:
                expected_mask = CODEC.legal_mask(state, actions.num_distinct_actions)
                assert (mask[g] == expected_mask.astype(bool)).all()
                chosen[g] = rng.choice(np.flatnonzero(mask[g]))
                state.apply_action(CODEC.decode(state, int(chosen[g])))
        batch.apply(chosen, live)
        steps += 1
    assert steps > 10
    assert batch.returns().tolist() == [s.returns() for s in states]


def test_an_illegal_id_names_the_game() -> None:
    engine = Engine(2)
    batch = engine.new_batch(2, rng=np.random.default_rng(0))
    mask = batch.legal_mask()
    bad = int(np.flatnonzero(~mask[1])[0])
    with pytest.raises(PackingError, match=rf"game 1: grab id {bad} is not legal"):
        batch.apply(np.array([len(SAMPLE_DECK), bad]), np.array([True, True]))


def test_apply_refuses_exactly_what_the_mask_refuses() -> None:
    """Every id the mask refuses, in every game of a batch along its games, apply refuses (the
    ids it allows, the games' runs take: the vector environments' tests pick among them)."""
    engine = Engine(3, max_rounds=3)
    batch = engine.new_batch(streams=seeded(range(12), 3))
    policy = engine.vector_policy(bot("random"))
    assert policy is not None
    while not batch.over.all():
        mask = batch.legal_mask()
        for g in range(batch.num_games):
            where = np.arange(batch.num_games) == g
            for grab in range(-1, engine.num_actions + 1):
                legal = 0 <= grab < engine.num_actions and bool(mask[g, grab])
                if legal:
                    continue  # taking it would change the game; the run below takes some
                with pytest.raises(PackingError, match=rf"game {g}: grab id {grab} is not"):
                    batch.apply(np.full(batch.num_games, grab), where)
        live = ~batch.over
        actions = np.zeros(batch.num_games, np.int64)
        actions[live] = policy.act(batch, live)
        batch.apply(actions, live)


def test_what_the_engine_cannot_play_is_refused() -> None:
    engine = Engine(4)
    assert engine.vector_policy(bot("greedy-loader")) is None  # its own loader
    assert engine.vector_policy(bot("optimal", use_table=False)) is None
    assert engine.vector_policy(arena.RandomPolicy()) is not None
    assert Game(4, speeds=[1, 2, 1, 1]).batch_engine() is None
    assert Game(4, use_table=False).batch_engine() is None
    deck = SAMPLE_DECK[:12]  # no table of its own
    assert engine_for(Game(2, deck=deck)) is None
    with pytest.raises(PackingError, match="no.*table|none"):
        Engine(2, deck=deck)
    with pytest.raises(PackingError, match="2 to 6 players, not 7"):
        Engine(7)


def test_engines_and_vector_bots_are_values() -> None:
    engine = Engine(3, max_rounds=9)
    policy = engine.vector_policy(bot("bonus-aware"))
    assert pickle.loads(pickle.dumps(engine)) == engine
    assert hash(pickle.loads(pickle.dumps(engine))) == hash(engine)
    assert pickle.loads(pickle.dumps(policy)) == policy
    code = (
        "import pickle, sys; from packing.batch import Engine, VectorBot; "
        "e, p = pickle.loads(sys.stdin.buffer.read()); "
        "print(e == Engine(3, max_rounds=9), hash(e) == hash(Engine(3, max_rounds=9)), "
        "p == VectorBot('bonus-aware', 'bonus-aware'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        input=pickle.dumps((engine, policy)),
        capture_output=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "123"},
    )
    assert out.stdout.split() == [b"True", b"True", b"True"]
