"""The deck designer's picture: decks compared side by side, as one PNG.

Needs matplotlib, the ``plot`` extra; only ``packing decks compare --out`` imports this module.
Like :mod:`packing.plot`, figures are built from :class:`matplotlib.figure.Figure` directly
(no ``pyplot``, no GUI backend, no global figure registry). The numbers come from
:func:`packing.design.compare`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from matplotlib.figure import Figure

from packing.design import MIN_CAPACITY, DeckReport


def plot_comparison(reports: Sequence[DeckReport], path: str | os.PathLike[str]) -> Path:
    """Three panels: the best truck's expected penalty by load volume, the trucks' P(best)
    and expected penalty (each sorted, one line per deck); the fairness figures in the legend."""
    fig = Figure(figsize=(15, 4.8), layout="constrained")
    by_volume, shares, penalties = fig.subplots(1, 3)
    for r in reports:
        name = Path(r.label).name or r.label
        label = (
            f"{name}: coverage {float(r.coverage):.2f}, balance {float(r.balance):.0%}, "
            f"skill {r.skill:.2f}, {len(r.dominated)} dominated"
        )
        by_volume.plot(
            range(1, len(r.best_by_volume) + 1),
            [float(e) for e in r.best_by_volume],
            marker=".",
            label=label,
        )
        ranks = range(1, len(r.deck) + 1)
        shares.plot(ranks, sorted((float(p) for p in r.p_best), reverse=True), marker=".")
        penalties.plot(ranks, sorted(float(e) for e in r.expected_penalty), marker=".")
    by_volume.axvspan(0.5, MIN_CAPACITY - 0.5, color="0.92", zorder=0)
    by_volume.set(
        title="best truck's expected penalty by load volume",
        xlabel="load volume (cubes)",
        ylabel="expected penalty",
        xlim=(0.5, 40.5),
    )
    by_volume.text(
        1,
        0.98,
        f"below {MIN_CAPACITY}: fixed by the facts",
        transform=by_volume.get_xaxis_transform(),
        va="top",
        fontsize=8,
        color="0.4",
    )
    shares.set(
        title="P(best) of each truck (ties count)",
        xlabel="trucks, most often best first",
        ylabel="P(best)",
    )
    penalties.set(
        title="expected penalty of each truck",
        xlabel="trucks, best first",
        ylabel="expected penalty",
    )
    fig.legend(loc="outside lower center", fontsize=8, ncols=1)
    for ax in (by_volume, shares, penalties):
        ax.grid(alpha=0.3)
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100)
    return out
