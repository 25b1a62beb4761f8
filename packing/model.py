"""Value types of Pack & Stack: Cargo, Truck, Placement, LoadPlan.

They are frozen (hashable, safe to share between processes) and each has one canonical text
form: ``str()`` gives it and ``parse()`` reads it back. This module knows nothing of solvers.
"""

from __future__ import annotations

import enum
import operator
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from arena.values import whole_number
from packing import render
from packing.errors import ParseError
from packing.rules import DICE, GRID_COLUMNS, GRID_ROWS, LENGTHS, MAX_HEIGHT, penalty

#: The largest truck this library takes: at most this many rows and this many columns, and a
#: height of at most :data:`LARGEST_HEIGHT`. Far beyond any card (3 × 5, height 4) and any
#: variant worth solving; the limits keep every picture, table and model a size a machine holds.
LARGEST_SIDE = 100
#: The tallest truck this library takes (see :data:`LARGEST_SIDE`).
LARGEST_HEIGHT = 100

_DIGITS = re.compile(r"[+-]?[0-9]+")

Axis = Literal["x", "y", "z"]
AXES: tuple[Axis, ...] = ("x", "y", "z")
Cell = tuple[int, int]  # (x, y): the column, then the row (docs/rules/pack-and-stack.md)
Cube = tuple[int, int, int]


@dataclass(frozen=True, init=False)
class Cargo:
    """How many rods of each length 1..5 a player must load.

    >>> cargo = Cargo.from_roll([3, 2, 3, 0, 1])
    >>> cargo.counts, cargo.volume
    ((3, 2, 3, 0, 1), 21)
    >>> Cargo({1: 3, 2: 2})
    Cargo((3, 2, 0, 0, 0))
    """

    counts: tuple[int, int, int, int, int]

    def __init__(self, counts: Mapping[int, int] | Sequence[int] = ()) -> None:
        if isinstance(counts, (str, bytes)):
            raise TypeError(
                f"Cargo takes counts per length (a sequence such as (3, 2, 3, 0, 1) or a mapping "
                f"such as {{1: 3, 2: 2}}), not the text {counts!r}: use Cargo.parse(text)"
            )
        if isinstance(counts, Mapping):
            unknown = [k for k in counts if k not in LENGTHS]
            if unknown:
                raise ParseError(f"invalid rod length {unknown[0]!r} in cargo {dict(counts)!r}")
            raw = tuple(counts.get(length, 0) for length in LENGTHS)
        elif isinstance(counts, Iterable):
            raw = tuple(counts)
            if len(raw) > len(LENGTHS):
                raise ParseError(f"invalid cargo {raw!r}: at most 5 counts, one per length")
            raw += (0,) * (len(LENGTHS) - len(raw))
        else:
            raise TypeError(
                f"Cargo takes counts per length (a sequence such as (3, 2, 3, 0, 1) or a mapping "
                f"such as {{1: 3, 2: 2}}), not {_what(counts)}"
            )
        values = tuple(_count(value, counts) for value in raw)
        object.__setattr__(self, "counts", values)

    @classmethod
    def from_roll(cls, faces: Sequence[int] | str) -> Cargo:
        """The cargo of a roll of the five dice, given in length order 1..5 (``[3, 2, 3, 0, 1]``,
        or its text ``"3,2,3,0,1"``, read by :meth:`parse` with ``roll=True``).

        Raises :class:`ParseError` for a face the die does not have.
        """
        if isinstance(faces, str):
            return cls.parse(faces, roll=True)
        if isinstance(faces, bytes) or not isinstance(faces, Iterable):
            raise TypeError(
                "Cargo.from_roll: faces must be the five dice results, such as [3, 2, 3, 0, 1] "
                f"or '3,2,3,0,1', not {_what(faces)}"
            )
        faces = tuple(whole_number(face, "Cargo.from_roll: each face") for face in faces)
        problem = _roll_problem(faces)
        if problem:
            raise ParseError(f"invalid roll {faces!r}: {problem}")
        return cls(faces)

    @classmethod
    def parse(cls, text: str, *, roll: bool = False) -> Cargo:
        """Read ``"3,2,3,0,1"`` (counts of lengths 1..5); ``roll=True`` also checks the dice."""
        if not isinstance(text, str):
            raise TypeError(f"Cargo.parse takes text such as '3,2,3,0,1', not {_what(text)}")
        parts = [p.strip() for p in text.replace(" ", ",").split(",") if p.strip()]
        # ASCII digits only: int() also reads other scripts' digits ('٣') and '1_0'.
        if not all(_DIGITS.fullmatch(p) for p in parts):
            raise ParseError(f"invalid {'roll' if roll else 'cargo'}: {text!r}")
        values = [int(p) for p in parts]
        problem = _roll_problem(values) if roll else None
        if problem:
            raise ParseError(f"invalid roll {text!r}: {problem}")
        try:
            return cls(values)
        except ParseError:
            raise ParseError(f"invalid cargo {text!r}: at most 5 non-negative counts") from None

    def __str__(self) -> str:
        return ",".join(map(str, self.counts))

    def __repr__(self) -> str:
        return f"Cargo({self.counts!r})"

    def count(self, length: int) -> int:
        """How many rods of ``length``."""
        return self.counts[length - 1]

    @property
    def volume(self) -> int:
        """Cubes in the cargo."""
        return sum(length * n for length, n in zip(LENGTHS, self.counts))

    @property
    def rods(self) -> tuple[int, ...]:
        """Every rod's length, longest first."""
        return tuple(length for length in reversed(LENGTHS) for _ in range(self.count(length)))

    @property
    def is_roll(self) -> bool:
        """True when some roll of the dice gives exactly this cargo."""
        return all(n in DICE[length] for length, n in zip(LENGTHS, self.counts))

    def __sub__(self, other: Cargo) -> Cargo:
        return Cargo(tuple(max(a - b, 0) for a, b in zip(self.counts, other.counts)))


