"""The optimal table: the optimal loaded volume and penalty of every distinct roll (rows) on
every truck of a deck (columns), with the queries it answers in microseconds."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np
import numpy.typing as npt

from packing.deck import format_deck
from packing.model import Cargo, Truck
from packing.odds import ROLLS, roll_counts
from packing.rules import EMPTY_COST, LEFT_OVER_COST
from packing.table.files import (
    TABLE_FORMAT,
    DamagedTableError,
    TableError,
    cargo_matrix,
    deck_key,
    deck_of,
    load_npz,
    save_npz,
)


@dataclass(frozen=True, eq=False)
class OptimalTable:
    """Optimal loaded volume and penalty of each distinct roll (rows) on each truck (columns).

    >>> from packing import SAMPLE_DECK, Cargo
    >>> from packing.table import find_table
    >>> table = find_table(SAMPLE_DECK)  # the shipped table of the sample deck
    >>> table.penalty(Cargo.from_roll([3, 2, 3, 0, 1]), 0), table.shape
    (24, (900, 30))
    """

    deck: tuple[Truck, ...]
    loaded: npt.NDArray[np.uint8]  # (900 cargos, trucks): the optimal loaded volume
    penalties: npt.NDArray[np.int32] = field(init=False, repr=False)
    _rows: dict[Cargo, int] = field(init=False, repr=False)
    _rankings: list[list[tuple[Truck, int]] | None] = field(init=False, repr=False)
    _weights: npt.NDArray[np.int64] = field(init=False, repr=False)
    _distributions: list[tuple[dict[int, int], ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        cargos = tuple(roll_counts())
        if self.loaded.shape != (len(cargos), len(self.deck)):
            raise TableError(
                f"table shape {self.loaded.shape} does not fit {len(self.deck)} trucks"
            )
        # int32: a variant truck's capacity passes int16's 32,767 (a 30×30 floor at height 50);
        # the largest truck (packing.model.LARGEST_SIDE² × LARGEST_HEIGHT) stays within int32.
        volumes = np.array([c.volume for c in cargos], dtype=np.int32)[:, None]
        capacities = np.array([t.capacity for t in self.deck], dtype=np.int32)[None, :]
        loaded = self.loaded.astype(np.int32)
        penalties = EMPTY_COST * (capacities - loaded) + LEFT_OVER_COST * (volumes - loaded)
        penalties.setflags(write=False)
        self.loaded.setflags(write=False)
        object.__setattr__(self, "penalties", penalties)
        object.__setattr__(self, "_rows", {c: i for i, c in enumerate(cargos)})
        object.__setattr__(self, "_rankings", [None] * len(cargos))
        counts = roll_counts()
        weights = np.array([counts[cargo] for cargo in cargos], dtype=np.int64)
        weights.setflags(write=False)
        object.__setattr__(self, "_weights", weights)
        object.__setattr__(self, "_distributions", [])  # filled on first use

    # Equal when built for the same deck with the same entries, in any process; a pickle
    # carries only those (the caches are rebuilt on arrival).
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, OptimalTable):
            return NotImplemented
        return self.deck == other.deck and bool(np.array_equal(self.loaded, other.loaded))

    def __hash__(self) -> int:
        return hash(self.deck)

    def __reduce__(
        self,
    ) -> tuple[type[OptimalTable], tuple[tuple[Truck, ...], npt.NDArray[np.uint8]]]:
        return (OptimalTable, (self.deck, np.array(self.loaded)))

    def __repr__(self) -> str:
        # A summary, never the 900-row arrays (they are in .loaded and .penalties).
        return (
            f"<OptimalTable {_deck_summary(self.deck)}, {self.shape[0]} rolls, key {self.key[:12]}>"
        )

    def _repr_html_(self) -> str:
        """Each truck's expected optimal penalty, chance of being the best and of a perfect
        fit over all rolls, as an HTML table for Jupyter."""
        from packing.svg import trucks_html

        total = int(self._weights.sum())
        perfect = [d.get(0, 0) for d in self.penalty_distributions()]
        return trucks_html(
            self.deck,
            {
                "E[penalty]": [f"{float(e):.2f}" for e in self.expected_penalties()],
                "P(best)": [f"{float(p):.1%}" for p in self.p_best()],
                "P(perfect)": [f"{n / total:.1%}" for n in perfect],
            },
            caption=f"{repr(self)[1:-1]}: each truck over all 7,776 rolls of the dice",
        )

    @property
    def cargos(self) -> tuple[Cargo, ...]:
        """The rows: every distinct cargo a roll gives, in :func:`packing.roll_counts` order."""
        return tuple(self._rows)

    @property
    def shape(self) -> tuple[int, int]:
        return (len(self._rows), len(self.deck))

    @property
    def key(self) -> str:
        return deck_key(self.deck)

    def row(self, cargo: Cargo) -> int | None:
        """The row of ``cargo``, or None when no roll gives it (the table cannot answer)."""
        return self._rows.get(cargo)

    def penalty(self, cargo: Cargo, truck: int) -> int:
        """The optimal penalty of ``cargo`` on the deck's truck number ``truck``."""
        row = self._rows.get(cargo)
        if row is None:
            raise TableError(f"cargo {str(cargo)!r} is not a roll of the dice: solve it instead")
        return int(self.penalties[row, truck])

    def rank(self, cargo: Cargo) -> list[tuple[Truck, int]] | None:
        """The deck ranked by optimal penalty for ``cargo`` (ties keep deck order), or None
        when ``cargo`` is not a roll."""
        row = self._rows.get(cargo)
        if row is None:
            return None
        ranking = self._rankings[row]
        if ranking is None:
            penalties = self.penalties[row]
            order = np.argsort(penalties, kind="stable")
            ranking = [(self.deck[j], int(penalties[j])) for j in order]
            self._rankings[row] = ranking
        return list(ranking)

    def blind_draw(self, cargo: Cargo) -> Fraction | None:
        """The exact expected penalty of a truck drawn uniformly from the whole deck."""
        row = self._rows.get(cargo)
        if row is None:
            return None
        return Fraction(int(self.penalties[row].sum()), len(self.deck))

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the table atomically (a crash never leaves a half-written file).

        Raises :class:`TableError` naming the file when it cannot be written.
        """
        return save_npz(
            Path(path),
            format=np.array(TABLE_FORMAT),
            deck=np.array(format_deck(self.deck)),
            cargos=cargo_matrix(),
            loaded=np.asarray(self.loaded),
        )

    @classmethod
    def load(
        cls, path: str | os.PathLike[str], *, deck: Sequence[Truck] | None = None
    ) -> OptimalTable:
        """Read a table; refuse one made for another deck (when ``deck`` is given) or dice."""
        data = load_npz(Path(path))
        if "done" in data:
            raise TableError(f"{os.fspath(path)!r} is an unfinished build: run the build again")
        table_deck = deck_of(data, Path(path))
        if deck is not None and tuple(deck) != table_deck:
            raise TableError(f"table {os.fspath(path)!r} was built for another deck")
        if data["loaded"].shape != (len(data["cargos"]), len(table_deck)):
            raise DamagedTableError(path, "its entries do not match its deck")
        return cls(table_deck, data["loaded"].astype(np.uint8))

    def roll_weights(self) -> npt.NDArray[np.int64]:
        """How many of the 7,776 equally likely rolls give each row (cargo), read-only.

        >>> from packing import SAMPLE_DECK
        >>> from packing.table import find_table
        >>> weights = find_table(SAMPLE_DECK).roll_weights()
        >>> weights.shape, int(weights.sum())
        ((900,), 7776)
        """
        return self._weights

    def penalty_distributions(self) -> tuple[dict[int, int], ...]:
        """Per truck (deck order): each optimal penalty with the number of rolls (of 7,776)
        giving it, in penalty order; built once per table, the one distribution behind every
        statistic of a truck (:func:`packing.stats.truck_stats`, the deck pictures).

        >>> import numpy as np
        >>> from packing import Truck
        >>> table = OptimalTable((Truck.parse("###", height=1),), np.zeros((900, 1), np.uint8))
        >>> table.penalty_distributions()[0][5]  # loads nothing: volume 1 only from (1,0,0,0,0)
        8
        """
        if not self._distributions:
            found = []
            for j in range(len(self.deck)):
                values, rows = np.unique(self.penalties[:, j], return_inverse=True)
                totals = np.bincount(rows, weights=self._weights).astype(np.int64)
                found.append({int(v): int(n) for v, n in zip(values, totals) if n})
            self._distributions.append(tuple(found))
        return self._distributions[0]

    def expected_penalties(self) -> tuple[Fraction, ...]:
        """Each truck's exact expected optimal penalty (deck order) over all rolls.

        >>> from packing import SAMPLE_DECK
        >>> from packing.table import find_table
        >>> find_table(SAMPLE_DECK).expected_penalties()[0]
        Fraction(1781, 72)
        """
        return tuple(
            Fraction(sum(p * n for p, n in d.items()), ROLLS) for d in self.penalty_distributions()
        )

    def p_best(self) -> tuple[Fraction, ...]:
        """Each truck's exact probability (deck order) of being the deck's best or tied best
        for a random roll: ties count as best, so the shares may sum to more than 1.

        >>> from packing import SAMPLE_DECK
        >>> from packing.table import find_table
        >>> sum(find_table(SAMPLE_DECK).p_best()) >= 1
        True
        """
        penalties = self.penalties.astype(np.int64)
        best = penalties == penalties.min(axis=1, keepdims=True)
        return tuple(
            Fraction(int(self._weights @ best[:, j]), ROLLS) for j in range(len(self.deck))
        )


def _deck_summary(deck: Sequence[Truck]) -> str:
    """A deck in a few words: its size and the names of its first and last trucks."""
    names = [t.name for t in deck]
    if len(deck) <= 3 and all(names):
        shown = ", ".join(names)
    elif names and names[0] and names[-1]:
        shown = f"{names[0]}..{names[-1]}"
    else:
        shown = ""
    trucks = f"{len(deck)} truck{'s' * (len(deck) != 1)}"
    return f"of {trucks}" + (f" ({shown})" if shown else "")
