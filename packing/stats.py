"""What a deck's table answers: per-truck odds, per-roll rankings, and the grab decision.

Probabilities are exact (fractions of the 7,776 equally likely rolls) except where a docstring
says a figure is sampled. Every distribution here, and every number the deck pictures of
:mod:`packing.plot` show, comes from one function, :func:`weighted_distribution`, over the
table's rows weighted by :meth:`~packing.table.OptimalTable.roll_weights`; this module needs no plotting library.

Each result type has ``to_dict()``: the JSON the command line prints.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from arena.progress import Progress
from arena.progress import progress as show_progress
from arena.text import plural
from arena.values import seed as check_seed
from arena.values import whole_number
from packing.errors import PackingError
from packing.model import Cargo, LoadPlan, Truck
from packing.odds import ROLLS, roll_counts
from packing.queries import best_truck, expected_penalty, rank_trucks
from packing.table import OptimalTable, find_table


def weighted_distribution(values: Iterable[int], weights: Iterable[int]) -> dict[int, int]:
    """Each distinct value with the total weight of its occurrences, in value order; values
    of weight 0 are left out.

    With the table's row volumes as ``values`` and
    :meth:`~packing.table.OptimalTable.roll_weights` as ``weights`` this is how many of the
    7,776 rolls give each load volume (:func:`volume_odds`).

    >>> weighted_distribution([3, 0, 3, 5], [1, 2, 4, 0])
    {0: 2, 3: 5}
    """
    values, weights = list(values), list(weights)
    if len(values) != len(weights):
        raise PackingError(
            f"weighted_distribution needs one weight per value, not "
            f"{len(weights)} weights for {len(values)} values"
        )
    out: dict[int, int] = {}
    for value, weight in zip(values, weights):
        if weight:
            out[int(value)] = out.get(int(value), 0) + int(weight)
    return dict(sorted(out.items()))


def _mean(distribution: dict[int, int]) -> Fraction:
    return Fraction(sum(v * n for v, n in distribution.items()), sum(distribution.values()))


def _truck_dict(truck: Truck) -> dict[str, Any]:
    """How a truck starts each JSON description of it here."""
    return {
        "truck": truck.name,
        "mask": str(truck),
        "height": truck.height,
        "capacity": truck.capacity,
        "variant": truck.is_variant,
    }


@dataclass(frozen=True)
class TruckStats:
    """How one truck of a deck fares over every roll of the dice."""

    truck: Truck
    expected_penalty: Fraction
    penalty_distribution: dict[int, Fraction]  # optimal penalty -> probability
    p_best: Fraction  # the truck is the best of the deck, or tied for best
    perfect_cargos: tuple[Cargo, ...]  # the distinct cargos it loads with penalty 0
    perfect_rolls: int  # how many of the 7,776 rolls give one of them
    p_perfect: Fraction  # perfect_rolls / 7,776

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description (probabilities as floats)."""
        return {
            **_truck_dict(self.truck),
            "expected_penalty": float(self.expected_penalty),
            "p_best": float(self.p_best),
            "p_perfect": float(self.p_perfect),
            "perfect_rolls": self.perfect_rolls,
            "perfect_cargos": [str(c) for c in self.perfect_cargos],
            "penalty_distribution": {
                str(p): float(q) for p, q in self.penalty_distribution.items()
            },
        }


def truck_stats(table: OptimalTable) -> list[TruckStats]:
    """Per truck, in deck order: expected penalty, penalty distribution, the probability of
    being (tied) best for a random roll, and the rolls it handles perfectly.

    >>> from packing import SAMPLE_DECK
    >>> s = truck_stats(find_table(SAMPLE_DECK))[29]
    >>> s.truck.name, s.perfect_rolls, len(s.perfect_cargos), sum(s.penalty_distribution.values())
    ('S30', 4, 1, Fraction(1, 1))
    """
    table = _table_arg(table, "truck_stats")
    shares = table.p_best()
    out = []
    for j, (truck, distribution) in enumerate(zip(table.deck, table.penalty_distributions())):
        column = table.penalties[:, j]
        out.append(
            TruckStats(
                truck=truck,
                expected_penalty=_mean(distribution),
                penalty_distribution={p: Fraction(n, ROLLS) for p, n in distribution.items()},
                p_best=shares[j],
                perfect_cargos=tuple(c for c, p in zip(table.cargos, column.tolist()) if p == 0),
                perfect_rolls=distribution.get(0, 0),
                p_perfect=Fraction(distribution.get(0, 0), ROLLS),
            )
        )
    return out


