"""Exact play of a two-player deal whose card order is known: minimax with alpha-beta.

With two players and the whole deck order known there is no chance left: the start player
(player 0) is dealt the first two cards, every turn draws the next card, and the one circulating
hand passes between the two players. :func:`solve_order` finds the game value — player 0's final
score minus player 1's when both play to maximise their own side of that difference — and an
optimal line of plays.

How it is exact and fast
------------------------
*Value-to-go.* Train value is a sum over plays, so a node's value is what the remaining plays add
(each play's card value, 4 face down, signed by who plays it) plus the end-of-game terms: the
longest-run award and the caboose. Those end terms are computed by :func:`express.score_game`
itself on the finished trains — no second copy of the scoring rules.

*Equivalent states.* What the rest of the game depends on: the turn, the hand (a multiset; the
draws to come are fixed by the order), and for each player the last car (it decides what may
follow face up and whether a run goes on), the length of the run ending there, the longest run
so far, and what the caboose still depends on — the caboose's own ``memo_key`` for absolute
cabooses, and for relative ones the measure's sufficient summary (colours used, runs of two or
more so far, colour counts, train value, wild cars). A transposition table keyed by these holds
each state's value-to-go, or a lower/upper bound when alpha-beta cut it off.

*Alpha-beta.* Fail-soft alpha-beta over value-to-go windows; children tried by immediate gain
first. A stored bound narrows the window on a later visit; a state is searched again only when
the stored bound cannot settle it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from operator import itemgetter

import numpy as np

from express.cabooses import Caboose, caboose_named
from express.cards import ENGINE, WILD, Car, Card, Color
from express.errors import RulesError
from express.game import Game, GameAction, Observation
from express.rules import FACE_DOWN_VALUE, hand_size_for, rounds_for
from express.scoring import score_game
from express.train import Play, Train, connects

__all__ = ["DealSolution", "PerfectPolicy", "solve_deal", "solve_order"]

# The two-player rules: the start player's hand and the number of rounds.
_HAND_SIZE = hand_size_for(2)
_ROUNDS = rounds_for(2)
_FACE_DOWN_VALUE = FACE_DOWN_VALUE
_INFINITY = 10**9

# One player's position: last car, run ending there, longest run, caboose summary, value, cars
# (only kept with a caboose), plays as (card, face up) — the first four are what the future
# depends on; the rest rebuild the train at the end.
_Player = tuple[int, int, int, Hashable, int, tuple[Car, ...], tuple[tuple[int, bool], ...]]


@dataclass(frozen=True)
class DealSolution:
    """The exact value of a deal and one optimal line of plays (player 0 plays first)."""

    value: int
    """Player 0's final score minus player 1's under optimal play by both."""
    line: tuple[Play, ...]
    """The plays in turn order: player 0, player 1, player 0, …"""
    nodes: int
    """States searched (a measure of the work)."""

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON."""
        return {"value": self.value, "line": [str(play) for play in self.line], "nodes": self.nodes}


def _caboose_key(caboose: Caboose | None, row: tuple[Car, ...]) -> Hashable:
    if caboose is None:
        return ()
    if not caboose.is_relative and caboose.memo_key is not None:
        return caboose.memo_key(row)
    # A relative caboose's measure after any continuation: its summary (see Caboose.summary).
    return row if caboose.summary is None else caboose.summary(row)


