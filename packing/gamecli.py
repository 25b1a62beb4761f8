"""The game's commands, registered by :mod:`packing.cli`: ``packing play`` and ``packing tournament``.

    packing play --players optimal,capacity,greedy-loader,random --seed 1 [--deck FILE] [--json]
    packing tournament --players optimal,bonus-aware,capacity,greedy-loader --games 2000 --seed 1
                       [--workers N | --scheduler ADDRESS | --cluster local:N] [--deck FILE] [--json]

Both take ``mcts`` among the bots with the ``openspiel`` extra (OpenSpiel's Monte-Carlo tree
search), and ``--simulations N`` for its simulations per decision.

Bad input raises :class:`packing.PackingError` with one line quoting it (the CLI prints it and
exits with status 2).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from arena.executors import ExecutorError, add_executor_options, executor_for
from packing.bots import BOTS, MCTS_SIMULATIONS, SEARCH_BOTS, bot, tournament
from packing.deck import SAMPLE_DECK, load_deck
from packing.errors import PackingError
from packing.game import MAX_PLAYERS, MIN_PLAYERS, Game, RoundRecord, play_game
from packing.model import Truck

__all__ = ["add_commands", "cmd_play", "cmd_tournament", "game_dict", "parse_players", "report"]


def parse_players(text: str) -> list[str]:
    """The bot names of ``--players`` (``"optimal,capacity"``), checked.

    >>> parse_players("optimal, random")
    ['optimal', 'random']
    """
    names = [n.strip() for n in text.split(",")]
    if not all(names):
        raise PackingError(f"argument --players: {text!r} is not a comma-separated list of bots")
    unknown = [n for n in names if n not in BOTS + SEARCH_BOTS]
    if "ismcts" in unknown:
        bot("ismcts")  # raises the reason: the game has perfect information
    if unknown:
        raise PackingError(
            f"argument --players: unknown bot {unknown[0]!r} in {text!r} "
            f"(choose from {', '.join(BOTS + SEARCH_BOTS)})"
        )
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise PackingError(
            f"argument --players: {text!r} names {len(names)} player{'' if len(names) == 1 else 's'}; "
            f"Pack & Stack takes {MIN_PLAYERS} to {MAX_PLAYERS}"
        )
    return names


def _seed(value: int) -> int:
    if value < 0:
        raise PackingError(f"argument --seed: must be a non-negative integer, not {value}")
    return value


def _deck(path: str | None) -> tuple[Truck, ...]:
    return load_deck(path) if path else SAMPLE_DECK


def _names(names: Sequence[str]) -> list[str]:
    return [f"P{p} {name}" for p, name in enumerate(names)]


def report(state: Game, names: Sequence[str]) -> str:
    """A finished game, round by round, like a game report."""
    label = _names(names)
    width = max(map(len, label))
    lines = [
        f"Pack & Stack: {state.num_players} players, {state.setup['start_points']} points each"
    ]
    lines.append("players: " + ", ".join(label))
    for record in state.rounds:
        lines.append("")
        lines += _round_lines(record, label, width)
    winners = sorted(state.winners())
    best = state.points[winners[0]]
    lines.append("")
    lines.append(
        f"game over after {len(state.rounds)} rounds: "
        + " and ".join(label[p] for p in winners)
        + (" share the win" if len(winners) > 1 else " wins")
        + f" with {best} points"
    )
    return "\n".join(lines)


def _round_lines(record: RoundRecord, label: Sequence[str], width: int) -> list[str]:
    lines = [f"round {record.number} (first roller P{record.first_roller})"]
    n = len(label)
    order = [(record.first_roller + i) % n for i in range(n)]
    for p in order:
        cargo = record.cargos[p]
        trucks = " ".join(f"{t.name}({t.capacity})" for t in record.revealed[p])
        lines.append(
            f"  {label[p]:<{width}}  rolls {str(cargo):<9} = {cargo.volume:>2} cubes, "
            f"reveals {trucks}"
        )
    lines.append("  grab order: " + ", ".join(f"P{p}" for p in record.grab_order))
    for p in record.grab_order:
        truck, source, plan = record.taken[p], record.sources[p], record.plans[p]
        where = "from the pile" if source[0] == "pile" else f"from P{source[1]}"
        lines.append(
            f"  {label[p]:<{width}}  takes {truck.name} {where:<13} loads {plan.loaded:>2}/"
            f"{record.cargos[p].volume:>2} cubes into {truck.capacity:>2} -> penalty "
            f"{record.penalties[p]:>2}{'  +10' if p in record.bonus else ''}"
        )
    lines.append("  standings: " + ", ".join(f"P{p} {x}" for p, x in enumerate(record.points)))
    return lines


def game_dict(state: Game, names: Sequence[str], seed: int) -> dict[str, Any]:
    """A finished game as JSON-ready data: the players, every round record, the result."""
    return {
        "players": list(names),
        "seed": seed,
        "start_points": state.setup["start_points"],
        "rounds": [r.to_dict() for r in state.rounds],
        "points": list(state.points),
        "winners": sorted(state.winners()),
    }


def _bot_options(args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """The bots' options from the command line, by bot name."""
    return {"mcts": {"simulations": _at_least_one(args.simulations, "--simulations")}}


