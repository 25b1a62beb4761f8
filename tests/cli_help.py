"""The linter of both command lines' ``--help``: every subcommand has a one-line description,
an example that runs it, a help text for every option and a metavar saying what each value is.

It reads argparse's parsers from inside (``_actions``): a test's tool, not the library's, so it
lives with the tests that run it on ``packing``, ``express`` and ``tabletop-web``.
"""

from __future__ import annotations

import argparse

from arena.cli import EXAMPLES_HEADING, all_parsers, takes_value

__all__ = ["examples_of", "help_problems"]


def examples_of(parser: argparse.ArgumentParser) -> list[str]:
    """The example command lines at the end of ``parser``'s ``--help`` (:func:`add_command`)."""
    lines = (parser.epilog or "").splitlines()
    if EXAMPLES_HEADING not in lines:
        return []
    rest = lines[lines.index(EXAMPLES_HEADING) + 1 :]
    return [line.strip() for line in rest if line.startswith("  ") and line.strip()]


def help_problems(parser: argparse.ArgumentParser) -> list[str]:
    """What the ``--help`` of ``parser`` or of a subcommand below it lacks, one line each: a
    one-line description, an example starting with the command's own words, a help text for
    every option and argument, a metavar that says what the value is (not the option's name in
    capitals, ``--top TOP``). Empty when nothing is missing.

    >>> from arena.cli import Parser
    >>> parser = Parser(prog="demo", description="a demo", epilog="examples:\\n  demo --top 2")
    >>> _ = parser.add_argument("--top", type=int, help="the best K")
    >>> help_problems(parser)
    ["demo: --top's value is shown as TOP, its own name: give it a metavar"]
    """
    problems: list[str] = []
    for current in all_parsers(parser):
        prog = current.prog
        description = (current.description or "").strip()
        if not description or "\n" in description:
            problems.append(f"{prog}: the description is not one line: {description!r}")
        examples = examples_of(current)
        if not examples:
            problems.append(f"{prog}: no example in its --help")
        for example in examples:
            if not (example + " ").startswith(prog + " "):
                problems.append(f"{prog}: the example {example!r} runs another command")
        for action in current._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            name = "/".join(action.option_strings) or action.dest
            if not action.help:
                problems.append(f"{prog}: {name} has no help text")
            if not takes_value(action) or action.choices is not None:
                continue
            metavar = action.metavar
            shown = metavar if metavar is not None else action.dest
            if action.option_strings and metavar is None:
                shown = action.dest.upper()
            if shown in (action.dest.upper(), action.dest):
                problems.append(
                    f"{prog}: {name}'s value is shown as {shown}, its own name: give it a metavar"
                )
    return problems
