"""The deck designer: random decks that honour the published facts, side-by-side comparisons,
and a local search that optimizes a deck for a documented objective.

The published facts about the 30 printed trucks (``docs/rules/pack-and-stack.md``), as
:func:`check_facts` reads them:

- 30 trucks: 9 of height 1, 10 of height 2, 6 of height 3, 5 of height 4;
- every loading area lies inside the 3×5 grid; all trucks are different — two trucks of the
  same height whose areas are the same shape (shifted, mirrored or turned) would load every
  cargo alike, so they count as the same truck;
- the smallest truck holds exactly 9 cubes (no truck holds fewer);
- no height-4 truck uses the full 15-cell floor; some trucks have no straight run of 5 cells;
- areas are "oddly shaped or split in two": an area has at most two separate parts (cells
  joined along a side), and at least one truck's area is split;
- **Project reading** of "the trucks cover the whole range of loads (1..40)": some truck holds
  at least 40 cubes, and every load of 9..40 cubes has a truck whose capacity is within
  :data:`COVER_SLACK` cubes of it (below 9 the smallest truck is the nearest).

Objectives (all minimized; :func:`objective` computes them from a deck's table):

- ``coverage``: the worst, over load volumes 9..40, of the best truck's expected penalty
  given that volume — how badly the deck serves its worst-served load. Loads below 9 cubes
  are left out: every deck honouring the facts serves them alike (the 9-cube truck, penalty
  9 − v), so they would pin the worst at 8 whatever the design;
- ``balance``: the spread (max − min) of the trucks' P(best) (ties count as best, as in
  :func:`packing.stats.truck_stats`) — 0 would mean no dominant and no dominated truck;
- ``skill``: the mean penalty the capacity heuristic loses against the exact grab
  (:func:`packing.stats.heuristic_loss`, whole deck open) — small when the rule of thumb is
  as good as solving; ``maximize=True`` (``--maximise`` on the command line) rewards decks where skill pays.

Long work (one solved table column, 900 cargos on one truck, per task: 0.1–1.5 s) is a table
build (:func:`packing.table.build_table`) through any :class:`concurrent.futures.Executor`;
columns are cached by truck shape and height, so a search step re-solves only the trucks it
changed.

>>> check_facts(SAMPLE_DECK)
[]
>>> check_facts(random_deck(seed=7))
[]
"""

from __future__ import annotations

import math
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from arena.checkpoint import Checkpoint
from arena.progress import progress as show_progress
from arena.values import seconds, whole_number
from packing.deck import SAMPLE_DECK
from packing.errors import PackingError
from packing.model import Cell, Truck
from packing.odds import ROLLS
from packing.rules import DECK_HEIGHTS as HEIGHT_COUNTS
from packing.rules import GRID_COLUMNS, GRID_ROWS, LENGTHS, MAX_HEIGHT, MAX_LOAD
from packing.rules import SMALLEST_CAPACITY as MIN_CAPACITY
from packing.stats import heuristic_loss
from packing.table import OptimalTable, build_table, find_table

__all__ = [
    "COVER_SLACK",
    "HEIGHT_COUNTS",
    "MIN_CAPACITY",
    "OBJECTIVES",
    "ColumnCache",
    "DeckReport",
    "DesignError",
    "Improvement",
    "SearchResult",
    "best_by_volume",
    "check_facts",
    "compare",
    "coverage",
    "deck_report",
    "dominated",
    "objective",
    "optimize",
    "parts",
    "random_deck",
    "random_truck",
    "shape_key",
]

#: How close (in cubes) some truck's capacity must be to every load of 9..40 (a project reading
#: of "the trucks cover the whole range of loads", see the module docstring).
COVER_SLACK = 2
OBJECTIVES = ("coverage", "balance", "skill")

Column = npt.NDArray[np.uint8]


class DesignError(PackingError):
    """A bad request to the designer: unknown objective, a deck that breaks the facts, …"""


# --- the facts --------------------------------------------------------------------------------


def _cells(truck: Truck) -> frozenset[Cell]:
    return frozenset(truck.cells)


