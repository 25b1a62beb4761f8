"""Long express commands show their progress: ``express play`` prints each turn as it is played,
``express best`` shows the states searched on stderr (arena.progress), stdout unchanged."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

import arena.progress
import express.cli.games
from arena import Action, play
from express import DECK, Game, best_train, bot
from express.cli import main
from express.report import play_text


class Watching:
    """A bot that notes how many lines stdout holds whenever it is asked to play."""

    def __init__(self, name: str, out: io.StringIO, seen: list[int], **options: Any) -> None:
        self.policy = bot(name, **options)
        self.out = out
        self.seen = seen

    def act(self, observation: Any, legal: Sequence[Action], rng: np.random.Generator) -> Action:
        self.seen.append(len(self.out.getvalue().splitlines()))
        return self.policy.act(observation, legal, rng)


@pytest.mark.parametrize(
    ("players", "seed", "caboose"),
    [(("search", "greedy", "random"), 1, "Lightweight"), (("greedy", "random"), 4, "random")],
)
def test_play_prints_each_turn_as_it_is_played(
    monkeypatch: pytest.MonkeyPatch, players: tuple[str, ...], seed: int, caboose: str
) -> None:
    out, seen = io.StringIO(), list[int]()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(express.cli.games, "bot", lambda name, **o: Watching(name, out, seen, **o))
    argv = ["play", "--players", ",".join(players), "--seed", str(seed), "--caboose", caboose]
    assert main([*argv, "--hindsight"]) == 0
    # While the game went on, stdout already held the turns so far, growing turn by turn.
    turns = sum(1 for line in out.getvalue().splitlines() if "-> plays" in line)
    assert len(seen) == turns and seen == sorted(seen)
    assert seen[0] >= 2  # the title and a deal, before the first play
    assert len(set(seen)) == turns
    # The same text as the whole game printed at once.
    game = play(Game(len(players), caboose=caboose), [bot(name) for name in players], seed)
    assert out.getvalue() == play_text(game, list(players), seed, with_hindsight=True) + "\n"


def test_best_shows_the_states_searched_on_stderr_and_the_same_answer(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["best", "--length", "5", "--count", "--caboose", "Two-Timer"]
    assert main(argv) == 0
    quiet, err = capsys.readouterr()
    assert err == ""  # quick: no progress
    monkeypatch.setattr(arena.progress, "DELAY", 0.0)
    assert main(argv) == 0
    out, err = capsys.readouterr()

    def timeless(text: str) -> str:
        return re.sub(r"[0-9.]+ s\b", "T s", text)

    assert timeless(out) == timeless(quiet)
    lines = err.splitlines()
    assert lines and all(
        re.fullmatch(r"best train: [0-9,]+ states, \d+ s elapsed", x) for x in lines
    )
    nodes = best_train(DECK, 5, count_optimal=True, caboose="Two-Timer").nodes
    assert f"{nodes} states searched" in out
    assert lines[-1].startswith(f"best train: {nodes:,} states")


def test_best_train_shows_progress_only_when_asked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(arena.progress, "DELAY", 0.0)
    shown = best_train(DECK, 4, count_optimal=True, progress=True)
    assert capsys.readouterr().err.startswith("best train: ")
    quiet = best_train(DECK, 4, count_optimal=True)
    assert capsys.readouterr().err == ""
    assert (shown.train, shown.score, shown.count, shown.nodes) == (
        quiet.train,
        quiet.score,
        quiet.count,
        quiet.nodes,
    )


def test_a_long_search_reports_its_states_at_least_every_few_thousand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A long train's subtrees below the first two levels take tens of seconds each: reported
    # only there, `express best --length 12 --count` said nothing for half a minute.
    seen: list[int] = []
    advance = arena.progress.Progress.advance_to

    def watched(self: arena.progress.Progress, done: int) -> None:
        seen.append(done)
        advance(self, done)

    monkeypatch.setattr(arena.progress.Progress, "advance_to", watched)
    result = best_train(DECK, 9, count_optimal=True, progress=True)
    assert result.nodes > 20_000
    gaps = [b - a for a, b in zip([0, *seen], [*seen, result.nodes])]
    assert max(gaps) <= 4_096
    # Every 4,096th state is reported, however the subtrees below the first levels fall.
    assert set(range(4_096, result.nodes, 4_096)) <= set(seen)
