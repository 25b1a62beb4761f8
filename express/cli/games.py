"""``express play``, ``express tournament`` and ``express solve``: games between bots.

* ``express play --players search,greedy,random [--seed 1] [--caboose NAME|random]
  [--rounds N] [--hindsight] [--json]`` — one game turn by turn, each turn printed as it is
  played (the JSON comes whole at the end): every turn's draw, hand and play, the trains as rows of cards after each round (a face-down card shows as ``~``), then the
  final scoring with the run award and the caboose (and, with ``--hindsight``, the best train
  each player could have built from the cards it saw).
* ``express tournament --players search,greedy,random --games 2000 [--seed 1] [--match]
  [--caboose NAME|random] [--workers N | --scheduler ADDRESS | --cluster local:N] [--json]`` —
  a duplicate-deal tournament (:func:`express.tournament`): the table, plus how often the
  longest-run award and the caboose decided the winner (:func:`express.decided`). ``--match``
  plays the strategic variant (:class:`express.Match`) instead of single games.
* ``express solve [--seed 1 | --order FILE] [--caboose NAME] [--rounds N] [--json]`` — the
  exact value of a two-player deal (:func:`express.solve_deal`): the start player's score minus
  the other's when both play perfectly, and an optimal line. ``--seed`` shuffles the 2-player
  deck (numpy's generator seeded with it); ``--order`` reads the order, top card first, from a
  deck file.

A bot named twice gets a number (``greedy``, ``greedy#2``: :func:`arena.seat_labels`) so every
seat has its own name.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import numpy as np

from arena import TournamentResult, play
from arena.cli import (
    LiveText,
    add_checkpoint_option,
    add_command,
    add_engine_option,
    add_executor_options,
    add_json_option,
    integer,
    parse_bot_list,
    print_json,
    run_tournament,
    seat_labels,
    seed,
    simulations,
    whole_number,
)
from arena.search_bots import MAX_SIMULATIONS, MIN_SIMULATIONS
from arena.text import plural
from express.bots import BOT_NAMES, OPENSPIEL_BOTS, SEARCH_SIMULATIONS, bot
from express.cards import deck_for
from express.cli.trains import output, shown
from express.deck import load_deck
from express.errors import ExpressError
from express.exact import solve_deal
from express.game import Game, Turn
from express.report import play_text, score_lines
from express.review import hindsight
from express.rules import MAX_PLAYERS, MIN_PLAYERS
from express.tournament import decided, tournament

__all__ = ["add_commands", "play_text"]

# Every bot a command-line game can seat: ``perfect`` needs the deck order, which it does not give.
SEATED_BOTS = tuple(name for name in BOT_NAMES if name != "perfect")

_REFUSED = {
    "perfect": "the perfect bot needs the deck order: express solve plays a two-player deal "
    "perfectly"
}


def players_of(args: argparse.Namespace) -> list[str]:
    """The bot names of ``--players``, checked."""
    return parse_bot_list(
        args.players,
        known=SEATED_BOTS,
        players=(MIN_PLAYERS, MAX_PLAYERS),
        game="Yardmaster Express",
        refused=_REFUSED,
    )


def _bot_options(args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """The bots' options from the command line, by bot name."""
    return {name: {"simulations": args.simulations} for name in OPENSPIEL_BOTS}


def cmd_play(args: argparse.Namespace) -> int:
    names = players_of(args)
    options = _bot_options(args)
    game = Game(len(names), caboose=args.caboose, rounds=args.rounds)
    bots = [bot(name, **options.get(name, {})) for name in names]
    labels = list(seat_labels(names))
    if not args.json:
        # The turns as they happen; the scoring (and the hindsight) once the game is over.
        # The text of a random caboose's game starts once the caboose shows.
        log = LiveText(lambda g: None if g.caboose_pending else play_text(g, labels, args.seed))
        play(game, bots, args.seed, on_action=log)
        log.show(play_text(game, labels, args.seed, with_hindsight=args.hindsight))
        return 0
    play(game, bots, args.seed)
    data: dict[str, Any] = {"players": labels, "seed": args.seed} | game.to_dict()
    if args.hindsight:
        data["hindsight"] = [h.to_dict() for h in hindsight(game)]
    print_json(data)
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    names = players_of(args)
    options = _bot_options(args)
    result = run_tournament(
        args,
        tournament,
        names,
        bot=bot,
        needs_extra=OPENSPIEL_BOTS,
        bot_options=options,
        match=args.match,
        caboose=args.caboose,
    )
    output(_tournament_text(args, result))  # an interrupted run stopped in run_tournament
    return 0


def _tournament_text(args: argparse.Namespace, result: TournamentResult) -> str:
    """``express tournament``'s answer: the table and what decided the games (or the JSON)."""
    counts = decided(result)
    if args.json:
        data = result.to_dict() | {"match": bool(args.match), "decided": counts.to_dict()}
        return json.dumps(data, indent=2)

    def share(count: int) -> str:
        if not counts.games:
            return "no games"
        return f"{count} of {counts.games} games ({100 * count / counts.games:.1f}%)"

    lines = [
        f"{'matches' if args.match else 'games'} of Yardmaster Express: {', '.join(result.policies)}",
        str(result),
        f"the longest-run award decided the winner in {share(counts.run_award)}",
    ]
    if args.caboose is None:
        lines.append("the caboose decided nothing: no caboose in play (--caboose NAME|random)")
    else:
        lines.append(f"the caboose decided the winner in {share(counts.caboose)}")
    return "\n".join(lines)


