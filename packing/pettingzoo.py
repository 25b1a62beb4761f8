"""Pack & Stack as a PettingZoo environment and as a Gymnasium one (the ``rl`` extra).

:func:`env` is the multi-agent, turn-based game (a PettingZoo ``AECEnv``, named
``pack_and_stack_v0``); :func:`gym_env` one seat of it against the library's bots (a Gymnasium
``Env``). Both are :mod:`arena.pettingzoo`'s adapters over the game's codec,
:mod:`packing.codec` — the ids, tensor and limits OpenSpiel's ``python_pack_and_stack`` uses —
so everything :mod:`arena.pettingzoo` says holds; what is particular to this game:

- **Decisions**: the grab is a player's only one (the game loads every truck optimally, from
  the deck's optimal table); the action ids are the deck's truck positions ``0..D-1`` and the
  top of the pile ``D``. The last grabber's only legal action is the pile.
- **Chance** (rolls, draws, the grab race, the top of the pile) is sampled inside the
  environment from the generator ``reset(seed=...)`` seeds.
- **Rewards** (``reward="score"``): each agent's change of points at each step — the round's
  bonus less its penalty, when a round is scored — so an episode's rewards sum to the final
  points less the start points; ``reward="win"``: the win shares at the end.
- **The end**: a player at 0 points or below ends the game (every agent terminated); the round
  cap ``max_rounds`` (default 40, far above every measured game) truncates it instead.
- **Rendering**: the text ``packing play`` prints (:func:`packing.report.play_text`), the seats
  named by their agents.

>>> game = env(players=2, render_mode="ansi")
>>> game.reset(seed=1)
>>> observation, reward, terminated, truncated, info = game.last()
>>> observation["observation"].shape == game.observation_space("player_0")["observation"].shape
True
>>> int(observation["action_mask"].sum()) >= 1
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.pettingzoo import CodecEnv, Environments, SeatEnv
from arena.protocol import Policy
from arena.vector_env import SeatVectorEnv, seat_vector_env
from packing.bots import bot
from packing.codec import CODEC, deck_parameter
from packing.deck import SAMPLE_DECK
from packing.errors import PackingError
from packing.model import Truck
from packing.report import play_text
from packing.rules import DEFAULT_MAX_ROUNDS, START_POINTS

__all__ = ["GYM_ID", "NAME", "env", "gym_env", "gym_vector_env", "raw_env"]

NAME = "pack_and_stack_v0"
"""The environment's name (PettingZoo's version suffix: a change that alters episodes bumps it)."""

GYM_ID = "tabletop/PackAndStack-v0"
"""The single-seat environment's id in Gymnasium's registry (registered on import):
``gymnasium.make(GYM_ID, opponents=[...])`` is :func:`gym_env`."""

_ENVIRONMENTS = Environments(
    CODEC, name=NAME, gym_id=GYM_ID, play_text=play_text, bot=bot, error=PackingError
)


def _params(
    players: int, deck: Sequence[Truck], start_points: int, max_rounds: int
) -> dict[str, Any]:
    if isinstance(deck, (str, bytes)) or not all(isinstance(truck, Truck) for truck in deck):
        raise PackingError(
            f"deck is a sequence of trucks (load_deck reads a deck file), not {deck!r:.60}"
        )
    if not deck:
        raise PackingError("deck holds no truck: give at least one")
    return {
        "players": players,
        "deck": deck_parameter(tuple(deck)),
        "start_points": start_points,
        "max_rounds": max_rounds,
    }


def raw_env(
    players: int = 4,
    *,
    deck: Sequence[Truck] = SAMPLE_DECK,
    start_points: int = START_POINTS,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    reward: str = "score",
    render_mode: str | None = None,
) -> CodecEnv:
    """The game as a PettingZoo ``AECEnv`` (PettingZoo's name for the environment before any
    wrapper; :func:`env` is the same): ``players`` 2 to 6, ``deck`` (default the sample deck; its truck
    names must not hold ``| , = ( )``, as in OpenSpiel's game strings), ``start_points``,
    ``max_rounds`` (the cap), ``reward`` (``"score"`` or ``"win"``), ``render_mode``
    (``"ansi"``, ``"human"`` or None)."""
    return _ENVIRONMENTS.aec(
        _params(players, deck, start_points, max_rounds), reward=reward, render_mode=render_mode
    )


env = raw_env
"""The game as a PettingZoo ``AECEnv``: :func:`raw_env` itself, which makes the checks
PettingZoo's games add by a wrapper (:class:`arena.pettingzoo.Environments` says why)."""


def gym_env(
    opponents: Sequence[str | Policy] = ("optimal", "capacity", "random"),
    *,
    seat: int = 0,
    deck: Sequence[Truck] = SAMPLE_DECK,
    start_points: int = START_POINTS,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    reward: str = "score",
    illegal: str = "penalise",
    illegal_reward: float = -1.0,
    render_mode: str | None = None,
) -> SeatEnv:
    """One learning seat (``seat``) against ``opponents`` — bot names (:func:`packing.bot`) or
    policies, in the order of the other seats — as a Gymnasium ``Env``: ``len(opponents) + 1``
    players. The learner's trucks are loaded optimally; each opponent loads with its own
    loader. The observation is the codec's tensor, the legal actions ``action_masks()``;
    rewards, illegal actions and rendering as :class:`arena.pettingzoo.SeatEnv` says.

    >>> from gymnasium.utils.env_checker import check_env
    >>> check_env(gym_env(["optimal", "random"]), skip_render_check=True)
    """
    return _ENVIRONMENTS.seat(
        opponents,
        lambda players: _params(players, deck, start_points, max_rounds),
        seat=seat,
        reward=reward,
        illegal=illegal,
        illegal_reward=illegal_reward,
        render_mode=render_mode,
    )


def gym_vector_env(
    opponents: Sequence[str | Policy] = ("optimal", "capacity", "random"),
    *,
    num_envs: int = 64,
    seat: int = 0,
    deck: Sequence[Truck] = SAMPLE_DECK,
    start_points: int = START_POINTS,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    reward: str = "score",
    illegal_reward: float = -1.0,
    chance: str = "seeded",
) -> SeatVectorEnv:
    """:func:`gym_env` in ``num_envs`` games at once, as a Gymnasium ``VectorEnv`` over the
    batched engine (:class:`arena.vector_env.SeatVectorEnv`: the same episodes as
    ``gymnasium.vector.SyncVectorEnv`` of :func:`gym_env`, for the same seeds; with
    ``chance="shared"`` faster, the same distributions but not those episodes:
    :data:`arena.vector_env.CHANCES`). The opponents
    are bots the engine plays (:mod:`packing.batch`: ``random``, ``capacity``, ``optimal``,
    ``bonus-aware``); the deck needs its optimal table.

    >>> envs = gym_vector_env(["optimal", "random"], num_envs=8)
    >>> observations, info = envs.reset(seed=1)
    >>> observations.shape == (8, envs.single_observation_space.shape[0]), info["action_mask"].shape
    (True, (8, 31))
    """
    return seat_vector_env(
        _ENVIRONMENTS,
        opponents,
        lambda players: _params(players, deck, start_points, max_rounds),
        num_envs=num_envs,
        seat=seat,
        reward=reward,
        illegal_reward=illegal_reward,
        chance=chance,
    )


_ENVIRONMENTS.register(f"{__name__}:gym_env", f"{__name__}:gym_vector_env")
