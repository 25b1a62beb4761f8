"""The ``packing`` command: a thin shell over the public API.

    packing solve --roll 3,2,3,0,1 --truck '#####/###../#####' --height 3
    packing best --roll 3,2,3,0,1 [--deck FILE] [--top K]
    packing grab --roll 3,2,3,0,1 --revealed S03,S17 [--pile S01,S02,...]
    packing stats [--deck FILE] [--roll R]
    packing table build [--deck FILE] [--workers N | --scheduler ADDRESS | --cluster local:N] [--out DIR] [--force]
    packing deck [--deck FILE]
    packing plot plan --roll R --truck MASK --height H --out FILE.png|.svg|.pdf
    packing plot deck [--deck FILE] --out DIR
    packing decks random --count N --seed S --out DIR
    packing decks compare A.txt B.txt ... [--json] [--out PNG]
    packing decks optimise --objective coverage|balance|skill [--seed S] [--budget SECONDS]

The contract of :func:`main` (the express command follows it too): ``main(argv) -> int``
returns the exit status and never raises. 0 on success; 2 on bad input, after one line
``packing: error: …`` on stderr that quotes the input (with ``--json``: a JSON object with an
``error`` field on stdout instead); 130 after one line on stderr when interrupted (Ctrl-C).
Every output path is checked before any work starts, so a bad ``--out`` fails at once and
nothing is half-written.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from packing import gamecli
from packing.deck import SAMPLE_DECK, dump_deck, load_deck
from packing.errors import PackingError
from packing.model import Cargo, Truck
from packing.queries import best_truck
from packing.stats import DeckStats, GrabAdvice, RankedTruck, deck_stats, grab_advice, ranking
from packing.table import (
    CheckpointError,
    DamagedTableError,
    OptimalTable,
    TableError,
    build_table,
    find_table,
    rebuild_command,
    register,
    table_filename,
    user_table_dir,
)
from packing.verify import verify

__all__ = ["main"]

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
#: Suffixes ``packing plot plan --out`` writes (the format follows the suffix).
PICTURE_SUFFIXES = (".png", ".svg", ".pdf")
VARIANT_HELP = (
    "the game's trucks fit 3 rows × 5 columns with height 1–4; larger ones are "
    "accepted on purpose, as variants, and labelled so"
)


class UsageError(Exception):
    """Bad command-line input: printed as one line, exit status 2."""


class Interrupted(Exception):
    """Ctrl-C, with what the user should know (e.g. where finished work was saved)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


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


def _roll(text: str) -> Cargo:
    try:
        return Cargo.parse(_counts_text(text, "roll"), roll=True)
    except PackingError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _cargo_counts(text: str) -> Cargo:
    try:
        return Cargo.parse(_counts_text(text, "cargo"))
    except PackingError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _whole(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"invalid value {text!r}: a whole number is needed"
        ) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"invalid value {text!r}: it must be at least 1")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(
            f"invalid value {text!r}: a positive, finite number of seconds is needed"
        )
    return value


def _join_option_values(parser: argparse.ArgumentParser, argv: Sequence[str]) -> list[str]:
    """``--roll -1,2,3,0,1`` as ``--roll=-1,2,3,0,1``: argparse takes any word that starts with
    ``-`` (and is not a plain negative number) for an option, so a value such as a roll with a
    negative count would be reported as a missing value instead of being quoted as bad."""
    takes_value: set[str] = set()
    options: set[str] = set()
    parsers = [parser]
    while parsers:
        current = parsers.pop()
        for action in current._actions:
            options.update(action.option_strings)
            if action.option_strings and action.nargs is None:
                takes_value.update(action.option_strings)
            if isinstance(action, argparse._SubParsersAction):
                parsers.extend(action.choices.values())
    out: list[str] = []
    words = iter(argv)
    for word in words:
        if word == "--":
            out.append(word)
            out.extend(words)
            break
        if word in takes_value:
            following = next(words, None)
            if following is None:
                out.append(word)
            elif following.startswith("-") and following not in options:
                out.append(f"{word}={following}")
            else:
                out.extend((word, following))
            continue
        out.append(word)
    return out


# --- output paths: checked before any work ----------------------------------------------------


