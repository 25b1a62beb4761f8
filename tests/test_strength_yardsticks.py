"""The yardsticks of the strength benchmark (``benchmarks/express_strength.py``) play as they
say: ``pimc-told`` is ``pimc`` whose only unknown is the order of the cards not drawn yet."""

from __future__ import annotations

import numpy as np

from benchmarks.express_strength import told_pimc_play
from express import Game, deck_for, play_values


def test_told_pimc_plays_perfectly_when_the_cards_to_come_are_known() -> None:
    # A 16-card deck holds exactly the cards of a deal: at the last two decisions at most one
    # card is still to come, so every world of pimc-told is the true game, and its play is one
    # of the best plays by the exact values. The turns before are played by the first legal play.
    rng = np.random.default_rng(3)
    checked = 0
    for deal in range(8):
        deck = deck_for(2)
        order = tuple(deck[i] for i in np.random.default_rng(deal).permutation(len(deck)))[:16]
        game = Game(2, order=order, deck=order)
        while not game.is_terminal():
            if len(order) - len(game.drawn) > 1:
                game.apply_action(game.legal_actions()[0])
                continue
            values = play_values(game)
            chosen = told_pimc_play(game, 2, rng)
            assert values[chosen] == max(values.values())
            checked += 1
            game.apply_action(chosen)
    assert checked == 16


def test_told_pimc_does_not_know_the_order_of_the_cards_to_come() -> None:
    # Early in a deal its worlds differ from the true game: its mean is not the true game's
    # best value in general, but its play is always legal and the same for the same generator.
    deck = deck_for(2)
    order = tuple(deck[i] for i in np.random.default_rng(5).permutation(len(deck)))
    game = Game(2, order=order)
    first = told_pimc_play(game, 3, np.random.default_rng(1))
    assert first in game.legal_actions()
    assert told_pimc_play(game, 3, np.random.default_rng(1)) == first
