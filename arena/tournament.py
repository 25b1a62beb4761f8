"""Duplicate-deal tournaments over any ``concurrent.futures.Executor``: wins, intervals, ratings.

A tournament plays ``games`` *deals*. A deal is one seed, so one chance stream (the same dice,
the same draws), and it is played once per *seat rotation*: with ``n`` players, in rotation
``r`` policy ``i`` sits in seat ``(i + r) % n``. Every policy so meets every seat's luck once
per deal and the luck cancels between policies (duplicate bridge's idea). A deal counts only
once all its rotations are played.

Seeds are explicit data: deal ``k`` of a tournament seeded ``S`` is played with
``deal_seed(S, k)``, so any deal can be replayed alone::

    play(new_game(), seated_policies, deal_seed(S, k))

and every :class:`GameRecord` carries its seed and seating. Results do not depend on the
executor, the number of workers or the chunking: each deal is played from its own seed with a
fresh game and fresh copies of the policies' generators, and the results are added up exactly
(:class:`arena.standings.Tally`), so in any order. (Policies must not change their choices from
game to game: a task works on its own pickled copy of them.)

A tournament keeps counts and sums, not games: its memory does not grow with the deals. The
ratings are a Bradley–Terry model fitted to every game at once (:mod:`arena.ratings`), the
win-rate intervals :mod:`arena.stats`'; neither needs an extra. Progress is shown by
:mod:`arena.progress` (a ``tqdm`` bar on a terminal with the ``progress`` extra, plain lines
elsewhere). A ``checkpoint`` file lets an interrupted tournament continue where it stopped. For
example, with a game's ``Game`` class and two of its bots::

    result = tournament(partial(Game, players=2), {"optimal": optimal, "random": RandomPolicy()},
                        games=2000, seed=1, workers=2)
    print(result)                       # the table, best rating first
    result.stat("optimal").win_interval # (low, high), 95 %
    result.to_dict()                    # JSON-ready
"""

from __future__ import annotations

import itertools
import math
import os
import time
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from contextlib import ExitStack
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any, Generic, TypeVar

import numpy as np

from arena.batch import ENGINES, BatchEngine, VectorPolicy, engine_for
from arena.checkpoint import Checkpoint, CheckpointMismatch
from arena.errors import ArenaError
from arena.executors import check_workers, interrupts_ignored, process_pool, stop_pool
from arena.play import play
from arena.progress import Progress
from arena.progress import progress as show_progress
from arena.protocol import GameState, Policy
from arena.ratings import fit_ratings
from arena.standings import Counts, DealSet, Tally
from arena.stats import sums_interval, wilson_interval
from arena.text import plural
from arena.values import seed as check_seed
from arena.values import whole_number

__all__ = [
    "GameRecord",
    "PolicyStats",
    "TournamentResult",
    "bot_tournament",
    "deal_seed",
    "seat_labels",
    "tournament",
]

S = TypeVar("S", bound=GameState)

TASK_SECONDS = 0.25
"""The work a task aims at when the chunk size is chosen automatically: long enough that the
cost of sending it to a worker is small, short enough for a lively progress bar and Ctrl-C."""

CONFIDENCE = 0.95
"""The confidence level of every win-rate interval."""


def seat_labels(names: Sequence[str]) -> tuple[str, ...]:
    """One distinct label per seat for bots given by name: a name given twice is labelled
    ``name``, ``name#2``, ``name#3`` … (the rule of both games' ``tournament(players=...)``
    and their command lines' ``--players``).

    >>> seat_labels(["optimal", "random", "optimal", "optimal"])
    ('optimal', 'random', 'optimal#2', 'optimal#3')
    """
    labels: list[str] = []
    for name in names:
        label, copy = name, 1
        while label in labels:
            copy += 1
            label = f"{name}#{copy}"
        labels.append(label)
    return tuple(labels)


def bot_tournament(
    make_bot: Callable[..., Policy],
    players: Sequence[str],
    new_game: Callable[[int], S],
    *,
    games: int,
    seed: int,
    bot_options: Mapping[str, Mapping[str, Any]] | None = None,
    executor: Executor | None = None,
    workers: int = 1,
    progress: bool = False,
    summarise: Callable[[S], Hashable] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    engine: str = "auto",
    records: bool = False,
) -> TournamentResult:
    """A duplicate-deal :func:`tournament` between bots named in ``players``, one per seat:
    each made by the game's ``make_bot(name, **bot_options.get(name, {}))`` and seated under
    its :func:`seat_labels` label (a name given twice plays as ``name``, ``name#2``, ...).
    ``new_game(players)`` makes a fresh game for that many players (picklable, as
    :func:`tournament` needs: a class or a ``functools.partial`` of one); it is called once
    before any deal, so bad game options fail before a worker starts. The other arguments are
    :func:`tournament`'s. Both games' ``tournament(players=...)`` are this function.
    """
    if isinstance(players, str):
        raise TypeError("players must be a sequence of bot names, not one str")
    seats = {
        label: make_bot(name, **(bot_options or {}).get(name, {}))
        for name, label in zip(players, seat_labels(players))
    }
    make_game = partial(new_game, len(seats))
    make_game()  # bad game options fail here, before any worker starts
    return tournament(
        make_game,
        seats,
        games=games,
        seed=seed,
        executor=executor,
        workers=workers,
        progress=progress,
        checkpoint=checkpoint,
        summarise=summarise,
        engine=engine,
        records=records,
    )


