"""``packing decks random|compare|optimize``: the deck designer (:mod:`packing.design`)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arena.cli import (
    Interrupted,
    UsageError,
    add_checkpoint_option,
    add_command,
    add_executor_options,
    add_json_option,
    executor_for,
    print_json,
    seconds,
    seed,
    whole_number_to,
)
from arena.cli import whole_number as whole
from arena.files import write_text
from arena.progress import progress as show_progress
from packing.cli.common import (
    check_file,
    check_folder,
    deck_of,
    output_path,
    plural,
    subcommands,
)
from packing.cli.pictures import picture_path, plot_module
from packing.deck import format_deck, load_deck, save_deck
from packing.design import DeckReport, DesignError, Improvement, compare, optimize, random_deck

#: The most decks ``decks random`` makes in one run (each takes about a second) and the most
#: candidates ``decks optimize`` tries per round (each solves its new trucks' columns).
LARGEST_COUNT = 10_000
LARGEST_BATCH = 1_000


def cmd_decks_random(args: argparse.Namespace) -> int:
    folder = output_path(args.out)
    check_folder(folder, "argument --out")
    paths = [folder / f"random-{args.seed}-{i:03d}.txt" for i in range(1, args.count + 1)]
    for path in paths:  # every file checked before the first is written: all or none fail
        if path.is_dir() or (path.exists() and not os.access(path, os.W_OK)):
            reason = "it is a folder" if path.is_dir() else "permission denied"
            raise UsageError(f"argument --out: cannot write {os.fspath(path)!r}: {reason}")
    written = 0
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # One deck at a time, each file whole before its path is printed: an interrupted run
        # leaves only complete decks, and says how many.
        with show_progress(args.count, desc="random decks", unit="deck") as bar:
            for i, path in enumerate(paths, start=1):
                text = (
                    f"; random deck {i} of seed {args.seed}: honours the published facts, not "
                    f"the printed cards\n" + format_deck(random_deck(seed=f"{args.seed}.{i}"))
                )
                write_text(path, text, what="deck", error=UsageError, caller="decks random")
                written += 1
                print(path, flush=True)
                bar.update()
    except OSError as error:
        raise UsageError(f"cannot write decks into {args.out!r}: {error.strerror}") from None
    except KeyboardInterrupt:
        raise Interrupted(
            f"{plural(written, 'deck')} of {args.count} written into {args.out!r}"
        ) from None
    return 0


def cmd_decks_compare(args: argparse.Namespace) -> int:
    out = picture_path(args.out) if args.out is not None else None
    if out is not None:
        plot_module()  # without the plot extra: one line now, before any work
    decks = [load_deck(p) for p in args.decks]
    with executor_for(args) as (executor, _):
        reports = compare(decks, labels=args.decks, executor=executor)
    if out is not None:
        from packing.designplot import plot_comparison

        try:
            plot_comparison(reports, out)
        except OSError as error:
            raise UsageError(f"cannot write {args.out!r}: {error.strerror}") from None
    if args.json:
        picture = {"picture": args.out} if out is not None else {}
        print_json({"decks": [r.to_dict() for r in reports], **picture})
        return 0
    print_comparison(reports)
    if out is not None:
        print(f"picture: {args.out}")
    return 0


def print_comparison(reports: Sequence[DeckReport]) -> None:
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


def _same_file(first: str, second: str) -> bool:
    """Whether two paths name one file (also through other spellings or links)."""
    one, other = Path(first), Path(second)
    if one.exists() and other.exists():
        return os.path.samefile(one, other)
    return one.resolve() == other.resolve()


def cmd_decks_optimize(args: argparse.Namespace) -> int:
    budget = args.budget if args.budget is not None or args.rounds is not None else 60.0
    if args.out is not None:
        check_file(output_path(args.out), "argument --out")
        if args.checkpoint is not None and _same_file(args.out, args.checkpoint):
            raise UsageError(
                f"argument --out: {args.out!r} is the --checkpoint file: choose another file"
            )
    start = deck_of(args)
    sense = "maximising" if args.maximize else "minimising"
    # Printed with the deck, the report lines are the deck file's comments, so the output
    # redirected to a file is a deck --deck reads back.
    comment = "; " if args.out is None else ""
    header = [f"{sense} {args.objective} from {args.deck or 'the sample deck'}, seed {args.seed}"]

    def say(line: str) -> None:
        # The header waits for the search to start, so a refused checkpoint leaves no output.
        while header:
            print(comment + header.pop(), flush=True)
        print(comment + line, flush=True)

    def report(step: Improvement) -> None:
        say(f"round {step.round}: {args.objective} {step.value:.4f}  ({step.move})")

    result = None
    try:
        with executor_for(args) as (executor, _):
            result = optimize(
                start,
                objective_name=args.objective,
                seed=args.seed,
                maximize=args.maximize,
                budget=budget,
                rounds=args.rounds,
                batch=args.batch,
                executor=executor,
                report=report,
                checkpoint=args.checkpoint,
            )
            if result.interrupted:  # leave as Ctrl-C does: the workers are stopped, not awaited
                raise KeyboardInterrupt
    except DesignError as error:
        raise UsageError(str(error)) from None
    except KeyboardInterrupt:
        if result is None:
            raise
    say(
        f"{args.objective}: {result.start_value:.4f} -> {result.value:.4f} after "
        f"{plural(result.rounds, 'round')} ({plural(result.candidates, 'deck')} tried, "
        f"{plural(result.solved, 'truck column')} solved)"
    )
    if args.out is not None:
        save_deck(result.deck, args.out)  # a DeckError quotes the path
        print(f"best deck: {args.out}")
    else:
        print()
        print(format_deck(result.deck), end="")
    if result.interrupted:
        raise Interrupted(
            f"stopped after {plural(result.rounds, 'round')}; the best deck so far is "
            + (f"saved in {args.out!r}" if args.out else "printed above")
            + (f", the search in {args.checkpoint!r}" if args.checkpoint else "")
        )
    return 0


def add_commands(sub: Any) -> None:
    """``decks random``, ``decks compare``, ``decks optimize`` (``optimise`` accepted too)."""
    random_example = "packing decks random --count 5 --seed 1 --out decks/"
    compare_example = (
        "packing decks compare decks/random-1-001.txt decks/random-1-002.txt --out cmp.png"
    )
    optimize_example = "packing decks optimize --objective balance --rounds 20 --out balanced.txt"
    decks = add_command(
        sub,
        "decks",
        help="design decks: random, compare, optimize",
        examples=[random_example, compare_example, optimize_example],
    )
    decks_sub = subcommands(decks, "decks_command")

    p = add_command(
        decks_sub,
        "random",
        help="random decks honouring every published fact",
        examples=[random_example],
    )
    p.add_argument(
        "--count",
        type=whole_number_to(LARGEST_COUNT),
        required=True,
        metavar="N",
        help=f"how many decks (at most {LARGEST_COUNT:,}; each takes about a second)",
    )
    p.add_argument("--seed", type=seed, required=True, help="the same seed gives the same decks")
    p.add_argument(
        "--out", required=True, metavar="DIR", help="the folder to write the deck files into"
    )
    p.set_defaults(run=cmd_decks_random)

    p = add_command(
        decks_sub,
        "compare",
        help="decks side by side: coverage, P(best), fairness",
        examples=[compare_example, "packing decks compare my-deck.txt --json"],
    )
    p.add_argument("decks", nargs="+", metavar="DECK", help="deck files")
    add_json_option(p)
    p.add_argument(
        "--out",
        metavar="PNG",
        help="also draw the comparison into this .png, .svg or .pdf (the plot extra)",
    )
    add_executor_options(p)
    p.set_defaults(run=cmd_decks_compare)

    p = add_command(
        decks_sub,
        "optimize",
        aliases=["optimise"],
        help="local search for a deck minimising an objective",
        examples=[
            optimize_example,
            "packing decks optimize --objective coverage --budget 300 --deck my-deck.txt",
        ],
    )
    p.add_argument(
        "--objective",
        required=True,
        choices=("coverage", "balance", "skill"),
        help="what to improve: coverage, balance or skill (see packing.design)",
    )
    p.add_argument("--seed", type=seed, default=0, help="the search's seed (default 0)")
    p.add_argument(
        "--budget",
        type=seconds,
        default=None,
        help="stop after this long (default 60 s unless --rounds is given)",
    )
    p.add_argument("--rounds", type=whole, default=None, help="stop after this many rounds")
    p.add_argument(
        "--batch",
        type=whole_number_to(LARGEST_BATCH),
        default=4,
        metavar="N",
        help=f"candidate decks per round (default 4, at most {LARGEST_BATCH:,})",
    )
    p.add_argument(
        "--maximize",
        "--maximise",
        dest="maximize",
        action="store_true",
        help="maximize the objective instead",
    )
    p.add_argument(
        "--deck", metavar="FILE", help="the starting deck file (default: the sample deck)"
    )
    p.add_argument("--out", metavar="FILE", help="write the best deck here (default: print it)")
    add_checkpoint_option(p, "the search after each round")
    add_executor_options(p)
    p.set_defaults(run=cmd_decks_optimize)
