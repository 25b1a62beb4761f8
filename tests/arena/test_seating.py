"""arena.play shows a game who sits where (``seat_policies``) and reuses samplers across games."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena import RandomPolicy, play
from arena.sampling import known_sampler
from tests.arena.toy import DIE, DiceRace


class SeatedRace(DiceRace):
    """The toy game, remembering the policies ``play`` seated."""

    seated: tuple[Any, ...] = ()

    def seat_policies(self, policies: Sequence[Any]) -> None:
        self.seated = tuple(policies)


def test_play_seats_the_policies_before_the_first_action() -> None:
    first, second = RandomPolicy(name="a"), RandomPolicy(name="b")
    race: Any = SeatedRace()  # its clone() is the toy's, not typed Self: enough for play
    state = play(race, [first, second], seed=1)
    assert state.seated == (first, second)
    plain = play(DiceRace(), [first, second], seed=1)  # a game without the hook plays as before
    assert plain.totals == state.totals


def test_a_recurring_outcome_tuple_keeps_its_sampler_across_games() -> None:
    play(DiceRace(), [RandomPolicy(), RandomPolicy()], seed=2)
    cached = known_sampler(DIE)
    assert cached is not None and cached.actions == [face for face, _ in DIE]
    play(DiceRace(), [RandomPolicy(), RandomPolicy()], seed=3)
    assert known_sampler(DIE) is cached
