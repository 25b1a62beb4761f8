"""Pack & Stack's codec (``packing.codec``), the translation every adapter reads: its tensor
bounds, its masks and its memoised chance ids agree with the plain definitions on random games."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from arena import sample_outcome
from arena.codec import Codec
from packing import Game
from packing.codec import CODEC, DICE_GROUPS, DICE_STAGES, deck_parameter
from packing.deck import SAMPLE_DECK
from packing.game import PILE, Draw, Grab, GrabOrder, roll_outcomes
from packing.model import Cargo
from packing.rules import DICE


def random_states(players: int, seed: int, **options: object) -> list[Game]:
    """Every state of a random game (chance exact, grabs uniform)."""
    state, rng, seen = Game(players, **options), np.random.default_rng(seed), []  # type: ignore[arg-type]
    while not state.is_terminal():
        seen.append(state.clone())
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    seen.append(state)
    return seen


@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_tensor_lies_within_the_bounds(players: int) -> None:
    params = CODEC.merged({"players": players, "max_rounds": 6})
    low, high = CODEC.tensor_bounds(params)
    assert low.shape == high.shape == (CODEC.tensor_size(params),) and (low <= high).all()
    for seed in range(3):
        for state in random_states(players, seed, max_rounds=6):
            for p in range(players):
                tensor = np.zeros(len(low), np.float32)
                CODEC.fill_tensor(state.observation(p), tensor)
                assert ((low <= tensor) & (tensor <= high)).all()


def test_the_mask_and_decode_agree_with_encode() -> None:
    size = CODEC.limits(CODEC.merged({"players": 3})).num_distinct_actions
    for state in random_states(3, 1):
        if state.is_terminal() or state.is_chance_node():
            continue
        plain = np.zeros(size, np.int8)
        for action in state.legal_actions():
            plain[CODEC.encode(state, action)] = 1
        assert np.array_equal(CODEC.legal_mask(state, size), plain)
        assert np.array_equal(Codec.legal_mask(CODEC, state, size), plain)  # the generic one
        for number in np.flatnonzero(plain):
            assert CODEC.encode(state, CODEC.decode(state, int(number))) == number
        for number in np.flatnonzero(plain == 0):
            with pytest.raises(ValueError):
                CODEC.decode(state, int(number))


@pytest.mark.extra("openspiel")
def test_the_dice_stages_are_the_roll_exactly() -> None:
    stages = DICE_STAGES.outcomes
    # A stage a group of dice, in order of length; an id the rank of the faces its dice show
    # among the group's combinations of distinct faces, its probability the product of theirs.
    assert DICE_GROUPS == ((1, 2), (3, 4, 5)) and len(stages) == len(DICE_GROUPS)
    for group, stage in zip(DICE_GROUPS, stages, strict=True):
        combos = list(itertools.product(*(sorted(set(DICE[length])) for length in group)))
        assert [i for i, _ in stage] == list(range(len(combos)))
        for (i, p), faces in zip(stage, combos, strict=True):
            assert p == math.prod(
                Fraction(DICE[length].count(face), 6)
                for length, face in zip(group, faces, strict=True)
            )
            assert DICE_STAGES.describe(DICE_GROUPS.index(group), i) == ", ".join(
                f"die {length} shows {face}" for length, face in zip(group, faces, strict=True)
            )
    assert stages[0][0] == (0, Fraction(1, 18))  # white 1 (two faces of six), grey 0 (one)
    # Every sequence of ids, its probability the product of the stages': summed per composed
    # cargo, the roll's distribution exactly, composed to the roll's own cargo objects.
    composed: dict[Cargo, Fraction] = {}
    for outcomes in itertools.product(*stages):
        ids = tuple(i for i, _ in outcomes)
        cargo = DICE_STAGES.compose(ids)
        composed[cargo] = composed.get(cargo, Fraction(0)) + math.prod(p for _, p in outcomes)
        assert DICE_STAGES.ids_of(cargo) == ids
    assert composed == dict(roll_outcomes())
    objects = {id(cargo) for cargo, _ in roll_outcomes()}
    assert all(id(cargo) in objects for cargo in composed)
    # Each id sequence composes to a distinct cargo: the dice's faces are its counts.
    assert math.prod(len(stage) for stage in stages) == len(composed) == 900
    assert DICE_STAGES.compose((0, 0)) == Cargo((1, 0, 0, 0, 0))
    assert DICE_STAGES.floats[1] == [(i, float(p)) for i, p in stages[1]]
    with pytest.raises(ValueError, match="no stage ids compose"):
        DICE_STAGES.ids_of(Cargo((9, 0, 0, 0, 0)))


def test_only_a_roll_is_dealt_in_stages() -> None:
    kinds = set()
    for state in random_states(3, 1):
        if not state.is_chance_node():
            assert CODEC.chance_stages(state) is None
            continue
        kind = type(state.chance_outcomes()[0][0])
        kinds.add(kind)
        assert (CODEC.chance_stages(state) is DICE_STAGES) == (kind is Cargo)
    assert kinds == {Cargo, Draw, GrabOrder}  # a top of the pile is a Draw


@pytest.mark.extra("openspiel")
def test_memoised_chance_ids_are_the_ids_encoded_at_the_node() -> None:
    import pyspiel

    import packing.openspiel  # noqa: F401  (registers the game)
    from arena.openspiel import wrap

    game = pyspiel.load_game("python_pack_and_stack(players=3)")
    assert CODEC.stable_chance_ids
    for state in random_states(3, 2)[:300]:
        if not state.is_chance_node():
            continue
        memoised = wrap(game, state.clone()).chance_outcomes()
        if isinstance(state.chance_outcomes()[0][0], Cargo):  # a roll: dealt in stages
            assert memoised == [(i, float(p)) for i, p in DICE_STAGES.outcomes[0]]
            continue
        encoded = sorted(
            (CODEC.encode(state, outcome), float(p)) for outcome, p in state.chance_outcomes()
        )
        assert memoised == encoded
        memoised.clear()  # a caller's copy: the memo keeps its own
        assert wrap(game, state.clone()).chance_outcomes() == encoded


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_incremental_tensor_equals_the_tensor_from_scratch(players: int) -> None:
    # One writer across many games (as an environment keeps it across resets), asked after
    # every action — chance outcomes too — for a random selection of players in random order.
    params = CODEC.merged({"players": players})
    write, size = CODEC.tensor_writer(params), CODEC.tensor_size(params)
    rng = np.random.default_rng(players)
    for seed in range(12):
        for state in random_states(players, seed):
            for p in rng.permutation(players)[: int(rng.integers(1, players + 1))]:
                expected = np.zeros(size, np.float32)
                CODEC.fill_tensor(state.observation(int(p)), expected)
                tensor = write(state.observation(int(p)))
                assert tensor.dtype == np.float32 and np.array_equal(tensor, expected)
                tensor[:] = -1  # a fresh array each time: the caller's to change
    # The same writer given observations of another deck, then of its own again.
    other = CODEC.merged({"players": players, "deck": deck_parameter(SAMPLE_DECK[:24])})
    small = random_states(players, 0, deck=SAMPLE_DECK[:24])[::3]
    sizes = [(s, CODEC.tensor_size(other)) for s in small] + [(Game(players), size)]
    for state, length in sizes:
        expected = np.zeros(length, np.float32)
        CODEC.fill_tensor(state.observation(0), expected)
        assert np.array_equal(write(state.observation(0)), expected)


def test_legal_ids_are_the_encoded_legal_actions() -> None:
    for state in random_states(4, 2) + random_states(3, 1, deck=SAMPLE_DECK[:20]):
        if state.is_terminal():
            continue
        legal = state.legal_actions()
        plain = {CODEC.encode(state, action): action for action in legal}
        assert CODEC.legal_ids(state) == plain == Codec.legal_ids(CODEC, state)


def test_a_games_grabs_are_the_objects_its_setup_made() -> None:
    # legal_ids recognises grabs by identity, from grab_actions(): every grab legal_actions
    # hands out must be one of those objects (the pile's grab is PILE).
    for state in random_states(4, 3):
        table = {id(grab) for of_owner in state.grab_actions() for grab in of_owner}
        for action in state.legal_actions():
            if isinstance(action, Grab):
                assert action is PILE or id(action) in table
        assert Game(4).grab_actions() is state.grab_actions()  # shared by equal options
