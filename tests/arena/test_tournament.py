"""arena.tournament: duplicate deals, any executor, split wins, intervals as SciPy's,
Bradley–Terry ratings, Ctrl-C, bad input."""

from __future__ import annotations

import json
import os
import pickle
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from fractions import Fraction
from functools import partial
from typing import Any, TypeVar

import numpy as np
import pytest

import arena.progress
from arena import (
    ArenaError,
    GameRecord,
    Policy,
    RandomPolicy,
    TournamentResult,
    deal_seed,
    play,
    tournament,
)
from tests.arena.toy import AlwaysBank, AlwaysKeep, DiceRace

T = TypeVar("T")

KEEP_BANK: dict[str, Policy] = {"keep": AlwaysKeep(), "bank": AlwaysBank()}


def rolls(state: DiceRace) -> tuple[int, ...]:
    """The summarise hook of these tests: the dice of the game, in order."""
    return tuple(int(event.split()[1]) for event in state.events if event.startswith("roll"))


def rolls_of(record: GameRecord) -> tuple[int, ...]:
    assert isinstance(record.summary, tuple)
    return record.summary


def three_players() -> DiceRace:
    return DiceRace(players=3)


def test_serial_threads_and_processes_give_equal_results() -> None:
    policies: list[Policy] = [AlwaysKeep(), AlwaysBank(), RandomPolicy()]
    run = partial(
        tournament,
        three_players,
        policies,
        games=40,
        seed=5,
        progress=False,
        records=True,
        summarise=rolls,
    )
    serial = run()
    with ThreadPoolExecutor(3) as threads:
        threaded = run(executor=threads, chunk=3)
    with ProcessPoolExecutor(2) as processes:
        pooled = run(executor=processes)
    own_pool = run(workers=2, chunk=7)
    assert serial == threaded == pooled == own_pool
    assert serial.deals == 40 and not serial.interrupted and len(serial.records) == 120
    assert [(r.deal, r.rotation) for r in serial.records] == [
        (d, r) for d in range(40) for r in range(3)
    ]


def test_each_deal_is_one_chance_stream_played_in_every_seating() -> None:
    result = tournament(
        three_players,
        [AlwaysKeep(), AlwaysBank(), RandomPolicy()],
        games=30,
        seed=2,
        progress=False,
        records=True,
        summarise=rolls,
    )
    by_deal: dict[int, list[GameRecord]] = {}
    for record in result.records:
        by_deal.setdefault(record.deal, []).append(record)
    assert sorted(by_deal) == list(range(30))
    for deal, records in by_deal.items():
        assert {r.seed for r in records} == {deal_seed(2, deal)}
        assert len({r.summary for r in records}) == 1, "the seatings of a deal saw other dice"
        # Each policy sits in each seat exactly once per deal: rotation r puts policy i in seat i + r.
        assert [r.seating for r in records] == [
            ("keep", "bank", "random"),
            ("random", "keep", "bank"),
            ("bank", "random", "keep"),
        ]
    assert len({records[0].summary for records in by_deal.values()}) > 1, (
        "every deal rolled the same dice"
    )


def test_a_record_replays_alone_from_its_seed() -> None:
    policies: dict[str, Policy] = {
        "keep": AlwaysKeep(),
        "random": RandomPolicy(),
        "bank": AlwaysBank(),
    }
    result = tournament(three_players, policies, games=10, seed=9, progress=False, records=True)
    for record in result.records[::4]:
        state = play(three_players(), [policies[name] for name in record.seating], record.seed)
        assert tuple(float(x) for x in state.returns()) == record.returns
        assert state.winners() == record.winners


def test_deal_seeds_are_independent_children_of_the_tournament_seed() -> None:
    seeds = [deal_seed(7, k) for k in range(1000)]
    assert len(set(seeds)) == 1000 and all(0 <= s < 2**128 for s in seeds)
    assert deal_seed(7, 3) == deal_seed(7, 3) != deal_seed(8, 3)
    child = np.random.SeedSequence(7).spawn(4)[3]
    assert deal_seed(7, 3) == int.from_bytes(
        child.generate_state(2, np.uint64).astype(">u8").tobytes(), "big"
    )