class _Solver:
    """The search over integer ids: a distinct card, a car and a colour are small ints here."""

    def __init__(self, order: Sequence[Card], caboose: Caboose | None, rounds: int) -> None:
        self.caboose = caboose
        self.turns = 2 * rounds
        self.cards = sorted(set(order), key=str)
        self.card_id = card_id = {card: i for i, card in enumerate(self.cards)}
        self.order = tuple(card_id[card] for card in order)
        cars = sorted(
            {ENGINE, WILD} | {car for card in self.cards for car in (card.left, card.right)},
            key=str,
        )
        car_id = {car: i for i, car in enumerate(cars)}
        self.cars = cars
        self.color = [-1 if car.color is None else list(Color).index(car.color) for car in cars]
        self.engine, self.wild = car_id[ENGINE], car_id[WILD]
        self.value = [card.value for card in self.cards]
        self.left = [car_id[card.left] for card in self.cards]
        self.right = [car_id[card.right] for card in self.cards]
        # The connection rule, asked once per (last car, card) pair.
        self.fits = [[connects(last, card.left) for card in self.cards] for last in cars]
        self.table: dict[Hashable, tuple[int, int]] = {}
        self.ends: dict[Hashable, int] = {}
        self.nodes = 0

    def play(self, player: _Player, card: int, face_up: bool) -> _Player:
        last, run, longest, _, value, row, plays = player
        pair = (self.left[card], self.right[card]) if face_up else (self.wild, self.wild)
        color = self.color
        for car in pair:
            if color[car] < 0:
                run = 0
            elif color[car] == color[last]:
                run += 1
            else:
                run = 1
            if run > longest:
                longest = run
            last = car
        gained = self.value[card] if face_up else _FACE_DOWN_VALUE
        if self.caboose is None:  # nothing reads the cars: skip building the row
            return (last, run, longest, (), value + gained, row, plays + ((card, face_up),))
        new_row = row + (self.cars[pair[0]], self.cars[pair[1]])
        return (
            last,
            run,
            longest,
            _caboose_key(self.caboose, new_row),
            value + gained,
            new_row,
            plays + ((card, face_up),),
        )

    def moves(
        self, hand: tuple[int, ...], player: _Player
    ) -> list[tuple[int, int, bool, tuple[int, ...]]]:
        out = []
        fits = self.fits[player[0]]
        for i, card in enumerate(hand):
            if i and hand[i - 1] == card:
                continue  # identical cards are one choice
            rest = hand[:i] + hand[i + 1 :]
            if fits[card]:
                out.append((self.value[card], card, True, rest))
            out.append((_FACE_DOWN_VALUE, card, False, rest))
        out.sort(key=itemgetter(0), reverse=True)  # the largest gain first (stable: face up first)
        return out

    def end_terms(self, players: tuple[_Player, _Player]) -> int:
        # The run award depends only on the longest runs; a caboose's verdict on its summary and
        # the last car (see the module docstring).
        if self.caboose is None:
            key: Hashable = (players[0][2], players[1][2])
        else:
            key = (players[0][:4], players[1][:4])
        terms = self.ends.get(key)
        if terms is None:
            trains = [
                Train(tuple(Play(self.cards[card], up) for card, up in p[6])) for p in players
            ]
            game = score_game(trains, start_player=0, caboose=self.caboose)
            extra = [score.total - score.value for score in game.players]
            terms = self.ends[key] = extra[0] - extra[1]
        return terms

    def hand_at(self, t: int, hand: tuple[int, ...]) -> tuple[int, ...]:
        drawn = self.order[_HAND_SIZE + t]
        for i, card in enumerate(hand):  # the hand is sorted: insert the draw in place
            if drawn <= card:
                return hand[:i] + (drawn,) + hand[i:]
        return hand + (drawn,)

    def search(
        self, t: int, hand: tuple[int, ...], players: tuple[_Player, _Player], alpha: int, beta: int
    ) -> int:
        if t == self.turns:
            return self.end_terms(players)
        key = (t, hand, players[0][:4], players[1][:4])
        low, high = self.table.get(key, (-_INFINITY, _INFINITY))
        if low >= beta:
            return low
        if high <= alpha:
            return high
        if low == high:
            return low
        self.nodes += 1
        a, b = max(alpha, low), min(beta, high)
        mover = t % 2
        best = -_INFINITY if mover == 0 else _INFINITY
        for gain, card, face_up, rest in self.moves(self.hand_at(t, hand), players[mover]):
            moved = self.play(players[mover], card, face_up)
            if mover == 0:
                value = gain + self.search(t + 1, rest, (moved, players[1]), a - gain, b - gain)
                if value > best:
                    best = value
                    if best > a:
                        a = best
            else:
                value = self.search(t + 1, rest, (players[0], moved), a + gain, b + gain) - gain
                if value < best:
                    best = value
                    if best < b:
                        b = best
            if a >= b:
                break
        if best <= alpha:
            self.table[key] = (low, best)
        elif best >= beta:
            self.table[key] = (best, high)
        else:
            self.table[key] = (best, best)
        return best

    def start(self, train: Train) -> _Player:
        """The position of a train already on the table (a hidden face-down card: any card)."""
        player: _Player = (self.engine, 0, 0, _caboose_key(self.caboose, ()), 0, (), ())
        for play in train.plays:
            player = self.play(player, self.card_id.get(play.card, 0), play.face_up)
        return player

    def solve(self, turn: int, hand: tuple[Card, ...], trains: tuple[Train, Train]) -> DealSolution:
        """Solve from ``turn`` with ``hand`` (before that turn's draw) and the two trains."""
        ids = tuple(sorted(self.card_id[card] for card in hand))
        players = (self.start(trains[0]), self.start(trains[1]))
        target = self.search(turn, ids, players, -_INFINITY, _INFINITY)
        value = players[0][4] - players[1][4] + target
        line: list[Play] = []
        for t in range(turn, self.turns):
            mover = t % 2
            sign = 1 if mover == 0 else -1
            for gain, card, face_up, rest in self.moves(self.hand_at(t, ids), players[mover]):
                moved = self.play(players[mover], card, face_up)
                after = (moved, players[1]) if mover == 0 else (players[0], moved)
                g = sign * gain
                if g + self.search(t + 1, rest, after, target - g - 1, target - g + 1) == target:
                    line.append(Play(self.cards[card], face_up))
                    ids, players, target = rest, after, target - g
                    break
            else:  # pragma: no cover - some child always reaches the solved value
                raise AssertionError("no move reaches the solved value")
        return DealSolution(value, tuple(line), self.nodes)


