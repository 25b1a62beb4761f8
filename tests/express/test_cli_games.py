"""express play / express tournament: output, JSON, reproducibility, one-line errors (exit 2)."""

from __future__ import annotations

import json

import pytest

from arena import play
from express import Game, Train, bot
from express.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_play_prints_the_game_turn_by_turn(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys,
        "play",
        "--players",
        "search,greedy,random",
        "--seed",
        "1",
        "--caboose",
        "Lightweight",
    )
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith(
        "Yardmaster Express, 3 players (search, greedy, random), seed 1, caboose Lightweight"
    )
    assert sum(1 for line in lines if line.startswith("round ")) == 6
    assert sum(1 for line in lines if "-> plays" in line) == 18
    assert any(line.strip().startswith("0* search  engine > ") for line in lines)
    assert (
        "final scoring" in out
        and "longest run" in out
        and "caboose Lightweight (6" in out
        and "winner: player" in out
    )
    # The same game as the API plays it, and the same output again.
    game = play(
        Game(3, caboose="Lightweight"), [bot("search"), bot("greedy"), bot("random")], seed=1
    )
    for seat, train in enumerate(game.trains):
        assert f"  {train}" in out
        assert any(
            line.endswith(str(train)) and line.strip().startswith(str(seat)) for line in lines
        )
    assert (
        run(
            capsys,
            "play",
            "--players",
            "search,greedy,random",
            "--seed",
            "1",
            "--caboose",
            "Lightweight",
        )[1]
        == out
    )


def test_face_down_cards_show_as_a_back_in_the_rows(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "--players", "random,random", "--seed", "2")
    game = play(Game(2), [bot("random"), bot("random")], seed=2)
    assert code == 0 and any(not p.face_up for t in game.trains for p in t.plays)
    assert " > ~" in out


def test_play_json_and_hindsight(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "play",
        "--players",
        "greedy,random",
        "--seed",
        "3",
        "--caboose",
        "random",
        "--rounds",
        "3",
        "--hindsight",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["players"] == ["greedy", "random"]
    assert len(data["turns"]) == 6 and data["caboose"] is not None
    assert [Train.parse(t).value for t in data["trains"]] == [
        p["value"] for p in data["score"]["players"]
    ]
    assert [h["gap"] for h in data["hindsight"]] == [
        h["best"]["score"] - h["solo"] for h in data["hindsight"]
    ]
    code, out, _ = run(capsys, "play", "--players", "greedy,greedy", "--seed", "3", "--json")
    assert json.loads(out)["players"] == ["greedy", "greedy#2"]


def test_tournament_table_and_what_decided(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "tournament",
        "--players",
        "greedy,random,random",
        "--games",
        "4",
        "--seed",
        "1",
        "--caboose",
        "random",
    )
    assert code == 0
    assert "4 deals x 3 seatings = 12 games (seed 1, batched engine)" in out and "random#2" in out
    assert "the longest-run award decided the winner in " in out and "of 12 games" in out
    assert "the caboose decided the winner in " in out
    code, out, _ = run(
        capsys,
        "tournament",
        "--players",
        "search,greedy",
        "--games",
        "2",
        "--seed",
        "1",
        "--match",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["match"] is True and data["games"] == 4
    assert data["decided"]["games"] == 4 and 0 <= data["decided"]["run_award"] <= 4
    assert {s["name"] for s in data["stats"]} == {"search", "greedy"}


@pytest.mark.parametrize(
    ("argv", "quoted"),
    [
        (["play", "--players", "search,clever"], "'clever'"),
        (["play", "--players", "search"], "'search'"),
        (
            ["play", "--players", "random,random,random,random,random,random"],
            "'random,random,random,random,random,random'",
        ),
        (["play", "--players", "random,random", "--caboose", "Red Caboose"], "'Red Caboose'"),
        (["play", "--players", "random,random", "--rounds", "0"], "0"),
        (["play", "--players", "random,random", "--rounds", "12"], "12"),
        (["play", "--players", "random,random", "--seed", "-1"], "'-1'"),
        (["play", "--players", "perfect,random"], "express solve"),
        (["play", "--players", "random,,random"], "'random,,random'"),
        (["play", "--players", "random,random", "--simulations", "0"], "'0'"),
        (["play", "--players", "random,random", "--seed", "one"], "'one'"),
        (
            ["tournament", "--players", "random,greedy", "--games", "0"],
            "--games: invalid value '0'",
        ),
        (["tournament", "--players", "random,greedy", "--games", "2", "--seed", "-3"], "-3"),
        (
            ["tournament", "--players", "random,greedy", "--games", "2", "--workers", "0"],
            "--workers: invalid value '0'",
        ),
        (["tournament", "--players", "random,dumb", "--games", "2"], "'dumb'"),
        (["tournament", "--players", "random,greedy", "--caboose", "nope", "--match"], "'nope'"),
    ],
)
def test_bad_input_is_one_line_quoting_it_with_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], quoted: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2, err
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and quoted in lines[0] and "Traceback" not in err


def test_a_library_tournament_by_bot_names_is_the_command_s() -> None:
    """``express.tournament(players=[names])`` is what ``express tournament`` runs."""
    import express

    result = express.tournament(["greedy", "greedy", "random"], games=2, seed=4)
    assert result.policies == ("greedy", "greedy#2", "random")
    counts = express.decided(result)
    assert counts.games == 6 and 0 <= counts.run_award <= 6
