"""The ``express play`` and ``express tournament`` commands (registered by :mod:`express.cli`).

* ``express play --players search,greedy,random [--seed 1] [--caboose NAME|random]
  [--rounds N] [--hindsight] [--json]`` — one game turn by turn: every turn's draw, hand and
  play, the trains as rows of cards after each round (a face-down card shows as ``~``), then the
  final scoring with the run award and the caboose (and, with ``--hindsight``, the best train
  each player could have built from the cards it saw).
* ``express tournament --players search,greedy,random --games 2000 [--seed 1] [--match]
  [--caboose NAME|random] [--workers N | --scheduler ADDRESS | --cluster local:N] [--json]`` — a duplicate-deal tournament
  (:func:`arena.tournament.tournament`): the table, plus how often the longest-run award and
  the caboose decided the winner (:func:`express.decisive`). ``--match`` plays the strategic
  variant (:class:`express.Match`) instead of single games.

* ``express solve [--seed 1 | --order FILE] [--caboose NAME] [--rounds N] [--json]`` — the
  exact value of a two-player deal (:func:`express.solve_deal`): the start player's score minus
  the other's when both play perfectly, and an optimal line. ``--seed`` shuffles the 2-player
  deck (numpy's generator seeded with it); ``--order`` reads the order, top card first, from a
  deck file.

A bot named twice gets a number (``greedy``, ``greedy#2``) so every seat has its own name.
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import partial
from typing import Any

import numpy as np

from arena import Policy, play
from arena.errors import ArenaError
from arena.executors import add_executor_options, executor_for
from express.bots import BOT_NAMES, OPENSPIEL_BOTS, SEARCH_SIMULATIONS, bot
from express.cards import deck_for, load_deck
from express.errors import ExpressError
from express.exact import solve_deal
from express.game import Dealt, Game, Turn
from express.match import Match
from express.review import Decisive, decisive, hindsight
from express.scoring import GameScore
from express.train import Train

__all__ = ["COMMANDS", "add_commands", "run"]

COMMANDS = ("play", "tournament", "solve")
"""The subcommands this module adds to ``express``."""


def add_commands(commands: Any) -> None:
    """Register ``play`` and ``tournament`` on the ``express`` parser's subparsers."""
    names = ", ".join(BOT_NAMES) + "; with the openspiel extra " + ", ".join(OPENSPIEL_BOTS)
    simulations = f"simulations per decision of mcts and ismcts (default {SEARCH_SIMULATIONS})"
    game = commands.add_parser("play", help="play one game between bots, turn by turn")
    game.add_argument(
        "--players", required=True, help=f"one bot per seat, clockwise, comma-separated ({names})"
    )
    game.add_argument(
        "--seed", type=int, default=0, help="the seed of the shuffle and the bots (default 0)"
    )
    game.add_argument("--caboose", help="a caboose by name, or 'random' (default: none)")
    game.add_argument("--rounds", type=int, help="override the 9 - N rounds")
    game.add_argument(
        "--hindsight", action="store_true", help="also the best train each player could have built"
    )
    game.add_argument("--simulations", type=int, default=SEARCH_SIMULATIONS, help=simulations)
    game.add_argument("--json", action="store_true", help="machine-readable output")

    tour = commands.add_parser("tournament", help="a duplicate-deal tournament between bots")
    tour.add_argument(
        "--players", required=True, help=f"one bot per seat, comma-separated ({names})"
    )
    tour.add_argument(
        "--games", type=int, default=2000, help="deals, each played once per seat rotation"
    )
    tour.add_argument("--seed", type=int, default=0, help="the tournament's seed (default 0)")
    tour.add_argument(
        "--match", action="store_true", help="play the strategic variant (two games) per deal"
    )
    tour.add_argument("--caboose", help="a caboose by name, or 'random' (default: none)")
    tour.add_argument("--simulations", type=int, default=SEARCH_SIMULATIONS, help=simulations)
    add_executor_options(tour, workers_default=1)
    tour.add_argument("--json", action="store_true", help="machine-readable output")

    solve = commands.add_parser(
        "solve", help="the exact value and an optimal line of a two-player deal"
    )
    source = solve.add_mutually_exclusive_group()
    source.add_argument(
        "--seed", type=int, default=0, help="shuffle the 2-player deck with this seed (default 0)"
    )
    source.add_argument("--order", help="a deck file with the deck order, top card first")
    solve.add_argument("--caboose", help="a caboose by name (default: none)")
    solve.add_argument("--rounds", type=int, help="override the 7 rounds of a two-player game")
    solve.add_argument("--json", action="store_true", help="machine-readable output")


