"""The rules' numbers (express.rules) against the rules page, and the modules that read them."""

from __future__ import annotations

import inspect

import pytest

from express import DECK, ENGINE, WILD, Card, Color, Game, Play, deck_for, solve_order
from express.errors import RulesError
from express.rules import (
    FACE_DOWN_VALUE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PLAYER_COUNTS,
    check_players,
    hand_size_for,
    left_out_colors,
    rounds_for,
)


def test_the_rules_page_numbers() -> None:
    # docs/rules/yardmaster-express.md: 2 to 5 players, a hand of N, 9 - N rounds.
    assert (MIN_PLAYERS, MAX_PLAYERS, tuple(PLAYER_COUNTS)) == (2, 5, (2, 3, 4, 5))
    assert [hand_size_for(n) for n in PLAYER_COUNTS] == [2, 3, 4, 5]
    assert [rounds_for(n) for n in PLAYER_COUNTS] == [7, 6, 5, 4]
    assert (WILD.value, ENGINE.value, FACE_DOWN_VALUE) == (2, 0, 4)
    assert Play(Card.parse("R4|B4"), face_up=False).value == FACE_DOWN_VALUE


@pytest.mark.parametrize("players", [1, 6, 0])
def test_player_counts_outside_the_rules(players: int) -> None:
    for query in (check_players, hand_size_for, rounds_for, left_out_colors, deck_for):
        with pytest.raises(RulesError, match="2 to 5 players"):
            query(players)


def test_the_cards_left_out_with_two_players() -> None:
    assert left_out_colors(2) == {Color.PURPLE.value}
    assert all(not left_out_colors(n) for n in (3, 4, 5))
    two = deck_for(2)
    assert len(two) == 24 and all(Color.PURPLE not in (c.left.color, c.right.color) for c in two)
    assert [deck_for(n) for n in (3, 4, 5)] == [DECK] * 3


def test_games_and_the_exact_solver_follow_the_rules() -> None:
    for players in PLAYER_COUNTS:
        game = Game(players)
        assert (game.hand_size, game.rounds) == (hand_size_for(players), rounds_for(players))
    default = inspect.signature(solve_order).parameters["rounds"].default
    assert default == rounds_for(2)
