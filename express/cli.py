"""The ``express`` command: a thin shell over the public API.

Commands (``express COMMAND --help`` for all options):

* ``express best --length 7 [--players 2 | --cards "R4|B4,B4|G4,..." | --deck-file FILE]
  [--start TRAIN] [--no-bonus] [--caboose NAME] [--count] [--node-limit N] [--time-limit S]``
  — the optimal train (:func:`express.best_train`), its score breakdown and search statistics.
  The deck is the standard one (the default, or ``--players``), ``--cards`` or ``--deck-file``;
  the ``--start`` train's cards are taken out of it (:func:`express.without`), so the search
  draws from the cards still available, and a start card the deck does not hold is an error.
* ``express score --train "R4|B4,B4|G4" --train "B2|B2,~R3|G3" [--start-player 0]
  [--caboose NAME] [--cards TEXT | --deck-file FILE]`` — score a finished game
  (:func:`express.score_game`): one ``--train`` per player in clockwise order (at most five),
  cards separated by commas, a face-down card marked with a leading ``~``; an engine-only
  train is ``--train ""``. The trains may not use a card more often than the deck holds: the
  standard deck for that many players unless ``--cards`` / ``--deck-file`` give another.
* ``express cabooses`` — the 16 caboose cards; ``express deck [--players N]`` — the deck as a
  deck file (one card per line, provenance in ``;`` comments) that ``--deck-file`` reads back.
* ``express play --players search,greedy,random [--seed 1] [--caboose NAME|random]`` and
  ``express tournament --players search,greedy,random --games 2000 [--match]`` — games between
  bots (:mod:`express.cli_games`).

Every command takes ``--json`` for machine output. Bad input prints one line on stderr quoting
it (under ``--json``: a JSON object with an ``error`` field on stdout) and exits with status 2;
Ctrl-C prints one line and exits with status 130.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from express import cli_games
from express.cabooses import CABOOSES, caboose_named
from express.cards import COMMENT, DECK, Card, deck_for, format_deck, load_deck, parse_deck
from express.errors import ExpressError, PoolError
from express.scoring import MAX_PLAYERS, GameScore, score_game
from express.search import TrainSolution, best_train
from express.train import Train, without

__all__ = ["main", "EXIT_USAGE", "EXIT_INTERRUPTED"]

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class UsageError(Exception):
    """Raised by the parser instead of printing a usage block and exiting: :func:`main` reports it."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors become one line (see :func:`main`), not a usage block."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _positive_int(text: str) -> int:
    """``--node-limit``: a positive whole number, the input quoted when it is not."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"invalid value: {text!r} (a positive whole number)")
    return value


def _positive_seconds(text: str) -> float:
    """``--time-limit``: a positive, finite number of seconds, the input quoted when it is not."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(
            f"invalid value: {text!r} (a positive, finite number of seconds)"
        )
    return value


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="express", description="Yardmaster Express: optimal trains and game scoring."
    )
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    best = commands.add_parser("best", help="the optimal train from a pool of cards")
    best.add_argument("--length", type=int, required=True, help="cards to add to the train")
    pool = best.add_mutually_exclusive_group()
    pool.add_argument(
        "--players", type=int, help="use the deck of this many players (2 removes purple)"
    )
    # Whatever the deck, the --start train's cards come out of it: the pool is the cards left.
    pool.add_argument(
        "--cards", help='the deck as text, e.g. "R4|B4,B4|G4" (default: the 32-card deck)'
    )
    pool.add_argument(
        "--deck-file", help="read the deck from a file (the format `express deck` prints)"
    )
    best.add_argument(
        "--start",
        default="",
        help="extend this train instead of a bare engine (its cards come out of the deck)",
    )
    best.add_argument(
        "--no-bonus", action="store_true", help="leave the longest-run bonus out of the score"
    )
    best.add_argument(
        "--caboose", help="add this caboose's points when the train meets it (absolute ones)"
    )
    best.add_argument("--count", action="store_true", help="also count the distinct optimal trains")
    best.add_argument(
        "--node-limit",
        type=_positive_int,
        help="stop after this many states (result may not be optimal)",
    )
    best.add_argument(
        "--time-limit", type=_positive_seconds, help="stop after this many seconds (positive)"
    )
    best.add_argument("--json", action="store_true", help="machine-readable output")

    score = commands.add_parser("score", help="score the trains of a finished game")
    score.add_argument(
        "--train",
        action="append",
        required=True,
        dest="trains",
        help='one player\'s train, e.g. "R4|B4,~B4|G4" (~ = face down); repeat per player, clockwise',
    )
    score.add_argument(
        "--start-player", type=int, default=0, help="the start player's number (from 0)"
    )
    score.add_argument("--caboose", help="the caboose drawn for the game")
    dealt = score.add_mutually_exclusive_group()
    # The trains may not use a card more often than the deck holds.
    dealt.add_argument(
        "--cards",
        help="the deck the game was dealt from, as text (default: the standard deck for that many players)",
    )
    dealt.add_argument(
        "--deck-file", help="read the deck the game was dealt from from a file (see --cards)"
    )
    score.add_argument("--json", action="store_true", help="machine-readable output")

    cabooses = commands.add_parser("cabooses", help="list the caboose cards")
    cabooses.add_argument("--json", action="store_true", help="machine-readable output")

    deck = commands.add_parser(
        "deck", help="print a deck as a deck file, with the provenance of its cards"
    )
    deck.add_argument("--players", type=int, help="the deck of this many players")
    deck.add_argument("--json", action="store_true", help="machine-readable output")

    # Games between bots: express play / express tournament (see express/cli_games.py).
    cli_games.add_commands(commands)
    return parser


