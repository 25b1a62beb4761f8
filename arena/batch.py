"""Batched engines: many games of one setup held as NumPy arrays and stepped together.

A game's scalar state (:class:`arena.GameState`) plays one game, asking a policy object at
every decision; that costs tens of microseconds of Python per decision. A *batched engine*
plays thousands of games of the same setup at once, each array operation serving every game,
with *vector policies*: the bots whose choice is a formula of arrays (Pack & Stack's
``random``, ``capacity``, ``optimal``, ``bonus-aware``; Express's ``random``, ``greedy``).

A game state offers its engine through a ``batch_engine()`` method (:func:`engine_for` asks
it); the engine says which policies it can play (:meth:`BatchEngine.vector_policy`) and plays
a batch (:meth:`BatchEngine.play`). Games that share a *deal* share its chance (the same rolls,
draws and shuffles, as far as their own decisions ask the same questions), so duplicate-deal
tournaments keep cancelling luck. The engines use the same rules modules as the scalar games,
and their tests prove them exact: given the same chance outcomes a batched game and a scalar
game record the same rounds, points and winners.

The chance of a batch comes from one generator, so a batched game is not the game
:func:`arena.play` gives for the same seed: the two engines agree in distribution (tested),
and each is reproducible from its own seed.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol, overload, runtime_checkable

import numpy as np
import numpy.typing as npt

from arena.play import seat_streams
from arena.protocol import Policy

__all__ = [
    "ENGINES",
    "Batch",
    "BatchEngine",
    "BatchResult",
    "GeneratorIntegers",
    "RawWords",
    "SharedChance",
    "Streams",
    "VectorPolicy",
    "engine_for",
    "seeded",
]

#: The engines a tournament can be asked for: ``auto`` (batched when every seat's bot can be
#: batched, else scalar), ``scalar`` (:func:`arena.play`, one game at a time), ``batched``.
ENGINES: tuple[str, ...] = ("auto", "scalar", "batched")


@runtime_checkable
class VectorPolicy(Protocol):
    """A bot as a batched engine plays it (each engine makes its own; they are values that
    pickle): its ``name``, and ``act``, its choice in the games of a batch."""

    @property
    def name(self) -> str:
        """The bot's name."""
        ...

    def act(self, batch: Any, where: npt.NDArray[np.bool_]) -> npt.NDArray[np.intp]:
        """The action id the bot chooses in each game ``g`` of ``batch`` with ``where[g]``, for
        the player to act there, in the order of those games."""
        ...


class RawWords(Protocol):
    """A generator's raw 64-bit words, as its bit generator's ``random_raw`` gives them (that
    bound method is one): ``words()`` the next word, ``words(k)`` the next ``k`` as an array.
    A batch takes a block of words in one call where it knows how many it needs."""

    @overload
    def __call__(self) -> int: ...

    @overload
    def __call__(self, size: int) -> npt.NDArray[np.uint64]: ...


@dataclass(frozen=True, eq=False)
class Streams:
    """Per-game randomness that draws exactly what a scalar game draws: ``chance[g]`` gives
    game ``g``'s raw 64-bit words (chance samples from them, as
    :class:`arena.sampling.Sampler` does), ``policy[g]`` is the generator its policies draw
    from. A batch made with them plays game ``g`` as the scalar game with these streams.

    The batch takes the streams over: it may draw its policies' integers by
    :class:`GeneratorIntegers` (Pack & Stack's does), which keeps part of a generator's state
    to itself, so a generator handed to a batch is for that batch alone (a new game in the
    same slot goes on with it: :meth:`Batch.reset`)."""

    chance: Sequence[RawWords]
    policy: Sequence[np.random.Generator]

    def __post_init__(self) -> None:
        if len(self.chance) != len(self.policy):
            raise ValueError(
                f"{len(self.chance)} chance streams for {len(self.policy)} policy streams"
            )


def seeded(seeds: Sequence[int], players: int) -> Streams:
    """The streams :func:`arena.play` gives a game seeded ``seed``, for each of ``seeds``: a
    batch made with them plays, game for game, what ``arena.play`` plays with those seeds."""
    chance: list[RawWords] = []
    policy = []
    for seed in seeds:
        chance_rng, seat_rngs = seat_streams(seed, players)
        chance.append(chance_rng.bit_generator.random_raw)
        policy.append(seat_rngs[0])
    return Streams(chance, policy)


# The bit generators whose 32-bit draws are the halves of their raw words, low half first
# (MT19937's are not): GeneratorIntegers can draw for them from raw words.
_HALVES_OF_WORDS = (
    np.random.PCG64,
    np.random.PCG64DXSM,
    np.random.Philox,
    np.random.SFC64,
)
_LOW32 = np.uint64(0xFFFFFFFF)


