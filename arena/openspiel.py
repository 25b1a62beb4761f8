"""Any ``arena`` game as an OpenSpiel game: the generic adapter (the ``openspiel`` extra).

OpenSpiel speaks integers: actions and chance outcomes are ``int`` ids, chance probabilities
floats, observations strings and float tensors. An ``arena`` game speaks its own immutable
values. A game becomes a pyspiel game by describing that translation in a
:class:`arena.codec.Codec` (pyspiel-free, shared with :mod:`arena.pettingzoo`; re-exported
here) and calling :func:`register`; this module knows no game (``packing.openspiel`` and
``express.openspiel`` register the two games' codecs on import).

Every rule stays in the ``arena`` game: a pyspiel state here holds an ``arena`` state and
forwards each call to it, translating values on the way — there is no second copy of any rule.

- ``legal_actions()``: the game's legal actions (or chance outcomes) encoded, in ascending order.
- ``chance_outcomes()``: the game's exact probabilities as floats (summing to 1 within a float's
  rounding; each ``Fraction`` is rounded once).
- A chance node the codec deals in stages (:class:`arena.codec.ChanceStages`, such as Pack &
  Stack's roll as two nodes of dice) is that many chance nodes, each with its stage's ids; the
  ``arena`` state takes the composed outcome after the last. The stages dealt so far are part of the
  pyspiel state: its string, clone, serialization and observations carry them.
- ``observation_string``/``observation_tensor``: what the game's ``observation(player)`` carries,
  no more (the codec encodes that value, never the state).
- ``information_state_string``: for a perfect-information game the history of ids (as in
  OpenSpiel's own perfect-information games); for an imperfect-information game the codec's
  account of what the player has seen so far (perfect recall).
- ``resample_from_infostate(player, sampler)``: a state the player cannot tell from this one, by
  the codec's ``resample``; OpenSpiel's information-set MCTS samples its worlds this way.

Importing this module without the extra raises :class:`arena.MissingExtraError` naming it.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from arena.codec import ChanceStages, Codec, HiddenInformationCodec, Limits, Parameters
from arena.errors import ArenaError
from arena.extras import import_extra
from arena.memo import IdentityMemo
from arena.protocol import CHANCE, TERMINAL, Action, GameState
from arena.search_bots import MAX_SIMULATIONS, MIN_SIMULATIONS
from arena.values import whole_number

if TYPE_CHECKING:
    import pyspiel
else:
    pyspiel = import_extra("pyspiel", "openspiel")

__all__ = [
    "Codec",
    "HiddenInformationCodec",
    "Limits",
    "Observer",
    "OpenSpielGame",
    "OpenSpielState",
    "SearchPolicy",
    "arena_state",
    "register",
    "wrap",
]

_CODECS: dict[str, Codec] = {}


def register(codec: Codec) -> None:
    """Register ``codec``'s game with pyspiel under ``codec.short_name`` (idempotent)."""
    if codec.short_name in _CODECS:
        return
    _CODECS[codec.short_name] = codec
    pyspiel.register_game(_game_type(codec), _game_class(codec))


def _game_type(codec: Codec) -> Any:
    Info = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=codec.short_name,
        long_name=codec.long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=Info.PERFECT_INFORMATION
        if codec.perfect_information
        else Info.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=codec.max_players,
        min_num_players=codec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(codec.parameters),
    )


def _game_class(codec: Codec) -> type[OpenSpielGame]:
    # pyspiel builds a game by calling the registered class with the parameters only.
    return type(f"OpenSpiel_{codec.short_name}", (OpenSpielGame,), {"codec": codec})


class OpenSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A registered ``arena`` game as a pyspiel game; ``codec`` is set per registered game."""

    codec: Codec

    def __init__(self, params: Parameters | None = None) -> None:
        codec = self.codec
        merged = {**codec.parameters, **(params or {})}
        unknown = set(merged) - set(codec.parameters)
        if unknown:
            raise ArenaError(f"{codec.short_name}: unknown parameter {sorted(unknown)[0]!r}")
        self._initial = codec.new_state(merged)
        limits = codec.limits(merged)
        self.limits = limits
        info = pyspiel.GameInfo(
            num_distinct_actions=limits.num_distinct_actions,
            max_chance_outcomes=limits.max_chance_outcomes,
            num_players=self._initial.num_players,
            min_utility=float(limits.min_utility),
            max_utility=float(limits.max_utility),
            utility_sum=None,
            max_game_length=limits.max_game_length,
        )
        super().__init__(_game_type(codec), info, merged)
        self.params = merged

    def new_initial_state(self, state: GameState | None = None) -> OpenSpielState:
        """The initial state, or ``state`` (an ``arena`` state of this game) wrapped."""
        return OpenSpielState(self, self._initial.clone() if state is None else state)

    def max_chance_nodes_in_history(self) -> int:
        return self.limits.max_chance_nodes

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ArenaError(
                f"{self.codec.short_name}: observation parameters are not supported: {params!r}"
            )
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self, perfect_recall)


class OpenSpielState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state holding an ``arena`` state; every call forwards to it.

    A chance node the codec deals in stages (:meth:`arena.codec.Codec.chance_stages`) is that
    many chance nodes here: the ids of the stages dealt so far are kept beside the ``arena``
    state (which stays at its chance node) until the last one composes its outcome.
    """

    def __init__(self, game: OpenSpielGame, state: GameState) -> None:
        super().__init__(game)
        self.codec = game.codec
        self._inner = _Inner(state)

    @property
    def state(self) -> GameState:
        """The ``arena`` state this pyspiel state holds (at a staged chance node, the state
        before it: its outcome is applied once every stage is known)."""
        return self._inner.state

    @property
    def chance_so_far(self) -> tuple[int, ...]:
        """The ids of the stages of a staged chance node dealt so far (``()`` elsewhere)."""
        return self._inner.known

    def current_player(self) -> int:
        # arena's CHANCE and TERMINAL are OpenSpiel's ids (checked on import): no conversion in
        # a call pyspiel makes several times a step.
        return self._inner.state.current_player()

    def is_terminal(self) -> bool:
        return self._inner.state.is_terminal()

    def _stages(self) -> ChanceStages | None:
        """The stages the current node is dealt in, or None (a player's node, or one chance
        node)."""
        inner = self._inner
        if inner.known:  # within a staged node: its stages, kept since its first stage
            if inner.stages is None:  # unpickled
                inner.stages = self.codec.chance_stages(inner.state)
            return inner.stages
        codec, state = self.codec, inner.state
        if not (codec.staged_chance and state.is_chance_node()):
            return None
        outcomes = state.chance_outcomes()
        if codec.stable_chance_ids and isinstance(outcomes, tuple):
            return _node_of(codec, state, outcomes).stages
        return codec.chance_stages(state)

    def _legal_actions(self, player: int) -> list[int]:
        inner = self._inner
        if inner.state.is_chance_node():
            return [i for i, _ in self.chance_outcomes()]
        listed = inner.listed = self.codec.legal_ids(inner.state)
        return sorted(listed)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        # Every list handed out is a copy: the caller may change it.
        inner = self._inner
        if inner.known:
            stages = self._stages()
            assert stages is not None  # a staged node's stages, as long as ids are known
            return list(stages.floats[len(inner.known)])
        codec, state = self.codec, inner.state
        outcomes = state.chance_outcomes()
        if codec.stable_chance_ids and isinstance(outcomes, tuple):
            node = _node_of(codec, state, outcomes)
            if node.stages is None:
                inner.listed = node.by_id
                return list(node.encoded)
            inner.stages = node.stages
            return list(node.stages.floats[0])
        stages = inner.stages = codec.chance_stages(state) if codec.staged_chance else None
        if stages is not None:
            return list(stages.floats[0])
        encode = codec.encode
        ids = [encode(state, outcome) for outcome, _ in outcomes]
        inner.listed = dict(zip(ids, [outcome for outcome, _ in outcomes]))
        return sorted(zip(ids, _floats(outcomes)))

    def _apply_action(self, number: int) -> None:
        inner = self._inner
        listed = inner.listed
        if listed is not None:
            # The node's actions by id, as just listed (OpenSpiel lists, then applies): no
            # decoding, which would find the legal actions again.
            inner.listed = None
            action = listed.get(number, _NONE)
            if action is _NONE:
                raise ValueError(f"no legal action has id {number!r} here")
            inner.state.apply_action(action)
            return
        stages = inner.stages if inner.stages is not None else self._stages()
        if stages is not None:
            self._deal(stages, number)
            return
        codec, state = self.codec, inner.state
        if codec.stable_chance_ids and state.is_chance_node():
            outcomes = state.chance_outcomes()
            if isinstance(outcomes, tuple):
                outcome = _node_of(codec, state, outcomes).by_id.get(number, _NONE)
                if outcome is _NONE:
                    raise ValueError(f"no chance outcome has id {number!r} here")
                state.apply_action(outcome)
                return
        state.apply_action(codec.decode(state, int(number)))

    def _deal(self, stages: ChanceStages, number: int) -> None:
        """Deal the next stage of a staged chance node: its id is kept, and once every stage
        has one, their composed outcome is applied to the ``arena`` state."""
        inner = self._inner
        known = inner.known
        if number not in stages.ids[len(known)]:
            raise ValueError(f"no outcome of chance stage {len(known)} has id {number!r}")
        known = (*known, int(number))
        if len(known) < len(stages.outcomes):
            inner.known, inner.stages = known, stages
        else:
            inner.state.apply_action(stages.compose(known))
            inner.known, inner.stages = (), None

    def _action_to_string(self, player: int, number: int) -> str:
        stages = self._stages()
        if stages is not None:
            return stages.describe(len(self._inner.known), int(number))
        return self.state.action_to_string(self.codec.decode(self.state, int(number)))

    def returns(self) -> list[float]:
        if not self.state.is_terminal():
            return [0.0] * self.state.num_players
        return [float(points) for points in self.state.returns()]

    def resample_from_infostate(self, player: int, sampler: Callable[[], float]) -> OpenSpielState:
        seed = int(sampler() * 2**53)  # OpenSpiel hands over a uniform [0, 1) sampler
        world = self.codec.resample(self.state, player, np.random.default_rng(seed))
        return OpenSpielState(self.get_game(), world)

    def _known_text(self) -> str:
        """The staged chance node's stages dealt so far, as a line (``""`` when none are)."""
        known = self._inner.known
        stages = self._stages() if known else None
        if stages is None:
            return ""
        return "\nchance so far: " + ", ".join(stages.describe(k, i) for k, i in enumerate(known))

    def __str__(self) -> str:
        return str(self.state) + self._known_text()