def test_shared_wins_are_split() -> None:
    # Two players who always bank always tie: each takes half of every game.
    ties = tournament(
        DiceRace,
        [AlwaysBank(name="a"), AlwaysBank(name="b")],
        games=25,
        seed=0,
        progress=False,
        records=True,
    )
    assert all(r.winners == {0, 1} for r in ties.records)
    assert [s.wins for s in ties.stats] == [Fraction(25), Fraction(25)]
    assert [s.win_rate for s in ties.stats] == [0.5, 0.5]
    # Three players: the wins are the sum of 1/k over the games, counted here independently.
    result = tournament(
        three_players,
        [AlwaysKeep(), AlwaysBank(), RandomPolicy()],
        games=60,
        seed=3,
        progress=False,
        records=True,
    )
    assert any(len(r.winners) > 1 for r in result.records), "no shared win to split in this sample"
    for stats in result.stats:
        expected = sum(
            (
                Fraction(1, len(r.winners))
                for r in result.records
                for seat, name in enumerate(r.seating)
                if name == stats.name and seat in r.winners
            ),
            Fraction(0),
        )
        assert stats.wins == expected and stats.games == 180
        assert stats.win_rate == float(expected / 180)
        points = [r.returns[r.seating.index(stats.name)] for r in result.records]
        assert stats.mean_points == pytest.approx(sum(points) / len(points))
    assert sum(s.wins for s in result.stats) == 180  # every game is won, exactly once in all


def per_deal_shares(result: TournamentResult, name: str) -> list[float]:
    shares: dict[int, Fraction] = {}
    for r in result.records:
        seat = r.seating.index(name)
        shares[r.deal] = shares.get(r.deal, Fraction(0)) + r.share(seat)
    return [float(shares[d] / result.players) for d in sorted(shares)]


def test_the_interval_is_scipys_t_interval_on_deal_shares_and_contains_the_rate(
    scipy_stats: Any,
) -> None:
    result = tournament(
        three_players,
        [AlwaysKeep(), AlwaysBank(), RandomPolicy()],
        games=80,
        seed=4,
        progress=False,
        records=True,
    )
    for stats in result.stats:
        shares = per_deal_shares(result, stats.name)
        assert np.mean(shares) == pytest.approx(stats.win_rate)
        low, high = scipy_stats.t.interval(
            0.95, len(shares) - 1, loc=np.mean(shares), scale=scipy_stats.sem(shares)
        )
        assert stats.win_interval == pytest.approx((max(0.0, low), min(1.0, high)))
        assert stats.win_interval[0] < stats.win_rate < stats.win_interval[1]
    # More deals, a narrower interval.
    more = tournament(
        three_players,
        [AlwaysKeep(), AlwaysBank(), RandomPolicy()],
        games=320,
        seed=4,
        progress=False,
        records=True,
    )
    width = [s.win_interval[1] - s.win_interval[0] for s in result.stats]
    assert all(m.win_interval[1] - m.win_interval[0] < w for m, w in zip(more.stats, width))


def test_without_spread_the_interval_is_scipys_wilson_interval(scipy_stats: Any) -> None:
    ties = tournament(
        DiceRace,
        [AlwaysBank(name="a"), AlwaysBank(name="b")],
        games=25,
        seed=0,
        progress=False,
        records=True,
    )
    wilson = scipy_stats.binomtest(12, 25).proportion_ci(confidence_level=0.95, method="wilson")
    for stats in ties.stats:
        assert stats.win_interval == pytest.approx((float(wilson.low), float(wilson.high)))
        assert stats.win_interval[0] < 0.5 < stats.win_interval[1]


