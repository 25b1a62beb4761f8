"""Public express values for the process round-trip test, and the function a spawned worker
runs on them (a module-level function, so the pool can pickle it by name)."""

from __future__ import annotations

from functools import cache

from express import (
    CABOOSES,
    DECK,
    DECK_ENTRIES,
    ENGINE,
    WILD,
    CabooseDraw,
    CabooseKind,
    Car,
    Card,
    Color,
    Game,
    Play,
    PlayEstimate,
    Provenance,
    Train,
    advise,
    best_train,
    bot,
    caboose_named,
    deck_for,
    play_values,
    score_game,
    solve_deal,
    without,
)


def public_values() -> list[object]:
    """One of every public value type, built the same way in every process."""
    train = Train.parse("R3|G3,G3|R3,~B2|B2,B2|B3")
    start = Train.parse("R3|G3,G3|R3")
    searched = best_train(without(DECK, start), 5, caboose="Two-Timer", start=start)
    game = score_game(
        [train, Train.parse("R4|B4,B4|G4"), Train.parse("")],
        start_player=1,
        caboose=caboose_named("Buried Alive"),
    )
    return [
        *Color,
        Car.parse("R3"),
        WILD,
        ENGINE,
        Card.parse("R3|G3"),
        Play.parse("R3|G3"),
        Play.parse("~R3|G3"),
        train,
        train.runs[0],
        Train(),
        *CABOOSES,
        CabooseKind.MOST,
        searched,
        best_train(DECK, 4, caboose="Short Line"),  # a relative caboose
        best_train(DECK, 6),  # no caboose
        game,
        game.players[0],
        DECK_ENTRIES[0],
        Provenance.INFERRED,
        DECK,
        # The game layer: an observation, a chance outcome, a deal's exact solution, the bots.
        Game(3, order=DECK, rounds=2, caboose="Lightweight").observation(0),
        CabooseDraw("Inefficient"),
        solve_deal(Game(2, order=deck_for(2), rounds=2, caboose="End of Line")),
        bot("perfect", order=deck_for(2)),
        bot("search", samples=4),
        bot("greedy"),
        bot("pimc", worlds=3, rule="maxn"),
        PlayEstimate(Play.parse("~R3|G3"), 1.5, -0.25, 3.25, 4, exact=False),
        advise(Game(2, order=deck_for(2), rounds=2).observation(0), worlds=2, rng=1),
        # The exact values of every play under max^n (a dict, so compared as its items).
        tuple(play_values(Game(3, order=DECK, rounds=2, caboose="Two-Timer"), rule="maxn").items()),
    ]


@cache
def _local_values() -> tuple[object, ...]:
    return tuple(public_values())


def check_in_child(index: int, value: object) -> tuple[object, bool, bool, bool, int]:
    """In the worker: compare the received ``value`` with the same value built here, look each
    up in a set and a dict keyed by the other, and send the value back (re-pickled after being
    hashed here). Also returns this process's hash of a string, to show the seeds differ."""
    local = _local_values()[index]
    hash(value)  # a value caching its hash would now carry this process's string hashes
    return (
        value,
        value == local,
        value in {local},
        {value: index}.get(local) == index,
        hash("yardmaster"),
    )
