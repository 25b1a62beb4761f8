"""``packing plot plan`` and ``packing plot deck``: pictures (the plot extra; a plan's ``.svg``
is the library's own drawing and needs none)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from arena.cli import UsageError, add_command
from packing.cli.answers import time_limit_option
from packing.cli.common import (
    PICTURE_SUFFIXES,
    cargo_of,
    cargo_options,
    check_file,
    check_folder,
    deck_of,
    deck_option,
    output_path,
    subcommands,
    truck_of,
    truck_options,
)
from packing.cli.tables import table_for
from packing.queries import best_truck
from packing.svg import write_plan_svg
from packing.verify import verify


def picture_path(text: str) -> Path:
    """``--out`` of a picture: a writable file whose suffix names a format."""
    path = output_path(text)
    if path.suffix.lower() not in PICTURE_SUFFIXES:
        raise UsageError(
            f"argument --out: cannot tell the picture format of {text!r}: end the "
            f"name in {', '.join(PICTURE_SUFFIXES[:-1])} or {PICTURE_SUFFIXES[-1]}"
        )
    check_file(path, "argument --out", folder_made=True)  # the pictures' writers make it
    return path


def plot_module() -> Any:
    """:mod:`packing.plot`; without matplotlib, :class:`arena.extras.MissingExtraError`."""
    from packing import plot

    return plot


def cmd_plot_plan(args: argparse.Namespace) -> int:
    out = picture_path(args.out)
    truck = truck_of(args)
    # An .svg is the library's own drawing (packing.svg): no matplotlib needed.
    svg = out.suffix.lower() == ".svg"
    plot = None if svg else plot_module()
    plan = verify(best_truck(cargo_of(args), [truck], time_limit=args.time_limit)[0])
    print(write_plan_svg(plan, out) if plot is None else plot.plot_plan(plan, out))
    return 0


def cmd_plot_deck(args: argparse.Namespace) -> int:
    folder = output_path(args.out)
    check_folder(folder, "argument --out")
    for name in ("penalty-by-volume.png", "penalty-distributions.png"):
        check_file(folder / name, "argument --out", folder_made=True)
    plot = plot_module()
    for path in plot.plot_deck(table_for(deck_of(args)), folder):
        print(path)
    return 0


def add_commands(sub: Any) -> None:
    """``plot plan`` and ``plot deck``."""
    plan_example = (
        "packing plot plan --roll 3,2,3,0,1 --truck '#####/###../#####' --height 3 --out plan.svg"
    )
    deck_example = "packing plot deck --deck my-deck.txt --out pictures/"
    plot = add_command(
        sub,
        "plot",
        help="pictures (the plot extra, but for a plan's .svg)",
        examples=[plan_example, deck_example],
    )
    plot_sub = subcommands(plot, "plot_command")
    p = add_command(
        plot_sub, "plan", help="a picture of the best load plan", examples=[plan_example]
    )
    cargo_options(p)
    truck_options(p)
    time_limit_option(p)
    p.add_argument(
        "--out",
        required=True,
        metavar="FILE",
        help="the picture to write; its suffix sets the format: .png, .svg or .pdf "
        "(.svg needs no extra: it is the picture a plan shows in Jupyter)",
    )
    p.set_defaults(run=cmd_plot_plan)
    p = add_command(
        plot_sub,
        "deck",
        help="heat map of expected penalty and penalty distributions",
        examples=[deck_example],
    )
    deck_option(p)
    p.add_argument("--out", required=True, metavar="DIR", help="the folder to write the PNGs into")
    p.set_defaults(run=cmd_plot_deck)