def cmd_play(args: argparse.Namespace) -> int:
    """``packing play``: one game, round by round (``--json``: the records)."""
    names = parse_players(args.players)
    seed = _seed(args.seed)
    options = _bot_options(args)
    state = play_game(
        [bot(n, **options.get(n, {})) for n in names], seed=seed, deck=_deck(args.deck)
    )
    if args.json:
        print(json.dumps(game_dict(state, names, seed), indent=2))
    else:
        print(report(state, names))
    return 0


def _at_least_one(value: int, option: str) -> int:
    if value < 1:
        raise PackingError(f"argument {option}: must be at least 1, not {value}")
    return value


def cmd_tournament(args: argparse.Namespace) -> int:
    """``packing tournament``: duplicate deals between bots; the table (``--json``: its data)."""
    names = parse_players(args.players)
    games = _at_least_one(args.games, "--games")
    if args.workers is not None:
        _at_least_one(args.workers, "--workers")
    seed = _seed(args.seed)
    deck = _deck(args.deck)
    options = _bot_options(args)
    for name in set(names) & set(SEARCH_BOTS):
        bot(
            name, **options[name]
        )  # a missing extra fails here, in one line, before any worker starts
    try:
        with executor_for(args) as (executor, workers):
            result = tournament(
                names,
                games=games,
                seed=seed,
                workers=workers,
                executor=executor,
                deck=deck,
                progress=not args.json and sys.stderr.isatty(),
                bot_options=options,
            )
    except ExecutorError as error:  # bad options, the dask extra missing, a cluster out of reach
        raise PackingError(str(error)) from None
    except ImportError as error:  # the tournament extra is missing: say which, in one line
        raise PackingError(str(error).splitlines()[0]) from None
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(result)
    return 0


_BOT_NAMES = ", ".join(BOTS + SEARCH_BOTS) + "; mcts needs the openspiel extra"


def _add_simulations(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--simulations",
        type=int,
        default=MCTS_SIMULATIONS,
        help=f"mcts's simulations per decision (default {MCTS_SIMULATIONS})",
    )


def add_commands(sub: Any) -> None:
    """Register ``play`` and ``tournament`` on the CLI's subcommands."""
    p = sub.add_parser("play", help="play one game with bots and print it round by round")
    p.add_argument(
        "--players",
        required=True,
        help=f"2 to 6 comma-separated bots, e.g. optimal,capacity (bots: {_BOT_NAMES})",
    )
    p.add_argument("--seed", type=int, default=0, help="the game's seed (default 0)")
    _add_simulations(p)
    p.add_argument("--deck", help="a deck file (default: the sample deck, not the printed cards)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=cmd_play)

    p = sub.add_parser(
        "tournament", help="duplicate-deal tournament between bots: wins, intervals, ratings"
    )
    p.add_argument(
        "--players",
        required=True,
        help=f"2 to 6 comma-separated bots, one per seat (bots: {_BOT_NAMES})",
    )
    p.add_argument(
        "--games",
        type=int,
        default=200,
        help="deals, each played in every seat rotation (default 200)",
    )
    p.add_argument("--seed", type=int, default=0, help="the tournament's seed (default 0)")
    _add_simulations(p)
    add_executor_options(p, workers_default=1)
    p.add_argument("--deck", help="a deck file (default: the sample deck, not the printed cards)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=cmd_tournament)
