"""Checks of the public functions' arguments: a wrong type raises ``TypeError`` saying what
was expected, a value out of range raises :class:`~packing.errors.PackingError` quoting it.

Kept apart from the values (``model``) so the solver and the queries share one wording.
"""

from __future__ import annotations

from collections.abc import Iterable

from arena.text import plural
from arena.values import seconds, whole_number
from packing.errors import PackingError
from packing.model import Cargo, Truck
from packing.rules import MAX_PLAYERS, MIN_PLAYERS, draws_per_player

_CARGO_EXAMPLE = "Cargo.from_roll([3, 2, 3, 0, 1]) or Cargo.parse('3,2,3,0,1')"
_TRUCK_EXAMPLE = "Truck.parse('#####/###../#####', height=3)"


def _what(value: object) -> str:
    return f"{type(value).__name__} {value!r}"


def cargo_arg(value: object, where: str) -> Cargo:
    """``value`` when it is a :class:`Cargo`; TypeError naming ``where`` else."""
    if not isinstance(value, Cargo):
        raise TypeError(
            f"{where}: the cargo must be a Cargo, e.g. {_CARGO_EXAMPLE}; not {_what(value)}"
        )
    return value


def truck_arg(value: object, where: str) -> Truck:
    """``value`` when it is a :class:`Truck`; TypeError naming ``where`` else."""
    if not isinstance(value, Truck):
        raise TypeError(
            f"{where}: the truck must be a Truck, e.g. {_TRUCK_EXAMPLE}; not {_what(value)}"
        )
    return value


def trucks_arg(value: object, where: str) -> tuple[Truck, ...]:
    """``value`` as a tuple of trucks when it is a sequence (or other iterable) of them."""
    if isinstance(value, Truck):
        raise TypeError(
            f"{where}: expected a sequence of trucks (a deck), not a single Truck: pass [truck]"
        )
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(
            f"{where}: expected a sequence of trucks, e.g. SAMPLE_DECK or [{_TRUCK_EXAMPLE}]; "
            f"not {_what(value)}"
        )
    trucks = tuple(value)
    for truck in trucks:
        if not isinstance(truck, Truck):
            raise TypeError(
                f"{where}: every truck must be a Truck, e.g. {_TRUCK_EXAMPLE}; not {_what(truck)}"
            )
    return trucks


def time_limit_arg(value: object, where: str) -> float | None:
    """``None``, or a positive finite number of seconds as a float (:func:`arena.values.seconds`)."""
    if value is None:
        return None
    return seconds(value, "time_limit", error=PackingError, where=where)


def positive_int_arg(value: object, name: str, where: str) -> int:
    """``value`` as an int when it is a whole number ≥ 1 (:func:`arena.values.whole_number`)."""
    return whole_number(value, name, low=1, error=PackingError, where=where)


def players_arg(players: int) -> int:
    """``players`` (a whole number already) when the rules take that many, else the error
    saying the range (the game's and the batched engine's one check)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise PackingError(
            f"Pack & Stack takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}"
        )
    return players


def deck_size_check(deck: tuple[Truck, ...], players: int) -> None:
    """The error when ``deck`` is too small for a round of ``players`` (each draws and takes a
    truck: the most a round can use)."""
    need = players * (draws_per_player(players) + 1)
    if len(deck) < need:
        raise PackingError(
            f"a deck of {plural(len(deck), 'truck')} is too small for {players} players "
            f"(a round may need {need})"
        )
