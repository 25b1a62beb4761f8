"""One rule for every whole number the public API takes (arena.values).

Any integer :func:`operator.index` takes — NumPy's ``int64`` and ``int32``, a 0-d integer array
— gives the same answer as the plain ``int``; ``True``, a float, a numeric string and ``None``
(where ``None`` means nothing) are refused with a ``TypeError`` that names the parameter and
quotes the value.
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import arena
import express
import packing
from arena.executors import check_workers
from arena.values import generator, seconds, seed, whole_number
from express import Train, best_train, score_game
from express.table_view import table_observation
from express.worlds import sample_worlds
from packing import SAMPLE_DECK, Cargo, Truck, best_truck, solve
from packing.design import random_truck


@dataclass(frozen=True)
class Entry:
    """One integer parameter of the public API: ``call(n)`` passes ``n`` there and returns
    something comparable; ``value`` is a good value; ``name`` is what the message must say."""

    call: Callable[[Any], object]
    value: int
    name: str
    optional: bool = False  # None is a meaningful value here
    extras: tuple[str, ...] = ()


def _express_view(players: int = 2) -> express.Observation:
    game = express.Game(players, rounds=2)
    rng = np.random.default_rng(3)
    while game.is_chance_node():
        game.apply_action(arena.sample_outcome(game.chance_outcomes(), rng))
    return game.observation(game.current_player())


def _express_game_summary(game: express.Game) -> tuple[object, ...]:
    return (type(game.players), game.players, type(game.rounds), game.rounds, game.start_player)


_TRAINS = [Train.parse("B2|B2,B2|B3"), Train.parse("R4|B4,B4|B4"), Train.parse("G3|G3")]


def _agents(game: str, players: object) -> list[str]:
    """The agents of ``game``'s PettingZoo environment for ``players`` (the rl extra)."""
    environments = importlib.import_module(f"{game}.pettingzoo")
    return list(environments.raw_env(players=players).possible_agents)


def _tournament_summary(result: arena.TournamentResult) -> object:
    return result.stats