@pytest.mark.parametrize("games", [1, 2, 3, 7])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_interval_always_contains_the_rate(games: int, players: int) -> None:
    every: list[Policy] = [
        AlwaysKeep(),
        AlwaysBank(),
        RandomPolicy(),
        RandomPolicy(name="random-2"),
    ]
    policies = every[:players]
    result = tournament(
        partial(DiceRace, players=players, rounds=1),
        policies,
        games=games,
        seed=players,
        progress=False,
        records=True,
    )
    for stats in result.stats:
        low, high = stats.win_interval
        assert 0.0 <= low <= stats.win_rate <= high <= 1.0
        assert low < high


def test_the_stronger_policy_rates_higher() -> None:
    result = tournament(
        three_players,
        [AlwaysBank(), RandomPolicy(), AlwaysKeep()],
        games=100,
        seed=1,
        progress=False,
        records=True,
    )
    by_rating = [s.name for s in sorted(result.stats, key=lambda s: -s.rating)]
    assert by_rating == ["keep", "random", "bank"]
    keep, bank = result.stat("keep"), result.stat("bank")
    assert keep.rating_interval[0] > bank.rating_interval[1]
    assert sum(s.rating for s in result.stats) == pytest.approx(0, abs=1e-9)
    assert keep.win_interval[0] > bank.win_interval[1]
    # The table lists the best rating first.
    lines = str(result).splitlines()
    assert lines[0].startswith("100 deals x 3 seatings = 300 games")
    assert [line.split()[0] for line in lines[2:]] == ["keep", "random", "bank"]


def test_ranks_put_the_winners_first_then_points() -> None:
    def record(returns: tuple[float, ...], winners: set[int]) -> GameRecord:
        return GameRecord(
            deal=0,
            rotation=0,
            seed=0,
            seating=("a", "b", "c", "d"),
            returns=returns,
            winners=frozenset(winners),
        )

    assert record((5, 9, 9, 1), {1, 2}).ranks() == (1, 0, 0, 2)
    # A tie-break winner ranks first even without the most points.
    assert record((5, 9, 7, 7), {0}).ranks() == (0, 1, 2, 2)


def test_result_pickles_equal_and_reads_as_json() -> None:
    result = tournament(
        DiceRace, KEEP_BANK, games=20, seed=3, progress=False, records=True, summarise=rolls
    )
    again = pickle.loads(pickle.dumps(result))
    assert again == result and hash(again.stats) == hash(result.stats)
    data = json.loads(json.dumps(result.to_dict(records=True)))
    assert data["deals"] == 20 and data["games"] == 40 and not data["interrupted"]
    assert [s["name"] for s in data["stats"]] == ["keep", "bank"]
    assert data["stats"][0]["wins"] == float(result.stat("keep").wins)
    assert data["records"][0]["summary"] == list(rolls_of(result.records[0]))
    assert "records" not in result.to_dict()


def test_a_fresh_process_computes_an_equal_result() -> None:
    # An interpreter of its own: another hash seed must not change a result (a set's order
    # leaking into the seating or the statistics would).
    code = (
        "import pickle, sys\n"
        "from arena import tournament\n"
        "from tests.arena.toy import DiceRace, AlwaysKeep, AlwaysBank\n"
        "r = tournament(DiceRace, [AlwaysKeep(), AlwaysBank()], games=20, seed=3, progress=False, records=True)\n"
        "sys.stdout.buffer.write(pickle.dumps(r))\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), PYTHONHASHSEED="123")
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, env=env, check=True
    ).stdout
    here = tournament(
        DiceRace, [AlwaysKeep(), AlwaysBank()], games=20, seed=3, progress=False, records=True
    )
    assert pickle.loads(out) == here


class InterruptingPolicy:
    """Keeps, until its ``calls``-th decision, where it presses Ctrl-C."""

    name = "fragile"

    def __init__(self, calls: int) -> None:
        self.left = calls
        self.lock = threading.Lock()

    def act(self, observation: Any, legal_actions: Sequence[Any], rng: np.random.Generator) -> Any:
        with self.lock:
            self.left -= 1
            if self.left == 0:
                raise KeyboardInterrupt
        return "keep"


