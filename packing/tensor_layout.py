"""The layout of Pack & Stack's observation tensor: each field's place, the one layout the codec
(:meth:`packing.codec.PackAndStackCodec.fill_tensor`) and the batched engine
(:meth:`packing.batch.Batch.observations`) write.

>>> layout = tensor_layout(4, 30)
>>> layout["player"], layout["trucks"][1]
((0, 4), 300)
"""

from __future__ import annotations

from functools import cache

from packing.rules import LENGTHS

__all__ = ["tensor_layout"]


@cache
def tensor_layout(players: int, trucks: int) -> dict[str, tuple[int, int]]:
    """Each field's (start, length) in the observation tensor of ``players`` players and a
    deck of ``trucks`` trucks, in order."""
    sizes = {
        "player": players,  # one-hot: the observing player
        "round": 1,  # the round's number
        "first_roller": players,  # one-hot
        "start_points": 1,
        "points": players,  # everyone's points
        "cargos": players * (1 + len(LENGTHS)),  # per player: rolled yet (0/1), rods of length 1..5
        "grab_order": 1 + players * players,  # known yet (0/1); [1 + k·n + p] = 1: p grabs k-th
        "grabbed": 1,  # how many have grabbed this round
        "trucks": trucks
        * (2 * players + 2),  # per truck, one-hot: in front of p, taken by p, pile, discards
    }
    layout, start = {}, 0
    for name, size in sizes.items():
        layout[name] = (start, size)
        start += size
    return layout