ENTRIES: dict[str, Entry] = {
    # packing
    "Truck.parse(height)": Entry(lambda n: Truck.parse("#####/###../#####", height=n), 3, "height"),
    "Truck(height)": Entry(lambda n: Truck(((True,),), height=n), 2, "height"),
    "Cargo.from_roll(face)": Entry(lambda n: Cargo.from_roll([n, 2, 3, 0, 1]), 3, "from_roll"),
    "solve(seed)": Entry(
        lambda n: solve(Cargo({4: 3}), Truck.parse("#####/#####/#####", height=1), seed=n),
        5,
        "seed",
    ),
    "solve(workers)": Entry(
        lambda n: solve(Cargo({4: 3}), Truck.parse("#####/#####/#####", height=1), workers=n),
        1,
        "workers",
    ),
    "best_truck(top)": Entry(
        lambda n: best_truck(Cargo.from_roll([3, 2, 3, 0, 1]), SAMPLE_DECK, top=n),
        1,
        "top",
        optional=True,
    ),
    "packing.Game(players)": Entry(lambda n: packing.Game(n).num_players, 3, "players"),
    "packing.Game(start_points)": Entry(
        lambda n: packing.Game(2, start_points=n).returns(), 7, "start_points"
    ),
    "packing.play_game(seed)": Entry(
        lambda n: packing.play_game(
            [packing.bot("random"), packing.bot("random")], seed=n
        ).returns(),
        4,
        "seed",
    ),
    "packing.tournament(games)": Entry(
        lambda n: _tournament_summary(packing.tournament(["random", "capacity"], games=n, seed=1)),
        2,
        "games",
    ),
    "packing.tournament(seed)": Entry(
        lambda n: _tournament_summary(packing.tournament(["random", "capacity"], games=1, seed=n)),
        2,
        "seed",
    ),
    "random_truck(height)": Entry(lambda n: random_truck(random.Random(1), n), 3, "height"),
    "random_truck(cells)": Entry(
        lambda n: random_truck(random.Random(1), 3, cells=n), 5, "cells", optional=True
    ),
    # express
    "best_train(length)": Entry(
        lambda n: best_train("R4|B4,B4|G4,G4|Y4,Y4|R4,R3|G3,B2|B2", n), 3, "length"
    ),
    "best_train(node_limit)": Entry(
        lambda n: best_train("R4|B4,B4|G4,G4|Y4,Y4|R4,R3|G3,B2|B2", 3, node_limit=n),
        50,
        "node_limit",
        optional=True,
    ),
    "express.Game(players)": Entry(lambda n: _express_game_summary(express.Game(n)), 3, "players"),
    "express.Game(rounds)": Entry(
        lambda n: _express_game_summary(express.Game(2, rounds=n)), 2, "rounds", optional=True
    ),
    "express.Game(start_player)": Entry(
        lambda n: _express_game_summary(express.Game(2, start_player=n)), 1, "start_player"
    ),
    "table_observation(players)": Entry(
        lambda n: table_observation(
            players=n, seat=0, round=1, hand="B2|B2,R4|B4,G3|B3", trains=["", ""]
        ),
        2,
        "players",
    ),
    "table_observation(seat)": Entry(
        lambda n: table_observation(
            players=2, seat=n, round=1, hand="B2|B2,R4|B4,G3|B3", trains=["", ""]
        ),
        0,
        "seat",
    ),
    "table_observation(round)": Entry(
        lambda n: table_observation(
            players=2, seat=0, round=n, hand="B2|B2,R4|B4,G3|B3", trains=["", ""]
        ),
        1,
        "round",
    ),
    "table_observation(rounds)": Entry(
        lambda n: table_observation(
            players=2, seat=0, round=1, hand="B2|B2,R4|B4,G3|B3", trains=["", ""], rounds=n
        ),
        3,
        "rounds",
        optional=True,
    ),
    "score_game(start_player)": Entry(
        lambda n: score_game(_TRAINS, start_player=n), 1, "start_player"
    ),
    'bot("pimc", worlds)': Entry(lambda n: express.bot("pimc", worlds=n), 4, "worlds"),
    'bot("pimc", states)': Entry(
        lambda n: express.bot("pimc", states=n), 400, "states", optional=True
    ),
    'bot("search", samples)': Entry(lambda n: express.bot("search", samples=n), 4, "samples"),
    "advise(worlds)": Entry(
        lambda n: express.advise(_express_view(), worlds=n, rng=5).plays, 2, "worlds"
    ),
    "advise(rng)": Entry(
        lambda n: express.advise(_express_view(), worlds=2, rng=n).plays, 5, "rng", optional=True
    ),
    "sample_worlds(count)": Entry(
        lambda n: [w.order for w in sample_worlds(_express_view(), n, np.random.default_rng(0))],
        2,
        "count",
    ),
    "express.tournament(games)": Entry(
        lambda n: _tournament_summary(express.tournament(["random", "greedy"], games=n, seed=1)),
        2,
        "games",
    ),
    # arena
    "arena.play(seed)": Entry(
        lambda n: arena.play(
            express.Game(2, rounds=1), [express.bot("random"), express.bot("random")], n
        ).returns(),
        7,
        "seed",
    ),
    "check_workers": Entry(check_workers, 2, "workers"),
    # the environments
    "packing raw_env(players)": Entry(
        lambda n: _agents("packing", n),
        3,
        "players",
        extras=("rl",),
    ),
    "express raw_env(players)": Entry(
        lambda n: _agents("express", n),
        3,
        "players",
        extras=("rl",),
    ),
}


def _same_kind(value: int) -> list[object]:
    return [np.int64(value), np.int32(value), np.array(value)]


def _entries() -> list[Any]:
    return [
        pytest.param(where, id=where, marks=[pytest.mark.extra(*e.extras)] if e.extras else [])
        for where, e in ENTRIES.items()
    ]


@pytest.mark.parametrize("where", _entries())
@pytest.mark.parametrize("kind", range(3), ids=["int64", "int32", "0-d array"])
def test_numpy_integers_give_the_plain_answer(where: str, kind: int) -> None:
    entry = ENTRIES[where]
    assert entry.call(_same_kind(entry.value)[kind]) == entry.call(entry.value)


@pytest.mark.parametrize("where", _entries())
@pytest.mark.parametrize("bad", ["bool", "float", "str", "None"])
def test_other_values_are_refused_naming_the_parameter(where: str, bad: str) -> None:
    entry = ENTRIES[where]
    if bad == "None" and entry.optional:
        entry.call(None)  # a meaningful value of this parameter: taken
        return
    value = {"bool": True, "float": float(entry.value), "str": str(entry.value), "None": None}[bad]
    with pytest.raises(TypeError) as raised:
        entry.call(value)
    message = str(raised.value)
    assert entry.name in message
    assert repr(value) in message
    assert "\n" not in message


# --- the helper itself -------------------------------------------------------------------------


def test_whole_number_returns_a_plain_int() -> None:
    for value in (3, np.int64(3), np.uint8(3), np.array(3)):
        number = whole_number(value, "n")
        assert type(number) is int and number == 3