def _check_folder(folder: Path, option: str, *, target: Path | None = None) -> None:
    """Fail now, quoting the input, unless ``folder`` is (or can be created as) a writable
    folder; ``target`` is the file to be written there, when the input named a file."""
    quoted = repr(os.fspath(target if target is not None else folder))
    if folder.exists() and not folder.is_dir():
        raise UsageError(
            f"{option}: cannot write {quoted}: {os.fspath(folder)!r} is a file, not a folder"
        )
    existing = folder
    while not existing.exists() and existing.parent != existing:
        existing = existing.parent
    if not existing.is_dir():
        raise UsageError(
            f"{option}: cannot write {quoted}: {os.fspath(existing)!r} is a file, not a folder"
        )
    if not os.access(existing, os.W_OK | os.X_OK):
        raise UsageError(
            f"{option}: cannot write {quoted}: permission denied in {os.fspath(existing)!r}"
        )


def _check_file(path: Path, option: str) -> None:
    """Fail now, quoting the input, unless a file can be written at ``path``."""
    if path.is_dir():
        raise UsageError(f"{option}: cannot write {os.fspath(path)!r}: it is a folder")
    _check_folder(path.parent, option, target=path)
    if path.exists() and not os.access(path, os.W_OK):
        raise UsageError(f"{option}: cannot write {os.fspath(path)!r}: permission denied")


def _picture_path(text: str) -> Path:
    path = Path(text)
    if path.suffix.lower() not in PICTURE_SUFFIXES:
        raise UsageError(
            f"argument --out: cannot tell the picture format of {text!r}: end the "
            f"name in {', '.join(PICTURE_SUFFIXES[:-1])} or {PICTURE_SUFFIXES[-1]}"
        )
    _check_file(path, "argument --out")
    return path


# --- shared pieces ----------------------------------------------------------------------------


def _cargo(args: argparse.Namespace) -> Cargo:
    cargo: Cargo = args.roll if args.roll is not None else args.cargo
    return cargo


def _deck(args: argparse.Namespace) -> tuple[Truck, ...]:
    return load_deck(args.deck) if args.deck is not None else SAMPLE_DECK  # --deck "" is bad


def _truck(args: argparse.Namespace) -> Truck:
    return Truck.parse(args.truck, height=args.height, name=args.name or "")


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2))


def _variant(truck: Truck) -> str:
    return " (variant)" if truck.is_variant else ""


def _variant_note(truck: Truck) -> str | None:
    if not truck.is_variant:
        return None
    return (
        f"variant truck: {truck.rows}×{truck.columns} grid, height {truck.height} "
        f"(the game's trucks fit 3×5, height 1–4)"
    )


def _trucks_by_name(deck: Sequence[Truck], names: str, option: str) -> list[Truck]:
    index = {t.name: t for t in deck}
    chosen: list[Truck] = []
    for name in (n.strip() for n in names.split(",") if n.strip()):
        if name not in index:
            raise UsageError(f"argument {option}: no truck named {name!r} in the deck")
        if index[name] in chosen:
            raise UsageError(f"argument {option}: truck {name!r} is named twice")
        chosen.append(index[name])
    return chosen


def _print_ranking(entries: Sequence[RankedTruck]) -> None:
    width = max([18, *(len(str(e.truck)) for e in entries)])
    print(
        f"{'rank':>4}  {'truck':<8} {'mask':<{width}} {'height':>6} {'capacity':>8} {'penalty':>7}"
    )
    for rank, e in enumerate(entries, start=1):
        t = e.truck
        notes = ("" if e.optimal else " (not proven optimal)") + _variant(t)
        print(
            f"{rank:>4}  {t.name:<8} {str(t):<{width}} {t.height:>6} {t.capacity:>8} "
            f"{e.penalty:>7}{notes}"
        )


# --- solve and best ---------------------------------------------------------------------------


def cmd_solve(args: argparse.Namespace) -> int:
    truck = _truck(args)
    plan = verify(best_truck(_cargo(args), [truck], time_limit=args.time_limit)[0])
    if args.json:
        _print_json(plan.to_dict() | {"variant": truck.is_variant})
        return 0
    note = _variant_note(truck)
    if note:
        print(note)
    print(plan.render())
    return 0


def cmd_best(args: argparse.Namespace) -> int:
    cargo, deck = _cargo(args), _deck(args)
    plans = [verify(p) for p in best_truck(cargo, deck, top=args.top, time_limit=args.time_limit)]
    result = ranking(cargo, deck, plans=plans)
    if args.json:
        _print_json(result.to_dict())
        return 0
    print(f"cargo {cargo} (volume {cargo.volume}) on {_plural(len(deck), 'truck')}")
    _print_ranking(result.entries)
    blind = result.blind_draw
    print(f"blind draw from the whole deck: expected penalty {float(blind):.2f} (exactly {blind})")
    print()
    print("best load plan:")
    print(plans[0].render())
    return 0


