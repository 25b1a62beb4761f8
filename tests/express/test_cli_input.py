"""Careless and hostile input to every ``express`` command and the express API: one line that
quotes it and status 2 (a JSON ``error`` under ``--json``), never a traceback, never nonsense
accepted; and every subcommand's ``--help`` explains itself."""

from __future__ import annotations

import argparse
import errno
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from arena import ArenaError
from arena.cli import EXIT_FAILURE
from express import (
    DECK,
    ExpressError,
    Game,
    Match,
    Observation,
    RulesError,
    Train,
    bot,
    decided,
    deck_for,
    format_cards,
    format_deck,
    save_deck,
    score_game,
    solve_order,
    tournament,
)
from express.cli import build_parser, main
from tests.cli import Run

ROOT = Path(__file__).resolve().parents[2]


def refused(express: Run, argv: list[str], quoted: str) -> None:
    """``argv`` fails in one line holding ``quoted``, status 2, and as one JSON error."""
    done = express(*argv)
    assert done.returncode == 2, (argv, done)
    lines = done.stderr.splitlines()
    assert done.stdout == "" and len(lines) == 1, (argv, done)
    assert lines[0].startswith("express: error: ") and quoted in lines[0], (argv, lines)
    assert "\x1b" not in done.stderr  # an escape code in the input is quoted, never sent raw
    done = express(*argv, "--json")
    assert done.returncode == 2 and done.stderr == "", (argv, done)
    assert quoted in json.loads(done.stdout)["error"]


# --- --help (tests/arena/test_cli_help.py walks every subcommand's) ----------------------------


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("express has no subcommands")


def test_the_subcommands_are_the_known_ones() -> None:
    assert set(_subcommands()) == {
        "best",
        "score",
        "cabooses",
        "deck",
        "play",
        "tournament",
        "solve",
        "advise",
    }


@pytest.mark.parametrize(
    "argv",
    [
        ["best", "--length", "2", "--cards", "R3|G3,R4|B4,B4|G4,G4|Y4", "--start", "R3|G3"],
        ["deck", "--players", "2"],
        ["cabooses"],
        ["solve", "--seed", "3", "--rounds", "4", "--caboose", "Lightweight", "--json"],
    ],
)
def test_the_quick_examples_run(argv: list[str], express: Run) -> None:
    assert express(*argv).returncode == 0


# --- numbers: the digits 0-9 only ---------------------------------------------------------------

NUMBER_OPTIONS: list[tuple[list[str], str]] = [
    (["best"], "--length"),
    (["best", "--length", "3"], "--players"),
    (["best", "--length", "3"], "--node-limit"),
    (["best", "--length", "3"], "--time-limit"),
    (["score", "--train", "", "--train", ""], "--start-player"),
    (["deck"], "--players"),
    (["play", "--players", "random,random"], "--seed"),
    (["play", "--players", "random,random"], "--rounds"),
    (["play", "--players", "random,random"], "--simulations"),
    (["tournament", "--players", "random,random"], "--games"),
    (["tournament", "--players", "random,random"], "--seed"),
    (["tournament", "--players", "random,random"], "--simulations"),
    (["solve"], "--seed"),
    (["solve"], "--rounds"),
    (["advise"], "--players"),
    (["advise"], "--seat"),
    (["advise"], "--round"),
    (["advise"], "--start-player"),
    (["advise"], "--rounds"),
    (["advise"], "--worlds"),
    (["advise"], "--time-limit"),
    (["advise"], "--seed"),
]


@pytest.mark.parametrize("text", ["٣", "３", "1_0", "", " ", "3x"])
@pytest.mark.parametrize(("argv", "option"), NUMBER_OPTIONS)
def test_numbers_are_ascii_digits(argv: list[str], option: str, text: str, express: Run) -> None:
    refused(express, [*argv, option, text], f"argument {option}: invalid ")
    refused(express, [*argv, option, text], f" {text!r}: ")


