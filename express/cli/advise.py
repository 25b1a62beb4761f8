"""``express advise``: a player at the table types what they can see and asks what to play.

``express advise --players 3 --seat 1 --round 2 --hand "R4|B4,B2|B3,Y3|G3,G2|G2"
--train "B2|B2,~" --train "R3|G3" --train "G4|Y4" [--seen CARDS] [--start-player P]
[--pass left|right] [--caboose NAME] [--rounds N] [--worlds N] [--time-limit S]
[--rule paranoid|maxn] [--seed S] [--json]`` — the view becomes an :class:`express.Observation`
(:func:`express.table_view.table_observation`, which checks it could come from a game), and
:func:`express.advise` values every candidate play over sampled worlds — in the last four turns
of a two-player game exactly, every draw to come weighed by its probability
(:func:`express.expected_values`); the answer is the table of plays, best first, with the
recommendation marked and how the values were made (``--json``: :meth:`express.Advice.to_dict`).

``--train`` is given once per seat in seat order (seat 0 first), as ``express score`` takes
it: another player's face-down card is ``~``, your own is ``~`` and the card (``~B2|B2``).
``--seen`` lists the cards you held on earlier turns and passed on; the hand and your own
train count as seen without being repeated.
"""

from __future__ import annotations

import argparse
import textwrap
from typing import Any

from arena.cli import (
    add_command,
    add_json_option,
    integer,
    print_json,
    seconds,
    seed,
    whole_number_to,
    with_examples,
)
from express.cli.trains import output
from express.game import Observation
from express.pimc import DEFAULT_RULE, MAX_WORLDS, RULES, advise
from express.table_view import position_text, table_observation

__all__ = ["add_commands", "observation_of"]

EXAMPLES = [
    'express advise --players 3 --seat 1 --round 4 --hand "B2|B2,Y2|Y2,P2|P2,P3|B3" '
    '--train "P4|P4,P3|Y3,Y4|R4,R2|R2" --train "P2|P3,G3|R3,R2|R3" --train "R3|G3,G2|G2,B2|B2" '
    '--seen "B2|B2,G2|G2,P3|Y3,R2|R2" --seed 1',
    'express advise --players 2 --seat 1 --round 5 --start-player 1 --hand "R2|R2,Y2|Y2,G2|G3" '
    '--train "Y4|R4,R2|R3,~,G4|Y4" --train "B3|Y3,B3|R3,G3|B3,~Y2|Y2" '
    '--seen "G2|G2,G4|Y4,R2|R3" --seed 1',
    'express advise --players 2 --seat 1 --round 5 --hand "R2|R2,G2|G2,B2|B3" '
    '--train "B4|G4,G3|B3,B3|Y3,~,G2|G3" --train "R3|G3,G3|R3,Y3|G3,R3|Y3" '
    '--seen "B3|Y3,G3|B3,R2|R2" --caboose Lightweight --worlds 8 --json',
    'express advise --players 2 --seat 1 --round 5 --hand "R2|R2,R3|G3,Y3|G3" '
    '--train "B4|G4,G4|Y4,Y3|B3,B3|Y3,Y4|R4" --train "R4|B4,~G2|G2,G2|G3,~B2|B2" '
    '--seen "G4|Y4,Y3|B3,Y4|R4" --seed 7',
]
"""Runnable command lines: positions of games between greedy bots (so a world leads to each)."""

NOTE = textwrap.fill(
    "Give one --train per seat, seat 0 first: another player's face-down card is ~, your own "
    "~ and the card (~B2|B2). --seen lists the cards you held before and passed on; your hand "
    "and your train count as seen by themselves. In the last four turns of a two-player game "
    "the values are exact (every card still to come weighed by its chance) and no world is "
    "sampled. A view no game can show prints one line "
    "quoting it and exits with status 2 (with --json: a JSON object with an 'error' field).",
    width=79,
)


def observation_of(args: argparse.Namespace) -> Observation:
    """The observation the command line describes (its checks raise one-line errors)."""
    return table_observation(
        players=args.players,
        seat=args.seat,
        round=args.round,
        hand=args.hand,
        trains=args.trains,
        seen=args.seen,
        start_player=args.start_player,
        pass_left=args.pass_way == "left",
        caboose=args.caboose,
        rounds=args.rounds,
    )