# --- grab -------------------------------------------------------------------------------------


def cmd_grab(args: argparse.Namespace) -> int:
    cargo, deck = _cargo(args), _deck(args)
    revealed = _trucks_by_name(deck, args.revealed, "--revealed")
    if args.pile is not None:
        pile = _trucks_by_name(deck, args.pile, "--pile")
        both = [t.name for t in pile if t in revealed]
        if both:
            raise UsageError(f"argument --pile: truck {both[0]!r} is also in --revealed")
    else:
        pile = [t for t in deck if t not in revealed]
    if not revealed and not pile:
        raise UsageError("nothing to choose from: give --revealed trucks or a --pile")
    advice: GrabAdvice = grab_advice(cargo, revealed, pile)
    if args.json:
        _print_json(advice.to_dict())
        return 0
    print(
        f"cargo {cargo} (volume {cargo.volume}); {len(revealed)} revealed, "
        f"pile of {_plural(len(pile), 'truck')}"
    )
    for c in advice.choices:
        what = "draw" if c.truck is None else f"take (capacity {c.truck.capacity})"
        variant = "" if c.truck is None else _variant(c.truck)
        print(
            f"  {c.label:<10} {what:<20} expected penalty {float(c.expected_penalty):6.2f}{variant}"
        )
    print(f"best choice: {advice.choices[0].label}")
    heuristic = advice.closest_capacity
    if heuristic is not None:
        print(
            f"closest-capacity heuristic would take {heuristic.name} "
            f"(capacity {heuristic.capacity})"
        )
    return 0


# --- tables and stats -------------------------------------------------------------------------


def _progress_bar(total_hint: str) -> Callable[[int, int], None]:
    """tqdm when installed, else a plain line every 10 %; both on stderr."""
    try:
        from tqdm import tqdm
    except ImportError:
        shown = [-1]

        def plain(done: int, total: int) -> None:
            tenth = done * 10 // total
            if tenth != shown[0]:
                shown[0] = tenth
                print(f"{total_hint}: {done}/{total} entries", file=sys.stderr)

        return plain
    bar: list[Any] = []

    def update(done: int, total: int) -> None:
        if not bar:  # disable=None: no bar when stderr is not a terminal (logs, CI)
            bar.append(
                tqdm(
                    total=total,
                    initial=done,
                    desc=total_hint,
                    unit="entry",
                    file=sys.stderr,
                    disable=None,
                )
            )
        bar[0].update(done - bar[0].n)
        if done == total:
            bar[0].close()

    return update


def _table_path(deck: Sequence[Truck], folder: Path, option: str) -> Path:
    """Where the deck's table goes in ``folder``, checked writable before any solving."""
    _check_folder(folder, option)
    path = folder / table_filename(deck)
    for target in (path, path.with_suffix(".partial.npz")):
        if target.is_dir():
            raise UsageError(f"{option}: cannot write {os.fspath(target)!r}: it is a folder")
    return path


def _build(
    deck: Sequence[Truck],
    path: Path,
    workers: int,
    *,
    out: TextIO,
    as_json: bool = False,
    executor: Executor | None = None,
    where: str = "",
) -> OptimalTable:
    """Build (or resume) the deck's table into ``path`` (on ``executor``, described by ``where``,
    else on ``workers`` local processes), summing up on ``out``."""
    checkpoint = path.with_suffix(".partial.npz")
    resumed = checkpoint.exists()
    progress = _progress_bar("building table")
    try:
        try:
            report = build_table(
                deck, workers=workers, executor=executor, checkpoint=checkpoint, progress=progress
            )
        except CheckpointError as error:
            # A checkpoint is only saved work: an unusable one costs a fresh start, no more.
            print(
                f"packing: note: discarding checkpoint {os.fspath(checkpoint)!r} "
                f"({error.reason}); building afresh",
                file=sys.stderr,
            )
            try:
                checkpoint.unlink(missing_ok=True)
            except OSError as failure:
                raise UsageError(
                    f"cannot delete checkpoint {os.fspath(checkpoint)!r}: "
                    f"{failure.strerror or failure}"
                ) from None
            resumed = False
            report = build_table(
                deck, workers=workers, executor=executor, checkpoint=checkpoint, progress=progress
            )
    except KeyboardInterrupt:
        raise Interrupted(
            f"finished work is saved in {os.fspath(checkpoint)!r}; run the same command to resume"
        ) from None
    report.table.save(path)
    register(report.table)
    if as_json:
        _print_json(
            {"path": os.fspath(path), "up_to_date": False, "resumed": resumed, "workers": workers}
            | report.to_dict()
        )
        return report.table
    rate = report.solved / report.wall_time if report.wall_time else float("inf")
    print(
        f"table {path}: {report.entries} entries, {report.optimal} proven optimal, "
        f"{report.entries - report.optimal} not; {report.solved} solved in this run "
        f"{'(resumed) ' if resumed else ''}in {report.wall_time:.1f} s "
        f"({rate:.0f} solves/s, {where or _plural(workers, 'worker')})",
        file=out,
    )
    return report.table