def solve_order(
    order: Sequence[Card], *, caboose: Caboose | None = None, rounds: int = _ROUNDS
) -> DealSolution:
    """The exact value and an optimal line of a two-player deal dealt from ``order`` (top first).

    ``rounds`` defaults to the rules' two-player game (:func:`express.rules.rounds_for`).

    >>> from express.cards import deck_for
    >>> solution = solve_order(deck_for(2), rounds=2)
    >>> solution.value, [str(play) for play in solution.line]
    (0, ['B2|B2', 'B2|B2', 'R2|R2', 'R2|R2'])
    """
    if caboose is not None and not isinstance(caboose, Caboose):
        raise TypeError(
            "solve_order: caboose must be a Caboose or None (caboose_named(name) finds one), "
            f"not {type(caboose).__name__} {caboose!r}"
        )
    if isinstance(rounds, bool) or not isinstance(rounds, int):
        raise TypeError(f"solve_order: rounds must be an int, not {type(rounds).__name__}")
    if rounds < 1:
        raise RulesError(f"invalid number of rounds: {rounds!r} (at least 1)")
    needed = _HAND_SIZE + 2 * rounds
    if len(order) < needed:
        raise RulesError(
            f"a {rounds}-round two-player deal needs {needed} cards, the order has {len(order)}"
        )
    return _Solver(order, caboose, rounds).solve(0, tuple(order[:_HAND_SIZE]), (Train(), Train()))


def _position(
    order: Sequence[Card],
    caboose: Caboose | None,
    rounds: int,
    turn: int,
    hand: Sequence[Card],
    trains: tuple[Train, Train],
) -> DealSolution:
    """Solve from a position: ``hand`` holds the cards of the current turn (its draw included)."""
    if turn >= 2 * rounds:
        raise RulesError("the game is over: nothing left to solve")
    held = list(hand)
    held.remove(order[_HAND_SIZE + turn])  # the search adds each turn's draw itself
    return _Solver(order, caboose, rounds).solve(turn, tuple(held), trains)


def solve_deal(game: Game) -> DealSolution:
    """The exact value of a two-player game whose deck order is known, from its current state.

    The value is the start player's final score minus the other player's when both play
    optimally from here; the line lists the optimal plays from the current turn on.

    >>> from express.cards import deck_for
    >>> solve_deal(Game(2, order=deck_for(2), rounds=2)).value
    0
    """
    if not isinstance(game, Game):
        raise TypeError(f"solve_deal takes an express.Game, not {type(game).__name__}")
    if game.players != 2:
        raise RulesError(f"solve_deal solves two-player games, not {game.players} players")
    if game.order is None:
        raise RulesError("solve_deal needs the deck order: Game(2, order=...)")
    if game.caboose_pending:
        raise RulesError("the caboose has not been drawn yet")
    start = game.start_player
    trains = (game.trains[start], game.trains[1 - start])
    if game.is_terminal():
        score = game.score()
        return DealSolution(score.players[start].total - score.players[1 - start].total, (), 0)
    return _position(game.order, game.caboose, game.rounds, game.turn, game.hand_cards(), trains)


@dataclass(frozen=True)
class PerfectPolicy:
    """The yardstick: optimal play of a two-player game **with the deck order known** (a cheat).

    It rebuilds the position from its observation (a hidden face-down card changes nothing that
    is scored: it is two wild cars worth 2 whatever the card) and plays the first move of
    :func:`solve_deal`'s line, for either seat.
    """

    order: tuple[Card, ...]
    name: str = "perfect"

    def act(
        self,
        observation: Observation,
        legal_actions: Sequence[GameAction],
        rng: np.random.Generator,
    ) -> GameAction:
        if observation.players != 2:
            raise RulesError(
                f"the perfect player plays two-player games, not {observation.players} players"
            )
        caboose = None if observation.caboose is None else caboose_named(observation.caboose)
        start = observation.start_player
        hidden = self.order[0]  # any card stands for a hidden face-down one
        trains = tuple(
            Train(
                tuple(
                    Play(hidden, False) if play is None else play
                    for play in observation.trains[seat]
                )
            )
            for seat in (start, 1 - start)
        )
        solution = _position(
            self.order,
            caboose,
            observation.rounds,
            observation.turn,
            observation.hand,
            (trains[0], trains[1]),
        )
        return solution.line[0]