@dataclass(frozen=True)
class PenaltySummary:
    """One truck's optimal penalty over all 7,776 rolls of the dice.

    ``distribution`` maps each penalty to the number of rolls (out of 7,776) giving it; the
    quantiles are read from it (the smallest penalty whose cumulative share reaches ``q``).
    """

    truck: Truck
    distribution: dict[int, int]
    mean: float

    @property
    def rolls(self) -> int:
        return sum(self.distribution.values())

    @property
    def minimum(self) -> int:
        return min(self.distribution)

    @property
    def maximum(self) -> int:
        return max(self.distribution)

    @property
    def perfect(self) -> float:
        """The probability of penalty 0: the roll fits exactly."""
        return self.distribution.get(0, 0) / self.rolls

    def quantile(self, q: float) -> int:
        """The smallest penalty p with P(penalty ≤ p) ≥ q (``0 ≤ q ≤ 1``)."""
        if not 0.0 <= q <= 1.0:
            raise PackingError(f"invalid quantile {q!r}: it must lie in [0, 1]")
        running = 0
        for value in sorted(self.distribution):
            running += self.distribution[value]
            # Integer comparison: float rounding must not move a quantile to the next value.
            if running * 1_000_000 >= round(q * 1_000_000) * self.rolls:
                return value
        return self.maximum


def penalty_summaries(table: OptimalTable) -> list[PenaltySummary]:
    """Every truck's penalty distribution over all rolls, in deck order.

    >>> from packing import Truck
    >>> truck = Truck.parse("###", height=1)
    >>> s = penalty_summaries(OptimalTable((truck,), np.zeros((900, 1), dtype=np.uint8)))[0]
    >>> s.rolls, s.minimum, s.distribution[5]      # volume 1 only from rolls (1,0,0,0,0)
    (7776, 5, 8)
    """
    table = _table_arg(table, "penalty_summaries")
    return [
        PenaltySummary(truck, distribution, float(_mean(distribution)))
        for truck, distribution in zip(table.deck, table.penalty_distributions())
    ]


def expected_penalty_by_volume(table: OptimalTable) -> npt.NDArray[np.float64]:
    """The expected optimal penalty of each truck (rows, deck order) for each load volume.

    Column ``v - 1`` holds volume ``v`` (1 up to the largest load, 40): the mean optimal
    penalty over the rolls whose cargo has ``v`` cubes, each cargo weighted by the number of
    rolls giving it. NaN where no roll has that volume. This is what a player who knows only
    the size of their load can expect from each truck.

    >>> from packing import Truck
    >>> truck = Truck.parse("###", height=1)      # capacity 3
    >>> nothing = OptimalTable((truck,), np.zeros((900, 1), dtype=np.uint8))
    >>> expected_penalty_by_volume(nothing)[0, :3]  # loads nothing: 3 empty + 2 × volume
    array([5., 7., 9.])
    """
    table = _table_arg(table, "expected_penalty_by_volume")
    volumes = np.array([cargo.volume for cargo in table.cargos], dtype=np.int64)
    weights = table.roll_weights().astype(np.float64)
    penalties = np.asarray(table.penalties, dtype=np.float64)
    out = np.full((len(table.deck), int(volumes.max())), np.nan)
    for volume in range(1, out.shape[1] + 1):
        rows = volumes == volume
        total = weights[rows].sum()
        if total > 0:
            out[:, volume - 1] = weights[rows] @ penalties[rows] / total
    return out


