"""Looking back at finished games: what each player could have built, and what decided the winner.

>>> from arena import play
>>> from express.bots import bot
>>> from express.game import Game
>>> game = play(Game(2), [bot("greedy"), bot("random")], seed=3)
>>> [(h.player, h.best.score >= h.solo) for h in hindsight(game)]
[(0, True), (1, True)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from express.cards import Card
from express.errors import RulesError
from express.game import Game
from express.match import Match
from express.scoring import solo_score
from express.search import TrainSolution, best_train
from express.train import Train

__all__ = ["PlayerHindsight", "hindsight", "Decisive", "decisive"]


@dataclass(frozen=True)
class PlayerHindsight:
    """One player's game in hindsight.

    ``seen``: the cards that passed through the player's hands; ``best``: the best train of the
    game's length from those cards (:func:`express.best_train`: value + longest run + an absolute
    caboose met); ``solo``: the player's actual train scored the same way; ``total``: its actual
    score in the game (with the run award only if it won it, and a relative caboose).
    """

    player: int
    train: Train
    seen: tuple[Card, ...]
    solo: int
    total: int
    best: TrainSolution

    @property
    def gap(self) -> int:
        """How far the actual train fell short of the best one, on the same solo scale."""
        return self.best.score - self.solo

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: the player, the cards seen, the best train's result, solo, total, gap."""
        return {
            "player": self.player,
            "seen": [str(c) for c in self.seen],
            "best": self.best.to_dict(),
            "solo": self.solo,
            "total": self.total,
            "gap": self.gap,
        }


def hindsight(game: Game) -> tuple[PlayerHindsight, ...]:
    """For each player of a finished game, the best train it could have built from the cards that
    passed through its hands, and how far its actual train was from it.

    The best train ignores timing (a card seen on the last turn could not have been played on
    the first) and the other players; it is an upper bound of what the player's own choices
    could have made of the cards it saw. Both trains are scored alike: value + the train's own
    longest run + an absolute caboose it meets (a relative caboose compares trains, so neither
    counts it).
    """
    if not isinstance(game, Game):
        raise TypeError(f"hindsight needs an express Game, not {type(game).__name__}")
    if not game.is_terminal():
        raise RulesError("hindsight needs a finished game")
    score = game.score()
    return tuple(
        PlayerHindsight(
            player=seat,
            train=train,
            seen=game.seen_cards(seat),
            solo=solo_score(train, caboose=game.caboose),
            total=score.players[seat].total,
            best=best_train(game.seen_cards(seat), game.rounds, caboose=game.caboose),
        )
        for seat, train in enumerate(game.trains)
    )


@dataclass(frozen=True)
class Decisive:
    """Whether the longest-run award, and the caboose, decided the winner: without that part of
    every player's score (the same tie-break), someone else would have won."""

    run_award: bool
    caboose: bool


def _decisive_of_batch(batch: Any) -> list[Decisive]:
    """:func:`decisive` of every game of a finished :class:`express.batch.Batch`, from its
    arrays (what a batched tournament's records carry)."""
    totals = batch.returns()
    winner = batch.tie_break(totals)
    run_award = batch.tie_break(totals - batch.run_bonus) != winner
    caboose = batch.tie_break(totals - batch.caboose_points) != winner
    return [Decisive(bool(r), bool(c)) for r, c in zip(run_award.tolist(), caboose.tolist())]


def _winner(totals: Sequence[int], order: Sequence[int]) -> int:
    """The highest total; ties to the tied player latest in the order of play (the rules' tie-break)."""
    best = max(totals)
    return max((seat for seat in order if totals[seat] == best), key=list(order).index)


def decisive(state: Game | Match) -> Decisive:
    """What decided the winner of a finished game or match (the tournament's ``summarise`` hook).

    >>> from express.game import Game
    >>> from express.train import Play
    >>> game = Game(2, order="B2|B2,R2|R2,B2|B3,R2|R3,Y2|Y2,G2|G2", rounds=2)
    >>> for play in ("B2|B2", "~R2|R2", "B2|B3", "R2|R3"):
    ...     game.apply_action(Play.parse(play))
    >>> decisive(game)  # 13 against 9: the 4-car blue run decided it
    Decisive(run_award=True, caboose=False)
    """
    games = state.games if isinstance(state, Match) else [state]
    if not isinstance(state, (Game, Match)):
        raise TypeError(f"decisive needs an express Game or Match, not {type(state).__name__}")
    if not state.is_terminal():
        raise RulesError("decisive needs a finished game")
    scores = [game.score() for game in games]
    players = state.num_players
    totals = [sum(score.players[seat].total for score in scores) for seat in range(players)]
    runs = [sum(score.players[seat].run_bonus for score in scores) for seat in range(players)]
    cabooses = [
        sum(score.players[seat].caboose_points for score in scores) for seat in range(players)
    ]
    order = games[-1].seat_order()
    winner = _winner(totals, order)
    return Decisive(
        run_award=_winner([t - r for t, r in zip(totals, runs)], order) != winner,
        caboose=_winner([t - c for t, c in zip(totals, cabooses)], order) != winner,
    )


# A batched tournament asks its engine for these summaries: the same rule over a batch's arrays.
decisive.from_batch = _decisive_of_batch  # type: ignore[attr-defined]
