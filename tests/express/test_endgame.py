"""express.endgame: exact values over the real chance of the draws, against a brute force.

The brute force walks :class:`express.Game` itself — its legal actions, its chance outcomes
with their probabilities as fractions, its final score — with no table, no position and no
shortcut, so it shares nothing with the search but the rules.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from typing import cast

import numpy as np
import pytest

from arena import MissingExtraError, sample_outcome
from express import Card, Game, Play, RulesError, SearchLimitReached
from express.endgame import OBJECTIVES, expected_values, expected_values_with_states
from express.errors import ExpressError
from express.exact import play_values
from express.scoring import winner_of
from express.worlds import sample_worlds

CABOOSES = (None, "Lightweight", "Executive", "Diversified", "Buried Alive", "End of Line")


def brute_value(game: Game, objective: str, mover: int) -> Fraction:
    """``mover``'s expected margin or chance of winning, each player playing for its own side."""
    if game.is_terminal():
        score = game.score()
        if objective == "win":
            return Fraction(int(score.winner == mover))
        totals = [player.total for player in score.players]
        return Fraction(totals[mover] - totals[1 - mover])
    if game.is_chance_node():
        total = Fraction(0)
        for outcome, probability in game.chance_outcomes():
            child = game.clone()
            child.apply_action(outcome)
            total += probability * brute_value(child, objective, mover)
        return total
    values = []
    for action in game.legal_actions():
        child = game.clone()
        child.apply_action(action)
        values.append(brute_value(child, objective, mover))
    # In a two-player zero-sum game the other player minimises the mover's value (for "win",
    # its own chance of winning is the complement: there are no draws).
    return max(values) if game.current_player() == mover else min(values)


def brute_values(game: Game, objective: str) -> dict[Play, Fraction]:
    mover = game.current_player()
    values = {}
    for action in game.legal_actions():
        assert isinstance(action, Play)
        child = game.clone()
        child.apply_action(action)
        values[action] = brute_value(child, objective, mover)
    return values


def position(
    seed: int, *, turns_left: int, rounds: int = 7, face_down: float = 0.3, **options: object
) -> Game:
    """A random two-player game stopped at the decision ``turns_left`` turns from its end, each
    play face down with probability ``face_down`` (face up whenever a card connects else)."""
    rng = np.random.default_rng(seed)
    game = Game(2, rounds=rounds, **options)  # type: ignore[arg-type]
    while True:
        if game.is_chance_node():
            game.apply_action(sample_outcome(game.chance_outcomes(), rng))
        elif game.turn >= 2 * rounds - turns_left:
            return game
        else:
            legal = game.legal_actions()
            downs = [a for a in legal if isinstance(a, Play) and not a.face_up]
            ups = [a for a in legal if isinstance(a, Play) and a.face_up]
            pool = downs if not ups or rng.random() < face_down else ups
            game.apply_action(pool[int(rng.integers(len(pool)))])


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("objective", OBJECTIVES)
def test_small_positions_match_the_brute_force(seed: int, objective: str) -> None:
    game = position(
        seed,
        turns_left=3 if seed % 2 else 2,
        rounds=3 if seed % 3 else 2,
        caboose=CABOOSES[seed % len(CABOOSES)],
        start_player=seed % 2,
    )
    values = expected_values(game, objective=objective)
    assert values == brute_values(game, objective)
    assert list(values) == list(game.legal_actions())  # the legal order
    assert all(isinstance(value, Fraction) for value in values.values())


def test_a_small_deck_with_copies_matches_the_brute_force() -> None:
    # Copies of a card are one chance outcome with their count: the weights must say so.
    deck = "B2|B2,B2|B2,B2|B2,R2|R2,R2|R2,B2|B3,R3|G3,G3|B3,Y2|Y2,Y2|Y2"
    for seed in range(4):
        game = position(seed, turns_left=4, rounds=3, deck=deck, caboose="Short Line")
        for objective in OBJECTIVES:
            assert expected_values(game, objective=objective) == brute_values(game, objective)


@pytest.mark.parametrize("seed", range(6))
def test_with_the_order_known_the_margins_are_play_values(seed: int) -> None:
    rng = np.random.default_rng(seed)
    order = list(Game(2).deck)
    rng.shuffle(order)
    game = Game(2, order=order, caboose=CABOOSES[seed % len(CABOOSES)], start_player=seed % 2)
    while game.turn < 14 - 5:
        legal = game.legal_actions()
        game.apply_action(legal[int(rng.integers(len(legal)))])
    assert expected_values(game) == {p: Fraction(v) for p, v in play_values(game).items()}


def test_the_win_objective_agrees_with_the_rules_tie_break() -> None:
    # A tie goes to the player farther from the start player: seat 1 of two.
    assert winner_of([10, 10], start_player=0) == 1
    assert winner_of([10, 10], start_player=1) == 0
    for seed in range(3):
        game = position(seed, turns_left=1)
        wins = expected_values(game, objective="win")
        margins = expected_values(game)
        mover, start = game.current_player(), game.start_player
        for play, margin in margins.items():
            ahead = margin > 0 or (margin == 0 and mover != start)
            assert wins[play] == int(ahead)


def test_an_observation_with_nothing_hidden_is_valued_as_the_game() -> None:
    # Every card face up: the cards the player has not seen are the deck left.
    for seed in range(4):
        game = position(seed, turns_left=3, face_down=0.0)
        view = game.observation(game.current_player())
        assert sorted(map(str, view.unknown_cards())) == sorted(
            str(card) for card, copies in game.deck_left() for _ in range(copies)
        )
        assert expected_values(view) == expected_values(game)