def cmd_table_build(args: argparse.Namespace) -> int:
    deck = _deck(args)
    given = args.out is not None
    path = _table_path(
        deck,
        Path(args.out) if given else user_table_dir(),
        "argument --out" if given else "the table folder",
    )
    if path.exists() and not args.force:
        try:
            current = OptimalTable.load(path, deck=deck)
        except TableError as error:  # damaged, another format: this build replaces it
            reason = error.reason if isinstance(error, DamagedTableError) else str(error)
            print(f"packing: note: replacing table {os.fspath(path)!r} ({reason})", file=sys.stderr)
        else:
            register(current)
            if args.json:
                _print_json(
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
    if args.scheduler is not None or args.cluster is not None:
        with _dask_executor(args) as executor:
            _build(
                deck,
                path,
                args.workers,
                out=sys.stdout,
                as_json=args.json,
                executor=executor,
                where=f"Dask {args.scheduler or args.cluster}",
            )
    else:
        _build(deck, path, args.workers, out=sys.stdout, as_json=args.json)
    return 0


def _table_for(deck: Sequence[Truck]) -> OptimalTable:
    table = find_table(deck)
    if table is None:
        folder = user_table_dir()
        where = (
            "the table folder $PACKING_TABLE_DIR"
            if os.environ.get("PACKING_TABLE_DIR")
            else "the table folder"
        )
        path = _table_path(deck, folder, where)
        print("no table for this deck yet: building it once (about 5 s)", file=sys.stderr)
        table = _build(deck, path, workers=2, out=sys.stderr)  # stdout is the answer's
    return table


def cmd_stats(args: argparse.Namespace) -> int:
    deck = _deck(args)
    roll = _cargo(args) if (args.roll is not None or args.cargo is not None) else None
    table = _table_for(deck)
    stats: DeckStats = deck_stats(table, samples=args.samples)
    roll_ranking = ranking(roll, deck) if roll is not None else None
    if args.json:
        data = stats.to_dict()
        if roll_ranking is not None:
            data["roll"] = roll_ranking.to_dict()
        _print_json(data)
        return 0
    width = max([18, *(len(str(t)) for t in deck)])
    print(
        f"{_plural(len(deck), 'truck')}, table {table.key[:16]}; load volume over all 7,776 "
        f"rolls: mean {float(stats.mean_volume):.2f} cubes"
    )
    print(
        f"{'truck':<6} {'mask':<{width}} {'h':>1} {'cap':>3}  {'E[penalty]':>10} {'P(best)':>8} "
        f"{'P(perfect)':>10} {'perfect rolls':>13}"
    )
    for s in sorted(stats.trucks, key=lambda s: s.expected_penalty):
        t = s.truck
        print(
            f"{t.name:<6} {str(t):<{width}} {t.height:>1} {t.capacity:>3}  "
            f"{float(s.expected_penalty):>10.2f} {float(s.p_best):>8.1%} "
            f"{float(s.p_perfect):>10.1%} {s.perfect_rolls:>13}{_variant(t)}"
        )
    print(
        "P(best) counts ties: every truck tied for the least penalty is best. "
        "Perfect rolls: of the 7,776, those loaded with penalty 0."
    )
    print()
    print("the closest-capacity heuristic against the optimal grab (penalty points per round):")
    for h in stats.heuristics:
        where = (
            "any truck of the deck (exact)"
            if h.revealed == 0
            else f"{h.revealed} revealed + pile ({_plural(h.samples, 'sampled set')})"
        )
        print(
            f"  {where:<36} mean loss {h.mean_loss:5.2f}, worst {h.worst_loss:5.2f} "
            f"(roll {h.worst_cargo}), worse in {h.p_loses:.1%} of rolls"
        )
    if roll is not None and roll_ranking is not None:
        print()
        print(f"roll {roll} (volume {roll.volume}):")
        _print_ranking(roll_ranking.entries)
        blind = roll_ranking.blind_draw
        print(
            f"blind draw from the whole deck: expected penalty {float(blind):.2f} (exactly {blind})"
        )
    return 0


# --- the deck file ----------------------------------------------------------------------------


def cmd_deck(args: argparse.Namespace) -> int:
    deck = _deck(args)
    source = (
        f"the deck file {args.deck}"
        if args.deck is not None
        else "the sample deck (designed by this project: NOT the printed cards)"
    )
    print(f"; Pack & Stack: {_plural(len(deck), 'truck')}, {source}")
    print("; one block per truck: 'NAME height N', then the mask rows ('#' usable, '.' not);")
    print("; lines starting with ';' are comments. Load it with --deck FILE or load_deck(FILE).")
    for truck in deck:
        if truck.is_variant:
            print(f"; {truck.name} is a variant: {_variant_note(truck)}")
    print()
    print(dump_deck(deck), end="")
    return 0


# --- pictures ---------------------------------------------------------------------------------


def _plot_module() -> Any:
    try:
        from packing import plot
    except ImportError as error:
        raise UsageError(f"pictures need the plot extra (pip install '.[plot]'): {error}") from None
    return plot


def cmd_plot_plan(args: argparse.Namespace) -> int:
    out = _picture_path(args.out)
    truck = _truck(args)
    plot = _plot_module()
    plan = verify(best_truck(_cargo(args), [truck], time_limit=args.time_limit)[0])
    print(plot.plot_plan(plan, out))
    return 0


def cmd_plot_deck(args: argparse.Namespace) -> int:
    folder = Path(args.out)
    _check_folder(folder, "argument --out")
    for name in ("penalty-by-volume.png", "penalty-distributions.png"):
        _check_file(folder / name, "argument --out")
    plot = _plot_module()
    for path in plot.plot_deck(_table_for(_deck(args)), folder):
        print(path)
    return 0


# --- executors and the deck designer (packing decks …) ----------------------------------------

if TYPE_CHECKING:
    from packing.design import DeckReport


def _dask_options(p: argparse.ArgumentParser) -> None:
    """``--scheduler`` / ``--cluster``: run the work on Dask instead of a local pool."""
    group = p.add_mutually_exclusive_group()
    group.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="an existing Dask scheduler, e.g. tcp://host:8786 (the dask extra)",
    )
    group.add_argument(
        "--cluster",
        metavar="local:N",
        help="a Dask LocalCluster of N worker processes (the dask extra)",
    )


