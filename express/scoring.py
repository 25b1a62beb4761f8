"""Scoring a finished game: train values, the longest-run award, the caboose, the winner.

Players are numbered in clockwise seating order. Each player scores their train's value; the
player(s) with the longest run of the game — any colour — gain 1 point per car of it, every
tied player included; the drawn caboose (if any) adds its points to every player meeting its
condition. The highest total wins; among tied players the one seated farthest clockwise from
the start player wins.

>>> game = score_game([Train.parse("R4|B4,B4|G4"), Train.parse("B2|B2,B2|B3")], start_player=0)
>>> [player.total for player in game.players], game.winner
([16, 13], 0)

For one train alone, :func:`solo_score` is the score the optimal-train search maximises.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from arena.values import whole_number
from express.cabooses import Caboose, caboose_named
from express.cards import Card
from express.errors import RulesError, type_error
from express.rules import MAX_PLAYERS, MIN_PLAYERS
from express.train import Train, without

__all__ = ["PlayerScore", "GameScore", "score_game", "solo_score", "winner_of", "MAX_PLAYERS"]


@dataclass(frozen=True)
class PlayerScore:
    """One player's breakdown: train value, longest run, the run award, caboose points."""

    player: int
    value: int
    longest_run: int
    run_bonus: int
    caboose_points: int

    @property
    def total(self) -> int:
        """Train value plus run bonus plus caboose points."""
        return self.value + self.run_bonus + self.caboose_points


@dataclass(frozen=True)
class GameScore:
    """The scores of a finished game and its winner (a player number, clockwise order);
    ``trains[i]`` is the train player ``i`` was scored on."""

    players: tuple[PlayerScore, ...]
    start_player: int
    longest_run: int
    caboose: Caboose | None
    winner: int
    trains: tuple[Train, ...] = ()

    @property
    def run_winners(self) -> tuple[int, ...]:
        """The players who gained the longest-run award (all tied players)."""
        return tuple(p.player for p in self.players if p.run_bonus > 0)

    @property
    def caboose_winners(self) -> tuple[int, ...]:
        """The players who gained the caboose's points."""
        return tuple(p.player for p in self.players if p.caboose_points > 0)

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON: every player's breakdown, the awards and the winner."""
        return {
            "players": [
                {
                    "player": p.player,
                    "value": p.value,
                    "longest_run": p.longest_run,
                    "run_bonus": p.run_bonus,
                    "caboose_points": p.caboose_points,
                    "total": p.total,
                }
                for p in self.players
            ],
            "start_player": self.start_player,
            "longest_run": self.longest_run,
            "run_winners": list(self.run_winners),
            "caboose": None if self.caboose is None else self.caboose.name,
            "caboose_winners": list(self.caboose_winners),
            "winner": self.winner,
            "trains": [str(train) for train in self.trains],
        }


def score_game(
    trains: Sequence[Train],
    *,
    start_player: int = 0,
    caboose: Caboose | str | None = None,
    deck: Iterable[Card] | None = None,
) -> GameScore:
    """Score the final trains of a game, ``trains[i]`` being player ``i``'s (clockwise order).

    From :data:`~express.rules.MIN_PLAYERS` (2) to :data:`MAX_PLAYERS` trains: one train is no
    game. ``caboose`` is a :class:`Caboose` or its name. When
    ``deck`` (the cards the game was dealt from, e.g. ``deck_for(len(trains))``) is given, a
    card the trains use more often than it holds raises a :class:`~express.PoolError`; without
    it any cards are accepted (hand-made examples, variants). ``express score`` passes the
    standard deck for the number of players.

    >>> from express.cabooses import caboose_named
    >>> trains = [Train.parse("B2|B2,B2|B3,~R4|B4"), Train.parse("R4|B4,B4|B4"), Train.parse("G3|G3")]
    >>> game = score_game(trains, start_player=1, caboose=caboose_named("Buried Alive"))
    >>> [(p.value, p.run_bonus, p.caboose_points) for p in game.players]
    [(13, 4, 7), (16, 0, 0), (6, 0, 0)]
    >>> game.winner  # 24 against 16 and 6
    0
    """
    if isinstance(trains, (str, Train)) or not isinstance(trains, Sequence):
        raise type_error(
            "score_game: trains",
            "a sequence of Train, one per player (Train.parse reads text)",
            trains,
        )
    for train in trains:
        if not isinstance(train, Train):
            raise type_error(
                "score_game: each train", "a Train (Train.parse(text) reads text)", train
            )
    start_player = whole_number(start_player, "start_player", where="score_game")
    if isinstance(caboose, str):
        caboose = caboose_named(caboose)
    elif caboose is not None and not isinstance(caboose, Caboose):
        raise type_error("score_game: caboose", "a Caboose, its name or None", caboose)
    if not trains:
        raise RulesError("cannot score a game without trains")
    if not MIN_PLAYERS <= len(trains) <= MAX_PLAYERS:
        # One train is no game: nobody to compare the run award or a relative caboose against.
        many = "too many" if len(trains) > MAX_PLAYERS else "too few"
        raise RulesError(
            f"{many} trains: {len(trains)} (Yardmaster Express is for {MIN_PLAYERS} to {MAX_PLAYERS} players, one train each)"
        )
    if not 0 <= start_player < len(trains):
        raise RulesError(
            f"invalid start player: {start_player!r} (players are numbered 0..{len(trains) - 1})"
        )
    if deck is not None:
        without(deck, [card for train in trains for card in train.cards])
    runs = [train.longest_run for train in trains]
    longest = max(runs)
    # Nobody earns an award for a run of length 0 (only engines and face-down cards).
    bonuses = [longest if run == longest else 0 for run in runs]
    if caboose is None:
        caboose_points = [0] * len(trains)
    else:
        caboose_points = [caboose.points if won else 0 for won in caboose.winners(trains, bonuses)]
    players = tuple(
        PlayerScore(i, train.value, run, bonus, points)
        for i, (train, run, bonus, points) in enumerate(zip(trains, runs, bonuses, caboose_points))
    )
    winner = winner_of([player.total for player in players], start_player=start_player)
    return GameScore(players, start_player, longest, caboose, winner, tuple(trains))


def winner_of(totals: Sequence[int], *, start_player: int = 0) -> int:
    """The winner of final ``totals`` (one per player, clockwise): the highest total; among tied
    players, the one seated farthest from the start player in clockwise order.

    >>> winner_of([20, 24, 24]), winner_of([20, 24, 24], start_player=2)
    (2, 1)
    """
    best = max(totals)
    return max(
        (player for player, total in enumerate(totals) if total == best),
        key=lambda player: (player - start_player) % len(totals),
    )


def solo_score(train: Train, *, bonus: bool = True, caboose: Caboose | None = None) -> int:
    """One train's score as the search counts it: value, its longest run (when ``bonus``), and the
    caboose's points when it is absolute and met. A relative caboose has no rival trains to be
    judged against, so it adds nothing here.

    >>> solo_score(Train.parse("R4|B4,B4|G4,G4|Y4,Y4|R4"))
    34
    """
    if not isinstance(train, Train):
        raise type_error("solo_score: train", "a Train (Train.parse(text) reads text)", train)
    if caboose is not None and not isinstance(caboose, Caboose):
        raise type_error(
            "solo_score: caboose", "a Caboose or None (caboose_named(name) finds one)", caboose
        )
    score = train.value + (train.longest_run if bonus else 0)
    if caboose is not None and not caboose.is_relative and caboose.met_by(train):
        score += caboose.points
    return score