@dataclass(frozen=True)
class Truck:
    """A truck card: the loading area (usable cells of a grid) and the height cap.

    ``mask[y][x]`` is True where a cube may stand; ``x`` is the column and ``y`` the row,
    row 0 being the first row of the text.

    The printed cards have a loading area inside 3 rows × 5 columns and a height of 1..4, but
    any mask and height ≥ 1 is accepted on purpose, so designers can explore variants;
    :attr:`is_variant` tells such trucks apart.

    >>> truck = Truck.parse("#####/###../#####", height=3, name="T07")
    >>> truck.capacity, str(truck), truck.is_variant
    (39, '#####/###../#####', False)
    """

    mask: tuple[tuple[bool, ...], ...]
    height: int
    name: str = ""
    cells: tuple[Cell, ...] = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)
    _longest_run: int = field(init=False, repr=False, compare=False)
    _text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.mask, (str, bytes)) or not isinstance(self.mask, Iterable):
            raise TypeError(
                f"Truck takes a mask of rows of booleans, not {_what(self.mask)}: "
                f"to read text use Truck.parse('#####/###../#####', height=3)"
            )
        rows = tuple(self.mask)
        for row in rows:
            # A row of text would pass as truthy characters ('.' included): refuse it.
            if isinstance(row, (str, bytes)) or not isinstance(row, Iterable):
                raise TypeError(
                    f"Truck takes a mask of rows of booleans, not a row {row!r}: "
                    f"to read text use Truck.parse('#####/###../#####', height=3)"
                )
        object.__setattr__(self, "height", whole_number(self.height, "Truck height"))
        if not isinstance(self.name, str):
            raise TypeError(f"Truck name must be a str, not {_what(self.name)}")
        if not self.name.isprintable():
            # A newline or a terminal escape code would be printed raw by every table.
            raise ParseError(
                f"invalid truck name {self.name!r}: it holds a control character "
                "(a newline, a tab, a terminal escape code)"
            )
        # Accept any nested sequence of truthy values, store tuples of bools (hashable).
        object.__setattr__(self, "mask", tuple(tuple(bool(c) for c in row) for row in rows))
        # The mask's text is written by every answer that names the truck (a deck's ranking
        # names 30): worked out once.
        text = "/".join("".join("#" if ok else "." for ok in row) for row in self.mask)
        object.__setattr__(self, "_text", text)
        if not self.mask or not self.mask[0]:
            raise ParseError(f"invalid truck mask {self.mask!r}: it has no rows")
        if any(len(row) != len(self.mask[0]) for row in self.mask):
            raise ParseError(f"invalid truck mask {_shortened(str(self))!r}: rows differ in length")
        check_height(self.height)
        for what, size in (("rows", len(self.mask)), ("columns", len(self.mask[0]))):
            if size > LARGEST_SIDE:
                raise ParseError(
                    f"invalid truck mask {_shortened(str(self))!r}: {size:,} {what}, more than "
                    f"the largest truck's {LARGEST_SIDE:,}"
                )
        cells = tuple((x, y) for y, row in enumerate(self.mask) for x, ok in enumerate(row) if ok)
        if not cells:
            raise ParseError(f"invalid truck mask {_shortened(str(self))!r}: no usable cell ('#')")
        object.__setattr__(self, "cells", cells)
        # Decks are looked up by value in hot paths (table queries): hash once. The cached hash
        # leaves out the name: bools and ints hash the same in every process, strings do not,
        # and the cache travels with a pickled truck. Equality still compares the name.
        # The longest run is asked by every solve (``upper_bound`` via ``fits``): work it out
        # once too.
        object.__setattr__(self, "_hash", hash((self.mask, self.height)))
        object.__setattr__(self, "_longest_run", _longest_line(self.mask))

    def __hash__(self) -> int:
        return self._hash

    @classmethod
    def parse(cls, text: str, *, height: int, name: str = "") -> Truck:
        """Read a mask such as ``"#####/###../#####"`` (rows split by ``/`` or newlines).

        Space around the text and around each row is ignored; an empty row (``"##//##"``, a
        leading or trailing ``/``, a row of spaces) is an error, never silently dropped.
        """
        if not isinstance(text, str):
            raise TypeError(
                f"Truck.parse takes mask text such as '#####/###../#####', not {_what(text)}"
            )
        rows = [r.strip() for r in text.strip().replace("\n", "/").split("/")]
        if rows == [""]:
            raise ParseError(f"invalid truck mask {_shortened(text)!r}: it has no rows")
        for number, row in enumerate(rows, start=1):
            if not row:
                raise ParseError(
                    f"invalid truck mask {_shortened(text)!r}: row {number} of {len(rows)} is empty "
                    f"(rows are separated by '/' or newlines; use '.' for unusable cells)"
                )
            bad = set(row) - {"#", "."}
            if bad:
                raise ParseError(
                    f"invalid truck mask {_shortened(text)!r}: use '#' for usable and '.' for unusable "
                    f"cells, not {sorted(bad)[0]!r}"
                )
        if any(len(r) != len(rows[0]) for r in rows):
            raise ParseError(f"invalid truck mask {_shortened(text)!r}: rows differ in length")
        mask = tuple(tuple(c == "#" for c in row) for row in rows)
        return cls(mask, height, name)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        name = f", name={self.name!r}" if self.name else ""
        return f"Truck.parse({str(self)!r}, height={self.height}{name})"

    @property
    def rows(self) -> int:
        return len(self.mask)

    @property
    def columns(self) -> int:
        return len(self.mask[0])

    @property
    def capacity(self) -> int:
        """Cubes the truck holds: usable cells × height."""
        return len(self.cells) * self.height

    @property
    def is_variant(self) -> bool:
        """True when the truck could not be a printed card: its mask does not fit the cards'
        3-row × 5-column grid, or its height is above 4. Such trucks are accepted on purpose
        (designers explore variants), and this tells a user interface to label them."""
        return self.rows > GRID_ROWS or self.columns > GRID_COLUMNS or self.height > MAX_HEIGHT

    def usable(self, x: int, y: int) -> bool:
        """True when (x, y) lies inside the grid and the loading area."""
        return 0 <= y < self.rows and 0 <= x < self.columns and self.mask[y][x]

    def longest_run(self) -> int:
        """The longest straight line of usable cells along a row or a column."""
        return self._longest_run

    def fits(self, length: int) -> bool:
        """True when a rod of ``length`` can be placed at all (lying or upright)."""
        return length <= self.height or length <= self.longest_run()

    def mirrored(self) -> Truck:
        """The truck flipped left to right (same loads, same scores)."""
        return Truck(tuple(tuple(reversed(row)) for row in self.mask), self.height, self.name)

    def flipped(self) -> Truck:
        """The truck flipped front to back."""
        return Truck(tuple(reversed(self.mask)), self.height, self.name)

    def with_height(self, height: int) -> Truck:
        return Truck(self.mask, height, self.name)

    def _repr_svg_(self) -> str:
        """The truck as a picture, for Jupyter (:func:`packing.svg.truck_svg`)."""
        from packing.svg import truck_svg  # the pictures sit above the values: imported on use

        return truck_svg(self)


