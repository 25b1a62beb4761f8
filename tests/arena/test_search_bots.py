"""OpenSpiel's search bots need two simulations per decision: in both games one is refused in
one line, from the Python API and from ``play`` and ``tournament``, and two play a game."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

import pytest

import express  # noqa: E402
import express.cli  # noqa: E402
import packing  # noqa: E402
import packing.cli  # noqa: E402
from arena import play  # noqa: E402
from arena.search_bots import MIN_SIMULATIONS  # noqa: E402

Main = Callable[[Sequence[str]], int]


def test_the_minimum_is_two() -> None:
    assert MIN_SIMULATIONS == 2


@pytest.mark.parametrize(
    ("make", "error"),
    [
        (lambda: express.bot("mcts", simulations=1), express.ExpressError),
        (lambda: express.bot("ismcts", simulations=1), express.ExpressError),
        (lambda: packing.bot("mcts", simulations=1), packing.PackingError),
    ],
    ids=["express-mcts", "express-ismcts", "packing-mcts"],
)
def test_one_simulation_is_refused_by_the_api(make: Callable[[], object], error: type) -> None:
    with pytest.raises(error, match=r"invalid simulations: 1 \(a whole number ≥ 2\)"):
        make()


@pytest.mark.parametrize("search", ["mcts", "ismcts"])
def test_two_simulations_play_an_express_game(search: str) -> None:
    game = express.Game(2, rounds=2)
    play(game, [express.bot(search, simulations=2), express.bot("random")], 5)
    assert game.is_terminal()


def test_two_simulations_play_a_packing_game() -> None:
    state = packing.play_game([packing.bot("mcts", simulations=2), packing.bot("random")], seed=5)
    assert state.is_terminal()


def _run(main: Main, capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


CASES = [
    (express.cli.main, ["play", "--players", "mcts,random"]),
    (express.cli.main, ["play", "--players", "random,ismcts"]),
    (express.cli.main, ["tournament", "--players", "mcts,random", "--games", "1"]),
    (express.cli.main, ["tournament", "--players", "ismcts,greedy", "--games", "1"]),
    (packing.cli.main, ["play", "--players", "mcts,random"]),
    (packing.cli.main, ["tournament", "--players", "mcts,random", "--games", "1"]),
]
IDS = [
    "express-play",
    "express-play-ismcts",
    "express-tournament",
    "express-tournament-ismcts",
    "packing-play",
    "packing-tournament",
]


@pytest.mark.parametrize(("main", "argv"), CASES, ids=IDS)
def test_one_simulation_on_the_command_line_is_one_line_and_status_2(
    main: Main, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(main, capsys, [*argv, "--simulations", "1"])
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and "error: " in lines[0] and "1" in lines[0], lines
    assert "simulations" in lines[0] and "Traceback" not in err
    code, out, err = _run(main, capsys, [*argv, "--simulations", "1", "--json"])
    assert code == 2 and err == ""
    assert "simulations" in json.loads(out)["error"]


def test_two_simulations_on_the_command_line_play(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "--players", "mcts,ismcts", "--rounds", "2", "--simulations", "2", "--json"]
    code, out, _ = _run(express.cli.main, capsys, argv)
    assert code == 0 and json.loads(out)["players"] == ["mcts", "ismcts"]
    code, out, _ = _run(
        packing.cli.main, capsys, ["play", "--players", "mcts,random", "--simulations", "2"]
    )
    assert code == 0 and "game over" in out
