"""The two games stay one kit: the names both export for the same job have the same signatures,
the subcommands both command lines have take their shared options the same way, numbers are
read by one rule, and bots given by name are seated alike. A drift in one game fails here; the
checkers themselves are tried on deliberately drifted pairs at the end."""

from __future__ import annotations

import argparse
import inspect
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pytest

import arena
import express
import packing
from express.cli import build_parser as express_parser
from express.cli import main as express_main
from packing.cli import build_parser as packing_parser
from packing.cli import main as packing_main

#: The names both packages export for the same job. Each game's own words (Truck, Card, ...) and
#: its root error (PackingError, ExpressError) are its own.
SHARED_NAMES = (
    "BOT_NAMES",
    "Game",
    "Observation",
    "ParseError",
    "bot",
    "format_deck",
    "gym_env",
    "load_deck",
    "parse_deck",
    "save_deck",
    "tournament",
)

#: Parameters a game adds to a shared function for its own rules (the deck of trucks, the
#: strategic variant, a caboose): compared only where both games have them.
OWN_PARAMETERS = {"deck", "start_points", "match", "caboose", "with_hindsight"}


def _parameters(function: Callable[..., Any]) -> tuple[object, ...]:
    """The positional parameters' kinds (their names are each game's words: ``trucks``,
    ``cards``), then each keyword parameter's name, kind and whether it is required."""
    found = inspect.signature(function).parameters.values()
    positional = [p for p in found if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return (
        tuple((p.kind, p.default is p.empty) for p in positional),
        {
            p.name: (p.kind, p.default is p.empty)
            for p in found
            if p not in positional and p.name not in OWN_PARAMETERS
        },
    )


def signature_drift(first: object, second: object, names: Iterable[str]) -> list[str]:
    """What differs between the shared names of two packages: a name one lacks, or a function
    whose parameters (names, kinds, required or not) differ, or whose return type differs in
    kind (a class in one, a function in the other)."""
    problems = []
    for name in names:
        a, b = getattr(first, name, None), getattr(second, name, None)
        if a is None or b is None:
            problems.append(f"{name}: exported by one game only")
        elif inspect.isclass(a) != inspect.isclass(b):
            problems.append(f"{name}: a class in one game, not in the other")
        elif callable(a) and not inspect.isclass(a) and _parameters(a) != _parameters(b):
            problems.append(f"{name}: {inspect.signature(a)} != {inspect.signature(b)}")
    return problems


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    return {name: action for action in parser._actions for name in action.option_strings}


def option_drift(
    first: Mapping[str, argparse.ArgumentParser], second: Mapping[str, argparse.ArgumentParser]
) -> list[str]:
    """Options both games' same subcommand takes, read differently: another metavar, another
    reader of the value, another action (defaults may differ: each game has its own)."""
    problems = []
    for command in sorted(set(first) & set(second)):
        a, b = _options(first[command]), _options(second[command])
        for name in sorted(set(a) & set(b)):
            left, right = a[name], b[name]
            if (left.metavar, left.type, type(left)) != (right.metavar, right.type, type(right)):
                problems.append(
                    f"{command} {name}: metavar {left.metavar!r} / {right.metavar!r}, "
                    f"type {left.type!r} / {right.type!r}"
                )
    return problems


# --- the two games ------------------------------------------------------------------------------


def test_the_shared_names_have_the_same_signatures() -> None:
    assert signature_drift(packing, express, SHARED_NAMES) == []


def test_both_games_print_a_game_alike() -> None:
    # What each play command prints, and what each environment renders.
    import express.report
    import packing.report

    assert signature_drift(packing.report, express.report, ["play_text"]) == []


def test_both_bot_factories_hand_out_arena_policies() -> None:
    for game in (packing, express):
        assert inspect.signature(game.bot).return_annotation in ("Policy", arena.Policy)
        assert isinstance(game.bot("random"), arena.Policy)


def test_the_shared_subcommands_read_their_shared_options_alike() -> None:
    packing_commands = subcommands(packing_parser())
    express_commands = subcommands(express_parser())
    assert {"play", "tournament", "best", "solve", "deck"} <= set(packing_commands) & set(
        express_commands
    )
    assert option_drift(packing_commands, express_commands) == []
    # The options every tournament takes are there in both, not only alike where present.
    for commands in (packing_commands, express_commands):
        taken = _options(commands["tournament"])
        for option in ("--players", "--games", "--seed", "--workers", "--checkpoint", "--json"):
            assert option in taken, option


@pytest.mark.parametrize(
    ("packing_argv", "express_argv", "typed"),
    [
        (
            ["solve", "--roll", "1,0,0,0,0", "--truck", "#", "--time-limit", "1_0"],
            ["best", "--length", "2", "--time-limit", "1_0"],
            "'1_0'",
        ),
        (["tournament", "--games", "1_000"], ["tournament", "--games", "1_000"], "'1_000'"),
        (["play", "--seed", "٣"], ["play", "--seed", "٣"], "'٣'"),
    ],
)
def test_numbers_are_read_by_one_rule_in_both_command_lines(
    capsys: pytest.CaptureFixture[str], packing_argv: list[str], express_argv: list[str], typed: str
) -> None:
    for main, argv in ((packing_main, packing_argv), (express_main, express_argv)):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) <= 2 and typed in err[-1], err  # usage line, then the one quoting line


def test_bots_named_twice_are_seated_alike_in_both_games() -> None:
    players = ["random", "random", "random"]
    expected = arena.seat_labels(players)
    assert expected == ("random", "random#2", "random#3")
    for result in (
        packing.tournament(players, games=1, seed=1, records=True),
        express.tournament(players, games=1, seed=1, records=True),
    ):
        assert result.policies == expected
        assert sorted({seat for record in result.records for seat in record.seating}) == sorted(
            expected
        )


# --- the checkers on drifted pairs --------------------------------------------------------------


def test_the_signature_checker_sees_a_drift() -> None:
    class One:
        @staticmethod
        def load_deck(path: str) -> None: ...

        @staticmethod
        def save_deck(items: object, path: str) -> None: ...

    class Other:
        @staticmethod
        def load_deck(path: str, *, strict: bool) -> None: ...

        @staticmethod
        def save_deck(things: object, path: str) -> None: ...

    assert signature_drift(One, One, ["load_deck"]) == []
    assert signature_drift(One, Other, ["load_deck"]) == [
        "load_deck: (path: 'str') -> 'None' != (path: 'str', *, strict: 'bool') -> 'None'"
    ]
    assert signature_drift(One, Other, ["parse_deck"]) == ["parse_deck: exported by one game only"]
    assert signature_drift(One, Other, ["save_deck"]) == []  # positional names are the game's


def test_the_option_checker_sees_a_drift() -> None:
    def command(metavar: str, reader: Callable[[str], Any]) -> dict[str, argparse.ArgumentParser]:
        parser = argparse.ArgumentParser()
        parser.add_argument("--seed", metavar=metavar, type=reader)
        return {"play": parser}

    assert option_drift(command("N", int), command("N", int)) == []
    assert option_drift(command("N", int), command("SEED", int))
    assert option_drift(command("N", int), command("N", float))
