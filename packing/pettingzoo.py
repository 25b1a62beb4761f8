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
- **Rendering**: the text ``packing play`` prints (:func:`packing.report.report`), the seats
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
from typing import TYPE_CHECKING, Any

from arena.pettingzoo import CodecEnv, SeatEnv, opponent_policies
from arena.protocol import GameState, Policy
from packing.bots import bot
from packing.codec import CODEC, deck_parameter
from packing.deck import SAMPLE_DECK
from packing.errors import PackingError
from packing.game import Game
from packing.model import Truck
from packing.report import report
from packing.rules import DEFAULT_MAX_ROUNDS, START_POINTS

if TYPE_CHECKING:
    import gymnasium
else:
    from arena.extras import import_extra

    gymnasium = import_extra("gymnasium", "rl")

__all__ = ["GYM_ID", "NAME", "env", "gym_env", "raw_env"]

NAME = "pack_and_stack_v0"
"""The environment's name (PettingZoo's version suffix: a change that alters episodes bumps it)."""

GYM_ID = "tabletop/PackAndStack-v0"
"""The single-seat environment's id in Gymnasium's registry (registered on import):
``gymnasium.make(GYM_ID, opponents=[...])`` is :func:`gym_env`."""


def _text(state: GameState, names: Sequence[str], seed: int | None) -> str:
    if not isinstance(state, Game):
        raise TypeError(f"a packing.Game is expected, not {type(state).__name__}")
    return report(state, names)


def _params(
    players: int, deck: Sequence[Truck], start_points: int, max_rounds: int
) -> dict[str, Any]:
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
    return CodecEnv(
        CODEC,
        _params(players, deck, start_points, max_rounds),
        name=NAME,
        render_text=_text,
        render_mode=render_mode,
        reward=reward,
    )


def env(
    players: int = 4,
    *,
    deck: Sequence[Truck] = SAMPLE_DECK,
    start_points: int = START_POINTS,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    reward: str = "score",
    render_mode: str | None = None,
) -> CodecEnv:
    """The game as a PettingZoo ``AECEnv`` (options: :func:`raw_env`). PettingZoo's games
    wrap their raw environment in checks; this one makes them itself, so ``env`` is
    ``raw_env``: an illegal or out-of-range id, and ``step``/``observe``/``render`` before
    ``reset``, raise :class:`arena.ArenaError` (PettingZoo's ``OrderEnforcingWrapper``
    forwards every attribute through Python and cost about a third of a random agent's step:
    ``python -m benchmarks envs``)."""
    return raw_env(
        players,
        deck=deck,
        start_points=start_points,
        max_rounds=max_rounds,
        reward=reward,
        render_mode=render_mode,
    )


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
    policies = opponent_policies(opponents, bot, PackingError)
    return SeatEnv(
        CODEC,
        _params(len(policies) + 1, deck, start_points, max_rounds),
        opponents=policies,
        seat=seat,
        render_text=_text,
        render_mode=render_mode,
        reward=reward,
        illegal=illegal,
        illegal_reward=illegal_reward,
    )


# Registered once per process: importing this module again (a reload) must not warn that the id
# is overridden.
if GYM_ID not in gymnasium.registry:
    gymnasium.register(id=GYM_ID, entry_point=f"{__name__}:gym_env")