def _deck(args: argparse.Namespace) -> tuple[tuple[Card, ...], str]:
    """The deck ``--cards`` or ``--deck-file`` gives, and how to describe it."""
    if args.cards is not None:
        cards = parse_deck(args.cards)
        return cards, f"the given {_cards(len(cards))}"
    cards = load_deck(args.deck_file)
    return cards, f"{args.deck_file} ({_cards(len(cards))})"


def _cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def _pool(args: argparse.Namespace, start: Train) -> tuple[tuple[Card, ...], str]:
    """The cards still available: the chosen deck minus the start train's cards."""
    if args.cards is not None or args.deck_file is not None:
        deck, source = _deck(args)
    elif args.players is not None:
        deck, source = deck_for(args.players), f"the {args.players}-player deck"
    else:
        deck, source = DECK, "the full deck"
    try:
        cards = without(deck, start)
    except PoolError as error:
        raise PoolError(f"--start {str(start)!r}: {error} ({source})") from None
    if start.plays:
        source += f", {_cards(len(cards))} left"
    elif args.cards is None and args.deck_file is None:
        source += f" ({_cards(len(cards))})"
    return cards, source


def _score(args: argparse.Namespace) -> GameScore:
    trains = [Train.parse(text) for text in args.trains]
    if len(trains) > MAX_PLAYERS:
        raise ExpressError(
            f"too many trains: {len(trains)} (Yardmaster Express is for 2 to {MAX_PLAYERS} players)"
        )
    if args.cards is not None or args.deck_file is not None:
        deck, source = _deck(args)
    elif len(trains) >= 2:
        deck, source = deck_for(len(trains)), f"the {len(trains)}-player deck"
    else:
        deck, source = DECK, "the full deck"
    caboose = caboose_named(args.caboose) if args.caboose is not None else None
    try:
        return score_game(trains, start_player=args.start_player, caboose=caboose, deck=deck)
    except PoolError as error:
        raise PoolError(
            f"{error} (checked against {source}; --cards / --deck-file give another deck)"
        ) from None


def _row(train: Train) -> str:
    """A train as a row of cards after the engine: ``engine > R4|B4 > ~R3|G3``."""
    return " > ".join(["engine", *(str(play) for play in train.plays)])


def _run_colours(train: Train) -> str:
    """The colours of the train's longest runs: ``"green, purple"``, or ``"no run"``."""
    colours = sorted(
        {run.color.name.lower() for run in train.runs if run.length == train.longest_run}
    )
    return ", ".join(colours) if colours else "no run"


def _best_text(result: TrainSolution, source: str, bonus: bool) -> str:
    train = result.train
    parts = [f"value {result.value}"]
    if bonus:
        parts.append(f"run bonus {result.run_bonus} ({_run_colours(train)})")
    if result.caboose is not None:
        parts.append(f"caboose {result.caboose_points}")
    lines = [
        f"Best train of {len(result.plays)} cards from {source}"
        + (f", extending {result.start}" if result.start.plays else "")
        + ("" if bonus else ", without the run bonus")
        + (f", caboose {result.caboose.name}" if result.caboose is not None else "")
        + ":",
        f"  {_row(train)}",
        "  " + " + ".join(parts) + f" = score {result.score}",
    ]
    if not bonus:
        lines.append(f"  (longest run {result.longest_run}: {_run_colours(train)}; not scored)")
    if result.caboose is not None and result.caboose.is_relative:
        lines.append(
            f"  ({result.caboose.name} compares trains, so it scores nothing in a solo search)"
        )
    status = (
        "optimal (proven)" if result.optimal else "best found, NOT proven optimal (limit reached)"
    )
    stats = f"search: {status}, {result.nodes} states searched, {result.seconds:.3f} s"
    if result.count is not None:
        stats += f", {result.count} distinct optimal train{'s' if result.count != 1 else ''}"
    lines.append(stats)
    return "\n".join(lines)