def shape_key(truck: Truck) -> tuple[int, str]:
    """The truck up to what never changes a loading: its height and its area's shape, shifted
    to the corner and taken in the least of its 8 turns and mirror images.

    >>> shape_key(Truck.parse("..#/.##", height=2)) == shape_key(Truck.parse("##/#.", height=2))
    True
    """
    cells = _cells(truck)
    forms = []
    for turn in range(8):
        moved = set()
        for x, y in cells:
            for _ in range(turn % 4):
                x, y = -y, x
            if turn >= 4:
                x = -x
            moved.add((x, y))
        left, top = min(x for x, _ in moved), min(y for _, y in moved)
        moved = {(x - left, y - top) for x, y in moved}
        cols, rows = max(x for x, _ in moved) + 1, max(y for _, y in moved) + 1
        forms.append(
            "/".join(
                "".join("#" if (x, y) in moved else "." for x in range(cols)) for y in range(rows)
            )
        )
    return truck.height, min(forms)


def parts(cells: Iterable[Cell]) -> int:
    """How many separate pieces the cells form (joined along a side)."""
    todo, count = set(cells), 0
    while todo:
        count += 1
        stack = [todo.pop()]
        while stack:
            x, y = stack.pop()
            for near in ((x, y + 1), (x, y - 1), (x + 1, y), (x - 1, y)):
                if near in todo:
                    todo.remove(near)
                    stack.append(near)
    return count


def check_facts(deck: Sequence[Truck]) -> list[str]:
    """Every published fact (see the module docstring) that ``deck`` breaks, one line each;
    an empty list when it honours them all."""
    problems = []
    heights = Counter(t.height for t in deck)
    if len(deck) != sum(HEIGHT_COUNTS.values()) or dict(heights) != HEIGHT_COUNTS:
        have = ", ".join(f"{heights[h]}×{h}" for h in sorted(heights))
        want = ", ".join(f"{n}×{h}" for h, n in HEIGHT_COUNTS.items())
        problems.append(f"heights are {have}, not {want}")
    seen: dict[tuple[int, str], str] = {}
    for t in deck:
        label = t.name or str(t)
        if t.rows > GRID_ROWS or t.columns > GRID_COLUMNS:
            problems.append(f"{label}: mask {str(t)!r} is larger than {GRID_ROWS}×{GRID_COLUMNS}")
        if t.capacity < MIN_CAPACITY:
            problems.append(f"{label}: holds {t.capacity} cubes, fewer than {MIN_CAPACITY}")
        if t.height == MAX_HEIGHT and len(t.cells) >= GRID_ROWS * GRID_COLUMNS:
            problems.append(f"{label}: a height-4 truck uses the full floor")
        if parts(_cells(t)) > 2:
            problems.append(f"{label}: area {str(t)!r} has more than two separate parts")
        key = shape_key(t)
        if key in seen:
            problems.append(f"{label} is the same truck as {seen[key]} (same height, same shape)")
        seen.setdefault(key, label)
    if not deck:
        return problems + ["the deck is empty"]
    capacities = sorted(t.capacity for t in deck)
    if capacities[0] != MIN_CAPACITY:
        problems.append(f"the smallest truck holds {capacities[0]} cubes, not {MIN_CAPACITY}")
    if all(t.longest_run() >= max(LENGTHS) for t in deck):
        problems.append(f"every truck has a straight run of {max(LENGTHS)} cells")
    if all(parts(_cells(t)) == 1 for t in deck):
        problems.append("no truck's area is split in two")
    if capacities[-1] < MAX_LOAD:
        problems.append(f"no truck holds {MAX_LOAD} cubes (the largest holds {capacities[-1]})")
    gaps = [
        v
        for v in range(MIN_CAPACITY, MAX_LOAD + 1)
        if min(abs(c - v) for c in capacities) > COVER_SLACK
    ]
    if gaps:
        problems.append(
            f"no truck's capacity is within {COVER_SLACK} of loads {', '.join(map(str, gaps))}"
        )
    return problems


# --- random decks -----------------------------------------------------------------------------

# The grid's cells in reading order (row by row), the order random choices are made in.
_GRID = [(x, y) for y in range(GRID_ROWS) for x in range(GRID_COLUMNS)]


def _reading_order(cell: Cell) -> tuple[int, int]:
    return cell[1], cell[0]


def _neighbors(cell: Cell) -> list[Cell]:
    x, y = cell
    return [
        (x + dx, y + dy)
        for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0))
        if 0 <= y + dy < GRID_ROWS and 0 <= x + dx < GRID_COLUMNS
    ]