def deal_seed(seed: int, deal: int) -> int:
    """The seed of deal ``deal`` (0-based) of a tournament seeded ``seed``.

    It is ``numpy.random.SeedSequence(seed, spawn_key=(deal,))`` — the ``deal``-th child of
    ``SeedSequence(seed).spawn(...)`` — turned into one (128-bit) integer for :func:`arena.play`, so deals
    are independent streams and any one of them can be replayed alone.

    >>> deal_seed(1, 0) == deal_seed(1, 0) != deal_seed(1, 1)
    True
    """
    seed = check_seed(seed)
    deal = whole_number(deal, "deal", low=0)
    word = np.random.SeedSequence(seed, spawn_key=(deal,)).generate_state(2, np.uint64)
    return int(word[0]) << 64 | int(word[1])


@dataclass(frozen=True)
class GameRecord:
    """One game of a tournament, kept small: enough to replay it and to count anything more.

    ``seating[s]`` is the name of the policy in seat ``s``; ``returns`` and ``winners`` are by
    seat, as the game reported them; ``summary`` is what the tournament's ``summarise`` hook
    returned for the finished game (``None`` without a hook). Replay it with
    ``play(new_game(), [policies[name] for name in record.seating], record.seed)``.
    """

    deal: int
    rotation: int
    seed: int
    seating: tuple[str, ...]
    returns: tuple[float, ...]
    winners: frozenset[int]
    summary: Hashable = None

    def share(self, seat: int) -> Fraction:
        """The part of the win that ``seat`` takes: ``1/k`` for each of ``k`` winners, else 0."""
        return Fraction(1, len(self.winners)) if seat in self.winners else Fraction(0)

    def ranks(self) -> tuple[int, ...]:
        """Each seat's finishing rank (0 best), as the rating counts it: the winners together,
        then the others by points, equal points equal rank.

        >>> record = GameRecord(0, 0, 0, ("a", "b", "c", "d"), (5, 9, 7, 7), frozenset({0}))
        >>> record.ranks()  # a tie-break winner ranks first without the most points
        (0, 1, 2, 2)
        """
        keys = [(seat not in self.winners, -points) for seat, points in enumerate(self.returns)]
        order = sorted(set(keys))
        return tuple(order.index(key) for key in keys)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the summary as the hook gave it)."""
        return {
            "deal": self.deal,
            "rotation": self.rotation,
            "seed": self.seed,
            "seating": list(self.seating),
            "returns": list(self.returns),
            "winners": sorted(self.winners),
            "summary": self.summary,
        }


@dataclass(frozen=True)
class PolicyStats:
    """One policy's results over a tournament.

    - ``games``: games played (every policy plays every game of every completed deal);
    - ``wins``: the wins, exactly, a win shared by ``k`` players counting ``1/k`` to each;
    - ``win_rate``: ``wins / games``; ``win_interval``: its 95 % confidence interval (see
      :class:`TournamentResult` for how it is computed);
    - ``mean_points``: the mean of the policy's ``returns()`` over its games;
    - ``rating``: its Bradley–Terry rating on the Elo scale, the policies' ratings averaging 0
      (see :class:`TournamentResult`), and ``rating_interval`` its 95 % interval.

    With no completed deal the rate, mean and rating are 0 and the intervals are the whole
    ``(0, 1)`` and unbounded.
    """

    name: str
    games: int
    wins: Fraction
    win_rate: float
    win_interval: tuple[float, float]
    mean_points: float
    rating: float
    rating_interval: tuple[float, float]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (``wins`` as a float; an unbounded interval's ends as None)."""
        return {
            "name": self.name,
            "games": self.games,
            "wins": float(self.wins),
            "win_rate": self.win_rate,
            "win_interval": list(self.win_interval),
            "mean_points": self.mean_points,
            "rating": self.rating,
            "rating_interval": [x if math.isfinite(x) else None for x in self.rating_interval],
        }


def _rating_text(stats: PolicyStats) -> str:
    """A rating and the half-width of its 95 % interval, in whole Elo points."""
    low, high = stats.rating_interval
    if not math.isfinite(high - low):
        return f"{stats.rating:+.0f}"
    return f"{stats.rating:+.0f} ± {(high - low) / 2:.0f}"