def _bots(text: str, simulations: int = SEARCH_SIMULATIONS) -> dict[str, Policy]:
    """Seat names → bots, from ``"search,greedy,random"``; a repeated bot gets ``#2``, ``#3``…;
    OpenSpiel's bots search with ``simulations`` per decision."""
    if isinstance(simulations, bool) or simulations < 1:
        raise ExpressError(f"invalid --simulations: {simulations!r} (a whole number ≥ 1)")
    names = [name.strip().lower() for name in text.split(",")]
    if not 2 <= len(names) <= 5:
        raise ExpressError(f"invalid players: {text!r} (name 2 to 5 bots, comma-separated)")
    seats: dict[str, Policy] = {}
    for name in names:
        if name == "perfect":
            raise ExpressError(
                f"the perfect bot needs the deck order ({text!r}): "
                "express solve plays a two-player deal perfectly"
            )
        if name not in BOT_NAMES + OPENSPIEL_BOTS:
            raise ExpressError(
                f"unknown bot: {name!r} in {text!r} (choose from {', '.join(BOT_NAMES + OPENSPIEL_BOTS)})"
            )
        label, copy = name, 1
        while label in seats:
            copy += 1
            label = f"{name}#{copy}"
        seats[label] = bot(name, simulations=simulations) if name in OPENSPIEL_BOTS else bot(name)
    return seats


def _cars(train: Train) -> str:
    """A train as a row of cards after the engine; a face-down card shows only its back, ``~``."""
    return " > ".join(
        ["engine", *(str(play.card) if play.face_up else "~" for play in train.plays)]
    )


def _score_lines(score: GameScore, names: list[str], trains: list[Train]) -> list[str]:
    width = max(len(name) for name in names)
    lines = [
        f"  {'player':<{width + 4}}{'value':>6}{'run':>5}{'award':>7}{'caboose':>9}{'total':>7}  train"
    ]
    for p, train in zip(score.players, trains):
        mark = "*" if p.player == score.start_player else " "
        lines.append(
            f"  {p.player}{mark} {names[p.player]:<{width + 1}}{p.value:>6}{p.longest_run:>5}{p.run_bonus:>7}"
            f"{p.caboose_points:>9}{p.total:>7}  {train}"
        )
    runners = " and ".join(f"{seat} ({names[seat]})" for seat in score.run_winners)
    if score.run_winners:
        lines.append(
            f"longest run {score.longest_run}: player{'s' if len(score.run_winners) > 1 else ''} "
            f"{runners} gain{'' if len(score.run_winners) > 1 else 's'} {score.longest_run}"
        )
    else:
        lines.append("longest run: no coloured car, no award")
    if score.caboose is not None:
        winners = ", ".join(f"{seat} ({names[seat]})" for seat in score.caboose_winners) or "nobody"
        lines.append(
            f"caboose {score.caboose.name} ({score.caboose.points}, {score.caboose.condition}): {winners}"
        )
    winner = score.players[score.winner]
    tied = [p.player for p in score.players if p.total == winner.total]
    note = f" (tie-break among players {', '.join(map(str, tied))})" if len(tied) > 1 else ""
    lines.append(
        f"winner: player {winner.player} ({names[winner.player]}) with {winner.total}{note}"
    )
    return lines


def _play_text(game: Game, names: list[str], seed: int, with_hindsight: bool) -> str:
    width = max(len(name) for name in names)
    caboose = (
        "no caboose"
        if game.caboose is None
        else f"caboose {game.caboose.name} ({game.caboose.points}): {game.caboose.condition}"
    )
    lines = [
        f"Yardmaster Express, {game.players} players ({', '.join(names)}), seed {seed}, {caboose}"
    ]
    trains = [Train() for _ in range(game.players)]
    for event in game.events:
        if isinstance(event, Dealt):
            lines.append(
                f"player {event.player} ({names[event.player]}) is dealt "
                f"{' '.join(str(card) for card in event.cards)}"
            )
        elif isinstance(event, Turn):
            if event.player == game.start_player:
                lines.append(f"round {event.round}")
            way = "face up" if event.play.face_up else "face down"
            lines.append(
                f"  {event.player} {names[event.player]:<{width}}  draws {event.drew}, holds "
                f"{' '.join(str(card) for card in event.hand)} -> plays {event.play.card} {way}"
            )
            trains[event.player] = event.train
            if event.passed_to is None or event.passed_to == game.start_player:
                for seat, train in enumerate(trains):
                    mark = "*" if seat == game.start_player else " "
                    lines.append(f"    {seat}{mark} {names[seat]:<{width}}  {_cars(train)}")
    lines.append("final scoring (trains in full, ~ = face down)")
    lines.extend(_score_lines(game.score(), names, game.trains))
    if with_hindsight:
        lines.append(
            "hindsight: the best train from the cards each player saw (value + own longest run + caboose)"
        )
        for h in hindsight(game):
            lines.append(
                f"  {h.player} {names[h.player]:<{width}}  best {h.best.score} ({h.best.train}), "
                f"actual {h.solo}, gap {h.gap}"
            )
    return "\n".join(lines)


