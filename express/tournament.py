"""A duplicate-deal tournament between Yardmaster Express bots named by name.

>>> result = tournament(["greedy", "random", "greedy"], games=2, seed=1)
>>> result.policies
('greedy', 'random', 'greedy#2')
>>> decided(result).games
6
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import partial
from typing import Any

import arena
from express.bots import bot
from express.game import Game
from express.match import Match
from express.review import Decisive, decisive

__all__ = ["Decided", "decided", "tournament"]


def tournament(
    players: Sequence[str],
    *,
    games: int,
    seed: int,
    match: bool = False,
    caboose: str | None = None,
    workers: int = 1,
    executor: Executor | None = None,
    progress: bool = False,
    bot_options: Mapping[str, Mapping[str, Any]] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    engine: str = "auto",
    records: bool = False,
) -> arena.TournamentResult:
    """A duplicate-deal tournament (:func:`arena.bot_tournament`) between the bots named in
    ``players``, one per seat; a name given twice plays as ``name``, ``name#2``, ...
    (:func:`arena.seat_labels`). ``match`` plays the strategic variant (:class:`express.Match`)
    per deal; ``caboose`` is a caboose's name or ``"random"``; ``bot_options`` gives options by
    bot name (``{"mcts": {"simulations": 100}}``), passed to :func:`express.bot`. Every game
    is summarised by :func:`express.decisive` (the result's ``summaries``; see
    :func:`decided`); ``records`` keeps every game too (see :func:`arena.tournament`).

    ``checkpoint`` is a file where completed deals are saved as they finish, so a rerun with
    the same arguments continues (see :func:`arena.tournament`). ``engine``: ``"auto"`` (the
    batched engine when the game and every bot allow it), ``"scalar"`` or ``"batched"`` (see
    :func:`arena.tournament`).
    """
    new_game: Callable[[int], Game | Match] = partial(Match if match else Game, caboose=caboose)
    return arena.bot_tournament(
        bot,
        players,
        new_game,
        games=games,
        seed=seed,
        bot_options=bot_options,
        executor=executor,
        workers=workers,
        progress=progress,
        checkpoint=checkpoint,
        summarise=decisive,
        engine=engine,
        records=records,
    )


@dataclass(frozen=True)
class Decided:
    """How often the longest-run award and the caboose decided the winner, over ``games``."""

    games: int
    run_award: int
    caboose: int

    def to_dict(self) -> dict[str, int]:
        return {"games": self.games, "run_award": self.run_award, "caboose": self.caboose}


def decided(result: arena.TournamentResult) -> Decided:
    """Count the games of ``result`` (from :func:`tournament`) the run award or the caboose
    decided (:func:`express.decisive`)."""
    if not isinstance(result, arena.TournamentResult):
        raise TypeError(
            f"decided needs a tournament's result (express.tournament), not {type(result).__name__}"
        )
    counts = {s: n for s, n in (result.summaries or {}).items() if isinstance(s, Decisive)}
    return Decided(
        games=sum(counts.values()),
        run_award=sum(n for s, n in counts.items() if s.run_award),
        caboose=sum(n for s, n in counts.items() if s.caboose),
    )
