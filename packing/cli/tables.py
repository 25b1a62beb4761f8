"""``packing table build`` and ``packing stats``: the deck's optimal table and what it says."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from arena.cli import (
    EXIT_OK,
    Interrupted,
    UsageError,
    add_command,
    add_executor_options,
    add_json_option,
    executor_for,
    executor_where,
    print_json,
    whole_number_to,
)
from arena.progress import progress as show_progress
from packing.cli.common import (
    cargo_of,
    cargo_options,
    check_folder,
    deck_of,
    deck_option,
    output_path,
    subcommands,
)
from packing.model import Truck
from packing.stats import deck_stats, ranking
from packing.table import (
    SHIPPED_DIR,
    DamagedTableError,
    OptimalTable,
    TableBuild,
    TableError,
    build_table_file,
    checkpoint_for,
    ensure_table,
    find_table,
    rebuild_command,
    register,
    table_filename,
    user_table_dir,
)

#: The most revealed sets ``stats --samples`` draws (each costs a few milliseconds).
LARGEST_SAMPLES = 100_000


def progress_bar(what: str, unit: str = "entry") -> Callable[[int, int], None]:
    """A ``progress(done, total)`` callback showing progress on stderr the library's one way
    (:mod:`arena.progress`: a tqdm bar on a terminal with the progress extra, plain lines
    elsewhere, nothing for work under two seconds)."""
    return show_progress(None, desc=what, unit=unit).callback()


def note(text: str) -> None:
    print(f"packing: note: {text}", file=sys.stderr)


def table_path(deck: Sequence[Truck], folder: Path, option: str) -> Path:
    """Where the deck's table goes in ``folder``, checked writable before any solving."""
    check_folder(folder, option)
    path = folder / table_filename(deck)
    for target in (path, checkpoint_for(path)):
        if target.is_dir():
            raise UsageError(f"{option}: cannot write {os.fspath(target)!r}: it is a folder")
    return path


def explain(error: Exception, args: argparse.Namespace | None) -> str:
    """The error's line; for a damaged table, the exact command that rebuilds it."""
    if isinstance(error, DamagedTableError):
        command = rebuild_command(error.path)
        deck = getattr(args, "deck", None) if args is not None else None
        if deck and command != "make table":
            command += f" --deck {shlex.quote(deck)}"
        return (
            f"table file {os.fspath(error.path)!r} is damaged ({error.reason}): rebuild it "
            f"with `{command}`"
        )
    return str(error)


def _summary(build: TableBuild, where: str) -> str:
    report = build.report
    rate = report.solved / report.wall_time if report.wall_time else float("inf")
    return (
        f"table {build.path}: {report.entries} entries, {report.optimal} proven optimal, "
        f"{report.entries - report.optimal} not; {report.solved} solved in this run "
        f"{'(resumed) ' if build.resumed else ''}in {report.wall_time:.1f} s "
        f"({rate:.0f} solves/s, {where})"
    )


def _build(
    deck: Sequence[Truck], path: Path, *, workers: int, executor: Executor | None = None
) -> TableBuild:
    try:
        return build_table_file(
            deck,
            path,
            workers=workers,
            executor=executor,
            progress=progress_bar("building table"),
        )
    except KeyboardInterrupt:
        raise Interrupted(
            f"finished work is saved in {os.fspath(checkpoint_for(path))!r}; "
            "run the same command to resume"
        ) from None


