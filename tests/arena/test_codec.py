"""``arena.codec.ChanceStages``: a chance node dealt in stages checks its stages and inverts its
composition."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from arena import ArenaError
from arena.codec import ChanceStages, Codec

HALF = Fraction(1, 2)


def _describe(stage: int, i: int) -> str:
    return f"coin {stage}: {i}"


def test_stages_need_ascending_ids_and_probabilities_summing_to_one() -> None:
    for stage in (((1, HALF), (0, HALF)), ((0, HALF), (0, HALF)), ((0, HALF), (1, Fraction(1, 3)))):
        with pytest.raises(ArenaError, match="ascending ids and probabilities summing to 1"):
            ChanceStages((stage,), compose=sum, describe=_describe)


def test_ids_of_inverts_compose_and_refuses_an_ambiguous_one() -> None:
    coin = ((0, HALF), (1, HALF))
    two_bits = ChanceStages(
        (coin, coin), compose=lambda ids: 2 * ids[0] + ids[1], describe=_describe
    )
    assert [two_bits.ids_of(n) for n in range(4)] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert two_bits.ids == (frozenset({0, 1}), frozenset({0, 1}))
    with pytest.raises(ValueError, match="no stage ids compose to 4"):
        two_bits.ids_of(4)
    heads = ChanceStages((coin, coin), compose=sum, describe=_describe)  # (0, 1) and (1, 0): 1
    with pytest.raises(ArenaError, match="two sequences of stage ids compose to 1"):
        heads.ids_of(1)


def test_a_codec_that_stages_chance_without_its_tensor_is_refused_by_name() -> None:
    from packing.codec import CODEC, DICE_STAGES, PackAndStackCodec

    class Unfinished(PackAndStackCodec):
        fill_staged_tensor = Codec.fill_staged_tensor  # the default, as a codec that forgot it

    params = CODEC.merged({})
    state = CODEC.new_state(params)
    with pytest.raises(ArenaError, match="python_pack_and_stack: a codec that stages chance"):
        Unfinished().fill_staged_tensor(state.observation(0), DICE_STAGES, (), np.zeros(3))