@dataclass(frozen=True)
class TournamentResult:
    """What a tournament found: per-policy statistics and the record of every game.

    ``policies`` are the names in the order given (policy ``i`` sits in seat ``(i + r) % n`` in
    rotation ``r``); ``stats`` follow that order. ``deals`` deals were completed out of
    ``deals_requested``; ``interrupted`` is True when Ctrl-C stopped the tournament early (the
    statistics then cover the completed deals only). ``records`` holds every game in (deal,
    rotation) order when the tournament was asked to keep them (``records=True``), else
    nothing; ``summaries`` counts the games each summary came in when the tournament
    summarised its games (its ``summarise`` hook), else is None. ``engine`` says which engine played the games: ``"scalar"`` (:func:`arena.play`; a record's
    seed replays its game) or ``"batched"`` (the game's :mod:`batched engine <arena.batch>`;
    its chance is the batch's own, so a record's seed names its deal but does not replay it).

    **Win-rate interval.** The games of one deal share their luck, so they are not independent;
    deals are. For each deal the policy's mean win share over the rotations is one observation
    in ``[0, 1]``; the interval is Student's t interval on the mean of those observations
    (:func:`arena.stats.sums_interval`), clipped to ``[0, 1]``. It accounts
    for shared wins, for the correlation inside a deal, and it shrinks as duplicate deals cancel
    the luck. When the observations have no spread (fewer than two deals, or every deal the
    same share) the t interval is degenerate; the interval is then the Wilson score interval
    (:func:`arena.stats.wilson_interval`) for the rounded sum of the
    shares over the number of deals, which is conservative: a variable in ``[0, 1]`` with mean
    ``p`` has a variance of at most ``p(1 - p)``.

    **Rating.** Each game ranks its seats: the rules' winners first (level with each other),
    then by points (``returns()``, higher better; equal points level), as
    :meth:`GameRecord.ranks`. Every two policies of a game are one comparison (the one ranked
    higher beat the other; level is a draw, half a win each), and the ratings are the
    Bradley–Terry model fitted to all the comparisons at once by maximum likelihood
    (:mod:`arena.ratings`): on the Elo scale, a gap of ``d`` points means the higher finishes
    above the lower ``1 / (1 + 10 ** (-d / 400))`` of the time. They do not depend on the order
    the games were played in. Each pair is given one virtual draw, so a clean sweep still has
    a finite rating; the 95 % interval comes from the deals' spread (the sandwich estimator
    clustered by deal, Student's t), so it too accounts for the luck a deal's games share.
    """

    policies: tuple[str, ...]
    players: int
    seed: int
    deals_requested: int
    deals: int
    interrupted: bool
    stats: tuple[PolicyStats, ...]
    records: tuple[GameRecord, ...] = ()
    engine: str = "scalar"
    summaries: Counts | None = None

    def stat(self, name: str) -> PolicyStats:
        """The statistics of the policy called ``name``."""
        for stats in self.stats:
            if stats.name == name:
                return stats
        raise ArenaError(f"no policy named {name!r} in this tournament")

    def to_dict(self, *, records: bool = False) -> dict[str, Any]:
        """A JSON-ready dict; with ``records=True`` it lists every game too (an
        :class:`ArenaError` when the tournament kept none)."""
        if records and self.deals and not self.records:
            raise ArenaError(
                "this tournament kept no records of its games: run it with records=True"
            )
        out: dict[str, Any] = {
            "policies": list(self.policies),
            "players": self.players,
            "seed": self.seed,
            "deals_requested": self.deals_requested,
            "deals": self.deals,
            "games": self.deals * self.players,
            "interrupted": self.interrupted,
            "engine": self.engine,
            "confidence": CONFIDENCE,
            "stats": [s.to_dict() for s in self.stats],
        }
        if records:
            out["records"] = [r.to_dict() for r in self.records]
        return out

    def __str__(self) -> str:
        """A table, best rating first."""
        head = (
            f"{plural(self.deals, 'deal')} x {plural(self.players, 'seating')} = "
            f"{plural(self.deals * self.players, 'game')}"
            f" (seed {self.seed}" + (", batched engine)" if self.engine == "batched" else ")")
        )
        if self.interrupted:
            head += f", interrupted after {self.deals} of {plural(self.deals_requested, 'deal')}"
        rows = [
            ("policy", "games", "wins", "win rate", "95% interval", "mean points", "rating (Elo)")
        ]
        for s in sorted(self.stats, key=lambda s: (-s.rating, s.name)):
            low, high = s.win_interval
            rows.append(
                (
                    s.name,
                    str(s.games),
                    f"{float(s.wins):.1f}" if s.wins.denominator != 1 else str(s.wins),
                    f"{100 * s.win_rate:.1f}%",
                    f"{100 * low:.1f}-{100 * high:.1f}%",
                    f"{s.mean_points:.2f}",
                    _rating_text(s),
                )
            )
        widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
        lines = [head]
        for row in rows:
            cells = [row[0].ljust(widths[0])] + [
                cell.rjust(w) for cell, w in zip(row[1:], widths[1:])
            ]
            lines.append("  ".join(cells).rstrip())
        return "\n".join(lines)

    def __repr__(self) -> str:
        # A summary, never the records (one per game: thousands of them).
        best = max(self.stats, key=lambda s: (s.rating, s.name), default=None)
        leader = f", best rating {best.name}" if best is not None else ""
        stopped = ", interrupted" if self.interrupted else ""
        return (
            f"<TournamentResult {', '.join(self.policies)}: {self.deals} of "
            f"{plural(self.deals_requested, 'deal')} x {plural(self.players, 'seating')} "
            f"(seed {self.seed})"
            f"{stopped}{leader}>"
        )

    def _repr_html_(self) -> str:
        """The table of ``str()`` as HTML (best rating first), for Jupyter."""
        from arena.svg import html_table

        rows = []
        for s in sorted(self.stats, key=lambda s: (-s.rating, s.name)):
            low, high = s.win_interval
            wins = f"{float(s.wins):.1f}" if s.wins.denominator != 1 else str(s.wins)
            rows.append(
                [
                    s.name,
                    s.games,
                    wins,
                    f"{100 * s.win_rate:.1f}%",
                    f"{100 * low:.1f}–{100 * high:.1f}%",
                    f"{s.mean_points:.2f}",
                    _rating_text(s),
                ]
            )
        caption = repr(self)[1:-1].replace(", best rating", "; best rating")
        headers = ["policy", "games", "wins", "win rate", f"{CONFIDENCE:.0%} interval"]
        return html_table(
            [*headers, "mean points", "rating (Elo)"], rows, caption=caption, right=range(1, 7)
        )