def test_huge_numbers_are_one_line(express: Run) -> None:
    huge = "1" + "0" * 30
    refused(express, ["best", "--length", huge], huge)
    refused(express, ["score", "--train", "", "--train", "", "--start-player", huge], huge)
    refused(express, ["play", "--players", "random,random", "--rounds", huge], huge)
    refused(express, ["solve", "--rounds", huge], huge)
    refused(express, ["deck", "--players", huge], huge)


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--players", "random,random"],
        ["tournament", "--players", "random,random", "--games", "1"],
        ["solve"],
    ],
)
def test_a_negative_seed_is_refused_everywhere(argv: list[str], express: Run) -> None:
    refused(express, [*argv, "--seed", "-1"], "'-1'")


def test_the_api_refuses_a_negative_seed_and_no_workers() -> None:
    with pytest.raises(ArenaError, match="invalid seed -1: a seed is a whole number, 0 or more"):
        tournament(["random", "random"], games=1, seed=-1)
    with pytest.raises(ArenaError, match=r"invalid worker count 0 \(at least 1\)"):
        tournament(["random", "random"], games=1, seed=0, workers=0)


# --- cards and trains --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command", [["best", "--length", "1"], ["score", "--train", "", "--train", ""]]
)
def test_cards_with_a_semicolon_are_refused_not_cut(command: list[str], express: Run) -> None:
    refused(express, [*command, "--cards", "R4|B4;B4|G4;G4|Y4"], "'R4|B4;B4|G4;G4|Y4'")
    refused(express, [*command, "--cards", "R4|B4;B4|G4;G4|Y4"], "separate cards with commas")


@pytest.mark.parametrize("text", ["", "  ", ",", "\n"])
def test_cards_without_a_card_are_refused(text: str, express: Run) -> None:
    refused(express, ["best", "--length", "0", "--cards", text], f"--cards {text!r} holds no card")


def test_one_train_is_no_game(express: Run) -> None:
    refused(express, ["score", "--train", "R4|B4"], "too few trains: 1 (--train 'R4|B4')")
    refused(express, ["score", "--train", ""], "--train ''")
    with pytest.raises(RulesError, match="too few trains: 1"):
        score_game([Train.parse("R4|B4")])
    assert len(score_game([Train(), Train()]).players) == 2


@pytest.mark.parametrize(
    ("argv", "quoted"),
    [
        (["best", "--length", "3", "--caboose", "\x1b[2J"], r"'\x1b[2J'"),
        (["best", "--length", "3", "--start", "R4|B4\x1b[31m"], r"\x1b[31m"),
        (["score", "--train", "\x1b[31mR4|B4", "--train", ""], r"\x1b[31m"),
        (["play", "--players", "random,random", "--caboose", "Lightweight\nX"], r"\n"),
        (["play", "--players", "random,\x1b[1mgreedy"], r"\x1b[1m"),
        (["best", "--length", "3", "--cards", "Ｒ4|B4"], "'Ｒ4'"),
        (["best", "--length", "3", "--cards", "R٣|B4"], "'R٣'"),
        (["solve", "--caboose", ""], "''"),
        (["play", "--players", "random,random", "--caboose", "nobody"], "'nobody'"),
        (["best", "--length", "1", "--deck", "/dev/zero"], "'/dev/zero'"),
        (["solve", "--order", "/dev/zero"], "'/dev/zero'"),
        (["best", "--length", "1", "--deck", ""], "''"),
        (["best", "--length", "12", "--cards", "R4|B4"], "12 (larger than the pool of 1 card)"),
    ],
)
def test_hostile_text_is_quoted_safely(argv: list[str], quoted: str, express: Run) -> None:
    refused(express, argv, quoted)


# --- output that cannot be written ---------------------------------------------------------------


class FullDisk(io.StringIO):
    """A standard output on a full disk."""

    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_full_stdout_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdout", FullDisk())
    assert main(["deck"]) == EXIT_FAILURE
    err = capsys.readouterr().err
    assert err == f"express: error: cannot write the output: {os.strerror(errno.ENOSPC)}\n"