def cmd_solve(args: argparse.Namespace) -> int:
    """``express solve``: the exact value and an optimal line of a two-player deal."""
    if args.order is not None:
        order = load_deck(args.order)
        source = f"the order in {shown(args.order)}"
    else:
        deck = deck_for(2)
        order = tuple(deck[i] for i in np.random.default_rng(args.seed).permutation(len(deck)))
        source = f"the 2-player deck shuffled with seed {args.seed}"
    if args.caboose is not None and args.caboose.strip().lower() == "random":
        raise ExpressError("solve needs a known caboose: name one (--caboose NAME), not 'random'")
    game = Game(2, caboose=args.caboose, order=order, rounds=args.rounds)
    solution = solve_deal(game)
    for action in solution.line:
        game.apply_action(action)
    score = game.score()
    if args.json:
        data = solution.to_dict()
        data["order"] = [str(card) for card in order]
        data["caboose"] = None if game.caboose is None else game.caboose.name
        data["score"] = score.to_dict()
        print_json(data)
        return 0
    caboose = "no caboose" if game.caboose is None else f"caboose {game.caboose.name}"
    used = order[: game.hand_size + game.players * game.rounds]
    lines = [
        f"two-player deal from {source}, {plural(game.rounds, 'round')}, {caboose}",
        f"cards dealt and drawn, in order: {' '.join(str(card) for card in used)}",
        f"value (player 0's score minus player 1's, both playing perfectly): {solution.value:+d}",
        f"an optimal line ({plural(solution.nodes, 'state')} searched):",
    ]
    for event in game.events:
        if isinstance(event, Turn):
            way = "face up" if event.play.face_up else "face down"
            lines.append(
                f"  round {event.round}: player {event.player} holds "
                f"{' '.join(str(card) for card in event.hand)} -> plays {event.play.card} {way}"
            )
    lines.append("final scoring (trains in full, ~ = face down)")
    lines.extend(score_lines(score, ["perfect", "perfect"], game.trains))
    return output("\n".join(lines))


def add_commands(commands: Any) -> None:
    """``play``, ``tournament`` and ``solve``."""
    core = [name for name in SEATED_BOTS if name not in OPENSPIEL_BOTS]
    names = ", ".join(core) + "; with the openspiel extra " + ", ".join(OPENSPIEL_BOTS)
    sims = (
        f"simulations per decision of mcts and ismcts, {MIN_SIMULATIONS} to "
        f"{MAX_SIMULATIONS:,} (default {SEARCH_SIMULATIONS})"
    )
    game = add_command(
        commands,
        "play",
        help="play one game between bots, turn by turn",
        examples=[
            "express play --players search,greedy,random --seed 1",
            "express play --players greedy,greedy --caboose random --hindsight",
        ],
    )
    game.add_argument(
        "--players",
        required=True,
        metavar="BOTS",
        help=f"one bot per seat, clockwise, comma-separated, 2 to 5 ({names})",
    )
    game.add_argument(
        "--seed",
        type=seed,
        default=0,
        metavar="N",
        help="the seed of the shuffle and the bots, 0 or more (default 0)",
    )
    game.add_argument(
        "--caboose", metavar="NAME", help="a caboose by name, or 'random' (default: none)"
    )
    game.add_argument("--rounds", type=integer, metavar="N", help="override the 9 - N rounds")
    game.add_argument(
        "--hindsight", action="store_true", help="also the best train each player could have built"
    )
    game.add_argument(
        "--simulations", type=simulations, default=SEARCH_SIMULATIONS, metavar="N", help=sims
    )
    add_json_option(game)
    game.set_defaults(run=cmd_play)

    tour = add_command(
        commands,
        "tournament",
        help="a duplicate-deal tournament between bots",
        examples=[
            "express tournament --players search,greedy,random --games 200",
            "express tournament --players greedy,random --games 100 --match --caboose random --workers 2",
        ],
    )
    tour.add_argument(
        "--players",
        required=True,
        metavar="BOTS",
        help=f"one bot per seat, comma-separated, 2 to 5 ({names})",
    )
    tour.add_argument(
        "--games",
        type=whole_number,
        default=2000,
        metavar="N",
        help="deals, each played once per seat rotation (default 2000)",
    )
    tour.add_argument(
        "--seed", type=seed, default=0, metavar="N", help="the tournament's seed (default 0)"
    )
    tour.add_argument(
        "--match", action="store_true", help="play the strategic variant (two games) per deal"
    )
    tour.add_argument(
        "--caboose", metavar="NAME", help="a caboose by name, or 'random' (default: none)"
    )
    tour.add_argument(
        "--simulations", type=simulations, default=SEARCH_SIMULATIONS, metavar="N", help=sims
    )
    add_engine_option(tour)
    add_executor_options(tour)
    add_checkpoint_option(tour)
    add_json_option(tour)
    tour.set_defaults(run=cmd_tournament)

    solve = add_command(
        commands,
        "solve",
        help="the exact value and an optimal line of a two-player deal",
        examples=[
            "express solve --seed 3",
            "express solve --seed 3 --rounds 4 --caboose Lightweight --json",
        ],
    )
    source = solve.add_mutually_exclusive_group()
    source.add_argument(
        "--seed",
        type=seed,
        default=0,
        metavar="N",
        help="shuffle the 2-player deck with this seed (default 0)",
    )
    source.add_argument(
        "--order", metavar="FILE", help="a deck file with the deck order, top card first"
    )
    solve.add_argument("--caboose", metavar="NAME", help="a caboose by name (default: none)")
    solve.add_argument(
        "--rounds", type=integer, metavar="N", help="override the 7 rounds of a two-player game"
    )
    add_json_option(solve)
    solve.set_defaults(run=cmd_solve)
