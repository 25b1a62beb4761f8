"""The endgame yardstick: each bot's regret in the last turns of two-player games, measured
against the exact expectiminimax (:func:`express.endgame.expected_values`).

Positions come from seeded games of ``pimc`` against itself: every decision of the last
``turns`` turns of each game is kept (the same positions for every bot). At each, every bot
chooses a play from its own observation, and its *regret* is the exact expected margin of the
best play less that of its play, valued in the true state: the cards left in the deck as they
are (the other player's face-down cards known), each draw to come weighed by its probability.
A game's figure for ``k`` is the sum of a bot's regrets over the last ``k`` turns (both
players' decisions); the table gives its mean over games with a 95 % interval (Student's t).

Why it resolves small differences with few games: every bot is judged on the same positions
against the same exact values, most decisions cost nothing, and the luck of the deal — which
decides a duel's games — does not enter a regret at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import partial

import numpy as np

from arena import Policy, sample_outcome
from express import Game, Play, bot
from express.endgame import expected_values

ENDGAME_BOTS: dict[str, tuple[str, dict[str, object]]] = {
    "pimc": ("pimc", {}),
    "pimc-sampled": ("pimc", {"endgame_turns": 0, "more_worlds": None}),
    "search": ("search", {}),
    "greedy": ("greedy", {}),
}
"""The bots the table knows: ``pimc`` as it plays by default (exact in the last turns, more
worlds where they are cheap) and ``pimc-sampled``, ``pimc`` sampling 16 worlds at every turn
(the bot before the exact endgame)."""

DEFAULT_ENDGAME_BOTS = ("pimc", "pimc-sampled", "search", "greedy")


def endgame_bot(label: str) -> Policy:
    """The bot a label of :data:`ENDGAME_BOTS` names."""
    name, options = ENDGAME_BOTS[label]
    return bot(name, **options)


def endgame_positions(seed: int, game: int, turns: int) -> list[Game]:
    """The decisions of the last ``turns`` turns of game ``game`` of ``pimc`` against itself
    (two players, the seeded deal and choices), each a copy of the true state."""
    rng = np.random.default_rng([seed, game])
    player = bot("pimc")
    state = Game(2)
    kept = []
    end = state.players * state.rounds
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            continue
        if end - state.turn <= turns:
            kept.append(state.clone())
        seat = state.current_player()
        state.apply_action(player.act(state.observation(seat), state.legal_actions(), rng))
    return kept


def game_regrets(
    labels: Sequence[str], seed: int, turns: int, game: int
) -> dict[str, list[Fraction]]:
    """Each bot's regret at each stored decision of one game, from the last turn back: entry
    ``r - 1`` is the decision ``r`` turns from the end."""
    positions = endgame_positions(seed, game, turns)
    regrets: dict[str, list[Fraction]] = {label: [] for label in labels}
    for position in reversed(positions):
        values = expected_values(position)
        best = max(values.values())
        view = position.observation(position.current_player())
        for index, label in enumerate(labels):
            rng = np.random.default_rng([seed, game, position.turn, index])
            chosen = endgame_bot(label).act(view, position.legal_actions(), rng)
            assert isinstance(chosen, Play)
            regrets[label].append(best - values[chosen])
    return regrets


def regret_task(labels: Sequence[str], seed: int, turns: int) -> partial[dict[str, list[Fraction]]]:
    """:func:`game_regrets` as a function of the game alone (what an executor maps)."""
    return partial(game_regrets, tuple(labels), seed, turns)
