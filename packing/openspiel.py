"""Pack & Stack as an OpenSpiel game, ``python_pack_and_stack`` (the ``openspiel`` extra).

Importing this module registers the game with pyspiel (through :mod:`arena.openspiel`, which
forwards every call to a :class:`packing.Game`: no rule is written twice)::

    import pyspiel, packing.openspiel
    game = pyspiel.load_game("python_pack_and_stack(players=3,max_rounds=20)")

**Game type.** Sequential; chance explicit and stochastic (rolls, each dealt as two nodes of
dice, :data:`packing.codec.DICE_STAGES`; draws, the grab race, the top of the pile); *perfect information* — the only unknown of the table game, the pile's order, is
not a hidden state but chance: each truck is drawn when it is revealed, uniformly from the pile
(see ``docs/rules/pack-and-stack.md``); general-sum; terminal rewards, each player's final
points; 2 to 6 players. The grab is the players' only decision: the game loads every truck
optimally (from the deck's optimal table when there is one).

**Parameters, ids and observations** are the game's codec's, :mod:`packing.codec` (no extra
needed; re-exported here): ``players`` (4), ``start_points`` (75), ``deck`` (deck-file text,
line breaks as ``|``, :func:`deck_parameter`; ``""`` the sample deck) and ``max_rounds`` (40,
the round cap OpenSpiel needs: the printed game has no fixed end).

The information-state string is the history (the adapter's default for a game of perfect
information).

**Search bots.** :func:`packing.bot` ``("mcts")`` is :class:`arena.openspiel.SearchPolicy` on
this codec: OpenSpiel's MCTS (random rollouts) from the state
:meth:`PackAndStackCodec.state_from_observation` builds — nothing to draw, the game hides
nothing but chance. That state ends with the current round (:data:`SEARCH_ROUNDS`): the
search values each grab by the standings after this round's scoring. A grab changes this
round's penalty and bonus; later rounds feel it only through which trucks are left in the
pile, so random rollouts through them add noise and time (each roll is two chance nodes of
dice) but hardly any signal: searching further ahead cost many times more per decision and
played weaker against ``optimal`` (the figures are in benchmarks/README.md, openspiel suite).
``ismcts`` is refused: Pack & Stack has perfect information. Through pyspiel directly
(``MCTSBot`` on ``python_pack_and_stack``) the search sees the whole capped game.

Importing this module without the extra raises :class:`arena.MissingExtraError` naming it.
"""

from __future__ import annotations

from arena.openspiel import register
from packing.codec import (
    CODEC,
    SEARCH_ROUNDS,
    PackAndStackCodec,
    deck_from_parameter,
    deck_parameter,
)

__all__ = ["CODEC", "SEARCH_ROUNDS", "PackAndStackCodec", "deck_from_parameter", "deck_parameter"]

register(CODEC)