def _grow(rng: random.Random, size: int, taken: set[Cell]) -> set[Cell] | None:
    """A random connected piece of ``size`` cells, touching no cell of ``taken`` (not even
    along a side, so it stays a separate part); None when it does not fit."""
    banned = taken | {n for c in taken for n in _neighbors(c)}
    free = [c for c in _GRID if c not in banned]
    if not free:
        return None
    piece = {rng.choice(free)}
    while len(piece) < size:
        frontier = sorted(
            {n for c in piece for n in _neighbors(c)} - piece - banned, key=_reading_order
        )
        if not frontier:
            return None
        piece.add(rng.choice(frontier))
    return piece


def _truck_from(cells: Iterable[Cell], height: int, name: str) -> Truck:
    chosen = set(cells)
    mask = tuple(tuple((x, y) in chosen for x in range(GRID_COLUMNS)) for y in range(GRID_ROWS))
    return Truck(mask, height, name)


def random_truck(
    rng: random.Random, height: int, *, name: str = "", cells: int | None = None
) -> Truck:
    """A random truck of ``height`` inside the 3×5 grid holding at least 9 cubes (never a
    full floor at height 4); its area is one piece, or (one time in five) two. ``cells``, when
    given, is the area's size instead of a random one."""
    if not isinstance(rng, random.Random):
        raise TypeError(f"random_truck: rng must be a random.Random, not {type(rng).__name__}")
    height = whole_number(
        height, "height", low=1, high=MAX_HEIGHT, error=DesignError, where="random_truck"
    )
    largest = GRID_ROWS * GRID_COLUMNS - (1 if height == MAX_HEIGHT else 0)
    if cells is not None:
        cells = whole_number(
            cells, "cells", low=1, high=largest, error=DesignError, where="random_truck"
        )
    while True:
        n = cells if cells is not None else rng.randint(math.ceil(MIN_CAPACITY / height), largest)
        if n >= 2 and rng.random() < 0.2:
            first = rng.randint(1, n - 1)
            a = _grow(rng, first, set())
            b = _grow(rng, n - first, a) if a is not None else None
            area = a | b if a is not None and b is not None else None
        else:
            area = _grow(rng, n, set())
        if area is not None:
            return _truck_from(area, height, name)


def random_deck(*, seed: int | str, attempts: int = 10_000) -> tuple[Truck, ...]:
    """A random 30-truck deck honouring every fact :func:`check_facts` checks, the same for
    the same ``seed`` in every process. Trucks are named R01..R30, by height then capacity.

    >>> random_deck(seed=1) == random_deck(seed=1) != random_deck(seed=2)
    True
    """
    if not isinstance(seed, str):
        seed = whole_number(seed, "seed", where="random_deck")
    attempts = whole_number(attempts, "attempts", low=1, error=DesignError, where="random_deck")
    rng = random.Random(f"packing.design.random_deck {seed}")
    for _ in range(attempts):
        trucks: list[Truck] = []
        seen: set[tuple[int, str]] = set()
        for height, count in HEIGHT_COUNTS.items():
            while sum(t.height == height for t in trucks) < count:
                # The first truck is the smallest one the facts require: 9 cells at height 1.
                t = random_truck(rng, height, cells=MIN_CAPACITY if not trucks else None)
                if shape_key(t) not in seen:
                    seen.add(shape_key(t))
                    trucks.append(t)
        trucks.sort(key=lambda t: (t.height, t.capacity, str(t)))
        deck = tuple(Truck(t.mask, t.height, f"R{i:02d}") for i, t in enumerate(trucks, start=1))
        if not check_facts(deck):
            return deck
    raise DesignError(f"no deck honouring the facts in {attempts} attempts (seed {seed!r})")


# --- tables by column -------------------------------------------------------------------------


