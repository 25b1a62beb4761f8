"""The ``express`` command: a thin shell over the public API.

Commands (``express COMMAND --help`` for all options):

* ``express best --length 7 [--players 2 | --cards "R4|B4,B4|G4,..." | --deck-file FILE]
  [--start TRAIN] [--no-bonus] [--caboose NAME] [--count] [--node-limit N] [--time-limit S]``
  — the optimal train (:func:`express.best_train`), its score breakdown and search statistics.
  With a standard deck (the default, or ``--players``) the ``--start`` train's cards are taken
  out of it; ``--cards`` / ``--deck-file`` are taken as the cards left.
* ``express score --train "R4|B4,B4|G4" --train "B2|B2,~R3|G3" [--start-player 0]
  [--caboose NAME]`` — score a finished game (:func:`express.score_game`): one ``--train`` per
  player in clockwise order, cards separated by commas, a face-down card marked with a leading
  ``~``; an engine-only train is ``--train ""``.
* ``express cabooses`` — the 16 caboose cards; ``express deck [--players N]`` — the deck.
* ``express play --players search,greedy,random [--seed 1] [--caboose NAME|random]`` and
  ``express tournament --players search,greedy,random --games 2000 [--match]`` — games between
  bots (:mod:`express.cli_games`).

Every command takes ``--json`` for machine output. Bad input prints one line on stderr quoting
it and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import NoReturn

from express import cli_games
from express.cabooses import CABOOSES, caboose_named
from express.cards import DECK, DECK_ENTRIES, Card, deck_for, parse_deck
from express.errors import ExpressError
from express.scoring import GameScore, score_game
from express.search import TrainSearch, best_train
from express.train import Train

__all__ = ["main"]

_USAGE_ERROR = 2


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr (no usage block), status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(_USAGE_ERROR, f"{self.prog}: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="express", description="Yardmaster Express: optimal trains and game scoring.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    best = commands.add_parser("best", help="the optimal train from a pool of cards")
    best.add_argument("--length", type=int, required=True, help="cards to add to the train")
    pool = best.add_mutually_exclusive_group()
    pool.add_argument("--players", type=int, help="use the deck of this many players (2 removes purple)")
    # With a standard deck the --start train's cards come out of it; --cards / --deck-file are
    # taken as the cards left.
    pool.add_argument("--cards", help='the pool as text, e.g. "R4|B4,B4|G4" (default: the 32-card deck)')
    pool.add_argument("--deck-file", help="read the pool from a file in the same notation")
    best.add_argument("--start", default="", help="extend this train instead of a bare engine")
    best.add_argument("--no-bonus", action="store_true", help="leave the longest-run bonus out of the score")
    best.add_argument("--caboose", help="add this caboose's points when the train meets it (absolute ones)")
    best.add_argument("--count", action="store_true", help="also count the distinct optimal trains")
    best.add_argument("--node-limit", type=int, help="stop after this many states (result may not be optimal)")
    best.add_argument("--time-limit", type=float, help="stop after this many seconds")
    best.add_argument("--json", action="store_true", help="machine-readable output")

    score = commands.add_parser("score", help="score the trains of a finished game")
    score.add_argument(
        "--train", action="append", required=True, dest="trains",
        help='one player\'s train, e.g. "R4|B4,~B4|G4" (~ = face down); repeat per player, clockwise',
    )
    score.add_argument("--start-player", type=int, default=0, help="the start player's number (from 0)")
    score.add_argument("--caboose", help="the caboose drawn for the game")
    score.add_argument("--json", action="store_true", help="machine-readable output")

    cabooses = commands.add_parser("cabooses", help="list the caboose cards")
    cabooses.add_argument("--json", action="store_true", help="machine-readable output")

    deck = commands.add_parser("deck", help="list a deck with the provenance of its cards")
    deck.add_argument("--players", type=int, help="the deck of this many players")
    deck.add_argument("--json", action="store_true", help="machine-readable output")

    # Games between bots: express play / express tournament (see express/cli_games.py).
    cli_games.add_commands(commands)
    return parser


def _without(cards: tuple[Card, ...], used: Train) -> tuple[Card, ...]:
    """A standard deck minus the cards already in the start train (each physical card once)."""
    left = list(cards)
    for card in used.cards:
        if card not in left:
            raise ExpressError(f"start train card not in the deck: {str(card)!r}")
        left.remove(card)
    return tuple(left)


def _pool(args: argparse.Namespace, start: Train) -> tuple[tuple[Card, ...], str]:
    if args.cards is not None:
        cards = parse_deck(args.cards)
        return cards, f"the given pool of {len(cards)} cards"
    if args.deck_file is not None:
        try:
            with open(args.deck_file, encoding="utf-8") as handle:
                text = handle.read()
        except OSError as error:
            raise ExpressError(f"cannot read deck file: {args.deck_file!r} ({error.strerror})") from None
        cards = parse_deck(text)
        return cards, f"{args.deck_file} ({len(cards)} cards)"
    if args.players is not None:
        cards = _without(deck_for(args.players), start)
        return cards, f"the {args.players}-player deck ({len(cards)} cards left)"
    cards = _without(DECK, start)
    return cards, f"the full deck ({len(cards)} cards left)"


def _row(train: Train) -> str:
    """A train as a row of cards after the engine: ``engine > R4|B4 > ~R3|G3``."""
    return " > ".join(["engine", *(str(play) for play in train.plays)])


def _run_colours(train: Train) -> str:
    """The colours of the train's longest runs: ``"green, purple"``, or ``"no run"``."""
    colours = sorted({run.color.name.lower() for run in train.runs if run.length == train.longest_run})
    return ", ".join(colours) if colours else "no run"


