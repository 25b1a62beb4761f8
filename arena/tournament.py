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
fresh game and fresh copies of the policies' generators, and the results are combined in deal
order. (Policies must not change their choices from game to game: a task works on its own
pickled copy of them.)

The rating needs the ``tournament`` extra (``openskill``), imported when a tournament starts
(the win-rate intervals are :mod:`arena.stats`', which needs none); progress is shown by
:mod:`arena.progress` (a ``tqdm`` bar on a terminal with the ``progress`` extra, plain lines
elsewhere). A ``checkpoint`` file lets an interrupted tournament continue where it stopped. For example, with a game's
``Game`` class and two of its bots::

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
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from contextlib import ExitStack
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any, Generic, TypeVar

import numpy as np

from arena.batch import ENGINES, BatchEngine, VectorPolicy, engine_for
from arena.checkpoint import Checkpoint
from arena.errors import ArenaError
from arena.executors import check_workers, interrupts_ignored, process_pool, stop_pool
from arena.extras import import_extra
from arena.play import play
from arena.progress import Progress
from arena.progress import progress as show_progress
from arena.protocol import GameState, Policy
from arena.stats import mean_interval, wilson_interval
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
    - ``mu``, ``sigma``: its openskill Plackett–Luce rating after the whole tournament, and
      ``rating = mu - 3 * sigma`` (openskill's ``ordinal``: a conservative skill estimate).

    With no completed deal the rate and mean are 0 and the interval is the whole ``(0, 1)``.
    """

    name: str
    games: int
    wins: Fraction
    win_rate: float
    win_interval: tuple[float, float]
    mean_points: float
    mu: float
    sigma: float
    rating: float

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (``wins`` as a float)."""
        return {
            "name": self.name,
            "games": self.games,
            "wins": float(self.wins),
            "win_rate": self.win_rate,
            "win_interval": list(self.win_interval),
            "mean_points": self.mean_points,
            "mu": self.mu,
            "sigma": self.sigma,
            "rating": self.rating,
        }


@dataclass(frozen=True)
class TournamentResult:
    """What a tournament found: per-policy statistics and the record of every game.

    ``policies`` are the names in the order given (policy ``i`` sits in seat ``(i + r) % n`` in
    rotation ``r``); ``stats`` follow that order. ``deals`` deals were completed out of
    ``deals_requested``; ``interrupted`` is True when Ctrl-C stopped the tournament early (the
    statistics then cover the completed deals only). ``records`` are in (deal, rotation) order.
    ``engine`` says which engine played the games: ``"scalar"`` (:func:`arena.play`; a record's
    seed replays its game) or ``"batched"`` (the game's :mod:`batched engine <arena.batch>`;
    its chance is the batch's own, so a record's seed names its deal but does not replay it).

    **Win-rate interval.** The games of one deal share their luck, so they are not independent;
    deals are. For each deal the policy's mean win share over the rotations is one observation
    in ``[0, 1]``; the interval is Student's t interval on the mean of those observations
    (:func:`arena.stats.mean_interval`), clipped to ``[0, 1]``. It accounts
    for shared wins, for the correlation inside a deal, and it shrinks as duplicate deals cancel
    the luck. When the observations have no spread (fewer than two deals, or every deal the
    same share) the t interval is degenerate; the interval is then the Wilson score interval
    (:func:`arena.stats.wilson_interval`) for the rounded sum of the
    shares over the number of deals, which is conservative: a variable in ``[0, 1]`` with mean
    ``p`` has a variance of at most ``p(1 - p)``.

    **Rating.** Each game is one Plackett–Luce match (``openskill.models.PlackettLuce`` with its
    default parameters), the seats ranked by the rules' winners first (all tied), then by points
    (``returns()``, higher better; equal points tie). Games are rated in (deal, rotation) order,
    so the rating is deterministic.
    """

    policies: tuple[str, ...]
    players: int
    seed: int
    deals_requested: int
    deals: int
    interrupted: bool
    stats: tuple[PolicyStats, ...]
    records: tuple[GameRecord, ...]
    engine: str = "scalar"

    def stat(self, name: str) -> PolicyStats:
        """The statistics of the policy called ``name``."""
        for stats in self.stats:
            if stats.name == name:
                return stats
        raise ArenaError(f"no policy named {name!r} in this tournament")

    def to_dict(self, *, records: bool = False) -> dict[str, Any]:
        """A JSON-ready dict; with ``records=True`` it lists every game too."""
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
        rows = [("policy", "games", "wins", "win rate", "95% interval", "mean points", "rating")]
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
                    f"{s.rating:.2f}",
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
                    f"{s.rating:.2f}",
                ]
            )
        caption = repr(self)[1:-1].replace(", best rating", "; best rating")
        headers = ["policy", "games", "wins", "win rate", f"{CONFIDENCE:.0%} interval"]
        return html_table(
            [*headers, "mean points", "rating"], rows, caption=caption, right=range(1, 7)
        )


