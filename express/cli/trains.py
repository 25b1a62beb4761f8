"""``express best``, ``score``, ``cabooses`` and ``deck``: trains, scores and the cards."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from arena.cli import (
    add_command,
    add_json_option,
    integer,
    print_json,
    seconds,
    whole_number,
)
from arena.text import plural
from express.cabooses import CABOOSES, caboose_named
from express.cards import DECK, Card, deck_for
from express.deck import COMMENT, format_deck, load_deck, parse_deck
from express.errors import ExpressError, ParseError, PoolError
from express.rules import MAX_PLAYERS, MIN_PLAYERS, rounds_for
from express.scoring import GameScore, score_game
from express.search import TrainSolution, best_train
from express.train import Train, without


def deck_options(group: Any, cards_help: str, deck_help: str) -> None:
    """``--cards LIST`` (an inline list of cards) or ``--deck FILE`` (a deck file), in ``group``."""
    group.add_argument("--cards", metavar="LIST", help=cards_help)
    group.add_argument("--deck", metavar="FILE", help=deck_help)


def output(text: str) -> int:
    """Print a command's whole answer at once (a failure never leaves half an output); a write
    that fails (a full disk, a reader that went away) is :func:`arena.cli.run_main`'s to report."""
    print(text)
    sys.stdout.flush()
    return 0


def cards_text(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def given_deck(args: argparse.Namespace) -> tuple[tuple[Card, ...], str]:
    """The deck ``--cards`` or ``--deck`` gives, and how to describe it."""
    if args.cards is not None:
        if COMMENT in args.cards:
            # In a deck file ';' starts a comment: here it would drop every card after it.
            raise ParseError(
                f"--cards {args.cards!r}: separate cards with commas "
                f"({COMMENT!r} starts a comment, which only deck files have)"
            )
        cards = parse_deck(args.cards)
        if not cards:
            raise ParseError(f"--cards {args.cards!r} holds no card")
        return cards, f"the given {cards_text(len(cards))}"
    cards = load_deck(args.deck)
    return cards, f"{shown(args.deck)} ({cards_text(len(cards))})"


def shown(name: str) -> str:
    r"""A file name as the output shows it: as typed, or quoted when it holds a control character
    (an escape code or a line break in a name is never written raw to a terminal).

    >>> shown("deck.txt")
    'deck.txt'
    >>> print(shown("a\x1b[2Jb"))
    'a\x1b[2Jb'
    """
    return name if name.isprintable() else repr(name)


def _pool(args: argparse.Namespace, start: Train) -> tuple[tuple[Card, ...], str]:
    """The cards still available: the chosen deck minus the start train's cards."""
    if args.cards is not None or args.deck is not None:
        deck, source = given_deck(args)
    elif args.players is not None:
        deck, source = deck_for(args.players), f"the {args.players}-player deck"
    else:
        deck, source = DECK, "the full deck"
    try:
        cards = without(deck, start)
    except PoolError as error:
        raise PoolError(f"--start {str(start)!r}: {error} ({source})") from None
    if start.plays:
        source += f", {cards_text(len(cards))} left"
    elif args.cards is None and args.deck is None:
        source += f" ({cards_text(len(cards))})"
    return cards, source


def _row(train: Train) -> str:
    """A train as a row of cards after the engine: ``engine > R4|B4 > ~R3|G3``."""
    return " > ".join(["engine", *(str(play) for play in train.plays)])


def _run_colors(train: Train) -> str:
    """The colours of the train's longest runs: ``"green, purple"``, or ``"no run"``."""
    colors = sorted(
        {run.color.name.lower() for run in train.runs if run.length == train.longest_run}
    )
    return ", ".join(colors) if colors else "no run"


def best_text(result: TrainSolution, source: str, bonus: bool) -> str:
    """``express best``'s answer in words."""
    train = result.train
    parts = [f"value {result.value}"]
    if bonus:
        parts.append(f"run bonus {result.run_bonus} ({_run_colors(train)})")
    if result.caboose is not None:
        parts.append(f"caboose {result.caboose_points}")
    lines = [
        f"Best train of {plural(len(result.plays), 'card')} from {source}"
        + (f", extending {result.start}" if result.start.plays else "")
        + ("" if bonus else ", without the run bonus")
        + (f", caboose {result.caboose.name}" if result.caboose is not None else "")
        + ":",
        f"  {_row(train)}",
        "  " + " + ".join(parts) + f" = score {result.score}",
    ]
    if not bonus:
        lines.append(f"  (longest run {result.longest_run}: {_run_colors(train)}; not scored)")
    if result.caboose is not None and result.caboose.is_relative:
        lines.append(
            f"  ({result.caboose.name} compares trains, so it scores nothing in a solo search)"
        )
    status = (
        "optimal (proven)" if result.optimal else "best found, NOT proven optimal (limit reached)"
    )
    stats = f"search: {status}, {plural(result.nodes, 'state')} searched, {result.seconds:.3f} s"
    if result.count is not None:
        stats += f", {result.count} distinct optimal train{'s' if result.count != 1 else ''}"
    lines.append(stats)
    return "\n".join(lines)


def cmd_best(args: argparse.Namespace) -> int:
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
        progress=True,
    )
    if args.json:
        print_json(result.to_dict())
        return 0
    return output(best_text(result, source, not args.no_bonus))


