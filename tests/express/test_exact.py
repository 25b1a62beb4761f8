"""solve_order against plain minimax: every play sequence, no table.

The longer deals use the same minimax with alpha-beta cut-offs, which return exactly the
minimax value (a branch is abandoned only once it cannot change the max or min above it);
the two-round deals check the pruned and unpruned searches agree.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import subprocess
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from arena import RandomPolicy, play
from express.bots import bot
from express.cabooses import CABOOSES, Caboose
from express.cards import Card, deck_for
from express.errors import ExpressError, RulesError
from express.exact import PerfectPolicy, solve_deal, solve_order
from express.game import Game
from express.scoring import score_game
from express.train import Play, Train


def plain_minimax(
    order: Sequence[Card], caboose: Caboose | None, rounds: int, *, prune: bool = False
) -> int:
    """Player 0's score minus player 1's under optimal play, by trying every line.

    With ``prune``, a node stops trying its moves once ``alpha >= beta``: the player above it
    already has a line at least as good as anything this node can give back, so its max or
    min, and the root's value, are unchanged (fail-soft alpha-beta from an infinite window
    returns the exact minimax value).
    """

    def value(
        turn: int, hand: tuple[Card, ...], trains: tuple[Train, Train], alpha: float, beta: float
    ) -> int:
        if turn == 2 * rounds:
            game = score_game(list(trains), start_player=0, caboose=caboose)
            return game.players[0].total - game.players[1].total
        hand = hand + (order[2 + turn],)
        mover = turn % 2
        best: int | None = None
        for i, card in enumerate(hand):
            rest = hand[:i] + hand[i + 1 :]
            for face_up in (True, False):
                if face_up and not trains[mover].can_add(card):
                    continue
                grown = trains[mover].add(card, face_up)
                after = (grown, trains[1]) if mover == 0 else (trains[0], grown)
                result = value(turn + 1, rest, after, alpha, beta)
                if mover == 0:
                    best = result if best is None else max(best, result)
                    alpha = max(alpha, result)
                else:
                    best = result if best is None else min(best, result)
                    beta = min(beta, result)
                if prune and alpha >= beta:
                    return best
        assert best is not None  # a face-down play is always legal
        return best

    return value(0, tuple(order[:2]), (Train(), Train()), -math.inf, math.inf)


def line_score(order: Sequence[Card], line: Sequence[Play], caboose: Caboose | None) -> int:
    """Replay a line by the rules: the hand, the draws, legality; the resulting score difference."""
    hand = list(order[:2])
    trains = [Train(), Train()]
    for turn, step in enumerate(line):
        hand.append(order[2 + turn])
        hand.remove(step.card)  # the card must be in the hand
        trains[turn % 2] = trains[turn % 2].add_play(step)  # raises on an illegal face-up play
    game = score_game(trains, start_player=0, caboose=caboose)
    return game.players[0].total - game.players[1].total


def random_orders(count: int, seed: int) -> list[list[Card]]:
    deck = list(deck_for(2))
    rng = np.random.default_rng(seed)
    return [[deck[j] for j in rng.permutation(len(deck))] for _ in range(count)]


@pytest.mark.parametrize(
    "index", range(len(CABOOSES) + 1), ids=["none", *(c.name for c in CABOOSES)]
)
def test_two_round_deals_match_plain_minimax(index: int) -> None:
    caboose = None if index == 0 else CABOOSES[index - 1]
    for order in random_orders(6, seed=index):
        solution = solve_order(order, caboose=caboose, rounds=2)
        assert solution.value == plain_minimax(order, caboose, 2)
        assert plain_minimax(order, caboose, 2, prune=True) == solution.value
        assert len(solution.line) == 4
        assert line_score(order, solution.line, caboose) == solution.value


@pytest.mark.slow
def test_three_round_deals_match_plain_minimax() -> None:
    for caboose in (None, CABOOSES[0], CABOOSES[6], CABOOSES[15]):
        for order in random_orders(2, seed=5):
            solution = solve_order(order, caboose=caboose, rounds=3)
            assert solution.value == plain_minimax(order, caboose, 3, prune=True)
            assert line_score(order, solution.line, caboose) == solution.value


def test_full_deal_line_reaches_the_value() -> None:
    for order in random_orders(3, seed=11):
        solution = solve_order(order)
        assert len(solution.line) == 14
        assert line_score(order, solution.line, None) == solution.value


def test_too_short_an_order_is_refused() -> None:
    with pytest.raises(RulesError, match="needs 16 cards"):
        solve_order(list(deck_for(2))[:10])
    with pytest.raises(RulesError, match="rounds"):
        solve_order(list(deck_for(2)), rounds=0)


def game_minimax(game: Game, *, prune: bool = False) -> int:
    """Start player's total minus the other's under optimal play, through the Game's own rules.

    ``prune`` adds alpha-beta cut-offs, which leave the value unchanged (see plain_minimax).
    """

    def value(game: Game, alpha: float, beta: float) -> int:
        if game.is_terminal():
            score = game.score()
            start = game.start_player
            return score.players[start].total - score.players[1 - start].total
        maximizing = game.current_player() == game.start_player
        best: int | None = None
        for action in game.legal_actions():
            child = game.clone()
            child.apply_action(action)
            result = value(child, alpha, beta)
            if maximizing:
                best = result if best is None else max(best, result)
                alpha = max(alpha, result)
            else:
                best = result if best is None else min(best, result)
                beta = min(beta, result)
            if prune and alpha >= beta:
                return best
        assert best is not None  # a game not over has a legal action
        return best

    return value(game, -math.inf, math.inf)


def test_pruned_game_minimax_agrees_with_the_unpruned_one() -> None:
    for i, order in enumerate(random_orders(4, seed=25)):
        caboose = CABOOSES[i * 5] if i % 2 else None
        game = Game(2, order=order, rounds=2, caboose=caboose, start_player=i % 2)
        assert game_minimax(game, prune=True) == game_minimax(game)


@pytest.mark.slow
@pytest.mark.parametrize("start_player", [0, 1])
def test_solve_deal_from_any_turn_matches_the_games_own_minimax(start_player: int) -> None:
    rng = np.random.default_rng(start_player)
    for i, order in enumerate(random_orders(8, seed=20 + start_player)):
        caboose = CABOOSES[i % len(CABOOSES)] if i % 2 else None
        game = Game(2, order=order, rounds=3, caboose=caboose, start_player=start_player)
        for _ in range(int(rng.integers(0, 4))):  # a few random plays first
            legal = game.legal_actions()
            game.apply_action(legal[int(rng.integers(len(legal)))])
        solution = solve_deal(game)
        assert solution.value == game_minimax(game, prune=True)
        for step in solution.line:  # the line is legal and reaches the value
            game.apply_action(step)
        assert game.is_terminal() and solve_deal(game).value == solution.value


def test_solve_deal_agrees_with_solve_order_on_full_deals() -> None:
    for order in random_orders(2, seed=31):
        assert solve_deal(Game(2, order=order)).value == solve_order(order).value


def test_perfect_players_reach_the_value_and_beat_random_play() -> None:
    for seed, order in enumerate(random_orders(3, seed=41)):
        value = solve_deal(Game(2, order=order, rounds=4)).value
        perfect = PerfectPolicy(tuple(order))
        both = play(Game(2, order=order, rounds=4), [perfect, perfect], seed=seed)
        score = both.score()
        assert score.players[0].total - score.players[1].total == value
        # Against any opponent the perfect start player gets at least the value, and a perfect
        # second player holds the start player to at most the value.
        first = play(Game(2, order=order, rounds=4), [perfect, RandomPolicy()], seed=seed).score()
        assert first.players[0].total - first.players[1].total >= value
        second = play(Game(2, order=order, rounds=4), [RandomPolicy(), perfect], seed=seed).score()
        assert second.players[0].total - second.players[1].total <= value


def test_solve_deal_refuses_what_it_cannot_solve() -> None:
    with pytest.raises(RulesError, match="two-player"):
        solve_deal(Game(3, order=list(deck_for(3))))
    with pytest.raises(RulesError, match="deck order"):
        solve_deal(Game(2))
    with pytest.raises(TypeError, match="express.Game"):
        solve_deal("B2|B2")  # type: ignore[arg-type]


def run_express(*argv: str) -> subprocess.CompletedProcess[str]:
    """``express ARGV`` called in-process (its exit status and what it printed)."""
    from express.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return subprocess.CompletedProcess(["express", *argv], code, out.getvalue(), err.getvalue())


def test_solve_command_prints_the_value_and_a_line_that_reaches_it(tmp_path: Path) -> None:
    order = random_orders(1, seed=3)[0]
    deck_file = tmp_path / "order.txt"
    deck_file.write_text(
        "; an order, top card first\n" + "\n".join(str(card) for card in order) + "\n"
    )
    done = run_express(
        "solve", "--order", str(deck_file), "--rounds", "3", "--caboose", "End of Line", "--json"
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    expected = solve_order(order, caboose=CABOOSES[13], rounds=3).value
    assert CABOOSES[13].name == "End of Line" and data["value"] == expected
    plays = [Play.parse(text) for text in data["line"]]
    assert line_score(order, plays, CABOOSES[13]) == expected
    text = run_express("solve", "--seed", "4", "--rounds", "2")
    assert text.returncode == 0 and "value (player 0's score minus player 1's" in text.stdout


@pytest.mark.parametrize(
    ("argv", "quoted"),
    [
        (("solve", "--seed", "-1"), "-1"),
        (("solve", "--caboose", "random"), "random"),
        (("solve", "--caboose", "Sequence 9"), "Sequence 9"),
        (("solve", "--rounds", "0"), "0"),
        (("solve", "--order", "/no/such/file"), "/no/such/file"),
        (("solve", "--rounds", "12"), "12"),
    ],
)
def test_solve_command_bad_input_is_one_line(argv: tuple[str, ...], quoted: str) -> None:
    done = run_express(*argv)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and quoted in done.stderr
    as_json = run_express(*argv, "--json")
    assert as_json.returncode == 2 and quoted in json.loads(as_json.stdout)["error"]


def test_the_perfect_bot_needs_the_order() -> None:
    order = random_orders(1, seed=11)[0]
    perfect = bot("perfect", order=order)
    assert perfect == PerfectPolicy(tuple(order)) and perfect.name == "perfect"
    # Against itself it plays a line worth the deal's value, found by the plain minimax.
    game = play(Game(2, order=order, rounds=2), [perfect, perfect], seed=0)
    score = game.score()
    assert score.players[0].total - score.players[1].total == plain_minimax(order, None, 2)
    with pytest.raises(ExpressError, match="deck order"):
        bot("perfect")