class ColumnCache:
    """Solved table columns keyed by truck shape and height (names do not matter), so decks
    sharing trucks — or a search step changing one truck — solve only what is new.

    >>> cache = ColumnCache()
    >>> cache.table(SAMPLE_DECK).shape  # the shipped table's columns seed the cache
    (900, 30)
    """

    def __init__(self) -> None:
        self._columns: dict[tuple[tuple[tuple[bool, ...], ...], int], Column] = {}
        self.solved = 0  # columns solved by this cache (not taken from a stored table)

    @staticmethod
    def _key(truck: Truck) -> tuple[tuple[tuple[bool, ...], ...], int]:
        return truck.mask, truck.height

    def __len__(self) -> int:
        return len(self._columns)

    def __contains__(self, truck: Truck) -> bool:
        return self._key(truck) in self._columns

    def missing(self, decks: Iterable[Sequence[Truck]]) -> list[Truck]:
        """Trucks of ``decks`` without a column, once each, in order of first appearance;
        columns of any stored table of a whole deck are taken first."""
        out: dict[tuple[tuple[tuple[bool, ...], ...], int], Truck] = {}
        for deck in decks:
            if any(t not in self for t in deck):
                stored = find_table(deck)
                if stored is not None:
                    for j, t in enumerate(stored.deck):
                        self._columns.setdefault(self._key(t), stored.loaded[:, j].copy())
            for t in deck:
                if t not in self:
                    out.setdefault(self._key(t), Truck(t.mask, t.height))
        return list(out.values())

    def fill(
        self,
        decks: Iterable[Sequence[Truck]],
        *,
        executor: Executor | None = None,
        progress: bool = False,
    ) -> int:
        """Solve every missing column of ``decks`` — a table build
        (:func:`packing.table.build_table`, one task per truck) of the missing trucks, in
        parallel through ``executor``, else in this process — and returns how many were
        solved. Every entry must be proven optimal: a designed deck is judged on exact figures.
        ``progress`` shows the solves on stderr (:mod:`arena.progress`)."""
        todo = self.missing(decks)
        if not todo:
            return 0
        with show_progress(
            None, desc="solving truck columns", unit="entry", enabled=progress
        ) as bar:
            report = build_table(todo, executor=executor, progress=bar.callback())
        if not report.all_optimal:
            raise PackingError(
                f"{report.entries - report.optimal} entries without a proven optimum"
            )
        for j, t in enumerate(todo):
            self._columns[self._key(t)] = report.table.loaded[:, j].copy()
        self.solved += len(todo)
        return len(todo)

    def table(self, deck: Sequence[Truck], *, executor: Executor | None = None) -> OptimalTable:
        """The optimal table of ``deck``, solving its missing columns first."""
        self.fill([deck], executor=executor)
        return OptimalTable(
            tuple(deck), np.column_stack([self._columns[self._key(t)] for t in deck])
        )


# --- what a deck's table says -----------------------------------------------------------------


def best_by_volume(table: OptimalTable) -> tuple[Fraction, ...]:
    """For each load volume 1..40, the exact expected penalty of the deck's best truck over
    the rolls of that volume (index ``v - 1``)."""
    weights = table.roll_weights()
    volumes = np.array([c.volume for c in table.cargos])
    best = table.penalties.astype(np.int64).min(axis=1)
    out = []
    for v in range(1, MAX_LOAD + 1):
        rows = volumes == v
        out.append(Fraction(int(best[rows] @ weights[rows]), int(weights[rows].sum())))
    return tuple(out)


def coverage(by_volume: Sequence[Fraction]) -> Fraction:
    """The ``coverage`` objective from :func:`best_by_volume`: the worst of loads 9..40."""
    return max(by_volume[MIN_CAPACITY - 1 :])


def dominated(table: OptimalTable) -> tuple[Truck, ...]:
    """Trucks never strictly best: for every roll some other truck does at least as well."""
    penalties = table.penalties.astype(np.int64)
    out = []
    for j, t in enumerate(table.deck):
        others = np.delete(penalties, j, axis=1)
        if others.shape[1] and not (penalties[:, j] < others.min(axis=1)).any():
            out.append(t)
    return tuple(out)


def objective(table: OptimalTable, name: str) -> float:
    """The objective ``name`` (``coverage``, ``balance`` or ``skill``; see the module
    docstring) of a deck's table; smaller is better for all three."""
    if name == "coverage":
        return float(coverage(best_by_volume(table)))
    if name == "balance":
        shares = table.p_best()
        return float(max(shares) - min(shares))
    if name == "skill":
        return heuristic_loss(table, revealed=0).mean_loss
    raise DesignError(f"unknown objective {name!r} (choose from {', '.join(OBJECTIVES)})")