def cmd_advise(args: argparse.Namespace) -> int:
    view = observation_of(args)
    options: dict[str, Any] = {
        "rng": args.seed,
        "time_limit": args.time_limit,
        "rule": args.rule,
        "progress": True,
    }
    if args.worlds is not None:
        options["worlds"] = args.worlds
    advice = advise(view, **options)
    if args.json:
        print_json(advice.to_dict())
        return 0
    hand = ",".join(str(card) for card in view.hand)
    how = (
        "exact, no world sampled"
        if advice.expectation
        else f"{advice.worlds} world{'s' if advice.worlds != 1 else ''}"
    )
    return output(
        f"{position_text(view)}\nhand: {hand}\n{advice}\n({how} in {advice.seconds:.2f} s)"
    )


def add_commands(commands: Any) -> None:
    """``advise``."""
    parser = add_command(
        commands,
        "advise",
        help="what to play at your turn: every candidate play valued over sampled worlds",
        examples=EXAMPLES,
    )
    with_examples(parser, EXAMPLES, note=NOTE)
    parser.add_argument(
        "--players", type=integer, required=True, metavar="N", help="players at the table, 2 to 5"
    )
    parser.add_argument(
        "--seat",
        type=integer,
        required=True,
        metavar="P",
        help="your seat, from 0 (seats are numbered clockwise)",
    )
    parser.add_argument(
        "--round",
        type=integer,
        required=True,
        metavar="R",
        help="the round being played, from 1 (a game has 9 - N rounds)",
    )
    parser.add_argument(
        "--hand",
        required=True,
        metavar="CARDS",
        help="the N + 1 cards you hold: the hand passed (or dealt) to you and the card you drew, "
        'e.g. "R4|B4,B2|B3,Y3|G3,G2|G2"',
    )
    parser.add_argument(
        "--train",
        action="append",
        required=True,
        dest="trains",
        metavar="TRAIN",
        help='one seat\'s train: repeat once per seat, seat 0 first, "" for an engine-only '
        'train; ~ is another player\'s face-down card, ~CARD your own (e.g. "B2|B2,~", '
        '"~R3|G3")',
    )
    parser.add_argument(
        "--seen",
        default="",
        metavar="CARDS",
        help="the cards you held on earlier turns and passed on, wherever they went (your hand "
        "and your train count without being repeated; one left out is one you never saw)",
    )
    parser.add_argument(
        "--start-player",
        type=integer,
        default=0,
        metavar="P",
        help="the seat that was dealt the first hand (default 0)",
    )
    parser.add_argument(
        "--pass",
        dest="pass_way",
        choices=("left", "right"),
        default="left",
        help="which way the hand goes: left (clockwise, the rules) or right (game 2 of the "
        "strategic variant)",
    )
    parser.add_argument(
        "--caboose",
        metavar="NAME",
        help="the caboose in play (`express cabooses` lists them; default none)",
    )
    parser.add_argument(
        "--rounds",
        type=integer,
        metavar="N",
        help="the game's rounds, if not 9 - N",
    )
    parser.add_argument(
        "--worlds",
        type=whole_number_to(MAX_WORLDS),
        metavar="N",
        help=f"hidden worlds to sample and solve, at most {MAX_WORLDS:,} (default: the advisor's)",
    )
    parser.add_argument(
        "--time-limit",
        type=seconds,
        metavar="SECONDS",
        help="stop sampling after this many seconds and answer from the worlds solved",
    )
    parser.add_argument(
        "--rule",
        choices=RULES,
        default=DEFAULT_RULE,
        help="with 3 to 5 players, what a world's value is: paranoid (your final score minus "
        "the best rival's, the rivals playing against you) or maxn (your own final score, "
        f"every player maximising their own); default {DEFAULT_RULE}",
    )
    parser.add_argument(
        "--seed", type=seed, metavar="S", help="seed the sampling, for a reproducible answer"
    )
    add_json_option(parser)
    parser.set_defaults(run=cmd_advise)