def volume_odds(table: OptimalTable) -> npt.NDArray[np.float64]:
    """The probability of each load volume 1..40 (index ``v - 1``), from the table's rows.

    >>> from packing import SAMPLE_DECK
    >>> float(volume_odds(find_table(SAMPLE_DECK)).sum())
    1.0
    """
    table = _table_arg(table, "volume_odds")
    volumes = [cargo.volume for cargo in table.cargos]
    distribution = weighted_distribution(volumes, table.roll_weights().tolist())
    rolls = np.array([distribution.get(v, 0) for v in range(1, max(volumes) + 1)], dtype=np.float64)
    odds: npt.NDArray[np.float64] = rolls / ROLLS
    return odds


# --- rankings and the grab --------------------------------------------------------------------


@dataclass(frozen=True)
class RankedTruck:
    """One truck's place in a ranking for a cargo: its optimal penalty (``optimal`` False when
    the solve was cut short by a time limit, so the penalty is only what was reached)."""

    truck: Truck
    penalty: int
    optimal: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            **_truck_dict(self.truck),
            "penalty": self.penalty,
            "optimal": self.optimal,
        }


def variant_mark(truck: Truck) -> str:
    """`` (variant)`` after a variant truck in a table of trucks, else nothing."""
    return " (variant)" if truck.is_variant else ""


def ranking_lines(entries: Sequence[RankedTruck]) -> list[str]:
    """Ranked trucks as a table, a line each under a header: rank, name, mask, height,
    capacity and penalty (a penalty not proven optimal, and a variant truck, say so)."""
    width = max([18, *(len(str(e.truck)) for e in entries)])
    lines = [
        f"{'rank':>4}  {'truck':<8} {'mask':<{width}} {'height':>6} {'capacity':>8} {'penalty':>7}"
    ]
    for rank, e in enumerate(entries, start=1):
        t = e.truck
        notes = ("" if e.optimal else " (not proven optimal)") + variant_mark(t)
        lines.append(
            f"{rank:>4}  {t.name:<8} {str(t):<{width}} {t.height:>6} {t.capacity:>8} "
            f"{e.penalty:>7}{notes}"
        )
    return lines


@dataclass(frozen=True)
class Ranking:
    """A deck ranked for one cargo, the exact expected penalty of a blind draw from it, and
    (when solved, see :func:`ranking`) the best load plan."""

    cargo: Cargo
    entries: tuple[RankedTruck, ...]
    blind_draw: Fraction
    best: LoadPlan | None = None
    deck_size: int = 0
    """How many trucks the deck holds (``entries`` may keep only the best few)."""

    def __str__(self) -> str:
        """What ``packing best`` prints: the ranking, the blind draw, and the best plan."""
        blind = self.blind_draw
        lines = [
            f"cargo {self.cargo} (volume {self.cargo.volume}) on {plural(self.deck_size, 'truck')}",
            *ranking_lines(self.entries),
            f"blind draw from the whole deck: expected penalty {float(blind):.2f} (exactly {blind})",
        ]
        if self.best is not None:
            lines += ["", "best load plan:", self.best.render()]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "cargo": list(self.cargo.counts),
            "volume": self.cargo.volume,
            "ranking": [entry.to_dict() for entry in self.entries],
            "blind_draw_expected_penalty": float(self.blind_draw),
        }
        if self.best is not None:
            data["best"] = self.best.to_dict()
        return data