class GeneratorIntegers:
    """``generators[g].integers(count)`` for many games ``g`` at once — what
    :class:`arena.RandomPolicy` draws from a game's policy generator — exactly, as arrays.

    NumPy draws an integer below ``count`` (up to ``2**32``) from the generator's next 32-bit
    half-word by Lemire's multiply-and-reject: the low half of a raw word, keeping the high
    half in the bit generator for the next such draw. One ``integers`` call costs a microsecond
    of argument handling; here the halves come from one ``random_raw()`` call per two draws
    (none for the kept half) and the arithmetic runs over all the games' halves at once.

    The kept half lives here, not in the bit generator: from when it is handed in (its kept
    half is read then), a generator is this object's to draw from. A generator whose 32-bit
    draws are not halves of its raw words (MT19937), and a count above ``2**32`` (drawn from
    whole words, which leave the kept half alone), are drawn by ``integers`` itself.
    """

    def __init__(self, generators: Sequence[np.random.Generator]) -> None:
        self._generators = list(generators)
        self._raw: list[RawWords] = [g.bit_generator.random_raw for g in self._generators]
        games = len(self._generators)
        self._by_halves = np.zeros(games, bool)
        self._has_kept = np.zeros(games, bool)
        self._kept = np.zeros(games, np.uint64)
        for g in range(games):
            self._take_over(g)

    def replace(
        self, games: npt.NDArray[np.intp], generators: Sequence[np.random.Generator]
    ) -> None:
        """Draw for ``games[i]`` from ``generators[i]`` from now on, from where it is."""
        for g, generator in zip(games.tolist(), generators):
            self._generators[g] = generator
            self._raw[g] = generator.bit_generator.random_raw
            self._take_over(g)

    def _take_over(self, g: int) -> None:
        """Whether game ``g``'s generator is drawn by halves of raw words, and its kept half."""
        bit_generator = self._generators[g].bit_generator
        self._by_halves[g] = isinstance(bit_generator, _HALVES_OF_WORDS)
        if self._by_halves[g]:
            state = bit_generator.state
            self._has_kept[g] = bool(state["has_uint32"])
            self._kept[g] = state["uinteger"]

    def below(
        self, games: npt.NDArray[np.intp], counts: npt.NDArray[np.int64]
    ) -> npt.NDArray[np.int64]:
        """``integers(counts[i])`` of the generator of each game ``games[i]`` (each game once)."""
        picks = np.zeros(len(games), np.int64)  # a count of 1 draws nothing: 0
        by_halves = self._by_halves[games] & (counts <= 2**32)
        for i in np.flatnonzero(~by_halves & (counts > 1)).tolist():
            picks[i] = self._generators[games[i]].integers(int(counts[i]))
        at = np.flatnonzero(by_halves & (counts > 1))
        bound = counts[at].astype(np.uint64)
        product = self._halves(games[at]) * bound
        # Lemire's rejection: a product whose low 32 bits fall below 2**32 % count is drawn
        # again (a chance below count in 2**32), so every pick is equally likely.
        threshold = (np.uint64(2**32) - bound) % bound
        again = np.flatnonzero((product & _LOW32) < threshold)
        while len(again):
            product[again] = self._halves(games[at[again]]) * bound[again]
            again = again[(product[again] & _LOW32) < threshold[again]]
        picks[at] = (product >> np.uint64(32)).astype(np.int64)
        return picks

    def _halves(self, games: npt.NDArray[np.intp]) -> npt.NDArray[np.uint64]:
        """The next 32-bit half-word of each game's generator (each game once): its kept half,
        or the low half of a new raw word, whose high half it keeps."""
        halves = self._kept[games]
        fresh = ~self._has_kept[games]
        raw = self._raw
        words = np.array([raw[g]() for g in games[fresh].tolist()], np.uint64)
        halves[fresh] = words & _LOW32
        self._kept[games[fresh]] = words >> np.uint64(32)
        self._has_kept[games] = fresh
        return halves


@dataclass(frozen=True, eq=False)
class BatchResult:
    """The end of a batch of games: ``returns[g, s]`` is seat ``s``'s final points in game
    ``g`` (as the scalar game's ``returns()``), ``winners[g, s]`` whether ``s`` is among the
    rules' winners of game ``g``; ``summaries[g]`` what a tournament's ``summarise`` hook gives
    for game ``g`` (None when none was asked for)."""

    returns: npt.NDArray[np.float64]
    winners: npt.NDArray[np.bool_]
    summaries: tuple[Hashable, ...] | None = None

    def __post_init__(self) -> None:
        if self.returns.shape != self.winners.shape or self.returns.ndim != 2:
            raise ValueError(
                f"returns {self.returns.shape} and winners {self.winners.shape} "
                "must be arrays of one shape (games, players)"
            )


