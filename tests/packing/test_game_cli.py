"""``packing play`` and ``packing tournament``: output, JSON, one-line errors with exit status 2."""

from __future__ import annotations

import json

import pytest

from packing import Cargo, bot, play_game
from packing.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_play_prints_the_game_round_by_round(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "play", "--players", "optimal,capacity,greedy-loader,random", "--seed", "1"
    )
    state = play_game([bot(n) for n in ("optimal", "capacity", "greedy-loader", "random")], seed=1)
    assert code == 0
    assert out.count("\nround ") == len(state.round_records)
    first = state.round_records[0]
    assert (
        f"rolls {first.cargos[0]}" in out
        and "grab order: " + ", ".join(f"P{p}" for p in first.grab_order) in out
    )
    assert "standings: " + ", ".join(f"P{p} {x}" for p, x in enumerate(state.points)) in out
    assert (
        out.rstrip()
        .splitlines()[-1]
        .startswith(f"game over after {len(state.round_records)} rounds")
    )


def test_play_json_gives_the_records(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "--players", "optimal,bonus-aware", "--seed", "3", "--json")
    data = json.loads(out)
    state = play_game([bot("optimal"), bot("bonus-aware")], seed=3)
    assert code == 0 and data["players"] == ["optimal", "bonus-aware"]
    assert data["points"] == list(state.points) and data["winners"] == sorted(state.winners())
    assert [r["penalties"] for r in data["rounds"]] == [
        list(r.penalties) for r in state.round_records
    ]
    first = data["rounds"][0]
    assert Cargo(first["cargos"][0]) == state.round_records[0].cargos[0]
    assert set(first) == {
        "number",
        "first_roller",
        "cargos",
        "revealed",
        "grab_order",
        "taken",
        "sources",
        "plans",
        "penalties",
        "bonus",
        "points",
    }


@pytest.mark.parametrize(
    ("argv", "quoted"),
    [
        (["play", "--players", "optimal"], "'optimal'"),
        (["play", "--players", "optimal,fastest"], "'fastest'"),
        (["play", "--players", ",".join(["random"] * 7)], "names 7 players"),
        (["play", "--players", "optimal,,random"], "'optimal,,random'"),
        (["play", "--players", "optimal,random", "--seed", "-4"], "'-4'"),
        (["play", "--players", "optimal,ismcts"], "perfect information"),
        (["play", "--players", "optimal,random", "--seed", "x"], "'x'"),
        (
            ["play", "--players", "optimal,random", "--deck", "/no/such/deck.txt"],
            "/no/such/deck.txt",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], quoted: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert quoted in err
    assert out == ""


def test_tournament_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "tournament", "--players", "optimal,random,capacity", "--games", "4", "--seed", "2"
    )
    assert code == 0
    assert out.startswith("4 deals x 3 seatings = 12 games (seed 2, batched engine)")
    assert all(name in out for name in ("optimal", "random", "capacity", "win rate", "rating"))


def test_tournament_json_seats_a_bot_twice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "tournament",
        "--players",
        "optimal,optimal",
        "--games",
        "3",
        "--seed",
        "1",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["policies"] == ["optimal", "optimal#2"] and data["games"] == 6
    assert sum(s["wins"] for s in data["stats"]) == pytest.approx(6)


@pytest.mark.parametrize(
    ("argv", "quoted"),
    [
        (
            ["tournament", "--players", "optimal,random", "--games", "0"],
            "--games: invalid value '0'",
        ),
        (
            ["tournament", "--players", "optimal,random", "--workers", "0"],
            "--workers: invalid value '0'",
        ),
        (["tournament", "--players", "optimal,random", "--simulations", "0"], "'0'"),
        (["tournament", "--players", "optimal,wizard"], "'wizard'"),
        (["tournament", "--players", "random"], "'random'"),
        (["tournament", "--players", "optimal,random", "--seed", "-1"], "'-1'"),
        (["tournament", "--players", "optimal,random", "--games", "many"], "'many'"),
    ],
)
def test_tournament_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], quoted: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert quoted in err and out == ""


def test_play_labels_a_bot_named_twice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "--players", "random,random", "--seed", "2", "--json")
    assert code == 0 and json.loads(out)["players"] == ["random", "random#2"]
    code, out, _ = run(capsys, "play", "--players", "random,random", "--seed", "2")
    assert code == 0 and "players: P0 random, P1 random#2" in out
