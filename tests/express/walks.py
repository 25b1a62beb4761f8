"""Random games for the tests of hidden worlds: every state of one game, each a copy."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from arena import sample_outcome
from express import Game, Play


def random_walk(game: Game, seed: int, face_down: float = 0.0) -> Iterator[Game]:
    """Every state of one random game from ``game``, each a copy: chance by its probabilities,
    players uniformly among the legal actions — or, with probability ``face_down`` at each
    decision, among the face-down plays (hidden plays are what world sampling is about)."""
    rng = np.random.default_rng(seed)
    while True:
        yield game.clone()
        if game.is_terminal():
            return
        if game.is_chance_node():
            game.apply_action(sample_outcome(game.chance_outcomes(), rng))
            continue
        pool = game.legal_actions()
        if face_down and rng.random() < face_down:
            pool = [play for play in pool if isinstance(play, Play) and not play.face_up]
        game.apply_action(pool[int(rng.integers(len(pool)))])