def cmd_table_build(args: argparse.Namespace) -> int:
    if args.deck is None and args.out is None and not args.force:
        # The table folder would only get a duplicate of the shipped table.
        shipped = SHIPPED_DIR / table_filename(deck_of(args))
        if args.json:
            print_json({"path": os.fspath(shipped), "up_to_date": True, "shipped": True})
        else:
            print(
                f"the sample deck's table ships with the library ({shipped}); nothing to build "
                "(give --deck FILE for another deck, or --force to rebuild it)"
            )
        return EXIT_OK
    deck = deck_of(args)
    given = args.out is not None
    path = table_path(
        deck,
        output_path(args.out) if given else user_table_dir(),
        "argument --out" if given else "the table folder",
    )
    if path.exists() and not args.force:
        try:
            current = OptimalTable.load(path, deck=deck)
        except TableError as error:  # damaged, another format: this build replaces it
            reason = error.reason if isinstance(error, DamagedTableError) else str(error)
            note(f"replacing table {os.fspath(path)!r} ({reason})")
        else:
            register(current)
            if args.json:
                print_json(
                    {
                        "path": os.fspath(path),
                        "up_to_date": True,
                        "entries": current.penalties.size,
                        "deck_key": current.key,
                    }
                )
            else:
                print(
                    f"table {path}: complete and current for this deck "
                    f"({current.penalties.size} entries); nothing to rebuild (--force rebuilds it)"
                )
            return 0
    if args.scheduler is None and args.cluster is None:
        # build_table's own pool: its workers leave Ctrl-C to this process, which checkpoints.
        build = _build(deck, path, workers=args.workers or args.workers_default)
    else:
        with executor_for(args) as (executor, workers):
            build = _build(deck, path, workers=workers, executor=executor)
    if args.json:
        print_json(build.to_dict())
    else:
        print(_summary(build, executor_where(args)))
    return 0


def table_for(deck: Sequence[Truck]) -> OptimalTable:
    """The deck's table; when there is none yet, built once into the user's table folder
    (checked writable first), the summary on stderr (stdout is the answer's)."""
    if find_table(deck) is None:
        where = (
            "the table folder $PACKING_TABLE_DIR"
            if os.environ.get("PACKING_TABLE_DIR")
            else "the table folder"
        )
        path = table_path(deck, user_table_dir(), where)
        print(
            f"no table for this deck yet: building it once ({len(deck) * 900:,} solves, "
            "progress below)",
            file=sys.stderr,
        )
        try:
            return ensure_table(deck, progress=progress_bar("building table"))
        except KeyboardInterrupt:
            raise Interrupted(
                f"finished work is saved in {os.fspath(checkpoint_for(path))!r}; "
                "run the same command to resume"
            ) from None
    return ensure_table(deck)


def cmd_stats(args: argparse.Namespace) -> int:
    deck = deck_of(args)
    roll = cargo_of(args) if (args.roll is not None or args.cargo is not None) else None
    table = table_for(deck)
    stats = deck_stats(table, samples=args.samples, progress=True)
    roll_ranking = ranking(roll, deck) if roll is not None else None
    if args.json:
        data = stats.to_dict()
        if roll_ranking is not None:
            data["roll"] = roll_ranking.to_dict()
        print_json(data)
        return 0
    print(stats)
    if roll_ranking is not None:
        print()
        print(roll_ranking)
    return 0


def add_commands(sub: Any) -> None:
    """``stats`` and ``table build``."""
    p = add_command(
        sub,
        "stats",
        help="what the deck's table says: odds per truck and per roll",
        examples=["packing stats", "packing stats --deck my-deck.txt --roll 3,2,3,0,1 --json"],
    )
    deck_option(p)
    cargo_options(p, required=False)
    p.add_argument(
        "--samples",
        type=whole_number_to(LARGEST_SAMPLES),
        default=200,
        metavar="N",
        help=f"revealed sets sampled for the heuristic comparison (default 200, at most "
        f"{LARGEST_SAMPLES:,})",
    )
    add_json_option(p)
    p.set_defaults(run=cmd_stats)

    build_examples = [
        "packing table build --deck my-deck.txt",
        "packing table build --deck my-deck.txt --workers 4 --out tables/",
    ]
    table = add_command(
        sub, "table", help="build the optimal table of a deck", examples=build_examples
    )
    p = add_command(
        subcommands(table, "table_command"),
        "build",
        help="solve every roll on every truck (resumable)",
        examples=build_examples,
    )
    deck_option(p)
    p.add_argument(
        "--out", metavar="DIR", help=f"folder for the table (default {user_table_dir()})"
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="rebuild even when the folder holds the complete, current table (without "
        "--deck or --out: rebuild the shipped sample table into the table folder)",
    )
    add_json_option(p)
    add_executor_options(p)
    p.set_defaults(run=cmd_table_build)
