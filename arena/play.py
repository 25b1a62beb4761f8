"""Seeded play: chance sampled exactly from a seeded generator (:mod:`arena.sampling`),
policies asked in turn."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from arena.errors import ArenaError
from arena.protocol import CHANCE, TERMINAL, Action, GameState, Policy, show_seating
from arena.sampling import outcome_drawer
from arena.values import seed as check_seed
from arena.values import whole_number

__all__ = ["RandomPolicy", "play", "seat_streams"]

S = TypeVar("S", bound=GameState)


def seat_streams(seed: int, players: int) -> tuple[np.random.Generator, list[np.random.Generator]]:
    """The generators of one game, derived from ``seed``: chance's own, and the players'.

    Chance has its own stream, so the luck of a deal does not depend on how the policies use
    theirs: replaying a seed with the policies in other seats replays the same chance draws for
    as long as the game asks the same chance questions. The seats share one second stream (the
    list holds it once per seat): every policy still draws reproducibly from the seed, and a
    game builds two generators instead of one per seat plus one (building them is a visible
    share of a short game's time).
    """
    seed = check_seed(seed)
    players = whole_number(players, "players", low=1)
    chance, policies = (
        np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(k,))))
        for k in range(2)
    )
    return chance, [policies] * players


def play(
    state: S,
    policies: Sequence[Policy],
    seed: int,
    *,
    max_actions: int = 1_000_000,
    on_action: Callable[[S], object] | None = None,
) -> S:
    """Play ``state`` to the end in place and return it.

    Chance nodes are sampled exactly from a generator seeded by ``seed``; player ``p`` is asked
    by ``policies[p]`` with its observation, the legal actions and the players' seeded generator
    (chance has its own).
    A state that takes who sits where (:class:`arena.protocol.SeatsPolicies`, such as Pack &
    Stack's, whose players also load their trucks) is shown the seating first.
    Same state, policies and seed → the same game, event for event.
    ``on_action`` (if given) is called with the state after every action, chance's included:
    an observer, such as a live log of the game (``express play`` prints its turns so), that
    must not change the state.
    """
    max_actions = whole_number(max_actions, "max_actions", low=1)
    if len(policies) != state.num_players:
        raise ArenaError(f"{len(policies)} policies for {state.num_players} players")
    chance_rng, seat_rngs = seat_streams(seed, state.num_players)
    show_seating(state, policies)
    # chance_rng is this game's alone, so the drawer's reading ahead changes nothing anyone sees.
    draw = outcome_drawer(chance_rng)
    for _ in range(max_actions):
        # current_player() alone tells the end and chance apart (the protocol's contract), one
        # call per action where three would do the same: play is the hot loop of every game.
        player = state.current_player()
        if player == TERMINAL:
            return state
        if player == CHANCE:
            state.apply_action(draw(state.chance_outcomes()))
        else:
            legal = state.legal_actions()
            action = policies[player].act(state.observation(player), legal, seat_rngs[player])
            state.apply_action(action)
        if on_action is not None:
            on_action(state)
    raise ArenaError(f"the game did not end within {max_actions} actions")


@dataclass(frozen=True)
class RandomPolicy:
    """Any legal action, uniformly (the baseline every game supports)."""

    name: str = "random"

    def act(
        self, observation: Any, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        return legal_actions[int(rng.integers(len(legal_actions)))]