def _score(args: argparse.Namespace) -> GameScore:
    trains = [Train.parse(text) for text in args.trains]
    if not MIN_PLAYERS <= len(trains) <= MAX_PLAYERS:
        many = "too many" if len(trains) > MAX_PLAYERS else "too few"
        given = " ".join(f"--train {text!r}" for text in args.trains[:MIN_PLAYERS])
        raise ExpressError(
            f"{many} trains: {len(trains)}"
            + (f" ({given})" if len(trains) < MIN_PLAYERS else "")
            + f", one per player (Yardmaster Express is for {MIN_PLAYERS} to {MAX_PLAYERS} players)"
        )
    rounds = rounds_for(len(trains)) if args.rounds is None else args.rounds
    if rounds < 1:
        raise ExpressError(f"--rounds {args.rounds!r}: a game has at least 1 round")
    for text, train in zip(args.trains, trains):
        if len(train) > rounds:
            # Each player adds one card a round: a longer train cannot come from this game.
            raise ExpressError(
                f"--train {text!r} has {plural(len(train), 'card')}: a {len(trains)}-player "
                f"game of {plural(rounds, 'round')} ends with {plural(rounds, 'card')} a train "
                "(--rounds N for a variant)"
            )
    if args.cards is not None or args.deck is not None:
        deck, source = given_deck(args)
    else:
        deck, source = deck_for(len(trains)), f"the {len(trains)}-player deck"
    caboose = caboose_named(args.caboose) if args.caboose is not None else None
    try:
        return score_game(trains, start_player=args.start_player, caboose=caboose, deck=deck)
    except PoolError as error:
        raise PoolError(
            f"{error} (checked against {source}; --cards / --deck give another deck)"
        ) from None


