"""``packing play`` and ``packing tournament``: the whole game between bots::

    packing play --players optimal,capacity,greedy-loader,random --seed 1 [--deck FILE] [--json]
    packing tournament --players optimal,bonus-aware,capacity,greedy-loader --games 2000 --seed 1
                       [--workers N | --scheduler ADDRESS | --cluster local:N] [--deck FILE] [--json]

Both take ``mcts`` among the bots with the ``openspiel`` extra (OpenSpiel's Monte-Carlo tree
search), and ``--simulations N`` for its simulations per decision. A bot named twice plays as
``optimal``, ``optimal#2`` (:func:`arena.seat_labels`).
"""

from __future__ import annotations

import argparse
from typing import Any

from arena.cli import (
    add_checkpoint_option,
    add_command,
    add_engine_option,
    add_executor_options,
    add_json_option,
    parse_bot_list,
    print_json,
    run_tournament,
    seat_labels,
    seed,
    simulations,
    whole_number,
)
from arena.search_bots import MAX_SIMULATIONS, MIN_SIMULATIONS
from packing.bots import BOT_NAMES, OPENSPIEL_BOTS, SEARCH_SIMULATIONS, bot, tournament
from packing.cli.common import deck_of, deck_option
from packing.errors import PackingError
from packing.game import MAX_PLAYERS, MIN_PLAYERS, play_game
from packing.report import play_text

__all__ = ["add_commands", "play_text"]


def _refusal(name: str) -> str:
    """Why :func:`packing.bot` refuses a name it knows (``ismcts``)."""
    try:
        bot(name)
    except PackingError as error:
        return str(error)
    raise AssertionError(f"bot {name!r} is not refused")


def players_of(args: argparse.Namespace) -> list[str]:
    """The bot names of ``--players``, checked."""
    return parse_bot_list(
        args.players,
        known=BOT_NAMES,
        players=(MIN_PLAYERS, MAX_PLAYERS),
        game="Pack & Stack",
        refused={"ismcts": _refusal("ismcts")},
    )


def _bot_options(args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """The bots' options from the command line, by bot name."""
    return {"mcts": {"simulations": args.simulations}}


def cmd_play(args: argparse.Namespace) -> int:
    """``packing play``: one game, round by round (``--json``: the records)."""
    names = players_of(args)
    options = _bot_options(args)
    state = play_game(
        [bot(n, **options.get(n, {})) for n in names], seed=args.seed, deck=deck_of(args)
    )
    labels = list(seat_labels(names))
    if args.json:
        print_json({"players": labels, "seed": args.seed} | state.to_dict())
    else:
        print(play_text(state, labels, args.seed))
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    """``packing tournament``: duplicate deals between bots; the table (``--json``: its data)."""
    names = players_of(args)
    deck = deck_of(args)
    options = _bot_options(args)
    result = run_tournament(
        args,
        tournament,
        names,
        bot=bot,
        needs_extra=OPENSPIEL_BOTS,
        bot_options=options,
        deck=deck,
    )
    if args.json:
        print_json(result.to_dict())
    else:
        print(result)
    return 0


def _common_options(p: argparse.ArgumentParser, seat_help: str, seed_help: str) -> None:
    names = ", ".join(BOT_NAMES) + "; mcts needs the openspiel extra"
    p.add_argument("--players", required=True, metavar="BOTS", help=f"{seat_help} (bots: {names})")
    p.add_argument("--seed", type=seed, default=0, help=f"{seed_help} (default 0)")
    p.add_argument(
        "--simulations",
        type=simulations,
        default=SEARCH_SIMULATIONS,
        metavar="N",
        help=f"mcts's simulations per decision, {MIN_SIMULATIONS} to {MAX_SIMULATIONS:,} "
        f"(default {SEARCH_SIMULATIONS})",
    )
    deck_option(p, help="a deck file (default: the sample deck, not the printed cards)")
    add_json_option(p)


def add_commands(sub: Any) -> None:
    """``play`` and ``tournament``."""
    p = add_command(
        sub,
        "play",
        help="play one game with bots and print it round by round",
        examples=[
            "packing play --players optimal,capacity,greedy-loader,random --seed 1",
            "packing play --players optimal,optimal --deck my-deck.txt --json",
        ],
    )
    _common_options(p, "2 to 6 comma-separated bots, e.g. optimal,capacity", "the game's seed")
    p.set_defaults(run=cmd_play)

    p = add_command(
        sub,
        "tournament",
        help="duplicate-deal tournament between bots: wins, intervals, ratings",
        examples=[
            "packing tournament --players optimal,capacity --games 200 --seed 1",
            "packing tournament --players optimal,bonus-aware,random --games 2000 --workers 4",
        ],
    )
    _common_options(p, "2 to 6 comma-separated bots, one per seat", "the tournament's seed")
    p.add_argument(
        "--games",
        type=whole_number,
        default=200,
        help="deals, each played in every seat rotation (default 200)",
    )
    add_engine_option(p)
    add_executor_options(p)
    add_checkpoint_option(p)
    p.set_defaults(run=cmd_tournament)