@contextmanager
def _dask_executor(args: argparse.Namespace) -> Iterator[Executor]:
    """The Dask executor ``--scheduler``/``--cluster`` ask for; a cluster that cannot be
    made or reached is bad input (one line, exit 2)."""
    from arena.executors import ExecutorError, executor_from

    with ExitStack() as stack:
        try:
            executor = stack.enter_context(
                executor_from(scheduler=args.scheduler, cluster=args.cluster)
            )
        except ExecutorError as error:
            raise UsageError(str(error)) from None
        yield executor


@contextmanager
def _executor(args: argparse.Namespace) -> Iterator[Executor | None]:
    """Dask when asked for, else ``--workers`` local processes (none for 1: work in-process)."""
    if args.scheduler is not None or args.cluster is not None:
        with _dask_executor(args) as executor:
            yield executor
        return
    if args.workers < 1:
        raise UsageError(f"argument --workers: must be at least 1, not {args.workers}")
    if args.workers == 1:
        yield None
        return
    from arena.executors import executor_from

    with executor_from(workers=args.workers) as pool:
        yield pool


def _load_decks(paths: Sequence[str]) -> list[tuple[Truck, ...]]:
    return [load_deck(p) for p in paths]


def cmd_decks_random(args: argparse.Namespace) -> int:
    from packing.deck import dump_deck
    from packing.design import random_deck

    if args.count < 1:
        raise UsageError(f"argument --count: must be at least 1, not {args.count}")
    folder = Path(args.out)
    texts = [
        (
            folder / f"random-{args.seed}-{i:03d}.txt",
            f"; random deck {i} of seed {args.seed}: honours the published facts, not the "
            f"printed cards\n" + dump_deck(random_deck(seed=f"{args.seed}.{i}")),
        )
        for i in range(1, args.count + 1)
    ]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for path, text in texts:
            path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write decks into {args.out!r}: {error.strerror}") from None
    for path, _ in texts:
        print(path)
    return 0


