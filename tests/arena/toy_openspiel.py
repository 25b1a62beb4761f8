"""The dice race of ``toy.py`` registered with OpenSpiel through the generic adapter."""

from __future__ import annotations

from arena.openspiel import register
from tests.arena.toy_codec import CODEC, DiceRaceCodec

__all__ = ["CODEC", "DiceRaceCodec"]

register(CODEC)
