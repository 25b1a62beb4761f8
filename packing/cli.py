"""The ``packing`` command: a thin shell over the public API.

    packing solve --roll 3,2,3,0,1 --truck '#####/###../#####' --height 3
    packing best --roll 3,2,3,0,1 [--deck FILE] [--top K]
    packing grab --roll 3,2,3,0,1 --revealed S03,S17 [--pile S01,S02,...]
    packing stats [--deck FILE] [--roll R]
    packing table build [--deck FILE] [--workers N | --scheduler ADDRESS | --cluster local:N] [--out DIR]
    packing plot plan --roll R --truck MASK --height H --out FILE.png
    packing plot deck [--deck FILE] --out DIR
    packing decks random --count N --seed S --out DIR
    packing decks compare A.txt B.txt ... [--json] [--out PNG]
    packing decks optimise --objective coverage|balance|skill [--seed S] [--budget SECONDS]

``--json`` gives machine output. Bad input prints one line quoting it and exits with 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from packing.deck import SAMPLE_DECK, load_deck
from packing.errors import PackingError
from packing.model import Cargo, LoadPlan, Truck
from packing.odds import volume_distribution
from packing.queries import best_truck, expected_penalty, rank_trucks
from packing.stats import closest_capacity, grab_decision, heuristic_loss, truck_stats
from packing.table import (
    OptimalTable,
    build_table,
    find_table,
    register,
    table_filename,
    user_table_dir,
)
from packing.verify import verify

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


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


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2))


def _trucks_by_name(deck: Sequence[Truck], names: str, option: str) -> list[Truck]:
    index = {t.name: t for t in deck}
    chosen = []
    for name in (n.strip() for n in names.split(",") if n.strip()):
        if name not in index:
            raise UsageError(f"argument {option}: no truck named {name!r} in the deck")
        chosen.append(index[name])
    return chosen


# --- solve and best ---------------------------------------------------------------------------


def cmd_solve(args: argparse.Namespace) -> int:
    truck = Truck.parse(args.truck, height=args.height, name=args.name or "")
    plan = verify(best_truck(_cargo(args), [truck], time_limit=args.time_limit)[0])
    if args.json:
        _print_json(plan.to_dict())
    else:
        print(plan.render())
    return 0


def cmd_best(args: argparse.Namespace) -> int:
    if args.top is not None and args.top < 1:
        raise UsageError(f"argument --top: must be at least 1, not {args.top}")
    cargo, deck = _cargo(args), _deck(args)
    plans = [verify(p) for p in best_truck(cargo, deck, top=args.top, time_limit=args.time_limit)]
    blind = expected_penalty(cargo, deck)
    if args.json:
        _print_json({
            "cargo": list(cargo.counts),
            "volume": cargo.volume,
            "ranking": [
                {"truck": p.truck.name, "mask": str(p.truck), "height": p.truck.height,
                 "capacity": p.truck.capacity, "penalty": p.penalty, "optimal": p.optimal}
                for p in plans
            ],
            "blind_draw_expected_penalty": float(blind),
            "best": plans[0].to_dict(),
        })
        return 0
    print(f"cargo {cargo} (volume {cargo.volume}) on {len(deck)} trucks")
    _print_ranking([(p.truck, p.penalty) for p in plans])
    print(f"blind draw from the whole deck: expected penalty {float(blind):.2f} (exactly {blind})")
    print()
    print("best load plan:")
    print(plans[0].render())
    return 0


def _print_ranking(ranking: Sequence[tuple[Truck, int]]) -> None:
    print(f"{'rank':>4}  {'truck':<8} {'mask':<18} {'height':>6} {'capacity':>8} {'penalty':>7}")
    for rank, (t, penalty) in enumerate(ranking, start=1):
        print(f"{rank:>4}  {t.name:<8} {str(t):<18} {t.height:>6} {t.capacity:>8} {penalty:>7}")


# --- grab -------------------------------------------------------------------------------------


def cmd_grab(args: argparse.Namespace) -> int:
    cargo, deck = _cargo(args), _deck(args)
    revealed = _trucks_by_name(deck, args.revealed, "--revealed")
    if args.pile is not None:
        pile = _trucks_by_name(deck, args.pile, "--pile")
    else:
        pile = [t for t in deck if t not in revealed]
    if not revealed and not pile:
        raise UsageError("nothing to choose from: give --revealed trucks or a --pile")
    choices = grab_decision(cargo, revealed, pile)
    heuristic = closest_capacity(cargo, revealed) if revealed else None
    if args.json:
        _print_json({
            "cargo": list(cargo.counts),
            "choices": [{"choice": c.label, "expected_penalty": float(c.expected_penalty),
                         "exact": str(c.expected_penalty)} for c in choices],
            "closest_capacity": heuristic.name if heuristic else None,
        })
        return 0
    print(f"cargo {cargo} (volume {cargo.volume}); {len(revealed)} revealed, pile of {len(pile)}")
    for c in choices:
        what = "draw" if c.truck is None else f"take (capacity {c.truck.capacity})"
        print(f"  {c.label:<10} {what:<20} expected penalty {float(c.expected_penalty):6.2f}")
    print(f"best choice: {choices[0].label}")
    if heuristic is not None:
        print(f"closest-capacity heuristic would take {heuristic.name} "
              f"(capacity {heuristic.capacity})")
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
            bar.append(tqdm(total=total, initial=done, desc=total_hint, unit="entry",
                            file=sys.stderr, disable=None))
        bar[0].update(done - bar[0].n)
        if done == total:
            bar[0].close()

    return update


def _build(deck: Sequence[Truck], folder: Path, workers: int, *, out: TextIO,
           executor: Executor | None = None, where: str = "") -> OptimalTable | None:
    """Build (or resume) the deck's table into ``folder`` (on ``executor``, described by
    ``where``, else on ``workers`` local processes), summing up on ``out``; None when
    interrupted."""
    path = folder / table_filename(deck)
    checkpoint = path.with_suffix(".partial.npz")
    resumed = checkpoint.exists()
    try:
        report = build_table(deck, workers=workers, executor=executor, checkpoint=checkpoint,
                             progress=_progress_bar("building table"))
    except KeyboardInterrupt:
        print(f"interrupted: finished work is saved in {checkpoint}; run the same command to "
              f"resume", file=sys.stderr)
        return None
    report.table.save(path)
    register(report.table)
    rate = report.solved / report.wall_time if report.wall_time else float("inf")
    print(f"table {path}: {report.entries} entries, {report.optimal} proven optimal, "
          f"{report.entries - report.optimal} not; {report.solved} solved in this run "
          f"{'(resumed) ' if resumed else ''}in {report.wall_time:.1f} s "
          f"({rate:.0f} solves/s, {where or f'{workers} worker' + ('s' if workers != 1 else '')})",
          file=out)
    return report.table


def cmd_table_build(args: argparse.Namespace) -> int:
    if args.workers < 1:
        raise UsageError(f"argument --workers: must be at least 1, not {args.workers}")
    folder = Path(args.out) if args.out else user_table_dir()
    deck = _deck(args)
    if args.scheduler is not None or args.cluster is not None:
        with _dask_executor(args) as executor:
            table = _build(deck, folder, args.workers, out=sys.stdout, executor=executor,
                           where=f"Dask {args.scheduler or args.cluster}")
    else:
        table = _build(deck, folder, args.workers, out=sys.stdout)
    if table is None:
        return EXIT_INTERRUPTED
    return 0


def _table_for(deck: Sequence[Truck]) -> OptimalTable:
    table = find_table(deck)
    if table is None:
        print("no table for this deck yet: building it once (about 5 s)", file=sys.stderr)
        table = _build(deck, user_table_dir(), workers=2, out=sys.stderr)  # stdout is the answer's
        if table is None:
            raise KeyboardInterrupt
    return table


def cmd_stats(args: argparse.Namespace) -> int:
    deck = _deck(args)
    table = _table_for(deck)
    stats = truck_stats(table)
    heuristics = [heuristic_loss(table, revealed=k, samples=args.samples) for k in (0, 4, 6)
                  if k < len(deck)]
    volumes = volume_distribution()
    mean_volume = sum(v * p for v, p in volumes.items())
    roll = _cargo(args) if (args.roll or args.cargo) else None
    if args.json:
        data: dict[str, Any] = {
            "deck_key": table.key,
            "mean_volume": float(mean_volume),
            "trucks": [
                {"truck": s.truck.name, "mask": str(s.truck), "height": s.truck.height,
                 "capacity": s.truck.capacity, "expected_penalty": float(s.expected_penalty),
                 "p_best": float(s.p_best), "p_perfect": float(s.p_perfect),
                 "perfect_rolls": [str(c) for c in s.perfect_rolls],
                 "penalty_distribution": {str(p): float(q) for p, q in s.penalty_distribution.items()}}
                for s in stats
            ],
            "heuristic": [
                {"revealed": h.revealed, "samples": h.samples, "mean_loss": h.mean_loss,
                 "worst_loss": h.worst_loss, "worst_roll": str(h.worst_cargo),
                 "p_loses": h.p_loses}
                for h in heuristics
            ],
        }
        if roll is not None:
            data["roll"] = {
                "cargo": list(roll.counts),
                "ranking": [{"truck": t.name, "penalty": p} for t, p in rank_trucks(roll, deck)],
                "blind_draw_expected_penalty": float(expected_penalty(roll, deck)),
            }
        _print_json(data)
        return 0
    print(f"{len(deck)} trucks, table {table.key[:16]}; load volume over all 7,776 rolls: "
          f"mean {float(mean_volume):.2f} cubes")
    print(f"{'truck':<6} {'mask':<18} {'h':>1} {'cap':>3}  {'E[penalty]':>10} {'P(best)':>8} "
          f"{'P(perfect)':>10} {'perfect rolls':>13}")
    for s in sorted(stats, key=lambda s: s.expected_penalty):
        t = s.truck
        print(f"{t.name:<6} {str(t):<18} {t.height:>1} {t.capacity:>3}  "
              f"{float(s.expected_penalty):>10.2f} {float(s.p_best):>8.1%} "
              f"{float(s.p_perfect):>10.1%} {len(s.perfect_rolls):>13}")
    print("P(best) counts ties: every truck tied for the least penalty is best.")
    print()
    print("the closest-capacity heuristic against the optimal grab (penalty points per round):")
    for h in heuristics:
        where = ("any truck of the deck (exact)" if h.revealed == 0 else
                 f"{h.revealed} revealed + pile ({h.samples} sampled sets)")
        print(f"  {where:<36} mean loss {h.mean_loss:5.2f}, worst {h.worst_loss:5.2f} "
              f"(roll {h.worst_cargo}), worse in {h.p_loses:.1%} of rolls")
    if roll is not None:
        print()
        print(f"roll {roll} (volume {roll.volume}):")
        _print_ranking(rank_trucks(roll, deck))
        blind = expected_penalty(roll, deck)
        print(f"blind draw from the whole deck: expected penalty {float(blind):.2f} (exactly {blind})")
    return 0


# --- pictures ---------------------------------------------------------------------------------


def _plot_module() -> Any:
    try:
        from packing import plot
    except ImportError as error:
        raise UsageError(f"pictures need the plot extra (pip install '.[plot]'): {error}") from None
    return plot


def cmd_plot_plan(args: argparse.Namespace) -> int:
    plot = _plot_module()
    truck = Truck.parse(args.truck, height=args.height, name=args.name or "")
    plan = verify(best_truck(_cargo(args), [truck], time_limit=args.time_limit)[0])
    print(plot.plot_plan(plan, args.out))
    return 0


def cmd_plot_deck(args: argparse.Namespace) -> int:
    plot = _plot_module()
    for path in plot.plot_deck(_table_for(_deck(args)), args.out):
        print(path)
    return 0


# --- executors and the deck designer (packing decks …) ----------------------------------------

if TYPE_CHECKING:
    from packing.design import DeckReport


def _dask_options(p: argparse.ArgumentParser) -> None:
    """``--scheduler`` / ``--cluster``: run the work on Dask instead of a local pool."""
    group = p.add_mutually_exclusive_group()
    group.add_argument("--scheduler", metavar="ADDRESS",
                       help="an existing Dask scheduler, e.g. tcp://host:8786 (the dask extra)")
    group.add_argument("--cluster", metavar="local:N",
                       help="a Dask LocalCluster of N worker processes (the dask extra)")


@contextmanager
def _dask_executor(args: argparse.Namespace) -> Iterator[Executor]:
    """The Dask executor ``--scheduler``/``--cluster`` ask for; a cluster that cannot be
    made or reached is bad input (one line, exit 2)."""
    from arena.executors import ExecutorError, executor_from

    with ExitStack() as stack:
        try:
            executor = stack.enter_context(executor_from(scheduler=args.scheduler, cluster=args.cluster))
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
    texts = [(folder / f"random-{args.seed}-{i:03d}.txt",
              f"; random deck {i} of seed {args.seed}: honours the published facts, not the "
              f"printed cards\n" + dump_deck(random_deck(seed=f"{args.seed}.{i}")))
             for i in range(1, args.count + 1)]
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
        _print_json({"decks": [_report_dict(r) for r in reports],
                     **({"picture": args.out} if args.out else {})})
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
        "trucks": [{"truck": t.name, "mask": str(t), "height": t.height, "capacity": t.capacity,
                    "expected_penalty": float(e), "p_best": float(p)}
                   for t, e, p in zip(r.deck, r.expected_penalty, r.p_best)],
    }


def _print_comparison(reports: Sequence[DeckReport]) -> None:
    width = max(12, *(len(Path(r.label).name) for r in reports))
    names = [Path(r.label).name for r in reports]
    print("fairness summary (smaller is better; see packing.design):")
    print(f"  {'deck':<{width}} {'coverage':>8} {'balance':>8} {'skill':>6} {'E[best]':>7} "
          f"{'dominated':>9}  facts")
    for name, r in zip(names, reports):
        print(f"  {name:<{width}} {float(r.coverage):>8.2f} {float(r.balance):>8.1%} "
              f"{r.skill:>6.2f} {float(r.best_mean):>7.2f} {len(r.dominated):>9}  "
              f"{'all kept' if not r.facts else f'{len(r.facts)} broken: ' + r.facts[0]}")
    print("  coverage: worst E[penalty] of the best truck over loads 9..40; balance: max − min "
          "P(best); skill: mean loss of the capacity heuristic")
    print()
    print("expected penalty of the best truck, by load volume:")
    print(f"  {'volume':>6} " + " ".join(f"{n:>{width}}" for n in names))
    for v in range(1, 41):
        print(f"  {v:>6} " + " ".join(f"{float(r.best_by_volume[v - 1]):>{width}.2f}" for r in reports))
    for name, r in zip(names, reports):
        print()
        print(f"{name}: trucks by P(best)")
        print(f"  {'truck':<6} {'mask':<18} {'h':>1} {'cap':>3} {'E[penalty]':>10} {'P(best)':>8}")
        for t, e, p in sorted(zip(r.deck, r.expected_penalty, r.p_best), key=lambda x: -x[2]):
            mark = "  dominated" if t in r.dominated else ""
            print(f"  {t.name:<6} {str(t):<18} {t.height:>1} {t.capacity:>3} {float(e):>10.2f} "
                  f"{float(p):>8.1%}{mark}")


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

    print(f"{sense} {args.objective} from {args.deck or 'the sample deck'}, seed {args.seed}",
          flush=True)
    with _executor(args) as executor:
        try:
            result = optimise(start, objective_name=args.objective, seed=args.seed,
                              maximise=args.maximise, budget=budget, rounds=args.rounds,
                              batch=args.batch, executor=executor, report=report)
        except DesignError as error:
            raise UsageError(str(error)) from None
    print(f"{args.objective}: {result.start_value:.4f} -> {result.value:.4f} after {result.rounds} "
          f"rounds ({result.candidates} decks tried, {result.solved} truck columns solved)")
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
    p.add_argument("--budget", type=float, default=None, metavar="SECONDS",
                   help="stop after this long (default 60 s unless --rounds is given)")
    p.add_argument("--rounds", type=int, default=None, help="stop after this many rounds")
    p.add_argument("--batch", type=int, default=4, help="candidate decks per round (default 4)")
    p.add_argument("--maximise", action="store_true", help="maximise the objective instead")
    p.add_argument("--deck", help="the starting deck file (default: the sample deck)")
    p.add_argument("--out", help="write the best deck here (default: print it)")
    executor_options(p)
    p.set_defaults(run=cmd_decks_optimise)


# --- the parser -------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="packing", description="Provably optimal Pack & Stack answers.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def cargo_options(p: argparse.ArgumentParser, *, required: bool = True) -> None:
        group = p.add_mutually_exclusive_group(required=required)
        group.add_argument("--roll", help="five dice results for lengths 1..5, e.g. 3,2,3,0,1")
        group.add_argument("--cargo", help="any rod counts for lengths 1..5, e.g. 6,0,0,0,3")

    def solve_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                       help="stop CP-SAT early (the plan is then only feasible, with its bound)")

    def truck_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--truck", required=True, help="mask rows split by '/', e.g. '#####/###../#####'")
        p.add_argument("--height", required=True, type=int, help="the truck's height cap (≥ 1)")
        p.add_argument("--name", help="a name for the truck")

    def deck_option(p: argparse.ArgumentParser) -> None:
        p.add_argument("--deck", help="a deck file (default: the sample deck, not the printed cards)")

    def json_option(p: argparse.ArgumentParser) -> None:
        p.add_argument("--json", action="store_true", help="machine-readable output")

    p = sub.add_parser("solve", help="the best loading of a cargo onto one truck")
    cargo_options(p)
    truck_options(p)
    solve_options(p)
    json_option(p)
    p.set_defaults(run=cmd_solve)

    p = sub.add_parser("best", help="rank a deck's trucks for a cargo, show the best plan")
    cargo_options(p)
    deck_option(p)
    p.add_argument("--top", type=int, default=None, help="only the best K trucks")
    solve_options(p)
    json_option(p)
    p.set_defaults(run=cmd_best)

    p = sub.add_parser("grab", help="take a revealed truck or draw from the pile?")
    cargo_options(p)
    deck_option(p)
    p.add_argument("--revealed", default="", help="names of the trucks you may take, e.g. S03,S17")
    p.add_argument("--pile", default=None, help="names of the trucks the pile may hold "
                   "(default: the deck without the revealed ones)")
    json_option(p)
    p.set_defaults(run=cmd_grab)

    p = sub.add_parser("stats", help="what the deck's table says: odds per truck and per roll")
    deck_option(p)
    cargo_options(p, required=False)
    p.add_argument("--samples", type=int, default=200,
                   help="revealed sets sampled for the heuristic comparison (default 200)")
    json_option(p)
    p.set_defaults(run=cmd_stats)

    table = sub.add_parser("table", help="build the optimal table of a deck")
    table_sub = table.add_subparsers(dest="table_command", required=True, parser_class=_Parser)
    p = table_sub.add_parser("build", help="solve every roll on every truck (resumable)")
    deck_option(p)
    p.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    p.add_argument("--out", help=f"folder for the table (default {user_table_dir()})")
    _dask_options(p)
    p.set_defaults(run=cmd_table_build)

    plot = sub.add_parser("plot", help="pictures (needs the plot extra)")
    plot_sub = plot.add_subparsers(dest="plot_command", required=True, parser_class=_Parser)
    p = plot_sub.add_parser("plan", help="a 3D picture of the best load plan")
    cargo_options(p)
    truck_options(p)
    solve_options(p)
    p.add_argument("--out", required=True, help="the PNG file to write")
    p.set_defaults(run=cmd_plot_plan)
    p = plot_sub.add_parser("deck", help="heat map of expected penalty and penalty distributions")
    deck_option(p)
    p.add_argument("--out", required=True, help="the folder to write the PNGs into")
    p.set_defaults(run=cmd_plot_deck)
    _add_decks_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (2 for bad input, 130 when interrupted)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        run: Callable[[argparse.Namespace], int] = args.run
        return run(args)
    except (UsageError, PackingError) as error:
        print(f"packing: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("packing: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (e.g. `packing stats | head`): not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
