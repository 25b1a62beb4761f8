"""arena's own tests: seeded play, exact chance sampling, the generic protocol check on a toy game."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import accumulate
from typing import Any

import numpy as np
import pytest

from arena import (
    ArenaError,
    GameState,
    Policy,
    RandomPolicy,
    outcome_drawer,
    play,
    sample_outcome,
)
from arena.sampling import RESIDUE_TABLE_LIMIT, RESIDUE_TABLE_PER_OUTCOME, Sampler, raw_words
from arena.testing import check_random_playouts
from tests.arena.toy import DiceRace


class AlwaysKeep:
    def act(self, observation: Any, legal_actions: Sequence[Any], rng: np.random.Generator) -> Any:
        return "keep"


def test_toy_game_passes_the_generic_protocol_check() -> None:
    assert check_random_playouts(lambda: DiceRace(players=3), games=200, seed=1) > 0


def test_the_protocols_are_runtime_checkable() -> None:
    assert isinstance(DiceRace(), GameState)
    assert isinstance(RandomPolicy(), Policy)


def test_same_seed_same_game_event_for_event() -> None:
    policies = [RandomPolicy(), RandomPolicy()]
    first = play(DiceRace(), policies, seed=7)
    second = play(DiceRace(), policies, seed=7)
    assert first.is_terminal() and first == second and list(first.events) == list(second.events)
    others = {tuple(play(DiceRace(), policies, seed=s).events) for s in range(20)}
    assert len(others) > 1


def test_chance_does_not_depend_on_the_policies() -> None:
    # Keep-always and random players see the same rolls from the same seed.
    keep = play(DiceRace(), [AlwaysKeep(), AlwaysKeep()], seed=3)
    rand = play(DiceRace(), [RandomPolicy(), RandomPolicy()], seed=3)

    def rolls(state: DiceRace) -> list[str]:
        return [e for e in state.events if e.startswith("roll")]

    assert rolls(keep) == rolls(rand)


def test_sampler_gives_each_outcome_exactly_its_share() -> None:
    sampler = Sampler([("a", Fraction(1, 3)), ("b", Fraction(1, 2)), ("c", Fraction(1, 6))])
    assert sampler.denominator == 6
    counts: dict[object, int] = {a: 0 for a in "abc"}
    for r in range(sampler.denominator):  # every integer draw, once: the exact distribution
        counts[sampler.actions[sum(1 for c in sampler.cumulative if c <= r)]] += 1
    assert counts == {"a": 2, "b": 3, "c": 1}
    rng = np.random.default_rng(0)
    draws = [
        sample_outcome([("x", Fraction(1, 4)), ("y", Fraction(3, 4))], rng) for _ in range(4000)
    ]
    assert 800 < draws.count("x") < 1200


@pytest.mark.parametrize(
    "weights", [[1] * 7, [1, 2, 3, 1], [5, 5], [1] * 900, [3] * 24 + [1], [63, 1], [2**20, 1]]
)
def test_a_draw_is_the_outcome_whose_cumulative_share_holds_the_word(weights: list[int]) -> None:
    # The reference: the residue of the word modulo the common denominator, and the first
    # outcome whose cumulative share exceeds it (small denominators keep a table of the answers,
    # large ones search: both must land there).
    total = sum(weights)
    sampler = Sampler([(k, Fraction(w, total)) for k, w in enumerate(weights)])
    tabled = sampler.denominator <= min(
        RESIDUE_TABLE_LIMIT, RESIDUE_TABLE_PER_OUTCOME * len(weights)
    )
    assert (sampler.by_residue is not None) == tabled
    for word in [0, 1, 5, 6, 24, 899, 2**40 + 3, sampler.limit - 1]:
        residue = word % sampler.denominator
        expected = next(
            k
            for k, c in enumerate(accumulate(weights))
            if c * sampler.denominator // total > residue
        )
        assert sampler.draw_from(lambda: word) == expected  # noqa: B023 (called at once)
    words = iter([sampler.limit, sampler.limit + 7, 3])  # words at or above the limit are refused
    assert sampler.draw_from(words.__next__) == sampler.draw_from(lambda: 3)


def test_raw_words_are_the_generators_words_in_order() -> None:
    one_by_one = np.random.PCG64(11)
    expected = [one_by_one.random_raw() for _ in range(150)]  # across batch boundaries
    words = raw_words(np.random.PCG64(11), batch=64)
    assert [next(words) for _ in range(150)] == expected


def test_a_drawer_draws_what_successive_samples_draw() -> None:
    # Outcome lists of one word and of several (a denominator past 2**64), in a mixed order
    # that crosses the drawer's batches of words.
    kinds = [
        tuple((k, Fraction(1, 6)) for k in range(6)),
        (("x", Fraction(1, 3**50)), ("y", 1 - Fraction(1, 3**50))),
        (("a", Fraction(2, 7)), ("b", Fraction(5, 7))),
        (("only", Fraction(1)),),
    ]
    order = [kinds[k % 4 if k % 5 else 1] for k in range(400)]
    rng = np.random.default_rng(5)
    expected = [sample_outcome(outcomes, rng) for outcomes in order]
    draw = outcome_drawer(np.random.default_rng(5))
    assert [draw(outcomes) for outcomes in order] == expected


@pytest.mark.parametrize(
    "outcomes", [[], [("a", Fraction(1, 2))], [("a", Fraction(3, 2)), ("b", Fraction(-1, 2))]]
)
def test_bad_chance_nodes_are_refused(outcomes: list[tuple[str, Fraction]]) -> None:
    with pytest.raises(ArenaError):
        sample_outcome(outcomes, np.random.default_rng(0))


def test_one_policy_per_player() -> None:
    with pytest.raises(ArenaError, match="1 policies for 2 players"):
        play(DiceRace(), [RandomPolicy()], seed=0)


def test_an_observer_sees_the_state_after_every_action_and_changes_nothing() -> None:
    seen: list[tuple[str, ...]] = []
    watched = play(
        DiceRace(),
        [RandomPolicy(), AlwaysKeep()],
        seed=5,
        on_action=lambda s: seen.append(tuple(s.events)),
    )
    unwatched = play(DiceRace(), [RandomPolicy(), AlwaysKeep()], seed=5)
    assert watched == unwatched
    # One call per action (chance's included), each after its action: the events grow by one.
    assert [len(events) for events in seen] == list(range(1, len(watched.events) + 1))
    assert seen[-1] == tuple(watched.events)


def test_live_text_prints_each_line_once_as_the_text_grows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from arena.cli import LiveText

    texts = iter([None, "a", "a\nb", "a\nb", None, "a\nb\nc"])
    live = LiveText(lambda _: next(texts))
    for _ in range(6):
        live(None)
    live.show("a\nb\nc\nd")
    assert capsys.readouterr().out == "a\nb\nc\nd\n"