def assert_whole_deals(result: TournamentResult) -> None:
    deals = sorted({r.deal for r in result.records})
    assert len(deals) == result.deals
    assert [(r.deal, r.rotation) for r in result.records] == [
        (d, k) for d in deals for k in range(result.players)
    ]
    assert all(s.games == result.deals * result.players for s in result.stats)


def test_ctrl_c_in_serial_play_returns_the_completed_deals() -> None:
    # DiceRace(rounds=3) asks each player 3 times a game: 6 decisions of this policy per deal.
    result = tournament(
        DiceRace,
        [InterruptingPolicy(6 * 4 + 2), AlwaysBank()],
        games=10,
        seed=1,
        progress=False,
        records=True,
    )
    assert result.interrupted and result.deals == 4 and result.deals_requested == 10
    assert_whole_deals(result)
    assert "interrupted after 4 of 10 deals" in str(result)
    full = tournament(
        DiceRace,
        [AlwaysKeep(name="fragile"), AlwaysBank()],
        games=10,
        seed=1,
        progress=False,
        records=True,
    )
    assert result.records == full.records[:8]


def test_ctrl_c_in_a_thread_pool_cancels_and_keeps_whole_deals() -> None:
    with ThreadPoolExecutor(2) as threads:
        result = tournament(
            DiceRace,
            [InterruptingPolicy(6 * 30), AlwaysBank()],
            games=200,
            seed=1,
            progress=False,
            records=True,
            executor=threads,
            chunk=5,
        )
    assert result.interrupted and 0 < result.deals < 200
    assert_whole_deals(result)


class InlineExecutor(Executor):
    """Runs each task at submit; the ``fail_at``-th submit raises KeyboardInterrupt instead."""

    def __init__(self, fail_at: int) -> None:
        self.fail_at = fail_at
        self.submitted = 0

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        self.submitted += 1
        if self.submitted == self.fail_at:
            raise KeyboardInterrupt
        future: Future[T] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def test_ctrl_c_from_the_executor_keeps_the_finished_tasks() -> None:
    executor = InlineExecutor(fail_at=3)
    result = tournament(
        DiceRace,
        KEEP_BANK,
        games=20,
        seed=2,
        progress=False,
        records=True,
        executor=executor,
        chunk=4,
    )
    assert result.interrupted and result.deals == 8
    assert_whole_deals(result)
    full = tournament(DiceRace, KEEP_BANK, games=20, seed=2, progress=False, records=True)
    assert result.records == full.records[:16]


_FIRED: list[int] = []


def sigint_parent_once(parent: int, state: DiceRace) -> None:
    """A summarise hook that, in the parent process only, sends it Ctrl-C shortly after."""
    if os.getpid() == parent and not _FIRED:
        _FIRED.append(parent)
        threading.Timer(0.5, os.kill, (parent, signal.SIGINT)).start()


def test_a_real_ctrl_c_stops_the_own_process_pool() -> None:
    _FIRED.clear()
    # Minutes of work (400 decisions a game): the parent plays deal 0, which arms the timer, then
    # waits on the pool when Ctrl-C comes; the workers ignore it and finish their current task.
    result = tournament(
        partial(DiceRace, rounds=200),
        KEEP_BANK,
        games=2_000,
        seed=1,
        workers=2,
        progress=False,
        records=True,
        summarise=partial(sigint_parent_once, os.getpid()),
    )
    assert _FIRED and result.interrupted and 1 <= result.deals < 2_000
    assert_whole_deals(result)


class Cheat:
    name = "cheat"

    def act(self, observation: Any, legal_actions: Sequence[Any], rng: np.random.Generator) -> Any:
        return "double"


