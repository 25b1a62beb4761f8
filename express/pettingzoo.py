"""Yardmaster Express as a PettingZoo environment and as a Gymnasium one (the ``rl`` extra).

:func:`env` is the multi-agent, turn-based draft (a PettingZoo ``AECEnv``, named
``yardmaster_express_v0``); :func:`gym_env` one seat of it against the library's bots (a
Gymnasium ``Env``). Both are :mod:`arena.pettingzoo`'s adapters over the game's codec,
:mod:`express.codec` — the ids, tensor and limits OpenSpiel's ``python_yardmaster_express``
uses — so everything :mod:`arena.pettingzoo` says holds; what is particular to this game:

- **Decisions**: one card a turn, face up (id ``2k``) or face down (``2k + 1``), ``k`` the
  card's kind in the deck.
- **Observations**: only what the player may know (its hand while holding it, the trains with
  the others' face-down cards hidden, the cards it has seen: :meth:`express.Game.observation`).
- **Chance** (the deal, each turn's draw, a random caboose) is sampled inside the environment
  from the generator ``reset(seed=...)`` seeds.
- **Rewards** (``reward="score"``): a train is scored only at the end, so each agent's reward is
  0 until the last step and then its final score (value, run award, caboose); ``reward="win"``:
  the win share at the end (the rules' tie-break decides a tie, so one winner).
- **Rendering**: the text ``express play`` prints (:func:`express.report.play_text`), the seats
  named by their agents — the whole table, hidden cards included: a spectator's view.

>>> game = env(players=2, caboose="random", render_mode="ansi")
>>> game.reset(seed=1)
>>> observation, reward, terminated, truncated, info = game.last()
>>> int(observation["action_mask"].sum()) > 0, game.metadata["name"]
(True, 'yardmaster_express_v0')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from arena.pettingzoo import CodecEnv, Environments, SeatEnv
from arena.protocol import Policy
from arena.values import whole_number
from arena.vector_env import SeatVectorEnv, seat_vector_env
from express.bots import bot
from express.cabooses import Caboose
from express.cards import Card
from express.codec import CODEC
from express.deck import parse_deck
from express.errors import RulesError
from express.report import play_text

__all__ = ["GYM_ID", "NAME", "env", "gym_env", "gym_vector_env", "raw_env"]

NAME = "yardmaster_express_v0"
"""The environment's name (PettingZoo's version suffix: a change that alters episodes bumps it)."""

GYM_ID = "tabletop/YardmasterExpress-v0"
"""The single-seat environment's id in Gymnasium's registry (registered on import):
``gymnasium.make(GYM_ID, opponents=[...])`` is :func:`gym_env`."""

_ENVIRONMENTS = Environments(
    CODEC, name=NAME, gym_id=GYM_ID, play_text=play_text, bot=bot, error=RulesError
)


def _params(
    players: int,
    caboose: Caboose | str | None,
    deck: Iterable[Card] | str | None,
    rounds: int | None,
) -> dict[str, Any]:
    players = whole_number(players, "players")
    if isinstance(caboose, Caboose):
        caboose = caboose.name
    if deck is None:
        deck_text = ""
    else:
        cards = parse_deck(deck) if isinstance(deck, str) else tuple(deck)
        if not cards:
            raise RulesError("deck holds no card: give the cards, or None for the standard deck")
        deck_text = " ".join(str(card) for card in cards)
    if rounds is not None:
        rounds = whole_number(rounds, "rounds")
        if rounds < 1:
            raise RulesError(f"invalid rounds: {rounds!r} (a game has at least 1 round)")
    return {"players": players, "caboose": caboose or "", "deck": deck_text, "rounds": rounds or 0}


def raw_env(
    players: int = 3,
    *,
    caboose: Caboose | str | None = None,
    deck: Iterable[Card] | str | None = None,
    rounds: int | None = None,
    reward: str = "score",
    render_mode: str | None = None,
) -> CodecEnv:
    """The game as a PettingZoo ``AECEnv`` (PettingZoo's name for the environment before any
    wrapper; :func:`env` is the same): ``players`` 2 to 5, ``caboose`` (None, a caboose or its name, or
    ``"random"``), ``deck`` (None: the standard deck for the player count; cards or deck-file
    text), ``rounds`` (None: the rules' 9 − N), ``reward`` (``"score"`` or ``"win"``),
    ``render_mode`` (``"ansi"``, ``"human"`` or None)."""
    return _ENVIRONMENTS.aec(
        _params(players, caboose, deck, rounds), reward=reward, render_mode=render_mode
    )


env = raw_env
"""The game as a PettingZoo ``AECEnv``: :func:`raw_env` itself, which makes the checks
PettingZoo's games add by a wrapper (:class:`arena.pettingzoo.Environments` says why)."""


def gym_env(
    opponents: Sequence[str | Policy] = ("greedy", "greedy"),
    *,
    seat: int = 0,
    caboose: Caboose | str | None = None,
    deck: Iterable[Card] | str | None = None,
    rounds: int | None = None,
    reward: str = "score",
    illegal: str = "penalise",
    illegal_reward: float = -1.0,
    render_mode: str | None = None,
) -> SeatEnv:
    """One learning seat (``seat``) against ``opponents`` — bot names (:func:`express.bot`) or
    policies, in the order of the other seats — as a Gymnasium ``Env``: ``len(opponents) + 1``
    players. The observation is the codec's tensor, the legal actions ``action_masks()``;
    rewards, illegal actions and rendering as :class:`arena.pettingzoo.SeatEnv` says.

    >>> from gymnasium.utils.env_checker import check_env
    >>> check_env(gym_env(["greedy", "random"], caboose="random"), skip_render_check=True)
    """
    return _ENVIRONMENTS.seat(
        opponents,
        lambda players: _params(players, caboose, deck, rounds),
        seat=seat,
        reward=reward,
        illegal=illegal,
        illegal_reward=illegal_reward,
        render_mode=render_mode,
    )


def gym_vector_env(
    opponents: Sequence[str | Policy] = ("greedy", "greedy"),
    *,
    num_envs: int = 64,
    seat: int = 0,
    caboose: Caboose | str | None = None,
    deck: Iterable[Card] | str | None = None,
    rounds: int | None = None,
    reward: str = "score",
    illegal_reward: float = -1.0,
    chance: str = "seeded",
) -> SeatVectorEnv:
    """:func:`gym_env` in ``num_envs`` games at once, as a Gymnasium ``VectorEnv`` over the
    batched engine (:class:`arena.vector_env.SeatVectorEnv`: the same episodes as
    ``gymnasium.vector.SyncVectorEnv`` of :func:`gym_env`, for the same seeds; with
    ``chance="shared"`` faster, the same distributions but not those episodes:
    :data:`arena.vector_env.CHANCES`). The opponents
    are bots the engine plays (:mod:`express.batch`: ``random``, ``greedy``).

    >>> envs = gym_vector_env(["greedy", "random"], num_envs=8, caboose="random")
    >>> observations, info = envs.reset(seed=1)
    >>> observations.shape[0], info["action_mask"].shape
    (8, (8, 54))
    """
    return seat_vector_env(
        _ENVIRONMENTS,
        opponents,
        lambda players: _params(players, caboose, deck, rounds),
        num_envs=num_envs,
        seat=seat,
        reward=reward,
        illegal_reward=illegal_reward,
        chance=chance,
    )


_ENVIRONMENTS.register(f"{__name__}:gym_env", f"{__name__}:gym_vector_env")