@dataclass(frozen=True)
class _Task(Generic[S]):
    """Deals for one worker: everything travels with it, seeds included."""

    new_game: Callable[[], S]
    names: tuple[str, ...]
    policies: tuple[Policy, ...]
    deals: tuple[tuple[int, int], ...]  # (deal index, deal seed)
    summarise: Callable[[S], Hashable] | None
    records: bool = False  # send the games back, not only their tally


@dataclass(frozen=True)
class _Finished:
    """Deals a worker finished: their numbers, their tally, their games when they are kept."""

    deals: tuple[int, ...]
    tally: Tally
    records: tuple[tuple[GameRecord, ...], ...] | None


def _play_deal(task: _Task[S], deal: int, seed: int) -> tuple[GameRecord, ...]:
    """Every rotation of one deal, from the same seed."""
    n = len(task.policies)
    records = []
    for rotation in range(n):
        order = [(seat - rotation) % n for seat in range(n)]  # policy index in each seat
        state = play(task.new_game(), [task.policies[i] for i in order], seed)
        records.append(
            GameRecord(
                deal=deal,
                rotation=rotation,
                seed=seed,
                seating=tuple(task.names[i] for i in order),
                returns=tuple(float(x) for x in state.returns()),
                winners=frozenset(state.winners()),
                summary=None if task.summarise is None else task.summarise(state),
            )
        )
    return tuple(records)


def _play_task(task: _Task[S]) -> _Finished:
    """A worker's job: the deals of ``task`` in order, tallied where they were played (a
    tally is smaller to send back than the games)."""
    played = tuple(_play_deal(task, deal, seed) for deal, seed in task.deals)
    return _finished(task.names, tuple(deal for deal, _ in task.deals), played, task)


def _finished(
    names: tuple[str, ...],
    deals: tuple[int, ...],
    played: tuple[tuple[GameRecord, ...], ...],
    task: _Task[Any],
) -> _Finished:
    tally = Tally(names, len(names))
    tally.add_records(
        (record for records in played for record in records), task.summarise is not None
    )
    return _Finished(deals, tally, played if task.records else None)


def _check_policies(
    policies: Mapping[str, Policy] | Sequence[Policy],
) -> tuple[tuple[str, ...], tuple[Policy, ...]]:
    if isinstance(policies, Mapping):
        pairs = list(policies.items())
    elif isinstance(policies, Sequence) and not isinstance(policies, str):
        pairs = []
        for policy in policies:
            name = getattr(policy, "name", None)
            if not isinstance(name, str):
                raise TypeError(
                    f"expected policies with a str `name` attribute (or a dict of name -> policy), got {policy!r}"
                )
            pairs.append((name, policy))
    else:
        raise TypeError(
            f"expected a dict of name -> policy or a sequence of named policies, got {policies!r}"
        )
    for name, policy in pairs:
        if not isinstance(name, str) or not name:
            raise TypeError(f"expected a non-empty str policy name, got {name!r}")
        if not isinstance(policy, Policy):
            raise TypeError(
                f"expected a policy with an act(observation, legal_actions, rng) method, got {policy!r}"
            )
    names = tuple(name for name, _ in pairs)
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ArenaError(
            f"policy names must be distinct: {', '.join(map(repr, repeated))} repeated"
        )
    return names, tuple(policy for _, policy in pairs)


