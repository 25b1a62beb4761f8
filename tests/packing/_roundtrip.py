"""The child side of the process round-trip test (``test_roundtrip.py``).

It lives in an importable module, not in the test, so a ``spawn`` worker can import it. The
child builds every sample value afresh in its own process (its own hash seed) and compares
the value it received with it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from packing import (
    SAMPLE_DECK,
    Cargo,
    Engine,
    LoadPlan,
    Placement,
    Status,
    Truck,
    bot,
    play_game,
    solve,
    verify,
)
from packing.game import FROM_PILE, Grab, GrabOrder, Source
from packing.stats import grab_advice, ranking
from packing.table import find_table


def sample_values() -> dict[str, object]:
    """One of every public packing value, built the same way in any process."""
    truck = Truck.parse("#####/###../#####", height=3, name="T07")
    cargo = Cargo.from_roll([3, 2, 3, 0, 1])
    table = find_table(SAMPLE_DECK)
    assert table is not None, "the sample deck's table ships with the package"
    ranked = ranking(cargo, SAMPLE_DECK, top=3, solve_best=True)
    assert ranked.best is not None
    verify(ranked.best)  # the solver's plan, checked without the solver
    values: dict[str, object] = {
        "cargo": cargo,
        "truck": truck,
        "unnamed truck": Truck.parse("##/#.", height=1),
        "variant truck": Truck.parse("######/######/######/######", height=6, name="big"),
        "placement": Placement.parse("3y@4,0,1"),
        "plan (fast path)": verify(solve(cargo, truck)),
        # No loading reaches the bound (the rods add up to 9), so CP-SAT proves this one.
        "plan (cp-sat)": verify(solve(Cargo({2: 1, 3: 3, 4: 1}), Truck.parse("###/##.", height=2))),
        "plan (by hand)": LoadPlan.from_placements(truck, cargo, [Placement.parse("5x@0,0,0")]),
        "deck (tuple)": SAMPLE_DECK,
        "deck (list)": list(SAMPLE_DECK),
        "table": table,
        "ranking": ranked,
        "grab advice": grab_advice(cargo, SAMPLE_DECK[:2], SAMPLE_DECK[2:]),
    }
    # The game layer: a finished game's first round, an observation, a grab, the bots.
    game = play_game([bot("optimal"), bot("capacity"), bot("greedy-loader")], seed=3)
    values["round record"] = game.round_records[0]
    values["observation"] = game.observation(1)
    values["grab"] = Grab(SAMPLE_DECK[4], owner=2)
    values["grab order"] = GrabOrder((2, 0, 1))
    values["setup"] = game.setup
    values["source (pile)"] = FROM_PILE
    values["source (revealed)"] = Source.revealed_by(2)
    values["bot optimal"] = bot("optimal")
    values["bot greedy-loader"] = bot("greedy-loader")
    for status in Status:
        values[f"status {status}"] = status
    for engine in Engine:
        values[f"engine {engine}"] = engine
    return values


def disagreements(received: object, local: object) -> list[str]:
    """How ``received`` fails to stand in for ``local``: equality both ways, the same hash,
    and finding each in a dict and a set keyed by the other (element-wise for a list)."""
    found: list[str] = []
    if not (received == local and local == received):
        found.append("not equal")
    if isinstance(local, list) and isinstance(received, list):
        local_items: Sequence[object] = local
        received_items: Sequence[object] = received
        for a, b in zip(received_items, local_items):
            found += disagreements(a, b)
        found += disagreements(tuple(received_items), tuple(local_items))
        return found
    if not (isinstance(local, Hashable) and isinstance(received, Hashable)):
        found.append("not hashable")
        return found
    if hash(received) != hash(local):
        found.append("hashes differ")
    if received not in {local: None} or local not in {received: None}:
        found.append("not found in a dict keyed by the other")
    if received not in {local} or local not in {received}:
        found.append("not found in a set of the other")
    return found


def check_in_child(name: str, received: object) -> tuple[object, list[str], int]:
    """Compare ``received`` (the value named ``name``, unpickled in this process by the
    executor) with one built here.

    Returns the received value (pickled again on the way back), the disagreements, and this
    process's hash of a string, so the parent can check the hash seeds really differ.
    """
    problems = disagreements(received, sample_values()[name])
    if name.startswith("deck") and find_table(received) is None:  # type: ignore[arg-type]
        problems.append("its table is not found")
    return received, problems, hash("packing")