@dataclass(frozen=True)
class DeckReport:
    """One deck, side by side with others (:func:`compare`)."""

    label: str
    deck: tuple[Truck, ...]
    best_by_volume: tuple[Fraction, ...]  # index v - 1: the best truck's E[penalty] at volume v
    expected_penalty: tuple[Fraction, ...]  # per truck, deck order
    p_best: tuple[Fraction, ...]  # per truck, ties count as best
    best_mean: Fraction  # E[penalty] of the best truck of the deck, over all rolls
    heuristic_loss: float  # mean loss of the capacity heuristic, whole deck open
    dominated: tuple[Truck, ...]
    facts: tuple[str, ...]  # published facts the deck breaks (empty: it honours them all)

    @property
    def coverage(self) -> Fraction:
        return coverage(self.best_by_volume)

    @property
    def balance(self) -> Fraction:
        return max(self.p_best) - min(self.p_best)

    @property
    def skill(self) -> float:
        return self.heuristic_loss

    def to_dict(self) -> dict[str, object]:
        """The report as JSON-ready data (fractions as floats), as ``packing decks compare
        --json`` prints it."""
        trucks = zip(self.deck, self.expected_penalty, self.p_best)
        return {
            "deck": self.label,
            "coverage": float(self.coverage),
            "balance": float(self.balance),
            "skill": self.skill,
            "best_mean_penalty": float(self.best_mean),
            "dominated": [t.name for t in self.dominated],
            "facts_broken": list(self.facts),
            "best_by_volume": {str(v): float(e) for v, e in enumerate(self.best_by_volume, 1)},
            "trucks": [
                {
                    "truck": t.name,
                    "mask": str(t),
                    "height": t.height,
                    "capacity": t.capacity,
                    "expected_penalty": float(e),
                    "p_best": float(p),
                }
                for t, e, p in trucks
            ],
        }


def deck_report(table: OptimalTable, *, label: str = "") -> DeckReport:
    """What :func:`compare` reports about one deck, from its table."""
    weights = table.roll_weights()
    best = table.penalties.astype(np.int64).min(axis=1)
    return DeckReport(
        label=label,
        deck=table.deck,
        best_by_volume=best_by_volume(table),
        expected_penalty=table.expected_penalties(),
        p_best=table.p_best(),
        best_mean=Fraction(int(best @ weights), ROLLS),
        heuristic_loss=heuristic_loss(table, revealed=0).mean_loss,
        dominated=dominated(table),
        facts=tuple(check_facts(table.deck)),
    )


def compare(
    decks: Sequence[Sequence[Truck]],
    *,
    labels: Sequence[str] | None = None,
    executor: Executor | None = None,
    cache: ColumnCache | None = None,
    progress: bool = True,
) -> list[DeckReport]:
    """Build every deck's table (all missing columns at once, in parallel through
    ``executor``, the solves' progress on stderr unless ``progress=False``: see
    :mod:`arena.progress`) and report on each."""
    labels = list(labels) if labels is not None else [f"deck {i}" for i in range(1, len(decks) + 1)]
    if len(labels) != len(decks):
        raise DesignError(f"{len(labels)} labels for {len(decks)} decks")
    cache = cache if cache is not None else ColumnCache()
    cache.fill(decks, executor=executor, progress=progress)
    return [deck_report(cache.table(d), label=label) for d, label in zip(decks, labels)]


# --- local search -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Improvement:
    round: int
    value: float
    move: str


@dataclass(frozen=True)
class SearchResult:
    """What :func:`optimize` found."""

    objective: str
    maximize: bool
    start: tuple[Truck, ...]
    start_value: float
    deck: tuple[Truck, ...]
    value: float
    rounds: int
    candidates: int  # decks evaluated
    solved: int  # table columns solved (the rest came from the cache)
    improvements: tuple[Improvement, ...]
    interrupted: bool = False  # stopped by Ctrl-C: the best deck of the complete rounds


