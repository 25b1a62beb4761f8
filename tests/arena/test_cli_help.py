"""Both commands explain themselves: every subcommand's ``--help`` has a one-line description,
metavars that say what a value is and runnable examples; shell completion comes from shtab.

The walk over every subcommand is ``tests.cli_help.help_problems``, so a new command of either
game is checked without touching this file.
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Sequence

import pytest

import express.cli
import packing.cli
from arena.cli import (
    EXIT_USAGE,
    Parser,
    add_command,
    add_completion_option,
    all_parsers,
    attach_values,
    derive_metavars,
    seconds,
    seed,
    whole_number,
)
from tests.cli_help import examples_of, help_problems

PARSERS: dict[str, Callable[[], argparse.ArgumentParser]] = {
    "packing": packing.cli.build_parser,
    "express": express.cli.build_parser,
}
MAINS: dict[str, Callable[[Sequence[str] | None], int]] = {
    "packing": packing.cli.main,
    "express": express.cli.main,
}


@pytest.mark.parametrize("prog", sorted(PARSERS))
def test_every_subcommand_has_a_description_examples_and_meaningful_metavars(prog: str) -> None:
    assert help_problems(PARSERS[prog]()) == []


def _command_words(example: str) -> list[str]:
    """An example's arguments, without the command's name and any shell redirection."""
    words = shlex.split(example)
    for stop in (">", "|", "<"):
        if stop in words:
            words = words[: words.index(stop)]
    return words[1:]


@pytest.mark.parametrize("prog", sorted(PARSERS))
def test_every_example_parses(prog: str) -> None:
    root = PARSERS[prog]()
    examples = [e for parser in all_parsers(root) for e in examples_of(parser)]
    assert len(examples) >= len(list(all_parsers(root)))
    for example in examples:
        words = _command_words(example)
        args = root.parse_args(attach_values(root, words))
        assert callable(getattr(args, "run", None)), example


@pytest.mark.parametrize("prog", sorted(PARSERS))
def test_help_of_every_subcommand_shows_its_examples(
    prog: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = PARSERS[prog]()
    for parser in all_parsers(root):
        words = parser.prog.split()[1:]
        assert MAINS[prog]([*words, "--help"]) == 0
        out = capsys.readouterr().out
        assert "examples:\n" in out and examples_of(parser)[0] in out, parser.prog
        assert out.split("\n\n")[1].strip() == parser.description


def test_help_problems_names_what_is_missing() -> None:
    parser = Parser(prog="demo", description="two\nlines")
    parser.add_argument("--top", type=int, help="the best few")
    parser.add_argument("--name")
    sub = parser.add_subparsers(dest="command", parser_class=Parser)
    add_command(sub, "roll", help="roll dice", examples=["other roll"])
    problems = help_problems(parser)
    assert problems == [
        "demo: the description is not one line: 'two\\nlines'",
        "demo: no example in its --help",
        "demo: --top's value is shown as TOP, its own name: give it a metavar",
        "demo: --name has no help text",
        "demo: --name's value is shown as NAME, its own name: give it a metavar",
        "demo roll: the example 'other roll' runs another command",
    ]


def test_add_command_refuses_a_command_without_description_or_example() -> None:
    sub = Parser(prog="demo").add_subparsers(dest="command", parser_class=Parser)
    with pytest.raises(ValueError, match="one line"):
        add_command(sub, "a", help="two\nlines", examples=["demo a"])
    with pytest.raises(ValueError, match="needs an example"):
        add_command(sub, "b", help="fine", examples=[])


def test_derive_metavars_names_values_after_their_reader() -> None:
    parser = Parser(prog="demo")
    parser.add_argument("--games", type=whole_number, help="how many")
    parser.add_argument("--seed", type=seed, help="the seed")
    parser.add_argument("--budget", type=seconds, help="how long")
    parser.add_argument("--top", type=whole_number, metavar="K", help="the best K")
    parser.add_argument("--out", metavar="DIR", help="where")
    derive_metavars(parser)
    usage = parser.format_usage()
    assert "--games N" in usage and "--seed N" in usage and "--budget SECONDS" in usage
    assert "--top K" in usage
    out = next(a for a in parser._actions if a.dest == "out")
    assert out.complete == {"bash": "_shtab_compgen_dirs", "zsh": "_files -/"}  # type: ignore[attr-defined]


def test_a_missing_subcommand_is_named_by_the_commands_not_an_internal_dest(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert packing.cli.main(["table"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "table_command" not in err and "{build}" in err


# --- shell completion ----------------------------------------------------------------------


@pytest.mark.parametrize("prog", sorted(PARSERS))
@pytest.mark.parametrize("shell", ["bash", "zsh"])
@pytest.mark.extra("completion")
def test_print_completion_writes_the_shells_script(
    prog: str, shell: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert MAINS[prog](["--print-completion", shell]) == 0
    script = capsys.readouterr().out
    subcommands = [p.prog.split()[1] for p in all_parsers(PARSERS[prog]()) if p.prog != prog]
    assert subcommands and all(name in script for name in subcommands)
    if shell == "bash":
        assert f"-F _shtab_{prog} {prog}" in script
    else:
        assert script.startswith(f"#compdef {prog}")


def _bash_completes(script: str, prog: str, words: Sequence[str]) -> list[str]:
    """What bash offers for the last of ``words`` with ``script`` loaded (a real bash)."""
    line = " ".join(shlex.quote(w) for w in words)
    program = (
        f'source "$1"; COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; '
        f'_shtab_{prog}; printf "%s\\n" "${{COMPREPLY[@]}}"'
    )
    with tempfile.NamedTemporaryFile("w", suffix=".bash") as file:
        file.write(script)
        file.flush()
        done = subprocess.run(
            ["bash", "-c", program, "bash", file.name], capture_output=True, text=True, check=True
        )
    return done.stdout.split()


@pytest.mark.extra("completion")
@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash on this machine")
def test_bash_completes_commands_options_and_choices(capsys: pytest.CaptureFixture[str]) -> None:
    assert packing.cli.main(["--print-completion", "bash"]) == 0
    script = capsys.readouterr().out
    assert _bash_completes(script, "packing", ["packing", "dec"]) == ["deck", "decks"]
    assert _bash_completes(script, "packing", ["packing", "best", "--t"]) == [
        "--top",
        "--time-limit",
    ]
    assert _bash_completes(
        script, "packing", ["packing", "decks", "optimize", "--objective", ""]
    ) == ["coverage", "balance", "skill"]


def test_print_completion_without_shtab_is_one_line_naming_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(__import__("sys").modules, "shtab", None)
    assert packing.cli.main(["--print-completion", "bash"]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "packing: error: shtab is not installed: it comes with the completion extra "
        "(pip install 'tabletop-solvers[completion]')\n"
    )


def test_print_completion_refuses_another_shell(capsys: pytest.CaptureFixture[str]) -> None:
    assert packing.cli.main(["--print-completion", "fish"]) == EXIT_USAGE
    assert "'fish'" in capsys.readouterr().err


@pytest.mark.extra("completion")
def test_completion_option_is_on_a_bare_parser_too(capsys: pytest.CaptureFixture[str]) -> None:
    parser = Parser(prog="demo")
    add_completion_option(parser)
    with pytest.raises(SystemExit) as done:
        parser.parse_args(["--print-completion", "zsh"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("#compdef demo")


@pytest.mark.parametrize("prog", sorted(PARSERS))
def test_every_seed_of_both_commands_follows_one_rule(
    prog: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = PARSERS[prog]()
    seeded = [
        parser
        for parser in all_parsers(root)
        for action in parser._actions
        if "--seed" in action.option_strings
    ]
    assert seeded
    for parser in seeded:
        action = next(a for a in parser._actions if "--seed" in a.option_strings)
        assert action.type is seed, parser.prog
    for parser in seeded:
        words = parser.prog.split()[1:]
        assert MAINS[prog]([*words, "--seed", "-1"]) == EXIT_USAGE
        assert "invalid seed '-1': a seed is 0 or more" in capsys.readouterr().err