def cmd_decks_compare(args: argparse.Namespace) -> int:
    from packing.design import compare

    decks = _load_decks(args.decks)
    plot = _plot_module() if args.out else None
    with _executor(args) as executor:
        reports = compare(decks, labels=args.decks, executor=executor)
    if plot is not None:
        from packing.designplot import plot_comparison

        try:
            plot_comparison(reports, args.out)
        except OSError as error:
            raise UsageError(f"cannot write {args.out!r}: {error.strerror}") from None
    if args.json:
        _print_json(
            {
                "decks": [_report_dict(r) for r in reports],
                **({"picture": args.out} if args.out else {}),
            }
        )
        return 0
    _print_comparison(reports)
    if args.out:
        print(f"picture: {args.out}")
    return 0


def _report_dict(r: DeckReport) -> dict[str, Any]:
    return {
        "deck": r.label,
        "coverage": float(r.coverage),
        "balance": float(r.balance),
        "skill": r.skill,
        "best_mean_penalty": float(r.best_mean),
        "dominated": [t.name for t in r.dominated],
        "facts_broken": list(r.facts),
        "best_by_volume": {str(v): float(e) for v, e in enumerate(r.best_by_volume, start=1)},
        "trucks": [
            {
                "truck": t.name,
                "mask": str(t),
                "height": t.height,
                "capacity": t.capacity,
                "expected_penalty": float(e),
                "p_best": float(p),
            }
            for t, e, p in zip(r.deck, r.expected_penalty, r.p_best)
        ],
    }


def _print_comparison(reports: Sequence[DeckReport]) -> None:
    width = max(12, *(len(Path(r.label).name) for r in reports))
    names = [Path(r.label).name for r in reports]
    print("fairness summary (smaller is better; see packing.design):")
    print(
        f"  {'deck':<{width}} {'coverage':>8} {'balance':>8} {'skill':>6} {'E[best]':>7} "
        f"{'dominated':>9}  facts"
    )
    for name, r in zip(names, reports):
        print(
            f"  {name:<{width}} {float(r.coverage):>8.2f} {float(r.balance):>8.1%} "
            f"{r.skill:>6.2f} {float(r.best_mean):>7.2f} {len(r.dominated):>9}  "
            f"{'all kept' if not r.facts else f'{len(r.facts)} broken: ' + r.facts[0]}"
        )
    print(
        "  coverage: worst E[penalty] of the best truck over loads 9..40; balance: max − min "
        "P(best); skill: mean loss of the capacity heuristic"
    )
    print()
    print("expected penalty of the best truck, by load volume:")
    print(f"  {'volume':>6} " + " ".join(f"{n:>{width}}" for n in names))
    for v in range(1, 41):
        print(
            f"  {v:>6} "
            + " ".join(f"{float(r.best_by_volume[v - 1]):>{width}.2f}" for r in reports)
        )
    for name, r in zip(names, reports):
        print()
        print(f"{name}: trucks by P(best)")
        print(f"  {'truck':<6} {'mask':<18} {'h':>1} {'cap':>3} {'E[penalty]':>10} {'P(best)':>8}")
        for t, e, p in sorted(zip(r.deck, r.expected_penalty, r.p_best), key=lambda x: -x[2]):
            mark = "  dominated" if t in r.dominated else ""
            print(
                f"  {t.name:<6} {str(t):<18} {t.height:>1} {t.capacity:>3} {float(e):>10.2f} "
                f"{float(p):>8.1%}{mark}"
            )


def cmd_decks_optimise(args: argparse.Namespace) -> int:
    from packing.deck import dump_deck, save_deck
    from packing.design import DesignError, Improvement, optimise

    if args.budget is not None and args.budget <= 0:
        raise UsageError(f"argument --budget: must be positive, not {args.budget}")
    if args.rounds is not None and args.rounds < 1:
        raise UsageError(f"argument --rounds: must be at least 1, not {args.rounds}")
    budget = args.budget if args.budget is not None or args.rounds is not None else 60.0
    start = _deck(args)
    sense = "maximising" if args.maximise else "minimising"

    def report(step: Improvement) -> None:
        print(f"round {step.round}: {args.objective} {step.value:.4f}  ({step.move})", flush=True)

    print(
        f"{sense} {args.objective} from {args.deck or 'the sample deck'}, seed {args.seed}",
        flush=True,
    )
    with _executor(args) as executor:
        try:
            result = optimise(
                start,
                objective_name=args.objective,
                seed=args.seed,
                maximise=args.maximise,
                budget=budget,
                rounds=args.rounds,
                batch=args.batch,
                executor=executor,
                report=report,
            )
        except DesignError as error:
            raise UsageError(str(error)) from None
    print(
        f"{args.objective}: {result.start_value:.4f} -> {result.value:.4f} after {result.rounds} "
        f"rounds ({result.candidates} decks tried, {result.solved} truck columns solved)"
    )
    if args.out:
        try:
            save_deck(result.deck, args.out)
        except OSError as error:
            raise UsageError(f"cannot write {args.out!r}: {error.strerror}") from None
        print(f"best deck: {args.out}")
    else:
        print()
        print(dump_deck(result.deck), end="")
    return 0


