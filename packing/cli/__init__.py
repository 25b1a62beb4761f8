"""The ``packing`` command: a thin shell over the public API — parse, call the library, format.

    packing solve --roll 3,2,3,0,1 --truck '#####/###../#####' --height 3
    packing best --roll 3,2,3,0,1 [--deck FILE] [--top K]
    packing grab --roll 3,2,3,0,1 --revealed S03,S17 [--pile S01,S02,...]
    packing stats [--deck FILE] [--roll R]
    packing table build [--deck FILE] [--workers N | --scheduler ADDRESS | --cluster local:N] [--out DIR] [--force]
    packing deck [--deck FILE]
    packing plot plan --roll R --truck MASK --height H --out FILE.png|.svg|.pdf
    packing plot deck [--deck FILE] --out DIR
    packing play --players optimal,capacity --seed 1 [--json]
    packing tournament --players optimal,random --games 200 [--workers N] [--json]
    packing decks random --count N --seed S --out DIR
    packing decks compare A.txt B.txt ... [--json] [--out PNG]
    packing decks optimize --objective coverage|balance|skill [--seed S] [--budget SECONDS]
    packing --version
    packing --print-completion bash|zsh

``main`` follows the contract of :mod:`arena.cli` (the express command follows it too):
``main(argv) -> int`` returns the exit status and never raises. 0 on success; 2 on bad input,
after one line ``packing: error: …`` on stderr that quotes the input (with ``--json``: a JSON
object with an ``error`` field on stdout instead); 130 after one line on stderr when
interrupted (Ctrl-C). Every output path is checked before any work starts, so a bad ``--out``
fails at once and nothing is half-written.

The commands live by job: :mod:`packing.cli.answers` (solve, best, grab, deck),
:mod:`packing.cli.tables` (table build, stats), :mod:`packing.cli.pictures` (plot),
:mod:`packing.cli.games` (play, tournament), :mod:`packing.cli.design` (decks).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from arena.cli import (
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    Parser,
    add_completion_option,
    add_version_option,
    derive_metavars,
    run_main,
    with_examples,
)
from packing.cli import answers, design, games, pictures, tables
from packing.cli.common import subcommands
from packing.errors import PackingError

__all__ = ["EXIT_INTERRUPTED", "EXIT_USAGE", "build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The parser of every ``packing`` command."""
    parser = Parser(prog="packing", description="Provably optimal Pack & Stack answers.")
    with_examples(
        parser,
        [
            "packing best --roll 3,2,3,0,1",
            "packing solve --roll 3,2,3,0,1 --truck '#####/###../#####' --height 3",
            "packing stats --json",
        ],
        note="Bad input prints one line quoting it and exits with status 2 "
        "(with --json: a JSON object with an 'error' field on stdout).",
    )
    add_version_option(parser, "packing")
    add_completion_option(parser)
    sub = subcommands(parser, "command")
    for module in (answers, tables, pictures, games, design):
        module.add_commands(sub)
    return derive_metavars(parser)


def main(
    argv: Sequence[str] | None = None, *, parser: argparse.ArgumentParser | None = None
) -> int:
    """Run the CLI on ``argv`` (default ``sys.argv[1:]``); returns the exit status: 0, 2 for bad
    input (one line on stderr, or a JSON object with ``error`` on stdout under ``--json``),
    130 when interrupted. Never raises. ``parser``: one :func:`build_parser` made, to reuse (a
    server answering many commands builds it once; parsing never changes it)."""
    parser = build_parser() if parser is None else parser
    return run_main("packing", parser, argv, errors=(PackingError,), explain=tables.explain)