def ranking(
    cargo: Cargo,
    deck: Sequence[Truck],
    *,
    plans: Sequence[LoadPlan] | None = None,
    top: int | None = None,
    solve_best: bool = False,
    time_limit: float | None = None,
    progress: bool = False,
) -> Ranking:
    """``deck`` ranked for ``cargo`` (from the deck's table when there is one), or, given the
    ``plans`` of :func:`packing.best_truck`, those plans ranked with the first as the best.

    ``solve_best`` also gives the best truck's optimal plan (``best``): with the deck's table
    and no ``time_limit`` the ranking is the table's and only that plan is solved (what
    ``packing best`` shows); otherwise the ``top`` trucks are solved (:func:`packing.best_truck`,
    ``time_limit`` for each) and ranked by their plans. ``top`` keeps the best ``top`` trucks.
    ``progress`` shows the trucks solved, without a table, on stderr (:mod:`arena.progress`).

    >>> from packing import SAMPLE_DECK
    >>> r = ranking(Cargo.from_roll([3, 2, 3, 0, 1]), SAMPLE_DECK)
    >>> r.entries[0].truck.name, r.entries[0].penalty, float(r.blind_draw)
    ('S15', 1, 13.2)
    >>> ranking(Cargo.from_roll([3, 2, 3, 0, 1]), SAMPLE_DECK, top=2, solve_best=True).best.penalty
    1
    """
    best: LoadPlan | None = None
    if plans is None and solve_best:
        table = find_table(deck) if deck else None
        ranked = table.rank(cargo) if table is not None and time_limit is None else None
        if ranked is None:
            plans = best_truck(cargo, deck, top=top, time_limit=time_limit, progress=progress)
        else:
            entries = tuple(RankedTruck(t, p) for t, p in ranked[:top])
            best = best_truck(cargo, deck, top=1)[0]  # the table's best, solved and checked
    if plans is not None:
        entries = tuple(RankedTruck(p.truck, p.penalty, p.optimal) for p in plans)
        best = plans[0] if plans else None
    elif best is None:
        ranked_all = rank_trucks(cargo, deck, progress=progress)
        entries = tuple(RankedTruck(t, p) for t, p in ranked_all[:top])
    blind_draw = expected_penalty(cargo, deck, progress=progress)
    return Ranking(cargo, entries, blind_draw, best, len(deck))


@dataclass(frozen=True)
class Choice:
    """One option of the grab: a revealed truck, or the top of the pile (``truck`` None)."""

    truck: Truck | None
    expected_penalty: Fraction

    @property
    def label(self) -> str:
        return "the pile" if self.truck is None else (self.truck.name or str(self.truck))

    def to_dict(self) -> dict[str, Any]:
        return {
            "choice": self.label,
            "expected_penalty": float(self.expected_penalty),
            "exact": str(self.expected_penalty),
        }


def grab_decision(
    cargo: Cargo, revealed: Sequence[Truck], pile: Sequence[Truck], *, progress: bool = False
) -> list[Choice]:
    """Every option of the grab, best first: take a revealed truck (its optimal penalty) or
    draw the top of the pile (the exact expected penalty of a uniform draw from ``pile``).
    Ties keep the order revealed trucks first, then the pile. ``progress`` shows the trucks
    solved, without a table, on stderr (:mod:`arena.progress`).

    >>> from packing import SAMPLE_DECK
    >>> choices = grab_decision(Cargo.from_roll([3, 2, 3, 0, 1]), SAMPLE_DECK[:3], SAMPLE_DECK[3:])
    >>> [(c.label, c.expected_penalty) for c in choices]
    [('the pile', Fraction(110, 9)), ('S03', Fraction(20, 1)), ('S02', Fraction(22, 1)), ('S01', Fraction(24, 1))]
    """
    ranked = rank_trucks(cargo, revealed, progress=progress) if revealed else []
    options = [Choice(t, Fraction(p)) for t, p in ranked]
    if pile:
        options.append(Choice(None, expected_penalty(cargo, pile, progress=progress)))
    if not options:
        raise PackingError("grab_decision needs a revealed truck or a pile to draw from")
    return sorted(options, key=lambda c: c.expected_penalty)


@dataclass(frozen=True)
class GrabAdvice:
    """The grab for one cargo: every choice best first (:func:`grab_decision`) and what the
    closest-capacity heuristic would take among the revealed trucks (None: none revealed)."""

    cargo: Cargo
    choices: tuple[Choice, ...]
    closest_capacity: Truck | None
    pile_size: int = 0
    """How many trucks the pile holds (0: no pile to draw from)."""

    def __str__(self) -> str:
        """What ``packing grab`` prints: every choice best first, and the heuristic's pick."""
        revealed = sum(choice.truck is not None for choice in self.choices)
        lines = [
            f"cargo {self.cargo} (volume {self.cargo.volume}); {revealed} revealed, "
            f"pile of {plural(self.pile_size, 'truck')}"
        ]
        for c in self.choices:
            what = "draw" if c.truck is None else f"take (capacity {c.truck.capacity})"
            mark = "" if c.truck is None else variant_mark(c.truck)
            lines.append(
                f"  {c.label:<10} {what:<20} expected penalty {float(c.expected_penalty):6.2f}{mark}"
            )
        lines.append(f"best choice: {self.choices[0].label}")
        heuristic = self.closest_capacity
        if heuristic is not None:
            lines.append(
                f"closest-capacity heuristic would take {heuristic.name} "
                f"(capacity {heuristic.capacity})"
            )
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "cargo": list(self.cargo.counts),
            "choices": [c.to_dict() for c in self.choices],
            "closest_capacity": self.closest_capacity.name if self.closest_capacity else None,
        }


