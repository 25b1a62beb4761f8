"""Yardmaster Express's codec (``express.codec``): its tensor bounds and its masks agree with the
plain definitions on random games."""

from __future__ import annotations

import numpy as np
import pytest

from arena import sample_outcome
from express import Game
from express.codec import CODEC


@pytest.mark.parametrize(("players", "caboose"), [(2, ""), (3, "random"), (5, "")])
def test_every_tensor_lies_within_the_bounds_and_masks_agree(players: int, caboose: str) -> None:
    params = CODEC.merged({"players": players, "caboose": caboose})
    low, high = CODEC.tensor_bounds(params)
    size = CODEC.limits(params).num_distinct_actions
    for seed in range(3):
        state, rng = CODEC.new_state(params), np.random.default_rng(seed)
        assert isinstance(state, Game)
        while True:
            for p in range(players):
                tensor = np.zeros(len(low), np.float32)
                CODEC.fill_tensor(state.observation(p), tensor)
                assert ((low <= tensor) & (tensor <= high)).all()
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
                continue
            plain = np.zeros(size, np.int8)
            for action in state.legal_actions():
                plain[CODEC.encode(state, action)] = 1
            assert np.array_equal(CODEC.legal_mask(state, size), plain)
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
