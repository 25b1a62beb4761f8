"""``packing solve``, ``best``, ``grab`` and ``deck``: answers about one cargo, and the deck file."""

from __future__ import annotations

import argparse
from typing import Any

from arena.cli import UsageError, add_command, add_json_option, print_json, seconds, whole_number
from packing.cli.common import (
    cargo_of,
    cargo_options,
    deck_of,
    deck_option,
    plural,
    truck_of,
    truck_options,
    trucks_by_name,
    variant_note,
)
from packing.deck import format_deck
from packing.queries import best_truck
from packing.stats import grab_advice, ranking
from packing.verify import verify


def time_limit_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--time-limit",
        type=seconds,
        default=None,
        metavar="SECONDS",
        help="stop CP-SAT early (the plan is then only feasible, with its bound)",
    )


def cmd_solve(args: argparse.Namespace) -> int:
    truck = truck_of(args)
    plan = verify(best_truck(cargo_of(args), [truck], time_limit=args.time_limit)[0])
    if args.json:
        print_json(plan.to_dict() | {"variant": truck.is_variant})
        return 0
    note = variant_note(truck)
    if note:
        print(note)
    print(plan.render())
    return 0


def cmd_best(args: argparse.Namespace) -> int:
    cargo, deck = cargo_of(args), deck_of(args)
    result = ranking(
        cargo, deck, top=args.top, solve_best=True, time_limit=args.time_limit, progress=True
    )
    if result.best is not None:
        verify(result.best)  # an independent check of the solver's plan before it is shown
    if args.json:
        print_json(result.to_dict())
        return 0
    print(result)
    return 0


def cmd_grab(args: argparse.Namespace) -> int:
    cargo, deck = cargo_of(args), deck_of(args)
    revealed = trucks_by_name(deck, args.revealed, "--revealed")
    if args.pile is not None:
        pile = trucks_by_name(deck, args.pile, "--pile")
        both = [t.name for t in pile if t in revealed]
        if both:
            raise UsageError(f"argument --pile: truck {both[0]!r} is also in --revealed")
    else:
        pile = [t for t in deck if t not in revealed]
    if not revealed and not pile:
        raise UsageError("nothing to choose from: give --revealed trucks or a --pile")
    advice = grab_advice(cargo, revealed, pile, progress=True)
    if args.json:
        print_json(advice.to_dict())
        return 0
    print(advice)
    return 0


def cmd_deck(args: argparse.Namespace) -> int:
    deck = deck_of(args)
    source = (
        f"the deck file {args.deck}"
        if args.deck is not None
        else "the sample deck (designed by this project: NOT the printed cards)"
    )
    print(f"; Pack & Stack: {plural(len(deck), 'truck')}, {source}")
    print("; one block per truck: 'NAME height N', then the mask rows ('#' usable, '.' not);")
    print("; lines starting with ';' are comments. Load it with --deck FILE or load_deck(FILE).")
    for truck in deck:
        if truck.is_variant:
            print(f"; {truck.name} is a variant: {variant_note(truck)}")
    print()
    print(format_deck(deck), end="")
    return 0


def add_commands(sub: Any) -> None:
    """``solve``, ``best``, ``grab``, ``deck``."""
    p = add_command(
        sub,
        "solve",
        help="the best loading of a cargo onto one truck",
        examples=[
            "packing solve --roll 3,2,3,0,1 --truck '#####/###../#####' --height 3",
            "packing solve --cargo 6,0,0,0,3 --truck '####/####' --height 2 --json",
        ],
    )
    cargo_options(p)
    truck_options(p)
    time_limit_option(p)
    add_json_option(p)
    p.set_defaults(run=cmd_solve)

    p = add_command(
        sub,
        "best",
        help="rank a deck's trucks for a cargo, show the best plan",
        examples=[
            "packing best --roll 3,2,3,0,1 --top 5",
            "packing best --cargo 6,0,0,0,3 --deck my-deck.txt --json",
        ],
    )
    cargo_options(p)
    deck_option(p)
    p.add_argument(
        "--top", type=whole_number, default=None, metavar="K", help="only the best K trucks"
    )
    time_limit_option(p)
    add_json_option(p)
    p.set_defaults(run=cmd_best)

    p = add_command(
        sub,
        "grab",
        help="take a revealed truck or draw from the pile?",
        examples=[
            "packing grab --roll 3,2,3,0,1 --revealed S03,S17",
            "packing grab --roll 3,2,3,0,1 --revealed S03 --pile S01,S02,S04",
        ],
    )
    cargo_options(p)
    deck_option(p)
    p.add_argument(
        "--revealed",
        default="",
        metavar="NAMES",
        help="names of the trucks you may take, e.g. S03,S17",
    )
    p.add_argument(
        "--pile",
        default=None,
        metavar="NAMES",
        help="names of the trucks the pile may hold "
        "(default: the deck without the revealed ones; none may be revealed too)",
    )
    add_json_option(p)
    p.set_defaults(run=cmd_grab)

    p = add_command(
        sub,
        "deck",
        help="print a deck as a deck file (--deck FILE loads it back)",
        examples=["packing deck > my-deck.txt", "packing deck --deck my-deck.txt"],
    )
    deck_option(p)
    p.set_defaults(run=cmd_deck)