def _best_text(result: TrainSearch, source: str, bonus: bool) -> str:
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
        lines.append(f"  ({result.caboose.name} compares trains, so it scores nothing in a solo search)")
    status = "optimal (proven)" if result.optimal else "best found, NOT proven optimal (limit reached)"
    stats = f"search: {status}, {result.nodes} states searched, {result.seconds:.3f} s"
    if result.count is not None:
        stats += f", {result.count} distinct optimal train{'s' if result.count != 1 else ''}"
    lines.append(stats)
    return "\n".join(lines)


def _score_text(game: GameScore, trains: Sequence[Train]) -> str:
    header = f"{'player':<8}{'value':>6}{'run':>5}{'bonus':>7}{'caboose':>9}{'total':>7}  train"
    lines = [header]
    for player, train in zip(game.players, trains):
        mark = "*" if player.player == game.start_player else " "
        lines.append(
            f"{str(player.player) + mark:<8}{player.value:>6}{player.longest_run:>5}{player.run_bonus:>7}"
            f"{player.caboose_points:>9}{player.total:>7}  {_row(train)}"
        )
    lines.append("(* start player)")
    if game.caboose is not None:
        winners = ", ".join(str(p) for p in game.caboose_winners) or "nobody"
        lines.append(f"caboose {game.caboose.name} ({game.caboose.points}): {game.caboose.condition} -> {winners}")
    total = game.players[game.winner].total
    lines.append(f"winner: player {game.winner} with {total}")
    return "\n".join(lines)


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
            return json.dumps(result.as_dict(), indent=2)
        return _best_text(result, source, not args.no_bonus)
    if args.command == "score":
        trains = [Train.parse(text) for text in args.trains]
        caboose = caboose_named(args.caboose) if args.caboose is not None else None
        game = score_game(trains, start_player=args.start_player, caboose=caboose)
        if args.json:
            data = game.as_dict()
            data["trains"] = [str(train) for train in trains]
            return json.dumps(data, indent=2)
        return _score_text(game, trains)
    if args.command == "cabooses":
        if args.json:
            return json.dumps(
                [{"name": c.name, "points": c.points, "kind": c.kind.value, "condition": c.condition} for c in CABOOSES],
                indent=2,
            )
        return "\n".join(f"{c.name:<18}{c.points:>3}  {c.kind.value:<9}{c.condition}" for c in CABOOSES)
    cards = DECK if args.players is None else deck_for(args.players)
    if args.json:
        return json.dumps([str(card) for card in cards])
    kept = set(cards)
    return "\n".join(
        f"{entry.count} x {entry.card}  ({entry.provenance.value})" for entry in DECK_ENTRIES if entry.card in kept
    ) + f"\n{len(cards)} cards"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        output = _run(args)
    except ExpressError as error:
        print(f"express: error: {error}", file=sys.stderr)
        return _USAGE_ERROR
    print(output)
    return 0