@dataclass(frozen=True)
class _Task(Generic[S]):
    """Deals for one worker: everything travels with it, seeds included."""

    new_game: Callable[[], S]
    names: tuple[str, ...]
    policies: tuple[Policy, ...]
    deals: tuple[tuple[int, int], ...]  # (deal index, deal seed)
    summarise: Callable[[S], Hashable] | None


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


def _play_task(task: _Task[S]) -> tuple[tuple[GameRecord, ...], ...]:
    """A worker's job: the deals of ``task`` in order."""
    return tuple(_play_deal(task, deal, seed) for deal, seed in task.deals)


def _rating_model() -> type[Any]:
    """openskill's Plackett–Luce model, or :class:`MissingExtraError` naming the
    ``tournament`` extra."""
    models = import_extra("openskill.models", "tournament")
    return models.PlackettLuce  # type: ignore[no-any-return]


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
      in advance, so the cost of a tournament is that of the deals played; the result keeps
      every game's :class:`GameRecord` (a few hundred bytes each) in memory.
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
    - ``summarise``: an optional picklable ``summarise(final_state) -> value`` whose result
      (hashable, and JSON-ready if ``to_dict(records=True)`` is wanted) is kept in each
      :class:`GameRecord`, for a game's own statistics.
    - ``checkpoint``: a file (:class:`arena.checkpoint.Checkpoint`) where completed deals are
      saved as they finish (and on Ctrl-C). A rerun with the same game, policies, seed and
      ``summarise`` continues from it, and its result is the one an uninterrupted run gives;
      ``games`` may differ (deals the file holds beyond ``games`` are not counted, so a
      tournament can also be extended). A checkpoint made with other arguments raises
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
    ``workers`` below 1, a negative seed) or :class:`TypeError` (wrong types); a missing
    openskill raises :class:`arena.extras.MissingExtraError` naming the ``tournament`` extra.
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
    first = new_game()
    if not isinstance(first, GameState):
        raise TypeError(f"new_game() returned {first!r}, not a game state")
    if len(seated) != first.num_players:
        raise ArenaError(f"{len(seated)} policies for {first.num_players} players")
    model = _rating_model()  # fail before playing, not after
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
        saved = Checkpoint(checkpoint, kind="tournament", fingerprint=fingerprint)
    task = _Task(new_game=new_game, names=names, policies=seated, deals=(), summarise=summarise)
    done: dict[int, tuple[GameRecord, ...]] = {}
    if saved is not None:
        done.update(
            (deal, records)
            for deal, records in saved.entries.items()
            if isinstance(deal, int) and deal < games
        )
    remaining = games - len(done)
    seeds = ((deal, deal_seed(seed, deal)) for deal in range(games) if deal not in done)
    interrupted = False
    with ExitStack() as after_an_interrupt:
        with show_progress(
            games, desc="tournament", unit="deal", enabled=progress, initial=len(done)
        ) as bar:
            keep = _Keeper(done, bar, saved)
            try:
                if remaining and batched is not None:
                    _run_blocks(
                        _Block(batched[0], names, batched[1], seed, 0, (), summarise),
                        games,
                        keep,
                        executor=executor,
                        workers=workers,
                    )
                elif remaining and executor is None and workers == 1:
                    for deal, s in seeds:
                        keep.deal(deal, _play_deal(task, deal, s))
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
                if saved is not None:
                    saved.close()
        records = tuple(record for deal in sorted(done) for record in done[deal])
        return _result(
            names,
            records,
            players=first.num_players,
            seed=seed,
            deals_requested=games,
            deals=len(done),
            interrupted=interrupted,
            model=model,
            engine="scalar" if batched is None else "batched",
        )


class _Keeper:
    """Where finished deals go: the result's records, the progress, the checkpoint."""

    def __init__(
        self, done: dict[int, tuple[GameRecord, ...]], bar: Progress, saved: Checkpoint | None
    ) -> None:
        self.done = done
        self.bar = bar
        self.saved = saved

    def deal(self, deal: int, records: tuple[GameRecord, ...]) -> None:
        self.done[deal] = records
        if self.saved is not None:
            self.saved.add(deal, records)
        self.bar.update()

    def task(self, job: _Task[Any], result: Iterable[tuple[GameRecord, ...]]) -> None:
        for (deal, _), records in zip(job.deals, result):
            self.deal(deal, records)