def grab_advice(
    cargo: Cargo, revealed: Sequence[Truck], pile: Sequence[Truck], *, progress: bool = False
) -> GrabAdvice:
    """:func:`grab_decision` (``progress`` as there) together with the closest-capacity
    heuristic's pick."""
    heuristic = closest_capacity(cargo, revealed) if revealed else None
    choices = grab_decision(cargo, revealed, pile, progress=progress)
    return GrabAdvice(cargo, tuple(choices), heuristic, len(pile))


def capacity_preference(capacity: int, volume: int) -> tuple[int, int]:
    """How the closest-capacity heuristic ranks a truck of ``capacity`` for a load of
    ``volume`` cubes, least first: by the distance between them, ties to the larger capacity
    (a cube left over costs twice an empty one); among equal keys the earlier truck wins.

    >>> sorted([12, 18, 14, 16], key=lambda c: capacity_preference(c, 15))
    [16, 14, 18, 12]
    """
    return abs(capacity - volume), -capacity


def closest_capacity(cargo: Cargo, trucks: Sequence[Truck]) -> Truck:
    """The common player heuristic: the truck whose capacity is closest to the load volume
    (:func:`capacity_preference`: ties to the larger capacity, then the earlier truck)."""
    if not trucks:
        raise PackingError("closest_capacity needs at least one truck")
    volume = cargo.volume
    return min(trucks, key=lambda t: capacity_preference(t.capacity, volume))


@dataclass(frozen=True)
class HeuristicReport:
    """How much "take the capacity closest to my load" loses against the optimal grab."""

    revealed: int  # trucks revealed per grab (0: the whole deck is open to choose from)
    mean_loss: float  # penalty points per round, over rolls (weighted) and revealed sets
    worst_loss: float  # a whole number when the whole deck is open (no pile expectation)
    worst_cargo: Cargo
    worst_revealed: tuple[Truck, ...]
    p_loses: float  # probability that the heuristic choice is strictly worse
    samples: int  # revealed sets sampled per roll (0: exact, whole deck)

    def to_dict(self) -> dict[str, Any]:
        return {
            "revealed": self.revealed,
            "samples": self.samples,
            "mean_loss": self.mean_loss,
            "worst_loss": self.worst_loss,
            "worst_roll": str(self.worst_cargo),
            "p_loses": self.p_loses,
        }


def heuristic_loss(
    table: OptimalTable,
    *,
    revealed: int = 0,
    samples: int = 200,
    seed: int = 0,
    progress: bool = False,
) -> HeuristicReport:
    """Penalty lost by the closest-capacity heuristic against the optimal grab.

    ``revealed=0``: the player may take any truck of the deck (exact over all rolls).
    ``revealed=k``: ``k`` trucks lie revealed and the rest form the pile; the optimal player
    takes the better of the best revealed truck and a blind draw, the heuristic player the
    revealed truck closest in capacity. The revealed sets are sampled (``samples`` ≥ 1 of
    them, the same for every roll, from ``seed``); the mean is over rolls weighted exactly.
    ``progress`` shows the revealed sets done on stderr (:mod:`arena.progress`).
    """
    table = _table_arg(table, "heuristic_loss")
    revealed = whole_number(revealed, "revealed", where="heuristic_loss")
    samples, seed = _samples_and_seed(samples, seed, "heuristic_loss")
    total = 1 if revealed <= 0 else samples
    with _sets_progress(total, progress) as bar:
        return _heuristic_loss(table, revealed, samples, seed, bar)


def _samples_and_seed(samples: object, seed: object, where: str) -> tuple[int, int]:
    return (
        whole_number(samples, "samples", low=1, error=PackingError, where=where),
        check_seed(seed, error=PackingError, where=where),
    )


