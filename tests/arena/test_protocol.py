"""The protocol's optional part: a game that takes who sits where is shown the seating once,
before the first action, by whoever seats policies; a game without it is played through
``act`` alone."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from arena import play
from arena.protocol import Policy, SeatsPolicies, show_seating
from tests.arena.toy import AlwaysBank, AlwaysKeep, DiceRace


@dataclass
class SeatedRace(DiceRace):
    """The toy race, noting the seating it is shown and when."""

    shown: list[tuple[tuple[str, ...], int]] = field(default_factory=list)

    def seat_policies(self, policies: Sequence[Policy]) -> None:
        self.shown.append((tuple(type(p).__name__ for p in policies), len(self.events)))


def test_a_game_that_takes_the_seating_is_shown_it_once_before_the_first_action() -> None:
    state = SeatedRace()
    assert isinstance(state, SeatsPolicies)
    play(state, [AlwaysKeep(), AlwaysBank()], seed=1)
    assert state.shown == [(("AlwaysKeep", "AlwaysBank"), 0)] and state.is_terminal()


def test_a_game_without_it_is_played_the_same_way() -> None:
    plain, seated = DiceRace(), SeatedRace()
    assert not isinstance(plain, SeatsPolicies)
    show_seating(plain, [AlwaysKeep(), AlwaysBank()])  # nothing to show: no error
    play(plain, [AlwaysKeep(), AlwaysBank()], seed=4)
    play(seated, [AlwaysKeep(), AlwaysBank()], seed=4)
    assert plain.events == seated.events and plain.returns() == seated.returns()