def tournament(
    new_game: Callable[[], S],
    policies: Mapping[str, Policy] | Sequence[Policy],
    *,
    games: int,
    seed: int,
    executor: Executor | None = None,
    workers: int = 1,
    progress: bool = True,
    chunk: int | None = None,
    summarise: Callable[[S], Hashable] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    engine: str = "auto",
    records: bool = False,
) -> TournamentResult:
    """Play ``games`` duplicate deals between ``policies`` and return the statistics.

    - ``new_game``: a zero-argument callable returning a fresh game (a :class:`GameState`) —
      picklable when the games run in other processes: a module-level function or class, or a
      ``functools.partial`` of one (``partial(packing.Game, players=4)``), never a lambda.
    - ``policies``: exactly one per player, as a dict ``{name: policy}`` or a sequence of
      policies with a ``name`` attribute (names distinct). Give the same policy under two names
      to seat it twice. Picklable when the games run in other processes.
    - ``games``: the number of deals; each is played once per seat rotation, so there are
      ``games * players`` games in all. ``seed``: a non-negative int; deal ``k`` uses
      :func:`deal_seed` ``(seed, k)``. Seeds are made as the deals are handed out, never all
      in advance, and the games are added up as they finish (:class:`arena.standings.Tally`),
      so the memory a tournament takes does not grow with its deals.
    - ``records``: also keep every game's :class:`GameRecord` (a few hundred bytes each) in
      the result's ``records``, to replay or study games one by one.
    - ``executor``: any :class:`concurrent.futures.Executor`, used as is and left running
      (``workers`` is then only a hint for the chunk size). Without one, ``workers > 1`` makes a
      :class:`~concurrent.futures.ProcessPoolExecutor` of that size (shut down at the end; at
      most :data:`arena.executors.MAX_WORKERS`) and ``workers == 1`` plays in this process.
    - ``chunk``: deals per task sent to the executor. By default the first deal is played here
      and timed, and tasks take about ``TASK_SECONDS`` (0.25 s) of work each, with at least four tasks
      per worker when there are enough deals. At most four tasks per worker are queued at once.
    - ``progress``: progress on stderr, by :func:`arena.progress.progress`'s rule (a tqdm bar
      on a terminal when tqdm is installed, plain lines elsewhere, nothing for work under two
      seconds); ``False`` shows nothing.
    - ``summarise``: an optional picklable ``summarise(final_state) -> value`` (hashable, and
      JSON-ready if ``to_dict(records=True)`` is wanted), for a game's own statistics: the
      result's ``summaries`` counts the games each value came in (a hook with few distinct
      values keeps the memory flat), and each kept :class:`GameRecord` carries its own.
    - ``checkpoint``: a file (:class:`arena.checkpoint.Checkpoint`) where completed deals are
      saved as they finish (and on Ctrl-C). A rerun with the same game, policies, seed,
      ``summarise`` and ``records`` continues from it, and its result is the one an
      uninterrupted run gives; ``games`` may be larger (a tournament can be extended), not
      smaller than a deal the file holds. A checkpoint made with other arguments raises
      :class:`arena.checkpoint.CheckpointMismatch`.
    - ``engine``: ``"auto"`` (the default) plays with the game's batched engine
      (:mod:`arena.batch`) when it has one for these options and every policy is one of its
      vector bots (and no ``summarise`` is asked for), else one game at a time;
      ``"scalar"`` always one game at a time (:func:`arena.play`); ``"batched"`` the batched
      engine or an :class:`ArenaError` saying why not. Batched deals are played up to
      ``BATCH_DEALS`` (2,500) at a time; an engine derives each deal's chance from ``seed`` and the
      deal, so the result depends on ``seed`` alone (not on the executor, the workers, ``chunk``
      or a checkpoint); the games of one deal share its chance as the scalar engine's do. The two engines draw
      chance differently, so they agree in distribution, not game for game. The result's
      ``engine`` names the one that played.

    Ctrl-C (``KeyboardInterrupt``, also one raised by a policy) stops the tournament: pending
    tasks are cancelled, the workers of a pool made here are stopped, and the result covers
    the deals completed so far, with ``interrupted=True``. Any other error is raised.

    Bad input raises :class:`ArenaError` (wrong number of policies, repeated names, ``games`` or
    ``workers`` below 1, a negative seed) or :class:`TypeError` (wrong types).
    """
    if not callable(new_game):
        raise TypeError(f"expected a zero-argument callable returning a game, got {new_game!r}")
    names, seated = _check_policies(policies)
    games = whole_number(games, "games", low=1)
    seed = check_seed(seed)
    workers = check_workers(workers)
    if chunk is not None:
        chunk = whole_number(chunk, "chunk", low=1)
    if executor is not None and not isinstance(executor, Executor):
        raise TypeError(f"expected a concurrent.futures.Executor, got {executor!r}")
    if summarise is not None and not callable(summarise):
        raise TypeError(f"expected a callable summarise(state), got {summarise!r}")
    if not isinstance(records, bool):
        raise TypeError(f"records must be True or False, not {records!r}")
    first = new_game()
    if not isinstance(first, GameState):
        raise TypeError(f"new_game() returned {first!r}, not a game state")
    if len(seated) != first.num_players:
        raise ArenaError(f"{len(seated)} policies for {first.num_players} players")
    batched = _batched(engine, first, names, seated, summarise)

    saved = None
    if checkpoint is not None:
        fingerprint: dict[str, object] = {
            "new_game": new_game,
            "policies": seated,
            "names": names,
            "seed": seed,
            "summarise": summarise,
        }
        if batched is not None:  # its deals are other games than the scalar engine's
            fingerprint["engine"] = "batched"
        if records:  # a file without the games cannot give them back
            fingerprint["records"] = True
        saved = Checkpoint(checkpoint, kind="tournament", fingerprint=fingerprint)
    task = _Task(new_game, names, seated, (), summarise, records)
    keep = _Keeper(Tally(names, first.num_players), saved, records)
    if saved is not None:
        try:
            keep.resume(games, os.fspath(saved.path), summarise is not None)
        except BaseException:
            saved.close()
            raise
    remaining = games - len(keep.done)
    interrupted = False
    with ExitStack() as after_an_interrupt:
        with show_progress(
            games, desc="tournament", unit="deal", enabled=progress, initial=len(keep.done)
        ) as keep.bar:
            seeds = ((deal, deal_seed(seed, deal)) for deal in keep.done.missing(games))
            try:
                if remaining and batched is not None:
                    block = _Block(batched[0], names, batched[1], seed, 0, (), summarise, records)
                    _run_blocks(block, games, keep, executor=executor, workers=workers)
                elif remaining and executor is None and workers == 1:
                    for deal, s in seeds:
                        keep.played(task, deal, _play_deal(task, deal, s))
                elif remaining:
                    _run_parallel(
                        task,
                        seeds,
                        remaining,
                        keep,
                        executor=executor,
                        workers=workers,
                        chunk=chunk,
                    )
            except KeyboardInterrupt:
                interrupted = True
                # The finished deals are saved and returned: a second Ctrl-C while that happens
                # would lose what the first one kept, so it waits until the result is made.
                after_an_interrupt.enter_context(interrupts_ignored())
            finally:
                try:
                    keep.settle()
                finally:
                    if saved is not None:
                        saved.close()
        return _result(
            keep,
            seed=seed,
            deals_requested=games,
            interrupted=interrupted,
            engine="scalar" if batched is None else "batched",
        )