@dataclass(frozen=True, order=True)
class Placement:
    """One rod in the truck: ``(x, y, z)`` is its lowest-coordinate cube.

    ``axis`` is ``"x"`` (lying along a row), ``"y"`` (lying along a column) or ``"z"``
    (standing upright). Text form: ``"3x@0,1,0"``.

    >>> Placement.parse("3y@4,0,1").cubes()
    ((4, 0, 1), (4, 1, 1), (4, 2, 1))
    """

    length: int
    x: int
    y: int
    z: int
    axis: Axis

    def __post_init__(self) -> None:
        for name in ("length", "x", "y", "z"):
            value = getattr(self, name)
            if type(value) is int:  # the common case, one test: a plan holds many rods
                continue
            try:
                object.__setattr__(self, name, whole_number(value, f"Placement {name}"))
            except TypeError as wrong:
                raise TypeError(
                    f"{wrong} (to read text such as '3x@0,1,0' use Placement.parse)"
                ) from None
        if self.length not in LENGTHS:
            raise ParseError(f"invalid rod length {self.length!r} (lengths are 1..5)")
        if self.axis not in AXES:
            raise ParseError(f"invalid axis {self.axis!r} (use 'x', 'y' or 'z')")
        if min(self.x, self.y, self.z) < 0:
            raise ParseError(f"invalid placement {str(self)!r}: coordinates are ≥ 0")

    @classmethod
    def parse(cls, text: str) -> Placement:
        """Read the text form, e.g. ``"3x@0,1,0"``."""
        if not isinstance(text, str):
            raise TypeError(f"Placement.parse takes text such as '3x@0,1,0', not {_what(text)}")
        try:
            if not text.isascii():  # int() would read other scripts' digits
                raise ValueError(text)
            head, coords = text.strip().split("@")
            x, y, z = (int(c) for c in coords.split(","))
            length, axis = int(head[:-1]), head[-1]
        except ValueError:
            raise ParseError(f"invalid placement {text!r} (expected e.g. '3x@0,1,0')") from None
        if axis not in AXES:
            raise ParseError(f"invalid placement {text!r}: axis must be x, y or z")
        return cls(length, x, y, z, axis)

    def __str__(self) -> str:
        return f"{self.length}{self.axis}@{self.x},{self.y},{self.z}"

    def cubes(self) -> tuple[Cube, ...]:
        """The unit cubes the rod occupies, from its lowest-coordinate cube on."""
        dx, dy, dz = {"x": (1, 0, 0), "y": (0, 1, 0), "z": (0, 0, 1)}[self.axis]
        return tuple(
            (self.x + i * dx, self.y + i * dy, self.z + i * dz) for i in range(self.length)
        )