def _sets_progress(total: int | None, enabled: bool) -> Progress:
    """The progress of the heuristic's revealed sets (:func:`heuristic_loss`)."""
    return show_progress(total, desc="heuristic loss", unit="revealed set", enabled=enabled)


def _heuristic_loss(
    table: OptimalTable, revealed: int, samples: int, seed: int, bar: Progress
) -> HeuristicReport:
    """:func:`heuristic_loss` on a checked table, each revealed set done counted on ``bar``."""
    penalties = table.penalties.astype(np.int64)
    weights = table.roll_weights() / ROLLS
    volumes = np.array([c.volume for c in table.cargos])
    capacities = [t.capacity for t in table.deck]
    n = len(table.deck)
    rng = random.Random(seed)
    if revealed <= 0:
        subsets = [list(range(n))]
    else:
        if revealed >= n:
            raise PackingError(f"revealed must be below the deck size {n}, not {revealed}")
        subsets = [sorted(rng.sample(range(n), revealed)) for _ in range(samples)]
    total, worst, worst_at, loses = 0.0, -1.0, (0, subsets[0]), 0.0
    rows = np.arange(len(volumes))
    for subset in subsets:
        cols = np.array(subset)
        # The heuristic's pick depends only on the load volume: one pick per volume.
        by_volume = np.array(
            [
                min(subset, key=lambda j: capacity_preference(capacities[j], volume))
                for volume in range(int(volumes.max()) + 1)
            ]
        )
        heuristic = penalties[rows, by_volume[volumes]]
        best = penalties[:, cols].min(axis=1).astype(float)
        if revealed > 0:
            rest = np.setdiff1d(np.arange(n), cols)
            best = np.minimum(best, penalties[:, rest].mean(axis=1))
        loss = heuristic - best
        total += float(loss @ weights)
        loses += float((loss > 1e-9) @ weights)
        i = int(np.argmax(loss))
        if loss[i] > worst:
            worst, worst_at = float(loss[i]), (i, subset)
        bar.update()
    return HeuristicReport(
        revealed=max(revealed, 0),
        mean_loss=total / len(subsets),
        worst_loss=worst,
        worst_cargo=table.cargos[worst_at[0]],
        worst_revealed=tuple(table.deck[j] for j in worst_at[1]),
        p_loses=loses / len(subsets),
        samples=0 if revealed <= 0 else samples,
    )