def _move(rng: random.Random, deck: Sequence[Truck]) -> tuple[tuple[Truck, ...], str]:
    """One random change: toggle a cell of one truck, exchange the heights of two trucks, or
    replace one truck by a random one of its height."""
    trucks = list(deck)
    i = rng.randrange(len(trucks))
    t = trucks[i]
    kind = rng.random()
    if kind < 0.6:
        cell = rng.choice(_GRID)
        cells = set(_cells(t)) ^ {cell}
        if not cells:
            return tuple(trucks), "no change"
        trucks[i] = _truck_from(cells, t.height, t.name)
        x, y = cell
        return tuple(trucks), f"{t.name or i}: cell {x},{y} {'on' if cell in cells else 'off'}"
    if kind < 0.8:
        k = rng.randrange(len(trucks))
        u = trucks[k]
        trucks[i], trucks[k] = Truck(t.mask, u.height, t.name), Truck(u.mask, t.height, u.name)
        return tuple(trucks), f"{t.name or i} and {u.name or k}: heights exchanged"
    trucks[i] = random_truck(rng, t.height, name=t.name)
    return tuple(trucks), f"{t.name or i}: replaced by {trucks[i]}"


def _proposals(
    rng: random.Random, deck: tuple[Truck, ...], batch: int
) -> list[tuple[tuple[Truck, ...], str]]:
    """Up to ``batch`` random changes of ``deck`` that keep the facts (50 tries per wanted one)."""
    proposals: list[tuple[tuple[Truck, ...], str]] = []
    for _ in range(50 * batch):
        if len(proposals) == batch:
            break
        candidate, move = _move(rng, deck)
        if candidate != deck and not check_facts(candidate):
            proposals.append((candidate, move))
    return proposals


def _check_request(
    start: tuple[Truck, ...],
    objective_name: str,
    budget: float | None,
    rounds: int | None,
    batch: int,
) -> None:
    if objective_name not in OBJECTIVES:
        raise DesignError(
            f"unknown objective {objective_name!r} (choose from {', '.join(OBJECTIVES)})"
        )
    if rounds is None and budget is None:
        raise DesignError("give a budget in seconds or a number of rounds")
    if budget is not None:
        seconds(budget, "budget", error=DesignError)  # nan would run no round and report success
    if rounds is not None and rounds < 1:
        raise DesignError(f"invalid rounds {rounds!r} (at least 1)")
    if batch < 1:
        raise DesignError(f"invalid batch size {batch} (at least 1)")
    broken = check_facts(start)
    if broken:
        raise DesignError(f"the starting deck breaks the facts: {broken[0]}")


