"""The bots: each grab checked against an independent computation from the table, the greedy
loader against the validator and the optimal penalties."""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import arena
from packing import (
    BOT_NAMES,
    OPENSPIEL_BOTS,
    SAMPLE_DECK,
    Cargo,
    Game,
    Grab,
    Observation,
    PackingError,
    Truck,
    bot,
    greedy_load,
    roll_counts,
    verify,
)
from packing.stats import closest_capacity
from packing.table import find_table

TABLE = find_table(SAMPLE_DECK)


@dataclass
class Recorder:
    """Plays like ``inner`` and keeps every decision it was asked."""

    inner: Any
    seen: list[tuple[Observation, list[Grab], Grab]] = field(default_factory=list)

    @property
    def loader(self) -> Any:
        return getattr(self.inner, "loader", None)

    def act(self, observation: Observation, legal: Sequence[Any], rng: np.random.Generator) -> Grab:
        choice = self.inner.act(observation, legal, rng)
        assert isinstance(choice, Grab) and choice in legal
        self.seen.append((observation, list(legal), choice))
        return choice


def expected(observation: Observation, action: Grab) -> Fraction:
    """The exact expected optimal penalty of a grab, straight from the table."""
    assert TABLE is not None and observation.cargo is not None
    cargo = observation.cargo
    if action.truck is not None:
        return Fraction(TABLE.penalty(cargo, SAMPLE_DECK.index(action.truck)))
    pool = observation.pile or observation.discards
    return Fraction(sum(TABLE.penalty(cargo, SAMPLE_DECK.index(t)) for t in pool), len(pool))


def decisions(
    name: str, games: int, players: int = 4, **options: Any
) -> list[tuple[Observation, list[Grab], Grab]]:
    out = []
    for seed in range(games):
        recorders = [Recorder(bot(name, **options)) for _ in range(players)]
        arena.play(Game(players), recorders, seed=seed)
        out += [d for r in recorders for d in r.seen]
    return out


def test_optimal_takes_the_lowest_exact_expected_penalty() -> None:
    seen = decisions("optimal", games=30)
    took_pile = took_revealed = 0
    for observation, legal, choice in seen:
        values = [expected(observation, a) for a in legal]
        assert expected(observation, choice) == min(values)
        took_pile += choice.is_pile and len(legal) > 1
        took_revealed += not choice.is_pile
    assert took_pile and took_revealed  # both kinds of choice occur


def test_optimal_without_the_table_chooses_the_same() -> None:
    with_table = decisions("optimal", games=3, players=3)
    without = decisions("optimal", games=3, players=3, use_table=False)
    assert [c for _, _, c in with_table] == [c for _, _, c in without]


def test_capacity_and_greedy_loader_take_the_closest_capacity() -> None:
    for name in ("capacity", "greedy-loader"):
        for observation, legal, choice in decisions(name, games=15):
            revealed = [a.truck for a in legal if a.truck is not None]
            assert observation.cargo is not None
            if revealed:
                assert choice.truck == closest_capacity(observation.cargo, revealed)
            else:
                assert choice.is_pile


def bonus_aware_values(observation: Observation, legal: list[Grab]) -> list[Fraction] | None:
    """Each grab's expected points this round, the +10 included, as bonus-aware's docstring
    models them, computed exactly from the table: the players who have their truck have known
    penalties, a pile draw is uniform over the pile, and every player is independent. Only
    when at most the last grabber waits (it must take the pile), so no prediction of another
    player's choice is needed; None otherwise."""
    if len(observation.waiting) > 1:
        return None
    assert TABLE is not None and observation.cargo is not None
    pool = [SAMPLE_DECK.index(t) for t in observation.draw_pool]

    def pile(cargo: Cargo) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}
        for j in pool:
            x = TABLE.penalty(cargo, j)
            out[x] = out.get(x, Fraction(0)) + Fraction(1, len(pool))
        return out

    others: list[dict[int, Fraction]] = []
    for q, (cargo, truck) in enumerate(zip(observation.cargos, observation.taken)):
        if q != observation.player and cargo is not None and truck is not None:
            others.append({TABLE.penalty(cargo, SAMPLE_DECK.index(truck)): Fraction(1)})
    for q in observation.waiting:
        cargo = observation.cargos[q]
        assert cargo is not None
        others.append(pile(cargo))
    values = []
    for action in legal:
        if action.truck is None:
            mine = pile(observation.cargo)
        else:
            mine = {TABLE.penalty(observation.cargo, SAMPLE_DECK.index(action.truck)): Fraction(1)}
        p_bonus = Fraction(0)
        for m, p in mine.items():
            for dist in others:
                p *= sum((q for x, q in dist.items() if x >= m), Fraction(0))
            p_bonus += p
        values.append(10 * p_bonus - sum(m * p for m, p in mine.items()))
    return values