#: Deals the serial path plays before it tallies them (or fewer, after ``TASK_SECONDS``): one
#: deal at a time would spend more on NumPy's call overhead than on the sums.
SERIAL_TALLY_DEALS = 64


class _Keeper:
    """Where finished deals go: the tally, the set of done deals, the records when they are
    kept, the progress bar and the checkpoint (the tally and the done deals under one key,
    ``"standing"``, so they are always saved together; each deal's records under its number)."""

    def __init__(self, tally: Tally, saved: Checkpoint | None, records: bool) -> None:
        self.tally = tally
        self.done = DealSet()
        self.records: dict[int, tuple[GameRecord, ...]] | None = {} if records else None
        self.saved = saved
        self.bar: Progress | None = None
        self._serial: list[tuple[int, tuple[GameRecord, ...]]] = []
        self._serial_task: _Task[Any] | None = None
        self._serial_since = time.monotonic()

    def resume(self, games: int, where: str, summarised: bool) -> None:
        """Take over what the checkpoint holds."""
        assert self.saved is not None
        entries = self.saved.entries
        standing = entries.get("standing")
        if isinstance(standing, _Standing):
            self.tally, self.done = standing.tally, standing.done
        else:  # each deal's games under its number: files of versions that kept every game
            for deal in sorted(k for k in entries if isinstance(k, int)):
                self.tally.add_records(entries[deal], summarised)
                self.done.add(deal)
        if self.done.last() >= games:
            raise CheckpointMismatch(
                f"checkpoint {where!r} holds deals up to {self.done.last() + 1}: run at least "
                "that many, or choose another file"
            )
        if self.records is not None:
            self.records.update((k, v) for k, v in entries.items() if isinstance(k, int))

    def finished(self, done: _Finished, *, shown: bool = False) -> None:
        """Keep what a worker finished (its progress already ``shown``, or not)."""
        self.tally.merge(done.tally)
        for deal in done.deals:
            self.done.add(deal)
        if self.records is not None and done.records is not None:
            for deal, records in zip(done.deals, done.records):
                self.records[deal] = records
                if self.saved is not None:
                    self.saved.add(deal, records)
        if self.saved is not None:
            self.saved.add("standing", _Standing(self.tally, self.done))
        if self.bar is not None and not shown:
            self.bar.update(len(done.deals))

    def played(self, task: _Task[Any], deal: int, records: tuple[GameRecord, ...]) -> None:
        """One deal played here: tallied with the next few (see :data:`SERIAL_TALLY_DEALS`)."""
        self._serial.append((deal, records))
        self._serial_task = task
        if self.bar is not None:
            self.bar.update()
        since = time.monotonic() - self._serial_since
        if len(self._serial) >= SERIAL_TALLY_DEALS or since >= TASK_SECONDS:
            self.settle()

    def settle(self) -> None:
        """Tally the deals played here and not yet tallied."""
        self._serial_since = time.monotonic()
        if not self._serial or self._serial_task is None:
            return
        deals = tuple(deal for deal, _ in self._serial)
        played = tuple(records for _, records in self._serial)
        self._serial = []
        self.finished(_finished(self.tally.names, deals, played, self._serial_task), shown=True)


@dataclass(frozen=True)
class _Standing:
    """What a checkpoint keeps of a tournament: its tally and which deals it holds."""

    tally: Tally
    done: DealSet


def _tasks(task: _Task[S], seeds: Iterator[tuple[int, int]], chunk: int) -> Iterator[_Task[S]]:
    """The deals of ``seeds`` in tasks of ``chunk`` deals, made as they are asked for."""
    while True:
        deals = tuple(itertools.islice(seeds, chunk))
        if not deals:
            return
        yield _Task(task.new_game, task.names, task.policies, deals, task.summarise, task.records)


