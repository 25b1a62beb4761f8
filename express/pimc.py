"""Perfect-information Monte Carlo: sample the hidden worlds, solve each exactly, play the best mean.

The method of the card-game programs that lead their fields (bridge's GIB, Skat's Kermit): a
player does not know the deck's order nor the others' face-down cards, but every world
consistent with what it saw can be solved exactly. :func:`estimate_plays` draws ``worlds`` such
worlds with :func:`express.worlds.sample_worlds` (each with its probability given the
observation), values every candidate play in each with :func:`express.exact.play_values` (one
exact search per world for all the plays; playouts where an exact search would be too long,
see below), and reports each play's mean over the worlds with a
95 % interval. :class:`PimcBot` (``express.bot("pimc")``) plays the best mean; the advisor
(:func:`advise`, ``express advise`` at the command line) shows them all, best first, as an
:class:`Advice`.

What a value measures, for the player to move (``measure``):

- two players: its final score minus the opponent's, both playing perfectly in that world;
- three to five players, ``rule="paranoid"`` (the default): its final score minus the best
  rival's, the rivals playing to minimise that; ``rule="maxn"``: its own final score when every
  player maximises its own (see :func:`express.exact.play_values` for ties).

Exact where it can be: an exact search of two-player worlds takes at most ~0.1 s, but one of
three to five players grows about tenfold with every two turns left and takes hours from the
first turn. So each decision first tries its first world with at most ``exact_nodes`` states
(``DEFAULT_EXACT_NODES``; :class:`express.SearchLimitReached` past it): if that settles
it, every world of the decision is solved exactly; if not, every world is valued by playouts
(``playout_values``: after each candidate play, every player plays as ``bot("greedy")``
to the end of that world, the same measure read from the final scores). Two-player worlds are
always solved exactly.

The worlds are common to all plays (each play is valued in the same worlds, so the comparison
is fair). The bot stops sampling early once its exact searches have taken
:data:`~express.pimc.DEFAULT_DECISION_STATES` states (``states``): a budget that binds only where every world
is a whole two-player deal. Everything random comes from the generator given, so with
``time_limit=None`` a seeded game replays exactly; with a time limit, sampling stops when it
runs out (at least one world is always solved), and how many worlds fit depends on the
machine.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from arena import Action
from arena.memo import HashedOnce
from arena.progress import progress as show_progress
from arena.stats import counted_mean_interval
from arena.text import plural
from arena.values import generator, seconds, whole_number
from express.batch import Engine, VectorGreedy
from express.cards import ENGINE, Car, Card
from express.endgame import expected_values
from express.errors import ExpressError
from express.exact import SearchLimitReached, play_values_with_states
from express.game import Game, Observation
from express.match import MatchObservation
from express.scoring import score_game
from express.train import Play, Train, connects, runs_of
from express.worlds import game_view, iter_worlds, worlds_are_uniform

__all__ = [
    "Advice",
    "DEFAULT_DECISION_STATES",
    "DEFAULT_ENDGAME_TURNS",
    "DEFAULT_MORE_WORLDS",
    "CHEAP_WORLD_STATES",
    "DEFAULT_RULE",
    "DEFAULT_TIME_LIMIT",
    "DEFAULT_WORLDS",
    "MAX_WORLDS",
    "RULES",
    "PimcBot",
    "PlayEstimate",
    "estimate_plays",
    "measure_of",
    "advise",
]

DEFAULT_WORLDS = 16
"""Worlds sampled per decision by default: a two-player decision with every card to come takes
about 0.1 s a world to solve (figures in docs/strength.md)."""

MAX_WORLDS = 100_000
"""The most worlds one decision samples; :func:`express.advise` and ``express advise --worlds``
share it. Each world is counted and solved (up to about 0.1 s at a deal's first turn), so this
ceiling refuses absurd counts, not long runs."""

DEFAULT_TIME_LIMIT: float | None = None
"""No time limit by default, so a seeded game replays exactly whatever the machine's speed."""

DEFAULT_DECISION_STATES = 100_000
"""The states the exact searches of one decision of ``bot("pimc")`` may take in all: once
they have, it stops sampling worlds (at least one is always solved). A budget in states, not
seconds, so a seeded game replays exactly on any machine. It binds only at the first turns of
two players, where every world is a whole deal (some 5,000–14,000 states each; 16 of them took
up to 3 s): there it solves some 9 to 15 worlds, about a second's work."""

DEFAULT_EXACT_NODES = 500
"""The states an exact search of a world may take before the decision's worlds are valued by
playouts instead (a few tens of milliseconds): what keeps the early turns of three to five
players, whose exact search takes minutes, within a decision's time."""

PLAYOUT_BATCH = 1_000
"""The most worlds :func:`estimate_plays` values by playouts in one batch
(:func:`batched_playout_values`) when no time limit stops it. A batch holds a game per world and
candidate play, so its memory grows with its size, while past a few dozen worlds a larger batch
is no faster per world. A thousand worlds keep a decision's memory the same whatever ``worlds``
asks (a few megabytes at five players' first turn, the longest playouts) and take well under a
second, so the progress moves."""

DEFAULT_ENDGAME_TURNS = 4
"""The last turns of a two-player game (both players' turns counted) that :func:`estimate_plays`
values exactly over every draw to come (:func:`express.endgame.expected_values`) instead of
sampling worlds: four turns take some 0.05–0.5 s, five about ten times more."""

DEFAULT_MORE_WORLDS = 64
"""The worlds ``bot("pimc")`` goes on sampling up to where its first ``worlds`` were cheap to
solve (:data:`CHEAP_WORLD_STATES`): the turns just before the exact endgame, where 16 worlds'
sampling noise costs more than the searches."""

CHEAP_WORLD_STATES = 400
"""A world is cheap when its exact search took fewer states than this on average over the
decision's first worlds (a few milliseconds each)."""

RULES = ("paranoid", "maxn")
"""What a world's value is for three to five players (see the module docstring)."""

DEFAULT_RULE = "paranoid"
"""The rule of the default bot and advisor."""


@dataclass(frozen=True)
class PlayEstimate:
    """One candidate play's value over the sampled worlds: the mean and its 95 % interval."""

    play: Play
    mean: float
    low: float
    high: float
    worlds: int
    exact: bool = True
    """Whether every world was solved exactly (else valued by greedy playouts)."""
    expectation: bool = False
    """Whether the value is the exact expectation over every draw to come
    (:func:`express.endgame.expected_values`): no world sampled (``worlds`` is 0), no interval
    (``low`` and ``high`` are the value)."""

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON (values rounded to 1/1000 of a point); ``low`` and ``high`` are
        ``None`` from a single world, which measures no spread, and for an exact expectation,
        which has none."""
        spread = self.worlds >= 2
        return {
            "play": str(self.play),
            "mean": round(self.mean, 3),
            "low": round(self.low, 3) if spread else None,
            "high": round(self.high, 3) if spread else None,
            "worlds": self.worlds,
            "exact": self.exact,
            "expectation": self.expectation,
        }


def measure_of(players: int, rule: str = DEFAULT_RULE) -> str:
    """What the values mean for ``players`` players, in words.

    >>> measure_of(2)
    "your final score minus your opponent's"
    """
    if players == 2:
        return "your final score minus your opponent's"
    if rule == "paranoid":
        return "your final score minus the best rival's"
    return "your final score"


def playout_values(world: Game, rule: str = DEFAULT_RULE) -> dict[Play, int]:
    """Every legal play's value in ``world`` (a known deck order) when, after it, every player
    plays as ``bot("greedy")`` does to the end (the most value plus longest run at once; ties
    face up first, then the first in the legal order): the measure of :func:`measure_of`, from
    the final scores (:func:`express.score_game`). The same playouts as the greedy bot's, run
    on a summary of each train instead of the whole game (tests compare the two)."""
    mover = world.current_player()
    seats = world.seat_order()
    held = world.hand_cards()
    order = world.order
    assert order is not None
    rank = {card: i for i, card in reversed(list(enumerate(world.deck)))}  # first copy's place
    both = {card: (Play(card), Play(card, face_up=False)) for card in rank}  # made once
    values: dict[Play, int] = {}
    for action in world.legal_actions():
        assert isinstance(action, Play)
        hand = list(held)
        hand.remove(action.card)
        plays = [list(train.plays) for train in world.trains]
        runners = [_Runner.of(train.cars) for train in world.trains]
        plays[mover].append(action)
        runners[mover] = runners[mover].after(action)[1]
        for turn in range(world.turn + 1, world.players * world.rounds):
            seat = seats[turn % world.players]
            hand.append(order[world.players + turn])
            best: tuple[int, bool] | None = None
            for card in sorted(set(hand), key=rank.__getitem__):  # the legal order
                for play in both[card]:
                    if play.face_up and not connects(runners[seat].last, card.left):
                        continue
                    gain, runner = runners[seat].after(play)
                    if best is None or (gain, play.face_up) > best:
                        best, chosen, next_runner = (gain, play.face_up), play, runner
            hand.remove(chosen.card)
            plays[seat].append(chosen)
            runners[seat] = next_runner
        trains = [Train(tuple(row)) for row in plays]
        score = score_game(trains, start_player=world.start_player, caboose=world.caboose)
        totals = [player.total for player in score.players]
        rivals = max(total for seat, total in enumerate(totals) if seat != mover)
        values[action] = totals[mover] - rivals if rule == "paranoid" else totals[mover]
    return values


def batched_playout_values(
    worlds: Sequence[Game], rule: str = DEFAULT_RULE
) -> list[dict[Play, int]]:
    """:func:`playout_values` of each of ``worlds`` (positions of one setup with known deck
    orders), the playouts of all their plays run together as one batch of greedy games
    (:meth:`express.batch.Engine.positions`): the same values, for a fraction of the time once
    there are a few dozen playouts (the tests compare the two)."""
    if not worlds:
        return []
    first = worlds[0]
    engine = _engine(first.players, first.deck, first.rounds, first.start_player, first.pass_left)
    plays = [[a for a in world.legal_actions() if isinstance(a, Play)] for world in worlds]
    copies = max(len(legal) for legal in plays)
    batch = engine.positions(worlds, copies)
    # Each world's copies start with its plays in turn (a world with fewer plays repeats its
    # last one in the spare copies, whose values are not read).
    actions = np.array(
        [engine.action_id(legal[min(j, len(legal) - 1)]) for legal in plays for j in range(copies)],
        np.intp,
    )
    everyone = np.ones(batch.num_games, np.bool_)
    batch.apply(actions, everyone)
    totals = batch.run(
        np.zeros((batch.num_games, first.players), np.intp), [VectorGreedy()]
    ).returns.astype(np.int64)
    values: list[dict[Play, int]] = []
    for index, (world, legal) in enumerate(zip(worlds, plays)):
        mover = world.current_player()
        mine: dict[Play, int] = {}
        for j, play in enumerate(legal):
            row = totals[index * copies + j]
            rivals = max(int(total) for seat, total in enumerate(row) if seat != mover)
            mine[play] = int(row[mover]) - rivals if rule == "paranoid" else int(row[mover])
        values.append(mine)
    return values


@functools.lru_cache(maxsize=64)
def _engine(
    players: int, deck: tuple[Card, ...], rounds: int, start_player: int, pass_left: bool
) -> Engine:
    # Any caboose: each position brings its own.
    return Engine(players, "random", deck, rounds, start_player, pass_left)


@dataclass(frozen=True)
class _Runner(HashedOnce):
    """What a playout needs of a train: its last car, the cars of the run at its end, its
    longest run (the run rule itself is :func:`express.train.runs_of`'s)."""

    last: Car
    tail: tuple[Car, ...]
    longest: int

    __hash__ = HashedOnce.__hash__  # it keys the cache of after()

    def __post_init__(self) -> None:
        self._remember_hash((self.last, self.tail, self.longest))

    @classmethod
    def of(cls, cars: tuple[Car, ...]) -> _Runner:
        runs = runs_of(cars)
        tail: tuple[Car, ...] = ()
        if runs and runs[-1].start + runs[-1].length == len(cars):
            tail = cars[runs[-1].start :]
        longest = max((run.length for run in runs), default=0)
        return cls(cars[-1] if cars else ENGINE, tail, longest)

    @functools.lru_cache(maxsize=1 << 16)  # noqa: B019  # small values; the same few recur
    def after(self, play: Play) -> tuple[int, _Runner]:
        """The greedy gain of ``play`` (its value plus the longest run's growth) and the train's
        summary after it."""
        row = self.tail + play.cars
        runs = runs_of(row)
        tail: tuple[Car, ...] = ()
        if runs and runs[-1].start + runs[-1].length == len(row):
            tail = row[runs[-1].start :]
        longest = max([self.longest, *(run.length for run in runs)])
        runner = _Runner(play.cars[1], tail, longest)
        return play.value + longest - self.longest, runner


def _check(worlds: object, time_limit: object, rule: object) -> tuple[int, float | None]:
    """``worlds`` and ``time_limit`` as an int and a float (or None) when they are allowed."""
    worlds = whole_number(worlds, "worlds")
    if not 1 <= worlds <= MAX_WORLDS:
        raise ExpressError(f"invalid number of worlds: {worlds!r} (1 to {MAX_WORLDS:,})")
    if time_limit is not None:
        time_limit = seconds(time_limit, "time_limit", error=ExpressError)
    if rule not in RULES:
        raise ExpressError(f"unknown rule: {rule!r} (choose from {', '.join(RULES)})")
    return worlds, time_limit


def _check_exact_nodes(exact_nodes: object) -> int | None:
    if exact_nodes is None:
        return None
    exact_nodes = whole_number(exact_nodes, "exact_nodes")
    if exact_nodes < 1:
        raise ExpressError(f"invalid exact_nodes: {exact_nodes!r} (at least 1, or None)")
    return exact_nodes


def _check_states(states: object) -> int | None:
    if states is None:
        return None
    states = whole_number(states, "states")
    if states < 1:
        raise ExpressError(f"invalid states budget: {states!r} (at least 1, or None)")
    return states


def estimate_plays(
    observation: Observation | MatchObservation,
    *,
    worlds: int = DEFAULT_WORLDS,
    rng: np.random.Generator,
    time_limit: float | None = None,
    rule: str = DEFAULT_RULE,
    exact_nodes: int | None = DEFAULT_EXACT_NODES,
    states: int | None = None,
    progress: bool = False,
    endgame_turns: int = DEFAULT_ENDGAME_TURNS,
    more_worlds: int | None = None,
) -> tuple[PlayEstimate, ...]:
    """Every legal play of the observing player, valued over up to ``worlds`` sampled worlds
    (fewer if ``time_limit`` seconds run out first, or once the exact searches have taken
    ``states`` states in all; at least one), in the legal order: exactly when a search of at
    most ``exact_nodes`` states settles the first world (None: always), else by playouts (see
    the module docstring; worlds played out without a time limit are valued
    ``PLAYOUT_BATCH`` at a time, so the memory does not grow with ``worlds``). ``progress``:
    the worlds valued so far on stderr (:func:`arena.progress.progress`: nothing for work
    shorter than two seconds).

    In the last ``endgame_turns`` turns of a two-player game no world is sampled: every play is
    valued exactly over every draw to come (:func:`express.endgame.expected_values`, which says
    what it assumes of the other player). ``more_worlds``: where the first ``worlds`` worlds were
    cheap to solve (:data:`CHEAP_WORLD_STATES` states a world on average), go on sampling up to
    this many."""
    worlds, time_limit = _check(worlds, time_limit, rule)
    states = _check_states(states)
    exact_nodes = _check_exact_nodes(exact_nodes)
    endgame_turns = whole_number(endgame_turns, "endgame_turns", low=0, error=ExpressError)
    if more_worlds is not None:
        more_worlds, _ = _check(more_worlds, None, rule)
    rng = generator(rng, where="estimate_plays")
    view = game_view(observation)
    if not view.hand:
        if view.turn >= view.rounds * view.players:
            raise ExpressError("the game is over: every train is complete, nothing is left to play")
        raise ExpressError("it is not this player's turn: it holds no hand to play from")
    if view.players == 2 and view.rounds * view.players - view.turn <= endgame_turns:
        return tuple(
            PlayEstimate(play, float(value), float(value), float(value), 0, True, True)
            for play, value in expected_values(view).items()
        )
    most = worlds if more_worlds is None else max(worlds, more_worlds)
    began = time.perf_counter()
    tallies: dict[Play, Counter[float]] = {}
    plays: tuple[Play, ...] = ()
    exact = True
    searched = 0
    limit = None if view.players == 2 else exact_nodes  # two-player worlds: ~0.1 s at most
    # Drawn one at a time: a time limit then draws only the worlds it values. Under a limit
    # the count is at most ``worlds``, so the progress promises no time left it cannot keep.
    total = worlds if time_limit is None else None
    with show_progress(total, desc="advise", unit="world", enabled=progress) as bar:
        drawn = itertools.islice(iter_worlds(view, rng), most)
        for valued, world in enumerate(drawn, start=1):
            if exact:
                try:
                    values, taken = play_values_with_states(world, rule=rule, node_limit=limit)
                    searched += taken
                except SearchLimitReached:
                    exact = False  # the worlds of one decision are alike: the rest play out too
            if not exact and time_limit is None:
                # Every world left is valued by playouts (no clock to stop them, and the
                # states budget counts exact searches only), PLAYOUT_BATCH worlds at a time.
                rest = itertools.chain([world], drawn)
                while batch := list(itertools.islice(rest, PLAYOUT_BATCH)):
                    for world, values in zip(batch, batched_playout_values(batch, rule)):
                        plays, tallies = _record(world, values, plays, tallies)
                    bar.update(len(batch))
                break
            if not exact:
                values = playout_values(world, rule)
            plays, tallies = _record(world, values, plays, tallies)
            bar.update()
            if time_limit is not None and time.perf_counter() - began > time_limit:
                break
            if states is not None and searched >= states:
                break
            if valued >= worlds and not (exact and searched < CHEAP_WORLD_STATES * valued):
                break  # past ``worlds``, only cheap worlds are worth more sampling
    estimates = []
    for play in plays:
        mean, low, high = counted_mean_interval(tallies[play])
        estimates.append(PlayEstimate(play, mean, low, high, tallies[play].total(), exact))
    return tuple(estimates)


def _record(
    world: Game,
    values: dict[Play, int],
    plays: tuple[Play, ...],
    tallies: dict[Play, Counter[float]],
) -> tuple[tuple[Play, ...], dict[Play, Counter[float]]]:
    """Add one world's values to ``tallies`` (the plays are the first world's, in its legal
    order). A tally counts each value, so its memory holds the few distinct scores, not one
    entry per world."""
    if not plays:
        plays = tuple(action for action in world.legal_actions() if isinstance(action, Play))
        tallies = {play: Counter() for play in plays}
    for play in plays:
        tallies[play][float(values[play])] += 1
    return plays, tallies


@dataclass(frozen=True)
class Advice:
    """The advisor's answer: every candidate play, best mean first, and the recommendation."""

    player: int
    """The seat asking."""
    measure: str
    """What a value is, in words (e.g. "your final score minus your opponent's")."""
    plays: tuple[PlayEstimate, ...]
    """Every legal play, best mean first (ties in the legal order)."""
    recommended: Play
    """The play with the best mean: what ``bot("pimc")`` plays with the same worlds."""
    worlds: int
    """How many worlds were solved."""
    seconds: float = field(compare=False)
    """How long it took (not compared: the same advice takes another time elsewhere)."""
    uniform: bool = True
    """Whether the worlds were drawn uniformly over the consistent ones; False when counting
    them was out of reach and a randomized search found them (consistent, not uniform)."""

    @property
    def expectation(self) -> bool:
        """Whether the values are exact expectations over every draw to come (no worlds)."""
        return self.plays[0].expectation

    @property
    def method(self) -> str:
        """How the values were made, in words."""
        if self.expectation:
            return "exact: every draw to come weighed by its probability, both players playing on at their best"
        if self.plays[0].exact:
            return f"mean over {plural(self.worlds, 'world')}; each world solved exactly"
        return (
            f"mean over {plural(self.worlds, 'world')}; each world played out by the "
            "greedy rule (too early for an exact search)"
        )

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON."""
        return {
            "player": self.player,
            "measure": self.measure,
            "method": self.method,
            "worlds": self.worlds,
            "exact": self.plays[0].exact,
            "expectation": self.expectation,
            "uniform": self.uniform,
            "seconds": round(self.seconds, 3),
            "recommended": str(self.recommended),
            "plays": [estimate.to_dict() for estimate in self.plays],
        }

    def _repr_html_(self) -> str:
        """Every play as a row of an HTML table, for Jupyter: its mean value and interval, the
        recommended one marked; the caption says what the values are and how they were made."""
        from arena.svg import html_table  # imported on use, like every picture

        spread = self.worlds >= 2
        none = "exact: none" if self.expectation else "one world: none"
        rows = [
            [
                str(e.play),
                f"{e.mean:+.2f}",
                f"{e.low:+.2f} to {e.high:+.2f}" if spread else none,
                "play this" if e.play == self.recommended else "",
            ]
            for e in self.plays
        ]
        caption = f"{self.measure}; {self.method}"
        if not self.uniform:
            caption += " (found by a randomized search: not drawn uniformly)"
        return html_table(["play", "mean", "95 % interval", ""], rows, caption=caption, right=[1])

    def __str__(self) -> str:
        width = max(len(str(e.play)) for e in self.plays)
        spread = self.worlds >= 2  # one world measures no spread: no interval
        if self.expectation:
            lines = [f"value: {self.measure}; {self.method} (no interval: nothing sampled)"]
        else:
            interval = "95 % interval" if spread else "one world: no interval"
            lines = [f"value: {self.measure}; {self.method} ({interval})"]
        if not self.uniform:
            lines.append(
                "the worlds were found by a randomized search (too many to count): "
                "consistent with what you saw, but not drawn uniformly"
            )
        for estimate in self.plays:
            mark = "  <- play this" if estimate.play == self.recommended else ""
            bounds = f"  [{estimate.low:+.2f}, {estimate.high:+.2f}]" if spread else ""
            lines.append(f"  {str(estimate.play):<{width}}  {estimate.mean:+7.2f}{bounds}{mark}")
        return "\n".join(lines)


def advise(
    observation: Observation | MatchObservation,
    *,
    worlds: int = DEFAULT_WORLDS,
    rng: np.random.Generator | int | None = None,
    time_limit: float | None = None,
    rule: str = DEFAULT_RULE,
    progress: bool = False,
    endgame_turns: int = DEFAULT_ENDGAME_TURNS,
) -> Advice:
    """Every legal play of the observing player valued over ``worlds`` sampled worlds (fewer if
    ``time_limit`` seconds run out first), best first; ``rng`` a generator or a seed (None:
    fresh entropy); ``progress``: the worlds valued so far on stderr when it takes more than
    two seconds (``express advise`` shows it). In the last ``endgame_turns`` turns of a
    two-player game the values are exact expectations over every draw to come instead
    (:func:`express.endgame.expected_values`; ``worlds`` is then 0). Raises :class:`express.ExpressError` when it is
    not the player's turn or no game matches the observation.

    >>> import numpy as np
    >>> from arena import sample_outcome
    >>> from express import Game
    >>> game, rng = Game(2, rounds=2), np.random.default_rng(3)
    >>> while game.is_chance_node():
    ...     game.apply_action(sample_outcome(game.chance_outcomes(), rng))
    >>> view = game.observation(game.current_player())
    >>> advice = advise(view, worlds=4, rng=5, endgame_turns=0)
    >>> advice.recommended == advice.plays[0].play, advice.worlds
    (True, 4)
    >>> exact = advise(view)  # four turns from the end: exact over every draw to come
    >>> exact.expectation, exact.worlds
    (True, 0)
    """
    view = game_view(observation)
    if view.players == 2 and rule == "maxn":
        raise ExpressError(
            "rule 'maxn' is for three to five players: with two, every play is valued by your "
            "score minus your opponent's (leave the rule out)"
        )
    rng = generator(rng, where="advise")
    began = time.perf_counter()
    estimates = estimate_plays(
        view,
        worlds=worlds,
        rng=rng,
        time_limit=time_limit,
        rule=rule,
        progress=progress,
        endgame_turns=endgame_turns,
    )
    ranked = tuple(sorted(estimates, key=lambda e: -e.mean))  # stable: ties in legal order
    return Advice(
        player=view.player,
        measure=measure_of(view.players, rule),
        plays=ranked,
        recommended=ranked[0].play,
        worlds=ranked[0].worlds,
        seconds=time.perf_counter() - began,
        uniform=worlds_are_uniform(view),
    )


@dataclass(frozen=True)
class PimcBot:
    """Plays the legal play with the best mean value over sampled worlds, each solved exactly
    (see the module docstring); ties go to the first in the legal order.

    ``worlds`` per decision, ``time_limit`` seconds at most per decision (None: no limit; then
    a seeded game replays exactly), ``states`` the exact searches of a decision may take in all
    before it stops sampling (:data:`~express.pimc.DEFAULT_DECISION_STATES`; None: no budget), ``rule`` for
    three to five players (``paranoid`` or ``maxn``; with two, every play is valued by the
    margin whatever the rule, as the game is then zero-sum). In the last ``endgame_turns``
    turns of a two-player game it samples nothing and plays the best exact expectation over
    every draw to come (:func:`express.endgame.expected_values`); where worlds are cheap to
    solve it samples up to ``more_worlds`` (None: ``worlds`` only). See
    :func:`~express.pimc.estimate_plays`.
    """

    worlds: int = DEFAULT_WORLDS
    time_limit: float | None = DEFAULT_TIME_LIMIT
    rule: str = DEFAULT_RULE
    exact_nodes: int | None = DEFAULT_EXACT_NODES
    states: int | None = DEFAULT_DECISION_STATES
    name: str = "pimc"
    endgame_turns: int = DEFAULT_ENDGAME_TURNS
    more_worlds: int | None = DEFAULT_MORE_WORLDS

    def __post_init__(self) -> None:
        worlds, time_limit = _check(self.worlds, self.time_limit, self.rule)
        endgame_turns = whole_number(self.endgame_turns, "endgame_turns", low=0, error=ExpressError)
        object.__setattr__(self, "endgame_turns", endgame_turns)
        if self.more_worlds is not None:
            object.__setattr__(self, "more_worlds", _check(self.more_worlds, None, self.rule)[0])
        object.__setattr__(self, "worlds", worlds)
        object.__setattr__(self, "time_limit", time_limit)
        object.__setattr__(self, "states", _check_states(self.states))
        object.__setattr__(self, "exact_nodes", _check_exact_nodes(self.exact_nodes))

    def act(
        self, observation: Any, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        estimates = estimate_plays(
            observation,
            worlds=self.worlds,
            rng=rng,
            time_limit=self.time_limit,
            rule=self.rule,
            exact_nodes=self.exact_nodes,
            states=self.states,
            endgame_turns=self.endgame_turns,
            more_worlds=self.more_worlds,
        )
        legal = set(legal_actions)
        best = max((e for e in estimates if e.play in legal), key=lambda e: e.mean, default=None)
        if best is None:
            raise ExpressError("the sampled worlds offer none of the legal plays (a bug)")
        return best.play