def _play(args: argparse.Namespace) -> str:
    seats = _bots(args.players, args.simulations)
    names = list(seats)
    game = Game(len(seats), caboose=args.caboose, rounds=args.rounds)
    if args.seed < 0:
        raise ExpressError(f"invalid seed: {args.seed!r} (a seed is 0 or more)")
    play(game, list(seats.values()), args.seed)
    if not args.json:
        return _play_text(game, names, args.seed, args.hindsight)
    data: dict[str, Any] = {
        "players": names,
        "seed": args.seed,
        "caboose": None if game.caboose is None else game.caboose.name,
        "turns": [
            {
                "round": e.round,
                "player": e.player,
                "drew": str(e.drew),
                "hand": [str(c) for c in e.hand],
                "play": str(e.play),
                "train": str(e.train),
            }
            for e in game.events
            if isinstance(e, Turn)
        ],
        "events": [str(e) for e in game.events],
        "trains": [str(train) for train in game.trains],
        "score": game.score().to_dict(),
    }
    if args.hindsight:
        data["hindsight"] = [
            {
                "player": h.player,
                "seen": [str(c) for c in h.seen],
                "best": h.best.to_dict(),
                "solo": h.solo,
                "total": h.total,
                "gap": h.gap,
            }
            for h in hindsight(game)
        ]
    return json.dumps(data, indent=2)


def _tournament(args: argparse.Namespace) -> str:
    from arena.tournament import tournament

    seats = _bots(args.players, args.simulations)
    options: dict[str, Any] = {
        "games": args.games,
        "seed": args.seed,
        "progress": sys.stderr.isatty(),
        "summarise": decisive,
    }
    new_game = partial(Match if args.match else Game, len(seats), caboose=args.caboose)
    try:
        new_game()  # bad game options fail here, before any worker starts
        with executor_for(args) as (executor, workers):
            result = tournament(new_game, seats, executor=executor, workers=workers, **options)
    except ArenaError as error:
        raise ExpressError(str(error)) from None
    except ImportError as error:
        raise ExpressError(f"the tournament needs an optional extra: {error}") from None
    summaries = [
        record.summary for record in result.records if isinstance(record.summary, Decisive)
    ]
    games = len(summaries)
    run_award = sum(1 for s in summaries if s.run_award)
    caboose = sum(1 for s in summaries if s.caboose)
    if args.json:
        data = result.to_dict()
        data["match"] = bool(args.match)
        data["decided"] = {"games": games, "run_award": run_award, "caboose": caboose}
        return json.dumps(data, indent=2)

    def share(count: int) -> str:
        return f"{count} of {games} games ({100 * count / games:.1f}%)" if games else "no games"

    lines = [
        f"{'matches' if args.match else 'games'} of Yardmaster Express: {', '.join(seats)}",
        str(result),
        f"the longest-run award decided the winner in {share(run_award)}",
    ]
    if args.caboose is None:
        lines.append("the caboose decided nothing: no caboose in play (--caboose NAME|random)")
    else:
        lines.append(f"the caboose decided the winner in {share(caboose)}")
    return "\n".join(lines)


def _solve(args: argparse.Namespace) -> str:
    """``express solve``: the exact value and an optimal line of a two-player deal."""
    if args.order is not None:
        order = load_deck(args.order)
        source = f"the order in {args.order}"
    else:
        if args.seed < 0:
            raise ExpressError(f"invalid seed: {args.seed!r} (a seed is 0 or more)")
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
        return json.dumps(data, indent=2)
    caboose = "no caboose" if game.caboose is None else f"caboose {game.caboose.name}"
    used = order[: game.hand_size + game.players * game.rounds]
    lines = [
        f"two-player deal from {source}, {game.rounds} rounds, {caboose}",
        f"cards dealt and drawn, in order: {' '.join(str(card) for card in used)}",
        f"value (player 0's score minus player 1's, both playing perfectly): {solution.value:+d}",
        f"an optimal line ({solution.nodes} states searched):",
    ]
    for event in game.events:
        if isinstance(event, Turn):
            way = "face up" if event.play.face_up else "face down"
            lines.append(
                f"  round {event.round}: player {event.player} holds "
                f"{' '.join(str(card) for card in event.hand)} -> plays {event.play.card} {way}"
            )
    lines.append("final scoring (trains in full, ~ = face down)")
    lines.extend(_score_lines(score, ["perfect", "perfect"], game.trains))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> str:
    """The output of ``express play``, ``tournament`` or ``solve``; bad input raises ExpressError."""
    if args.command == "play":
        return _play(args)
    if args.command == "solve":
        return _solve(args)
    return _tournament(args)