if (CHANCE, TERMINAL) != (int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)):
    raise ImportError("arena's CHANCE and TERMINAL are no longer OpenSpiel's player ids")


class _Inner:
    """Holds a pyspiel state's ``arena`` state; within a staged chance node the ids of its
    stages dealt so far and the stages themselves; and the node's actions by id once listed
    (``listed``, until an action is applied: the ``arena`` state changes only through its
    pyspiel state). pyspiel clones a Python state with ``copy.deepcopy``; here that is the
    game's own ``clone()``, which shares what never changes (decks, records) instead of
    copying it. It serializes one by pickling: the state and the ids (the stages are found
    again from the state)."""

    __slots__ = ("known", "listed", "stages", "state")

    def __init__(
        self,
        state: GameState,
        known: tuple[int, ...] = (),
        stages: ChanceStages | None = None,
    ) -> None:
        self.state = state
        self.known = known
        self.stages = stages
        self.listed: Mapping[int, Action] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Inner:
        return _Inner(self.state.clone(), self.known, self.stages)

    def __getstate__(self) -> tuple[GameState, tuple[int, ...]]:
        return self.state, self.known

    def __setstate__(self, state: tuple[GameState, tuple[int, ...]]) -> None:
        self.state, self.known = state
        self.stages = self.listed = None


# Games hand out the same tuple of outcomes again and again (Pack & Stack's 900 rolls, the draws
# for each pile size): each tuple's floats are computed once, found again by the tuple's identity.
_FLOATS = IdentityMemo[tuple[tuple[Action, Any], ...], list[float]](limit=10_000)