@dataclass(frozen=True)
class DeckStats:
    """Everything ``packing stats`` reports on a deck: per-truck odds, the mean load volume
    and the closest-capacity heuristic's loss (whole deck open, then 4 and 6 revealed)."""

    table: OptimalTable
    trucks: tuple[TruckStats, ...]
    heuristics: tuple[HeuristicReport, ...]
    mean_volume: Fraction

    def __str__(self) -> str:
        """What ``packing stats`` prints: each truck's odds, best first, and the heuristic's
        loss."""
        width = max([18, *(len(str(s.truck)) for s in self.trucks)])
        lines = [
            f"{plural(len(self.trucks), 'truck')}, table {self.table.key[:16]}; load volume over "
            f"all {ROLLS:,} rolls: mean {float(self.mean_volume):.2f} cubes",
            f"{'truck':<6} {'mask':<{width}} {'h':>1} {'cap':>3}  {'E[penalty]':>10} "
            f"{'P(best)':>8} {'P(perfect)':>10} {'perfect rolls':>13}",
        ]
        for s in sorted(self.trucks, key=lambda s: s.expected_penalty):
            t = s.truck
            lines.append(
                f"{t.name:<6} {str(t):<{width}} {t.height:>1} {t.capacity:>3}  "
                f"{float(s.expected_penalty):>10.2f} {float(s.p_best):>8.1%} "
                f"{float(s.p_perfect):>10.1%} {s.perfect_rolls:>13}{variant_mark(t)}"
            )
        lines += [
            "P(best) counts ties: every truck tied for the least penalty is best. "
            f"Perfect rolls: of the {ROLLS:,}, those loaded with penalty 0.",
            "",
            "the closest-capacity heuristic against the optimal grab (penalty points per round):",
        ]
        for h in self.heuristics:
            where = (
                "any truck of the deck (exact)"
                if h.revealed == 0
                else f"{h.revealed} revealed + pile ({plural(h.samples, 'sampled set')})"
            )
            lines.append(
                f"  {where:<36} mean loss {h.mean_loss:5.2f}, worst {h.worst_loss:5.2f} "
                f"(roll {h.worst_cargo}), worse in {h.p_loses:.1%} of rolls"
            )
        return "\n".join(lines)

    def __repr__(self) -> str:
        # A summary: the per-truck figures are in .trucks, to_dict() and the HTML table.
        best = min(self.trucks, key=lambda s: s.expected_penalty, default=None)
        lowest = (
            f", lowest E[penalty] {float(best.expected_penalty):.2f} ({best.truck.name or best.truck})"
            if best is not None
            else ""
        )
        return (
            f"<DeckStats of {plural(len(self.trucks), 'truck')}, mean load {float(self.mean_volume):.2f}"
            f"{lowest}, key {self.table.key[:12]}>"
        )

    def _repr_html_(self) -> str:
        """Each truck's odds and the heuristic's loss as HTML tables, for Jupyter."""
        from arena.svg import html_table  # imported on use, like every picture
        from packing.svg import trucks_html

        trucks = trucks_html(
            [s.truck for s in self.trucks],
            {
                "E[penalty]": [f"{float(s.expected_penalty):.2f}" for s in self.trucks],
                "P(best)": [f"{float(s.p_best):.1%}" for s in self.trucks],
                "P(perfect)": [f"{float(s.p_perfect):.1%}" for s in self.trucks],
            },
            caption=(
                f"deck of {plural(len(self.trucks), 'truck')} (key {self.table.key[:12]}): mean load "
                f"{float(self.mean_volume):.2f} cubes"
            ),
        )
        heuristic = html_table(
            ["revealed", "mean loss", "worst loss", "worst roll", "P(loses)"],
            [
                [
                    "whole deck" if h.revealed == 0 else h.revealed,
                    f"{h.mean_loss:.3f}",
                    f"{h.worst_loss:.2f}",
                    str(h.worst_cargo),
                    f"{h.p_loses:.1%}",
                ]
                for h in self.heuristics
            ],
            caption="the closest-capacity heuristic against the optimal grab (points per round)",
            right=(1, 2, 4),
        )
        return trucks + heuristic

    def to_dict(self) -> dict[str, Any]:
        return {
            "deck_key": self.table.key,
            "mean_volume": float(self.mean_volume),
            "trucks": [s.to_dict() for s in self.trucks],
            "heuristic": [h.to_dict() for h in self.heuristics],
        }


def deck_stats(
    table: OptimalTable, *, samples: int = 200, seed: int = 0, progress: bool = False
) -> DeckStats:
    """:func:`truck_stats` and :func:`heuristic_loss` (0, 4 and 6 revealed, as far as the
    deck is larger) of one table, with the exact mean load volume; ``progress`` shows the
    revealed sets done on stderr (:mod:`arena.progress`)."""
    table = _table_arg(table, "deck_stats")
    samples, seed = _samples_and_seed(samples, seed, "deck_stats")
    counts = roll_counts()
    mean_volume = Fraction(sum(c.volume * n for c, n in counts.items()), ROLLS)
    reveals = [k for k in (0, 4, 6) if k < len(table.deck)]
    total = sum(1 if k == 0 else samples for k in reveals)
    with _sets_progress(total, progress) as bar:
        heuristics = tuple(_heuristic_loss(table, k, samples, seed, bar) for k in reveals)
    return DeckStats(table, tuple(truck_stats(table)), heuristics, mean_volume)


def _table_arg(value: object, where: str) -> OptimalTable:
    """``value`` when it is an :class:`OptimalTable`; else a TypeError naming ``where``."""
    if not isinstance(value, OptimalTable):
        raise TypeError(
            f"{where}: table must be an OptimalTable (packing.table.find_table(deck)), not "
            f"{type(value).__name__} {value!r}"
        )
    return value
