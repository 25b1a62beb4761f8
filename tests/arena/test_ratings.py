"""arena.ratings: the Bradley–Terry fit against SciPy's optimiser, known cases, the sandwich
uncertainty against one computed deal by deal, order independence, and coverage."""

from __future__ import annotations

import math
import pickle
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from arena import GameRecord
from arena.ratings import (
    ELO,
    VIRTUAL_DRAWS,
    Comparisons,
    fit_ratings,
    game_comparisons,
)


def random_deals(
    rng: np.random.Generator, strengths: npt.NDArray[np.float64], deals: int, games: int
) -> list[npt.NDArray[np.int64]]:
    """Deals of ``games`` games each between every policy, finishing orders drawn from a
    Plackett–Luce model with ``strengths`` (log scale), a level finish now and then."""
    m = len(strengths)
    out = []
    for _ in range(deals):
        luck = rng.normal(0, 0.5)  # the deal's shared luck: policy 0 does better or worse
        beats = np.zeros((m, m), np.int64)
        for _ in range(games):
            weights = np.exp(strengths + luck * (np.arange(m) == 0))
            left, order = list(range(m)), []
            while left:
                p = weights[left] / weights[left].sum()
                order.append(left.pop(int(rng.choice(len(left), p=p))))
            rank = {policy: k for k, policy in enumerate(order)}
            if rng.random() < 0.2:  # the last two level
                rank[order[-1]] = rank[order[-2]]
            for i in range(m):
                for j in range(m):
                    if i != j:
                        beats[i, j] += 2 * (rank[i] < rank[j]) + (rank[i] == rank[j])
        out.append(beats)
    return out


def table_of(deals: list[npt.NDArray[np.int64]], m: int) -> Comparisons:
    table = Comparisons.empty(m)
    for beats in deals:
        table.add_deal(beats)
    return table


def log_likelihood(theta: npt.NDArray[np.float64], beats: npt.NDArray[np.int64]) -> float:
    """The log-likelihood written out pair by pair, with the virtual draws, independently of
    the module: sum of w_ij log(e^ti / (e^ti + e^tj))."""
    total = 0.0
    m = len(theta)
    for i in range(m):
        for j in range(m):
            if i != j:
                w = beats[i, j] / 2 + VIRTUAL_DRAWS / 2
                total += w * -math.log1p(math.exp(theta[j] - theta[i]))
    return total


@pytest.mark.parametrize("m", [2, 3, 4, 5])
def test_the_fit_is_scipys_maximum_likelihood(m: int, scipy_optimize: Any) -> None:
    rng = np.random.default_rng(m)
    strengths = rng.normal(0, 1, m)
    table = table_of(random_deals(rng, strengths, deals=30, games=m), m)
    fit = fit_ratings(table)

    def loss(free: npt.NDArray[np.float64]) -> float:
        theta = np.concatenate([[0.0], free])
        return -log_likelihood(theta, table.beats)

    found = scipy_optimize.minimize(loss, np.zeros(m - 1), method="BFGS", options={"gtol": 1e-10})
    theta = np.concatenate([[0.0], found.x])
    expected = ELO * (theta - theta.mean())
    assert np.allclose(fit.ratings, expected, atol=1e-3)
    assert abs(sum(fit.ratings)) < 1e-6


def test_two_policies_are_their_odds_on_the_elo_scale() -> None:
    table = Comparisons.empty(2)
    table.add_deal([[0, 2 * 30], [2 * 10, 0]])
    fit = fit_ratings(table)
    gap = 400 * math.log10((30 + 0.5) / (10 + 0.5))  # with the virtual draw, half a win each
    assert fit.ratings[0] - fit.ratings[1] == pytest.approx(gap, abs=1e-9)
    assert fit.expected(0, 1) == pytest.approx(30.5 / 41, abs=1e-12)


def test_a_clean_sweep_has_a_finite_rating_and_equal_policies_rate_zero() -> None:
    sweep = Comparisons.empty(3)
    sweep.add_deal([[0, 8, 8], [0, 0, 8], [0, 0, 0]])
    assert all(math.isfinite(r) for r in fit_ratings(sweep).ratings)
    even = Comparisons.empty(3)
    even.add_deal([[0, 4, 4], [4, 0, 4], [4, 4, 0]])
    assert fit_ratings(even).ratings == pytest.approx((0, 0, 0), abs=1e-9)