def _float_list(outcomes: Sequence[tuple[Action, Any]]) -> list[float]:
    return [float(p) for _, p in outcomes]


def _floats(outcomes: Sequence[tuple[Action, Any]]) -> list[float]:
    """The outcomes' probabilities as floats, each rounded once (a tuple's kept; a list may
    change in place, so it is converted every time)."""
    if isinstance(outcomes, tuple):
        return _FLOATS.lookup(outcomes, _float_list)
    return _float_list(outcomes)


def _encoded(
    codec: Codec, state: GameState, outcomes: Sequence[tuple[Action, Any]]
) -> list[tuple[int, float]]:
    """A chance node's outcomes as (id, probability) pairs in ascending id order."""
    encode = codec.encode
    return sorted(zip([encode(state, outcome) for outcome, _ in outcomes], _floats(outcomes)))


class _ChanceNode:
    """A chance node of a codec with ``stable_chance_ids``, as its outcome tuple decides it: the
    stages it is dealt in (or None), else its (id, probability) pairs in ascending id order
    and its outcomes by id."""

    __slots__ = ("by_id", "encoded", "stages")

    def __init__(self, codec: Codec, state: GameState, outcomes: Sequence[tuple[Action, Any]]):
        self.stages = codec.chance_stages(state) if codec.staged_chance else None
        self.encoded: list[tuple[int, float]] = []
        self.by_id: dict[int, Action] = {}
        if self.stages is None:
            self.encoded = _encoded(codec, state, outcomes)
            self.by_id = {codec.encode(state, outcome): outcome for outcome, _ in outcomes}


# The chance nodes of codecs with ``stable_chance_ids``, by the outcome tuple's identity:
# encoding and sorting 900 rolls at every roll was most of the adapter's cost per state, and
# decoding an id is then one lookup.
_NODES = IdentityMemo[tuple[tuple[Action, Any], ...], _ChanceNode](limit=10_000)


def _node_of(
    codec: Codec, state: GameState, outcomes: tuple[tuple[Action, Any], ...]
) -> _ChanceNode:
    node = _NODES.get(outcomes)
    if node is None:
        node = _NODES.put(outcomes, _ChanceNode(codec, state, outcomes))
    return node


_NONE = object()


class Observer:
    """The py-observer OpenSpiel asks for (:meth:`OpenSpielGame.make_py_observer`): the codec's
    observation string and tensor, or the information-state string (perfect recall)."""

    def __init__(self, game: OpenSpielGame, perfect_recall: bool) -> None:
        self.codec = game.codec
        self.perfect_recall = perfect_recall
        size = 0 if perfect_recall else self.codec.tensor_size(game.params)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: OpenSpielState, player: int) -> None:
        self.tensor.fill(0)
        if not self.perfect_recall:
            observation = state.state.observation(player)
            self.codec.fill_tensor(observation, self.tensor)
            known = state._inner.known
            stages = state._stages() if known else None
            if stages is not None:
                self.codec.fill_staged_tensor(observation, stages, known, self.tensor)

    def string_from(self, state: OpenSpielState, player: int) -> str:
        if not self.perfect_recall:
            text = self.codec.observation_string(state.state.observation(player))
            return text + state._known_text()
        if isinstance(self.codec, HiddenInformationCodec):
            return self.codec.information_state_string(state.state, player)
        return state.history_str()  # type: ignore[no-any-return]


def arena_state(state: Any) -> GameState:
    """The ``arena`` state inside a pyspiel state of a registered game."""
    if not isinstance(state, OpenSpielState):
        raise TypeError(
            f"not a state of an arena game registered with OpenSpiel: {type(state).__name__}"
        )
    return state.state


def wrap(game: Any, state: GameState) -> OpenSpielState:
    """``state`` (an ``arena`` state of ``game``'s kind) as a pyspiel state of ``game``
    (its pyspiel history starts empty)."""
    if not isinstance(game, OpenSpielGame):
        raise TypeError(f"not an arena game registered with OpenSpiel: {type(game).__name__}")
    return game.new_initial_state(state)