def optimize(
    start: Sequence[Truck] = SAMPLE_DECK,
    *,
    objective_name: str = "coverage",
    seed: int = 0,
    maximize: bool = False,
    budget: float | None = None,
    rounds: int | None = None,
    batch: int = 4,
    executor: Executor | None = None,
    cache: ColumnCache | None = None,
    report: Callable[[Improvement], None] | None = None,
    progress: bool = True,
    checkpoint: str | os.PathLike[str] | None = None,
) -> SearchResult:
    """Hill-climb from ``start``: each round proposes ``batch`` random changes that keep the
    facts, solves their new columns in parallel through ``executor``, and moves to the best
    candidate when it strictly improves the objective (minimized, or maximized with
    ``maximize``). Stops after ``rounds`` rounds or ``budget`` seconds, whichever comes first
    (at least one is required). The same ``seed`` and ``rounds`` give the same result on any
    executor; ``report`` hears of each improvement; ``progress`` shows the rounds on stderr
    (:mod:`arena.progress`).

    Ctrl-C stops the search after its last complete round: the result is the best deck found
    so far, with ``interrupted=True``. With ``checkpoint`` (a file), the search is saved after
    every round, with the columns it solved, and a rerun with the same start, objective, seed,
    sense and batch continues from it (``rounds`` and ``budget`` count the whole search, so
    a resumed search given the same ``rounds`` ends with the result an uninterrupted one
    gives); a checkpoint of another search raises :class:`arena.checkpoint.CheckpointMismatch`.
    """
    start = tuple(start)
    seed = whole_number(seed, "seed", where="optimize")
    if rounds is not None:
        rounds = whole_number(rounds, "rounds", where="optimize")
    batch = whole_number(batch, "batch", where="optimize")
    _check_request(start, objective_name, budget, rounds, batch)
    sign = -1.0 if maximize else 1.0
    cache = cache if cache is not None else ColumnCache()
    solved_before = cache.solved
    # The seed's text names the search as it always has, so a seed gives the same decks.
    rng = random.Random(f"packing.design.optimise {seed}")

    def score(deck: Sequence[Truck]) -> float:
        return sign * objective(cache.table(deck), objective_name)

    saved = None
    if checkpoint is not None:
        saved = Checkpoint(
            checkpoint,
            kind="deck search",
            fingerprint={
                "start": start,
                "objective": objective_name,
                "seed": seed,
                "maximize": maximize,
                "batch": batch,
            },
        )
    state = _SearchState.resumed(saved, cache, rng) if saved is not None else None
    solved_earlier = state.solved if state is not None else 0  # by the runs this one resumes
    if state is None:
        value = score(start)
        state = _SearchState(start, value, value, (), 0, 0, 0.0, cache.solved - solved_before)
    began = time.monotonic() - state.elapsed
    kept = {key[1] for key in saved.entries if isinstance(key, tuple)} if saved else set()
    interrupted = False
    with show_progress(
        rounds, desc="deck search", unit="round", enabled=progress, initial=state.rounds
    ) as bar:
        try:
            while (rounds is None or state.rounds < rounds) and (
                budget is None or time.monotonic() - began < budget
            ):
                done = state.rounds + 1
                proposals = _proposals(rng, state.deck, batch)
                cache.fill([c for c, _ in proposals], executor=executor)
                scored = [(score(c), c, move) for c, move in proposals]
                deck, value, improvements = state.deck, state.value, state.improvements
                step = None
                if scored:
                    best_value, best_deck, best_move = min(scored, key=lambda s: s[0])
                    if best_value < value:
                        deck, value = best_deck, best_value
                        step = Improvement(done, sign * value, best_move)
                        improvements += (step,)
                state = _SearchState(
                    state.start,
                    state.start_value,
                    value,
                    improvements,
                    done,
                    state.candidates + len(proposals),
                    time.monotonic() - began,
                    solved_earlier + cache.solved - solved_before,
                    deck=deck,
                )
                if saved is not None:  # every column the search has used, once each
                    for key in cache._columns.keys() - kept:
                        saved.add(("column", key), cache._columns[key])
                        kept.add(key)
                    saved.add("state", state.saved(rng))
                    saved.flush()
                bar.update()
                if report is not None and step is not None:
                    report(step)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            if saved is not None:
                saved.close()
    return SearchResult(
        objective=objective_name,
        maximize=maximize,
        start=start,
        start_value=sign * state.start_value,
        deck=state.deck,
        value=sign * state.value,
        rounds=state.rounds,
        candidates=state.candidates,
        solved=state.solved,
        improvements=state.improvements,
        interrupted=interrupted,
    )


@dataclass(frozen=True)
class _SearchState:
    """Where a deck search stands after a complete round (what its checkpoint keeps)."""

    start: tuple[Truck, ...]
    start_value: float
    value: float
    improvements: tuple[Improvement, ...]
    rounds: int
    candidates: int
    elapsed: float
    solved: int  # columns solved by the whole search, resumed runs included
    deck: tuple[Truck, ...] = ()

    def __post_init__(self) -> None:
        if not self.deck:
            object.__setattr__(self, "deck", self.start)

    def saved(self, rng: random.Random) -> tuple[Any, ...]:
        return (
            self.start,
            self.start_value,
            self.value,
            self.improvements,
            self.rounds,
            self.candidates,
            self.elapsed,
            self.solved,
            self.deck,
            rng.getstate(),
        )

    @staticmethod
    def resumed(saved: Checkpoint, cache: ColumnCache, rng: random.Random) -> _SearchState | None:
        """The state a checkpoint holds (its columns put into ``cache``, its generator's state
        into ``rng``), or None for a fresh checkpoint."""
        for key, column in saved.entries.items():
            if isinstance(key, tuple) and key[:1] == ("column",):
                cache._columns.setdefault(key[1], column)
        if "state" not in saved.entries:
            return None
        (
            start,
            start_value,
            value,
            improvements,
            rounds,
            candidates,
            elapsed,
            solved,
            deck,
            generator,
        ) = saved.entries["state"]
        rng.setstate(generator)
        return _SearchState(
            start, start_value, value, improvements, rounds, candidates, elapsed, solved, deck=deck
        )