def test_bonus_aware_plays_legally_and_differs_from_optimal() -> None:
    seen = decisions("bonus-aware", games=40, players=3)
    checked = differs = 0
    for observation, legal, choice in seen:
        assert choice in legal  # legal: one of the options offered
        best = bot("optimal").act(observation, legal, np.random.default_rng(0))
        # Never a lower expected penalty than optimal's (which has the lowest), so where it
        # differs it pays in penalty for the chance of the +10.
        assert expected(observation, choice) >= expected(observation, best)
        values = bonus_aware_values(observation, legal)
        if values is None or len(legal) == 1:
            continue
        checked += 1
        # It takes the first grab of the highest expected points, bonus included.
        assert choice == legal[values.index(max(values))]
        if choice != best:
            differs += 1
            # Strictly more expected points than optimal's grab: the +10's chance decided.
            assert values[legal.index(choice)] > values[legal.index(best)]
    assert checked >= 40 and differs > 0  # both cases are met, and checked exactly
    # It is optimal's choice unless a round-win bonus is in reach: it agrees on most decisions.
    assert differs < len(seen) / 2


def test_random_grabs_every_kind_of_option() -> None:
    choices = [c for _, _, c in decisions("random", games=10)]
    assert any(c.is_pile for c in choices) and any(not c.is_pile for c in choices)


def test_greedy_load_is_valid_and_never_beats_the_optimum() -> None:
    assert TABLE is not None
    worse = 0
    cargos = list(roll_counts())
    for j, truck in enumerate(SAMPLE_DECK):
        for cargo in cargos[j::15]:  # 60 cargos per truck, every cargo on two trucks
            plan = verify(greedy_load(cargo, truck))
            assert plan.cargo == cargo and plan.truck == truck and not plan.optimal
            optimum = TABLE.penalty(cargo, j)
            assert plan.penalty >= optimum
            worse += plan.penalty > optimum
    assert worse > 0  # the simple rule does lose points, which is what it measures


def test_greedy_load_golden_cases() -> None:
    full = Truck.parse("#####/#####/#####", height=1)
    assert greedy_load(Cargo({4: 3}), full).loaded == 12  # one rod per row
    assert greedy_load(Cargo({3: 5}), full).penalty == 0
    tall = Truck.parse("####/####/####", height=4)
    plan = greedy_load(Cargo({5: 1, 1: 2}), tall)  # the 5 fits nowhere; the cubes stand
    assert plan.loaded == 2 and plan.left_behind == Cargo({5: 1})
    single = Truck.parse("#", height=4)
    assert greedy_load(Cargo({4: 1}), single).penalty == 0  # upright


def test_bot_names_options_and_errors() -> None:
    assert BOT_NAMES == ("optimal", "bonus-aware", "capacity", "greedy-loader", "random", "mcts")
    assert OPENSPIEL_BOTS == ("mcts",)
    for name in BOT_NAMES[:-1]:
        made = bot(name)
        assert getattr(made, "name") == name and isinstance(made, arena.Policy)  # noqa: B009
        assert pickle.loads(pickle.dumps(made)) == made
    # bot() may also return OpenSpiel's mcts, which has no loader: read it by name.
    assert getattr(bot("greedy-loader"), "loader") is greedy_load  # noqa: B009
    assert getattr(bot("optimal"), "loader") is None  # noqa: B009
    assert getattr(bot("random", loader=greedy_load), "loader") is greedy_load  # noqa: B009
    with pytest.raises(PackingError, match="unknown bot 'fastest'"):
        bot("fastest")
    with pytest.raises(TypeError, match="^bot 'capacity' takes no option 'use_table'$"):
        bot("capacity", use_table=False)
    with pytest.raises(TypeError, match="^bot 'random' takes no option 'seed'$"):
        bot("random", seed=1)
    with pytest.raises(TypeError):
        bot(3)  # type: ignore[arg-type]


def test_tournament_seats_loaders_with_their_bots() -> None:
    from packing import tournament
    from packing.game import Game

    result = tournament(["greedy-loader", "optimal"], games=3, seed=4, records=True)
    assert result.policies == ("greedy-loader", "optimal") and len(result.records) == 6
    for record in result.records:  # replay each game: greedy-loader's plans are its own, any seat
        seated = [bot(name) for name in record.seating]
        state = arena.play(Game(2), seated, record.seed)
        assert tuple(state.returns()) == record.returns
        greedy = record.seating.index("greedy-loader")
        assert all(
            not r.plans[greedy].optimal and r.plans[1 - greedy].optimal for r in state.round_records
        )
    twice = tournament(["optimal", "optimal", "random"], games=1, seed=0)
    assert twice.policies == ("optimal", "optimal#2", "random")
    with pytest.raises(PackingError, match="2 to 6 players"):
        tournament(["optimal"] * 7, games=1, seed=0)