@pytest.mark.parametrize("workers", [1, 2])
def test_other_errors_are_raised_not_swallowed(workers: int) -> None:
    with pytest.raises(ValueError, match="illegal action: 'double'"):
        tournament(
            DiceRace,
            [Cheat(), AlwaysBank()],
            games=6,
            seed=0,
            progress=False,
            records=True,
            workers=workers,
            chunk=2,
        )
    with ThreadPoolExecutor(2) as threads, pytest.raises(ValueError, match="illegal action"):
        tournament(
            DiceRace,
            [Cheat(), AlwaysBank()],
            games=6,
            seed=0,
            progress=False,
            records=True,
            executor=threads,
        )


def progress_counts(err: str) -> list[str]:
    """The counts of plain progress lines (``tournament: 3/5 deals (60%), …``), times left out."""
    return re.findall(r"^tournament: (\S+ deals \(\d+%\))", err, flags=re.MULTILINE)


def test_progress_is_the_same_with_and_without_tqdm(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(arena.progress, "DELAY", 0.0)  # as if every deal took long
    shown = tournament(DiceRace, KEEP_BANK, games=5, seed=0, progress=True)
    with_tqdm = progress_counts(capsys.readouterr().err)
    monkeypatch.setitem(sys.modules, "tqdm", None)  # as if tqdm were not installed
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    again = tournament(DiceRace, KEEP_BANK, games=5, seed=0, progress=True)
    without = progress_counts(capsys.readouterr().err)
    assert with_tqdm == without == [f"{k}/5 deals ({20 * k}%)" for k in range(1, 6)]
    assert again == shown
    quiet = tournament(DiceRace, KEEP_BANK, games=5, seed=0, progress=False)
    assert capsys.readouterr().err == "" and quiet == shown


@pytest.mark.parametrize(
    ("policies", "options", "message"),
    [
        ([AlwaysKeep()], {}, "1 policies for 2 players"),
        ([AlwaysKeep(), AlwaysBank(), RandomPolicy()], {}, "3 policies for 2 players"),
        ([AlwaysKeep(), AlwaysKeep()], {}, "policy names must be distinct: 'keep' repeated"),
        (KEEP_BANK, {"games": 0}, "invalid games 0: at least 1"),
        (KEEP_BANK, {"games": -3}, "invalid games -3: at least 1"),
        (KEEP_BANK, {"seed": -1}, "invalid seed -1: a seed is a whole number, 0 or more"),
        (KEEP_BANK, {"workers": 0}, r"invalid worker count 0 \(at least 1\)"),
        (KEEP_BANK, {"chunk": 0}, "invalid chunk 0: at least 1"),
    ],
)
def test_bad_input_is_refused(policies: Any, options: dict[str, Any], message: str) -> None:
    arguments: dict[str, Any] = {"games": 3, "seed": 0, "progress": False} | options
    with pytest.raises(ArenaError, match=message):
        tournament(DiceRace, policies, **arguments)


@pytest.mark.parametrize(
    ("new_game", "policies", "options", "message"),
    [
        ("DiceRace", KEEP_BANK, {}, "zero-argument callable"),
        (DiceRace, {"keep": AlwaysKeep(), "bank": "bank"}, {}, "expected a policy"),
        (DiceRace, [object(), object()], {}, "str `name` attribute"),
        (DiceRace, KEEP_BANK, {"games": 2.5}, "games must be a whole number, not float 2.5"),
        (DiceRace, KEEP_BANK, {"games": True}, "games must be a whole number, not bool True"),
        (DiceRace, KEEP_BANK, {"executor": "pool"}, "Executor"),
        (lambda: "not a game", KEEP_BANK, {}, "not a game state"),
    ],
)
def test_wrong_types_raise_type_errors(
    new_game: Any, policies: Any, options: dict[str, Any], message: str
) -> None:
    arguments: dict[str, Any] = {"games": 3, "seed": 0, "progress": False} | options
    with pytest.raises(TypeError, match=message):
        tournament(new_game, policies, **arguments)
