"""What a deck's table answers: per-truck odds, per-roll rankings, and the grab decision.

Probabilities are exact (fractions of the 7,776 equally likely rolls) except where a docstring
says a figure is sampled.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from packing.model import Cargo, Truck
from packing.odds import ROLLS, roll_counts
from packing.queries import expected_penalty, rank_trucks
from packing.table import OptimalTable


@dataclass(frozen=True)
class TruckStats:
    """How one truck of a deck fares over every roll of the dice."""

    truck: Truck
    expected_penalty: Fraction
    penalty_distribution: dict[int, Fraction]  # optimal penalty -> probability
    p_best: Fraction  # the truck is the best of the deck, or tied for best
    perfect_rolls: tuple[Cargo, ...]  # cargos it loads with penalty 0
    p_perfect: Fraction


def _weights(table: OptimalTable) -> np.ndarray:
    counts = roll_counts()
    return np.array([counts[c] for c in table.cargos], dtype=np.int64)


def truck_stats(table: OptimalTable) -> list[TruckStats]:
    """Per truck, in deck order: expected penalty, penalty distribution, the probability of
    being (tied) best for a random roll, and the rolls it handles perfectly.

    >>> from packing import SAMPLE_DECK
    >>> s = truck_stats(OptimalTable.for_deck(SAMPLE_DECK))[0]
    >>> s.truck.name, float(s.expected_penalty) > 0, sum(s.penalty_distribution.values())
    ('S01', True, Fraction(1, 1))
    """
    weights = _weights(table)
    penalties = table.penalties.astype(np.int64)
    best = penalties == penalties.min(axis=1, keepdims=True)
    out = []
    for j, truck in enumerate(table.deck):
        column = penalties[:, j]
        distribution: dict[int, int] = {}
        for penalty, weight in zip(column.tolist(), weights.tolist()):
            distribution[penalty] = distribution.get(penalty, 0) + weight
        perfect = tuple(c for c, p in zip(table.cargos, column.tolist()) if p == 0)
        out.append(TruckStats(
            truck=truck,
            expected_penalty=Fraction(int(column @ weights), ROLLS),
            penalty_distribution={p: Fraction(w, ROLLS) for p, w in sorted(distribution.items())},
            p_best=Fraction(int(weights[best[:, j]].sum()), ROLLS),
            perfect_rolls=perfect,
            p_perfect=Fraction(int(weights[column == 0].sum()), ROLLS),
        ))
    return out


@dataclass(frozen=True)
class Choice:
    """One option of the grab: a revealed truck, or the top of the pile (``truck`` None)."""

    truck: Truck | None
    expected_penalty: Fraction

    @property
    def label(self) -> str:
        return "the pile" if self.truck is None else (self.truck.name or str(self.truck))


def grab_decision(cargo: Cargo, revealed: Sequence[Truck], pile: Sequence[Truck]) -> list[Choice]:
    """Every option of the grab, best first: take a revealed truck (its optimal penalty) or
    draw the top of the pile (the exact expected penalty of a uniform draw from ``pile``).
    Ties keep the order revealed trucks first, then the pile.

    >>> from packing import SAMPLE_DECK
    >>> choices = grab_decision(Cargo.from_roll([3, 2, 3, 0, 1]), SAMPLE_DECK[:3], SAMPLE_DECK[3:])
    >>> [(c.label, c.expected_penalty) for c in choices]
    [('the pile', Fraction(110, 9)), ('S03', Fraction(20, 1)), ('S02', Fraction(22, 1)), ('S01', Fraction(24, 1))]
    """
    options = [Choice(t, Fraction(p)) for t, p in rank_trucks(cargo, revealed)] if revealed else []
    if pile:
        options.append(Choice(None, expected_penalty(cargo, pile)))
    if not options:
        raise ValueError("grab_decision needs a revealed truck or a pile to draw from")
    return sorted(options, key=lambda c: c.expected_penalty)


def closest_capacity(cargo: Cargo, trucks: Sequence[Truck]) -> Truck:
    """The common player heuristic: the truck whose capacity is closest to the load volume
    (ties: the larger capacity, since a cube left over costs twice an empty one; then order)."""
    return min(trucks, key=lambda t: (abs(t.capacity - cargo.volume), -t.capacity))


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


def heuristic_loss(
    table: OptimalTable, *, revealed: int = 0, samples: int = 200, seed: int = 0
) -> HeuristicReport:
    """Penalty lost by the closest-capacity heuristic against the optimal grab.

    ``revealed=0``: the player may take any truck of the deck (exact over all rolls).
    ``revealed=k``: ``k`` trucks lie revealed and the rest form the pile; the optimal player
    takes the better of the best revealed truck and a blind draw, the heuristic player the
    revealed truck closest in capacity. The revealed sets are sampled (``samples`` of them, the
    same for every roll, from ``seed``); the mean is over rolls weighted exactly.
    """
    penalties = table.penalties.astype(np.int64)
    weights = _weights(table) / ROLLS
    volumes = np.array([c.volume for c in table.cargos])
    capacities = np.array([t.capacity for t in table.deck])
    n = len(table.deck)
    rng = random.Random(seed)
    if revealed <= 0:
        subsets = [list(range(n))]
    else:
        if revealed >= n:
            raise ValueError(f"revealed must be below the deck size {n}, not {revealed}")
        subsets = [sorted(rng.sample(range(n), revealed)) for _ in range(samples)]
    total, worst, worst_at, loses = 0.0, -1.0, (0, subsets[0]), 0.0
    rows = np.arange(len(volumes))
    for subset in subsets:
        cols = np.array(subset)
        # Heuristic pick per roll: closest capacity, ties to the larger, then deck order.
        distance = np.abs(capacities[cols][None, :] - volumes[:, None]) * 1000 - capacities[cols][None, :]
        pick = cols[np.argmin(distance, axis=1)]
        heuristic = penalties[rows, pick]
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
    return HeuristicReport(
        revealed=max(revealed, 0),
        mean_loss=total / len(subsets),
        worst_loss=worst,
        worst_cargo=table.cargos[worst_at[0]],
        worst_revealed=tuple(table.deck[j] for j in worst_at[1]),
        p_loses=loses / len(subsets),
        samples=0 if revealed <= 0 else samples,
    )
