"""The ``packing`` command: a thin shell over the public API.

    packing solve --roll 3,2,3,0,1 --truck '#####/###../#####' --height 3
    packing best --roll 3,2,3,0,1 [--deck FILE] [--top K]

Add ``--json`` for machine output. Bad input prints one line quoting it and exits with 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from packing.deck import SAMPLE_DECK, load_deck
from packing.errors import PackingError
from packing.model import Cargo, LoadPlan, Truck
from packing.queries import best_truck, expected_penalty
from packing.verify import verify

EXIT_USAGE = 2


class UsageError(Exception):
    """Raised by the parser instead of printing a usage block and exiting."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _cargo(args: argparse.Namespace) -> Cargo:
    if args.roll is not None:
        return Cargo.parse(args.roll, roll=True)
    return Cargo.parse(args.cargo)


def _deck(args: argparse.Namespace) -> tuple[Truck, ...]:
    return load_deck(args.deck) if args.deck else SAMPLE_DECK


def cmd_solve(args: argparse.Namespace) -> int:
    truck = Truck.parse(args.truck, height=args.height, name=args.name or "")
    plan = verify(_solve_one(_cargo(args), truck, args.time_limit))
    print(json.dumps(plan.to_dict(), indent=2) if args.json else plan.render())
    return 0


def _solve_one(cargo: Cargo, truck: Truck, time_limit: float | None) -> LoadPlan:
    return best_truck(cargo, [truck], time_limit=time_limit)[0]


def cmd_best(args: argparse.Namespace) -> int:
    if args.top is not None and args.top < 1:
        raise UsageError(f"argument --top: must be at least 1, not {args.top}")
    cargo, deck = _cargo(args), _deck(args)
    plans = best_truck(cargo, deck, top=args.top, time_limit=args.time_limit)
    for plan in plans:
        verify(plan)
    blind = expected_penalty(cargo, deck)
    if args.json:
        out = {
            "cargo": list(cargo.counts),
            "volume": cargo.volume,
            "ranking": [
                {"truck": p.truck.name, "mask": str(p.truck), "height": p.truck.height,
                 "capacity": p.truck.capacity, "penalty": p.penalty, "optimal": p.optimal}
                for p in plans
            ],
            "blind_draw_expected_penalty": float(blind),
            "best": plans[0].to_dict(),
        }
        print(json.dumps(out, indent=2))
        return 0
    print(f"cargo {cargo} (volume {cargo.volume}) on {len(deck)} trucks")
    print(f"{'rank':>4}  {'truck':<8} {'mask':<18} {'height':>6} {'capacity':>8} {'penalty':>7}")
    for rank, plan in enumerate(plans, start=1):
        t = plan.truck
        print(f"{rank:>4}  {t.name:<8} {str(t):<18} {t.height:>6} {t.capacity:>8} {plan.penalty:>7}")
    print(f"blind draw from the whole deck: expected penalty {float(blind):.2f} (exactly {blind})")
    print()
    print("best load plan:")
    print(plans[0].render())
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="packing", description="Provably optimal Pack & Stack answers.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def cargo_options(p: argparse.ArgumentParser) -> None:
        group = p.add_mutually_exclusive_group(required=True)
        group.add_argument("--roll", help="five dice results for lengths 1..5, e.g. 3,2,3,0,1")
        group.add_argument("--cargo", help="any rod counts for lengths 1..5, e.g. 6,0,0,0,3")
        p.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                       help="stop CP-SAT early (the plan is then only feasible, with its bound)")
        p.add_argument("--json", action="store_true", help="machine-readable output")

    solve_p = sub.add_parser("solve", help="the best loading of a cargo onto one truck")
    cargo_options(solve_p)
    solve_p.add_argument("--truck", required=True, help="mask rows split by '/', e.g. '#####/###../#####'")
    solve_p.add_argument("--height", required=True, type=int, help="the truck's height cap (≥ 1)")
    solve_p.add_argument("--name", help="a name for the truck")
    solve_p.set_defaults(run=cmd_solve)

    best_p = sub.add_parser("best", help="rank a deck's trucks for a cargo, show the best plan")
    cargo_options(best_p)
    best_p.add_argument("--deck", help="a deck file (default: the sample deck, not the printed cards)")
    best_p.add_argument("--top", type=int, default=None, help="only the best K trucks")
    best_p.set_defaults(run=cmd_best)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (2 for bad input)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        run: Callable[[argparse.Namespace], int] = args.run
        return run(args)
    except (UsageError, PackingError) as error:
        print(f"packing: error: {error}", file=sys.stderr)
        return EXIT_USAGE
