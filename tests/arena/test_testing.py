"""arena.testing's conformance check: it passes a game that keeps the protocol and names what a
broken one breaks."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import partial
from typing import Self

import pytest

from arena import ArenaError
from arena.testing import ProtocolError, check_random_playouts
from tests.arena.toy import DiceRace


def test_a_game_that_keeps_the_protocol_passes_from_a_factory_a_class_or_a_state() -> None:
    # Per game: 2 players x 3 rounds, a roll and a choice each turn.
    assert check_random_playouts(lambda: DiceRace(players=2), games=5, seed=1) == 5 * 12
    assert check_random_playouts(DiceRace, games=5, seed=1) == 5 * 12
    start = DiceRace(players=3, rounds=1)
    assert check_random_playouts(start, games=4, seed=2) == 4 * 6
    assert start == DiceRace(players=3, rounds=1)  # the given state is cloned, never played


def test_the_same_seed_checks_the_same_games() -> None:
    seen: list[list[str]] = [[], []]
    for log in seen:
        check_random_playouts(DiceRace, games=3, seed=8, invariant=partial(record, log))
    assert seen[0] == seen[1] and len(seen[0]) > 3


def record(log: list[str], state: DiceRace) -> None:
    log.append(str(state))


class PointsBeforeTheEnd(DiceRace):
    def returns(self) -> list[int]:
        return list(self.totals)


class NoWinnerAtTheEnd(DiceRace):
    def winners(self) -> frozenset[int]:
        return frozenset()


class SharedTotals(DiceRace):
    def clone(self) -> Self:
        copy = type(self)(players=self.players, rounds=self.rounds, totals=self.totals)
        copy.turn, copy.rolled, copy.log = self.turn, self.rolled, list(self.log)
        return copy


class LoadedDie(DiceRace):
    def chance_outcomes(self) -> Sequence[tuple[int, Fraction]]:
        return [(face, Fraction(1, 7)) for face in range(1, 7)]


class RepeatedAction(DiceRace):
    def legal_actions(self) -> Sequence[str]:
        actions = super().legal_actions()
        return [*actions, "keep"] if "keep" in actions else actions


class ChanceDisagrees(DiceRace):
    def is_chance_node(self) -> bool:
        return False


class Endless(DiceRace):
    def is_terminal(self) -> bool:
        return False


class UnpicklableObservation(DiceRace):
    def observation(self, player: int) -> object:  # type: ignore[override]
        return lambda: player


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        (PointsBeforeTheEnd, "before the end returns()"),
        (NoWinnerAtTheEnd, "winners() at the end"),
        (SharedTotals, "acting on a clone changed the original"),
        (LoadedDie, "sum to 6/7, not 1"),
        (RepeatedAction, "a repeated legal action"),
        (ChanceDisagrees, "is_chance_node()"),
        (Endless, "did not end within 50 actions"),
        (UnpicklableObservation, "pickle"),
    ],
)
def test_a_broken_game_fails_with_where_and_what(game: type[DiceRace], expected: str) -> None:
    with pytest.raises(ProtocolError, match="game 1 of check_random_playouts\\(seed=4\\)") as info:
        check_random_playouts(game, games=3, seed=4, max_actions=50)
    assert expected in str(info.value)
    assert isinstance(info.value, AssertionError)


def test_the_pre_terminal_check_can_be_left_off() -> None:
    assert (
        check_random_playouts(lambda: PointsBeforeTheEnd(), games=3, seed=4, pre_terminal=False) > 0
    )


def test_a_failing_invariant_is_reported_with_the_game_and_the_action() -> None:
    def never_above_ten(state: DiceRace) -> None:
        assert max(state.totals) <= 10, state.totals

    with pytest.raises(ProtocolError, match="after [0-9]+ actions") as info:
        check_random_playouts(DiceRace, games=20, seed=1, invariant=never_above_ten)
    assert isinstance(info.value.__cause__, AssertionError)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ArenaError, match="at least 1"):
        check_random_playouts(DiceRace, games=0)
    with pytest.raises(ArenaError, match="at least 1"):
        check_random_playouts(DiceRace, deep_every=0)