def _express(*argv: str, stdout: int | None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "express", *argv],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_dev_full_in_a_real_process() -> None:
    with open("/dev/full", "w") as full:
        done = _express("best", "--length", "3", stdout=full.fileno())
    assert done.returncode == EXIT_FAILURE
    assert done.stderr == "express: error: cannot write the output: No space left on device\n"


def test_a_reader_that_went_away_is_not_an_error() -> None:
    read, write = os.pipe()
    os.close(read)  # like `express cabooses | head -c1` once head has exited
    try:
        done = _express("cabooses", stdout=write)
    finally:
        os.close(write)
    assert done.returncode == 0 and done.stderr == ""


# --- the Python API ------------------------------------------------------------------------------


@pytest.mark.parametrize("player", [2, -1, 10**9])
def test_an_observation_of_a_player_who_does_not_exist(player: int) -> None:
    game = Game(2)
    with pytest.raises(RulesError, match=f"invalid player: {player}"):
        game.observation(player)
    with pytest.raises(RulesError, match=f"invalid player: {player}"):
        game.seen_cards(player)
    with pytest.raises(RulesError, match=f"invalid player: {player}"):
        Match(2).observation(player)
    fields = vars(game.observation(0))
    with pytest.raises(RulesError, match=f"player {player} does not exist in a 2-player game"):
        Observation(**(fields | {"player": player}))


@pytest.mark.parametrize("player", [True, "0", 1.0, None])
def test_a_player_is_an_int(player: object) -> None:
    with pytest.raises(TypeError, match="player must be a whole number"):
        Game(2).observation(player)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="player must be a whole number"):
        Game(2).seen_cards(player)  # type: ignore[arg-type]


def test_an_observation_checks_its_seats() -> None:
    fields = vars(Game(3).observation(1))
    with pytest.raises(RulesError, match="invalid observation: 7 players"):
        Observation(**(fields | {"players": 7}))
    with pytest.raises(RulesError, match="start player 3 does not exist"):
        Observation(**(fields | {"start_player": 3}))
    with pytest.raises(RulesError, match="2 trains for 3 players"):
        Observation(**(fields | {"trains": fields["trains"][:2]}))
    assert Observation(**fields) == Game(3).observation(1)


def test_an_observation_still_works_for_the_bots() -> None:
    game = Game(2, order="B2|B2,R2|R2,B2|B3,R2|R3,Y2|Y2,G2|G2", rounds=2)
    seen = game.observation(game.current_player())

    card = bot("greedy").act(seen, game.legal_actions(), np.random.default_rng(0))
    assert card in game.legal_actions()


def test_save_deck_refuses_what_load_deck_would_refuse(tmp_path: Path) -> None:
    path = tmp_path / "empty.deck"
    with pytest.raises(ExpressError, match="save_deck: no card to write to"):
        save_deck([], path)
    assert not path.exists()
    save_deck(DECK[:1], path)
    assert path.read_text(encoding="utf-8").startswith("B2|B2")


def test_an_order_of_one_card_is_one_card() -> None:
    with pytest.raises(RulesError, match="has 1 card, the game uses 16"):
        Game(2, order="B2|B2")


def test_text_where_cards_are_expected_is_refused_whole(tmp_path: Path) -> None:
    path = tmp_path / "deck.txt"
    text: Any = "R4|B4"  # what a caller means as cards, but deck text
    with pytest.raises(TypeError, match=r"save_deck: cards must be Card values .* not str"):
        save_deck(text, path)
    with pytest.raises(TypeError, match=r"format_deck: cards must be Card values .* 'R4\|B4'"):
        format_deck(text)
    with pytest.raises(TypeError, match="format_cards: cards"):
        format_cards(text)
    assert not path.exists()


