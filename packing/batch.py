"""Pack & Stack as a batched engine: thousands of games as NumPy arrays, stepped together.

The engine plays the game of :class:`packing.Game` — the same rules modules (the dice of
:mod:`packing.rules`, the roll odds of :mod:`packing.odds`, the penalties of the deck's optimal
table) — with every truck's place held in arrays: ``(games, trucks)`` for where each truck is,
``(games, players)`` for points, cargos and the grab order. A batch waits at the players'
grabs; rolls, draws, the grab order, the top of the pile and the scoring run inside.

>>> import numpy as np
>>> from packing.bots import bot
>>> engine = Engine(4)
>>> policies = [engine.vector_policy(bot("optimal")), engine.vector_policy(bot("random"))]
>>> seating = np.array([[0, 1, 1, 1], [1, 0, 1, 1]])
>>> result = engine.play(seating, policies, np.array([0, 0]), np.random.default_rng(1))
>>> result.returns.shape, bool(result.winners.any(axis=1).all())
((2, 4), True)

**Chance.** Two sources, one engine. ``new_batch(games=N, rng=...)`` draws from one generator,
fast: games with the same ``deals[g]`` share their chance (the same dice for the same seat and
round, the same draws and grab orders while their piles agree), as duplicate-deal tournaments
need. Each question is answered by a counter-based hash of the deal's key and the question (a
SplitMix64 finaliser: an integer below ``m`` with a bias under ``m / 2**64``), so the answer
does not depend on which games ask it or when. ``new_batch(streams=...)`` draws instead, per
game, exactly what the scalar game draws from the same words (:func:`arena.batch.seeded`:
:func:`arena.play`'s streams for a seed), so a batched game can be compared with a scalar one
outcome for outcome — the engine's tests do so for thousands of games.

**What it plays.** Games with the deck's optimal table (every loading is scored from it, as
:class:`packing.Game` does by default), equal grab speeds and no loaders: what
:meth:`packing.Game.batch_engine` offers. Bots: ``random`` (also :class:`arena.RandomPolicy`),
``capacity``, ``optimal`` and ``bonus-aware`` with their default options
(:meth:`Engine.vector_policy`); each decides exactly as the scalar bot does.

**Compiled loops.** With numba installed (the ``compiled`` extra), :meth:`Batch.run` plays a
batch with shared chance and these bots in :mod:`packing.batch_loops` instead: the same games,
one at a time to its end, several times faster (``compiled=False`` keeps NumPy).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from arena.batch import BatchResult, GeneratorIntegers, SharedChance, Streams, VectorPolicy
from arena.play import RandomPolicy
from arena.protocol import TERMINAL, Policy
from arena.sampling import Sampler
from arena.values import whole_number
from packing.batch_loops import (
    BOT_CODES,
    DISCARDS,
    FRONT,
    ORDER_QUESTION,
    PILE,
    ROLL_QUESTION,
    STATE,
    available,
    compiled_run,
)
from packing.checks import deck_size_check, players_arg
from packing.deck import SAMPLE_DECK
from packing.errors import PackingError
from packing.model import Cargo, Truck
from packing.odds import roll_outcomes
from packing.rules import (
    DICE,
    LENGTHS,
    ROUND_WIN_BONUS,
    START_POINTS,
    draws_per_player,
)
from packing.table import find_table
from packing.tensor_layout import tensor_layout

__all__ = [
    "VECTOR_BOTS",
    "Batch",
    "Engine",
    "VectorBot",
    "cargo_of",
    "rolls_of_faces",
]

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

#: The bots the engine plays, by the ``batch_kind`` of their class (:meth:`Engine.vector_policy`).
VECTOR_BOTS: Final = ("random", "capacity", "optimal", "bonus-aware")


@cache
def rolls_of_faces() -> Ints:
    """The roll index (the cargo's place in :func:`packing.odds.roll_outcomes`) of each of the
    7,776 equally likely face combinations, the die of length 1 the lowest base-6 digit."""
    index: dict[tuple[int, ...], int] = {
        cargo.counts: i for i, (cargo, _) in enumerate(roll_outcomes())
    }
    out = np.empty(6 ** len(LENGTHS), np.int64)
    for combo, faces in enumerate(itertools.product(range(6), repeat=len(LENGTHS))):
        # itertools.product varies the last die fastest; the combo's digits, lowest first:
        digits = faces[::-1]
        out[combo] = index[tuple(DICE[length][f] for length, f in zip(LENGTHS, digits))]
    return out


@cache
def _roll_sampler() -> Sampler:
    """The scalar roll's sampler, answering with the roll index (same words, same roll)."""
    return Sampler(tuple((i, p) for i, (_, p) in enumerate(roll_outcomes())))


_SPAN = 1 << 64


def _uniform(raw: Callable[[], int], size: int) -> int:
    """An index below ``size`` drawn from the words of ``raw`` exactly as the scalar game's
    :class:`arena.sampling.Sampler` draws among ``size`` equally likely outcomes (a pile's
    trucks, the grab orders): one outcome takes no word; else a word below the largest multiple
    of ``size`` (rejection), modulo ``size``. Written out, as it runs for every grab from the
    pile of a game of a batch with streams."""
    if size == 1:
        return 0
    limit = _SPAN - _SPAN % size
    r = raw()
    while r >= limit:
        r = raw()
    return r % size


def _round_sizes(players: int, draws: int, piles: Ints, discards: Ints, orders: int) -> Ints:
    """``(games, players + draws + 1)``: how many equally likely outcomes each of a round's
    chance answers has, in the scalar game's order — each roll's 7,776 face combinations, each
    draw's pile (the pile shrinks by one a draw; when it is empty the discards become the
    pile), the grab orders."""
    at = np.arange(draws)[None, :]
    pile_sizes = np.where(
        at < piles[:, None], piles[:, None] - at, (piles + discards)[:, None] - at
    )
    games = len(piles)
    return np.concatenate(
        [
            np.full((games, players), _roll_sampler().denominator),
            pile_sizes,
            np.full((games, 1), orders),
        ],
        axis=1,
    )


def _rejected(words: npt.NDArray[np.uint64], sizes: Ints) -> Bools:
    """Whether each word is one :func:`_uniform` rejects for its size: at or above the largest
    multiple of the size below ``2**64`` (no word, when the size divides ``2**64``)."""
    m = sizes.astype(np.uint64)
    remainder = (np.uint64(_SPAN - 1) % m + np.uint64(1)) % m  # 2**64 % m, in 64 bits
    rejected: Bools = words > np.uint64(_SPAN - 1) - remainder
    return rejected


def _round_answers(raw: Callable[[], int], sizes: list[int]) -> list[int]:
    """The answers below ``sizes`` drawn in turn from ``raw`` as the scalar game draws them
    (:func:`_uniform`, rejections included): a round drawn word by word."""
    return [_uniform(raw, size) for size in sizes]


@cache
def _roll_table() -> Ints:
    """The roll index of each residue of the roll sampler's denominator (its table)."""
    table = _roll_sampler().by_residue
    assert table is not None  # 7,776 residues: the sampler keeps their outcomes
    return np.array(table, np.int64)


class _StreamChance:
    """Answers drawn per game from its stream, as the scalar game draws them."""

    def __init__(self, streams: Streams) -> None:
        self.chance = list(streams.chance)
        self.policy = GeneratorIntegers(streams.policy)

    def replace(self, games: Ints, streams: Streams) -> None:
        """Draw for ``games[i]`` from the streams ``i`` of ``streams`` from now on."""
        for g, words in zip(games.tolist(), streams.chance):
            self.chance[g] = words
        self.policy.replace(games, streams.policy)

    def round(
        self, games: Ints, players: int, draws: int, piles: Ints, discards: Ints, orders: int
    ) -> tuple[Ints, Ints, Ints]:
        """A round's chance for each game, in the scalar game's order: the rolls from the first
        roller on ``(games, players)``, the draws' positions in the pile ``(games, draws)`` (a
        pile of ``piles[g]`` trucks, then the ``discards[g]`` reshuffled when it runs out) and
        the grab order's rank.

        Each answer below ``m`` takes one word (none when ``m`` is 1) unless the word is
        rejected, which happens fewer than ``m`` times in ``2**64``: so each game's words are
        taken in one block of the count known in advance and sampled as arrays, and a game
        that met a rejection is drawn again word by word from its block and then its stream."""
        sizes = _round_sizes(players, draws, piles, discards, orders)
        takes_word = sizes > 1
        counts = takes_word.sum(axis=1)
        chance = self.chance
        words = np.zeros(sizes.shape, np.uint64)
        words[takes_word] = np.concatenate(
            [chance[g](k) for g, k in zip(games.tolist(), counts.tolist())]
        )
        answers = (words % sizes.astype(np.uint64)).astype(np.int64)
        for row in np.flatnonzero(_rejected(words, sizes).any(axis=1)).tolist():
            block = words[row][takes_word[row]].tolist()
            raw = itertools.chain(block, iter(chance[games[row]], None)).__next__
            answers[row] = _round_answers(raw, sizes[row].tolist())
        table = _roll_table()
        return (
            table[answers[:, :players]],
            answers[:, players : players + draws],
            answers[:, players + draws],
        )

    def below(self, games: Ints, sizes: Ints) -> Ints:
        chance = self.chance
        return np.array(
            [_uniform(chance[g], m) for g, m in zip(games.tolist(), sizes.tolist())], np.int64
        )

    def own_below(self, games: Ints, counts: Ints, tags: Ints) -> Ints:
        """A bot's choice below ``counts``, as :class:`arena.RandomPolicy` draws it."""
        return self.policy.below(games, counts)


# --- the engine -------------------------------------------------------------------------------


class Engine:
    """The batched engine of one game setup: ``players``, ``deck`` (it needs the deck's optimal
    table), ``start_points`` and ``max_rounds`` as :class:`packing.Game` takes them.

    An engine is a value: equal options, equal engines; it pickles.
    """

    def __init__(
        self,
        players: int = 4,
        *,
        deck: Sequence[Truck] = SAMPLE_DECK,
        start_points: int = START_POINTS,
        max_rounds: int | None = None,
    ) -> None:
        players = players_arg(whole_number(players, "players"))
        self.players = players
        self.deck = tuple(deck)
        self.start_points = whole_number(start_points, "start_points", low=1)
        self.max_rounds = (
            None if max_rounds is None else whole_number(max_rounds, "max_rounds", low=1)
        )
        table = find_table(self.deck)
        if table is None:
            raise PackingError(
                "the batched engine scores from the deck's optimal table, and this deck has "
                "none (build it with `packing table build`)"
            )
        deck_size_check(self.deck, players)
        self.draws_each = draws_per_player(players)
        #: ``penalties[r, j]``: the optimal penalty of roll ``r`` on truck ``j``.
        self.penalties = np.asarray(table.penalties, np.int64)
        # The same, two bytes each, for the bots' sums over the pile (a penalty is below 2**15).
        self._penalties16 = self.penalties.astype(np.int16)
        self.capacities = np.array([t.capacity for t in self.deck], np.int64)
        self.volumes = np.array([c.volume for c, _ in roll_outcomes()], np.int64)
        self.counts = np.array([c.counts for c, _ in roll_outcomes()], np.int64)
        #: Every grab order, lexicographically (``itertools.permutations``' order, the codec's).
        self.orders = np.array(list(itertools.permutations(range(players))), np.int64)

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def num_actions(self) -> int:
        """The codec's grab ids: each truck of the deck, then the pile."""
        return len(self.deck) + 1

    def _key(self) -> tuple[object, ...]:
        return (self.players, self.deck, self.start_points, self.max_rounds)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Engine) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple[Any, ...]:
        return (_engine, self._key())

    def __repr__(self) -> str:
        return (
            f"Engine({self.players}, deck=<{len(self.deck)} trucks>, "
            f"start_points={self.start_points}, max_rounds={self.max_rounds})"
        )

    def vector_policy(self, policy: Policy) -> VectorBot | None:
        """The batched form of ``policy``: ``random`` (and :class:`arena.RandomPolicy`),
        ``capacity``, ``optimal`` and ``bonus-aware`` with their default options and no
        loader; None for any other bot. A bot says what it is batched as by its class's own
        ``batch_kind`` (a subclass, which may decide otherwise, is not batched)."""
        name = getattr(policy, "name", None)
        if not isinstance(name, str):
            return None
        kind = "random" if type(policy) is RandomPolicy else type(policy).__dict__.get("batch_kind")
        if kind not in VECTOR_BOTS:
            return None
        if (
            getattr(policy, "loader", None) is not None
            or getattr(policy, "use_table", True) is not True
        ):
            return None
        return VectorBot(kind, name)

    def new_batch(
        self,
        games: int | None = None,
        *,
        rng: np.random.Generator | None = None,
        deals: npt.ArrayLike | None = None,
        streams: Streams | None = None,
        record: bool = False,
    ) -> Batch:
        """``games`` new games at their first grab. Chance comes from ``rng`` (shared by the
        games of one deal: ``deals[g]``, default every game its own), or from per-game
        ``streams`` (then ``games`` is their number). ``record`` keeps each round's record
        (:meth:`Batch.records`), for comparing with scalar games."""
        return Batch(self, games, rng=rng, deals=deals, streams=streams, record=record)

    def summarises(self, summarise: Callable[[Any], Hashable]) -> bool:
        """False: Pack & Stack's tournaments summarise nothing."""
        return False

    def play(
        self,
        seating: npt.ArrayLike,
        policies: Sequence[VectorPolicy],
        deals: npt.ArrayLike,
        rng: np.random.Generator,
        summarise: Callable[[Any], Hashable] | None = None,
    ) -> BatchResult:
        """Play ``len(seating)`` games to the end (:meth:`arena.batch.BatchEngine.play`)."""
        if summarise is not None:
            raise PackingError(f"the batched engine cannot summarise with {summarise!r}")
        seats = np.asarray(seating, np.int64)
        return self.new_batch(len(seats), rng=rng, deals=deals).run(seats, policies)


