"""The dice race of ``toy.py`` as integers and tensors: its codec (no extra), shared by the
OpenSpiel and PettingZoo adapters' tests."""

from __future__ import annotations

from typing import Any

import numpy as np

from arena.codec import Codec, Limits, Parameters
from tests.arena.toy import DiceRace

_ACTIONS = ("keep", "bank")


class DiceRaceCodec(Codec):
    """Chance ids 0..5 are the faces 1..6; action ids 0 keep, 1 bank."""

    short_name = "python_arena_dice_race"
    long_name = "arena's dice race (test game)"
    min_players = 1
    max_players = 4
    parameters = {"players": 2, "rounds": 3}

    def new_state(self, params: Parameters) -> DiceRace:
        return DiceRace(players=int(params["players"]), rounds=int(params["rounds"]))

    def limits(self, params: Parameters) -> Limits:
        turns = int(params["players"]) * int(params["rounds"])
        return Limits(
            num_distinct_actions=2,
            max_chance_outcomes=6,
            min_utility=3 * int(params["rounds"]) * 0 + int(params["rounds"]),
            max_utility=6 * int(params["rounds"]),
            max_game_length=turns,
            max_chance_nodes=turns,
        )

    def encode(self, state: Any, action: Any) -> int:
        if state.is_chance_node():
            return int(action) - 1
        return _ACTIONS.index(action)

    def decode(self, state: Any, number: int) -> Any:
        if state.is_chance_node():
            if not 0 <= number < 6:
                raise ValueError(f"not a face id: {number!r}")
            return number + 1
        return _ACTIONS[number]

    def tensor_size(self, params: Parameters) -> int:
        return int(params["players"]) + 1

    def tensor_bounds(self, params: Parameters) -> tuple[np.ndarray, np.ndarray]:
        size = self.tensor_size(params)
        high = np.full(size, 6 * int(params["rounds"]), np.float32)
        high[-1] = 6  # the roll on the table
        return np.zeros(size, np.float32), high

    def fill_tensor(self, observation: Any, tensor: np.ndarray) -> None:
        totals, rolled, _turn, _rounds = observation
        tensor[: len(totals)] = totals
        tensor[-1] = rolled or 0

    def params_from_observation(self, observation: Any) -> dict[str, int | float | bool | str]:
        totals, _rolled, _turn, rounds = observation
        return {"players": len(totals), "rounds": rounds}

    def state_from_observation(self, observation: Any, rng: np.random.Generator) -> DiceRace:
        totals, rolled, turn, rounds = observation
        return DiceRace(
            players=len(totals), rounds=rounds, totals=list(totals), turn=turn, rolled=rolled
        )


CODEC = DiceRaceCodec()