def _score_text(game: GameScore) -> str:
    header = f"{'player':<8}{'value':>6}{'run':>5}{'bonus':>7}{'caboose':>9}{'total':>7}  train"
    lines = [header]
    for player, train in zip(game.players, game.trains):
        mark = "*" if player.player == game.start_player else " "
        lines.append(
            f"{str(player.player) + mark:<8}{player.value:>6}{player.longest_run:>5}{player.run_bonus:>7}"
            f"{player.caboose_points:>9}{player.total:>7}  {_row(train)}"
        )
    lines.append("(* start player)")
    if game.caboose is not None:
        winners = ", ".join(str(p) for p in game.caboose_winners) or "nobody"
        lines.append(
            f"caboose {game.caboose.name} ({game.caboose.points}): {game.caboose.condition} -> {winners}"
        )
    total = game.players[game.winner].total
    lines.append(f"winner: player {game.winner} with {total}")
    return "\n".join(lines)


def _deck_text(players: int | None) -> str:
    """``express deck``: a deck file that ``--deck-file`` reads back, with a header comment."""
    cards = DECK if players is None else deck_for(players)
    what = "the full deck" if players is None else f"the {players}-player deck"
    if players == 2:
        what += " (the 8 cards showing purple removed)"
    header = f"{COMMENT} Yardmaster Express, {what}: {_cards(len(cards))}; express best --deck-file FILE reads this"
    return header + "\n" + format_deck(cards)


def _run(args: argparse.Namespace) -> str:
    if args.command in cli_games.COMMANDS:
        return cli_games.run(args)
    if args.command == "best":
        start = Train.parse(args.start)
        cards, source = _pool(args, start)
        caboose = caboose_named(args.caboose) if args.caboose is not None else None
        result = best_train(
            cards,
            args.length,
            start=start,
            bonus=not args.no_bonus,
            caboose=caboose,
            count_optimal=args.count,
            node_limit=args.node_limit,
            time_limit=args.time_limit,
        )
        if args.json:
            return json.dumps(result.to_dict(), indent=2)
        return _best_text(result, source, not args.no_bonus)
    if args.command == "score":
        game = _score(args)
        if args.json:
            return json.dumps(game.to_dict(), indent=2)
        return _score_text(game)
    if args.command == "cabooses":
        if args.json:
            return json.dumps(
                [
                    {
                        "name": c.name,
                        "points": c.points,
                        "kind": c.kind.value,
                        "condition": c.condition,
                    }
                    for c in CABOOSES
                ],
                indent=2,
            )
        return "\n".join(
            f"{c.name:<18}{c.points:>3}  {c.kind.value:<9}{c.condition}" for c in CABOOSES
        )
    if args.json:
        cards = DECK if args.players is None else deck_for(args.players)
        return json.dumps([str(card) for card in cards])
    return _deck_text(args.players)


_VALUE_OPTIONS = frozenset(
    {
        "--length",
        "--players",
        "--cards",
        "--deck-file",
        "--start",
        "--caboose",
        "--node-limit",
        "--time-limit",
        "--train",
        "--start-player",
    }
)


def _attach_values(argv: Sequence[str]) -> list[str]:
    """``--time-limit -1e-3`` as ``--time-limit=-1e-3``: argparse takes a value that starts with
    ``-`` and does not look like a plain negative number for an option and reports "expected one
    argument"; attached, the value reaches the check that quotes it."""
    attached: list[str] = []
    index = 0
    while index < len(argv):
        arg = argv[index]
        following = argv[index + 1] if index + 1 < len(argv) else None
        dashed_value = (
            following is not None and following.startswith("-") and not following.startswith("--")
        )
        if arg in _VALUE_OPTIONS and dashed_value:
            attached.append(f"{arg}={following}")
            index += 2
        else:
            attached.append(arg)
            index += 1
    return attached


def _wants_json(argv: Sequence[str]) -> bool:
    """Whether ``--json`` (or an abbreviation argparse accepts) is among the arguments, so that
    even an error argparse finds is reported as JSON."""
    return any(len(arg) >= 3 and "--json".startswith(arg) for arg in argv)


def _fail(message: str, as_json: bool) -> int:
    if as_json:
        print(json.dumps({"error": message}))
    else:
        print(f"express: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); returns the exit status:
    0, 2 for bad input (one line quoting it, or a JSON object under ``--json``), 130 when
    interrupted."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    as_json = _wants_json(arguments)
    try:
        args = _parser().parse_args(_attach_values(arguments))
        output = _run(args)
        # Print only once the whole answer exists: a failure never leaves half an output.
        print(output)
        sys.stdout.flush()
    except UsageError as error:
        return _fail(str(error), as_json)
    except ExpressError as error:
        return _fail(str(error), as_json)
    except KeyboardInterrupt:
        print("express: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (e.g. `express deck | head -3`): not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except SystemExit as done:
        # argparse's --help exits: report its status instead of leaving main().
        return done.code if isinstance(done.code, int) else 0
    return 0