class Batch(Protocol):
    """Games in progress, stepped together (a :class:`BatchEngine` makes them). Chance is
    resolved inside: a game of a batch waits at a player's decision or is over.

    Actions are the ids of the game's codec (:class:`arena.codec.Codec`), the numbers the
    OpenSpiel, PettingZoo and Gymnasium adapters use, so a batch and an environment agree.
    """

    @property
    def num_games(self) -> int:
        """The games of the batch."""
        ...

    def to_play(self) -> npt.NDArray[np.intp]:
        """Each game's seat to act, or :data:`arena.TERMINAL` where the game is over."""
        ...

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """``(games, actions)``: the legal action ids of the player to act in each game (a
        finished game's row is all False)."""
        ...

    def apply(self, actions: npt.NDArray[np.intp], where: npt.NDArray[np.bool_]) -> None:
        """The player to act in each game ``g`` with ``where[g]`` plays ``actions[g]`` (an
        illegal id raises, naming the game); chance then runs on to the next decision."""
        ...

    def run(self, seating: npt.ArrayLike, policies: Sequence[VectorPolicy]) -> BatchResult:
        """Play every game to its end, seat ``s`` of game ``g`` by ``policies[seating[g, s]]``;
        the result."""
        ...

    def observations(self, seat: int) -> npt.NDArray[np.float32]:
        """``(games, size)``: the codec's observation tensor of ``seat`` in every game (what
        the single environment shows that seat)."""
        ...

    def returns(self) -> npt.NDArray[np.float64]:
        """``(games, players)``: final points, zeros where a game is not over."""
        ...

    def winners(self) -> npt.NDArray[np.bool_]:
        """``(games, players)``: the rules' winners, all False where a game is not over."""
        ...

    def standing(self) -> npt.NDArray[np.float64]:
        """``(games, players)``: each player's score so far, as the codec's ``standing``."""
        ...

    def truncated(self) -> npt.NDArray[np.bool_]:
        """``(games,)``: the games a length cap ended (the codec's ``truncated``)."""
        ...

    def reset(self, where: npt.NDArray[np.bool_], streams: Streams | None = None) -> None:
        """New games in the slots ``where``, at their first decision: with new shared chance,
        with the slots' streams going on, or with ``streams`` (one per slot, in order)."""
        ...


#: SplitMix64's constants: the Weyl step (the golden ratio's 64 bits) and the finaliser's two
#: multipliers; :mod:`packing.batch_loops` hashes with them too, so a deal is one deal there.
GOLDEN: Final = np.uint64(0x9E3779B97F4A7C15)
MIX1: Final = np.uint64(0xBF58476D1CE4E5B9)
MIX2: Final = np.uint64(0x94D049BB133111EB)


