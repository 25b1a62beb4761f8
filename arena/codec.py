"""A game's translation into integers and tensors: what every adapter reads (no extra needed).

Learning libraries speak integers and arrays: OpenSpiel (:mod:`arena.openspiel`), PettingZoo
and Gymnasium (:mod:`arena.pettingzoo`) number a game's actions ``0..n-1``, mask the legal ones
and read observations as fixed-length float tensors. An ``arena`` game speaks its own immutable
values. A :class:`Codec` is the translation, written once per game and shared by every
adapter: the parameters and their defaults, the limits derived from the rules, the action ↔
integer bijection, the observation tensor (its length, its bounds and how a game's observation
fills it), what a player has seen so far, and which chance nodes an adapter may deal in
stages (:class:`ChanceStages`).

Nothing here imports an optional extra, so a game's codec (``packing.codec``,
``express.codec``) works, and is tested, without pyspiel, pettingzoo or gymnasium installed.

>>> Limits(2, 6, 0.0, 10.0, 8, 8).num_distinct_actions
2
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, cast

import numpy as np

from arena.errors import ArenaError
from arena.protocol import Action, GameState

__all__ = ["ChanceStages", "Codec", "HiddenInformationCodec", "Limits", "Parameters", "elements"]

Parameters = Mapping[str, Any]
"""A game's parameters: name → int, float, bool or str (OpenSpiel's parameter types)."""


def elements(array: np.ndarray) -> Any:
    """A view of a contiguous one-dimensional ``array``'s elements for setting them one by one:
    item assignment through a ``memoryview`` costs a fraction of NumPy's own, which matters when
    a tensor is filled at every step of an environment. (Typed ``Any``: typeshed's
    ``memoryview`` knows only bytes.)

    >>> tensor = np.zeros(3, np.float32)
    >>> view = elements(tensor)
    >>> view[1] = 2.0
    >>> tensor.tolist()
    [0.0, 2.0, 0.0]
    """
    return memoryview(cast(Any, array))


@dataclass(frozen=True)
class Limits:
    """The numbers an adapter asks for (OpenSpiel's ``GameInfo``), derived by a codec from the
    rules.

    ``max_game_length`` counts the players' decisions only; ``max_chance_nodes`` the chance
    nodes of the longest game (OpenSpiel's ``MaxChanceNodesInHistory``).
    """

    num_distinct_actions: int
    max_chance_outcomes: int
    min_utility: float
    max_utility: float
    max_game_length: int
    max_chance_nodes: int


@dataclass(frozen=True)
class ChanceStages:
    """A chance node dealt out as a few smaller, independent chance nodes, one after another:
    the same chance, a cheaper tree to list and sample (Pack & Stack's roll of 900 distinct
    cargos is two nodes of dice, 25 and 36 outcomes). The OpenSpiel adapter deals a node so
    when its codec's :meth:`Codec.chance_stages` says so; the ``arena`` game itself keeps one
    node.

    ``outcomes[k]`` are stage ``k``'s outcomes, ``(id, exact probability)`` in ascending id
    order (summing to 1); once every stage has an id, ``compose(ids)`` is the node's outcome.
    The stages must be the node: for each of its outcomes, the products of the stage
    probabilities of the id sequences composing to it sum to its probability exactly.
    ``describe(k, id)`` is stage ``k``'s outcome as text.

    >>> coin = ((0, Fraction(1, 2)), (1, Fraction(1, 2)))
    >>> two = ChanceStages((coin, coin), compose=sum, describe=lambda k, i: f"coin {k}: {i}")
    >>> two.floats[1], two.describe(0, 1), two.compose((1, 0))
    ([(0, 0.5), (1, 0.5)], 'coin 0: 1', 1)
    """

    outcomes: tuple[tuple[tuple[int, Fraction], ...], ...]
    compose: Callable[[tuple[int, ...]], Action]
    describe: Callable[[int, int], str]
    floats: tuple[list[tuple[int, float]], ...] = field(init=False, repr=False, compare=False)
    """Each stage's outcomes with their probabilities as floats, each rounded once."""
    ids: tuple[frozenset[int], ...] = field(init=False, repr=False, compare=False)
    """Each stage's ids."""

    def __post_init__(self) -> None:
        for stage in self.outcomes:
            ids = [i for i, _ in stage]
            if ids != sorted(set(ids)) or sum(p for _, p in stage) != 1:
                raise ArenaError(
                    f"a chance stage needs ascending ids and probabilities summing to 1: {stage!r}"
                )
        object.__setattr__(
            self, "floats", tuple([(i, float(p)) for i, p in stage] for stage in self.outcomes)
        )
        object.__setattr__(
            self, "ids", tuple(frozenset(i for i, _ in stage) for stage in self.outcomes)
        )

    def ids_of(self, outcome: Action) -> tuple[int, ...]:
        """The stage ids that compose to ``outcome`` (one sequence: each outcome's must be
        unique), to replay an ``arena`` game's outcome through the stages; raises
        :class:`ValueError` for an outcome they never compose."""
        table: dict[Action, tuple[int, ...]] | None = self.__dict__.get("_ids_of")
        if table is None:
            table = {}
            for ids in itertools.product(*(sorted(stage) for stage in self.ids)):
                composed = self.compose(ids)
                if composed in table:
                    raise ArenaError(f"two sequences of stage ids compose to {composed!r}")
                table[composed] = ids
            object.__setattr__(self, "_ids_of", table)
        found = table.get(outcome)
        if found is None:
            raise ValueError(f"no stage ids compose to {outcome!r}")
        return found


class Codec(ABC):
    """What a game tells the adapters: its names, parameters and the value ↔ integer translation.

    Subclasses set the class attributes and implement the abstract methods; ``encode``/``decode``
    must be inverse bijections between the actions legal at a state (chance outcomes at a chance
    node) and integers in ``range(num_distinct_actions)`` (``range(max_chance_outcomes)``; a
    chance node dealt in stages, :meth:`chance_stages`, has its stages' ids there instead).
    """

    short_name: str
    long_name: str
    perfect_information = True
    """A game of imperfect information derives from :class:`HiddenInformationCodec`."""
    min_players: int
    max_players: int
    parameters: Mapping[str, int | float | bool | str]
    """The parameters and their defaults."""
    stable_chance_ids = False
    """True when the ids of a chance node's outcomes depend on its outcome tuple alone, whatever
    the state: a game that hands over the same tuple object again and again (Pack & Stack's 900
    rolls) then has it encoded once per tuple, not at every node (an adapter memoises by the
    tuple's identity). False, the default, encodes at every node."""
    staged_chance = False
    """True when some chance nodes are dealt in stages (:meth:`chance_stages`) by the adapters
    that take them (OpenSpiel). With :attr:`stable_chance_ids`, a node's stages too must
    depend on its outcome tuple alone (an adapter memoises them with its ids)."""

    # A codec holds no data of its own: any two of one class are the same translation, also
    # after a trip through pickle to another process.
    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(self.short_name)

    def merged(self, params: Parameters | None = None) -> dict[str, Any]:
        """``params`` over the defaults; raises :class:`arena.ArenaError` naming an unknown one."""
        merged = {**self.parameters, **(params or {})}
        unknown = set(merged) - set(self.parameters)
        if unknown:
            raise ArenaError(f"{self.short_name}: unknown parameter {sorted(unknown)[0]!r}")
        return merged

    @abstractmethod
    def new_state(self, params: Parameters) -> GameState:
        """The ``arena`` game's initial state for these parameters (raises on bad ones)."""

    @abstractmethod
    def limits(self, params: Parameters) -> Limits:
        """The game's limits for these parameters, derived from the rules."""

    @abstractmethod
    def encode(self, state: GameState, action: Action) -> int:
        """The id of ``action`` (a chance outcome at a chance node) legal at ``state``."""

    @abstractmethod
    def decode(self, state: GameState, number: int) -> Action:
        """The action (or chance outcome) with id ``number`` at ``state``; raises
        :class:`ValueError` when no legal one has that id."""

    def chance_stages(self, state: GameState) -> ChanceStages | None:
        """The stages the chance node ``state`` is dealt in (:class:`ChanceStages`), or None
        (the default) to deal it as one node. Asked only when :attr:`staged_chance` is true; a
        staged node's ids are its stages' ids, not ``encode``'s."""
        return None

    def fill_staged_tensor(
        self, observation: Any, stages: ChanceStages, known: tuple[int, ...], tensor: np.ndarray
    ) -> None:
        """Write the ids ``known`` so far of a staged chance node into ``tensor``, already
        filled from ``observation`` (the observation of the state before the node), so that
        an observation's tensor tells the stages apart. A codec that stages chance
        (:attr:`staged_chance`) implements it; this default refuses, naming the codec."""
        raise ArenaError(f"{self.short_name}: a codec that stages chance writes its stages' tensor")

    def legal_mask(self, state: GameState, size: int) -> np.ndarray:
        """The legal actions at ``state`` (a player's node) as an int8 mask of length ``size``
        (``num_distinct_actions``): 1 at the id of every legal action."""
        mask = np.zeros(size, np.int8)
        encode = self.encode
        m = elements(mask)
        for action in state.legal_actions():
            m[encode(state, action)] = 1
        return mask

    def legal_ids(self, state: GameState) -> dict[int, Action]:
        """The legal actions at ``state`` (a player's node) by their ids: an adapter finds them
        once per node for both the mask and the decoding of the chosen id."""
        encode = self.encode
        return {encode(state, action): action for action in state.legal_actions()}

    def tensor_writer(self, params: Parameters) -> Callable[[Any], np.ndarray]:
        """A function from observations to their tensors (fresh float32 arrays, equal to
        :meth:`fill_tensor` on a zeroed one), for an adapter that asks for one at every step.
        The default fills a new tensor from scratch each time; a game whose successive
        observations differ in a few places may return one that keeps the last tensor and
        rewrites only what changed (Pack & Stack)."""
        size, fill = self.tensor_size(params), self.fill_tensor

        def write(observation: Any) -> np.ndarray:
            tensor = np.zeros(size, np.float32)
            fill(observation, tensor)
            return tensor

        return write

    @abstractmethod
    def tensor_size(self, params: Parameters) -> int:
        """The length of the observation tensor."""

    @abstractmethod
    def fill_tensor(self, observation: Any, tensor: np.ndarray) -> None:
        """Write ``observation`` (a value of the game's ``observation(player)``) into ``tensor``
        (float32, zeroed, of length ``tensor_size``)."""

    def tensor_bounds(self, params: Parameters) -> tuple[np.ndarray, np.ndarray]:
        """The lowest and highest value of each element of the observation tensor (float32
        arrays of length ``tensor_size``): a learning library's observation space. The default
        is unbounded; a game derives true bounds from its rules."""
        size = self.tensor_size(params)
        return np.full(size, -np.inf, np.float32), np.full(size, np.inf, np.float32)

    def observation_string(self, observation: Any) -> str:
        """The observation as text (default: its ``str``)."""
        return str(observation)

    def standing(self, state: GameState) -> Sequence[float]:
        """Each player's score so far: what a per-step reward is the change of. The default is
        the protocol's ``returns()``, all zeros until the end (a game scored only at the end);
        a game with a running score (Pack & Stack's points) says so."""
        return state.returns()

    def truncated(self, state: GameState) -> bool:
        """True when the terminal ``state`` was ended by a length cap (a parameter of the
        adapter, such as a round limit) rather than by the rules: a learner then should not
        treat it as a true end. Default: never."""
        return False

    def resample(self, state: GameState, player: int, rng: np.random.Generator) -> GameState:
        """A state ``player`` cannot tell from ``state``. A perfect-information game hides
        nothing, so it is a copy (:class:`HiddenInformationCodec` draws what is hidden)."""
        return state.clone()

    @abstractmethod
    def params_from_observation(self, observation: Any) -> dict[str, int | float | bool | str]:
        """The parameters of the game ``observation`` was made in (players, deck, …): a policy
        plays in the game its observations come from."""

    @abstractmethod
    def state_from_observation(self, observation: Any, rng: np.random.Generator) -> GameState:
        """A state whose ``observation(player)`` equals ``observation`` (its player's), hidden
        parts drawn by ``rng``: how an ``arena`` policy, which sees only its observation, gets a
        state for a search."""


class HiddenInformationCodec(Codec):
    """The codec of a game of imperfect information: it also says what a player has seen so far
    and draws the worlds the player cannot tell apart."""

    perfect_information = False

    @abstractmethod
    def information_state_string(self, state: GameState, player: int) -> str:
        """What ``player`` has seen so far (perfect recall), nothing it cannot see."""

    @abstractmethod
    def resample(self, state: GameState, player: int, rng: np.random.Generator) -> GameState:
        """A state ``player`` cannot tell from ``state`` (same observation and information
        state), with what the player cannot see drawn by ``rng``."""