def _add_decks_commands(sub: Any) -> None:
    """``packing decks random|compare|optimise``: the deck designer (packing.design)."""
    decks = sub.add_parser("decks", help="design decks: random, compare, optimise")
    decks_sub = decks.add_subparsers(dest="decks_command", required=True, parser_class=_Parser)

    def executor_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--workers", type=int, default=2, help="local worker processes (default 2)")
        _dask_options(p)

    p = decks_sub.add_parser("random", help="random decks honouring every published fact")
    p.add_argument("--count", type=int, required=True, help="how many decks")
    p.add_argument("--seed", type=int, required=True, help="the same seed gives the same decks")
    p.add_argument("--out", required=True, help="the folder to write the deck files into")
    p.set_defaults(run=cmd_decks_random)

    p = decks_sub.add_parser("compare", help="decks side by side: coverage, P(best), fairness")
    p.add_argument("decks", nargs="+", metavar="DECK", help="deck files")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--out", metavar="PNG", help="also draw the comparison (the plot extra)")
    executor_options(p)
    p.set_defaults(run=cmd_decks_compare)

    p = decks_sub.add_parser("optimise", help="local search for a deck minimising an objective")
    p.add_argument("--objective", required=True, choices=("coverage", "balance", "skill"))
    p.add_argument("--seed", type=int, default=0, help="the search's seed (default 0)")
    p.add_argument(
        "--budget",
        type=float,
        default=None,
        metavar="SECONDS",
        help="stop after this long (default 60 s unless --rounds is given)",
    )
    p.add_argument("--rounds", type=int, default=None, help="stop after this many rounds")
    p.add_argument("--batch", type=int, default=4, help="candidate decks per round (default 4)")
    p.add_argument("--maximise", action="store_true", help="maximise the objective instead")
    p.add_argument("--deck", help="the starting deck file (default: the sample deck)")
    p.add_argument("--out", help="write the best deck here (default: print it)")
    executor_options(p)
    p.set_defaults(run=cmd_decks_optimise)


