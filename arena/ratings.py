"""Ratings fitted to a whole tournament at once: a Bradley–Terry model by maximum likelihood.

Each game is broken into the comparisons it holds between its players (full rank breaking):
for every two policies in a game, the one that finished above the other beat it; two that
finished level drew, half a win each, as a draw counts in chess. The model says policy ``i``
finishes above policy ``j`` with probability ``1 / (1 + 10 ** (-(r_i - r_j) / 400))``: the
ratings ``r`` are on the Elo scale (200 points apart: about 76 % of the comparisons), and they
average 0. They are the maximum-likelihood fit to *all* the comparisons, so they do not
depend on the order the games were played in (an online rating such as Elo or openskill does),
and they need only the table of comparisons, not the games: fitting a million games costs
what fitting ten does. This is how the rating lists that chess-engine testers trust are made
(BayesElo, Ordo).

Two details make it sound for tournaments:

- **Virtual draws.** Every pair of policies is given one virtual drawn game (BayesElo's prior),
  so a policy that finished above another in every game still gets a finite rating; it moves
  no rating by more than a hair once the pair has played a few hundred games.
- **Uncertainty by deals.** The comparisons of one game are not independent (three players
  give three comparisons from one result), and neither are the games of one duplicate deal
  (they share its luck); deals are. The covariance is therefore the sandwich (robust)
  estimator clustered by deal: the inverse information, around the spread of each deal's
  score. Its sufficient statistics are the sums over deals of each deal's comparison counts
  and of their products, which a tournament adds up as it goes (:class:`Comparisons`), so the
  memory it takes does not grow with the deals. The 95 % interval is the rating ± Student's
  t at (deals − 1) degrees of freedom times the standard error (with the usual ``G / (G − 1)``
  small-sample factor on the deals' spread); with fewer than two deals nothing measures the
  spread and the interval is unbounded.

Two deals of four games between ``a`` and ``b``, counted in half-points: ``a`` won 3 and lost
1, then won 2, drew 1 and lost 1. With the virtual draw that is 6 to 3, odds of 2 to 1, which
the Elo scale puts 400 log10(2) = 120 points apart:

>>> table = Comparisons.empty(2)
>>> table.add_deal([[0, 6], [2, 0]])
>>> table.add_deal([[0, 5], [3, 0]])
>>> fit = fit_ratings(table)
>>> [round(r) for r in fit.ratings], round(fit.expected(0, 1), 3)
([60, -60], 0.667)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from arena.stats import t_quantile

__all__ = ["ELO", "VIRTUAL_DRAWS", "Comparisons", "RatingFit", "fit_ratings", "game_comparisons"]

ELO = 400 / math.log(10)
"""Rating points per unit of log-strength: ``r = ELO * theta`` puts the Bradley–Terry model on
the Elo scale (a 400-point gap is 10 to 1 odds)."""

VIRTUAL_DRAWS = 1
"""Drawn games every pair of policies is given before the tournament's own (BayesElo's prior)."""

#: Newton's method stops when no rating moves by more than this (Elo points).
_TOLERANCE = 1e-9
_MAX_STEPS = 100


def _matrix(shape: tuple[int, ...]) -> npt.NDArray[np.int64]:
    return np.zeros(shape, np.int64)


@dataclass(eq=False)
class Comparisons:
    """The comparisons of a tournament between ``size`` policies, added up deal by deal.

    - ``beats[i, j]``: in *half-points*, twice the games in which policy ``i`` finished above
      policy ``j`` plus the games in which they finished level (so ``beats[i, j] +
      beats[j, i]`` is twice the games they both played);
    - ``deals``: the deals added;
    - ``cross``: the sum over deals of the outer product of each deal's ``beats`` (flattened):
      what the deals' spread is computed from.

    Integers throughout, so adding deals in any order, or two tables together, gives equal
    tables.
    """

    size: int
    beats: npt.NDArray[np.int64]
    cross: npt.NDArray[np.int64]
    deals: int = 0
    _cells: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._cells = self.size * self.size

    @classmethod
    def empty(cls, size: int) -> Comparisons:
        """No comparison yet between ``size`` policies."""
        cells = size * size
        return cls(size, _matrix((size, size)), _matrix((cells, cells)))

    def add_deal(self, beats: npt.ArrayLike) -> None:
        """One deal's comparisons: ``beats[i, j]`` in half-points, as :attr:`beats`."""
        self.add_deals(np.asarray(beats, np.int64)[None])

    def add_deals(self, beats: npt.NDArray[np.int64]) -> None:
        """Many deals' comparisons at once: ``beats[d, i, j]`` for deal ``d``."""
        flat = beats.reshape(len(beats), self._cells).astype(np.int64, copy=False)
        self.beats += flat.sum(axis=0).reshape(self.size, self.size)
        self.cross += flat.T @ flat
        self.deals += len(beats)

    def merge(self, other: Comparisons) -> None:
        """Add ``other``'s deals (between the same policies) to these."""
        if other.size != self.size:
            raise ValueError(f"comparisons between {other.size} policies, not {self.size}")
        self.beats += other.beats
        self.cross += other.cross
        self.deals += other.deals

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Comparisons):
            return NotImplemented
        return (
            self.size == other.size
            and self.deals == other.deals
            and np.array_equal(self.beats, other.beats)
            and np.array_equal(self.cross, other.cross)
        )

    def __hash__(self) -> int:
        return hash((self.size, self.deals, self.beats.tobytes(), self.cross.tobytes()))


