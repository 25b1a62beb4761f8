"""One seat of a game against batched bots, for many games at once: a Gymnasium ``VectorEnv``
over the game's batched engine (:mod:`arena.batch`; the ``rl`` extra).

:class:`SeatVectorEnv` is what ``gymnasium.vector.SyncVectorEnv`` of ``num_envs`` single-seat
environments (:class:`arena.pettingzoo.SeatEnv`) is — the same observations, action masks,
rewards, ends and autoreset, episode for episode — with the games held as arrays and the
opponents played as vector bots, so a step costs a few array operations for every game
instead of a Python game each:

- ``reset(seed=s)`` seeds sub-environment ``i`` with ``s + i``, as ``SyncVectorEnv`` does;
  each draws chance and its opponents' choices exactly as the single environment does with
  that seed (the batch's per-game streams, :class:`arena.batch.Streams`), so the episodes are
  the single environment's. ``reset()`` without a seed goes on with the generators there are
  (fresh ones the first time).
- **Observations** ``(num_envs, size)`` float32, the codec's tensor of the learning seat;
  ``action_masks()`` (and ``info["action_mask"]``, int8) the legal ids of every
  sub-environment, all 0 where a game is over.
- **Actions** ``MultiDiscrete`` of the codec's ids. An illegal id ends that sub-environment's
  episode with ``illegal_reward`` (−1), its game unchanged, as the single environment's
  default does.
- **Autoreset** ``NEXT_STEP`` (Gymnasium's default, in ``metadata["autoreset_mode"]``): the
  step after an episode ends resets that sub-environment, ignores its action and returns its
  first observation with reward 0.
- **Chance** ``"seeded"`` (the above) or ``"shared"`` (:data:`CHANCES`: faster, the same
  distributions, not the single environment's episodes).
- **Rewards** ``"score"``: the change of the learner's score (the codec's standing) since its
  last decision; ``"win"``: its share of the win at the end.

Importing this module without the extra raises :class:`arena.MissingExtraError` naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from arena.batch import Batch, BatchEngine, Streams, VectorPolicy, engine_for
from arena.codec import Codec, Parameters
from arena.errors import ArenaError
from arena.extras import import_extra
from arena.pettingzoo import Environments, check_reward, check_seat, opponent_policies
from arena.protocol import Policy
from arena.values import whole_number

if TYPE_CHECKING:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from gymnasium.vector import AutoresetMode, VectorEnv
else:
    gymnasium = import_extra("gymnasium", "rl")
    spaces = import_extra("gymnasium.spaces", "rl")
    seeding = import_extra("gymnasium.utils.seeding", "rl")
    _vector = import_extra("gymnasium.vector", "rl")
    AutoresetMode, VectorEnv = _vector.AutoresetMode, _vector.VectorEnv

__all__ = ["CHANCES", "SeatVectorEnv", "seat_vector_env"]

#: Where a vector environment's chance comes from: ``"seeded"`` (the default), each
#: sub-environment drawing exactly what the single environment draws for its seed, so the
#: episodes are the single environment's; ``"shared"``, the batch's own chance hashed from a
#: generator seeded by ``reset(seed=...)`` (:class:`arena.batch.SharedChance`): reproducible,
#: the same distributions, not the same episodes, and faster (no draw is a Python call).
CHANCES = ("seeded", "shared")


class SeatVectorEnv(VectorEnv):
    """``num_envs`` games of one learning ``seat`` against ``opponents`` (policies the game's
    batched engine plays, in the order of the other seats), as a Gymnasium ``VectorEnv`` (the
    module docstring says what it shows and does)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        codec: Codec,
        params: Parameters | None,
        *,
        opponents: Sequence[Policy],
        num_envs: int,
        seat: int = 0,
        reward: str = "score",
        illegal_reward: float = -1.0,
        chance: str = "seeded",
    ) -> None:
        if chance not in CHANCES:
            raise ArenaError(f"unknown chance: {chance!r} (use 'seeded' or 'shared')")
        self.chance = chance
        self.codec = codec
        self.params = codec.merged(params)
        initial = codec.new_state(self.params)  # raises on bad parameters
        players = initial.num_players
        self.num_envs = whole_number(num_envs, "num_envs", low=1)
        self.seat, self.illegal_reward = check_seat(players, opponents, seat, illegal_reward)
        self.reward = check_reward(reward)
        engine = engine_for(initial)
        if engine is None:
            raise ArenaError("this game has no batched engine for these parameters")
        self.engine: BatchEngine = engine
        vector: list[VectorPolicy] = []
        for policy in opponents:
            found = engine.vector_policy(policy)
            if found is None:
                name = getattr(policy, "name", repr(policy))
                raise ArenaError(
                    f"opponent {name!r} cannot be batched (a vector environment's opponents are "
                    "bots of the game's batched engine)"
                )
            vector.append(found)
        seat = self.seat
        # Each distinct opponent is asked once a turn for all the seats it plays (a vector
        # policy chooses in any games of the batch, whoever acts there): the same bot in three
        # seats costs one act() a turn, not three.
        self._distinct_opponents: list[VectorPolicy] = []
        #: Each seat's opponent, as its place in ``_distinct_opponents`` (-1: the learner's).
        self._opponent_of_seat = np.full(players, -1)
        for s in range(players):
            if s == seat:
                continue
            bot = vector[s - (s > seat)]
            if bot not in self._distinct_opponents:
                self._distinct_opponents.append(bot)
            self._opponent_of_seat[s] = self._distinct_opponents.index(bot)
        self.actions = codec.limits(self.params).num_distinct_actions
        low, high = codec.tensor_bounds(self.params)
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.actions)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, self.num_envs
        )
        self.action_space = gymnasium.vector.utils.batch_space(
            self.single_action_space, self.num_envs
        )
        self._shared_rng: np.random.Generator | None = None
        self._batch: Batch | None = None
        self._ended = np.zeros(self.num_envs, bool)

    # --- the Gymnasium API ------------------------------------------------------------------------

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """New games in every sub-environment, played up to the learner's first turn."""
        seeds = self._seeds(seed)
        everyone = np.ones(self.num_envs, bool)
        if self.chance == "shared":
            if seeds is not None or self._shared_rng is None:
                self._shared_rng = np.random.default_rng(None if seeds is None else seeds[0])
            self._batch = self.engine.new_batch(self.num_envs, rng=self._shared_rng)
        elif seeds is not None or self._batch is None:
            chance, policy = [], []
            for s in seeds if seeds is not None else [None] * self.num_envs:
                # SeatEnv.reset: Gymnasium seeds the chance generator; the opponents' comes from it.
                rng, _ = seeding.np_random(s)
                chance.append(rng)
                policy.append(np.random.default_rng(int(rng.integers(2**63))))
            streams = Streams([g.bit_generator.random_raw for g in chance], policy)
            self._batch = self.engine.new_batch(streams=streams)
        else:
            # New games going on with each sub-environment's generators. The batch keeps them:
            # it holds part of their state (arena.batch.GeneratorIntegers' kept half-words).
            self._batch.reset(everyone)
        self._advance(everyone)
        self._ended = np.zeros(self.num_envs, bool)
        self._standing = self._scores()
        return self._observe(), self._info()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Each sub-environment's learner plays its action id (one that ended last step is
        reset instead); the games run on to the learner's next turn."""
        batch = self._batch
        if batch is None:
            raise ArenaError("step() before reset(): call reset() first")
        ids = np.asarray(actions)
        if ids.shape != (self.num_envs,) or not np.issubdtype(ids.dtype, np.integer):
            raise ArenaError(
                f"actions must be {self.num_envs} integer ids, not {np.asarray(actions)!r:.80}"
            )
        rewards = np.zeros(self.num_envs)
        restarting = self._ended
        if restarting.any():
            batch.reset(restarting)
            self._advance(restarting)
        acting = ~restarting
        mask = batch.legal_mask()
        inside = (ids >= 0) & (ids < self.actions)
        legal = acting & inside
        legal[legal] = mask[np.flatnonzero(legal), ids[legal]]
        illegal = acting & ~legal
        if legal.any():
            batch.apply(np.where(legal, ids, 0), legal)
            self._advance(legal)
        scores = self._scores()
        rewards[legal] = (scores - self._standing)[legal]
        rewards[illegal] = self.illegal_reward
        self._standing = scores
        over = (batch.to_play() < 0) & legal
        truncated = over & batch.truncated()
        terminated = (over & ~truncated) | illegal
        self._ended = terminated | truncated
        info = self._info()
        if illegal.any():  # as SyncVectorEnv gathers the single environments' infos
            info["illegal_action"] = np.where(illegal, ids, 0)
            info["_illegal_action"] = illegal
        return self._observe(), rewards, terminated, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal ids in every sub-environment (all False where its game is over)."""
        return self._masks().astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the games are arrays."""

    # --- the games --------------------------------------------------------------------------------

    def _seeds(self, seed: int | Sequence[int] | None) -> list[int] | None:
        if seed is None:
            return None
        if isinstance(seed, Sequence):
            if len(seed) != self.num_envs:
                raise ArenaError(f"{len(seed)} seeds for {self.num_envs} environments")
            return [whole_number(s, "seed", low=0) for s in seed]
        first = whole_number(seed, "seed", low=0)
        return [first + i for i in range(self.num_envs)]

    def _advance(self, games: npt.NDArray[np.bool_]) -> None:
        """The opponents' turns in ``games`` until the learner's turn or the end."""
        batch = self._batch
        assert batch is not None
        actions = np.zeros(self.num_envs, np.intp)
        while True:
            player = batch.to_play()
            waiting = games & (player >= 0) & (player != self.seat)
            if not waiting.any():
                return
            # The opponent to act in each game (-1, the learner's, where none is waiting).
            opponent = self._opponent_of_seat[np.where(waiting, player, self.seat)]
            for k, policy in enumerate(self._distinct_opponents):
                where = waiting & (opponent == k)
                if where.any():
                    actions[where] = policy.act(batch, where)
            batch.apply(actions, waiting)

    def _scores(self) -> npt.NDArray[np.float64]:
        batch = self._batch
        assert batch is not None
        if self.reward == "score":
            return batch.standing()[:, self.seat]
        winners = batch.winners()
        count = np.maximum(winners.sum(axis=1), 1)
        shares: npt.NDArray[np.float64] = winners[:, self.seat] / count
        return shares

    def _observe(self) -> npt.NDArray[np.float32]:
        assert self._batch is not None
        return self._batch.observations(self.seat)

    def _info(self) -> dict[str, Any]:
        """``info``: the action masks, in the vector form (``_action_mask`` marks every
        sub-environment as having one)."""
        return {"action_mask": self._masks(), "_action_mask": np.ones(self.num_envs, bool)}

    def _masks(self) -> npt.NDArray[np.int8]:
        batch = self._batch
        assert batch is not None
        mine = batch.to_play() == self.seat
        masks: npt.NDArray[np.int8] = (batch.legal_mask() & mine[:, None]).astype(np.int8)
        return masks


def seat_vector_env(
    environments: Environments,
    opponents: Sequence[str | Policy],
    params_for: Callable[[int], Parameters],
    *,
    num_envs: int,
    seat: int,
    reward: str,
    illegal_reward: float,
    chance: str,
) -> SeatVectorEnv:
    """A game's vector environment of one seat against ``opponents`` (bot names, made by the
    game's ``environments.bot``, or policies its batched engine plays) in ``num_envs`` games
    at once, in the game ``params_for(players)`` describes: what each game's
    ``gym_vector_env`` is."""
    policies = opponent_policies(opponents, environments.bot, environments.error)
    return SeatVectorEnv(
        environments.codec,
        params_for(len(policies) + 1),
        opponents=policies,
        num_envs=num_envs,
        seat=seat,
        reward=reward,
        illegal_reward=illegal_reward,
        chance=chance,
    )