# --- the parser -------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="packing",
        description="Provably optimal Pack & Stack answers.",
        epilog="Bad input prints one line quoting it and exits with status 2 "
        "(with --json: a JSON object with an 'error' field on stdout).",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def cargo_options(p: argparse.ArgumentParser, *, required: bool = True) -> None:
        group = p.add_mutually_exclusive_group(required=required)
        group.add_argument(
            "--roll", type=_roll, help="five dice results for lengths 1..5, e.g. 3,2,3,0,1"
        )
        group.add_argument(
            "--cargo",
            type=_cargo_counts,
            help="any five rod counts for lengths 1..5, e.g. 6,0,0,0,3",
        )

    def solve_options(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--time-limit",
            type=_seconds,
            default=None,
            metavar="SECONDS",
            help="stop CP-SAT early (the plan is then only feasible, with its bound)",
        )

    def truck_options(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--truck",
            required=True,
            help=f"mask rows split by '/', e.g. '#####/###../#####'; {VARIANT_HELP}",
        )
        p.add_argument(
            "--height",
            required=True,
            type=int,
            help="the truck's height cap (≥ 1; the game's are 1–4)",
        )
        p.add_argument("--name", help="a name for the truck")

    def deck_option(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--deck",
            help="a deck file, UTF-8 text (default: the sample deck, not "
            f"the printed cards; `packing deck` prints it); {VARIANT_HELP}",
        )

    def json_option(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--json",
            action="store_true",
            help="machine-readable output (errors too: an object with 'error')",
        )

    p = sub.add_parser("solve", help="the best loading of a cargo onto one truck")
    cargo_options(p)
    truck_options(p)
    solve_options(p)
    json_option(p)
    p.set_defaults(run=cmd_solve)

    p = sub.add_parser("best", help="rank a deck's trucks for a cargo, show the best plan")
    cargo_options(p)
    deck_option(p)
    p.add_argument("--top", type=_whole, default=None, help="only the best K trucks")
    solve_options(p)
    json_option(p)
    p.set_defaults(run=cmd_best)

    p = sub.add_parser("grab", help="take a revealed truck or draw from the pile?")
    cargo_options(p)
    deck_option(p)
    p.add_argument("--revealed", default="", help="names of the trucks you may take, e.g. S03,S17")
    p.add_argument(
        "--pile",
        default=None,
        help="names of the trucks the pile may hold "
        "(default: the deck without the revealed ones; none may be revealed too)",
    )
    json_option(p)
    p.set_defaults(run=cmd_grab)

    p = sub.add_parser("stats", help="what the deck's table says: odds per truck and per roll")
    deck_option(p)
    cargo_options(p, required=False)
    p.add_argument(
        "--samples",
        type=_whole,
        default=200,
        help="revealed sets sampled for the heuristic comparison (≥ 1, default 200)",
    )
    json_option(p)
    p.set_defaults(run=cmd_stats)

    table = sub.add_parser("table", help="build the optimal table of a deck")
    table_sub = table.add_subparsers(dest="table_command", required=True, parser_class=_Parser)
    p = table_sub.add_parser("build", help="solve every roll on every truck (resumable)")
    deck_option(p)
    p.add_argument("--workers", type=_whole, default=2, help="worker processes (default 2)")
    p.add_argument("--out", help=f"folder for the table (default {user_table_dir()})")
    p.add_argument(
        "--force",
        action="store_true",
        help="rebuild even when the folder holds the complete, current table",
    )
    json_option(p)
    _dask_options(p)
    p.set_defaults(run=cmd_table_build)

    p = sub.add_parser("deck", help="print a deck as a deck file (--deck FILE loads it back)")
    deck_option(p)
    p.set_defaults(run=cmd_deck)

    plot = sub.add_parser("plot", help="pictures (needs the plot extra)")
    plot_sub = plot.add_subparsers(dest="plot_command", required=True, parser_class=_Parser)
    p = plot_sub.add_parser("plan", help="a 3D picture of the best load plan")
    cargo_options(p)
    truck_options(p)
    solve_options(p)
    p.add_argument(
        "--out",
        required=True,
        help="the picture to write; its suffix sets the format: .png, .svg or .pdf",
    )
    p.set_defaults(run=cmd_plot_plan)
    p = plot_sub.add_parser("deck", help="heat map of expected penalty and penalty distributions")
    deck_option(p)
    p.add_argument("--out", required=True, help="the folder to write the PNGs into")
    p.set_defaults(run=cmd_plot_deck)

    # --- the game: play, tournament (their logic lives in packing.gamecli) ---
    gamecli.add_commands(sub)
    _add_decks_commands(sub)
    return parser


def _explain(error: PackingError, args: argparse.Namespace | None) -> str:
    """The error's line; for a damaged table, the exact command that rebuilds it."""
    if isinstance(error, DamagedTableError) and not isinstance(error, CheckpointError):
        command = rebuild_command(error.path)
        deck = getattr(args, "deck", None) if args is not None else None
        if deck and command != "make table":
            command += f" --deck {shlex.quote(deck)}"
        return (
            f"table file {os.fspath(error.path)!r} is damaged ({error.reason}): rebuild it "
            f"with `{command}`"
        )
    return str(error)


def _fail(message: str, *, as_json: bool) -> int:
    line = " ".join(message.split("\n"))  # one line, whatever the message held
    if as_json:
        print(json.dumps({"error": line}))
    else:
        print(f"packing: error: {line}", file=sys.stderr)
    return EXIT_USAGE


def main(argv: list[str] | None = None) -> int:
    """Run the CLI on ``argv`` (default ``sys.argv[1:]``); returns the exit status: 0, 2 for bad
    input (one line on stderr, or a JSON object with ``error`` on stdout under ``--json``),
    130 when interrupted. Never raises."""
    words = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in words
    parser = build_parser()
    args: argparse.Namespace | None = None
    try:
        args = parser.parse_args(_join_option_values(parser, words))
        run: Callable[[argparse.Namespace], int] = args.run
        return run(args)
    except UsageError as error:
        return _fail(str(error), as_json=as_json)
    except PackingError as error:
        return _fail(_explain(error, args), as_json=as_json)
    except (KeyboardInterrupt, Interrupted) as interrupt:
        detail = f": {interrupt}" if isinstance(interrupt, Interrupted) else ""
        print(f"packing: interrupted{detail}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except SystemExit as done:  # --help and --version exit through argparse
        return done.code if isinstance(done.code, int) else 0
    except BrokenPipeError:
        # The reader went away (e.g. `packing stats | head`): not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