@dataclass(frozen=True)
class RatingFit:
    """What :func:`fit_ratings` found: each policy's ``ratings`` (Elo scale, mean 0), their
    standard ``errors`` and 95 % ``intervals`` (``inf`` and unbounded with fewer than two
    deals), and the ``steps`` Newton's method took."""

    ratings: tuple[float, ...]
    errors: tuple[float, ...]
    intervals: tuple[tuple[float, float], ...]
    steps: int

    def expected(self, i: int, j: int) -> float:
        """The chance the model gives policy ``i`` of finishing above policy ``j``."""
        return 1 / (1 + 10 ** (-(self.ratings[i] - self.ratings[j]) / 400))


def _probabilities(theta: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """``p[i, j]``: the model's chance that ``i`` finishes above ``j``."""
    gap = theta[:, None] - theta[None, :]
    return 0.5 * (1 + np.tanh(gap / 2))  # the logistic function, without overflow


def fit_ratings(table: Comparisons) -> RatingFit:
    """The Bradley–Terry ratings of ``table``'s policies by maximum likelihood, with the
    virtual draws and the deal-clustered uncertainty of the module's docstring."""
    m = table.size
    wins = table.beats / 2 + VIRTUAL_DRAWS / 2  # wins[i, j]: i above j, draws half each
    np.fill_diagonal(wins, 0)
    games = wins + wins.T
    theta = np.zeros(m)
    steps = 0
    while steps < _MAX_STEPS:
        steps += 1
        p = _probabilities(theta)
        gradient = (wins - games * p).sum(axis=1)
        information = games * p * p.T
        information = np.diag(information.sum(axis=1)) - information
        # The information is singular along (1, ..., 1): ratings are relative. The
        # pseudo-inverse takes the step with no component there, so they keep their mean of 0.
        step = np.linalg.pinv(information) @ gradient
        theta = theta + step
        if np.max(np.abs(step)) * ELO < _TOLERANCE:
            break
    p = _probabilities(theta)
    information = games * p * p.T
    information = np.diag(information.sum(axis=1)) - information
    inverse = np.asarray(np.linalg.pinv(information), np.float64)
    errors = _clustered_errors(table, p, inverse)
    ratings = tuple(float(ELO * t) for t in theta)
    if table.deals >= 2:
        half = t_quantile(table.deals - 1)
        intervals = tuple((r - half * e, r + half * e) for r, e in zip(ratings, errors))
    else:
        intervals = tuple((-math.inf, math.inf) for _ in ratings)
    return RatingFit(ratings, errors, intervals, steps)


def _clustered_errors(
    table: Comparisons, p: npt.NDArray[np.float64], inverse: npt.NDArray[np.float64]
) -> tuple[float, ...]:
    """Each rating's standard error (Elo points) by the sandwich clustered by deal."""
    m, deals = table.size, table.deals
    if deals < 2:
        return tuple(math.inf for _ in range(m))
    # A deal's score for policy i is sum_j (w_ij - n_ij p_ij) with w_ij = beats_ij / 2 and
    # n_ij = (beats_ij + beats_ji) / 2: linear in the deal's beats, score = A @ beats.
    weights = np.zeros((m, m, m))  # [i, k, l]: the weight of beats[k, l] in policy i's score
    for i in range(m):
        for j in range(m):
            if i != j:
                weights[i, i, j] += 0.5 - 0.5 * p[i, j]
                weights[i, j, i] -= 0.5 * p[i, j]
    a = weights.reshape(m, m * m)
    spread = a @ table.cross.astype(np.float64) @ a.T  # sum over deals of score score^T
    spread *= deals / (deals - 1)
    covariance = inverse @ spread @ inverse
    return tuple(float(ELO * math.sqrt(max(v, 0.0))) for v in np.diag(covariance))


def game_comparisons(
    seating: npt.NDArray[np.intp],
    returns: npt.NDArray[np.float64],
    winners: npt.NDArray[np.bool_],
    size: int,
) -> npt.NDArray[np.int64]:
    """Each game's comparisons in half-points, ``out[g, i, j]``, for games whose seat ``s`` held
    policy ``seating[g, s]``, scored ``returns[g, s]`` and won when ``winners[g, s]``. A seat
    finishes above another as :meth:`arena.GameRecord.ranks` orders them: a winner above a
    non-winner, then more points above fewer; the same standing on both is level."""
    games, seats = seating.shape
    out = np.zeros((games, size, size), np.int64)
    rows = np.arange(games)
    for s in range(seats):
        for t in range(seats):
            if s == t:
                continue
            same = winners[:, s] == winners[:, t]
            above = (winners[:, s] & ~winners[:, t]) | (same & (returns[:, s] > returns[:, t]))
            level = same & (returns[:, s] == returns[:, t])
            out[rows, seating[:, s], seating[:, t]] += 2 * above + level
    return out