def _mix(x: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """SplitMix64's finaliser: 64 well-mixed bits from a 64-bit counter."""
    x = x ^ (x >> np.uint64(30))
    x = x * MIX1
    x = x ^ (x >> np.uint64(27))
    x = x * MIX2
    return x ^ (x >> np.uint64(31))


class SharedChance:
    """The fast chance of a batch, shared by the games of a deal: every answer is hashed from
    the deal's key and the question (a counter-based generator, SplitMix64's finaliser over a
    Weyl sequence), so the games of one deal get the same answer to the same question whatever
    else the batch holds and whenever they ask it — the same deal played in any batch is the
    same deal. An answer below ``m`` is the hash modulo ``m``: a bias below ``m / 2**64``.

    A bot's own randomness is hashed from a key of its game: the deal's key and the game's
    place among the deal's games (a tournament's rotation), so it too does not depend on the
    batch. The deal keys come from ``rng``'s first draw and the deal numbers: a generator from
    the same seed gives the same deals.
    """

    def __init__(self, rng: np.random.Generator, deals: npt.ArrayLike) -> None:
        numbers = np.asarray(deals, np.int64)
        self.rng = rng
        base = np.uint64(rng.integers(0, 2**63, dtype=np.int64))
        #: Each game's deal key.
        self.keys = _mix(numbers.astype(np.uint64) * GOLDEN + base)
        by_deal = np.argsort(numbers, kind="stable")
        ordered = numbers[by_deal]
        starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
        place = np.empty(len(numbers), np.int64)
        place[by_deal] = np.arange(len(numbers)) - np.repeat(
            starts, np.diff(np.r_[starts, len(numbers)])
        )
        #: Each game's own key, for its bots' randomness.
        self.own_keys = _mix(self.keys ^ _mix(place.astype(np.uint64) + np.uint64(1)))

    def renew(self, games: npt.NDArray[np.intp]) -> None:
        """New deals for ``games`` (a vector environment's autoreset), drawn from ``rng``."""
        fresh = self.rng.integers(0, 2**63, len(games), dtype=np.int64).astype(np.uint64)
        self.keys[games] = _mix(fresh)
        self.own_keys[games] = _mix(fresh ^ GOLDEN)

    def below(
        self, games: npt.NDArray[np.intp], sizes: npt.ArrayLike, tags: npt.ArrayLike
    ) -> npt.NDArray[np.int64]:
        """The answer below ``sizes`` of each game's deal to the question ``tags`` (an integer
        naming the question: its kind, its round, its seat...)."""
        return self._below(self.keys[games], sizes, tags)

    def own_below(
        self, games: npt.NDArray[np.intp], sizes: npt.ArrayLike, tags: npt.ArrayLike
    ) -> npt.NDArray[np.int64]:
        """A bot's uniform choice below ``sizes`` in each game, for its question ``tags``."""
        return self._below(self.own_keys[games], sizes, tags)

    def order(
        self,
        games: npt.NDArray[np.intp],
        items: int,
        tag: npt.ArrayLike,
        among: npt.NDArray[np.bool_] | None = None,
    ) -> npt.NDArray[np.intp]:
        """``(games, items)``: a uniformly random order of ``items`` things for each game's
        deal (a shuffle; ``tag`` names it, so a reshuffle is another one). With ``among``
        (``(games, items)``), only those things are shuffled, first; the others follow in their order (a stable
        sort, so the whole order is defined, as a compiled engine must reproduce it)."""
        tags = np.broadcast_to(np.asarray(tag, np.uint64), games.shape)  # arrays wrap silently
        salt = _mix(self.keys[games] ^ _mix(tags + GOLDEN))
        keys = _mix(salt[:, None] + np.arange(items, dtype=np.uint64)[None, :] * GOLDEN)
        if among is not None:
            keys[~among] = np.iinfo(np.uint64).max
        shuffled: npt.NDArray[np.intp] = np.argsort(keys, axis=1, kind="stable")
        return shuffled

    @staticmethod
    def _below(
        keys: npt.NDArray[np.uint64], sizes: npt.ArrayLike, tags: npt.ArrayLike
    ) -> npt.NDArray[np.int64]:
        questions = np.broadcast_to(np.asarray(tags).astype(np.uint64), keys.shape)
        h = _mix(keys + questions * GOLDEN)  # arrays, whose arithmetic wraps silently
        return (h % np.asarray(sizes).astype(np.uint64)).astype(np.int64)


class BatchEngine(Protocol):
    """A game's batched engine, for the setup of the state that made it."""

    @property
    def num_players(self) -> int:
        """The players of every game of a batch."""
        ...

    def new_batch(
        self,
        games: int | None = None,
        *,
        rng: np.random.Generator | None = None,
        deals: npt.ArrayLike | None = None,
        streams: Streams | None = None,
    ) -> Batch:
        """New games at their first decision: ``games`` of them with chance from ``rng``
        (shared by equal ``deals``), or one per stream of ``streams``."""
        ...

    def vector_policy(self, policy: Policy) -> VectorPolicy | None:
        """The batched form of ``policy``, or None when this engine cannot play it (a search
        bot, a bot with options the engine does not model)."""
        ...

    def summarises(self, summarise: Callable[[Any], Hashable]) -> bool:
        """Whether :meth:`play` gives the summaries this scalar hook gives (a tournament's
        ``summarise``, such as Express's :func:`express.decisive`), worked out from the batch."""
        ...

    def play(
        self,
        seating: npt.NDArray[np.intp],
        policies: Sequence[VectorPolicy],
        deals: npt.NDArray[np.intp],
        rng: np.random.Generator,
        summarise: Callable[[Any], Hashable] | None = None,
    ) -> BatchResult:
        """Play ``len(seating)`` games to the end: in game ``g`` seat ``s`` is played by
        ``policies[seating[g, s]]``; games with equal ``deals[g]`` share their chance draws;
        ``rng`` serves chance and the policies' own randomness. ``summarise``: a hook the engine
        :meth:`summarises`, whose summaries the result then carries."""
        ...


def engine_for(state: object) -> BatchEngine | None:
    """The batched engine of ``state``'s game and setup, or None when the game has none (or
    none for these options, such as a Pack & Stack deck without an optimal table)."""
    make = getattr(state, "batch_engine", None)
    if make is None:
        return None
    engine: BatchEngine | None = make()
    return engine