def test_solve_order_and_decided_check_their_arguments() -> None:
    with pytest.raises(TypeError, match="solve_order: caboose must be a Caboose or None"):
        solve_order(deck_for(2), caboose="Lightweight", rounds=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="solve_order: rounds must be a whole number"):
        solve_order(deck_for(2), rounds=True)
    with pytest.raises(TypeError, match="decided needs a tournament's result"):
        decided("a result")  # type: ignore[arg-type]


# --- Ctrl-C --------------------------------------------------------------------------------------


class Impatient:
    """A random bot that is interrupted (Ctrl-C) at its ``after``-th decision."""

    def __init__(self, after: int) -> None:
        self.inner = bot("random")
        self.name = "random"
        self.left = after

    def act(self, observation: Any, legal: Any, rng: np.random.Generator) -> Any:
        self.left -= 1
        if self.left == 0:
            raise KeyboardInterrupt
        return self.inner.act(observation, legal, rng)


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
@pytest.mark.parametrize("after", [1, 60])
def test_an_interrupted_tournament_exits_130_and_says_what_it_covers(
    after: int, json_flag: list[str], monkeypatch: pytest.MonkeyPatch, express: Run
) -> None:
    # express.tournament is also the name of the function the package exports.
    module: Any = sys.modules["express.tournament"]
    made = module.bot
    monkeypatch.setattr(
        module, "bot", lambda name, **o: Impatient(after) if name == "random" else made(name, **o)
    )
    done = express("tournament", "--players", "greedy,random", "--games", "50", *json_flag)
    assert done.returncode == 130 and "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("express: interrupted: "), lines
    # Both games' rule (arena.cli.run_tournament): no partial table, how many deals finished
    # and how to keep them.
    assert done.stdout == ""
    finished = int(lines[0].split("interrupted: ")[1].split(" of 50")[0])
    assert (finished == 0) if after == 1 else (0 <= finished < 50)
    assert "--checkpoint FILE keeps them" in lines[0]


def test_a_file_name_with_an_escape_code_is_shown_quoted(tmp_path: Path, express: Run) -> None:
    deck = tmp_path / "a\x1b[2Jb.deck"
    save_deck(deck_for(2), deck)
    done = express("best", "--length", "2", "--deck", str(deck))
    assert done.returncode == 0 and "\x1b" not in done.stdout
    assert repr(str(deck)) in done.stdout
    done = express("solve", "--order", str(deck), "--rounds", "2")
    assert done.returncode == 0 and "\x1b" not in done.stdout
    assert repr(str(deck)) in done.stdout


SEVEN = "B2|B2,B2|B2,R2|R2,R2|R2,Y2|Y2,Y2|Y2,G2|G2"
TWELVE = SEVEN + ",~B2|B3,~R2|R3,~G2|G3,~Y2|Y3,~R3|G3"


def test_a_train_longer_than_the_game_is_refused(express: Run) -> None:
    three = ["--train", "", "--train", ""]
    refused(
        express, ["score", "--train", SEVEN, *three], "has 7 cards: a 3-player game of 6 rounds"
    )
    refused(
        express, ["score", "--train", TWELVE, "--train", ""], f"--train {TWELVE!r} has 12 cards"
    )
    refused(express, ["score", "--train", "", "--train", "", "--rounds", "0"], "--rounds 0")
    assert express("score", "--train", SEVEN, *three, "--rounds", "7").returncode == 0
    assert express("score", "--train", TWELVE, "--train", "", "--rounds", "12").returncode == 0


# --- counts of one read as one -----------------------------------------------------------------


def test_counts_of_one_are_singular(express: Run) -> None:
    solved = express("solve", "--rounds", "1", "--seed", "0")
    assert solved.returncode == 0 and ", 1 round, " in solved.stdout.splitlines()[0]
    best = express("best", "--length", "1", "--cards", "R4|B4")
    assert best.returncode == 0, best
    assert best.stdout.startswith("Best train of 1 card from the given 1 card:")
    assert ", 1 state searched," in best.stdout
    for done in (solved, best):
        assert not any(f"1 {noun}s" in done.stdout for noun in ("round", "card", "state"))
