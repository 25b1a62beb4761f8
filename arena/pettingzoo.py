"""Any ``arena`` game with a codec as a PettingZoo environment, and one seat of it as a Gymnasium
environment (the ``rl`` extra).

:class:`CodecEnv` is a PettingZoo ``AECEnv`` (turn-based, one agent acting at a time) over an
``arena`` game and its :class:`arena.codec.Codec`; :class:`SeatEnv` is a Gymnasium ``Env`` in
which one learning seat plays the game against ``arena`` policies. Every rule stays in the
``arena`` game: the environments hold its state and translate through the codec — the same
translation OpenSpiel's adapter uses (:mod:`arena.openspiel`).

- **Agents** are ``player_0 .. player_{n-1}``, the game's seats.
- **Observations** (``CodecEnv``): a dict of ``"observation"``, the codec's float32 tensor of
  what the game's ``observation(player)`` carries — only what that player may know — in a
  ``gymnasium.spaces.Box`` bounded by the codec's ``tensor_bounds``, and ``"action_mask"``,
  int8, 1 at every legal action of the agent to act (all 0 for the others and at the end).
  ``SeatEnv`` observes the tensor alone and gives the mask by ``action_masks()`` (and in
  ``info["action_mask"]``), the form masked learners (sb3-contrib's ``MaskablePPO``) read.
- **Actions** are the codec's ids, ``Discrete(num_distinct_actions)``.
- **Chance** is sampled inside the environment, exactly (the draws of
  :func:`arena.sample_outcome`, through :func:`arena.outcome_drawer`), from
  the generator ``reset(seed=...)`` seeds: equal seeds give equal episodes. ``reset()`` without
  a seed goes on with the generator (a fresh one the first time).
- **Rewards.** ``reward="score"`` (the default): at each step every agent is rewarded the change
  of its score so far (the codec's ``standing``), so an agent's rewards over an episode sum to
  its final score less its score at the start — Pack & Stack's points (final points − start
  points), Yardmaster Express's score (its whole final score at the last step: a train is
  scored only at the end). ``reward="win"``: nothing until the end, then each winner its share
  of the win (1 / number of winners; the rules' shared wins and tie-breaks, ``winners()``), the
  others 0.
- **The end.** When the game ends every agent is terminated, or truncated instead when a length
  cap of the parameters ended it (the codec's ``truncated``: Pack & Stack's round cap).
- **Illegal actions.** ``CodecEnv.step`` raises :class:`arena.ArenaError` naming the id (an
  agent that reads its mask never sends one). ``SeatEnv`` by default ends the episode with
  the reward ``illegal_reward`` (−1) and ``info["illegal_action"]``, the state unchanged —
  unmasked learners and Gymnasium's own checker send random ids — or raises with
  ``illegal="raise"``.
- **Rendering.** ``render_mode="ansi"``: ``render()`` returns the game's text (the game supplies
  it: the text its ``play`` command prints); ``"human"`` prints it.

Importing this module without the extra raises :class:`arena.MissingExtraError` naming it.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from arena.codec import Codec, Parameters
from arena.errors import ArenaError
from arena.extras import import_extra
from arena.protocol import CHANCE, TERMINAL, GameState, Policy, show_seating
from arena.sampling import outcome_drawer, sample_outcome
from arena.values import whole_number

if TYPE_CHECKING:
    import gymnasium
    import pettingzoo
    from gymnasium import spaces
    from pettingzoo.utils.env_logger import EnvLogger

else:
    gymnasium = import_extra("gymnasium", "rl")
    pettingzoo = import_extra("pettingzoo", "rl")
    EnvLogger = import_extra("pettingzoo.utils.env_logger", "rl").EnvLogger
    spaces = import_extra("gymnasium.spaces", "rl")

__all__ = [
    "REWARDS",
    "CodecEnv",
    "Environments",
    "RenderText",
    "SeatEnv",
    "agent_name",
    "check_reward",
    "check_seat",
    "opponent_policies",
]

REWARDS = ("score", "win")
"""The reward schemes (module docstring)."""

RENDER_MODES = ["ansi", "human"]

RenderText = Callable[[Any, Sequence[str], "int | None"], str]
"""A game's text of a state: ``(state, seat names, the episode's seed or None) -> str`` (each
game's ``play_text``, which takes that game's state)."""


def agent_name(seat: int) -> str:
    """The PettingZoo agent of ``seat``: ``player_0``, ``player_1``, ...

    >>> agent_name(2)
    'player_2'
    """
    return f"player_{seat}"


def opponent_policies(
    opponents: Sequence[str | Policy],
    bot: Callable[[str], Policy],
    error: Callable[[str], Exception],
) -> list[Policy]:
    """The policies of a one-seat environment's ``opponents``: each a bot name (``bot`` makes
    it, the game's ``bot``) or a policy; anything else is the game's ``error``."""
    if isinstance(opponents, str):
        raise error(f"opponents is a list of bot names, not the string {opponents!r}")
    policies = []
    for opponent in opponents:
        if isinstance(opponent, str):
            policies.append(bot(opponent))
        elif callable(getattr(opponent, "act", None)):
            policies.append(opponent)
        else:
            raise error(f"an opponent is a bot name or a policy, not {opponent!r}")
    return policies


class Environments:
    """A game's two environments, made from its codec: what each game's ``pettingzoo`` module
    shares, so the module keeps only its parameters and their docs.

    ``name`` is the PettingZoo name (``…_v0``), ``gym_id`` the Gymnasium id, ``play_text`` the
    game's text of a state, ``bot`` makes an opponent from a bot name and ``error`` is the
    game's error class for a bad opponent. A game's ``raw_env(...)`` is
    ``environments.aec(params, ...)`` and its ``gym_env(...)`` is
    ``environments.seat(opponents, params_for, ...)``; ``env`` is ``raw_env`` itself:
    PettingZoo's own games wrap the raw environment in checks, and :class:`CodecEnv` makes them
    itself (the wrapper forwards every attribute through Python and cost about a third of a
    random agent's step: ``python -m benchmarks envs``).
    """

    def __init__(
        self,
        codec: Codec,
        *,
        name: str,
        gym_id: str,
        play_text: RenderText,
        bot: Callable[[str], Policy],
        error: Callable[[str], Exception],
    ) -> None:
        self.codec = codec
        self.name = name
        self.gym_id = gym_id
        self.play_text = play_text
        self.bot = bot
        self.error = error

    def aec(self, params: Parameters, *, reward: str, render_mode: str | None) -> CodecEnv:
        """The PettingZoo environment of the game ``params`` describes."""
        return CodecEnv(
            self.codec,
            params,
            name=self.name,
            render_text=self.play_text,
            render_mode=render_mode,
            reward=reward,
        )

    def seat(
        self,
        opponents: Sequence[str | Policy],
        params_for: Callable[[int], Parameters],
        *,
        seat: int,
        reward: str,
        illegal: str,
        illegal_reward: float,
        render_mode: str | None,
    ) -> SeatEnv:
        """The Gymnasium environment of one seat against ``opponents`` (bot names or policies),
        in the game ``params_for(players)`` describes for their number plus the learner."""
        policies = opponent_policies(opponents, self.bot, self.error)
        return SeatEnv(
            self.codec,
            params_for(len(policies) + 1),
            opponents=policies,
            seat=seat,
            render_text=self.play_text,
            render_mode=render_mode,
            reward=reward,
            illegal=illegal,
            illegal_reward=illegal_reward,
        )

    def register(self, entry_point: str, vector_entry_point: str | None = None) -> None:
        """Register ``gym_id`` with Gymnasium (``gymnasium.make(gym_id, ...)``, and with
        ``vector_entry_point`` ``gymnasium.make_vec(gym_id, num_envs=N,
        vectorization_mode="vector_entry_point", ...)``), once per process: importing the
        game's module again (a reload) must not warn that the id is overridden."""
        if self.gym_id not in gymnasium.registry:
            gymnasium.register(
                id=self.gym_id, entry_point=entry_point, vector_entry_point=vector_entry_point
            )


def check_seat(
    players: int, opponents: Sequence[object], seat: object, illegal_reward: object
) -> tuple[int, float]:
    """A single-seat environment's ``seat`` and ``illegal_reward``, checked against the game's
    ``players`` and the ``opponents`` given (one per other seat), or an :class:`ArenaError`
    quoting the bad one (both the single environment and the vector one take them)."""
    if len(opponents) != players - 1:
        raise ArenaError(f"{len(opponents)} opponents for {players} players (need {players - 1})")
    chosen = whole_number(seat, "seat")
    if not 0 <= chosen < players:
        raise ArenaError(f"invalid seat: {seat!r} (0..{players - 1})")
    if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, (int, float)):
        raise ArenaError(f"invalid illegal_reward: {illegal_reward!r} (a finite number)")
    if not math.isfinite(illegal_reward):
        raise ArenaError(f"invalid illegal_reward: {illegal_reward!r} (a finite number)")
    return chosen, float(illegal_reward)