class Status(enum.StrEnum):
    """How much a plan's optimality is known. Its text (``str``, JSON) is the value."""

    OPTIMAL = "optimal"  # proven: no loading loads more
    FEASIBLE = "feasible"  # a valid loading; a better one may exist (the time limit cut it short)
    BY_HAND = "by-hand"  # a loading given by hand (LoadPlan.from_placements), never searched


class Engine(enum.StrEnum):
    """What produced a plan. Its text (``str``, JSON) is the value."""

    BOUND = "bound"  # the fast path: a search whose loading reaches the upper bound (or, cut
    # short by the time limit before CP-SAT started, the search's best loading)
    CP_SAT = "cp-sat"  # the CP-SAT model
    BY_HAND = "by-hand"  # given by hand


@dataclass(frozen=True)
class LoadPlan:
    """A loading of a cargo onto a truck, with what is known of its optimality.

    Every score is recomputed from the placements as an integer. ``bound`` is a proven upper
    bound on the volume any loading of this cargo onto this truck can reach (``None`` when
    unknown), so ``penalty_bound`` is a proven lower bound on the penalty. ``engine`` says
    what produced it (:class:`Engine`), ``wall_time`` how long it took.

    Two plans are equal when they have the same truck, cargo, placements, status and bound:
    ``wall_time`` and ``engine`` say how a plan was found, not what it is, so two solves of
    the same problem give equal plans.
    """

    truck: Truck
    cargo: Cargo
    placements: tuple[Placement, ...]
    status: Status = Status.BY_HAND
    bound: int | None = None
    wall_time: float = field(default=0.0, compare=False)
    engine: Engine = field(default=Engine.BY_HAND, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.truck, Truck):
            raise TypeError(f"LoadPlan truck must be a Truck, not {_what(self.truck)}")
        if not isinstance(self.cargo, Cargo):
            raise TypeError(f"LoadPlan cargo must be a Cargo, not {_what(self.cargo)}")
        placements = tuple(self.placements)
        for p in placements:
            if not isinstance(p, Placement):
                raise TypeError(f"LoadPlan placements must be Placements, not {_what(p)}")
        object.__setattr__(self, "placements", placements)
        # The status and engine may also be given as their text ("optimal", "cp-sat").
        for name, kind in (("status", Status), ("engine", Engine)):
            value = getattr(self, name)
            try:
                object.__setattr__(self, name, kind(value))
            except ValueError:
                choices = ", ".join(member.value for member in kind)
                raise ParseError(f"invalid plan {name} {value!r} (one of {choices})") from None
        if self.bound is not None:
            object.__setattr__(self, "bound", whole_number(self.bound, "LoadPlan bound"))

    @property
    def optimal(self) -> bool:
        return self.status is Status.OPTIMAL

    @property
    def loaded(self) -> int:
        """Cubes on the truck."""
        return sum(p.length for p in self.placements)

    @property
    def empty(self) -> int:
        """Cubes of capacity left empty."""
        return self.truck.capacity - self.loaded

    @property
    def left_over(self) -> int:
        """Cubes of cargo not loaded."""
        return self.cargo.volume - self.loaded

    @property
    def penalty(self) -> int:
        """Points lost: empty + 2 × left over."""
        return penalty(capacity=self.truck.capacity, volume=self.cargo.volume, loaded=self.loaded)

    @property
    def penalty_bound(self) -> int | None:
        """A proven lower bound on the penalty of any loading (``None`` when unknown)."""
        if self.bound is None:
            return None
        return penalty(capacity=self.truck.capacity, volume=self.cargo.volume, loaded=self.bound)

    @property
    def left_behind(self) -> Cargo:
        """The rods not loaded, per length."""
        on_truck = Cargo(tuple(sum(1 for p in self.placements if p.length == n) for n in LENGTHS))
        return self.cargo - on_truck

    def render(self) -> str:
        """The truck level by level, one letter per rod, plus the score line."""
        layers = render.layers(
            [[ok for ok in row] for row in self.truck.mask],
            self.truck.height,
            [(p.length, p.cubes()) for p in sorted(self.placements, key=_reading_order)],
        )
        name = f"{self.truck.name} " if self.truck.name else ""
        head = (
            f"truck {name}{self.truck} height {self.truck.height} "
            f"(capacity {self.truck.capacity}), cargo {self.cargo} (volume {self.cargo.volume})\n"
            f"loaded {self.loaded}, empty {self.empty}, left over {self.left_over} "
            f"-> penalty {self.penalty} ({self._status_text()})"
        )
        behind = self.left_behind
        tail = f"\nleft behind (count×length): {_describe(behind)}" if behind.volume else ""
        return f"{head}{tail}\n{layers}"

    def _status_text(self) -> str:
        if self.status is Status.OPTIMAL:
            return "optimal"
        if self.status is Status.BY_HAND:
            return "by hand, not searched"
        if self.bound is None:
            return "feasible, not proven optimal"
        return (
            f"feasible, not proven optimal: any loading loads at most {self.bound}, "
            f"penalty at least {self.penalty_bound}"
        )

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        # A summary: the placements are in str() and to_dict(), the picture in _repr_svg_.
        name = f" {self.truck.name}" if self.truck.name else ""
        rods = len(self.placements)
        return (
            f"<LoadPlan truck{name} {str(self.truck)!r} height {self.truck.height}, "
            f"cargo {self.cargo}: {rods} rod{'s' * (rods != 1)} loaded, "
            f"penalty {self.penalty} ({self.status})>"
        )

    def _repr_svg_(self) -> str:
        """The plan as a picture, for Jupyter (:func:`packing.svg.plan_svg`)."""
        from packing.svg import plan_svg  # the pictures sit above the values: imported on use

        return plan_svg(self)

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready description."""
        return {
            "truck": {
                "name": self.truck.name,
                "mask": str(self.truck),
                "height": self.truck.height,
                "capacity": self.truck.capacity,
            },
            "cargo": list(self.cargo.counts),
            "placements": [str(p) for p in self.placements],
            "loaded": self.loaded,
            "empty": self.empty,
            "left_over": self.left_over,
            "penalty": self.penalty,
            "left_behind": list(self.left_behind.counts),
            "status": str(self.status),
            "bound": self.bound,
            "wall_time": self.wall_time,
            "engine": self.engine,
        }

    @classmethod
    def from_placements(
        cls, truck: Truck, cargo: Cargo, placements: Iterable[Placement]
    ) -> LoadPlan:
        """A plan for a loading given by hand (:attr:`Status.BY_HAND`); check it with ``verify``."""
        return cls(truck, cargo, tuple(placements))


def check_height(height: int) -> int:
    """``height`` when a truck may have it (1 to :data:`LARGEST_HEIGHT`), else a
    :class:`ParseError` quoting it.

    >>> check_height(4)
    4
    """
    if not 1 <= height <= LARGEST_HEIGHT:
        raise ParseError(
            f"invalid truck height {height!r}: it must be an integer from 1 to {LARGEST_HEIGHT:,}"
        )
    return height


def _shortened(text: str, keep: int = 60) -> str:
    """``text``, cut to its first ``keep`` characters and an ellipsis when longer."""
    return text if len(text) <= keep else text[:keep] + "…"


def _longest_line(mask: tuple[tuple[bool, ...], ...]) -> int:
    best = 0
    for line in (*mask, *zip(*mask)):
        run = 0
        for ok in line:
            run = run + 1 if ok else 0
            best = max(best, run)
    return best


def _roll_problem(faces: Sequence[int]) -> str | None:
    """Why ``faces`` is not a roll of the five dice (None when it is)."""
    if len(faces) != len(LENGTHS):
        return "five dice results are needed"
    for length, face in zip(LENGTHS, faces):
        if face not in DICE[length]:
            return (
                f"the length-{length} die has no face {face!r} (faces {sorted(set(DICE[length]))})"
            )
    return None


def _reading_order(p: Placement) -> tuple[int, int, int]:
    return (p.z, p.y, p.x)


def _describe(cargo: Cargo) -> str:
    return ", ".join(f"{n}×{length}" for length, n in zip(LENGTHS, cargo.counts) if n)


def _count(value: object, counts: object) -> int:
    """One rod count as a plain int (numpy integers too); ParseError quoting the cargo else."""
    if not isinstance(value, bool):
        try:
            number = operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
        else:
            if number >= 0:
                return number
    raise ParseError(f"invalid cargo {counts!r}: counts must be non-negative integers")


def _what(value: object) -> str:
    """A wrong argument as error messages quote it: its type and its repr."""
    return f"{type(value).__name__} {value!r}"