def score_text(game: GameScore) -> str:
    """``express score``'s answer: a table of the players, the caboose, the winner."""
    header = f"{'player':<8}{'value':>6}{'run':>5}{'bonus':>7}{'caboose':>9}{'total':>7}  train"
    lines = [header]
    for player, train in zip(game.players, game.trains):
        mark = "*" if player.player == game.start_player else " "
        lines.append(
            f"{str(player.player) + mark:<8}{player.value:>6}{player.longest_run:>5}"
            f"{player.run_bonus:>7}{player.caboose_points:>9}{player.total:>7}  {_row(train)}"
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


def cmd_score(args: argparse.Namespace) -> int:
    game = _score(args)
    if args.json:
        print_json(game.to_dict())
        return 0
    return output(score_text(game))


def cmd_cabooses(args: argparse.Namespace) -> int:
    if args.json:
        print_json([c.to_dict() for c in CABOOSES])
        return 0
    return output(
        "\n".join(f"{c.name:<18}{c.points:>3}  {c.kind.value:<9}{c.condition}" for c in CABOOSES)
    )


def deck_text(players: int | None) -> str:
    """``express deck``: a deck file that ``--deck`` reads back, with a header comment."""
    cards = DECK if players is None else deck_for(players)
    what = "the full deck" if players is None else f"the {players}-player deck"
    if players == 2:
        what += " (the 8 cards showing purple removed)"
    header = (
        f"{COMMENT} Yardmaster Express, {what}: {cards_text(len(cards))}; "
        "express best --deck FILE reads this"
    )
    return header + "\n" + format_deck(cards)


def cmd_deck(args: argparse.Namespace) -> int:
    if args.json:
        cards = DECK if args.players is None else deck_for(args.players)
        return output(json.dumps([str(card) for card in cards]))
    return output(deck_text(args.players))


def add_commands(commands: Any) -> None:
    """``best``, ``score``, ``cabooses``, ``deck``."""
    best = add_command(
        commands,
        "best",
        help="the optimal train from a pool of cards",
        examples=[
            "express best --length 7",
            "express best --length 5 --players 2 --caboose Lightweight",
            'express best --length 2 --cards "R3|G3,R4|B4,B4|G4,G4|Y4" --start "R3|G3"',
        ],
    )
    best.add_argument(
        "--length", type=integer, required=True, metavar="N", help="cards to add to the train"
    )
    pool = best.add_mutually_exclusive_group()
    pool.add_argument(
        "--players",
        type=integer,
        metavar="N",
        help="use the deck of this many players, 2 to 5 (2 removes purple)",
    )
    # Whatever the deck, the --start train's cards come out of it: the pool is the cards left.
    deck_options(
        pool,
        'the deck as text, e.g. "R4|B4,B4|G4" (default: the 32-card deck)',
        "read the deck from a file (the format `express deck` prints)",
    )
    best.add_argument(
        "--start",
        default="",
        metavar="TRAIN",
        help='extend this train, e.g. "R4|B4,~B4|G4", instead of a bare engine '
        "(its cards come out of the deck)",
    )
    best.add_argument(
        "--no-bonus", action="store_true", help="leave the longest-run bonus out of the score"
    )
    best.add_argument(
        "--caboose",
        metavar="NAME",
        help="add this caboose's points when the train meets it (absolute ones; "
        "`express cabooses` lists them)",
    )
    best.add_argument("--count", action="store_true", help="also count the distinct optimal trains")
    best.add_argument(
        "--node-limit",
        type=whole_number,
        metavar="N",
        help="stop after this many states (result may not be optimal)",
    )
    best.add_argument(
        "--time-limit",
        type=seconds,
        metavar="SECONDS",
        help="stop after this many seconds (positive)",
    )
    add_json_option(best)
    best.set_defaults(run=cmd_best)

    score = add_command(
        commands,
        "score",
        help="score the trains of a finished game",
        examples=[
            'express score --train "R4|B4,B4|G4" --train "B2|B2,~R3|G3"',
            'express score --train "R4|B4" --train "" --train "G3|G3" --start-player 1 --caboose "Buried Alive"',
        ],
    )
    score.add_argument(
        "--train",
        action="append",
        required=True,
        dest="trains",
        metavar="TRAIN",
        help='one player\'s train, e.g. "R4|B4,~B4|G4" (~ = face down); repeat per player, '
        "clockwise, 2 to 5 players",
    )
    score.add_argument(
        "--start-player",
        type=integer,
        default=0,
        metavar="P",
        help="the start player's number (from 0)",
    )
    score.add_argument("--caboose", metavar="NAME", help="the caboose drawn for the game")
    score.add_argument(
        "--rounds",
        type=integer,
        metavar="N",
        help="the rounds the game had, if not 9 - N: no train is longer",
    )
    # The trains may not use a card more often than the deck holds.
    deck_options(
        score.add_mutually_exclusive_group(),
        "the deck the game was dealt from, as text "
        "(default: the standard deck for that many players)",
        "read the deck the game was dealt from from a file",
    )
    add_json_option(score)
    score.set_defaults(run=cmd_score)

    cabooses = add_command(
        commands,
        "cabooses",
        help="list the caboose cards",
        examples=["express cabooses", "express cabooses --json"],
    )
    add_json_option(cabooses)
    cabooses.set_defaults(run=cmd_cabooses)

    deck = add_command(
        commands,
        "deck",
        help="print a deck as a deck file, with the provenance of its cards",
        examples=["express deck --players 2 > two.deck", "express deck --json"],
    )
    deck.add_argument(
        "--players", type=integer, metavar="N", help="the deck of this many players, 2 to 5"
    )
    add_json_option(deck)
    deck.set_defaults(run=cmd_deck)