def _engine(
    players: int, deck: tuple[Truck, ...], start_points: int, max_rounds: int | None
) -> Engine:
    return Engine(players, deck=deck, start_points=start_points, max_rounds=max_rounds)


@dataclass(frozen=True)
class VectorBot:
    """A Pack & Stack bot as the batched engine plays it: ``kind`` is the rule (``random``,
    ``capacity``, ``optimal``, ``bonus-aware``), ``name`` the bot's name."""

    kind: str
    name: str

    def act(self, batch: Batch, where: Bools) -> Ints:
        """The grab id each game with ``where`` chooses for its player to act."""
        return batch.choose(self.kind, np.flatnonzero(where))


# --- a batch ----------------------------------------------------------------------------------


class Batch:
    """Games of one :class:`Engine` in progress (the :class:`arena.batch.Batch` protocol),
    each waiting at a player's grab or over. Read the arrays; change them only through
    :meth:`apply`."""

    def __init__(
        self,
        engine: Engine,
        games: int | None,
        *,
        rng: np.random.Generator | None,
        deals: npt.ArrayLike | None,
        streams: Streams | None,
        record: bool,
    ) -> None:
        self.engine = engine
        self._chance: SharedChance | _StreamChance
        if streams is not None:
            if games is not None and games != len(streams.chance):
                raise PackingError(f"{games} games for {len(streams.chance)} streams")
            games = len(streams.chance)
            self._chance = _StreamChance(streams)
        else:
            if games is None or rng is None:
                raise PackingError("a batch needs games and rng, or streams")
            games = whole_number(games, "games", low=1)
            deal_ids = np.arange(games) if deals is None else np.asarray(deals, np.int64)
            if deal_ids.shape != (games,):
                raise PackingError(f"deals must give one deal per game ({games})")
            self._chance = SharedChance(rng, deal_ids)
        n, trucks, d = engine.players, len(engine.deck), engine.draws_each
        self.n, self.trucks, self.d = n, trucks, d
        self.size = games
        self.round = np.ones(games, np.int64)
        self.over = np.zeros(games, bool)
        #: The grab step (0..n-1) of each game's decision: its player is ``order[g, step[g]]``.
        self.step = np.zeros(games, np.int64)
        self.points = np.full((games, n), engine.start_points, np.int64)
        self.cargo = np.zeros((games, n), np.int64)  # roll indices
        # One byte a truck: the comparisons and sums over it are most of a round's work.
        self.place = np.zeros((games, trucks), np.int8)  # PILE, DISCARDS, FRONT + ...
        #: The pile: with streams, ``pile[g, :pile_size[g]]`` its trucks in deck order (a draw's
        #: position indexes it, as in the scalar game); with shared chance, the pile shuffled,
        #: ``pile[g, pile_top[g]:pile_top[g] + pile_size[g]]`` in the order they will be drawn
        #: (each draw is then uniform over the pile, the rules' chance, for one index).
        self.pile = np.zeros((games, trucks), np.int8)
        self.pile_size = np.full(games, trucks, np.int64)
        self.pile_top = np.zeros(games, np.int64)
        #: Each game's reshuffles so far (with shared chance, part of the next shuffle's key).
        self.shuffles = np.zeros(games, np.int64)
        self._columns = np.arange(trucks)[None, :]
        self._owners = np.repeat(np.arange(n), d)  # each slot's owner in drawn[g].ravel()
        #: drawn[g, p, k]: the k-th truck p drew this round.
        self.drawn = np.zeros((games, n, d), np.int64)
        self.order = np.zeros((games, n), np.int64)
        self.taken = np.zeros((games, n), np.int64)
        self.source = np.zeros((games, n), np.int64)  # the owner it was taken from, -1 the pile
        self._records: list[tuple[Any, ...]] | None = [] if record else None
        self._new_piles(np.arange(games))
        self._start(np.arange(games))

    # --- the protocol -------------------------------------------------------------------------

    @property
    def num_games(self) -> int:
        return self.size

    def to_play(self) -> Ints:
        """Each game's player to grab, :data:`arena.TERMINAL` where it is over."""
        player = np.take_along_axis(self.order, np.minimum(self.step, self.n - 1)[:, None], 1)[:, 0]
        return np.where(self.over, TERMINAL, player)

    def legal_mask(self) -> Bools:
        mask = np.zeros((self.size, self.trucks + 1), bool)
        live = ~self.over
        player = self.to_play()
        place = self.place
        front = (place >= FRONT) & (place < FRONT + self.n) & (place != FRONT + player[:, None])
        front &= (live & (self.step < self.n - 1))[:, None]
        mask[:, : self.trucks] = front
        mask[:, self.trucks] = live
        return mask

    def apply(self, actions: npt.ArrayLike, where: npt.ArrayLike) -> None:
        chosen = np.asarray(actions, np.int64)
        games = np.flatnonzero(np.asarray(where, bool))
        if not len(games):
            return
        ids = chosen[games]
        ok = self._legal_grabs(games, ids)
        if not ok.all():
            g = int(games[~ok][0])
            raise PackingError(
                f"game {g}: grab id {int(chosen[g])} is not legal for P{int(self.to_play()[g])} "
                f"(legal: {np.flatnonzero(self.legal_mask()[g]).tolist()})"
            )
        self._grab(games, ids)

    def _legal_grabs(self, games: Ints, ids: Ints) -> Bools:
        """Whether each grab id ``ids[i]`` is legal in game ``games[i]``: the entries of
        :meth:`legal_mask` an :meth:`apply` asks about, without the whole mask (a turn's
        check then costs a few operations a game, not one a game and truck)."""
        n = self.n
        step = self.step[games]
        player = self.order[games, np.minimum(step, n - 1)]
        truck = (ids >= 0) & (ids < self.trucks)
        place = self.place[games, np.where(truck, ids, 0)]
        in_front = (place >= FRONT) & (place < FRONT + n) & (place != FRONT + player)
        revealed = truck & in_front & (step < n - 1)  # the last grabber takes the pile
        legal: Bools = ~self.over[games] & ((ids == self.trucks) | revealed)
        return legal

    def observations(self, seat: int) -> npt.NDArray[np.float32]:
        """The codec's observation tensor of ``seat`` in every game
        (:meth:`packing.codec.PackAndStackCodec.fill_tensor`'s layout)."""
        n, trucks, size = self.n, self.trucks, self.size
        layout = tensor_layout(n, trucks)
        start, length = layout["trucks"]
        t = np.zeros((size, start + length), np.float32)
        live = ~self.over
        rows = np.arange(size)
        t[:, layout["player"][0] + seat] = 1.0
        t[:, layout["round"][0]] = self.round
        t[rows, layout["first_roller"][0] + (self.round - 1) % n] = 1.0
        t[:, layout["start_points"][0]] = self.engine.start_points
        at = layout["points"][0]
        t[:, at : at + n] = self.points
        at = layout["cargos"][0]
        width = 1 + len(LENGTHS)
        cargos = np.concatenate(
            [np.ones((size, n, 1)), self.engine.counts[self.cargo]], axis=2
        ).reshape(size, n * width)
        t[live, at : at + n * width] = cargos[live]
        at = layout["grab_order"][0]
        t[live, at] = 1.0
        k = np.arange(n)
        flat = at + 1 + k[None, :] * n + self.order
        t[np.repeat(rows[live], n), flat[live].ravel()] = 1.0
        t[live, layout["grabbed"][0]] = self.step[live]
        place = self.place
        code = np.where(place >= FRONT, place - FRONT, 2 * n + place)
        t[np.repeat(rows, trucks), (start + np.arange(trucks) * (2 * n + 2) + code).ravel()] = 1.0
        return t

    def returns(self) -> npt.NDArray[np.float64]:
        return np.where(self.over[:, None], self.points, 0).astype(np.float64)

    def standing(self) -> npt.NDArray[np.float64]:
        """Everyone's points now (the codec's standing)."""
        return self.points.astype(np.float64)

    def truncated(self) -> Bools:
        """The games the round cap ended: over with everyone still above 0 points."""
        ended: Bools = self.over & (self.points.min(axis=1) > 0)
        return ended

    def winners(self) -> Bools:
        best = self.points.max(axis=1, keepdims=True)
        won: Bools = (self.points == best) & self.over[:, None]
        return won

    # --- playing ------------------------------------------------------------------------------

    def run(
        self,
        seating: npt.ArrayLike,
        policies: Sequence[VectorPolicy],
        *,
        compiled: bool | None = None,
    ) -> BatchResult:
        """Play every game to its end, seat ``s`` of game ``g`` by ``policies[seating[g, s]]``;
        the result.

        ``compiled``: play with the compiled loops of :mod:`packing.batch_loops` (the same
        games, several times faster; they need numba, the ``compiled`` extra, shared chance,
        no records and every policy a :class:`VectorBot`), or with NumPy (False). The default
        takes the loops when numba is installed and they can play this batch."""
        seating = np.asarray(seating, np.int64)
        if seating.shape != (self.size, self.n):
            raise PackingError(f"seating must be ({self.size}, {self.n}), not {seating.shape}")
        if seating.size and not 0 <= seating.min() <= seating.max() < len(policies):
            raise PackingError(
                f"seating names policies 0 to {len(policies) - 1}, not "
                f"{int(seating.min())} to {int(seating.max())}"
            )
        if compiled is not False:
            refusal = self._loops_refusal(policies)
            if refusal is None and (compiled or available()):
                return self._run_compiled(seating, policies)
            if compiled:
                raise PackingError(f"the compiled loops cannot play this batch: {refusal}")
        acts: list[Callable[[Batch, Bools], Ints]] = []
        for policy in policies:
            act = getattr(policy, "act", None)
            if not callable(act):
                raise PackingError(f"{policy!r} is not a vector policy of this engine")
            acts.append(act)
        rows = np.arange(self.size)
        actions = np.zeros(self.size, np.int64)
        while not self.over.all():
            player = self.to_play()
            live = ~self.over
            chosen = np.where(live, seating[rows, np.maximum(player, 0)], -1)
            for k, act in enumerate(acts):
                where = chosen == k
                if where.any():
                    actions[where] = act(self, where)
            self._grab(np.flatnonzero(live), actions[live])
        return BatchResult(self.returns(), self.winners())

    def _loops_refusal(self, policies: Sequence[VectorPolicy]) -> str | None:
        """Why the compiled loops cannot play this batch with ``policies``; None when they can."""
        if not isinstance(self._chance, SharedChance):
            return "its chance comes from streams (the loops draw shared chance only)"
        if self._records is not None:
            return "it keeps records"
        for policy in policies:
            if not isinstance(policy, VectorBot):
                return f"{policy!r} is not one of this engine's bots"
        return None

    def _run_compiled(self, seating: Ints, policies: Sequence[VectorPolicy]) -> BatchResult:
        assert isinstance(self._chance, SharedChance)
        e = self.engine
        bots = [policy for policy in policies if isinstance(policy, VectorBot)]  # all of them
        codes = np.array([BOT_CODES[bot.kind] for bot in bots], np.int64)
        state = tuple(getattr(self, name) for name in STATE)
        tables = (e.penalties, e.capacities, e.volumes, e.orders, rolls_of_faces())
        chance = self._chance
        compiled_run(seating, codes, e.max_rounds, chance.keys, chance.own_keys, state, tables)
        return BatchResult(self.returns(), self.winners())

    def reset(self, where: npt.ArrayLike, streams: Streams | None = None) -> None:
        """Start new games in the slots ``where`` (new deals; with ``streams``, those games'
        streams from now on, in the order of the slots)."""
        games = np.flatnonzero(np.asarray(where, bool))
        if streams is not None:
            if not isinstance(self._chance, _StreamChance):
                raise PackingError("streams are for a batch made with streams")
            self._chance.replace(games, streams)
        elif isinstance(self._chance, SharedChance):
            self._chance.renew(games)
        self.round[games] = 1
        self.over[games] = False
        self.points[games] = self.engine.start_points
        self._new_piles(games)
        self._start(games)

    # --- the rules ----------------------------------------------------------------------------

    def _ask(self, games: Ints, sizes: Ints, kind: int, index: int | Ints) -> Ints:
        """An answer below ``sizes`` per game to chance question ``kind``/``index`` of the round."""
        chance = self._chance
        if isinstance(chance, SharedChance):
            tags = (self.round[games] * 4 + kind) * 256 + index
            return chance.below(games, sizes, tags)
        return chance.below(games, sizes)

    def _start(self, games: Ints) -> None:
        """Rolls, draws and the grab order of the round of ``games``: to their first grab."""
        if not len(games):
            return
        n, d = self.n, self.d
        first = (self.round[games] - 1) % n
        chance = self._chance
        orders = len(self.engine.orders)
        positions: Ints | None = None
        if isinstance(chance, SharedChance):
            rolled = np.empty((len(games), n), np.int64)
            for i in range(n):  # from the first roller on
                combos = self._ask(games, np.full(len(games), 7776), ROLL_QUESTION, (first + i) % n)
                rolled[:, i] = rolls_of_faces()[combos]
            rank = self._ask(games, np.full(len(games), orders), ORDER_QUESTION, 0)
        else:
            discards = (self.place[games] == DISCARDS).sum(axis=1)
            rolled, positions, rank = chance.round(
                games, n, n * d, self.pile_size[games], discards, orders
            )
        for i in range(n):
            self.cargo[games, (first + i) % n] = rolled[:, i]
        slots = np.arange(n * d)  # the draws, each player its d in turn from the first roller
        seats = (first[:, None] + slots[None, :] // d) % n
        if positions is None:
            trucks = np.empty((len(games), n * d), np.int64)
            for k in slots.tolist():
                trucks[:, k] = self._draw(games)
        else:
            trucks = self._draw_positions(games, positions)
        self.place[games[:, None], trucks] = FRONT + seats
        self.drawn[games[:, None], seats, slots % d] = trucks
        self.order[games] = self.engine.orders[rank]
        self.step[games] = 0

    def _new_piles(self, games: Ints) -> None:
        """Every truck of ``games`` in the pile: in deck order, or shuffled by the deal."""
        self.place[games] = PILE
        self.pile_size[games] = self.trucks
        self.pile_top[games] = 0
        self.shuffles[games] = 0
        if isinstance(self._chance, SharedChance):
            self.pile[games] = self._shuffled(games, np.ones((len(games), self.trucks), bool))
        else:
            self.pile[games] = np.arange(self.trucks, dtype=np.int8)

    def _shuffled(self, games: Ints, trucks: Bools) -> npt.NDArray[np.int8]:
        """The ``trucks`` of each game in an order hashed from its deal and its reshuffles so
        far (first, the rest after): the games of one deal shuffle alike."""
        assert isinstance(self._chance, SharedChance)
        shuffled = self._chance.order(games, self.trucks, self.shuffles[games], among=trucks)
        order: npt.NDArray[np.int8] = shuffled.astype(np.int8)
        return order

    def _draw(self, games: Ints) -> Ints:
        """Take a truck from the pile of each game (the discards, reshuffled, when it is
        empty), uniformly: the next of the shuffled pile, or with streams the truck at the
        drawn position among the pile's trucks in deck order, as the scalar game draws."""
        sizes = self.pile_size[games]
        empty = sizes == 0
        if empty.any():
            self._reshuffle(games[empty])
            sizes = self.pile_size[games]
        self.pile_size[games] = sizes - 1
        if isinstance(self._chance, SharedChance):
            top = self.pile_top[games]
            self.pile_top[games] = top + 1
            return self.pile[games, top].astype(np.int64)
        position = self._chance.below(games, sizes)
        rows = self.pile[games]
        j = rows[np.arange(len(games)), position].astype(np.int64)
        after = self._columns[:, :-1] >= position[:, None]
        rows[:, :-1] = np.where(after, rows[:, 1:], rows[:, :-1])
        self.pile[games] = rows
        return j

    def _draw_positions(self, games: Ints, positions: Ints) -> Ints:
        """``(games, draws)``: the trucks that draws at ``positions`` take from the piles of
        ``games`` (with streams), as successive draws would — each draw the truck at its
        position among the pile's trucks in deck order, the discards becoming the pile when it
        is empty — worked out for all the draws at once rather than one draw at a time."""
        piles = self.pile_size[games]
        draws = positions.shape[1]
        # The draws from the discards, once the pile is empty (at most once a round: there are
        # trucks enough for every round).
        reshuffled = np.arange(draws)[None, :] >= piles[:, None]
        # Each draw's place in its pile before the round's draws: the earlier draws from the
        # same pile undone, latest first (one that took a place at or before it moved it down).
        at = positions.T.copy()
        for j in range(draws - 2, -1, -1):
            later = at[j + 1 :]
            later += (later >= positions[:, j]) & (reshuffled.T[j + 1 :] == reshuffled[:, j])
        at = at.T
        # The pile is in deck order, as the scalar game's (the draws from the discards below).
        from_pile = np.where(reshuffled, 0, at)
        trucks = np.take_along_axis(self.pile[games], from_pile, axis=1).astype(np.int64)
        runs_out = reshuffled[:, -1]
        if runs_out.any():
            self._reshuffle(games[runs_out])
            from_discards = np.take_along_axis(self.pile[games[runs_out]], at[runs_out], axis=1)
            trucks[runs_out] = np.where(reshuffled[runs_out], from_discards, trucks[runs_out])
        # What is left of each pile (the caller places the drawn trucks), in deck order: the
        # ids of the trucks still in it, sorted, the rest of the row past its end.
        left = self.place[games] == PILE
        left[np.arange(len(games))[:, None], trucks] = False
        self.pile_size[games] = left.sum(axis=1)
        past_the_end = np.iinfo(np.int8).max
        self.pile[games] = np.sort(np.where(left, self._columns, past_the_end).astype(np.int8))
        return trucks

    def _reshuffle(self, games: Ints) -> None:
        """The discards of ``games`` become their pile (in deck order, or shuffled)."""
        rows = self.place[games]
        discarded = rows == DISCARDS
        rows[discarded] = PILE
        self.place[games] = rows
        self.pile_size[games] = discarded.sum(axis=1)
        if isinstance(self._chance, SharedChance):
            self.shuffles[games] += 1
            self.pile[games] = self._shuffled(games, discarded)
            self.pile_top[games] = 0
        else:
            self.pile[games] = np.argsort(~discarded, axis=1, kind="stable")

    def _grab(self, games: Ints, ids: Ints) -> None:
        """The grabs ``ids`` of the players to act in ``games`` (legal), then what follows."""
        n, trucks = self.n, self.trucks
        step = self.step[games]
        player = self.order[games, step]
        from_pile = ids == trucks
        revealed = ~from_pile
        if revealed.any():
            g, j = games[revealed], ids[revealed]
            owner = self.place[g, j].astype(np.int64) - FRONT
            self.place[g, j] = FRONT + n + player[revealed]
            self.taken[g, player[revealed]] = j
            self.source[g, player[revealed]] = owner
        if from_pile.any():
            g = games[from_pile]
            j = self._draw(g)
            self.place[g, j] = FRONT + n + player[from_pile]
            self.taken[g, player[from_pile]] = j
            self.source[g, player[from_pile]] = -1
        self.step[games] = step + 1
        done = games[step + 1 == n]
        if len(done):
            self._score(done)

    def _score(self, games: Ints) -> None:
        """Load optimally (the table), score, discard the round's trucks; end or go on."""
        e = self.engine
        pens = e.penalties[self.cargo[games], self.taken[games]]
        low = pens.min(axis=1, keepdims=True)
        bonus = pens == low
        points = self.points[games] - pens + ROUND_WIN_BONUS * bonus
        self.points[games] = points
        if self._records is not None:
            self._records.append(
                (
                    games,
                    self.round[games].copy(),
                    self.cargo[games].copy(),
                    self.drawn[games].copy(),
                    self.order[games].copy(),
                    self.taken[games].copy(),
                    self.source[games].copy(),
                    pens,
                    bonus,
                    points,
                )
            )
        # The round's trucks (every one drawn, and the pile's tops taken) go to the discards.
        n, d = self.n, self.d
        self.place[np.repeat(games, n * d), self.drawn[games].ravel()] = DISCARDS
        self.place[np.repeat(games, n), self.taken[games].ravel()] = DISCARDS
        ended = points.min(axis=1) <= 0
        if e.max_rounds is not None:
            ended |= self.round[games] == e.max_rounds
        self.over[games[ended]] = True
        self.step[games[ended]] = 0
        going = games[~ended]
        self.round[going] += 1
        self._start(going)

    # --- the bots -----------------------------------------------------------------------------

    def choose(self, kind: str, games: Ints) -> Ints:
        """The grab ids the bot rule ``kind`` chooses in ``games`` (see :class:`VectorBot`)."""
        if kind == "random":
            return self._random(games)
        if kind == "capacity":
            return self._capacity(games)
        if kind == "optimal":
            return self._optimal(games)
        if kind == "bonus-aware":
            return self._bonus_aware(games)
        raise PackingError(f"unknown vector bot {kind!r}")

    def _options(self, games: Ints) -> tuple[Ints, Bools]:
        """The revealed grabs of each game's player in the scalar game's order (owners in
        seat order, each owner's trucks as drawn): ``(trucks, open)``, both
        ``(games, n * d)``; the pile comes after them."""
        n, d = self.n, self.d
        step = self.step[games]
        player = self.order[games, step]
        trucks = self.drawn[games].reshape(len(games), n * d)
        # Still in front of its owner (not taken), and not the player's own.
        open_ = self._in_front(games, trucks) & (self._owners[None, :] != player[:, None])
        open_ &= (step < n - 1)[:, None]  # the last grabber must take the pile
        return trucks, open_

    def _in_front(self, games: Ints, trucks: Ints) -> Bools:
        """Whether each of the round's drawn ``trucks`` (``(games, n * d)``, in ``drawn``'s
        order) still lies in front of the player who drew it (not taken)."""
        still: Bools = self.place[games[:, None], trucks] == FRONT + self._owners[None, :]
        return still

    def _random(self, games: Ints) -> Ints:
        trucks, open_ = self._options(games)
        counts = open_.sum(axis=1) + 1
        pick = self._chance.own_below(games, counts, self.round[games] * 8 + self.step[games])
        # The pick-th open option in order, or the pile (the last option).
        nth = np.cumsum(open_, axis=1, dtype=np.int8) == (pick + 1)[:, None]
        nth &= open_
        found = nth.any(axis=1)
        return np.where(found, trucks[np.arange(len(games)), nth.argmax(axis=1)], self.trucks)

    def _capacity(self, games: Ints) -> Ints:
        trucks, open_ = self._options(games)
        volume = self.engine.volumes[self.cargo[games, self.order[games, self.step[games]]]]
        cap = self.engine.capacities[trucks]
        # capacity_preference: the distance, ties to the larger capacity, then the earlier.
        key = np.abs(cap - volume[:, None]) * 1024 - cap
        key = np.where(open_, key, np.iinfo(np.int64).max)
        best = key.argmin(axis=1)
        found = open_.any(axis=1)
        return np.where(found, trucks[np.arange(len(games)), best], self.trucks)

    def _pool(self, games: Ints) -> Bools:
        """The trucks the top of the pile may be: the pile, or the discards when it is empty."""
        place = self.place[games]
        pile = place == PILE
        empty = ~pile.any(axis=1)
        pile[empty] = place[empty] == DISCARDS
        pool: Bools = pile
        return pool

    def _optimal(self, games: Ints) -> Ints:
        trucks, open_ = self._options(games)
        rows = np.arange(len(games))
        player = self.order[games, self.step[games]]
        cargo = self.cargo[games, player]
        value = np.where(
            open_, self.engine.penalties[cargo[:, None], trucks], np.iinfo(np.int64).max
        )
        best = value.argmin(axis=1)
        low = value[rows, best]
        pool = self._pool(games)
        total = (self.engine._penalties16[cargo] * pool).sum(axis=1, dtype=np.int64)
        size = pool.sum(axis=1)
        # The pile wins only strictly below every revealed truck (ties keep the earlier option):
        # total / size < low, compared exactly in integers.
        pile = ~open_.any(axis=1) | (total < low * size)
        return np.where(pile, self.trucks, trucks[rows, best])

    def _bonus_aware(self, games: Ints) -> Ints:
        # Its arrays grow with the square of the deck: a chunk of games at a time.
        chunk = 4096
        if len(games) > chunk:
            return np.concatenate(
                [self._bonus_aware(games[at : at + chunk]) for at in range(0, len(games), chunk)]
            )
        n, d, trucks = self.n, self.d, self.trucks
        size, slots = len(games), n * d
        rows = np.arange(size)
        options, open_ = self._options(games)
        step, order = self.step[games], self.order[games]
        pen = self.engine.penalties[self.cargo[games]]  # (games, n, trucks): everyone's row
        mine = pen[rows, order[rows, step]]  # (games, trucks)
        pool = self._pool(games)
        pool_size = pool.sum(axis=1)
        pile_total = (pen * pool[:, None, :]).sum(axis=2)  # (games, n)
        # above[g, q, t]: the chance that q's penalty from the pile is at least mine on truck t.
        at_least = (pen[:, :, None, :] >= mine[:, None, :, None]) & pool[:, None, None, :]
        above = at_least.sum(axis=3) / pool_size[:, None, None]
        # My choices: each open revealed truck, then the pile; what my penalty may be, weighted.
        weights = np.zeros((size, slots + 1, trucks))
        weights[rows[:, None], np.arange(slots)[None, :], options] = open_
        weights[:, slots, :] = pool / pool_size[:, None]
        survive = np.ones((size, slots + 1, trucks))
        # The players who grabbed before me: their penalties are known.
        for i in range(n - 1):
            q = order[:, i]
            known = pen[rows, q, self.taken[games, q]]
            factor = known[:, None] >= mine
            survive *= np.where((i < step)[:, None], factor, True)[:, None, :]
        # The players after me, each predicted to grab like ``optimal`` from what is left.
        left = np.repeat(self._in_front(games, options).reshape(size, 1, slots), slots + 1, axis=1)
        left[:, np.arange(slots), np.arange(slots)] = False
        owners = np.repeat(np.arange(n), d)
        for k in range(n - 1):
            at = step + 1 + k
            waiting = at < n
            q = order[rows, np.minimum(at, n - 1)]
            last = at == n - 1
            row = pen[rows, q]
            value = row[rows[:, None], options]  # (games, slots)
            can = left & (owners[None, :] != q[:, None])[:, None, :] & ~last[:, None, None]
            held = np.where(can, value[:, None, :], np.iinfo(np.int64).max)
            best = held.argmin(axis=2)
            low = np.take_along_axis(held, best[:, :, None], 2)[:, :, 0]
            takes_pile = ~can.any(axis=2) | (
                pile_total[rows, q][:, None] < low * pool_size[:, None]
            )
            taken = ~takes_pile & waiting[:, None]
            g, a = np.nonzero(taken)
            left[g, a, best[g, a]] = False
            factor = np.where(
                takes_pile[:, :, None],
                above[rows, q][:, None, :],
                low[:, :, None] >= mine[:, None, :],
            )
            survive *= np.where(waiting[:, None, None], factor, 1.0)
        p_bonus = (weights * survive).sum(axis=2)
        expected = (weights * mine[:, None, :]).sum(axis=2)
        value = ROUND_WIN_BONUS * p_bonus - expected
        valid = np.concatenate([open_, np.ones((size, 1), bool)], axis=1)
        value = np.where(valid, value, -np.inf)
        # The first option within 1e-12 of the best, as the scalar bot's ``> best + 1e-12``.
        pick = (value >= value.max(axis=1, keepdims=True) - 1e-12).argmax(axis=1)
        chosen = options[rows, np.minimum(pick, slots - 1)]
        return np.where(pick == slots, trucks, chosen)

    # --- records ------------------------------------------------------------------------------

    def records(self, game: int) -> list[dict[str, Any]]:
        """Game ``game``'s round records (a batch made with ``record=True``), with the fields of
        :class:`packing.RoundRecord` but its plans: its values, for comparing with a scalar game."""
        if self._records is None:
            raise PackingError("this batch keeps no records (make it with record=True)")
        deck, n = self.engine.deck, self.n
        rolls = roll_outcomes()
        out = []
        for games, rounds, cargo, drawn, order, taken, source, pens, bonus, points in self._records:
            hit = np.flatnonzero(games == game)
            if not len(hit):
                continue
            i = int(hit[0])
            # As tuples, equal to the game's Source values (named tuples): ("pile", None) or
            # ("revealed", owner).
            sources = [
                ("pile", None) if s < 0 else ("revealed", int(s)) for s in source[i].tolist()
            ]
            out.append(
                {
                    "number": int(rounds[i]),
                    "first_roller": (int(rounds[i]) - 1) % n,
                    "cargos": tuple(rolls[r][0] for r in cargo[i].tolist()),
                    "revealed": tuple(
                        tuple(deck[j] for j in drawn[i, p].tolist()) for p in range(n)
                    ),
                    "grab_order": tuple(order[i].tolist()),
                    "taken": tuple(deck[j] for j in taken[i].tolist()),
                    "sources": tuple(sources),
                    "penalties": tuple(pens[i].tolist()),
                    "bonus": tuple(np.flatnonzero(bonus[i]).tolist()),
                    "points": tuple(points[i].tolist()),
                }
            )
        return out


def cargo_of(roll: int) -> Cargo:
    """The cargo of roll index ``roll`` (its place in :func:`packing.odds.roll_outcomes`)."""
    return roll_outcomes()[roll][0]
