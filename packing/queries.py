"""Questions players ask: which truck to grab for a roll, and what a blind draw costs.

Where the deck's :class:`~packing.table.OptimalTable` is available (shipped, built or
registered) and the cargo is a roll of the dice, penalties come from the table in
microseconds; otherwise every truck is solved. The answers are the same either way.

The same lookups serve the game and its bots at every decision: :func:`penalties_for` (a
deck's optimal penalties, by table row) and :func:`optimal_plan` (a verified optimal plan,
memoized).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

from arena.memo import IdentityMemo
from arena.progress import progress as show_progress
from packing.checks import cargo_arg, positive_int_arg, time_limit_arg, trucks_arg
from packing.errors import PackingError
from packing.model import Cargo, LoadPlan, Truck
from packing.odds import roll_outcomes
from packing.rules import penalty_floor
from packing.solver import solve
from packing.table import OptimalTable, TableError, find_table, table_holding
from packing.verify import verify


def _table(trucks: Sequence[Truck], use_table: bool) -> OptimalTable | None:
    if not use_table or not trucks:
        return None
    return find_table(trucks) or table_holding(trucks)


def best_truck(
    cargo: Cargo,
    trucks: Sequence[Truck],
    *,
    top: int | None = None,
    time_limit: float | None = None,
    use_table: bool = True,
    progress: bool = False,
) -> list[LoadPlan]:
    """Optimal plans for ``cargo`` on ``trucks``, least penalty first (ties keep input order).

    With ``top=k`` only the best ``k`` plans are returned and only they are solved when the
    deck's table is available; without a table, a truck whose penalty floor (see
    :func:`packing.rules.penalty_floor`) shows it cannot make the top ``k`` is never solved.
    ``progress`` shows the trucks solved on stderr once solving has run a while
    (:mod:`arena.progress`).

    >>> from packing import SAMPLE_DECK
    >>> plans = best_truck(Cargo.from_roll([3, 2, 3, 0, 1]), SAMPLE_DECK, top=1)
    >>> plans[0].truck.name, plans[0].penalty
    ('S15', 1)
    """
    cargo = cargo_arg(cargo, "best_truck")
    trucks = trucks_arg(trucks, "best_truck")
    if not trucks:  # "the best truck" of none is not an answer
        raise PackingError("best_truck needs at least one truck, got an empty deck")
    if top is not None:
        top = positive_int_arg(top, "top", "best_truck")
    time_limit = time_limit_arg(time_limit, "best_truck")
    wanted = len(trucks) if top is None else min(top, len(trucks))
    table = _table(trucks, use_table)
    ranking = table.rank(cargo) if table is not None else None
    if ranking is not None:
        with show_progress(wanted, desc="solving trucks", unit="truck", enabled=progress) as bar:
            plans = []
            for truck, _ in ranking[:wanted]:
                plans.append(solve(cargo, truck, time_limit=time_limit))
                bar.update()
        for plan, (_, expected) in zip(plans, ranking):
            if plan.optimal and plan.penalty != expected:
                raise TableError(
                    f"table entry for {plan.truck.name!r} disagrees with a fresh solve"
                )
        return plans

    floors = [penalty_floor(capacity=t.capacity, volume=cargo.volume) for t in trucks]
    order = sorted(range(len(trucks)), key=lambda i: (floors[i], i))
    solved: list[tuple[int, int, LoadPlan]] = []  # (penalty, input index, plan)
    # With ``top`` the floors may stop the solving early: how many trucks is not known ahead.
    total = len(trucks) if top is None else None
    with show_progress(total, desc="solving trucks", unit="truck", enabled=progress) as bar:
        for i in order:
            if len(solved) >= wanted and (floors[i], i) > solved[wanted - 1][:2]:
                break  # every truck left has a floor above the k-th best: none can enter
            plan = solve(cargo, trucks[i], time_limit=time_limit)
            solved.append((plan.penalty, i, plan))
            solved.sort(key=lambda entry: entry[:2])
            bar.update()
    return [plan for _, _, plan in solved[:wanted]]


def rank_trucks(
    cargo: Cargo, trucks: Sequence[Truck], *, use_table: bool = True, progress: bool = False
) -> list[tuple[Truck, int]]:
    """Every truck with its optimal penalty for ``cargo``, least first (ties keep input order);
    ``progress`` shows the trucks solved, without a table, on stderr (:mod:`arena.progress`).

    >>> from packing import SAMPLE_DECK
    >>> [(t.name, p) for t, p in rank_trucks(Cargo.from_roll([3, 2, 3, 0, 1]), SAMPLE_DECK)[:3]]
    [('S15', 1), ('S14', 2), ('S16', 3)]
    """
    cargo = cargo_arg(cargo, "rank_trucks")
    trucks = trucks_arg(trucks, "rank_trucks")
    if not trucks:  # the ranking of no trucks is empty (best_truck refuses to pick from none)
        return []
    table = _table(trucks, use_table)
    ranking = table.rank(cargo) if table is not None else None
    if ranking is not None:
        return ranking
    plans = best_truck(cargo, trucks, use_table=False, progress=progress)
    return [(plan.truck, plan.penalty) for plan in plans]


def expected_penalty(
    cargo: Cargo, trucks: Sequence[Truck], *, use_table: bool = True, progress: bool = False
) -> Fraction:
    """The exact expected optimal penalty of taking a truck uniformly at random from ``trucks``
    (a blind draw from a pile), to compare with grabbing a revealed truck; ``progress`` as for
    :func:`rank_trucks`.

    >>> from packing import SAMPLE_DECK
    >>> expected_penalty(Cargo.from_roll([3, 2, 3, 0, 1]), SAMPLE_DECK)
    Fraction(66, 5)
    """
    cargo = cargo_arg(cargo, "expected_penalty")
    trucks = trucks_arg(trucks, "expected_penalty")
    if not trucks:
        raise PackingError("expected_penalty needs at least one truck, got an empty deck")
    table = _table(trucks, use_table)
    blind = table.blind_draw(cargo) if table is not None else None
    if blind is not None:
        return blind
    ranking = rank_trucks(cargo, trucks, use_table=False, progress=progress)
    return Fraction(sum(penalty for _, penalty in ranking), len(trucks))


# --- the game's lookups: optimal plans and a deck's penalties -------------------------------


@lru_cache(maxsize=1 << 16)
def optimal_plan(cargo: Cargo, truck: Truck) -> LoadPlan:
    """The optimal, verified plan of ``cargo`` on ``truck`` (memoized in this process).

    >>> from packing import SAMPLE_DECK
    >>> optimal_plan(Cargo.from_roll([3, 2, 3, 0, 1]), SAMPLE_DECK[14]).penalty
    1
    """
    plan = verify(solve(cargo, truck))
    if not plan.optimal:
        raise PackingError(
            f"no proven optimal plan for cargo {str(cargo)!r} on truck {truck.name!r}"
        )
    return plan


class DeckPenalties:
    """The optimal penalty of a cargo on each truck of a deck, as the game and the bots ask it
    at every decision: from the deck's table (as lists, for speed) or by solving (memoized).

    >>> from packing import SAMPLE_DECK
    >>> lookup = penalties_for(SAMPLE_DECK)
    >>> cargo = Cargo.from_roll([3, 2, 3, 0, 1])
    >>> lookup.of(cargo, lookup.index[SAMPLE_DECK[14]]), lookup.row(cargo) is not None
    (1, True)
    """

    __slots__ = ("deck", "index", "rows", "cargo_rows", "rolled_rows", "rolls")

    def __init__(self, deck: tuple[Truck, ...], use_table: bool) -> None:
        self.deck = deck
        #: The position of each truck in the deck (its table column).
        self.index = {truck: j for j, truck in enumerate(deck)}
        table = find_table(deck) if use_table else None
        self.rows: list[list[int]] | None = None
        self.cargo_rows: dict[Cargo, int] = {}
        # The rows of the cargos of the cached roll outcomes, by identity: every cargo a game
        # rolls is one of those objects, and an id costs less than hashing the cargo (the
        # game and the bots look a row up at every decision and every score). ``rolls`` keeps
        # the outcome tuple alive, so the ids stay theirs; this one fixed set of objects is why
        # it is a plain dict and not an IdentityMemo (nothing to bound, nothing to evict).
        self.rolls = roll_outcomes()
        #: ``id(cargo)`` -> its row, for the cargos of :func:`packing.odds.roll_outcomes`.
        self.rolled_rows: dict[int, list[int]] = {}
        if table is not None:
            self.rows = table.penalties.tolist()
            self.cargo_rows = {cargo: i for i, cargo in enumerate(table.cargos)}
            self.rolled_rows = {
                id(cargo): self.rows[self.cargo_rows[cargo]]
                for cargo, _ in self.rolls
                if cargo in self.cargo_rows
            }

    def row(self, cargo: Cargo) -> list[int] | None:
        """The optimal penalty of ``cargo`` on each truck of the deck, when the table has it."""
        row = self.rolled_rows.get(id(cargo))
        if row is not None:
            return row
        if self.rows is None:
            return None
        i = self.cargo_rows.get(cargo)
        return None if i is None else self.rows[i]

    def of(self, cargo: Cargo, j: int) -> int:
        """The optimal penalty of ``cargo`` on the deck's truck ``j`` (solved without a table)."""
        row = self.row(cargo)
        return row[j] if row is not None else optimal_plan(cargo, self.deck[j]).penalty


_penalties: dict[tuple[tuple[Truck, ...], bool], DeckPenalties] = {}
# The same deck tuple is asked at every decision; hashing 30 trucks each time would dominate.
_with_table = IdentityMemo[tuple[Truck, ...], DeckPenalties]()
_without_table = IdentityMemo[tuple[Truck, ...], DeckPenalties]()


def penalties_for(deck: tuple[Truck, ...], *, use_table: bool = True) -> DeckPenalties:
    """The (cached) optimal-penalty lookup of ``deck``, shared by the game and the bots; with
    ``use_table`` False every penalty is solved, even where the deck has a table."""
    memo = _with_table if use_table else _without_table
    found = memo.get(deck)
    if found is not None:
        return found
    key = (deck, bool(use_table))
    found = _penalties.get(key)
    if found is None:
        found = _penalties[key] = DeckPenalties(deck, bool(use_table))
    return memo.put(deck, found)
