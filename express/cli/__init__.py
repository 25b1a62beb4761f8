"""The ``express`` command: a thin shell over the public API — parse, call the library, format.

Commands (``express COMMAND --help`` for all options):

* ``express best --length 7 [--players 2 | --cards "R4|B4,B4|G4,..." | --deck FILE]
  [--start TRAIN] [--no-bonus] [--caboose NAME] [--count] [--node-limit N] [--time-limit S]``
  — the optimal train (:func:`express.best_train`), its score breakdown and search statistics.
  The deck is the standard one (the default, or ``--players``), ``--cards`` or ``--deck``;
  the ``--start`` train's cards are taken out of it (:func:`express.without`), so the search
  draws from the cards still available, and a start card the deck does not hold is an error.
* ``express score --train "R4|B4,B4|G4" --train "B2|B2,~R3|G3" [--start-player 0]
  [--caboose NAME] [--rounds N] [--cards LIST | --deck FILE]`` — score a finished game
  (:func:`express.score_game`): one ``--train`` per player in clockwise order (two to five),
  cards separated by commas, a face-down card marked with a leading ``~``; an engine-only
  train is ``--train ""``; no train is longer than the game's rounds (9 − N, or ``--rounds``).
  The trains may not use a card more often than the deck holds: the
  standard deck for that many players unless ``--cards`` / ``--deck`` give another.
* ``express cabooses`` — the 16 caboose cards; ``express deck [--players N]`` — the deck as a
  deck file (one card per line, provenance in ``;`` comments) that ``--deck`` reads back.
* ``express play``, ``express tournament``, ``express solve`` — games between bots
  (:mod:`express.cli.games`).
* ``express advise --players 3 --seat 1 --round 2 --hand CARDS --train TRAIN ... [--seen CARDS]
  [--start-player P] [--pass left|right] [--caboose NAME] [--worlds N] [--seed S] [--json]`` — what to
  play, from what a player at the table sees (:mod:`express.cli.advise`).
* ``express --version``; ``express --print-completion bash|zsh`` (the completion extra).

``main`` follows the contract of :mod:`arena.cli`: every command takes ``--json`` for
machine output; bad input prints one line on stderr quoting it (under ``--json``: a JSON object
with an ``error`` field on stdout) and exits with status 2; Ctrl-C prints one line and exits
with status 130.
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
from express.cli import advise, games, trains
from express.errors import ExpressError

__all__ = ["EXIT_INTERRUPTED", "EXIT_USAGE", "build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The parser of every ``express`` command."""
    parser = Parser(
        prog="express", description="Yardmaster Express: optimal trains and game scoring."
    )
    with_examples(
        parser,
        [
            "express best --length 7",
            'express score --train "R4|B4,B4|G4" --train "B2|B2,~R3|G3"',
            "express play --players search,greedy,random --seed 1",
        ],
        note="Bad input prints one line quoting it and exits with status 2 "
        "(with --json: a JSON object with an 'error' field on stdout).",
    )
    add_version_option(parser, "express")
    add_completion_option(parser)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    trains.add_commands(commands)
    games.add_commands(commands)
    advise.add_commands(commands)
    return derive_metavars(parser)


def main(
    argv: Sequence[str] | None = None, *, parser: argparse.ArgumentParser | None = None
) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); returns the exit status:
    0, 2 for bad input (one line quoting it, or a JSON object under ``--json``), 130 when
    interrupted. ``parser``: one :func:`build_parser` made, to reuse (a server answering many
    commands builds it once; parsing never changes it)."""
    parser = build_parser() if parser is None else parser
    return run_main("express", parser, argv, errors=(ExpressError,))