def _check_seed(seed: Any) -> int | None:
    """``reset``'s seed: None or a whole number ≥ 0 (NumPy's own message names no argument)."""
    if seed is None:
        return None
    number = _action_id(seed)
    if number is None or number < 0:
        raise ArenaError(f"invalid seed: {seed!r} (None or a whole number ≥ 0)")
    return number


def check_reward(reward: str) -> str:
    """``reward`` when it is one of :data:`REWARDS`, else an :class:`ArenaError` quoting it
    (every environment, single or vector, takes it)."""
    if reward not in REWARDS:
        raise ArenaError(f"unknown reward: {reward!r} (use one of: {', '.join(REWARDS)})")
    return reward


def _check_render_mode(render_mode: str | None) -> str | None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ArenaError(
            f"unknown render_mode: {render_mode!r} (use one of: {', '.join(RENDER_MODES)}, or None)"
        )
    return render_mode


class _Translation:
    """What both environments read from a codec for one set of parameters: the initial state,
    the spaces' shapes and bounds, and the per-step work (chance, tensors, masks, rewards)."""

    def __init__(self, codec: Codec, params: Parameters | None, reward: str) -> None:
        self.codec = codec
        self.params = codec.merged(params)
        self.initial = codec.new_state(self.params)  # raises on bad parameters
        self.reward = check_reward(reward)
        self.players = self.initial.num_players
        self.actions = codec.limits(self.params).num_distinct_actions
        self.low, self.high = codec.tensor_bounds(self.params)
        self.size = len(self.low)
        self.no_wins = (0.0,) * self.players
        # One writer per environment: it may keep the last tensor it wrote (the codec's
        # tensor_writer), so environments must not share one.
        self.write = codec.tensor_writer(self.params)
        # What a step calls for the standing, chosen once: the score's is the codec's own.
        self.standing = self._wins if self.reward == "win" else codec.standing

    def __getstate__(self) -> dict[str, Any]:
        # The writer and the standing are remade: a writer may hold views of its last tensor,
        # which do not pickle, and a fresh one writes the same tensors.
        return {key: value for key, value in vars(self).items() if key not in ("write", "standing")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        vars(self).update(state)
        self.write = self.codec.tensor_writer(self.params)
        self.standing = self._wins if self.reward == "win" else self.codec.standing

    def box(self) -> spaces.Box:
        return spaces.Box(self.low, self.high, dtype=np.float32)

    def tensor(self, state: GameState, player: int) -> np.ndarray:
        return self.write(state.observation(player))

    def mask(self, state: GameState, player: int) -> np.ndarray:
        if state.current_player() != player:
            return np.zeros(self.actions, np.int8)
        return self.codec.legal_mask(state, self.actions)

    standing: Callable[[GameState], Sequence[float]]
    """Each player's score so far under the reward scheme. The same object while nothing
    changes (a game hands over its unchanged scores), which a step checks first."""

    def _wins(self, state: GameState) -> Sequence[float]:
        if not state.is_terminal():
            return self.no_wins
        winners = state.winners()
        return [1 / len(winners) if p in winners else 0.0 for p in range(self.players)]

    def decode(self, state: GameState, number: Any) -> Any:
        """The legal action with id ``number``, or :class:`arena.ArenaError` naming it."""
        try:
            action_id = _action_id(number)
            if action_id is None:
                raise TypeError("an action is an integer id")
            number = action_id
            if not 0 <= number < self.actions:
                raise ValueError(f"ids are 0..{self.actions - 1}")
            return self.codec.decode(state, number)
        except (TypeError, ValueError, IndexError) as error:
            raise ArenaError(f"illegal action {number!r}: {error}") from None


_NONE: Any = object()


def _action_id(action: Any) -> int | None:
    """``action`` as an action id, or None when it is not one: an integer (NumPy's and 0-d
    integer arrays included), never a bool, a float, a string or bytes — truncating ``10.7``
    or reading ``"10"`` would play an action nobody chose."""
    if isinstance(action, (bool, np.bool_)):
        return None
    try:
        return operator.index(action)
    except TypeError:
        return None


class _Node:
    """A player's node's legal actions by id and its action mask's bytes."""

    __slots__ = ("ids", "flags")

    def __init__(self, ids: dict[int, Any], size: int) -> None:
        self.ids = ids
        flags = bytearray(size)  # bytes set one by one cost less than NumPy's item assignment
        for number in ids:
            flags[number] = 1
        self.flags = bytes(flags)

    def mask(self) -> np.ndarray:
        """The action mask, int8: a fresh array each time (its holder may change it)."""
        return np.frombuffer(bytearray(self.flags), np.int8)


class CodecEnv(pettingzoo.AECEnv):  # type: ignore[misc]
    """An ``arena`` game as a PettingZoo ``AECEnv`` (module docstring: agents, observations,
    chance, rewards, illegal actions, rendering).

    ``codec`` and ``params`` (over the codec's defaults) make the game; ``name`` is the
    environment's name in ``metadata`` (PettingZoo's version suffix included, ``…_v0``);
    ``render_text`` the game's text of a state. ``state`` is the ``arena`` state (read it, do
    not change it). ``step``, ``observe`` (so ``last``) and ``render`` before the first
    ``reset`` raise :class:`arena.ArenaError`: the order PettingZoo's ``OrderEnforcingWrapper``
    enforces, without the wrapper's cost.
    """

    metadata: dict[str, Any] = {
        "render_modes": RENDER_MODES,
        "name": "arena_codec_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        codec: Codec,
        params: Parameters | None = None,
        *,
        name: str,
        render_text: RenderText,
        render_mode: str | None = None,
        reward: str = "score",
    ) -> None:
        super().__init__()
        self._t = _Translation(codec, params, reward)
        self.metadata = {**type(self).metadata, "name": name}
        self.render_mode = _check_render_mode(render_mode)
        self._render_text = render_text
        self.possible_agents = [agent_name(p) for p in range(self._t.players)]
        self._seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        # One space object per agent, each returned every time (PettingZoo's API asks for the
        # same object; separate ones so seeding one agent's sampling leaves the others').
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": self._t.box(),
                    "action_mask": spaces.Box(0, 1, (self._t.actions,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self._t.actions) for agent in self.possible_agents
        }
        self._draw: Callable[[Any], Any] | None = None  # chance, from reset()'s generator
        self._seed: int | None = None
        self.state: GameState = self._t.initial.clone()
        self.agents: list[str] = []
        self._reset = False
        self._node: _Node | None = None

    def _check_reset(self, call: str) -> None:
        # The order PettingZoo's OrderEnforcingWrapper checks, checked here: that wrapper's
        # attribute forwarding cost about a third of a random agent's step.
        if not self._reset:
            raise ArenaError(f"{call} before reset(): call reset() first")

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """``agent``'s observation space: a dict of the tensor's Box and the int8 mask."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``agent``'s action space: the codec's ids, ``Discrete(num_distinct_actions)``."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` seeds chance (None: go on with the generator there is)."""
        seed = _check_seed(seed)
        if seed is not None or self._draw is None:
            self._draw = outcome_drawer(np.random.default_rng(seed))
        assert self._draw is not None
        self._seed = seed
        state = self.state = self._t.initial.clone()
        while state.current_player() == CHANCE:
            state.apply_action(self._draw(state.chance_outcomes()))
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._standing = self._t.standing(self.state)
        self._zero_rewards = True
        self._node = None
        self._reset = True
        self._select()

    def _select(self) -> None:
        player = self.state.current_player()
        if player == TERMINAL:
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation: its tensor and its action mask."""
        if not self._reset:
            self._check_reset("observe()")
        player, state = self._seat[agent], self.state
        if state.current_player() == player:
            mask = (self._node or self._current()).mask()
        else:
            mask = np.zeros(self._t.actions, np.int8)
        return {"observation": self._t.write(state.observation(player)), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The agent to act's observation (when ``observe``), cumulative reward, termination,
        truncation and info; once every agent is gone, a warning and the final agent's empty
        view (what ``step`` after the end does too)."""
        self._check_reset("last()")
        agent = self.agent_selection
        if agent not in self.terminations:
            EnvLogger.warn_step_after_terminated_truncated()
            return (self.observe(agent) if observe else None), 0.0, True, False, {}
        return super().last(observe)  # type: ignore[no-any-return]

    def _current(self) -> _Node:
        """The node the agent to act is at: its legal ids, found once however often it is
        observed and stepped (the state changes only in ``step`` and ``reset``)."""
        if self._node is None:
            self._node = _Node(self._t.codec.legal_ids(self.state), self._t.actions)
        return self._node

    def step(self, action: Any) -> None:
        """The agent to act plays the action with id ``action`` (``None`` once it is done);
        chance then runs until the next agent's turn or the end."""
        if not self._reset:
            self._check_reset("step()")
        if not self.agents:  # as PettingZoo's OrderEnforcingWrapper: a warning, nothing played
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        draw = self._draw
        assert draw is not None  # reset() comes first (PettingZoo's order)
        number = _action_id(action)
        chosen = _NONE if number is None else (self._node or self._current()).ids.get(number, _NONE)
        if chosen is _NONE:  # not a legal id: decode says why (and raises)
            chosen = self._t.decode(self.state, action)
        self._cumulative_rewards[agent] = 0.0
        state = self.state
        state.apply_action(chosen)
        self._node = None
        player = state.current_player()
        while player == CHANCE:
            state.apply_action(draw(state.chance_outcomes()))
            player = state.current_player()
        standing = self._t.standing(state)
        if standing is self._standing:  # unchanged (the same scores), as at most steps
            if not self._zero_rewards:
                for other in self.possible_agents:
                    self.rewards[other] = 0.0
                self._zero_rewards = True
        else:
            for p, other in enumerate(self.possible_agents):
                self.rewards[other] = float(standing[p] - self._standing[p])
            self._standing = standing
            self._zero_rewards = False
        if player == TERMINAL:
            done = self.truncations if self._t.codec.truncated(state) else self.terminations
            for other in self.agents:
                done[other] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[player]
        if not self._zero_rewards:  # adding zeros to the cumulative rewards changes nothing
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The game's text (``"ansi"``: returned; ``"human"``: printed)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (use 'ansi' or 'human')")
            return None
        self._check_reset("render()")
        text = self._render_text(self.state, self.possible_agents, self._seed)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release (the environment holds only the game's state)."""


class _Learner:
    """The learning seat in a game that takes its seating
    (:class:`arena.protocol.SeatsPolicies`): it brings nothing but decisions (Pack & Stack
    then loads its trucks optimally)."""

    name = "learner"


class SeatEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One seat of an ``arena`` game as a Gymnasium environment: the learner plays ``seat``,
    ``opponents`` (``arena`` policies, in seat order) play the others (module docstring:
    observations, chance, rewards, illegal actions, rendering).

    The opponents draw from their own generator, seeded from ``reset(seed=...)`` too, so equal
    seeds give equal episodes for the same actions.
    """

    # Text has no frame rate; Gymnasium's checker asks for one with "human" rendering.
    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 1}

    def __init__(
        self,
        codec: Codec,
        params: Parameters | None,
        *,
        opponents: Sequence[Policy],
        seat: int = 0,
        render_text: RenderText,
        render_mode: str | None = None,
        reward: str = "score",
        illegal: str = "penalise",
        illegal_reward: float = -1.0,
    ) -> None:
        self._t = _Translation(codec, params, reward)
        self.seat, self.illegal_reward = check_seat(
            self._t.players, opponents, seat, illegal_reward
        )
        if illegal not in ("penalise", "raise"):
            raise ArenaError(f"unknown illegal: {illegal!r} (use 'penalise' or 'raise')")
        self.illegal = illegal
        self.render_mode = _check_render_mode(render_mode)
        self._render_text = render_text
        self._policies: list[Any] = list(opponents)
        self._policies.insert(seat, _Learner())
        self.observation_space = self._t.box()
        self.action_space = spaces.Discrete(self._t.actions)
        self.state: GameState = self._t.initial.clone()
        self._opponent_rng: np.random.Generator | None = None
        self._seed: int | None = None
        self._over = True
        self._check_opponents()

    def _check_opponents(self) -> None:
        """Each opponent makes a first decision in a game of this one's, or is refused now: a
        policy of another game would otherwise fail at the first step, far from its cause."""
        state = self._t.initial.clone()
        show_seating(state, self._policies)
        rng = np.random.default_rng(0)
        waiting = set(range(self._t.players)) - {self.seat}
        while waiting and not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
                continue
            legal = state.legal_actions()
            if player == self.seat:
                state.apply_action(legal[0])
                continue
            policy = self._policies[player]
            try:
                action = policy.act(state.observation(player), legal, rng)
            except Exception as error:  # whatever it is, the policy cannot play this game
                raise ArenaError(
                    f"opponent {policy!r:.60} cannot play this game: {type(error).__name__}: "
                    f"{error}"
                ) from None
            if action not in legal:
                raise ArenaError(
                    f"opponent {policy!r:.60} chose {action!r:.60}, not a legal action of this game"
                )
            waiting.discard(player)
            state.apply_action(action)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game, played up to the learner's first turn; ``seed`` seeds chance and the
        opponents (None: go on with the generators there are)."""
        seed = _check_seed(seed)
        super().reset(seed=seed)
        if seed is not None or self._opponent_rng is None:
            self._opponent_rng = np.random.default_rng(int(self.np_random.integers(2**63)))
        self._seed = seed
        self.state = self._t.initial.clone()
        show_seating(self.state, self._policies)
        self._over = False
        self._standing = float(self._t.standing(self.state)[self.seat])
        self._advance()
        return self._observe(), self._info()

    def _advance(self) -> None:
        """Chance and the opponents until the learner's turn or the end."""
        state, rng = self.state, self.np_random
        assert self._opponent_rng is not None
        while True:
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            elif player == TERMINAL or player == self.seat:
                return
            else:
                legal = state.legal_actions()
                policy = self._policies[player]
                state.apply_action(policy.act(state.observation(player), legal, self._opponent_rng))

    def _observe(self) -> np.ndarray:
        return self._t.tensor(self.state, self.seat)

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as booleans over the ids (all False at the end)."""
        return self._t.mask(self.state, self.seat).astype(bool)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._t.mask(self.state, self.seat)}

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The learner plays the action with id ``action``; the game runs to its next turn."""
        if self._over:
            raise ArenaError("step() after the episode ended: call reset()")
        mask = self._t.mask(self.state, self.seat)
        number = _action_id(action)
        if number is None or not (0 <= number < len(mask) and mask[number]):
            if self.illegal == "raise":
                legal = np.flatnonzero(mask).tolist()
                raise ArenaError(f"illegal action {action!r} (legal now: {legal})")
            self._over = True
            info = self._info() | {"illegal_action": action}
            return self._observe(), self.illegal_reward, True, False, info
        self.state.apply_action(self._t.decode(self.state, number))
        self._advance()
        standing = float(self._t.standing(self.state)[self.seat])
        reward, self._standing = standing - self._standing, standing
        terminated = truncated = False
        if self.state.is_terminal():
            self._over = True
            if self._t.codec.truncated(self.state):
                truncated = True
            else:
                terminated = True
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, terminated, truncated, self._info()

    def render(self) -> str | None:
        """The game's text (``"ansi"``: returned; ``"human"``: printed)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (use 'ansi' or 'human')")
            return None
        names = [agent_name(p) if p != self.seat else "learner" for p in range(self._t.players)]
        text = self._render_text(self.state, names, self._seed)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None
