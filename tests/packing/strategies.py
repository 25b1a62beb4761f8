"""Hypothesis strategies for Pack & Stack inputs."""

from __future__ import annotations

from hypothesis import strategies as st

from packing import DICE, LENGTHS, Cargo, Truck


@st.composite
def trucks(
    draw: st.DrawFn,
    *,
    rows: int = 3,
    columns: int = 5,
    max_height: int = 4,
    max_cells: int | None = None,
) -> Truck:
    """A truck with a random mask inside a rows × columns grid and at least one usable cell."""
    r = draw(st.integers(1, rows))
    c = draw(st.integers(1, columns))
    flat = draw(st.lists(st.booleans(), min_size=r * c, max_size=r * c))
    if max_cells is not None:
        kept = [i for i, ok in enumerate(flat) if ok][:max_cells]
        flat = [i in kept for i in range(r * c)]
    if not any(flat):
        flat[draw(st.integers(0, r * c - 1))] = True
    mask = tuple(tuple(flat[y * c : (y + 1) * c]) for y in range(r))
    return Truck(mask, draw(st.integers(1, max_height)))


def rolls() -> st.SearchStrategy[Cargo]:
    """A cargo some roll of the dice gives."""
    return st.tuples(*(st.sampled_from(DICE[n]) for n in LENGTHS)).map(Cargo.from_roll)


def cargos(max_count: int = 4) -> st.SearchStrategy[Cargo]:
    """Any cargo with up to ``max_count`` rods of each length."""
    return st.tuples(*(st.integers(0, max_count) for _ in LENGTHS)).map(Cargo)
