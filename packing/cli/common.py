"""What the ``packing`` commands share: option values, the deck and cargo options, output
paths checked before any work, and the text of a ranking."""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from typing import Any

from arena.cli import Parser, UsageError
from arena.cli import check_file as check_file  # the CLI modules read these from here
from arena.cli import check_folder as check_folder
from arena.cli import output_path as output_path
from arena.text import plural as plural  # the CLI modules read it from here
from packing.deck import SAMPLE_DECK, load_deck
from packing.errors import PackingError
from packing.model import LARGEST_HEIGHT, Cargo, Truck, check_height

#: Suffixes ``packing plot plan --out`` writes (the format follows the suffix).
PICTURE_SUFFIXES = (".png", ".svg", ".pdf")
VARIANT_HELP = (
    "the game's trucks fit 3 rows × 5 columns with height 1–4; larger ones are "
    "accepted on purpose, as variants, and labelled so"
)
DECK_HELP = (
    "a deck file, UTF-8 text (default: the sample deck, not the printed cards; "
    f"`packing deck` prints it); {VARIANT_HELP}"
)


def subcommands(parser: argparse.ArgumentParser, dest: str) -> Any:
    """The subcommands of ``parser``, whose errors are one line too."""
    return parser.add_subparsers(dest=dest, required=True, parser_class=Parser)


# --- option values ----------------------------------------------------------------------------


def _counts_text(text: str, what: str) -> str:
    """``text`` when it holds exactly five counts (split by commas, or by spaces)."""
    parts = text.split(",") if "," in text else text.split()
    if len(parts) != 5 or not all(p.strip() for p in parts):
        raise argparse.ArgumentTypeError(
            f"invalid {what} {text!r}: five counts are needed, one per rod length 1..5 "
            f"(e.g. {'3,2,3,0,1' if what == 'roll' else '6,0,0,0,3'})"
        )
    return text


def height(text: str) -> int:
    """``--height``: a whole number from 1 to :data:`packing.model.LARGEST_HEIGHT`."""
    if not re.fullmatch(r"[+-]?[0-9]+", text.strip()):  # int() reads other scripts' digits too
        raise argparse.ArgumentTypeError(
            f"invalid height {text!r}: a whole number from 1 to {LARGEST_HEIGHT:,} is needed"
        )
    try:
        return check_height(int(text))
    except PackingError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def roll(text: str) -> Cargo:
    try:
        return Cargo.parse(_counts_text(text, "roll"), roll=True)
    except PackingError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def cargo_counts(text: str) -> Cargo:
    try:
        return Cargo.parse(_counts_text(text, "cargo"))
    except PackingError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


# --- options ----------------------------------------------------------------------------------


def cargo_options(p: argparse.ArgumentParser, *, required: bool = True) -> None:
    group = p.add_mutually_exclusive_group(required=required)
    group.add_argument(
        "--roll",
        type=roll,
        metavar="COUNTS",
        help="five dice results for lengths 1..5, e.g. 3,2,3,0,1",
    )
    group.add_argument(
        "--cargo",
        type=cargo_counts,
        metavar="COUNTS",
        help="any five rod counts for lengths 1..5, e.g. 6,0,0,0,3",
    )


def truck_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--truck",
        required=True,
        metavar="MASK",
        help=f"mask rows split by '/', e.g. '#####/###../#####'; {VARIANT_HELP}",
    )
    p.add_argument(
        "--height",
        required=True,
        type=height,
        metavar="H",
        help=f"the truck's height cap (1 to {LARGEST_HEIGHT:,}; the game's are 1–4)",
    )
    p.add_argument("--name", metavar="LABEL", help="a name for the truck")


def deck_option(p: argparse.ArgumentParser, help: str = DECK_HELP) -> None:
    p.add_argument("--deck", metavar="FILE", help=help)


def cargo_of(args: argparse.Namespace) -> Cargo:
    cargo: Cargo = args.roll if args.roll is not None else args.cargo
    return cargo


def deck_of(args: argparse.Namespace) -> tuple[Truck, ...]:
    return load_deck(args.deck) if args.deck is not None else SAMPLE_DECK  # --deck "" is bad


def truck_of(args: argparse.Namespace) -> Truck:
    return Truck.parse(args.truck, height=args.height, name=args.name or "")


def trucks_by_name(deck: Sequence[Truck], names: str, option: str) -> list[Truck]:
    index = {t.name: t for t in deck}
    chosen: list[Truck] = []
    if not names.strip():
        return chosen  # none named
    parts = [n.strip() for n in names.split(",")]
    if not all(parts):
        raise UsageError(f"argument {option}: {names!r} is not a comma-separated list of names")
    for name in parts:
        if name not in index:
            raise UsageError(f"argument {option}: no truck named {name!r} in the deck")
        if index[name] in chosen:
            raise UsageError(f"argument {option}: truck {name!r} is named twice")
        chosen.append(index[name])
    return chosen


# --- output paths: checked before any work ----------------------------------------------------


# --- text -------------------------------------------------------------------------------------


def variant_note(truck: Truck) -> str | None:
    if not truck.is_variant:
        return None
    return (
        f"variant truck: {truck.rows}×{truck.columns} grid, height {truck.height} "
        f"(the game's trucks fit 3×5, height 1–4)"
    )