def test_the_next_draw_of_the_worlds_is_uniform_over_the_unseen_cards() -> None:
    # What an observation's values assume of the chance: under the worlds' law, the other
    # player's hidden face-down cards are as likely any unseen card as the deck's, so the next
    # card is each unseen card alike. Checked against the worlds sampler: a chi-square test of
    # its next cards (seeded, so the verdict is fixed; a wrong law fails it by far).
    scipy_stats = pytest.importorskip("scipy.stats")
    for seed in range(60):
        game = position(seed, turns_left=3, face_down=0.9)
        view = game.observation(game.current_player())
        if len(view.unknown_cards()) > sum(copies for _, copies in game.deck_left()):
            break
    else:
        pytest.fail("no position with a hidden face-down card")
    unknown = Counter(view.unknown_cards())
    worlds = sample_worlds(view, 3000, np.random.default_rng(7))
    drawn = Counter(cast(tuple[Card, ...], world.order)[len(world.drawn)] for world in worlds)
    assert set(drawn) <= set(unknown)
    cards = sorted(unknown, key=str)
    expected = [len(worlds) * unknown[card] / unknown.total() for card in cards]
    observed = [drawn[card] for card in cards]
    assert scipy_stats.chisquare(observed, expected).pvalue > 1e-3
    assert expected_values(view).keys() == set(game.legal_actions())


def test_node_limit_stops_the_search_with_the_states_counted() -> None:
    game = position(5, turns_left=4)
    values, states = expected_values_with_states(game)
    assert states > 10
    with pytest.raises(SearchLimitReached, match="node_limit 10") as raised:
        expected_values(game, node_limit=10)
    assert raised.value.nodes == 10
    assert expected_values(game, node_limit=states) == values


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: expected_values(Game(3)), RulesError, "two players, not 3"),
        (
            lambda: expected_values(position(1, turns_left=2), objective="score"),
            ExpressError,
            "'score'",
        ),
        (
            lambda: expected_values(position(1, turns_left=2), node_limit=0),
            ExpressError,
            "node_limit: 0",
        ),
        (lambda: expected_values(cast(Game, "B2|B2")), TypeError, "not str"),
        (lambda: expected_values(Game(2, caboose="random")), RulesError, "caboose"),
    ],
)
def test_what_it_cannot_value_is_refused_in_one_line(
    call: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        call()  # type: ignore[operator]


def test_not_this_players_turn_and_the_end_of_the_game_are_refused() -> None:
    game = position(2, turns_left=2)
    other = 1 - game.current_player()
    with pytest.raises(RulesError, match="not this player's turn"):
        expected_values(game.observation(other))
    while not game.is_terminal():
        if game.is_chance_node():
            game.apply_action(game.legal_actions()[0])
        else:
            game.apply_action(game.legal_actions()[0])
    with pytest.raises(RulesError, match="game is over"):
        expected_values(game)


def test_values_pickle() -> None:
    values = expected_values(position(4, turns_left=2))
    assert pickle.loads(pickle.dumps(values)) == values


@pytest.mark.parametrize("seed", range(8))
def test_the_compiled_search_is_the_pure_one(seed: int) -> None:
    # The same values and the same states counted, for every caboose kind, both objectives, a
    # game's state and a player's observation; five turns only twice (the pure search is slow).
    pytest.importorskip("numba")
    turns = 5 if seed < 2 else 4 if seed < 6 else 3
    game = position(
        seed, turns_left=turns, caboose=CABOOSES[seed % len(CABOOSES)], start_player=seed % 2
    )
    for objective in OBJECTIVES:
        pure = expected_values_with_states(game, objective=objective, compiled=False)
        assert expected_values_with_states(game, objective=objective, compiled=True) == pure
    view = game.observation(game.current_player())
    assert expected_values(view, compiled=True) == expected_values(view, compiled=False)


def test_the_compiled_search_stops_at_its_node_limit() -> None:
    pytest.importorskip("numba")
    game = position(5, turns_left=4)
    values, states = expected_values_with_states(game, compiled=True)
    with pytest.raises(SearchLimitReached, match="node_limit 10"):
        expected_values(game, node_limit=10, compiled=True)
    assert expected_values(game, node_limit=states, compiled=True) == values


def test_compiled_without_numba_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import express.endgame_loops

    monkeypatch.setitem(__import__("sys").modules, "numba", None)  # as if not installed
    monkeypatch.setattr(express.endgame_loops, "_compiled", _not_cached_compiled())
    monkeypatch.setattr(express.endgame_loops, "available", lambda: False)
    game = position(5, turns_left=5)
    with pytest.raises(MissingExtraError, match="compiled"):
        expected_values(game, compiled=True)
    with pytest.raises(TypeError, match="compiled must be a bool"):
        expected_values(game, compiled=cast(bool, "yes"))


def _not_cached_compiled() -> object:
    import express.endgame_loops

    return express.endgame_loops._compiled.__wrapped__


def test_the_compiled_search_runs_again_in_a_new_process() -> None:
    # numba's disk cache of recursive functions crashes the process that loads it (numba issue
    # 6061): two processes one after the other must both answer.
    pytest.importorskip("numba")
    code = (
        "from tests.express.test_endgame import position\n"
        "from express.endgame import expected_values\n"
        "print(sorted(map(str, expected_values(position(0, turns_left=5), compiled=True).values())))\n"
    )
    runs = [
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        for _ in range(2)
    ]
    assert [run.returncode for run in runs] == [0, 0], runs
    assert runs[0].stdout == runs[1].stdout != ""