@pytest.mark.parametrize(
    "value", [True, np.True_, 2.0, np.float64(2.0), "2", None, np.array([2]), 2 + 0j]
)
def test_whole_number_refuses_other_kinds(value: object) -> None:
    with pytest.raises(TypeError, match="^n must be a whole number, not "):
        whole_number(value, "n")


@pytest.mark.parametrize(
    ("low", "high", "value", "words"),
    [(1, None, 0, "at least 1"), (None, 5, 6, "at most 5"), (2, 5, np.int64(9), "from 2 to 5")],
)
def test_whole_number_bounds_quote_the_value(
    low: int | None, high: int | None, value: int, words: str
) -> None:
    with pytest.raises(arena.ArenaError, match=f"^invalid n {int(value)}: {words}$"):
        whole_number(value, "n", low=low, high=high)
    with pytest.raises(KeyError):  # the caller's own error class
        whole_number(value, "n", low=low, high=high, error=KeyError)


def test_seconds_takes_any_real_number() -> None:
    for value in (2, 2.0, np.float64(2.0), np.float32(2.0), np.int64(2)):
        assert seconds(value, "time_limit") == 2.0
    for bad in (True, "2", None, np.array([2.0])):
        with pytest.raises(TypeError, match="^time_limit must be a number of seconds, not "):
            seconds(bad, "time_limit")
    for out in (math.nan, math.inf, 0, -1.0, np.float64("nan")):
        with pytest.raises(arena.ArenaError, match="^invalid time_limit "):
            seconds(out, "time_limit")


def test_seed_and_generator_name_the_argument() -> None:
    assert seed(np.int64(4)) == 4
    with pytest.raises(
        arena.ArenaError, match="^invalid seed -1: a seed is a whole number, 0 or more$"
    ):
        seed(-1)
    rng = np.random.default_rng(1)
    assert generator(rng) is rng
    assert generator(np.int64(3)).integers(1000) == np.random.default_rng(3).integers(1000)
    for bad in (2.5, "3", True, [1, 2]):
        with pytest.raises(TypeError, match="^rng must be a numpy.random.Generator, a seed"):
            generator(bad)


# --- time limits: a float parameter takes NumPy's numbers too, never a bool nor NaN ------------


@pytest.mark.parametrize(
    "call",
    [
        lambda t: solve(Cargo({4: 3}), Truck.parse("#####/#####/#####", height=1), time_limit=t),
        lambda t: best_train("R4|B4,B4|G4,G4|Y4,Y4|R4", 2, time_limit=t),
        lambda t: express.bot("pimc", time_limit=t),
    ],
    ids=["solve", "best_train", "pimc"],
)
def test_time_limits_take_numpy_numbers_and_refuse_bool_and_nan(
    call: Callable[[object], object],
) -> None:
    for value in (np.float64(30.0), np.int64(30), np.float32(30.0)):
        call(value)
    with pytest.raises(TypeError, match=r"time_limit.*True"):
        call(True)
    with pytest.raises(ValueError, match=r"time.limit.*nan"):
        call(math.nan)


# --- seeds and rngs: the argument is named, not NumPy's own words -------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda s: arena.play(
            express.Game(2, rounds=1), [express.bot("random"), express.bot("random")], s
        ),
        lambda s: arena.deal_seed(s, 0),
        lambda s: express.advise(_express_view(), worlds=2, rng=s),
        lambda s: packing.play_game([packing.bot("random"), packing.bot("random")], seed=s),
    ],
    ids=["play", "deal_seed", "advise", "play_game"],
)
@pytest.mark.parametrize("bad", [2.5, "x", -1])
def test_a_bad_seed_names_the_argument(call: Callable[[object], object], bad: object) -> None:
    with pytest.raises((TypeError, ValueError)) as raised:
        call(bad)
    message = str(raised.value)
    assert "seed" in message or "rng" in message
    assert repr(bad) in message
    assert "SeedSequence" not in message and "entropy" not in message


# --- Cargo.from_roll --------------------------------------------------------------------------


def test_from_roll_reads_text() -> None:
    assert Cargo.from_roll("3,2,3,0,1") == Cargo.parse("3,2,3,0,1", roll=True)
    with pytest.raises(packing.ParseError, match="'3,2,3,0,9'"):
        Cargo.from_roll("3,2,3,0,9")


def test_from_roll_of_none_names_the_argument() -> None:
    with pytest.raises(TypeError, match=r"Cargo.from_roll: faces .*None"):
        Cargo.from_roll(None)  # type: ignore[arg-type]