def _run_parallel(
    task: _Task[S],
    seeds: Iterator[tuple[int, int]],
    remaining: int,
    keep: _Keeper,
    *,
    executor: Executor | None,
    workers: int,
    chunk: int | None,
) -> None:
    """Play the ``remaining`` deals of ``seeds`` through an executor, keeping each finished
    task; re-raises Ctrl-C after keeping what finished."""
    parallel = workers if executor is None or workers > 1 else (os.cpu_count() or 1)
    if chunk is None:
        # Time one deal here to size the tasks (its result counts like any other).
        start = time.perf_counter()
        deal, s = next(seeds)
        keep.finished(_finished(task.names, (deal,), (_play_deal(task, deal, s),), task))
        remaining -= 1
        elapsed = max(time.perf_counter() - start, 1e-6)
        chunk = max(
            1, min(math.ceil(TASK_SECONDS / elapsed), math.ceil(remaining / (4 * parallel)))
        )
    if not remaining:
        return
    _through_executor(
        _tasks(task, seeds, chunk),
        _play_task,
        lambda _, finished: keep.finished(finished),
        executor=executor,
        workers=workers,
    )


J = TypeVar("J")
R = TypeVar("R")


def _through_executor(
    jobs: Iterator[J],
    work: Callable[[J], R],
    kept: Callable[[J, R], None],
    *,
    executor: Executor | None,
    workers: int,
) -> None:
    """``work`` each of ``jobs`` through ``executor`` (a process pool of ``workers`` made here
    when None, stopped at the end), at most four jobs a worker queued at once, each result
    ``kept`` as it finishes; re-raises Ctrl-C (or any error) after keeping what finished."""
    parallel = workers if executor is None or workers > 1 else (os.cpu_count() or 1)
    own: ProcessPoolExecutor | None = None
    pending: dict[Future[R], J] = {}
    try:
        if executor is None:
            executor = own = process_pool(workers)
        for job in itertools.islice(jobs, 4 * parallel):
            pending[executor.submit(work, job)] = job
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                kept(pending.pop(future), future.result())
                for job in itertools.islice(jobs, 1):
                    pending[executor.submit(work, job)] = job
    except BaseException:
        for future in pending:
            future.cancel()
        # Keep what finished meanwhile: an interrupted result covers every completed deal.
        for future, job in pending.items():
            if future.done() and not future.cancelled() and future.exception() is None:
                kept(job, future.result())
        if own is not None:
            stop_pool(own)
            own = None
        raise
    finally:
        if own is not None:
            own.shutdown(wait=True)


# --- the batched engine -----------------------------------------------------------------------

#: Deals a batched tournament plays in one batch at most (that many times the players games):
#: large enough that array work dominates, small enough to share among workers. A deal's games do
#: not depend on the batch it is played in (engines key chance by deal), so neither does the result.
BATCH_DEALS = 2500

#: Deals a batch sent to an executor holds at most: a fraction of a second of work, as the
#: scalar engine's tasks (``TASK_SECONDS``), so progress and Ctrl-C reach the workers promptly.
EXECUTOR_BATCH_DEALS = 250

# Mixed into every batch's seed, so a batch's chance is never a scalar deal's stream.
_BATCH_ENTROPY = 0xBA7C4ED


def _batched(
    engine: str,
    first: GameState,
    names: tuple[str, ...],
    policies: tuple[Policy, ...],
    summarise: Callable[[Any], Hashable] | None,
) -> tuple[BatchEngine, tuple[VectorPolicy, ...]] | None:
    """The batched engine and vector policies to play with, or None for the scalar engine
    (``engine`` ``"auto"`` where batching does not apply); ``"batched"`` where it does not
    apply is an :class:`ArenaError` saying why."""
    if not isinstance(engine, str) or engine not in ENGINES:
        raise ArenaError(f"unknown engine {engine!r} (choose from {', '.join(ENGINES)})")
    if engine == "scalar":
        return None
    asked = engine == "batched"
    found = engine_for(first)
    if found is None:
        if asked:
            raise ArenaError("engine 'batched': this game has no batched engine for its options")
        return None
    if summarise is not None and not found.summarises(summarise):
        if asked:
            raise ArenaError(f"engine 'batched' cannot summarise games with {summarise!r}")
        return None
    vector = [found.vector_policy(policy) for policy in policies]
    missing = [name for name, v in zip(names, vector) if v is None]
    if missing:
        if asked:
            raise ArenaError(
                f"engine 'batched' cannot play {', '.join(map(repr, missing))} "
                "(only bots the game's batched engine implements)"
            )
        return None
    return found, tuple(v for v in vector if v is not None)


@dataclass(frozen=True)
class _Block:
    """One batch of deals for a worker: the engine, the policies' names and vector forms, the
    tournament's seed, the block's number (for the reader) and its deals."""

    engine: BatchEngine
    names: tuple[str, ...]
    policies: tuple[VectorPolicy, ...]
    seed: int
    block: int
    deals: tuple[int, ...]
    summarise: Callable[[Any], Hashable] | None = None
    records: bool = False


