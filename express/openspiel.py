"""Yardmaster Express as an OpenSpiel game, ``python_yardmaster_express`` (the ``openspiel`` extra).

Importing this module registers the game with pyspiel through the generic adapter
(:mod:`arena.openspiel`); every rule stays in :class:`express.Game`, which the pyspiel states
hold and forward to.

>>> import pyspiel
>>> game = pyspiel.load_game("python_yardmaster_express", {"players": 2, "rounds": 2})
>>> game.num_distinct_actions(), game.max_chance_outcomes(), game.max_game_length()
(40, 20, 4)

The game type: sequential, explicit stochastic chance, imperfect information (the draws, the
other players' face-down cards and the hands they held are hidden), general-sum, terminal
rewards (each player's final score), 2 to 5 players.

Parameters, ids, limits, observations, information states and hidden worlds are the game's
codec's, :mod:`express.codec` (no extra needed; re-exported here): ``players`` (3), ``caboose``
(``""``, a name or ``"random"``), ``deck`` (``""``: the standard deck), ``rounds`` (0: the rules'
9 − N), ``start_player`` (0) and ``pass_left`` (True). OpenSpiel's information-set MCTS draws
its worlds through ``resample_from_infostate``, the codec's ``resample``
(:func:`express.worlds.resample`).

Importing this module without the extra raises :class:`arena.MissingExtraError` naming it.
"""

from __future__ import annotations

from arena.openspiel import register
from express.codec import CODEC, ExpressCodec

__all__ = ["CODEC", "ExpressCodec"]

register(CODEC)