def _load(codec: Codec, params: Mapping[str, int | float | bool | str]) -> OpenSpielGame:
    """The pyspiel game of ``codec`` with ``params``, built once per process."""
    key = (codec.short_name, tuple(sorted(params.items())))
    game = _GAMES.get(key)
    if game is None:
        register(codec)
        game = _GAMES[key] = pyspiel.load_game(codec.short_name, dict(params))
    return game


_GAMES: dict[tuple[str, tuple[tuple[str, Any], ...]], OpenSpielGame] = {}

SEARCHES = ("mcts", "ismcts")
"""OpenSpiel's search bots an :class:`SearchPolicy` runs."""


@dataclass(frozen=True)
class SearchPolicy:
    """An ``arena`` policy that asks one of OpenSpiel's search bots (``search``: ``"mcts"``,
    ``MCTSBot``, or ``"ismcts"``, ``ISMCTSBot``), each with random rollouts.

    An ``arena`` policy sees only its observation, so each decision starts from a state the
    codec builds from it (``state_from_observation``: hidden parts drawn from the players'
    generator — a determinisation for ``mcts``; ``ismcts`` then samples further worlds through
    ``resample_from_infostate`` at every simulation); ``simulations`` is at least
    :data:`arena.search_bots.MIN_SIMULATIONS` (2). The bot's choice comes back as the equal
    value among ``legal_actions``. OpenSpiel's Python bots are used: its C++ MCTS bot crashes
    (segmentation fault) on games written in Python, as of open_spiel 2.0.2.

    The policy holds only names and numbers, so it pickles; the pyspiel game is built in each
    process on first use.
    """

    codec: Codec
    search: str = "mcts"
    simulations: int = 100
    rollouts: int = 1
    uct_c: float = 2.0
    name: str = ""

    def __post_init__(self) -> None:
        if self.search not in SEARCHES:
            raise ArenaError(f"unknown search: {self.search!r} (use one of: {', '.join(SEARCHES)})")
        if self.search == "ismcts" and self.codec.perfect_information:
            raise ArenaError(
                f"ismcts needs a game of imperfect information; {self.codec.long_name} has perfect "
                "information (use mcts)"
            )
        for field, value, low, high in (
            ("simulations", self.simulations, MIN_SIMULATIONS, MAX_SIMULATIONS),
            ("rollouts", self.rollouts, 1, None),
        ):
            number = whole_number(value, field)
            if number < low:
                raise ArenaError(f"invalid {field}: {number!r} (a whole number ≥ {low})")
            if high is not None and number > high:
                raise ArenaError(f"invalid {field}: {number!r} (at most {high:,})")
            object.__setattr__(self, field, number)
        if not (
            isinstance(self.uct_c, numbers.Real)
            and not isinstance(self.uct_c, bool)
            and math.isfinite(self.uct_c)
            and self.uct_c >= 0
        ):
            raise ArenaError(f"invalid uct_c: {self.uct_c!r} (a finite number ≥ 0)")
        if not self.name:
            object.__setattr__(self, "name", self.search)

    def act(
        self, observation: Any, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        codec = self.codec
        game = _load(codec, codec.params_from_observation(observation))
        inner = codec.state_from_observation(observation, rng)
        state = wrap(game, inner)
        seed = int(rng.integers(2**31))
        number = self._bot(game, seed).step(state)
        chosen = codec.decode(inner, int(number))
        for action in legal_actions:
            if action == chosen:
                return action
        raise ArenaError(f"{self.name}: the search chose {chosen!s}, which is not legal here")

    def _bot(self, game: OpenSpielGame, seed: int) -> Any:
        from open_spiel.python.algorithms import ismcts, mcts

        random_state = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(self.rollouts, random_state)
        if self.search == "mcts":
            return mcts.MCTSBot(
                game, self.uct_c, self.simulations, evaluator, random_state=random_state
            )
        bot = ismcts.ISMCTSBot(
            game, evaluator, self.uct_c, self.simulations, random_state=random_state
        )
        # Its worlds are drawn from the bot's own seeded generator: OpenSpiel's default sampler
        # seeds itself from the clock, and the policy's choices would not replay.
        bot.set_resampler(
            lambda state, player: state.resample_from_infostate(player, random_state.uniform)
        )
        return bot