def _tasks(task: _Task[S], seeds: Iterator[tuple[int, int]], chunk: int) -> Iterator[_Task[S]]:
    """The deals of ``seeds`` in tasks of ``chunk`` deals, made as they are asked for."""
    while True:
        deals = tuple(itertools.islice(seeds, chunk))
        if not deals:
            return
        yield _Task(task.new_game, task.names, task.policies, deals, task.summarise)


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
        keep.deal(deal, _play_deal(task, deal, s))
        remaining -= 1
        elapsed = max(time.perf_counter() - start, 1e-6)
        chunk = max(
            1, min(math.ceil(TASK_SECONDS / elapsed), math.ceil(remaining / (4 * parallel)))
        )
    if not remaining:
        return
    _through_executor(
        _tasks(task, seeds, chunk), _play_task, keep.task, executor=executor, workers=workers
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


def _play_block(block: _Block) -> tuple[tuple[GameRecord, ...], ...]:
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
        missing = (deal for deal in range(games) if deal not in keep.done)
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
            )

    def kept(block: _Block, result: tuple[tuple[GameRecord, ...], ...]) -> None:
        for deal, records in zip(block.deals, result):
            keep.deal(deal, records)

    jobs = blocks()
    if here:
        for block in jobs:
            kept(block, _play_block(block))
        return
    _through_executor(jobs, _play_block, kept, executor=executor, workers=workers)


def _win_interval(shares: list[float]) -> tuple[float, float]:
    """The 95 % interval of the mean of per-deal win shares (see :class:`TournamentResult`)."""
    n = len(shares)
    if n == 0:
        return (0.0, 1.0)
    if n >= 2 and any(x != shares[0] for x in shares):
        _, low, high = mean_interval(shares)
        return (max(0.0, low), min(1.0, high))
    return wilson_interval(round(math.fsum(shares)), n)


def _result(
    names: tuple[str, ...],
    records: tuple[GameRecord, ...],
    *,
    players: int,
    seed: int,
    deals_requested: int,
    deals: int,
    interrupted: bool,
    model: type[Any],
    engine: str = "scalar",
) -> TournamentResult:
    """The statistics of ``records`` (in deal order): see :class:`TournamentResult`."""
    index = {name: i for i, name in enumerate(names)}
    # Win shares are counted exactly in integer units of 1/unit (every 1/k with k <= players
    # is a whole number of them): Fraction arithmetic per game would cost more than the games.
    unit = math.lcm(*range(1, players + 1))
    wins = [0] * len(names)
    points: list[list[float]] = [[] for _ in names]
    deal_wins: list[dict[int, int]] = [{} for _ in names]
    rater = model()
    ratings = [rater.rating(name=name) for name in names]
    for record in records:
        for seat, name in enumerate(record.seating):
            i = index[name]
            share = unit // len(record.winners) if seat in record.winners else 0
            wins[i] += share
            points[i].append(record.returns[seat])
            deal_wins[i][record.deal] = deal_wins[i].get(record.deal, 0) + share
        seated = [ratings[index[name]] for name in record.seating]
        rated = rater.rate([[r] for r in seated], ranks=list(record.ranks()))
        for name, team in zip(record.seating, rated):
            ratings[index[name]] = team[0]
    stats = []
    for i, name in enumerate(names):
        played = len(points[i])
        # Each deal's mean share over its rotations: one observation per (independent) deal.
        shares = [deal_wins[i][d] / (unit * players) for d in sorted(deal_wins[i])]
        stats.append(
            PolicyStats(
                name=name,
                games=played,
                wins=Fraction(wins[i], unit),
                win_rate=wins[i] / (unit * played) if played else 0.0,
                win_interval=_win_interval(shares),
                mean_points=math.fsum(points[i]) / played if played else 0.0,
                mu=float(ratings[i].mu),
                sigma=float(ratings[i].sigma),
                rating=float(ratings[i].ordinal()),
            )
        )
    return TournamentResult(
        policies=names,
        players=players,
        seed=seed,
        deals_requested=deals_requested,
        deals=deals,
        interrupted=interrupted,
        stats=tuple(stats),
        records=records,
        engine=engine,
    )