def test_the_order_of_the_deals_does_not_matter() -> None:
    rng = np.random.default_rng(7)
    deals = random_deals(rng, np.array([0.5, 0.0, -0.5]), deals=40, games=3)
    forward = table_of(deals, 3)
    backward = table_of(deals[::-1], 3)
    halves = table_of(deals[:13], 3)
    halves.merge(table_of(deals[13:], 3))
    assert forward == backward == halves and hash(forward) == hash(halves)
    assert fit_ratings(forward) == fit_ratings(backward) == fit_ratings(halves)
    assert pickle.loads(pickle.dumps(forward)) == forward


def test_the_uncertainty_is_the_sandwich_clustered_by_deal() -> None:
    """Each deal's score and the information computed numerically from the written-out
    likelihood, then H+ B H+ by hand."""
    rng = np.random.default_rng(3)
    m, deals = 3, table_of([], 3)
    per_deal = random_deals(rng, np.array([0.4, 0.0, -0.3]), deals=25, games=3)
    deals = table_of(per_deal, m)
    fit = fit_ratings(deals)
    theta = np.array(fit.ratings) / ELO

    def deal_log_likelihood(t: npt.NDArray[np.float64], beats: npt.NDArray[np.int64]) -> float:
        return log_likelihood(t, beats) - log_likelihood(t, np.zeros((m, m), np.int64))

    def score(beats: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        h = 1e-5
        return np.array(
            [
                (
                    deal_log_likelihood(theta + h * e, beats)
                    - deal_log_likelihood(theta - h * e, beats)
                )
                / (2 * h)
                for e in np.eye(m)
            ]
        )

    scores = np.array([score(b) for b in per_deal])
    h, hessian, e = 1e-3, np.zeros((m, m)), np.eye(m)
    for k in range(m):
        for j in range(m):
            corners = [
                log_likelihood(theta + h * (a * e[k] + b * e[j]), deals.beats) * a * b
                for a in (1, -1)
                for b in (1, -1)
            ]
            hessian[k, j] = sum(corners) / (4 * h * h)
    # Ratings are relative: only differences are identified, so the inverse is taken on the
    # plane of ratings summing to 0 (the numerical Hessian is singular there only roughly).
    centre = np.eye(m) - 1 / m
    inverse = np.linalg.pinv(centre @ -hessian @ centre, rcond=1e-6)
    spread = scores.T @ scores * len(per_deal) / (len(per_deal) - 1)
    expected = ELO * np.sqrt(np.diag(inverse @ spread @ inverse))
    assert np.allclose(fit.errors, expected, rtol=2e-3)


def test_the_intervals_cover_the_true_ratings_about_as_often_as_they_say() -> None:
    rng = np.random.default_rng(11)
    strengths = np.array([0.6, 0.1, -0.2, -0.5])
    truth = ELO * (strengths - strengths.mean())
    covered = trials = 0
    for _ in range(120):
        fit = fit_ratings(table_of(random_deals(rng, strengths, deals=20, games=4), 4))
        for r, (low, high) in zip(truth[1:], fit.intervals[1:]):  # policy 0 has the deal luck
            covered += low <= r <= high
            trials += 1
    assert 0.88 <= covered / trials <= 0.99


def test_with_one_deal_the_interval_is_unbounded() -> None:
    table = Comparisons.empty(2)
    table.add_deal([[0, 3], [1, 0]])
    fit = fit_ratings(table)
    assert fit.errors == (math.inf, math.inf)
    assert fit.intervals[0] == (-math.inf, math.inf)


def test_game_comparisons_follow_the_records_ranks() -> None:
    rng = np.random.default_rng(5)
    games, seats = 400, 4
    seating = np.array([rng.permutation(seats) for _ in range(games)])
    returns = rng.integers(0, 4, (games, seats)).astype(float)
    winners = rng.random((games, seats)) < 0.3
    out = game_comparisons(seating, returns, winners, seats)
    for g in range(games):
        record = GameRecord(
            0,
            0,
            0,
            tuple(str(p) for p in seating[g]),
            tuple(returns[g]),
            frozenset(np.flatnonzero(winners[g]).tolist()),
        )
        ranks = record.ranks()
        for s in range(seats):
            for t in range(seats):
                if s != t:
                    half = 2 * (ranks[s] < ranks[t]) + (ranks[s] == ranks[t])
                    assert out[g, seating[g, s], seating[g, t]] == half