def _play_block(block: _Block) -> _Finished:
    """Every rotation of every deal of ``block``, as one batch (the deals' games share chance)."""
    n, names = len(block.policies), block.names
    # Rotation r puts policy i in seat (i + r) % n, as the scalar engine does.
    rotations = (np.arange(n)[None, :] - np.arange(n)[:, None]) % n  # [r, seat] -> policy
    seating = np.tile(rotations, (len(block.deals), 1))
    deals = np.repeat(np.array(block.deals, np.intp), n)
    # One sequence for every batch: an engine derives each deal's chance from it and the deal.
    sequence = np.random.SeedSequence([block.seed, _BATCH_ENTROPY])
    result = block.engine.play(
        seating, block.policies, deals, np.random.default_rng(sequence), block.summarise
    )
    tally = Tally(names, n)
    tally.add_games(seating, result.returns, result.winners, result.summaries)
    return _Finished(block.deals, tally, _block_records(block, result) if block.records else None)


def _block_records(block: _Block, result: Any) -> tuple[tuple[GameRecord, ...], ...]:
    """The games of a played block as records, deal by deal."""
    n, names = len(block.policies), block.names
    rotations = (np.arange(n)[None, :] - np.arange(n)[:, None]) % n
    returns, winners = result.returns.tolist(), result.winners.tolist()
    summaries = result.summaries
    out = []
    for k, deal in enumerate(block.deals):
        seed = deal_seed(block.seed, deal)
        records = []
        for rotation in range(n):
            g = k * n + rotation
            records.append(
                GameRecord(
                    deal=deal,
                    rotation=rotation,
                    seed=seed,
                    seating=tuple(names[i] for i in rotations[rotation]),
                    returns=tuple(float(x) for x in returns[g]),
                    winners=frozenset(s for s, won in enumerate(winners[g]) if won),
                    summary=None if summaries is None else summaries[g],
                )
            )
        out.append(tuple(records))
    return tuple(out)


def _run_blocks(
    template: _Block, games: int, keep: _Keeper, *, executor: Executor | None, workers: int
) -> None:
    """Play the deals not yet kept, ``BATCH_DEALS`` (2,500) to a batch here, or
    ``EXECUTOR_BATCH_DEALS`` (250) to a batch through an executor (at most four batches a
    worker queued at once). Re-raises Ctrl-C after keeping what finished."""
    here = executor is None and workers == 1
    size = BATCH_DEALS if here else EXECUTOR_BATCH_DEALS

    def blocks() -> Iterator[_Block]:  # made as they are asked for: a tournament may be huge
        missing = keep.done.missing(games)
        for number in itertools.count():
            deals = tuple(itertools.islice(missing, size))
            if not deals:
                return
            yield _Block(
                template.engine,
                template.names,
                template.policies,
                template.seed,
                number,
                deals,
                template.summarise,
                template.records,
            )

    jobs = blocks()
    if here:
        for block in jobs:
            keep.finished(_play_block(block))
        return
    _through_executor(
        jobs,
        _play_block,
        lambda _, finished: keep.finished(finished),
        executor=executor,
        workers=workers,
    )


def _win_interval(tally: Tally, i: int) -> tuple[float, float]:
    """The 95 % interval of the mean of policy ``i``'s per-deal win shares (see
    :class:`TournamentResult`)."""
    deals = tally.deals
    if deals == 0:
        return (0.0, 1.0)
    per_deal = tally.unit * tally.players  # a deal's share is its wins over this many units
    total = Fraction(tally.wins[i], per_deal)
    squares = Fraction(tally.deal_wins_squared[i], per_deal * per_deal)
    if deals >= 2 and deals * squares != total * total:  # the shares have a spread
        _, low, high = sums_interval(deals, total, squares)
        return (max(0.0, low), min(1.0, high))
    return wilson_interval(round(total), deals)


def _result(
    keep: _Keeper, *, seed: int, deals_requested: int, interrupted: bool, engine: str
) -> TournamentResult:
    """The statistics of what ``keep`` holds: see :class:`TournamentResult`."""
    tally = keep.tally
    fit = fit_ratings(tally.comparisons) if tally.comparisons is not None else None
    stats = []
    for i, name in enumerate(tally.names):
        played = tally.games[i]
        stats.append(
            PolicyStats(
                name=name,
                games=played,
                wins=Fraction(tally.wins[i], tally.unit),
                win_rate=tally.wins[i] / (tally.unit * played) if played else 0.0,
                win_interval=_win_interval(tally, i),
                mean_points=float(tally.points[i] / played) if played else 0.0,
                rating=fit.ratings[i] if fit is not None else 0.0,
                rating_interval=fit.intervals[i] if fit is not None else (-math.inf, math.inf),
            )
        )
    kept = keep.records or {}
    return TournamentResult(
        policies=tally.names,
        players=tally.players,
        seed=seed,
        deals_requested=deals_requested,
        deals=tally.deals,
        interrupted=interrupted,
        stats=tuple(stats),
        records=tuple(
            record for deal in sorted(kept) if deal < deals_requested for record in kept[deal]
        ),
        engine=engine,
        summaries=None if tally.summaries is None else Counts(tally.summaries),
    )
